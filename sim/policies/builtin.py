"""Built-in policies: random, greedy, heuristic, special_chaser (contract: sim.engine.contract)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.encoding import (
    A_DECLARE,
    A_DISCARD,
    A_DRAW,
    A_KEEP_BLACK_THREE,
    A_KEEP_RED_THREE,
    A_LAY_THREES,
    A_TAKE_PILE,
    ACE,
    BLACK_THREE,
    CANASTA,
    EIGHT,
    FIRST_NATURAL,
    FIVE,
    FOUR,
    JACK,
    JOKER,
    KIND_COPIES,
    KIND_VALUE,
    KING,
    MELD_ACTION,
    N_ACTIONS,
    N_KINDS,
    N_MELD_COLS,
    NATURALS,
    NINE,
    OB_HAND,
    OB_MELDED,
    OB_OPENED,
    OB_OPENING_TURN,
    OB_PHASE,
    OB_PILE_COUNTS,
    OB_PILE_N,
    OB_PILE_TOP,
    OB_STOCK_N,
    PH_DRAW,
    PH_THREES,
    QUEEN,
    R_OK,
    RED_THREE,
    RS_SPECIAL_HANDS,
    SCRATCH_FREE,
    SCRATCH_LEGAL,
    SEVEN,
    SIX,
    SPECIALS_ON,
    TEN,
    TWO,
    WILD_MELD,
)
from sim.engine.contract import POLICY_SIGNATURE
from sim.engine.core import action_reason, legal_actions, ob_hand, ob_melds, pile_may_open
from sim.legality import is_dead, meld_size, out_reason
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
        if pile_may_open(obs, rules, tmp) and action_reason(obs, A_TAKE_PILE, rules, tmp) == R_OK:
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


# ---------------------------------------------------------------------------------------
# heuristic: a sensible club player; its choices are parameters (registry order below)
# ---------------------------------------------------------------------------------------
H_SEVENS_THRESHOLD = 0  #: start a sevens meld only holding this many sevens (MELD-6 risk)
H_ACES_THRESHOLD = 1  #: start a natural aces meld only holding this many aces
H_WILD_MELD_THRESHOLD = 2  #: start a wild meld only holding this many wild cards (MELD-8)
H_PILE_MIN = 3  #: take the pile only when it holds at least this many cards
H_SAFE_WEIGHT = 4  #: weight of the risk of feeding the pile to the next player
H_LATE_STOCK = 5  #: stock size from which held sevens/aces (SCORE-4) are shed
H_COMPLETE_WITH_WILDS = 6  #: 1: wilds join natural melds only to finish a canasta; 0: freely
KEYS_OFFSET = N_KINDS * N_MELD_COLS + 4 * N_KINDS  #: after the plan, work and chaser targets
NO_KEY = 1 << 62  #: a kind that cannot be discarded
HEURISTIC_PARAMS = {
    "sevens_threshold": 4.0,
    "aces_threshold": 4.0,
    "wild_meld_threshold": 5.0,
    "pile_min": 2.0,
    "safe_weight": 1.0,
    "late_stock": 10.0,
    "complete_with_wilds": 1.0,
}


@njit(cache=True)
def _risky_start_mask(obs, params):
    """Bit mask of slots whose new meld the heuristic will not start now (sevens, aces, wild)."""
    hand = ob_hand(obs)
    mask = 0
    if hand[SEVEN] < params[H_SEVENS_THRESHOLD]:
        mask |= 1 << SEVEN
    if hand[ACE] < params[H_ACES_THRESHOLD]:
        mask |= 1 << ACE
    if hand[TWO] + hand[JOKER] < params[H_WILD_MELD_THRESHOLD]:
        mask |= 1 << WILD_MELD
    return mask


@njit(cache=True)
def _finish_with_wilds(obs, rules, scratch, free_wilds):
    """A wild-card addition that completes a canasta (or, if ``free_wilds``, any legal one),
    or one that grows the team's wild meld; -1 if none."""
    hand = ob_hand(obs)
    melds = ob_melds(obs)
    tmp = tmp_of(scratch)
    wilds = hand[TWO] + hand[JOKER]
    if wilds == 0:
        return -1
    cur = meld_size(melds, 0, WILD_MELD)
    if 0 < cur < CANASTA:  # MELD-8: finish the wild meld first, twos before jokers
        for w in range(min(wilds, CANASTA - cur), 0, -1):
            two = min(w, hand[TWO])
            a = MELD_ACTION[WILD_MELD, 0, two, w - two]
            if a >= 0 and action_reason(obs, a, rules, tmp) == R_OK:
                return a
        return -1
    for slot in range(N_KINDS - 1, FIRST_NATURAL - 1, -1):
        size = meld_size(melds, 0, slot)
        if size == 0 or size >= CANASTA:
            continue
        need = CANASTA - size
        if need > wilds and not free_wilds:
            continue
        w = min(need, wilds)
        two = min(w, hand[TWO])  # twos first: jokers are worth more elsewhere (SCORE-3)
        a = MELD_ACTION[slot, 0, two, w - two]
        if a >= 0 and action_reason(obs, a, rules, tmp) == R_OK:
            return a
    return -1


