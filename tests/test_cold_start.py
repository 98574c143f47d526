"""Cold start: the kernels rewritten so that a first run compiles less give the
answers of the code they replace (kept here as the oracle)."""

import numpy as np
import pytest

from sim import encoding as E
from sim.engine.judge import first_legal_action, legal_actions
from sim.play import Hand as Game
from sim.special import top_pairs

PAIRS = [("random", "random"), ("heuristic", "heuristic"), ("special_chaser", "greedy")]


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_turn_1_first_legal_action_is_legal_actions_first(pair):
    """TURN-1 and the rules core: the engine's replacement for an illegal proposal,
    ``first_legal_action``, is ``legal_actions``' first id at every decision of real hands
    (and of positions after every legal reply, the draw, red-threes and play phases)."""
    tmp = np.zeros(E.TMP_SIZE, dtype=np.int64)
    legal = np.zeros(E.N_ACTIONS, dtype=np.int64)
    decisions = 0
    for hand_id in range(3):
        g = Game(seed=61, hand_id=hand_id)
        for t in g.turns(pair):  # every step, forced ones included, before its action
            n = legal_actions(t.obs, g.rules, legal, tmp)
            assert n > 0
            assert first_legal_action(t.obs, g.rules, tmp) == legal[0], (pair, hand_id, g.turn)
            decisions += 1
    assert decisions >= 3 * 40


def test_special_3_to_6_top_pairs_is_the_sorted_sum():
    """SPECIAL-4/5 (nearest special hand): ``top_pairs`` counts the best ``n`` natural ranks'
    shared cards (2, 1 or 0 each) without sorting; the oracle sorts them, on random counts."""
    gen = np.random.default_rng(5)
    for _ in range(2000):
        counts = gen.integers(0, 5, E.N_KINDS).astype(np.int64)
        n = int(gen.integers(0, 9))
        skip_a, skip_b = (int(x) for x in gen.choice(np.arange(-1, E.N_KINDS), 2))
        shared = [
            min(int(counts[k]), 2)
            for k in range(E.FIRST_NATURAL, E.N_KINDS)
            if k not in (skip_a, skip_b)
        ]
        want = sum(sorted(shared, reverse=True)[:n])
        assert top_pairs(counts, n, skip_a, skip_b) == want, (counts, n, skip_a, skip_b)
