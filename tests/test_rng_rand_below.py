"""DEAL-1: ``rand_below`` computes Lemire's rejection threshold
(``2**32 mod n``, a division) only when the low word of the product falls below ``n``. The
threshold is below ``n``, so a low word of ``n`` or more is accepted either way and the draws
are the same. The oracle is the function as it was (below, compiled here): the same values and
the same generator state after every draw, for every bound a deck or a policy uses and for
large bounds: just above 2**31, where about half the draws are rejected, and near 2**32, where
the low word nearly always falls below the bound, so the threshold is computed at nearly every
draw (though it is tiny there and almost nothing is rejected)."""

import numpy as np
from numba import njit

from sim.rng import next_u64, rand_below, seed_hand


@njit(cache=True)
def _rand_below_before(state, n):
    """``rand_below`` computing the threshold at every draw (commit a203b06)."""
    bound = np.uint64(n)
    threshold = (np.uint64(1 << 32) - bound) % bound
    while True:
        x = next_u64(state) >> np.uint64(32)
        m = x * bound
        if (m & np.uint64(0xFFFFFFFF)) >= threshold:
            return np.int64(m >> np.uint64(32))


@njit(cache=True)
def _mismatches(key, bounds, draws):
    """Draws of the two versions, each from its own copy of the same states, that differ in
    value or in the state left; 0 if none."""
    a = np.zeros(4, dtype=np.uint64)
    b = np.zeros(4, dtype=np.uint64)
    bad = 0
    for h in range(bounds.shape[0]):
        seed_hand(key, h, a)
        b[:] = a
        n = bounds[h]
        for _ in range(draws):
            if rand_below(a, n) != _rand_below_before(b, n):
                bad += 1
            for w in range(4):
                if a[w] != b[w]:
                    bad += 1
    return bad


def test_rand_below_draws_unchanged():
    key = np.array([1, 2, 3, 4], dtype=np.uint64)
    small = np.arange(1, 1000, dtype=np.int64)  # decks (108), action lists, rollouts
    # just above 2**31 about half the draws are rejected (2**32 mod n ~ 2**31); near 2**32 the
    # threshold is computed at nearly every draw (low word < n) but rejects almost none
    large = np.array(
        [2**31 - 1, 2**31, 2**31 + 1, 3 * 2**30 + 7, 2**32 - 5, 2**32 - 1], dtype=np.int64
    )
    assert _mismatches(key, small, 200) == 0
    assert _mismatches(key, large, 20_000) == 0


def test_rand_below_in_range():
    state = np.zeros(4, dtype=np.uint64)
    seed_hand(np.array([5, 6, 7, 8], dtype=np.uint64), 0, state)
    for n in (1, 2, 3, 108, 2**32 - 1):
        xs = [rand_below(state, n) for _ in range(2000)]
        assert min(xs) >= 0 and max(xs) < n
