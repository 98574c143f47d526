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


# ---------------------------------------------------------------------------------------
# Seeding: every hand id gets its own generator
# ---------------------------------------------------------------------------------------
N_IDS = 100_001  #: hand ids 0..100,000


def _states_and_decks(key, ids):
    """Generator state and shuffled deck (sim.engine.play.new_deck, DEAL-1) of each hand id."""
    from sim.encoding import N_CARDS
    from sim.engine.play import new_deck

    states = np.empty((len(ids), STATE_WORDS), dtype=np.uint64)
    decks = np.empty((len(ids), N_CARDS), dtype=np.int8)
    s = np.empty(STATE_WORDS, dtype=np.uint64)
    deck = np.empty(N_CARDS, dtype=np.int64)
    for row, i in enumerate(ids):
        seed_hand(key, int(i), states[row])
        s[:] = states[row]
        new_deck(s, deck)
        decks[row] = deck
    return states, decks


def test_seeding_hand_ids_0_to_100000_distinct_states_and_deals():
    """Guards per-hand seeding (sim.rng.seed_hand): hand ids 0..100,000 of one run get
    100,001 distinct generator states and 100,001 distinct deals (DEAL-1: the shuffled deck
    the engine deals from), and another run's hands differ from this run's. Deterministic: a
    seed folded onto few values (say ``i % 1000``) repeats states and deals, whatever the
    statistics of the cards."""
    states, decks = _states_and_decks(run_key(2024), range(N_IDS))
    assert len(np.unique(states, axis=0)) == N_IDS
    assert len(np.unique(decks, axis=0)) == N_IDS
    other, other_decks = _states_and_decks(run_key(2025), range(0, N_IDS, 97))
    both = np.concatenate([states, other])
    assert len(np.unique(both, axis=0)) == len(both)
    assert not any(np.array_equal(a, b) for a, b in zip(decks[::97], other_decks, strict=True))


def test_seeding_engine_hands_1000_apart_are_different_deals():
    """Guards the engine's use of the seeding (sim.engine.play.play_hands_kernel deals hand
    ``i`` from ``seed_hand(key, i)``): hands i, i + 1,000 and i + 100,000 of one run, with the
    same first player (i % 4), are different deals, so their records differ (a hand's record
    is a function of its deal and policies alone: the same deal gives the same row)."""
    from sim.api import play_hands

    key = run_key(8)
    cols = None
    rows = []
    for start in (0, 1000, 100_000):
        df = play_hands(key, start, start + 40, ("greedy", "greedy"))
        cols = [c for c in df.columns if c != "hand_id"]
        rows.append(df[cols].to_numpy())
    again = play_hands(key, 1000, 1040, ("greedy", "greedy"))[cols].to_numpy()
    assert np.array_equal(again, rows[1])  # the check can see equality
    for a, b in ((0, 1), (0, 2), (1, 2)):
        same = (rows[a] == rows[b]).all(axis=1)
        assert not same.any(), (a, b, np.flatnonzero(same))
