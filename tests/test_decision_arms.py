"""The arms of a decision experiment do what their labels say (``sim.engine.intercept``):
"open from hand now" draws from the stock, never the pile, before its opening; "wait to open
with the pile" binds the player's team, the partner as well as the player."""

from __future__ import annotations

import numpy as np
import pytest

from sim import encoding as E
from sim.engine import intercept as ic


@pytest.fixture(scope="module")
def opener():
    """A turn start of real play whose hand alone can open (OPEN-1..4), its state in deal 0
    and the arrays the intercept reads."""
    from analysis.decisions import sample_positions
    from sim.engine.observe import observe
    from sim.engine.position import position_arrays
    from sim.engine.script import decision_state
    from sim.engine.views import scratch_tmp
    from sim.rng import run_key
    from sim.ruleset import as_ruleset

    snap = next(s for s in sample_positions(12, seed=2) if s["can_open_now"])
    rules = as_ruleset(None).to_array()
    template, pos, unseen = position_arrays(snap["position"], "policy", None)
    st = decision_state(template, pos, unseen, -1, rules, run_key(1), 0)
    obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    observe(st, st[E.ST_PLAYER], obs)
    tmp = scratch_tmp(np.zeros(E.SCRATCH_SIZE, dtype=np.int64))
    return snap, st, obs, rules, tmp


def test_open_from_hand_draws_from_the_stock_never_the_pile(opener):
    """PILE-1/OPEN-1: at the draw of the fixed turn, a proposal to take the pile becomes the
    draw (opening with the pile is the other arm's play), not yet counted as made: the
    opening, after it, is."""
    _, _, obs, rules, tmp = opener
    assert obs[E.OB_PHASE] == E.PH_DRAW and obs[E.OB_OPENED] == 0
    for proposed in (E.A_TAKE_PILE, E.A_DRAW):
        a, made = ic.forced_choice(obs, ic.CH_OPEN_FROM_HAND, proposed, False, rules, tmp)
        assert (a, made) == (E.A_DRAW, 0)


def test_wait_for_the_pile_binds_the_partner_too(opener):
    """The wait is the team's: the partner's turns after the fixed one are intercepted, as
    the seat's are (the wait's kernel reads the observation of whoever plays, not the seat);
    the opponents' are not, nor any turn before the fixed one."""
    _, st, _, _, _ = opener
    icpt = np.zeros(ic.IC_SIZE, dtype=np.int64)
    seat, turn = int(st[E.ST_PLAYER]), int(st[E.ST_TURN])
    icpt[ic.IC_KIND], icpt[ic.IC_SEAT], icpt[ic.IC_TURN] = ic.IK_CHOICE, seat, turn
    icpt[ic.IC_CHOICE] = ic.CH_WAIT_PILE + 10 - ic.WAIT_PILE_MIN
    ic.reset_intercept(icpt)
    later = st.copy()
    for player, when, want in (
        ((seat + 2) % E.N_PLAYERS, turn + 2, True),  # the partner
        (seat, turn + 4, True),
        ((seat + 1) % E.N_PLAYERS, turn + 1, False),  # an opponent
        ((seat + 2) % E.N_PLAYERS, turn - 2, False),  # before the fixed turn
    ):
        later[E.ST_PLAYER], later[E.ST_TURN] = player, when
        assert ic.at_intercept(later, icpt) == want, (player, when)
