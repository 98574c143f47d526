"""Special-hand classifier speed: compiled kernel vs the pure-Python twin, one core.

    .venv/bin/python benchmarks/bench_special.py [--hands 4000000] [--twin-hands 100000]

Random 14-card hands (uniform from the 108 cards, drawn with sim.rng) are classified as
count rows by ``sim.special.classify_many`` (the kernel loops over a 2-D array), chunk by
chunk; the twin ``tests/twins/special_twin.classify`` classifies card tokens of the first
hands in the same run. First-call compile time is measured in a fresh interpreter with an
empty numba cache, so neither an on-disk cache nor this run's warm-up hides it.
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

from sim.cards import format_card  # noqa: E402
from sim.encoding import CARD_KIND, N_CARDS, N_KINDS, SPECIAL_HAND_SIZE  # noqa: E402
from sim.rng import STATE_WORDS, rand_below, run_key, seed_hand  # noqa: E402
from sim.ruleset import Ruleset  # noqa: E402
from sim.special import classify_many  # noqa: E402
from tests.twins.special_twin import classify  # noqa: E402

_COMPILE_SNIPPET = """
import time, numpy as np
from sim.ruleset import Ruleset
from sim.special import classify_many
rows = np.zeros((1, 15), dtype=np.int64); out = np.zeros(1, dtype=np.int64)
t = time.perf_counter(); classify_many(rows, Ruleset().to_array(), out)
print(time.perf_counter() - t)
"""


@njit(cache=True)
def deal_rows(key, first, ids, rows, card_kind):
    """Hand i (global index first + i): 14 distinct cards by partial Fisher-Yates."""
    state = np.empty(STATE_WORDS, dtype=np.uint64)
    deck = np.empty(N_CARDS, dtype=np.int64)
    for i in range(rows.shape[0]):
        seed_hand(key, first + i, state)
        for c in range(N_CARDS):
            deck[c] = c
        for j in range(SPECIAL_HAND_SIZE):
            r = j + rand_below(state, N_CARDS - j)
            deck[j], deck[r] = deck[r], deck[j]
        for k in range(N_KINDS):
            rows[i, k] = 0
        for j in range(SPECIAL_HAND_SIZE):
            ids[i, j] = deck[j]
            rows[i, card_kind[deck[j]]] += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=4_000_000)
    ap.add_argument("--twin-hands", type=int, default=100_000)
    ap.add_argument("--chunk", type=int, default=500_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    rules = Ruleset().to_array()
    key = run_key(args.seed)
    chunk = min(args.chunk, args.hands)
    ids = np.empty((chunk, SPECIAL_HAND_SIZE), dtype=np.int64)
    rows = np.empty((chunk, N_KINDS), dtype=np.int64)
    out = np.empty(chunk, dtype=np.int64)

    first_call = compile_seconds(_COMPILE_SNIPPET)
    deal_rows(key, 0, ids[:1], rows[:1], CARD_KIND)  # warm up both kernels
    classify_many(rows[:1], rules, out[:1])

    kernel_time, done, found = 0.0, 0, np.zeros(5, dtype=np.int64)
    twin_tokens = []
    while done < args.hands:
        n = min(chunk, args.hands - done)
        deal_rows(key, done, ids[:n], rows[:n], CARD_KIND)  # not timed
        if len(twin_tokens) < args.twin_hands:
            take = min(n, args.twin_hands - len(twin_tokens))
            twin_tokens += [[format_card(c) for c in hand] for hand in ids[:take]]
        t = time.perf_counter()
        classify_many(rows[:n], rules, out[:n])
        kernel_time += time.perf_counter() - t
        found += np.bincount(out[:n], minlength=5)
        done += n

    t = time.perf_counter()
    for tokens in twin_tokens:
        classify(tokens)
    twin_time = time.perf_counter() - t

    kernel_rate = args.hands / kernel_time
    twin_rate = len(twin_tokens) / twin_time
    print(f"hands classified by kernel: {args.hands:,} in {kernel_time:.3f} s")
    print(f"kernel rate:   {kernel_rate:,.0f} hands/s (one core)")
    print(f"twin rate:     {twin_rate:,.0f} hands/s over {len(twin_tokens):,} hands")
    print(f"speed-up:      {kernel_rate / twin_rate:,.0f}x")
    print(f"first call (compile, empty cache): {first_call:.2f} s")
    print(f"special hands found (none, straight, pairs, p27a, garbage): {found.tolist()}")


if __name__ == "__main__":
    main()
