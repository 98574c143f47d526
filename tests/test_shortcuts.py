"""MELD-1..9, OPEN-1..4, OUT-2, TURN-1, DISCARD-1..3: every shortcut that restates a rule agrees
with the law it stands beside, at every play decision of real hands (heuristic against random,
60 hands under the tournament rules and each variant: MELD-4 with 3 wilds, MELD-2's long meld
going out, OPEN-1 by the hand's number (hands 1, 2, 3 of a game in turn), OPEN-2's wild
opening). One parametrised test; each shortcut has a checker that counts, at one decision,
the cases it decides (``used``) and those where it contradicts the law (``wrong``, must be 0):

- ``meld_counts_refused`` (``sim.legality.melds``): True only where ``meld_reason`` refuses
  every split of the wild cards, going out or not;
- ``meld_wilds_cap`` (``sim.legality.melds``): every operation with more wild cards than the cap
  is refused by ``meld_reason``, whatever the naturals;
- ``opening_count_bound`` (``sim.legality.opening``): never below the opening search's count;
- ``meld_on_counts`` (``sim.engine.fastpath``): its verdict is ``meld_reason_obs``'s without
  the opening search, where it gives one;
- ``quick_ok`` (``sim.engine.fastpath``): True only where ``action_reason`` is R_OK.
"""

import functools

import numpy as np
import pytest
from numba import njit

from sim import encoding as E
from sim.engine.fastpath import TABLE_DECIDES, meld_on_counts, quick_ok
from sim.engine.validate import action_reason, meld_reason_obs
from sim.engine.views import ob_aside, ob_aside_total, ob_hand, ob_melds, ob_pending
from sim.legality import (
    meld_counts_refused,
    meld_reason,
    meld_wilds_cap,
    opening_count_bound,
    opening_search_alloc,
)
from tests.real_hands import RULE_IDS, RULES, games

HANDS = 60  #: hands per rule variant
#: the shared variants and the opening's house variants (OPEN-1 by hand number, OPEN-2 wild)
VARIANTS = [*RULES, {"opening_minimum": "hand"}, {"opening_natural": False}]
VARIANT_IDS = [*RULE_IDS, "open1-hand", "open2-wild"]


@functools.cache
def _decisions(variant: int):
    """(observations stacked, rules array) at every play decision of the variant's hands."""
    rows, rules = [], None
    # hand h is hand 1 + h % 3 of its game (OPEN-1 by hand number: 125, 155, 180)
    pair, number = ("heuristic", "random"), lambda h: 1 + h % 3
    for g, obs in games(pair, 71, range(HANDS), VARIANTS[variant], number):
        rules = g.rules
        if obs[E.OB_PHASE] == E.PH_PLAY:
            rows.append(obs.copy())
    return np.stack(rows), rules


@njit(cache=True)
def _every_split_refused(melds, slot, nat, w, initial, rules):
    """The law: ``meld_reason`` refuses every split of ``w`` wild cards, going out or not."""
    for two in range(w + 1):
        for out in (False, True):
            if meld_reason(melds, 0, slot, nat, two, w - two, initial, out, rules) == E.R_OK:
                return False
    return True


@njit(cache=True)
def _check_counts_refused(obs, rules, tmp):
    melds, hand = ob_melds(obs), ob_hand(obs)
    initial = obs[E.OB_OPENING_TURN] == 1
    used = wrong = 0
    for slot in range(E.FIRST_NATURAL, E.N_KINDS):
        for nat in range(min(hand[slot], E.CANASTA) + 1):
            for w in range(E.MAX_OP_WILDS + 1):
                if nat + w == 0 or not meld_counts_refused(melds, slot, nat, w, initial, rules):
                    continue
                used += 1
                wrong += not _every_split_refused(melds, slot, nat, w, initial, rules)
    return used, wrong


@njit(cache=True)
def _check_wilds_cap(obs, rules, tmp):
    melds, hand = ob_melds(obs), ob_hand(obs)
    initial = obs[E.OB_OPENING_TURN] == 1
    used = wrong = 0
    for slot in range(E.FIRST_NATURAL, E.N_KINDS):
        cap = meld_wilds_cap(melds, slot, hand[slot], E.MAX_OP_WILDS, initial, rules)
        for w in range(cap + 1, E.MAX_OP_WILDS + 1):
            for nat in range(min(hand[slot], E.CANASTA) + 1):
                used += 1
                wrong += not _every_split_refused(melds, slot, nat, w, initial, rules)
    return used, wrong


@njit(cache=True)
def _check_count_bound(obs, rules, tmp):
    if obs[E.OB_OPENING_TURN] != 1:
        return 0, 0
    hand, pending, melds = ob_hand(obs), ob_pending(obs), ob_melds(obs)
    plan = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    pk, extra = obs[E.OB_PILE_KIND], ob_aside_total(obs)
    best = opening_search_alloc(hand, pending, melds, pk, extra, rules, plan)
    return 1, int(opening_count_bound(hand, pending, melds, rules) < best)


@njit(cache=True)
def _check_meld_on_counts(obs, rules, tmp):
    hand = ob_hand(obs)
    held = hand.sum() + ob_aside_total(obs)
    threes = 0
    for k in (E.RED_THREE, E.BLACK_THREE):
        threes += hand[k] + ob_aside(obs)[k]
    used = wrong = 0
    for slot in range(E.N_KINDS):
        if E.WILD_MELD < slot < E.FIRST_NATURAL:
            continue
        for nat in range(0 if slot == E.WILD_MELD else min(hand[slot], E.CANASTA) + 1):
            for two in range(min(hand[E.TWO], E.MAX_OP_WILDS) + 1):
                for joker in range(min(hand[E.JOKER], E.MAX_OP_WILDS - two) + 1):
                    if nat + two + joker == 0:
                        continue
                    v = meld_on_counts(obs, slot, nat, two, joker, rules, held, threes)
                    if v == TABLE_DECIDES:
                        continue
                    used += 1
                    law = meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, False) == E.R_OK
                    wrong += (v == 1) != law
    return used, wrong


@njit(cache=True)
def _check_quick_ok(obs, rules, tmp):
    used = wrong = 0
    for a in range(E.N_ACTIONS):
        if quick_ok(obs, a, rules):
            used += 1
            wrong += action_reason(obs, a, rules, tmp) != E.R_OK
    return used, wrong


SHORTCUTS = {
    "meld_counts_refused": _check_counts_refused,
    "meld_wilds_cap": _check_wilds_cap,
    "opening_count_bound": _check_count_bound,
    "meld_on_counts": _check_meld_on_counts,
    "quick_ok": _check_quick_ok,
}


@pytest.mark.parametrize("variant", range(len(VARIANTS)), ids=VARIANT_IDS)
@pytest.mark.parametrize("shortcut", list(SHORTCUTS))
def test_every_shortcut_agrees_with_the_law_on_real_hands(shortcut, variant):
    obs_rows, rules = _decisions(variant)
    tmp = np.zeros(E.TMP_SIZE, dtype=np.int64)
    used = wrong = 0
    for obs in obs_rows:
        u, w = SHORTCUTS[shortcut](obs, rules, tmp)
        used += u
        wrong += w
    assert len(obs_rows) > 1000
    assert wrong == 0, (shortcut, wrong, used)
    assert used > 100, (shortcut, used)  # the shortcut decides cases on these hands
