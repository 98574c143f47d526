"""The per-hand generator: determinism, independence of hands, uniformity."""

import numpy as np
import pytest

from sim.errors import CanastaError
from sim.rng import STATE_WORDS, next_u64, rand_below, run_key, seed_hand, shuffle


def _state(seed, index):
    s = np.empty(STATE_WORDS, dtype=np.uint64)
    seed_hand(run_key(seed), index, s)
    return s


def test_same_seed_and_hand_same_stream():
    a, b = _state(7, 123), _state(7, 123)
    assert [next_u64(a) for _ in range(5)] == [next_u64(b) for _ in range(5)]


def test_different_hands_and_seeds_differ():
    firsts = {int(next_u64(_state(seed, i))) for seed in range(3) for i in range(200)}
    assert len(firsts) == 600


def test_bad_seed_is_refused():
    for bad in (-1, 1.5, "x", True):
        with pytest.raises(CanastaError, match="seed"):
            run_key(bad)


def test_rand_below_is_uniform_chi_square():
    # 60,000 draws in 6 cells: chi-square with 5 dof; 30 is far beyond its 0.99999 quantile (~28.3)
    s = _state(1, 0)
    counts = np.bincount([rand_below(s, 6) for _ in range(60_000)], minlength=6)
    chi2 = ((counts - 10_000) ** 2 / 10_000).sum()
    assert chi2 < 30, counts


def test_shuffle_is_a_permutation_and_uniform_on_first_position():
    s = _state(2, 5)
    first = np.zeros(4, dtype=np.int64)
    for _ in range(40_000):
        arr = np.arange(4)
        shuffle(s, arr)
        assert sorted(arr.tolist()) == [0, 1, 2, 3]
        first[arr[0]] += 1
    chi2 = ((first - 10_000) ** 2 / 10_000).sum()
    assert chi2 < 25, first  # 3 dof; 25 is beyond the 0.99998 quantile
