"""TURN-1, DEAL-*: the observation the hand loop writes cheaply is the one the table-driven
observation writes, word for word: ``observe`` (the seen fields copied one by one,
``SEEN_FIELDS``) against ``observe_table`` for every seat at every step of real hands, and the
update after a player's own meld operation (``observe_after_meld``) against observing again.
"""

import numpy as np
import pytest

from sim import encoding as E
from sim.engine.observe import observe, observe_after_meld, observe_table
from sim.play import Hand as Game
from sim.play import SeatView

OBSERVE_PAIRS = [("heuristic", "heuristic"), ("random", "random"), ("special_chaser", "greedy")]


def test_seen_fields_cover_the_copied_fields():
    """The unrolled copy names exactly the SEEN_FIELDS rows (a field added to the table and
    not to ``observe`` would show here as a word left at its sentinel)."""
    names = {int(o) for o in E.SEEN_FIELDS[:, 0]}
    assert E.OB_PHASE in names and E.OB_PENDING in names and E.OB_ASIDE in names
    assert len(names) == E.SEEN_FIELDS.shape[0] == 15  # open_rules (OPEN-1/2) the 15th


@pytest.mark.parametrize("pair", OBSERVE_PAIRS, ids="-".join)
def test_turn_1_observe_equals_observe_table_for_every_seat_at_every_step(pair):
    """TURN-1 and every public field: at each step of 4 hands (forced draws included), the
    observation of each of the four seats, written over a sentinel-filled array, equals the
    oracle's."""
    steps = 0
    got = np.empty(E.OBS_SIZE, dtype=np.int64)
    want = np.empty(E.OBS_SIZE, dtype=np.int64)
    for hand_id in range(4):
        g = Game(seed=61, hand_id=hand_id)
        for _ in g.turns(pair):  # each step before its action is applied
            for p in range(E.N_PLAYERS):
                got[:] = -12345
                want[:] = -54321
                observe(g.state, p, got)
                observe_table(g.state, p, want)
                assert np.array_equal(got, want), (pair, hand_id, g.turn, p)
            steps += 1
    assert steps >= 4 * 60, steps


AFTER_MELD_PAIRS = [("heuristic", "heuristic"), ("random", "random"), ("greedy", "special_chaser")]


@pytest.mark.parametrize("pair", AFTER_MELD_PAIRS, ids="-".join)
def test_observe_after_meld_equals_observe_after_every_meld_operation(pair):
    """MELD-1..9, OPEN-1..5, PILE-1/2: 12 hands; every meld operation followed by a decision of
    the same player (the hand loop's case) is checked, and the hands hold enough of them
    (openings with a taken pile's rest joining the hand included) to mean something."""
    checked, joined = 0, 0
    got = np.empty(E.OBS_SIZE, dtype=np.int64)
    want = np.empty(E.OBS_SIZE, dtype=np.int64)

    def after(g, t) -> None:
        """``t``'s action now applied: a meld operation keeping the turn is checked."""
        nonlocal checked, joined
        p, a = t.seat, t.action
        is_meld = E.ACTION_TABLE[a, E.AC_TYPE] == E.AT_MELD
        if not is_meld or g.is_over or g.current_player != p:
            return
        assert g.state[E.ST_PHASE] == E.PH_PLAY  # a meld operation keeps the turn
        got[:] = t.obs  # the observation the policy was given before the operation
        observe_after_meld(g.state, p, got, int(E.ACTION_TABLE[a, E.AC_SLOT]))
        want[:] = -54321
        observe(g.state, p, want)
        assert np.array_equal(got, want), (pair, hand_id, g.turn, a)
        checked += 1
        if SeatView.from_observation(t.obs).aside.sum() > 0 and not got_view().aside.sum():
            joined += 1

    def got_view():
        return SeatView.from_observation(got)

    for hand_id in range(12):
        g = Game(seed=151, hand_id=hand_id)
        last = None
        for t in g.turns(pair):
            if last is not None:
                after(g, last)  # the previous action, applied as the loop went on
            last = t
        if last is not None:
            after(g, last)
    assert checked >= 50, checked
    if pair[0] != "random":
        assert joined >= 1, joined  # a taken pile's rest joined the hand at an opening
