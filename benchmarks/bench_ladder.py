"""Strength ladder: a round robin of duplicate matches among the built-in fast policies.

    .venv/bin/python benchmarks/bench_ladder.py [--deals 2000] [--seed 0] [--jobs 2]
        [--policies random,greedy,heuristic,special_chaser,strong] [--expert-deals 0]

Every pair plays ``--deals`` duplicate deals (``analysis.compare.round_robin``: each deal twice,
seats swapped, the same deals for every pair). Prints the margin matrix (row policy's points
per hand minus the column's) with each cell's 95% interval half-width, and the policies ranked
by their mean margin over the others. ``--expert-deals N`` adds ``expert`` against heuristic
and strong on N deals (slow: ~2.6 hands/s/core).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FAST = ("random", "greedy", "heuristic", "special_chaser", "strong")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--policies", default=",".join(FAST))
    ap.add_argument("--expert-deals", type=int, default=0)
    args = ap.parse_args()

    from analysis.compare import duplicate, round_robin

    names = [p.strip() for p in args.policies.split(",") if p.strip()]
    t = time.time()
    table = round_robin(names, args.deals, seed=args.seed, n_jobs=args.jobs)
    half = (table["ci_high"] - table["ci_low"]) / 2
    cell = {}
    for (_, r), h in zip(table.iterrows(), half, strict=True):
        cell[r["policy_a"], r["policy_b"]] = (r["mean_diff"], h)
        cell[r["policy_b"], r["policy_a"]] = (-r["mean_diff"], h)
    w = max(len(n) for n in names) + 2
    print(f"margin matrix: row minus column, points per hand, +-95% half-width; {args.deals} ")
    print(f"duplicate deals per pair, seed {args.seed} ({time.time() - t:.0f} s wall)\n")
    print(" " * w + "".join(f"{n:>18}" for n in names))
    for a in names:
        row = "".join(
            f"{'':>18}" if a == b else f"{cell[a, b][0]:>+10.0f} +-{cell[a, b][1]:<5.0f}"
            for b in names
        )
        print(f"{a:<{w}}{row}")
    print("\nranked by mean margin over the others:")
    score = {a: sum(cell[a, b][0] for b in names if b != a) / (len(names) - 1) for a in names}
    for a in sorted(names, key=lambda n: -score[n]):
        print(f"  {a:<{w}}{score[a]:+8.0f}")
    if args.expert_deals:
        for other in ("heuristic", "strong"):
            t = time.time()
            c = duplicate("expert", other, args.expert_deals, seed=args.seed, n_jobs=args.jobs)
            s = c.summary
            print(
                f"expert vs {other}: {s['mean_diff']:+.0f} [{s['ci_low']:+.0f}, "
                f"{s['ci_high']:+.0f}] on {s['deals']} deals ({time.time() - t:.0f} s wall)"
            )


if __name__ == "__main__":
    main()
