"""Built-in policies: random, greedy, heuristic, special_chaser (contract: sim.engine.contract)."""

from __future__ import annotations

from numba import njit

from sim.encoding import (
    A_DECLARE,
    A_DRAW,
    A_LAY_THREES,
    A_TAKE_PILE,
    N_ACTIONS,
    OB_PHASE,
    PH_DRAW,
    PH_THREES,
    R_OK,
    SCRATCH_LEGAL,
)
from sim.engine.contract import POLICY_SIGNATURE
from sim.engine.core import action_reason, legal_actions
from sim.policies.common import cheapest_discard, largest_meld, opening_step, tmp_of
from sim.rng import rand_below


@njit(POLICY_SIGNATURE, cache=True)
def random_decide(obs, params, rng, rules, scratch):
    """Uniform over the legal actions of the decision."""
    legal = scratch[SCRATCH_LEGAL : SCRATCH_LEGAL + N_ACTIONS]
    n = legal_actions(obs, rules, legal, tmp_of(scratch))
    return legal[rand_below(rng, n)]


@njit(POLICY_SIGNATURE, cache=True)
def greedy_decide(obs, params, rng, rules, scratch):
    """Lays every three, takes the pile whenever legal, opens as soon as it can, then melds the
    largest legal operation (wilds included) until none is left, and discards its cheapest
    card; declares a special hand when it can."""
    tmp = tmp_of(scratch)
    phase = obs[OB_PHASE]
    if phase == PH_THREES:
        return A_LAY_THREES
    if phase == PH_DRAW:
        if action_reason(obs, A_TAKE_PILE, rules, tmp) == R_OK:
            return A_TAKE_PILE
        return A_DRAW
    if action_reason(obs, A_DECLARE, rules, tmp) == R_OK:
        return A_DECLARE
    a = opening_step(obs, rules, scratch)
    if a >= 0:
        return a
    a = largest_meld(obs, rules, scratch, True, 0)
    if a >= 0:
        return a
    return cheapest_discard(obs, rules, scratch)
