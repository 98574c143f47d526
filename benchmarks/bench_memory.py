"""What the public card memory and sight of the hidden cards are worth, on duplicate deals.

    .venv/bin/python benchmarks/bench_memory.py [--deals 20000] [--expert-deals 300] [--seed 46]
        [--weight 1]

Each row is ``analysis.compare.duplicate(A, B, n)`` (= ``canasta compare A B -n``): every deal
played twice, seats swapped, points a hand of A minus B with its 95% interval (one core,
``n_jobs=1``). Rows:

- ``strong:memory_weight=W`` (strong reading the memory in its discard) against ``strong``;
- ``peeking_strong`` (strong that sees every hand, same weight) against ``strong``: the gap,
  a first measure of what hidden information is worth to strong's play;
- the share of that gap the memory closes (ratio of the two means, with a delta-method
  interval from the two runs' standard errors: the runs share deals, so the interval is a
  rough guide);
- ``expert:memory=1`` against ``expert`` at a small search budget (``--expert-deals`` deals,
  ``samples=8,rollouts=1``), when ``--expert-deals`` > 0.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

EXPERT_BUDGET = "samples=8,rollouts=1"


def _row(cmp, seconds: float) -> dict:
    s = cmp.summary
    return {
        "a": s["policy_a"],
        "b": s["policy_b"],
        "deals": s["deals"],
        "mean": s["mean_diff"],
        "low": s["ci_low"],
        "high": s["ci_high"],
        "se": s["se"],
        "seconds": seconds,
    }


def _compare(a: str, b: str, n: int, seed: int) -> dict:
    from analysis.compare import duplicate

    t = time.process_time()
    cmp = duplicate(a, b, n, seed=seed, n_jobs=1)
    return _row(cmp, time.process_time() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--expert-deals", type=int, default=0)
    ap.add_argument("--seed", type=int, default=46)
    ap.add_argument("--weight", type=float, default=1.0, help="memory_weight of both arms")
    args = ap.parse_args()
    w = f"memory_weight={args.weight:g}"
    rows = [
        _compare(f"strong:{w}", "strong", args.deals, args.seed),
        _compare(f"peeking_strong:{w}", "strong", args.deals, args.seed),
    ]
    if args.expert_deals > 0:
        rows.append(
            _compare(
                f"expert:{EXPERT_BUDGET},memory=1",
                f"expert:{EXPERT_BUDGET}",
                args.expert_deals,
                args.seed,
            )
        )
    for r in rows:
        print(
            f"{r['a']} vs {r['b']}: {r['deals']} deals, {r['mean']:+.1f} points a hand "
            f"(95% {r['low']:+.1f} to {r['high']:+.1f}, se {r['se']:.1f}), {r['seconds']:.0f} s CPU"
        )
    mem, peek = rows[0], rows[1]
    if peek["mean"] > 0:
        share = mem["mean"] / peek["mean"]
        rel = math.hypot(mem["se"] / max(abs(mem["mean"]), 1e-9), peek["se"] / peek["mean"])
        half = 1.96 * abs(share) * rel
        print(
            f"share of the peeking gap the memory closes: {share:.2f} "
            f"(rough 95% {share - half:.2f} to {share + half:.2f})"
        )
    else:
        print("share of the peeking gap: undefined (the gap is not positive)")


if __name__ == "__main__":
    main()
