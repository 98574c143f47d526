"""Meld checker speed: compiled rule kernels vs their pure-Python twins, one core.

    .venv/bin/python benchmarks/bench_legality.py [--checks 2000000] [--openings 200000]

Two measures, each beside its twin (tests/twins/legality_twin.py) timed in the same run:
- ``meld_reason`` (MELD-1..9): random meld operations on random positions, a compiled loop
  over pre-built operation arrays;
- ``opening_search_alloc`` (OPEN-1..4): the largest initial meld of random 14-card hands.
First-call compile time is measured in a fresh interpreter with an empty numba cache.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _compile import compile_seconds  # noqa: E402

from sim import encoding as E  # noqa: E402
from sim.legality import meld_reason, opening_search_alloc  # noqa: E402
from sim.ruleset import Ruleset  # noqa: E402
from tests.test_legality import random_hand, random_melds  # noqa: E402
from tests.twins.legality_twin import meld_twin, opening_search_twin  # noqa: E402

_COMPILE_SNIPPET = """
import time, numpy as np
from sim.ruleset import Ruleset
from sim.legality import meld_reason, opening_search_alloc
r = Ruleset().to_array(); m = np.zeros((2, 15, 3), np.int64); h = np.zeros(15, np.int64)
t = time.perf_counter(); meld_reason(m, 0, 13, 3, 0, 0, True, False, r)
opening_search_alloc(h, np.zeros((15, 3), np.int64), m, -1, 0, r, np.zeros((15, 3), np.int64))
print(time.perf_counter() - t)
"""


@njit(cache=True)
def check_many(positions, ops, rules, out):
    """out[i] = meld_reason of op i: (team, slot, nat, two, joker, initial, position index)."""
    for i in range(ops.shape[0]):
        o = ops[i]
        out[i] = meld_reason(positions[o[6]], o[0], o[1], o[2], o[3], o[4], o[5] == 1, False, rules)


@njit(cache=True)
def open_many(hands, rules, out):
    pending = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    plan = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    melds = np.zeros((E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    for i in range(hands.shape[0]):
        out[i] = opening_search_alloc(hands[i], pending, melds, -1, 0, rules, plan)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checks", type=int, default=2_000_000)
    ap.add_argument("--openings", type=int, default=200_000)
    ap.add_argument("--twin-fraction", type=float, default=0.02)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    rules = Ruleset().to_array()

    n_pos = 1000
    positions = np.stack([random_melds(rng) for _ in range(n_pos)])
    ops = np.column_stack(
        [
            rng.integers(0, 2, args.checks),
            rng.integers(0, E.N_KINDS, args.checks),
            rng.integers(0, 5, args.checks),
            rng.integers(0, 3, args.checks),
            rng.integers(0, 3, args.checks),
            rng.integers(0, 2, args.checks),
            rng.integers(0, n_pos, args.checks),
        ]
    ).astype(np.int64)
    out = np.zeros(args.checks, dtype=np.int64)
    check_many(positions[:1], ops[:1] * 0, rules, out[:1])  # warm (cache load or compile)
    t = time.perf_counter()
    check_many(positions, ops, rules, out)
    kernel_rate = args.checks / (time.perf_counter() - t)
    n_twin = max(1, int(args.checks * args.twin_fraction))
    t = time.perf_counter()
    for o in ops[:n_twin]:
        got = meld_twin(
            positions[o[6]],
            int(o[0]),
            int(o[1]),
            int(o[2]),
            int(o[3]),
            int(o[4]),
            bool(o[5]),
            False,
            rules,
        )
    twin_rate = n_twin / (time.perf_counter() - t)
    assert got == out[n_twin - 1]

    hands = np.stack([random_hand(rng, 14) for _ in range(args.openings)])
    res = np.zeros(args.openings, dtype=np.int64)
    open_many(hands[:1], rules, res[:1])
    t = time.perf_counter()
    open_many(hands, rules, res)
    open_rate = args.openings / (time.perf_counter() - t)
    n_twin_open = max(1, int(args.openings * args.twin_fraction / 20))
    pending = np.zeros((E.N_KINDS, 3), dtype=np.int64)
    t = time.perf_counter()
    empty = np.zeros((E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    for h in hands[:n_twin_open]:
        opening_search_twin(h, pending, empty, -1, 0, rules)
    open_twin_rate = n_twin_open / (time.perf_counter() - t)

    print("| measure | figure |")
    print("| --- | --- |")
    print(f"| meld_reason kernel | {kernel_rate / 1e6:.1f} million checks/s ({args.checks:,}) |")
    print(f"| meld_reason twin (baseline) | {twin_rate:,.0f} checks/s ({n_twin:,}) |")
    print(f"| meld_reason speed-up | {kernel_rate / twin_rate:,.0f}x |")
    n_open = f"{args.openings:,} 14-card hands"
    print(f"| opening_search_alloc kernel | {open_rate:,.0f} hands/s ({n_open}) |")
    print(f"| opening_search_alloc twin | {open_twin_rate:,.1f} hands/s ({n_twin_open:,}) |")
    print(f"| opening_search_alloc speed-up | {open_rate / open_twin_rate:,.0f}x |")
    cold = compile_seconds(_COMPILE_SNIPPET)
    print(f"| first call, compile with an empty numba cache | {cold:.2f} s |")


if __name__ == "__main__":
    main()
