"""Compiled helpers shared by the built-in policies (policy layer: observation in, ids out)."""

from __future__ import annotations

from numba import njit

from sim import encoding as E
from sim._views import opaque
from sim.engine.judge import (
    action_ok,
    action_reason,
    meld_reason_without_opening,
    meld_refused_on_counts,
)
from sim.engine.observe import bonus_owed
from sim.engine.views import (
    add_operation,
    c_view,
    ob_aside_total,
    ob_hand,
    ob_melds,
    ob_pending,
    scratch_tmp,
    tmp_search,
)
from sim.legality import meld_size, opening_best_work, opening_reason

_PLAN_SHAPE = (E.N_KINDS, E.N_MELD_COLS)
_PLAN_CELLS = E.N_KINDS * E.N_MELD_COLS

#: the built-in policies' words in the free part of the scratch (views below)
POLICY_WORK_FIELDS = (
    ("plan", _PLAN_CELLS),  # an opening plan [slot, col] (opening_plan, plan_step)
    ("sub", E.N_KINDS),  # the part of the hand an opening may use (heuristic)
    ("targets", 3 * E.N_KINDS),  # special_chaser: cards each special hand wants; or a pending
    # [slot, col] table while drawing (heuristic: _safe_pickup), when no chase is on
    ("keys", E.N_KINDS),  # discard preference keys (heuristic: safe_discard)
)
_PW, _POLICY_WORK = E.layout(POLICY_WORK_FIELDS)
PW_PLAN = E.SCRATCH_FREE + _PW["plan"]  #: scratch offset of plan[N_KINDS, N_MELD_COLS]
PW_SUB = E.SCRATCH_FREE + _PW["sub"]  #: scratch offset of sub[N_KINDS]
PW_TARGETS = E.SCRATCH_FREE + _PW["targets"]  #: scratch offset of targets[3, N_KINDS]
PW_KEYS = E.SCRATCH_FREE + _PW["keys"]  #: scratch offset of keys[N_KINDS]
assert _POLICY_WORK <= E.POLICY_FREE and 3 * E.N_KINDS >= _PLAN_CELLS  # room for every use


# ---------------------------------------------------------------------------------------
# Named views of the built-ins' words in the scratch (POLICY_WORK_FIELDS)
# ---------------------------------------------------------------------------------------
@njit(cache=True)
def work_plan(scratch):
    """plan[slot, col]: an opening plan (``opening_plan`` writes it, ``plan_step`` reads it)."""
    return c_view(scratch[PW_PLAN : PW_PLAN + _PLAN_CELLS], _PLAN_SHAPE)


@njit(cache=True)
def work_sub(scratch):
    """sub[kind]: the part of the hand an opening may use."""
    return scratch[PW_SUB : PW_SUB + E.N_KINDS]


@njit(cache=True)
def work_targets(scratch):
    """targets[3, kind]: the cards each special hand wants (special_chaser)."""
    return c_view(scratch[PW_TARGETS : PW_TARGETS + 3 * E.N_KINDS], (3, E.N_KINDS))


@njit(cache=True)
def work_pending(scratch):
    """pending[slot, col] in the targets' words, for a policy's check while drawing (no chase
    is on then)."""
    return c_view(scratch[PW_TARGETS : PW_TARGETS + _PLAN_CELLS], _PLAN_SHAPE)


@njit(cache=True)
def work_keys(scratch):
    """keys[kind]: discard preference keys."""
    return scratch[PW_KEYS : PW_KEYS + E.N_KINDS]


# ---------------------------------------------------------------------------------------
# The opening, melds and discards
# ---------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def opening_step(obs, rules, scratch):
    """OPEN-1..4: the next meld operation of the best opening from this position (the plan of
    ``sim.legality.best_opening``), or -1 if no opening can be completed or none is left."""
    hand = ob_hand(obs)
    if opening_plan(obs, rules, scratch, hand, 0) < 0:
        # OPEN-1 once begun must stand: the plan that keeps a card to hold found nothing, but
        # a player owed bonus cards (OPEN-5) needs only the card to discard (OUT-2), as the
        # engine judges. Reached when someone else began the opening (a search candidate, a
        # human seat handing over to the policy)
        if obs[E.OB_MELDED] == 0 or not bonus_owed(obs):
            return -1
        if opening_plan(obs, rules, scratch, hand, 0, True) < 0:
            return -1
    return plan_step(obs, rules, scratch)


