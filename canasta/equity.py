"""``canasta equity``: the chance of winning the game (GAME-1) from a pair of scores.

``--scores A,B`` prints team 0's chance to win from A against B, with either team to play
first, and its interval; ``--table FILE`` writes the whole table (CSV or Parquet, by the
suffix) and a heat map beside it. The table is measured and solved once per ruleset, policies
and settings, then read from the cache (``analysis.equity.cache_dir``; ``--cache DIR``).
"""

from __future__ import annotations

import argparse
import json

from canasta import flags

__all__ = ["run"]

HELP = "chance of winning the game from any pair of scores (the equity table)"
DESCRIPTION = """
Team 0's chance of winning the game (GAME-1, to the ruleset's target) from a pair of scores,
with either team to play first. Computed from the outcomes of hands measured for each pair of
opening minima (OPEN-1) with the given policies (default: the strongest fast policy against
itself), solved over a 10-point score grid (game-winning hands, SPECIAL-10, included); each
value has a 95% interval from a bootstrap of the measured hands. The first call for a ruleset
and policies builds the table (about two minutes); later calls read it from the cache.
"""  # argparse reflows it


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("equity", help=HELP, description=DESCRIPTION)
    what = p.add_mutually_exclusive_group(required=True)
    flags.scores(
        what,
        "team 0's and team 1's scores (GAME-1: no team may have won already; a tie at or over "
        "the target plays on)",
    )
    what.add_argument(
        "--table",
        metavar="FILE",
        help="write the table to FILE (.csv or .parquet) and its heat map to FILE's .png",
    )
    p.add_argument(
        "--policies",
        metavar="A,B",
        help="policies of team 0 and team 1 (default: the strongest fast one for both)",
    )
    flags.number(p, "-n", None, "hands measured per pair of opening minima (default 40,000)")
    flags.add(p, "seed", "jobs", "rules", "format")
    flags.number(
        p, "--step", 100, "with --table: points between the table's scores", metavar="POINTS"
    )
    flags.number(
        p,
        "--resolution",
        10,
        "points between the grid's scores: 5, 10, 20, 25 or 50 (coarser: faster)",
        metavar="POINTS",
    )
    p.add_argument("--cache", metavar="DIR", help="cache directory (default: the user cache)")
    p.add_argument(
        "--refresh", action="store_true", help="build the table again even if it is cached"
    )
    p.set_defaults(func=run)


def _line(v: dict) -> str:
    return (
        f"  team {v['first']} plays first: {v['win_team0']:.4f}  "
        f"[{v['ci_low']:.4f}, {v['ci_high']:.4f}]  (SE {v['se']:.4f})"
    )


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from analysis.equity import DEFAULT_N, equity_table
    from sim.errors import CanastaError
    from sim.finished import check_game_start
    from sim.limits import check_int, check_jobs, check_seed, parse_scores
    from sim.policies.registry import split_list
    from sim.ruleset import as_ruleset

    # every input is checked before the table is built (minutes): one line naming it
    check_seed(args.seed, "--seed")
    check_jobs(args.jobs, "--jobs")
    n = check_int("-n", DEFAULT_N if args.n is None else args.n, 100, 10**8)
    rules = as_ruleset(args.rules)
    scores = parse_scores(args.scores, "--scores") if args.scores is not None else None
    if scores is not None:
        check_game_start(scores, rules.target, "--scores")  # GAME-1: a tie plays on
    if args.table is not None:
        suffix = Path(args.table).suffix.lower()
        if suffix not in (".csv", ".parquet"):
            raise CanastaError(f"--table {args.table}: give a .csv or .parquet file")
        if args.step <= 0 or args.step % args.resolution:
            raise CanastaError(
                f"--step {args.step}: must be a positive multiple of the resolution "
                f"({args.resolution})"
            )
    if args.resolution <= 0 or 100 % args.resolution:
        raise CanastaError(f"--resolution {args.resolution}: must divide 100 (5, 10, 20, 25, 50)")
    policies = split_list(args.policies) if args.policies else None
    if policies is not None:
        from sim.api import resolve_policies

        resolve_policies(policies)  # an unknown name: refused now, before any work
    table = equity_table(
        rules,
        policies,
        n=n,
        **flags.run(args),
        cache=args.cache,
        refresh=args.refresh,
        resolution=args.resolution,
    )
    label = " vs ".join(table.meta["policy_labels"])
    if scores is not None:
        values = [table.value(*scores, first=t) for t in (0, 1)]
        if args.format == "json":
            print(
                json.dumps(
                    {"ruleset": table.meta["ruleset_label"], "policies": label, "values": values},
                    indent=1,
                )
            )
            return 0
        print(
            f"team 0 at {scores[0]:,} against team 1 at {scores[1]:,} (target "
            f"{table.target:,}; {label}; {table.meta['ruleset_label']}): chance team 0 wins"
        )
        for v in values:
            print(_line(v))
        print(f"  intervals: {values[0]['interval']}")
        return 0
    df = table.frame(step=args.step)
    path = Path(args.table)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".csv":
        df.to_csv(path, index=False)
    else:
        df.to_parquet(path, index=False)
    figure = path.with_suffix(".png")
    from reports.figures import DPI, equity_heatmap

    equity_heatmap(table, step=args.step).savefig(figure, dpi=DPI)
    if args.format == "json":
        print(json.dumps({"table": str(path), "figure": str(figure), "rows": len(df)}))
    else:
        print(f"{len(df):,} rows in {path}, heat map in {figure}")
    return 0
