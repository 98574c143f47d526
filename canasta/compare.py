"""``canasta compare A B -n N``: fair comparison of two policies on duplicate deals.

Every deal is played twice with the teams' policies swapped (same seed, same cards); the
output is A's points per hand minus B's and A's win rate, each with its 95% interval.
"""

from __future__ import annotations

import argparse
import json

from canasta import flags

__all__ = ["run"]

HELP = "compare two policies on duplicate deals (mean points difference, win rate)"
DESCRIPTION = """
Play N deals twice, A against B and then with the policies swapped, and report A's points per
hand minus B's and A's share of hands won, with 95% normal intervals over deals (paired
differences). Policies are registry names, optionally with parameters (name:param=value).
"""  # argparse reflows it


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("compare", help=HELP, description=DESCRIPTION)
    p.add_argument("policy_a", metavar="A", help="first policy (e.g. heuristic)")
    p.add_argument("policy_b", metavar="B", help="second policy (e.g. random)")
    p.add_argument("-n", type=int, default=10_000, help="number of deals (default 10000)")
    flags.add(p, "seed", "jobs", "format", "load")
    p.set_defaults(func=run)


def format_table(s: dict) -> str:
    a, b = s["policy_a"], s["policy_b"]
    return "\n".join(
        [
            f"{a} vs {b}: {s['deals']} duplicate deals (seed {s['seed']}), each played both ways",
            f"  mean points per hand, {a} minus {b}: {s['mean_diff']:+.1f}"
            f"  [{s['ci_low']:+.1f}, {s['ci_high']:+.1f}]  (SE {s['se']:.1f})",
            f"  {a} win rate: {s['win_rate_a']:.4f}"
            f"  [{s['win_ci_low']:.4f}, {s['win_ci_high']:.4f}]  (ties count 1/2)",
            f"  intervals: {s['interval']}",
        ]
    )


def run(args: argparse.Namespace) -> int:
    from analysis.compare import duplicate
    from sim.api import ROW_BYTES, resolve_policies
    from sim.limits import MAX_HANDS, check_count, check_in_memory, check_jobs, check_seed

    # every number is checked before any work starts (sim.limits)
    n = check_count("-n", args.n, MAX_HANDS, low=2)
    check_seed(args.seed, "--seed")
    check_jobs(args.jobs, "--jobs")
    check_in_memory(2 * n, ROW_BYTES, "hands", ": ask for fewer deals (-n)")  # both runs
    resolve_policies([args.policy_a, args.policy_b])  # unknown names: refused before playing
    result = duplicate(args.policy_a, args.policy_b, args.n, **flags.run(args))
    if args.format == "json":
        print(json.dumps(result.summary))
    else:
        print(format_table(result.summary))
    return 0
