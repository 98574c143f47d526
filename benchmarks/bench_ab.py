"""Throughput of this tree against a baseline checkout, interleaved finely enough for a noisy host.

    .venv/bin/python benchmarks/bench_ab.py --baseline <worktree> [--pair heuristic,heuristic]
        [--hands 300] [--slices 40]

On a shared virtual machine the speed of one core drifts by 10-30% over seconds (issue 12,
twelfth pass: whole runs of the same tree read 7,500-12,900 random hands/s). Whole runs taken
one after the other then compare windows, not trees. Here each tree has a worker process of
its own (``PYTHONPATH`` and working directory set to the tree, so each loads its own sources
and numba cache), both warmed up, and the two are asked in turn to play one slice of
``--hands`` hands (a few tenths of a second): the two slices of a pair run seconds apart at
most, the order swapped at every pair. Every slice plays the same deals (one run key, hand
ids from 0), through ``sim.api.play_hands`` as ``bench_engine.py`` does; CPU time of the
worker. Reported: each tree's hands/s (median of its slices), and the median of the per-pair
ratios with the spread of the middle half, which is the figure to read.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WORKER = r"""
import sys, time
from sim.api import play_hands
from sim.rng import run_key
pair = tuple(sys.argv[1].split(","))
play_hands(run_key(1), 0, 20, pair)  # load the compiled code
print("ready", flush=True)
for line in sys.stdin:
    n = int(line)
    c0 = time.process_time()
    df = play_hands(run_key(2), 0, n, pair)
    c = time.process_time() - c0
    print(f"{c!r} {len(df)}", flush=True)
"""


def _start(tree: Path, pair: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(tree))
    p = subprocess.Popen(
        [sys.executable, "-c", WORKER, pair],
        cwd=tree,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    line = p.stdout.readline()
    if line.strip() != "ready":
        raise SystemExit(f"worker in {tree} did not start (is its numba cache warm?)")
    return p


def _slice(p: subprocess.Popen, hands: int) -> float:
    p.stdin.write(f"{hands}\n")
    p.stdin.flush()
    cpu, n = p.stdout.readline().split()
    return int(n) / float(cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", required=True, type=Path, help="another checkout")
    ap.add_argument("--pair", default="heuristic,heuristic")
    ap.add_argument("--hands", type=int, default=300, help="hands a slice")
    ap.add_argument("--slices", type=int, default=40, help="slices a tree")
    args = ap.parse_args()
    if args.hands < 1 or args.slices < 1:
        raise SystemExit("--hands and --slices must be positive")
    trees = {"baseline": args.baseline.resolve(), "this tree": ROOT}
    workers = {name: _start(tree, args.pair) for name, tree in trees.items()}
    rates = {name: [] for name in trees}
    ratios = []
    for i in range(args.slices):
        order = ("baseline", "this tree") if i % 2 == 0 else ("this tree", "baseline")
        got = {name: _slice(workers[name], args.hands) for name in order}
        for name, r in got.items():
            rates[name].append(r)
        ratios.append(got["this tree"] / got["baseline"])
    for p in workers.values():
        p.stdin.close()
        p.wait()
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    print(f"{args.pair}: {args.slices} slices of {args.hands} hands a tree, interleaved")
    for name, tree in trees.items():
        r = rates[name]
        print(
            f"  {name} ({tree}): median {statistics.median(r):,.0f} hands/s (CPU), "
            f"range {min(r):,.0f}-{max(r):,.0f}"
        )
    print(
        f"  ratio this tree / baseline: median {statistics.median(ratios):.3f} "
        f"(middle half {q[0]:.3f}-{q[2]:.3f})"
    )


if __name__ == "__main__":
    main()
