"""Engine speed: whole hands per second per core, decisions per second, compile time.

    .venv/bin/python benchmarks/bench_engine.py [--hands 20000] [--no-compile] [--per-decision]
        [--pair heuristic,heuristic] [--repeat 3]

For each pairing (heuristic vs heuristic, random vs random, greedy vs greedy, special_chaser vs
heuristic) it plays ``--hands`` hands through ``sim.api.play_hands`` (the runner's chunk
function: deal, play, score, records as a DataFrame) on one core after a warm-up call, and
reports hands/s and policy decisions/s by CPU time of this process (the machine is shared, so
wall time is shown too). First-call compile time is measured separately in fresh interpreters:
with an empty numba cache (what a new install pays once) and with the cache warm.
``--per-decision`` times the heuristic's decisions (its policy call plus the engine's check of
its choice) on positions collected from 40 real hands, grouped by phase and opened/not.
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
from sim.api import play_hands
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


def per_decision(n_hands: int = 40, reps: int = 50) -> None:
    """Microseconds per heuristic decision (policy + the engine's check), by kind of step."""
    import numpy as np
    from bench_decisions import collect  # the decisions of played hands (same directory)
    from numba import njit

    from sim.encoding import OB_OPENED, OB_PHASE, PHASE_NAMES, SCRATCH_SIZE, SCRATCH_TMP, TMP_SIZE
    from sim.engine.judge import action_reason
    from sim.policies import get
    from sim.policies.builtin import heuristic_decide

    obs_all, rules = collect(("heuristic", "heuristic"), n_hands)
    params = get("heuristic").param_array()
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    rng = np.ones(4, dtype=np.uint64)
    cache = np.zeros(1, dtype=np.int64)

    try:  # the engine's check as the hand loop makes it (issue 12, eleventh pass)
        from sim.encoding import PC_SIZE, PC_VALID
        from sim.engine.views import scratch_hint

        try:
            from sim.engine.judge import judge_choice
        except ImportError:  # before the eleventh pass: check_action alone
            from sim.engine.judge import check_action as judge_choice

        @njit(inline="always")
        def check(o, a, rules, tmp, cache, scratch):
            cache[PC_VALID] = 0
            return judge_choice(o, a, rules, tmp, cache, scratch_hint(scratch))

        cache = np.zeros(PC_SIZE, dtype=np.int64)  # check_action's plan, emptied at each check
    except ImportError:  # an engine before the ninth pass, for a baseline: its validator

        @njit(inline="always")
        def check(o, a, rules, tmp, cache, scratch):
            return action_reason(o, a, rules, tmp)

    @njit
    def timed(obs_rows, params, rng, rules, scratch, cache, reps):
        tmp = scratch[SCRATCH_TMP : SCRATCH_TMP + TMP_SIZE]
        s = 0
        for i in range(obs_rows.shape[0]):
            o = obs_rows[i].copy()
            for _ in range(reps):
                a = heuristic_decide(o, params, rng, rules, scratch)
                s += check(o, a, rules, tmp, cache, scratch)
        return s

    timed(obs_all[:1], params, rng, rules, scratch, cache, 1)
    print("\n| step | decisions (40 hands) | µs per decision | µs per hand |")
    print("| --- | --- | --- | --- |")
    for phase in (1, 2):
        for opened in (0, 1):
            rows = np.ascontiguousarray(
                obs_all[(obs_all[:, OB_PHASE] == phase) & (obs_all[:, OB_OPENED] == opened)]
            )
            if len(rows) == 0:
                continue
            t = time.perf_counter()
            timed(rows, params, rng, rules, scratch, cache, reps)
            dt = (time.perf_counter() - t) / reps
            label = f"{PHASE_NAMES[phase]}, {'opened' if opened else 'not opened'}"
            print(
                f"| {label} | {len(rows)} | {dt / len(rows) * 1e6:.2f} | {dt / n_hands * 1e6:.1f} |"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--no-compile", action="store_true", help="skip the compile-time runs")
    ap.add_argument("--per-decision", action="store_true", help="time heuristic decisions")
    ap.add_argument("--pair", help="only this pairing, e.g. 'heuristic,heuristic'")
    ap.add_argument("--repeat", type=int, default=1, help="runs per pairing (the best is shown)")
    args = ap.parse_args()
    if args.per_decision:
        per_decision()
        return

    from sim.api import play_hands
    from sim.rng import run_key

    print("| pairing | hands | hands/s (CPU) | hands/s (wall) | decisions/s (CPU) | turns/hand |")
    print("| --- | --- | --- | --- | --- | --- |")
    pairs = [tuple(args.pair.split(","))] if args.pair else PAIRS
    for pair in pairs:
        play_hands(run_key(1), 0, 10, pair)  # warm-up: load the compiled code
        n = args.hands if "random" not in pair else max(args.hands // 4, 1)
        cpu = wall = float("inf")
        for _ in range(max(args.repeat, 1)):  # the least disturbed run on a shared machine
            c0, w0 = time.process_time(), time.perf_counter()
            df = play_hands(run_key(2), 0, n, pair)
            c, w = time.process_time() - c0, time.perf_counter() - w0
            cpu, wall = min(cpu, c), min(wall, w)
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