@njit(cache=True)
def _unseen(obs, melds, kind):
    """Copies of ``kind`` the player cannot see (in other hands or the stock)."""
    seen = obs[OB_HAND + kind] + obs[OB_PILE_COUNTS + kind]
    seen += melds[0, kind, NATURALS] + melds[1, kind, NATURALS]
    return KIND_COPIES[kind] - seen


@njit(cache=True)
def safe_discard(obs, params, rules, scratch):
    """DISCARD-*: the legal discard that keeps most and risks least. Keep: pairs and ranks the
    team melds, wild cards. Risk: a natural of a live rank the next player may pair (PILE-1),
    weighed by the pile's size."""
    hand = ob_hand(obs)
    melds = ob_melds(obs)
    tmp = tmp_of(scratch)
    late = obs[OB_STOCK_N] <= params[H_LATE_STOCK]
    keys = scratch[SCRATCH_FREE + KEYS_OFFSET : SCRATCH_FREE + KEYS_OFFSET + N_KINDS]
    for k in range(N_KINDS):
        if hand[k] == 0 or k == RED_THREE or k == BLACK_THREE:
            keys[k] = NO_KEY  # DISCARD-1
            continue
        keep = 0.0
        if k == JOKER or k == TWO:
            keep = 1000.0
        else:
            keep = 10.0 * (hand[k] - 1)
            if meld_size(melds, 0, k) > 0 and meld_size(melds, 0, k) < CANASTA:
                keep += 25.0
            if late and (k == SEVEN or k == ACE) and hand[k] >= 3:
                keep -= 60.0  # SCORE-4: shed a third seven/ace late in the hand
            risk = 0.0
            if not is_dead(melds, k) and meld_size(melds, 1, k) < 5:
                u = _unseen(obs, melds, k)
                if u >= 2:
                    risk = u / 8.0 * (3.0 + obs[OB_PILE_N])
            keep += params[H_SAFE_WEIGHT] * risk
            keep -= KIND_VALUE[k] * 0.2  # high cards cost more if left in hand
        keys[k] = np.int64(keep * 1000.0)
    # check legality in order of preference, stopping at the first legal discard
    for _ in range(N_KINDS):
        best_k, best = -1, NO_KEY
        for k in range(N_KINDS):
            if keys[k] < best:
                best_k, best = k, keys[k]
        if best_k < 0:
            break
        if action_reason(obs, A_DISCARD + best_k, rules, tmp) == R_OK:
            return A_DISCARD + best_k
        keys[best_k] = NO_KEY
    best_a = -1
    return best_a


@njit(cache=True)
def _take_pile_ok(obs, params, rules, scratch):
    if obs[OB_PILE_N] < params[H_PILE_MIN] and obs[OB_OPENED] == 1:
        return False
    top = obs[OB_PILE_TOP]
    melds = ob_melds(obs)
    hand = ob_hand(obs)
    if top == SEVEN and meld_size(melds, 0, SEVEN) == 0:
        if hand[SEVEN] + 1 < params[H_SEVENS_THRESHOLD]:
            return False
    if top == ACE and meld_size(melds, 0, ACE) == 0:
        if hand[ACE] + 1 < params[H_ACES_THRESHOLD]:
            return False
    tmp = tmp_of(scratch)
    return pile_may_open(obs, rules, tmp) and action_reason(obs, A_TAKE_PILE, rules, tmp) == R_OK


@njit(cache=True)
def heuristic_play(obs, params, rules, scratch):
    """One play-phase step of the heuristic (shared with special_chaser)."""
    tmp = tmp_of(scratch)
    if obs[OB_OPENING_TURN] == 1:
        a = opening_step(obs, rules, scratch)
        if a >= 0:
            return a
        if obs[OB_MELDED] == 0:
            return safe_discard(obs, params, rules, scratch)  # cannot open yet
    if out_reason(ob_melds(obs), 0) == R_OK:
        a = largest_meld(obs, rules, scratch, True, 0)  # OUT-1 holds: meld out
        if a >= 0:
            return a
    a = largest_meld(obs, rules, scratch, False, _risky_start_mask(obs, params))
    if a >= 0:
        return a
    a = _finish_with_wilds(obs, rules, scratch, params[H_COMPLETE_WITH_WILDS] == 0)
    if a >= 0:
        return a
    hand = ob_hand(obs)
    if (
        meld_size(ob_melds(obs), 0, WILD_MELD) == 0
        and hand[TWO] + hand[JOKER] >= params[H_WILD_MELD_THRESHOLD]
    ):
        w = min(hand[TWO] + hand[JOKER], CANASTA)
        two = min(w, hand[TWO])
        a = MELD_ACTION[WILD_MELD, 0, two, w - two] if w - two <= 4 else -1
        if a >= 0 and action_reason(obs, a, rules, tmp) == R_OK:
            return a
    return safe_discard(obs, params, rules, scratch)


