"""Issue 12, fourth speed pass: ``observe`` copies the fields seen as they are
(``SEEN_FIELDS``) one by one instead of looping over the table; the observation must be the
one the table-driven ``observe_table`` (the oracle) writes, word for word, for every seat at
every step of real hands (TURN-1, DEAL-3..5, PILE-1/2, OPEN-1..5: the turn's flags, the
pile, the pending opening and the aside cards all vary along a hand)."""

import numpy as np
import pytest

from sim import encoding as E
from sim.engine.game import Game
from sim.engine.judge import forced_action
from sim.engine.observe import observe, observe_table

PAIRS = [("heuristic", "heuristic"), ("random", "random"), ("special_chaser", "greedy")]


def test_seen_fields_cover_the_copied_fields():
    """The unrolled copy names exactly the SEEN_FIELDS rows (a field added to the table and
    not to ``observe`` would show here as a word left at its sentinel)."""
    names = {int(o) for o in E.SEEN_FIELDS[:, 0]}
    assert E.OB_PHASE in names and E.OB_PENDING in names and E.OB_ASIDE in names
    assert len(names) == E.SEEN_FIELDS.shape[0] == 14


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_turn_1_observe_equals_observe_table_for_every_seat_at_every_step(pair):
    """TURN-1 and every public field: at each step of 4 hands (forced draws included), the
    observation of each of the four seats, written over a sentinel-filled array, equals the
    oracle's."""
    steps = 0
    got = np.empty(E.OBS_SIZE, dtype=np.int64)
    want = np.empty(E.OBS_SIZE, dtype=np.int64)
    for hand_id in range(4):
        g = Game(seed=61, hand_id=hand_id)
        while not g.is_over:
            for p in range(E.N_PLAYERS):
                got[:] = -12345
                want[:] = -54321
                observe(g.state, p, got)
                observe_table(g.state, p, want)
                assert np.array_equal(got, want), (pair, hand_id, g.turn, p)
            obs = g.observation()
            a = int(forced_action(obs))
            if a < 0:
                a = g.policy_action(pair[g.current_player % 2])
            g.apply(a)
            steps += 1
    assert steps >= 4 * 60, steps