@njit(cache=True, inline="always")
def opening_plan(obs, rules, scratch, hand, held_back, bonus=False):
    """OPEN-1..4: the best opening using only the cards of ``hand`` (the player's hand, or a part
    of it that leaves ``held_back`` cards out: they stay in hand, which counts for OUT-2),
    written to the plan at ``work_plan``; its count, or -1 if below the minimum. ``bonus``: the
    player is owed bonus cards (OPEN-5), so OUT-2 asks only for a card to discard (False: a
    plan legal either way)."""
    plan = work_plan(scratch)
    extra = held_back + ob_aside_total(obs)
    mc = obs[E.OB_OPEN_MIN]
    pending, pk, melds = ob_pending(obs), obs[E.OB_PILE_KIND], ob_melds(obs)
    work = tmp_search(scratch_tmp(scratch))
    best = opening_best_work(hand, pending, pk, extra, melds, rules, plan, mc, bonus, work)
    return best if best >= mc else -1


@njit(cache=True)
def plan_step(obs, rules, scratch):
    """The next meld operation of the plan ``opening_plan`` wrote, or -1 if none is left."""
    plan = work_plan(scratch)
    for slot in range(E.N_KINDS - 1, -1, -1):  # natural melds first, the wild meld last
        nat = plan[slot, E.NATURALS] if slot != E.WILD_MELD else 0
        two, joker = plan[slot, E.TWOS], plan[slot, E.JOKERS]
        if nat + two + joker > 0:
            a = E.MELD_ACTION[slot, nat, two, joker]
            # the plan completes the opening: check the rest of the rules, not OPEN-1..4 again
            tmp = scratch_tmp(scratch)
            if a >= 0 and meld_reason_without_opening(obs, slot, nat, two, joker, rules, tmp) == 0:
                return a
    return -1


@njit(cache=True)
def opening_stands(obs):
    """OPEN-1..4: this is the team's opening turn and the melds made so far are a valid opening."""
    if obs[E.OB_OPENING_TURN] == 0 or obs[E.OB_MELDED] == 0:
        return False
    r = opening_reason(
        ob_pending(obs), ob_melds(obs), opaque(0), obs[E.OB_PILE_KIND], obs[E.OB_OPEN_MIN]
    )
    return r == E.R_OK


@njit(cache=True, inline="always")
def meld_ok(obs, slot, nat, two, joker, rules, tmp, stands):
    """Is this meld operation legal (``action_reason``)? When the opening already ``stands``
    (``opening_stands``), the opening search is replaced by a cheaper, stricter check: the
    turn's melds with this operation must themselves be a valid opening (OPEN-1..4), which
    the engine's search then always finds (a legal operation it would accept otherwise may be
    refused here, never the reverse)."""
    if not stands:
        return action_ok(obs, E.MELD_ACTION[slot, nat, two, joker], rules, tmp)
    if meld_reason_without_opening(obs, slot, nat, two, joker, rules, tmp) != E.R_OK:
        return False
    # OPEN-1..4 on the turn's melds with this operation (applied to the views, then undone)
    melds = ob_melds(obs)
    pending = ob_pending(obs)
    add_operation(melds[0], slot, nat, two, joker, 1)
    add_operation(pending, slot, nat, two, joker, 1)
    r = opening_reason(pending, melds, opaque(0), obs[E.OB_PILE_KIND], obs[E.OB_OPEN_MIN])
    add_operation(melds[0], slot, nat, two, joker, -1)
    add_operation(pending, slot, nat, two, joker, -1)
    return r == E.R_OK


@njit(cache=True)  # no eager signature: it would compile the judge beneath it at import
def largest_meld(obs, rules, scratch, use_wilds, skip_mask):
    """The legal meld operation moving the most cards from hand (ties: higher rank), or -1.
    ``use_wilds``: also try wild cards (naturals' melds and the wild meld); ``skip_mask``:
    bit ``1 << slot`` set for slots not to start a new meld in."""
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
            continue  # MELD-1/4: no new meld of this rank is possible
        if cur >= E.CANASTA and maxw == 0:
            continue  # MELD-2
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
                    continue  # MELD-1..9 refuse it on the counts (meld_ok would say no)
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
            # twos first: a wild meld of all twos is worth the most (SCORE-3)
            two = min(w, hand[E.TWO])
            joker = w - two
            if joker > E.MAX_WILD_MELD_JOKERS:
                continue
            a = E.MELD_ACTION[E.WILD_MELD, 0, two, joker]
            if a >= 0 and meld_ok(obs, E.WILD_MELD, opaque(0), two, joker, rules, tmp, stands):
                best_a, best_n = a, w
                break
    return best_a


@njit(cache=True)
def cheapest_discard(obs, rules, scratch):
    """The legal discard of the kind held fewest times, then of lowest value (wilds last)."""
    hand = ob_hand(obs)
    tmp = scratch_tmp(scratch)
    best_a, best_key = -1, 1 << 40
    for k in range(E.N_KINDS):
        if hand[k] == 0:
            continue
        key = hand[k] * 1000 + E.KIND_VALUE[k]
        if k == E.JOKER or k == E.TWO:
            key += 100000
        if key < best_key and action_reason(obs, E.A_DISCARD + k, rules, tmp) == E.R_OK:
            best_a, best_key = E.A_DISCARD + k, key
    return best_a