@njit(POLICY_SIGNATURE, cache=True)
def heuristic_decide(obs, params, rng, rules, scratch):
    """A sensible club player: opens as soon as it can, takes a worthwhile pile, starts sevens,
    aces and a wild meld only with enough of them in hand, adds wilds to finish canastas, goes
    out when it can, discards safely (parameters: HEURISTIC_PARAMS)."""
    phase = obs[OB_PHASE]
    if phase == PH_THREES:
        return A_LAY_THREES
    if phase == PH_DRAW:
        return A_TAKE_PILE if _take_pile_ok(obs, params, rules, scratch) else A_DRAW
    if action_reason(obs, A_DECLARE, rules, tmp_of(scratch)) == R_OK:
        return A_DECLARE
    return heuristic_play(obs, params, rules, scratch)


# ---------------------------------------------------------------------------------------
# special_chaser: heuristic, but chases a Straight, Pairs or Garbage while unopened
# ---------------------------------------------------------------------------------------
C_OPEN_DISTANCE = len(HEURISTIC_PARAMS)  #: open (give up the chase) when this far from one
CHASER_PARAMS = {**HEURISTIC_PARAMS, "open_distance": 4.0}
STRAIGHT_KINDS = (JOKER, TWO, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE)


@njit(cache=True)
def special_targets(hand, need_straight, need_pairs, need_garbage):
    """Cards per kind each special hand wants from this hand (SPECIAL-3,4,6), and the number
    of cards missing for each: (straight, pairs, garbage)."""
    need_straight[:] = 0
    need_pairs[:] = 0
    need_garbage[:] = 0
    miss_s = 0
    for k in STRAIGHT_KINDS:
        need_straight[k] = 1
        if hand[k] == 0:
            miss_s += 1
    if hand[RED_THREE] + hand[BLACK_THREE] == 0:
        miss_s += 1
    # Pairs and Garbage: the natural ranks held most, greedily
    used = np.zeros(N_KINDS, dtype=np.bool_)
    miss_p = 0
    for _ in range(7):
        bk, bc = -1, -1
        for k in range(FIRST_NATURAL, N_KINDS):
            if not used[k] and hand[k] > bc:
                bk, bc = k, hand[k]
        used[bk] = True
        need_pairs[bk] = 2
        miss_p += max(0, 2 - bc)
    used[:] = False
    miss_g = 0
    for i in range(4):
        bk, bc = -1, -1
        for k in range(FIRST_NATURAL, N_KINDS):
            if not used[k] and hand[k] > bc:
                bk, bc = k, hand[k]
        used[bk] = True
        want = 4 if i < 2 else 3
        need_garbage[bk] = want
        miss_g += max(0, want - bc)
    return miss_s, miss_p, miss_g


@njit(cache=True)
def _chase_discard(obs, params, rules, scratch, need):
    """The legal discard most in excess of what the chased hand needs (safest on ties)."""
    hand = ob_hand(obs)
    tmp = tmp_of(scratch)
    best_a, best_x = -1, 0
    for k in range(N_KINDS):
        x = hand[k] - need[k]
        if x > best_x and action_reason(obs, A_DISCARD + k, rules, tmp) == R_OK:
            best_a, best_x = A_DISCARD + k, x
    if best_a < 0:
        return safe_discard(obs, params, rules, scratch)
    return best_a


@njit(POLICY_SIGNATURE, cache=True)
def special_chaser_decide(obs, params, rng, rules, scratch):
    """The heuristic, except that while its team has not melded it keeps a three (DEAL-5),
    draws from the stock and discards toward the nearest Straight, Pairs or Garbage, opening
    only when at least ``open_distance`` cards from every special hand."""
    tmp = tmp_of(scratch)
    phase = obs[OB_PHASE]
    if obs[OB_OPENED] == 1 or rules[RS_SPECIAL_HANDS] != SPECIALS_ON:
        return heuristic_decide(obs, params, rng, rules, scratch)
    hand = ob_hand(obs)
    if phase == PH_THREES:
        if hand[RED_THREE] > 0:
            return A_KEEP_RED_THREE
        return A_KEEP_BLACK_THREE
    if phase == PH_DRAW:
        return A_DRAW  # SPECIAL-1: never after taking the pile
    if action_reason(obs, A_DECLARE, rules, tmp) == R_OK:
        return A_DECLARE
    base = SCRATCH_FREE + N_KINDS * N_MELD_COLS + N_KINDS  # after opening_step's plan, work
    ns = scratch[base : base + N_KINDS]
    npairs = scratch[base + N_KINDS : base + 2 * N_KINDS]
    ng = scratch[base + 2 * N_KINDS : base + 3 * N_KINDS]
    ms, mp, mg = special_targets(hand, ns, npairs, ng)
    nearest = min(ms, mp, mg)
    if nearest >= params[C_OPEN_DISTANCE] or obs[OB_MELDED] == 1:
        return heuristic_play(obs, params, rules, scratch)
    if ms == nearest:
        return _chase_discard(obs, params, rules, scratch, ns)
    if mp == nearest:
        return _chase_discard(obs, params, rules, scratch, npairs)
    return _chase_discard(obs, params, rules, scratch, ng)
