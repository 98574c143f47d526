"""TURN-1, DISCARD-1..3, MELD-1..9, OUT-2 (issue 12, eleventh pass): the engine accepts a
policy's choice at once where ``quick_ok`` proves it legal from the counts, and asks
``check_action`` otherwise (``judge_choice``). The proof must never accept what
``action_reason`` refuses: checked here for every action of the table (and a few outside
it) at every decision of real hands of several pairings and rule variants. It must also
carry most of the engine's checks of the heuristic's choices, or it buys nothing."""

import numpy as np
import pytest
from numba import njit

from sim import encoding as E
from sim.engine.judge import action_reason, quick_ok
from sim.policies import get
from sim.policies.builtin import heuristic_decide
from tests.test_speed3_opening_ops import RULES, _games


@njit(cache=True)
def _quick_against_full(obs, rules, tmp):
    """(actions quick_ok accepts, of those the ones action_reason refuses), over the table
    and a few ids outside it."""
    accepted = wrong = 0
    for a in range(-2, E.N_ACTIONS + 2):
        if quick_ok(obs, a, rules):
            accepted += 1
            if action_reason(obs, a, rules, tmp) != E.R_OK:
                wrong += 1
    return accepted, wrong


@njit(cache=True)
def _quick(obs, a, rules):
    return quick_ok(obs, a, rules)


@pytest.mark.parametrize("rules", RULES, ids=["tournament", "wilds3", "long"])
@pytest.mark.parametrize(
    "pair",
    [("heuristic", "heuristic"), ("random", "greedy"), ("special_chaser", "random")],
)
def test_turn_1_discard_meld_out_2_quick_ok_accepts_only_legal_actions(rules, pair):
    """At every decision, every action quick_ok accepts is one action_reason accepts."""
    tmp = np.zeros(E.TMP_SIZE, dtype=np.int64)
    decisions = accepted = 0
    kinds = set()
    for g, obs in _games(pair, 31, range(25), rules):
        n, wrong = _quick_against_full(obs, g.rules, tmp)
        assert wrong == 0, (pair, g.hand_id, obs.tolist())
        decisions += 1
        accepted += n
        kinds.add((int(obs[E.OB_PHASE]), int(obs[E.OB_OPENING_TURN]), int(obs[E.OB_PILE_N] == 0)))
    # real hands reach every phase, opening turns and an empty pile (DISCARD-3)
    assert decisions > 1000 and accepted > 2 * decisions, (decisions, accepted)
    assert len(kinds) >= 5, kinds


def test_turn_1_discard_meld_quick_ok_carries_most_of_the_heuristic_checks():
    """The heuristic's own choices: most (measured ~80%: draws, threes, discards and melds
    after the opening turn) are proved at once; the opening turn's melds never are."""
    params = get("heuristic").param_array()
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    rng = np.ones(4, dtype=np.uint64)
    quick = total = opening_melds = 0
    for g, obs in _games(("heuristic", "heuristic"), 37, range(40), None):
        a = heuristic_decide(obs.copy(), params, rng, g.rules, scratch)
        q = _quick(obs, a, g.rules)
        total += 1
        quick += q
        if obs[E.OB_OPENING_TURN] == 1 and E.ACTION_TABLE[a, E.AC_TYPE] == E.AT_MELD:
            opening_melds += 1
            assert not q  # OPEN-1..4: check_action's plan or search judges these
    assert opening_melds > 0
    assert quick > 0.7 * total, (quick, total)
