"""Engine speed: whole hands per second per core, decisions per second, compile time.

    .venv/bin/python benchmarks/bench_engine.py [--hands 20000] [--no-compile]

For each pairing (heuristic vs heuristic, random vs random, greedy vs greedy, special_chaser vs
heuristic) it plays ``--hands`` hands through ``sim.engine.hands.play_hands`` (the runner's chunk
function: deal, play, score, records as a DataFrame) on one core after a warm-up call, and
reports hands/s and policy decisions/s by CPU time of this process (the machine is shared, so
wall time is shown too). First-call compile time is measured separately in fresh interpreters:
with an empty numba cache (what a new install pays once) and with the cache warm.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PAIRS = (
    ("heuristic", "heuristic"),
    ("random", "random"),
    ("greedy", "greedy"),
    ("special_chaser", "heuristic"),
)

_FIRST_CALL = """
import time
t = time.perf_counter()
from sim.engine.hands import play_hands
from sim.rng import run_key
play_hands(run_key(0), 0, 1, ("heuristic", "heuristic"))
play_hands(run_key(0), 0, 1, ("random", "random"))
print(time.perf_counter() - t)
"""


def first_call_seconds(cache_dir: str | None) -> float:
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run(
        [sys.executable, "-c", _FIRST_CALL], env=env, cwd=ROOT, capture_output=True, text=True
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--no-compile", action="store_true", help="skip the compile-time runs")
    args = ap.parse_args()

    from sim.engine.hands import play_hands
    from sim.rng import run_key

    print("| pairing | hands | hands/s (CPU) | hands/s (wall) | decisions/s (CPU) | turns/hand |")
    print("| --- | --- | --- | --- | --- | --- |")
    for pair in PAIRS:
        play_hands(run_key(1), 0, 10, pair)  # warm-up: load the compiled code
        n = args.hands if "random" not in pair else max(args.hands // 4, 1)
        c0, w0 = time.process_time(), time.perf_counter()
        df = play_hands(run_key(2), 0, n, pair)
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        print(
            f"| {pair[0]} vs {pair[1]} | {n:,} | {n / cpu:,.0f} | {n / wall:,.0f} | "
            f"{df.decisions.sum() / cpu:,.0f} | {df.turns.mean():.1f} |"
        )
    if not args.no_compile:
        with tempfile.TemporaryDirectory() as empty:
            cold = first_call_seconds(empty)
        warm = first_call_seconds(None)
        print(f"\nfirst call, empty numba cache: {cold:.1f} s; with the cache warm: {warm:.2f} s")


if __name__ == "__main__":
    main()
