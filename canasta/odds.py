"""``canasta odds``: the odds of being dealt a special hand (ODDS-1).

``--exact`` (the default) counts them exactly under the model ``sim.odds.model_statement``
(the list in force); ``-n DEALS``
samples real deals with the compiled sampler (``sim.sampler``) and prints each estimate with its
95% Wilson interval beside the exact value. JSON rows are ``{hand: {field: value}}``: the exact
fields, plus hits, deals, estimate, ci_low, ci_high when sampling.
"""

from __future__ import annotations

import argparse
import json

from canasta import flags

__all__ = ["run"]

HELP = "odds of being dealt a special hand (ODDS-1): exact, or sampled with -n"
DESCRIPTION = """
Odds that the first player's dealt hand is a special hand of the list in force (--rules; the
tournament list by default: Straight, Pairs, Pairs with twos-sevens-aces, Garbage) or any of
them, under the ODDS-1 model, computed exactly by counting.
"""  # argparse reflows it


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("odds", help=HELP, description=DESCRIPTION)
    p.add_argument(
        "--exact",
        action="store_true",
        help="count the odds exactly (the default mode, unless -n is given)",
    )
    p.add_argument("-n", "--deals", type=int, metavar="DEALS", help="sample DEALS real deals")
    flags.add(p, "seed", "jobs", seed="seed of the sampled deals (default 0)")
    p.add_argument(
        "--rel-error",
        type=float,
        metavar="R",
        help="keep sampling until every hand's relative standard error is at most R",
    )
    p.add_argument("--max-deals", type=int, metavar="M", help="cap on the deals --rel-error takes")
    flags.add(p, "quiet", "rules", "format")
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
    from sim.errors import CanastaError
    from sim.limits import check_jobs, check_seed
    from sim.odds import model_statement
    from sim.ruleset import as_ruleset

    check_seed(args.seed, "--seed")
    check_jobs(args.jobs, "--jobs")
    ruleset = as_ruleset(args.rules)
    if args.deals is not None or args.rel_error is not None:
        return run_sampled(args, ruleset)
    for flag in ("max_deals",):
        if getattr(args, flag) is not None:
            raise CanastaError("--max-deals goes with -n DEALS or --rel-error")
    rows = exact_rows(ruleset)
    if args.format == "json":
        print(json.dumps(rows))
    else:
        print(format_table(rows, model_statement(ruleset)))
        print(f"Ruleset: {ruleset.label}")
        if ruleset.special_hands == "none":
            print("(SPECIAL-7: special hands are off in this ruleset, so every odds is 0)")
    return 0


def run_sampled(args: argparse.Namespace, ruleset) -> int:
    """Monte Carlo mode: sample real deals, estimates beside the exact values."""
    import math

    from sim.errors import CanastaError
    from sim.limits import MAX_DEALS, check_count
    from sim.odds import exact_odds
    from sim.sampler import format_sampled, planned_deals
    from sim.sampling import sample_dealt_odds

    if args.exact:
        raise CanastaError("--exact and -n DEALS are two modes: give one")
    # every number is checked before any work starts (sim.limits), naming its flag
    n = check_count("-n", args.deals, MAX_DEALS) if args.deals is not None else 1_000_000
    if args.max_deals is not None:
        check_count("--max-deals", args.max_deals, MAX_DEALS)
    if args.rel_error is not None:
        r = args.rel_error
        if not (math.isfinite(r) and 0 < r < 1):
            raise CanastaError(f"--rel-error {r}: must lie strictly between 0 and 1")
        need = planned_deals(exact_odds(ruleset), r)
        if args.max_deals is None and need > MAX_DEALS:
            raise CanastaError(
                f"--rel-error {r:g} needs about {need:,.3g} deals, beyond the limit of "
                f"{MAX_DEALS:,}: ask for a larger R or cap it with --max-deals"
            )
    result = sample_dealt_odds(
        n,
        **flags.run(args),
        ruleset=ruleset,
        rel_error=args.rel_error,
        max_deals=args.max_deals,
        progress=False if args.quiet else None,
    )
    if args.format == "json":
        rows = exact_rows(ruleset)
        for name, row in result.to_dict().items():
            rows[name].update(row)
        print(json.dumps(rows))
    else:
        print(format_sampled(result, ruleset=ruleset))
        print(f"Ruleset: {ruleset.label}")
    return 0
