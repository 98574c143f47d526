"""Compiled helpers shared by the built-in policies (policy layer: observation in, ids out)."""

from __future__ import annotations

from numba import njit

from sim.encoding import (
    A_DISCARD,
    CANASTA,
    FIRST_NATURAL,
    JOKER,
    JOKERS,
    KIND_VALUE,
    MAX_OP_WILDS,
    MAX_WILD_MELD_JOKERS,
    MELD_ACTION,
    N_KINDS,
    N_MELD_COLS,
    NATURALS,
    OB_ASIDE,
    OB_MELDED,
    OB_OPEN_MIN,
    OB_OPENING_TURN,
    OB_PILE_KIND,
    R_OK,
    SCRATCH_FREE,
    SCRATCH_TMP,
    TMP_SIZE,
    TWO,
    TWOS,
    WILD_MELD,
)
from sim.engine.core import (
    action_reason,
    meld_reason_without_opening,
    ob_hand,
    ob_melds,
    ob_pending,
    opening_best,
)
from sim.legality import meld_size, opening_reason


@njit(cache=True)
def tmp_of(scratch):
    return scratch[SCRATCH_TMP : SCRATCH_TMP + TMP_SIZE]


@njit(cache=True)
def opening_step(obs, rules, scratch):
    """OPEN-1..4: the next meld operation of the best opening from this position (the plan of
    ``sim.legality.best_opening``), or -1 if no opening can be completed or none is left."""
    if opening_plan(obs, rules, scratch, ob_hand(obs), 0) < 0:
        return -1
    return plan_step(obs, rules, scratch)


@njit(cache=True)
def opening_plan(obs, rules, scratch, hand, held_back):
    """OPEN-1..4: the best opening using only the cards of ``hand`` (the player's hand, or a part
    of it that leaves ``held_back`` cards out: they stay in hand, which counts for OUT-2),
    written to the plan at ``SCRATCH_FREE``; its count, or -1 if below the minimum."""
    pw = N_KINDS * N_MELD_COLS
    plan = scratch[SCRATCH_FREE : SCRATCH_FREE + pw].reshape((N_KINDS, N_MELD_COLS))
    extra = held_back
    for k in range(N_KINDS):
        extra += obs[OB_ASIDE + k]
    mc = obs[OB_OPEN_MIN]
    best = opening_best(
        hand, ob_pending(obs), obs[OB_PILE_KIND], extra, ob_melds(obs), rules, plan, mc
    )
    return best if best >= mc else -1


@njit(cache=True)
def plan_step(obs, rules, scratch):
    """The next meld operation of the plan ``opening_plan`` wrote, or -1 if none is left."""
    pw = N_KINDS * N_MELD_COLS
    plan = scratch[SCRATCH_FREE : SCRATCH_FREE + pw].reshape((N_KINDS, N_MELD_COLS))
    for slot in range(N_KINDS - 1, -1, -1):  # natural melds first, the wild meld last
        nat = plan[slot, NATURALS] if slot != WILD_MELD else 0
        two, joker = plan[slot, TWOS], plan[slot, JOKERS]
        if nat + two + joker > 0:
            a = MELD_ACTION[slot, nat, two, joker]
            # the plan completes the opening: check the rest of the rules, not OPEN-1..4 again
            tmp = tmp_of(scratch)
            if a >= 0 and meld_reason_without_opening(obs, slot, nat, two, joker, rules, tmp) == 0:
                return a
    return -1


@njit(cache=True)
def opening_stands(obs):
    """OPEN-1..4: this is the team's opening turn and the melds made so far are a valid opening."""
    if obs[OB_OPENING_TURN] == 0 or obs[OB_MELDED] == 0:
        return False
    r = opening_reason(ob_pending(obs), ob_melds(obs), 0, obs[OB_PILE_KIND], obs[OB_OPEN_MIN])
    return r == R_OK


