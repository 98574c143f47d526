"""MELD-2/4/5/6/7/8/9 (issue 12, eleventh pass): ``largest_meld`` tries on each rank only the
wild cards ``_op_wilds_cap`` leaves, the rest being refused on the counts whatever the
naturals. The oracle is the search as it was, every split tried (below, compiled here): the
same operation at every play decision of real hands, with and without wild cards, for the
heuristic's skip mask, none and all, under three rule variants."""

import numpy as np
import pytest
from numba import njit

from sim import encoding as E
from sim.engine.judge import meld_refused_on_counts
from sim.engine.views import ob_hand, ob_melds, scratch_tmp
from sim.legality import meld_size
from sim.policies import get
from sim.policies.builtin import _risky_start_mask
from sim.policies.common import largest_meld, meld_ok, opening_stands
from tests.test_speed3_opening_ops import RULES, _games


@njit(cache=True)
def _every_split(obs, rules, scratch, use_wilds, skip_mask):
    """``largest_meld``'s general search before the cap (commit 55875bb)."""
    hand = ob_hand(obs)
    melds = ob_melds(obs)
    tmp = scratch_tmp(scratch)
    stands = opening_stands(obs)
    best_a, best_n = -1, 0
    for slot in range(E.N_KINDS - 1, E.FIRST_NATURAL - 1, -1):
        cur = meld_size(melds, 0, slot)
        if cur == 0 and (skip_mask >> slot) & 1:
            continue
        if hand[slot] == 0 and (cur == 0 or not use_wilds):
            continue
        maxw = min(hand[E.TWO] + hand[E.JOKER], E.MAX_OP_WILDS) if use_wilds else 0
        if cur == 0 and (hand[slot] < 2 or hand[slot] + maxw < 3):
            continue
        if cur >= E.CANASTA and maxw == 0:
            continue
        for nat in range(min(hand[slot], E.CANASTA), -1, -1):
            done = False
            for w in range(maxw, -1, -1):
                n = nat + w
                if n <= best_n:
                    break
                joker = min(w, hand[E.JOKER])
                two = w - joker
                if two > hand[E.TWO]:
                    continue
                a = E.MELD_ACTION[slot, nat, two, joker]
                if a < 0 or meld_refused_on_counts(obs, slot, nat, w, rules):
                    continue
                if meld_ok(obs, slot, nat, two, joker, rules, tmp, stands):
                    best_a, best_n = a, n
                    done = True
                    break
            if done:
                break
    cur = meld_size(melds, 0, E.WILD_MELD)
    if use_wilds and not (cur == 0 and skip_mask & 1):
        for w in range(min(hand[E.TWO] + hand[E.JOKER], E.CANASTA - cur), 0, -1):
            if w <= best_n:
                break
            two = min(w, hand[E.TWO])
            joker = w - two
            if joker > E.MAX_WILD_MELD_JOKERS:
                continue
            a = E.MELD_ACTION[E.WILD_MELD, 0, two, joker]
            if a >= 0 and meld_ok(obs, E.WILD_MELD, 0, two, joker, rules, tmp, stands):
                best_a, best_n = a, w
                break
    return best_a


@pytest.mark.parametrize("rules", RULES, ids=["tournament", "wilds3", "long"])
@pytest.mark.parametrize("pair", [("heuristic", "heuristic"), ("greedy", "random")])
def test_meld_2_9_largest_meld_with_the_wilds_cap_equals_every_split(rules, pair):
    params = get("heuristic").param_array()
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    compared = with_wilds = 0
    for g, obs in _games(pair, 53, range(40), rules):
        if obs[E.OB_PHASE] != E.PH_PLAY:
            continue
        for wilds in (False, True):
            for mask in (0, int(_risky_start_mask(obs, params)), (1 << E.N_KINDS) - 1):
                want = _every_split(obs, g.rules, scratch, wilds, mask)
                assert largest_meld(obs, g.rules, scratch, wilds, mask, False) == want
                assert largest_meld(obs, g.rules, scratch, wilds, mask) == want
                compared += 1
                if want >= 0 and E.ACTION_TABLE[want, E.AC_TWO] + E.ACTION_TABLE[want, E.AC_JOKER]:
                    with_wilds += 1
    # real hands meld with wild cards often enough to test the cap
    assert compared > 2000 and with_wilds > 100, (compared, with_wilds)
