"""``canasta experiment FILE.toml``: run a decision experiment declared in a spec file.

The spec (``analysis.specs``; a worked example in docs/report.md and
``experiments/example_sevens_late.toml``) names the positions, the two choices, the groupings and
the outcome; this command samples the positions from hands of the strongest fast policy, plays
both choices on the same deals at each, and prints the experiment's table (every row with its
95% interval and Holm-adjusted p-value across the table's rows) and the rule it supports.
"""

from __future__ import annotations

import argparse
import re

from canasta import _options

__all__ = ["run"]

HELP = "run a decision experiment declared in a TOML spec file"
DESCRIPTION = """
Run the decision experiment of FILE.toml (positions, the two choices, groupings, outcome: see
docs/report.md) on positions of real hands of the strongest fast policy, both choices on the
same deals, and print its table: each situation's effect (arm A minus arm B) with its 95%
interval and Holm-adjusted p-value, the verdict, and the rule of thumb it supports.
"""  # argparse reflows it


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("experiment", help=HELP, description=DESCRIPTION)
    p.add_argument("spec", metavar="FILE.toml", help="the experiment's spec file")
    p.add_argument(
        "--positions", type=int, default=80, metavar="N", help="positions to play (default 80)"
    )
    p.add_argument(
        "--deals",
        type=int,
        default=32,
        metavar="N",
        help="paired deals per position and choice (default 32)",
    )
    p.add_argument(
        "--hands",
        type=int,
        default=None,
        metavar="N",
        help="hands sampled for positions (default 6 a position, 100+)",
    )
    p.add_argument("--csv", metavar="FILE", help="also write the table as CSV")
    _options.add(p, "seed", "jobs", "rules", "quiet")
    p.set_defaults(func=run)


def format_table(exp, table, ruleset_name: str, attrs: dict) -> str:
    from analysis.decisions import rules_of_thumb, threshold_text

    lines = [
        f"{exp.title} — {exp.do} (A) vs {exp.dont} (B); outcome: {exp.outcome} points a hand, "
        f"A minus B; measured under {ruleset_name}",
        f"  {attrs.get('positions_found', 0):,} positions found in {attrs['sample_hands']:,} "
        f"hands of {attrs['policy']} (seed {attrs['seed']}), {attrs['deals']} paired deals each",
    ]
    cols = ("pos", "hands", "A − B", "95% CI", "adj. p")
    head = "  ".join(f"{c:>{w}}" for c, w in zip(cols, (5, 5, 8, 17, 7), strict=True))
    lines.append(f"  {'situation':<28} {head}  better")
    for _, r in table.iterrows():
        where = "all positions" if r["grouping"] == "all" else f"{r['grouping']}: {r['situation']}"
        ci = f"[{r['ci_low']:+,.0f}, {r['ci_high']:+,.0f}]" if r["hands"] > 1 else "—"
        p = "—" if r["p_adj"] != r["p_adj"] else f"{r['p_adj']:.3f}"
        est = f"{r['estimate']:+,.0f}" if r["hands"] else "—"
        lines.append(
            f"  {where:<28} {int(r['positions']):>5} {int(r['hands']):>5} {est:>8} "
            f"{ci:>17} {p:>7}  {r['better']}"
        )
    lines.append(
        f"  intervals: {table.attrs.get('interval', '')}; "
        f"correction: {table.attrs.get('correction', '')}"
    )
    seen = set()
    for rule in rules_of_thumb({exp.table: table}, [exp]):
        # a rule that says what another grouping's says, with other numbers, is not repeated
        gist = re.sub(r"\[[^\]]*\]|[−+]?\d[\d,.]*", "", rule.text)
        if gist not in seen:
            seen.add(gist)
            lines.append(f"  rule: {rule.text}")
    for t in threshold_text(exp, attrs.get("raw")):
        lines.append(f"  threshold: {t}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from analysis import decisions, specs
    from sim.errors import CanastaError
    from sim.limits import check_count, check_jobs, check_seed
    from sim.ruleset import as_ruleset

    exp = specs.load(args.spec)
    check_count("--positions", args.positions, 100_000, low=1)
    check_count("--deals", args.deals, 1_000_000, low=2)
    if args.hands is not None:
        check_count("--hands", args.hands, 1_000_000, low=1)
    check_seed(args.seed, "--seed")
    check_jobs(args.jobs, "--jobs")
    if args.csv is not None and not Path(args.csv).resolve().parent.is_dir():
        raise CanastaError(f"--csv {args.csv}: not a file in an existing directory")
    ruleset = as_ruleset(args.rules)
    name = f"ruleset file {Path(args.rules).name}" if args.rules else "the tournament ruleset"
    say = None if args.quiet else (lambda text: print(f"canasta experiment: {text}", flush=True))
    raw = decisions.run_experiments(
        args.positions,
        args.deals,
        seed=args.seed,
        ruleset=ruleset,
        sample_hands=args.hands,
        experiments=[exp],
        progress=say,
        n_jobs=args.jobs,
    )
    tabs = decisions.tables(raw, experiments=[exp])
    if exp.table not in tabs:
        print(
            f"{exp.title}: no position matched positions.where in "
            f"{raw.attrs['sample_hands']:,} hands, measured under {name}"
        )
        return 0
    attrs = dict(raw.attrs) | {"positions_found": len(raw), "raw": raw}
    print(format_table(exp, tabs[exp.table], name, attrs))
    if args.csv:
        tabs[exp.table].to_csv(args.csv, index=False)
    return 0
