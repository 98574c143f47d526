"""``canasta odds``: the odds of being dealt a special hand (ODDS-1).

``--exact`` (the default and, for now, the only mode) counts them exactly under the model
``sim.odds.MODEL``. The module is laid out for a second mode: ``run`` picks a mode, each mode
returns ``{hand: {field: value}}`` rows, and the formatters print whatever fields the rows hold,
so a Monte Carlo mode (``-n DEALS``) can add its estimate and interval fields beside "exact".
"""

from __future__ import annotations

import argparse
import json


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "odds",
        help="odds of being dealt a special hand (exact, ODDS-1)",
        description=(
            "Odds that the first player's dealt hand is a special hand (Straight, Pairs, "
            "Pairs with twos-sevens-aces, Garbage) or any of them, under the ODDS-1 model, "
            "computed exactly by counting."
        ),
    )
    p.add_argument(
        "--exact",
        action="store_true",
        help="count the odds exactly (the default mode)",
    )
    p.add_argument("--rules", metavar="FILE.toml", help="ruleset overrides (TOML)")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(func=run)


def exact_rows(ruleset) -> dict[str, dict]:
    """ODDS-1 exact odds as rows: exact (float), fraction ('p/q'), one_in (1/p rounded)."""
    from sim.odds import exact_odds

    rows = {}
    for name, p in exact_odds(ruleset).items():
        rows[name] = {
            "exact": float(p),
            "fraction": f"{p.numerator}/{p.denominator}",
            "one_in": round(1 / p) if p else None,
        }
    return rows


def format_table(rows: dict[str, dict], model: str) -> str:
    import textwrap

    width = max(len(name) for name in rows)
    lines = textwrap.wrap(model, 92)
    lines.append("")
    lines.append(f"{'hand':<{width}}  {'probability':>12}  {'one in':>12}  exact fraction")
    for name, row in rows.items():
        one_in = f"{row['one_in']:,}" if row["one_in"] else "never"
        lines.append(f"{name:<{width}}  {row['exact']:>12.4e}  {one_in:>12}  {row['fraction']}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from sim.odds import MODEL
    from sim.ruleset import as_ruleset

    ruleset = as_ruleset(args.rules)
    # The exact mode is the default; a sampling mode (-n DEALS) will branch here and may
    # merge its estimate fields into the same rows.
    rows = exact_rows(ruleset)
    if args.format == "json":
        print(json.dumps(rows))
    else:
        print(format_table(rows, MODEL))
        if ruleset.special_hands == "none":
            print("(SPECIAL-7: special hands are off in this ruleset, so every odds is 0)")
    return 0
