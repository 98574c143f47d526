"""The engine's check of an opening step from the policy's plan (issue 12, ninth pass):
``sim.legality.opening_path_count`` judges one plan as a path of the opening search
(OPEN-1..4 with MELD-1..9, OUT-1/2), and ``sim.engine.judge.check_action`` accepts a meld
operation of an opening turn without searching when what is left of the policy's hint
(``SCRATCH_HINT``) reaches the minimum. Both must agree with the search at every opening-turn
decision of real hands, whatever the hint holds."""

import numpy as np
import pytest

from sim import encoding as E
from sim.engine.judge import _hint_completes, action_reason, check_action
from sim.engine.observe import bonus_owed
from sim.legality import opening_path_count, opening_search
from tests.test_speed3_opening_ops import RULES, _games

CELLS = E.N_KINDS * E.N_MELD_COLS


def _position(obs):
    hand = obs[E.OB_HAND : E.OB_HAND + E.N_KINDS].copy()
    pending = obs[E.OB_PENDING : E.OB_PENDING + CELLS].reshape(E.N_KINDS, E.N_MELD_COLS).copy()
    melds = obs[E.OB_MELDS : E.OB_MELDS + 2 * CELLS].reshape(2, E.N_KINDS, E.N_MELD_COLS).copy()
    extra = int(obs[E.OB_ASIDE : E.OB_ASIDE + E.N_KINDS].sum())
    return hand, pending, melds, int(obs[E.OB_PILE_KIND]), extra


@pytest.mark.parametrize("rules", RULES, ids=["tournament", "wilds3", "long"])
def test_open_1_4_path_count_is_the_search_count_of_its_plan_and_never_more(rules):
    """OPEN-1..4: the search's own plan is valued at the search's count; any other plan
    (the search's changed by one card in one cell, a hundred times a position) at no more
    than the search's count, or -1."""
    work = np.zeros(E.SEARCH_WORK_SIZE, dtype=np.int64)
    plan = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    gen = np.random.default_rng(5)
    positions = valued = 0
    for g, obs in _games(("heuristic", "random"), 13, range(25), rules):
        if obs[E.OB_PHASE] != E.PH_PLAY or obs[E.OB_OPENING_TURN] != 1:
            continue
        hand, pending, melds, pk, extra = _position(obs)
        bonus = bool(bonus_owed(obs))
        best = opening_search(hand, pending, melds, pk, extra, g.rules, plan, bonus, 0, work)
        positions += 1
        if best >= 0:
            assert opening_path_count(hand, pending, melds, pk, extra, g.rules, plan, bonus) == best
            valued += 1
        for _ in range(100):
            other = plan.copy()
            other[gen.integers(E.N_KINDS), gen.integers(E.N_MELD_COLS)] += gen.choice((-1, 1))
            got = opening_path_count(hand, pending, melds, pk, extra, g.rules, other, bonus)
            assert got <= best and (got >= 0 or got == -1)
    assert positions > 100 and valued > 30, (positions, valued)


@pytest.mark.parametrize("rules", RULES, ids=["tournament", "wilds3", "long"])
def test_open_1_4_check_with_any_hint_equals_action_reason(rules):
    """OPEN-1..4: at every play decision of an opening turn, for every meld operation, the
    engine's check with a hint (the policy's plan, that plan with one cell changed, random
    words, with and without the cache) answers as ``action_reason``; the hint is used."""
    tmp = np.zeros(E.TMP_SIZE, dtype=np.int64)
    tmp2 = np.zeros(E.TMP_SIZE, dtype=np.int64)
    cache = np.zeros(E.PC_SIZE, dtype=np.int64)
    gen = np.random.default_rng(8)
    compared = used = 0
    turn = -1
    for g, obs in _games(("heuristic", "heuristic"), 17, range(12), rules):
        if obs[E.OB_TURN] != turn:
            cache[E.PC_VALID] = 0  # as the engine's loop empties it between turns
            turn = obs[E.OB_TURN]
        if obs[E.OB_PHASE] != E.PH_PLAY or obs[E.OB_OPENING_TURN] != 1:
            continue
        own = g._scratch[E.SCRATCH_HINT : E.SCRATCH_HINT + CELLS].reshape(E.N_KINDS, -1)
        a = g.policy_action("heuristic")  # leaves its plan from this position in the hint words
        changed = own.copy()
        changed[gen.integers(E.N_KINDS), gen.integers(E.N_MELD_COLS)] += gen.choice((-1, 1))
        junk = gen.integers(-3, 4, size=own.shape)
        for hint in (own.copy(), changed, junk):
            for b in range(E.A_FIRST_MELD, E.N_ACTIONS):
                want = action_reason(obs, b, g.rules, tmp2)
                assert check_action(obs, b, g.rules, tmp, cache.copy(), hint) == want, b
                assert check_action(obs, b, g.rules, tmp, np.zeros_like(cache), hint) == want
                compared += 1
        if E.ACTION_TABLE[a, E.AC_TYPE] == E.AT_MELD:
            op = (E.ACTION_TABLE[a, c] for c in (E.AC_SLOT, E.AC_NAT, E.AC_TWO, E.AC_JOKER))
            used += _hint_completes(obs, *op, g.rules, tmp2, own.copy())  # the policy's plan
        assert check_action(obs, a, g.rules, tmp, cache, own.copy()) == E.R_OK
    assert compared > 1000 and used > 10, (compared, used)
