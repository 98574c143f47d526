"""Randomness, always passed in: one small generator state per hand, derived from (seed, hand).

A run's integer seed goes through ``numpy.random.SeedSequence`` once, giving a 256-bit key
(``run_key``). Each hand ``i`` then gets its own xoshiro256** state by mixing the key with
``i`` through splitmix64 (``seed_hand``), inside compiled code. A hand's cards and its policies'
choices therefore depend only on (seed, hand index): never on jobs, chunk size or order.

State is a ``uint64[4]`` array the caller owns; kernels advance it in place.
Reference: Blackman & Vigna, "Scrambled linear pseudorandom number generators" (xoshiro256**).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["STATE_WORDS", "rand_below", "rand_float", "run_key", "seed_hand", "shuffle"]

STATE_WORDS = 4  #: uint64 words of a generator state
KEY_WORDS = 4  #: uint64 words of a run key

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def run_key(seed: int | np.random.SeedSequence) -> np.ndarray:
    """256-bit key of a run (uint64[4]) from an int seed 0..2**63-1 (``sim.limits``) or a
    SeedSequence."""
    from sim.limits import check_seed

    seed = check_seed(seed)
    if isinstance(seed, np.random.SeedSequence):
        ss = seed
    else:
        ss = np.random.SeedSequence(seed)
    return ss.generate_state(KEY_WORDS, dtype=np.uint64)


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, _nrt=False)
def splitmix64(x):
    """One splitmix64 output for input x (uint64); used only to seed states."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, _nrt=False)
def seed_hand(key, index, state):
    """Fill ``state`` (uint64[4]) for hand ``index`` of the run with key ``key``."""
    x = np.uint64(index) * _GOLDEN
    for w in range(STATE_WORDS):
        x = splitmix64(x ^ key[w])
        state[w] = x
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = _GOLDEN  # xoshiro's one forbidden state


@njit(cache=True, _nrt=False)
def next_u64(state):
    """Next 64 random bits (xoshiro256**), advancing ``state``."""
    result = _rotl(state[1] * np.uint64(5), 7) * np.uint64(9)
    t = state[1] << np.uint64(17)
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl(state[3], 45)
    return result


@njit(cache=True, _nrt=False)
def rand_below(state, n):
    """Uniform integer in [0, n) for 0 < n < 2**32 (Lemire's multiply-shift, unbiased).
    The rejection threshold ``2**32 mod n`` is below ``n``, so it is computed (a division)
    only when the low word falls below ``n``: the same draws as computing it first
    (tests/test_rng_rand_below.py)."""
    bound = np.uint64(n)
    x = next_u64(state) >> np.uint64(32)
    m = x * bound
    low = m & np.uint64(0xFFFFFFFF)
    if low < bound:
        threshold = (np.uint64(1 << 32) - bound) % bound
        while low < threshold:
            x = next_u64(state) >> np.uint64(32)
            m = x * bound
            low = m & np.uint64(0xFFFFFFFF)
    return np.int64(m >> np.uint64(32))


@njit(cache=True, _nrt=False)
def rand_float(state):
    """Uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, _nrt=False)
def shuffle(state, arr):
    """Fisher-Yates shuffle of ``arr`` in place."""
    for i in range(arr.shape[0] - 1, 0, -1):
        j = rand_below(state, i + 1)
        arr[i], arr[j] = arr[j], arr[i]