@njit(cache=True)
def meld_ok(obs, slot, nat, two, joker, rules, tmp, stands):
    """Is this meld operation legal (``action_reason``)? When the opening already ``stands``
    (``opening_stands``), the opening search is replaced by a cheaper, stricter check: the
    turn's melds with this operation must themselves be a valid opening (OPEN-1..4), which
    the engine's search then always finds (a legal operation it would accept otherwise may be
    refused here, never the reverse)."""
    if not stands:
        return action_reason(obs, MELD_ACTION[slot, nat, two, joker], rules, tmp) == R_OK
    if meld_reason_without_opening(obs, slot, nat, two, joker, rules, tmp) != R_OK:
        return False
    # OPEN-1..4 on the turn's melds with this operation (applied to the views, then undone)
    melds = ob_melds(obs)
    pending = ob_pending(obs)
    melds[0, slot, NATURALS] += nat
    melds[0, slot, TWOS] += two
    melds[0, slot, JOKERS] += joker
    pending[slot, NATURALS] += nat
    pending[slot, TWOS] += two
    pending[slot, JOKERS] += joker
    r = opening_reason(pending, melds, 0, obs[OB_PILE_KIND], obs[OB_OPEN_MIN])
    melds[0, slot, NATURALS] -= nat
    melds[0, slot, TWOS] -= two
    melds[0, slot, JOKERS] -= joker
    pending[slot, NATURALS] -= nat
    pending[slot, TWOS] -= two
    pending[slot, JOKERS] -= joker
    return r == R_OK


@njit(cache=True)
def largest_meld(obs, rules, scratch, use_wilds, skip_mask):
    """The legal meld operation moving the most cards from hand (ties: higher rank), or -1.
    ``use_wilds``: also try wild cards (naturals' melds and the wild meld); ``skip_mask``:
    bit ``1 << slot`` set for slots not to start a new meld in."""
    hand = ob_hand(obs)
    melds = ob_melds(obs)
    tmp = tmp_of(scratch)
    stands = opening_stands(obs)
    best_a, best_n = -1, 0
    for slot in range(N_KINDS - 1, FIRST_NATURAL - 1, -1):
        cur = meld_size(melds, 0, slot)
        if cur == 0 and (skip_mask >> slot) & 1:
            continue
        if hand[slot] == 0 and (cur == 0 or not use_wilds):
            continue
        maxw = min(hand[TWO] + hand[JOKER], MAX_OP_WILDS) if use_wilds else 0
        if cur == 0 and (hand[slot] < 2 or hand[slot] + maxw < 3):
            continue  # MELD-1/4: no new meld of this rank is possible
        if cur >= CANASTA and maxw == 0:
            continue  # MELD-2
        for nat in range(min(hand[slot], CANASTA), -1, -1):
            done = False
            for w in range(maxw, -1, -1):
                n = nat + w
                if n <= best_n:
                    break
                joker = min(w, hand[JOKER])
                two = w - joker
                if two > hand[TWO]:
                    continue
                a = MELD_ACTION[slot, nat, two, joker]
                if a >= 0 and meld_ok(obs, slot, nat, two, joker, rules, tmp, stands):
                    best_a, best_n = a, n
                    done = True
                    break
            if done:
                break
    cur = meld_size(melds, 0, WILD_MELD)
    if use_wilds and not (cur == 0 and skip_mask & 1):
        for w in range(min(hand[TWO] + hand[JOKER], CANASTA - cur), 0, -1):
            if w <= best_n:
                break
            # twos first: a wild meld of all twos is worth the most (SCORE-3)
            two = min(w, hand[TWO])
            joker = w - two
            if joker > MAX_WILD_MELD_JOKERS:
                continue
            a = MELD_ACTION[WILD_MELD, 0, two, joker]
            if a >= 0 and meld_ok(obs, WILD_MELD, 0, two, joker, rules, tmp, stands):
                best_a, best_n = a, w
                break
    return best_a


@njit(cache=True)
def cheapest_discard(obs, rules, scratch):
    """The legal discard of the kind held fewest times, then of lowest value (wilds last)."""
    hand = ob_hand(obs)
    tmp = tmp_of(scratch)
    best_a, best_key = -1, 1 << 40
    for k in range(N_KINDS):
        if hand[k] == 0:
            continue
        key = hand[k] * 1000 + KIND_VALUE[k]
        if k == JOKER or k == TWO:
            key += 100000
        if key < best_key and action_reason(obs, A_DISCARD + k, rules, tmp) == R_OK:
            best_a, best_key = A_DISCARD + k, key
    return best_a
