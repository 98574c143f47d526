"""Issue 12, fifteenth pass: after a player's own meld operation the hand loop updates the
observation it already holds (``observe_after_meld``: the hand, the cards aside, the hand's
size, the team's meld and the pending melds of the slot, the melded flag) instead of observing
again. The oracle is ``observe``: at every decision of real hands that follows a meld operation
of the same player (MELD-1..9, OPEN-1..5 with the aside cards joining the hand when the
opening stands, PILE-1/2), the updated observation equals it word for word.
"""

import numpy as np
import pytest

from sim import encoding as E
from sim.engine.game import Game
from sim.engine.judge import forced_action
from sim.engine.observe import observe, observe_after_meld

PAIRS = [("heuristic", "heuristic"), ("random", "random"), ("greedy", "special_chaser")]


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_observe_after_meld_equals_observe_after_every_meld_operation(pair):
    """MELD-1..9, OPEN-1..5, PILE-1/2: 12 hands; every meld operation followed by a decision of
    the same player (the hand loop's case) is checked, and the hands hold enough of them
    (openings with a taken pile's rest joining the hand included) to mean something."""
    checked, joined = 0, 0
    got = np.empty(E.OBS_SIZE, dtype=np.int64)
    want = np.empty(E.OBS_SIZE, dtype=np.int64)
    for hand_id in range(12):
        g = Game(seed=151, hand_id=hand_id)
        while not g.is_over:
            obs = g.observation()
            a = int(forced_action(obs))
            if a < 0:
                a = g.policy_action(pair[g.current_player % 2])
            p = g.current_player
            aside_before = int(obs[E.OB_ASIDE : E.OB_ASIDE + E.N_KINDS].sum())
            g.apply(a)
            is_meld = E.ACTION_TABLE[a, E.AC_TYPE] == E.AT_MELD
            if not is_meld or g.is_over or g.current_player != p:
                continue
            assert g.state[E.ST_PHASE] == E.PH_PLAY  # a meld operation keeps the turn
            got[:] = obs  # the observation the policy was given before the operation
            observe_after_meld(g.state, p, got, int(E.ACTION_TABLE[a, E.AC_SLOT]))
            want[:] = -54321
            observe(g.state, p, want)
            assert np.array_equal(got, want), (pair, hand_id, int(g.state[E.ST_TURN]), a)
            checked += 1
            if aside_before > 0 and got[E.OB_ASIDE : E.OB_ASIDE + E.N_KINDS].sum() == 0:
                joined += 1
    assert checked >= 50, checked
    if pair[0] != "random":
        assert joined >= 1, joined  # a taken pile's rest joined the hand at an opening
