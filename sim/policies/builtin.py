"""Built-in policies: random, greedy, heuristic, special_chaser (contract: sim.engine.contract).

The heuristic's kernel is the base play of every policy above it: special_chaser, ``strong``
(the same kernel with its tuned parameters, plus its features and evaluator) and the expert's
rollouts. Its parameters and their indices live in ``sim.policies.heuristic_params``
(re-exported here); its helpers (``discard_key``, ``_hold_mask``...) are shared by name.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import encoding as E
from sim._views import inline_copy, opaque, sum_words
from sim.engine.judge import (
    action_ok,
    legal_actions,
    legal_discards,
    pile_may_open,
    turn_opening_reason,
)
from sim.engine.views import ob_hand, ob_melds, ob_pending, scratch_legal, scratch_tmp
from sim.legality import meld_size, opening_count_bound, opening_reason, out_reason
from sim.policies.common import (
    OM_VALID,
    cheapest_discard,
    held_and_threes,
    largest_meld,
    meld_legal,
    opening_plan,
    opening_search_memo,
    opening_stands,
    opening_step,
    plan_step,
    work_pending,
    work_plan,
    work_sub,
    work_targets,
)
from sim.policies.heuristic_params import (
    H_ACES_THRESHOLD,
    H_COMPLETE_WITH_WILDS,
    H_DUMP_WEIGHT,
    H_EARLY_DUMP,
    H_FEED_WEIGHT,
    H_LATE_STOCK,
    H_LIVE_MIN,
    H_MELD_KEEP,
    H_MEMORY_WEIGHT,
    H_NEW_MELD_MIN,
    H_OPEN_RISKY,
    H_OPP_OUT_LATE,
    H_PAIR_KEEP,
    H_PILE_MIN,
    H_RISKY_MIN_STOCK,
    H_SAFE_WEIGHT,
    H_SEVENS_THRESHOLD,
    H_SHED_STOCK,
    H_WILD_MELD_THRESHOLD,
    HEURISTIC_PARAMS,
    HEURISTIC_TABLE,
    param_docs,
)
from sim.rng import rand_below
from sim.special import nearest_hand

__all__ = ["HEURISTIC_PARAMS", "heuristic_decide", "memory_weight", "param_docs", "special_targets"]


@njit(cache=True, _nrt=False)  # compiled to POLICY_SIGNATURE when first played (registry)
def random_decide(obs, params, rng, rules, scratch):
    """Uniform over the legal actions of the decision."""
    legal = scratch_legal(scratch)
    n = legal_actions(obs, rules, legal, scratch_tmp(scratch))
    return legal[rand_below(rng, n)]


@njit(cache=True, _nrt=False)  # compiled to POLICY_SIGNATURE when first played (registry)
def greedy_decide(obs, params, rng, rules, scratch):
    """Lays every three, takes the pile whenever legal, opens as soon as it can, then melds the
    largest legal operation (wilds included) until none is left, and discards its cheapest
    card; declares a special hand when it can."""
    tmp = scratch_tmp(scratch)
    phase = obs[E.OB_PHASE]
    if phase == E.PH_THREES:
        return E.A_LAY_THREES
    if phase == E.PH_DRAW:
        if pile_may_open(obs, rules, tmp) and action_ok(obs, E.A_TAKE_PILE, rules, tmp):
            return E.A_TAKE_PILE
        return E.A_DRAW
    if action_ok(obs, E.A_DECLARE, rules, tmp):
        return E.A_DECLARE
    a = opening_step(obs, rules, scratch)
    if a >= 0:
        return a
    a = largest_meld(obs, rules, scratch, opaque(True), 0)
    if a >= 0:
        return a
    return cheapest_discard(obs, rules, scratch)


# ---------------------------------------------------------------------------------------
# heuristic: a sensible club player; its choices are parameters (heuristic_params: H_*)
# ---------------------------------------------------------------------------------------
NO_KEY = 1 << 62  #: a kind that cannot be discarded


@njit(cache=True, _nrt=False)
def unseen_copies(obs, melds, kind):
    """Copies of ``kind`` the player cannot see (in other hands or the stock)."""
    seen = obs[E.OB_HAND + kind] + obs[E.OB_PILE_COUNTS + kind]
    seen += melds[0, kind, E.NATURALS] + melds[1, kind, E.NATURALS]
    return E.KIND_COPIES[kind] - seen


@njit(cache=True, inline="always")
def memory_weight(params):
    """The parameter memory_weight, 0 (the memory not read) for a vector that stops before it
    (the training's vectors of the tuned names alone)."""
    if params.shape[0] <= H_MEMORY_WEIGHT:
        return 0.0
    return params[H_MEMORY_WEIGHT]


@njit(cache=True, _nrt=False)
def _known_elsewhere(obs, kind):
    """Copies of ``kind`` the public card memory places with the partner and the previous
    player (``OB_KNOWN``'s relative seats 2 and 3): unseen, but not in the next player's hand."""
    return obs[E.OB_KNOWN + 2 * E.N_KINDS + kind] + obs[E.OB_KNOWN + 3 * E.N_KINDS + kind]


@njit(cache=True, inline="always")
def _one_more(obs, u):
    """The chance that at least one of ``u - 1`` unplaced copies of a kind (unseen, not in the
    memory; the next player's known one left out) lies among the next player's unknown cards:
    the slots of unknown cards are the other hands less their known cards, and the stock."""
    free = u - 1
    if free <= 0:
        return 0.0
    slots = obs[E.OB_STOCK_N]
    for i in range(1, E.N_PLAYERS):
        slots += obs[E.OB_HAND_SIZES + i]
    for j in range(E.N_KINDS, E.N_PLAYERS * E.N_KINDS):
        slots -= obs[E.OB_KNOWN + j]
    mine = obs[E.OB_HAND_SIZES + 1]
    for k in range(E.N_KINDS):
        mine -= obs[E.OB_KNOWN + E.N_KINDS + k]
    if slots <= 0 or mine <= 0:
        return 0.0
    miss = 1.0  # no copy among its cards: each copy misses its ``mine`` of the ``slots``
    for c in range(free):
        miss *= max(0.0, 1.0 - mine / (slots - c))
    return 1.0 - miss


@njit(cache=True, _nrt=False)
def _may_start(obs, params, kind, held, taking_pile):
    """SCORE-2/3: may the team start its sevens, aces or wild meld (``kind``: SEVEN, ACE or
    WILD_MELD) holding ``held`` of it? Enough in hand, enough stock left to finish it, and
    (sevens, aces) enough of the rank out of the opponents' melds and (unless ``taking_pile``)
    out of the pile."""
    if obs[E.OB_STOCK_N] < params[H_RISKY_MIN_STOCK]:
        return False
    if kind == E.WILD_MELD:
        return held >= params[H_WILD_MELD_THRESHOLD]
    thr = params[H_SEVENS_THRESHOLD] if kind == E.SEVEN else params[H_ACES_THRESHOLD]
    if held < thr:
        return False
    melds = ob_melds(obs)
    live = E.KIND_COPIES[kind] - melds[1, kind, E.NATURALS]
    if not taking_pile:
        live -= obs[E.OB_PILE_COUNTS + kind]
    return live >= params[H_LIVE_MIN]


@njit(cache=True, _nrt=False)
def risky_start_mask(obs, params):
    """Bit mask of slots whose new meld the heuristic will not start now (sevens, aces, wild)."""
    hand = ob_hand(obs)
    mask = 0
    if not _may_start(obs, params, E.SEVEN, hand[E.SEVEN], False):
        mask |= 1 << E.SEVEN
    if not _may_start(obs, params, E.ACE, hand[E.ACE], False):
        mask |= 1 << E.ACE
    if not _may_start(obs, params, E.WILD_MELD, hand[E.TWO] + hand[E.JOKER], False):
        mask |= 1 << E.WILD_MELD
    return mask


#: OUT-1 inlined at the heuristic's two calls of every play decision (``inline_copy``)
_out_reason_inline = inline_copy(out_reason)


@njit(cache=True, _nrt=False)
def hand_is_late(obs, params):
    """The hand may end soon: the stock is low, or the opponents could go out (OUT-1)."""
    if obs[E.OB_STOCK_N] <= params[H_LATE_STOCK]:
        return True
    return params[H_OPP_OUT_LATE] > 0 and _out_reason_inline(ob_melds(obs), opaque(1)) == E.R_OK


@njit(cache=True, _nrt=False)
def safe_opening(obs, params, rules, scratch):
    """OPEN-1..4 without starting a risky meld: the next step of the best opening that starts no
    sevens, natural aces or wild meld the heuristic would not start (``_may_start``), or -1.
    Natural aces that take wilds in the opening are a mixed meld (MELD-7) and allowed.
    -2 when no such opening exists (-1: it exists and needs no further step)."""
    hand = ob_hand(obs)
    melds = ob_melds(obs)
    if scratch[OM_VALID] == 1:
        # the memo holds a search (made this turn, or before taking the pile): the next step
        # of an opening is usually answered by it, and where the bound below would refuse, the
        # searches fail alike and leave the memo empty, so the bound would only cost time
        # (the same answers: tests/test_records_unchanged)
        return safe_opening_search(obs, params, rules, scratch)
    if opening_count_bound(hand, ob_pending(obs), melds, rules) < obs[E.OB_OPEN_MIN]:
        # no opening from the whole hand, so none from a part of it (a part's openings, the
        # cards left out held, are the hand's, of no higher count): the searches below would
        # all fail, and the first would empty the memo
        scratch[OM_VALID] = 0
        return -2
    return safe_opening_search(obs, params, rules, scratch)


@njit(cache=True, inline="always")  # inlined in safe_opening: one compiled function
def safe_opening_search(obs, params, rules, scratch):
    """``safe_opening`` without its first test: the searches themselves."""
    hand = ob_hand(obs)
    melds = ob_melds(obs)
    sub = work_sub(scratch)
    for k in range(E.N_KINDS):
        sub[k] = hand[k]
    mask = risky_start_mask(obs, params)
    if (mask >> E.SEVEN) & 1 and meld_size(melds, 0, E.SEVEN) == 0:
        sub[E.SEVEN] = 0
    plan = work_plan(scratch)
    for _ in range(3):
        held_back = 0
        for k in range(E.N_KINDS):
            held_back += hand[k] - sub[k]
        if opening_plan(obs, rules, scratch, sub, held_back) < 0:
            return -2
        again = False
        if (mask >> E.ACE) & 1 and meld_size(melds, 0, E.ACE) == 0 and sub[E.ACE] > 0:
            if plan[E.ACE, E.NATURALS] > 0 and plan[E.ACE, E.TWOS] + plan[E.ACE, E.JOKERS] == 0:
                sub[E.ACE] = 0  # a natural aces meld it would not start
                again = True
        if (mask >> E.WILD_MELD) & 1 and meld_size(melds, 0, E.WILD_MELD) == 0:
            if plan[E.WILD_MELD, E.TWOS] + plan[E.WILD_MELD, E.JOKERS] > 0:
                keep_j = min(sub[E.JOKER], 2)  # too few wilds for a wild meld: jokers first
                sub[E.TWO] = min(sub[E.TWO], 2 - keep_j)
                sub[E.JOKER] = keep_j
                again = True
        if not again:
            return plan_step(obs, rules, scratch)
    return -2


@njit(cache=True, _nrt=False)
def _finish_with_wilds(obs, rules, scratch, free_wilds):
    """A wild-card addition that completes a canasta (or, if ``free_wilds``, any legal one),
    or one that grows the team's wild meld; -1 if none."""
    hand = ob_hand(obs)
    melds = ob_melds(obs)
    tmp = scratch_tmp(scratch)
    wilds = hand[E.TWO] + hand[E.JOKER]
    if wilds == 0:
        return -1
    stands = opening_stands(obs)
    held, threes = held_and_threes(obs)
    cur = meld_size(melds, 0, E.WILD_MELD)
    if 0 < cur < E.CANASTA:  # MELD-8: finish the wild meld first, twos before jokers
        for w in range(min(wilds, E.CANASTA - cur), 0, -1):
            two = min(w, hand[E.TWO])
            a = E.MELD_ACTION[E.WILD_MELD, 0, two, w - two]
            if a >= 0 and meld_legal(
                obs, E.WILD_MELD, opaque(0), two, w - two, rules, tmp, stands, held, threes
            ):
                return a
        return -1
    for slot in range(E.N_KINDS - 1, E.FIRST_NATURAL - 1, -1):
        size = meld_size(melds, 0, slot)
        if size == 0 or size >= E.CANASTA or slot == E.SEVEN:
            continue  # MELD-6: sevens never take wilds
        if rules[E.RS_RULE_OF_FIVE] == 1 and melds[0, slot, E.NATURALS] < 5:
            continue  # MELD-5: no wild joins before 5 naturals (the check, made cheap)
        need = E.CANASTA - size
        if need > wilds and not free_wilds:
            continue
        w = min(need, wilds)
        two = min(w, hand[E.TWO])  # twos first: jokers are worth more elsewhere (SCORE-3)
        a = E.MELD_ACTION[slot, 0, two, w - two]
        if a >= 0 and meld_legal(
            obs, slot, opaque(0), two, w - two, rules, tmp, stands, held, threes
        ):
            return a
    return -1


@njit(cache=True, inline="always")
def safe_discard(obs, params, rules, scratch):
    """DISCARD-*: the legal discard that keeps most and risks least (``discard_key``), -1 if
    none."""
    return _safe_discard_late(obs, params, rules, scratch, hand_is_late(obs, params))


@njit(cache=True, inline="always")
def legal_discard_mask(obs):
    """Bit ``1 << kind`` of each kind the player may discard now (DISCARD-1..3, OUT-1; what
    ``legal_actions`` uses); 0 outside the play phase (TURN-1)."""
    if obs[E.OB_PHASE] != E.PH_PLAY:
        return 0
    total = sum_words(obs, E.OB_HAND, E.N_KINDS)
    return legal_discards(obs, ob_hand(obs), total, turn_opening_reason(obs))


@njit(cache=True, inline="always")
def discard_key(obs, params, melds, k, late, shed):
    """The keep value (x 1000, lowest discarded first) of discarding kind ``k``. Keep: pairs
    (pair_keep a further copy), ranks the team melds (meld_keep), wild cards. Risk: a natural
    of a live rank the next player may pair (PILE-1), weighed by the pile's size, more for a
    rank the opponents meld (feed_weight); a rank the next player is known to hold a pair of
    (the public card memory) is a certain risk (memory_weight, which also leaves out of the
    unseen copies those the memory places in other hands). Shed a third seven/ace
    (SCORE-4) from shed_stock down (``shed``) and high cards (SCORE-5: dump_weight when
    ``late``, else early_dump)."""
    h = obs[E.OB_HAND + k]
    own, opp = meld_size(melds, 0, k), meld_size(melds, 1, k)
    keep = 0.0
    if k == E.JOKER or k == E.TWO:
        keep = 1000.0
    elif own >= E.CANASTA or opp >= E.CANASTA:  # is_dead: a natural rank (k >= FOUR)
        keep = -30.0 - E.KIND_VALUE[k]  # MELD-9: no use, and it blocks the pile (PILE-2)
        if (k == E.SEVEN or k == E.ACE) and h >= 3:
            keep -= 60.0  # SCORE-4
    else:
        keep = params[H_PAIR_KEEP] * (h - 1)
        if own > 0 and own < E.CANASTA:
            keep += params[H_MELD_KEEP]
        if (k == E.SEVEN or k == E.ACE) and h >= 3 and own == 0:
            if shed:
                keep -= 60.0  # SCORE-4: shed a third seven/ace it does not meld
        risk = 0.0
        if opp < 5:  # (the rank is live here)
            u = unseen_copies(obs, melds, k)
            if memory_weight(params) > 0:
                u -= _known_elsewhere(obs, k)  # the memory: copies known in other hands
            if u >= 2:
                risk = u / 8.0 * (3.0 + obs[E.OB_PILE_N])
                if opp > 0:
                    risk *= 1.0 + params[H_FEED_WEIGHT]
        keep += params[H_SAFE_WEIGHT] * risk
        nk = obs[E.OB_KNOWN + E.N_KINDS + k]
        if nk >= 2:  # PILE-1: the next player's known pair
            keep += memory_weight(params) * (3.0 + obs[E.OB_PILE_N])
        elif nk == 1 and opp < 5 and memory_weight(params) > 0:
            # one known copy: a pair if one more of the unplaced copies is in its unknown cards
            u1 = unseen_copies(obs, melds, k) - _known_elsewhere(obs, k)
            keep += memory_weight(params) * _one_more(obs, u1) * (3.0 + obs[E.OB_PILE_N])
        w = params[H_DUMP_WEIGHT] if late else params[H_EARLY_DUMP]
        keep -= E.KIND_VALUE[k] * w  # high cards cost more if left in hand
    return np.int64(keep * 1000.0)


@njit(cache=True, _nrt=False)
def _safe_discard_late(obs, params, rules, scratch, late):
    """``safe_discard`` with ``late`` (``hand_is_late``) already known. The legal discards come
    first, as one mask (``legal_discard_mask``), then one pass over the held kinds keys each
    legal one (``discard_key``) and keeps the lowest key, the lower kind on a tie."""
    legal = legal_discard_mask(obs)
    if legal == 0:
        return -1
    shed = late or obs[E.OB_STOCK_N] <= params[H_SHED_STOCK]
    melds = ob_melds(obs)
    best_k, best = -1, NO_KEY
    for k in range(E.N_KINDS):
        if (legal >> k) & 1:
            key = discard_key(obs, params, melds, k, late, shed)
            if key < best:
                best_k, best = k, key
    if best_k < 0:
        return -1
    return E.A_DISCARD + best_k


#: inlined at the heuristic's own discard, ~36 calls a hand (``inline_copy``)
_safe_discard_inline = inline_copy(_safe_discard_late)


@njit(cache=True, _nrt=False)
def _hold_mask(obs, params):
    """Bits of natural ranks whose new meld the kernel holds back (new_meld_min): once opened
    and not late, a rank held fewer than new_meld_min times stays in hand as a pair (PILE-1).
    At new_meld_min <= 2 (the heuristic's) no bit could matter: MELD-1/4 start no natural meld
    from fewer than two naturals, so none is computed."""
    if params[H_NEW_MELD_MIN] <= 2.0:
        return 0
    if obs[E.OB_OPENED] == 0 or hand_is_late(obs, params):
        return 0
    hand = ob_hand(obs)
    mask = 0
    for k in range(E.FIRST_NATURAL, E.N_KINDS):
        if hand[k] < params[H_NEW_MELD_MIN]:
            mask |= 1 << k
    return mask


@njit(cache=True, inline="always")
def _take_pile_ok(obs, params, rules, scratch):
    """PILE-1/2 and judgement: a big enough pile, and no sevens/aces meld it would not start."""
    if obs[E.OB_PILE_N] < params[H_PILE_MIN] and obs[E.OB_OPENED] == 1 and obs[E.OB_STOCK_N] > 0:
        return False
    top = obs[E.OB_PILE_TOP]
    melds = ob_melds(obs)
    hand = ob_hand(obs)
    if (top == E.SEVEN or top == E.ACE) and meld_size(melds, 0, top) == 0:
        # PILE-1 starts a natural meld: the pile's copies join the hand too
        if not _may_start(obs, params, top, hand[top] + obs[E.OB_PILE_COUNTS + top], True):
            return False
    tmp = scratch_tmp(scratch)
    if not pile_may_open(obs, rules, tmp) or not action_ok(obs, E.A_TAKE_PILE, rules, tmp):
        return False
    return (
        obs[E.OB_OPENED] == 1
        or params[H_OPEN_RISKY] > 0
        or _safe_pickup(obs, params, rules, scratch)
    )


@njit(cache=True, _nrt=False)
def _safe_pickup(obs, params, rules, scratch):
    """PILE-2 with the heuristic's caution: can the team open after taking the pile without
    starting a sevens, aces or wild meld it would not start (``safe_opening``)? A partial check:
    sevens/aces it would not start are left out of the hand, and the wild cards capped at 2."""
    hand = ob_hand(obs)
    top = obs[E.OB_PILE_TOP]
    sub = work_sub(scratch)
    pending = work_pending(scratch)  # the chaser's targets: unused while drawing
    mask = risky_start_mask(obs, params)
    for k in range(E.N_KINDS):
        sub[k] = hand[k]
    sub[top] -= 2
    for k in (E.SEVEN, E.ACE):
        if (mask >> k) & 1:
            sub[k] = 0
    if (mask >> E.WILD_MELD) & 1:
        keep_j = min(sub[E.JOKER], 2)
        sub[E.TWO] = min(sub[E.TWO], 2 - keep_j)
        sub[E.JOKER] = keep_j
    extra = obs[E.OB_PILE_N] - 1  # the pile's rest, and the cards left out, stay in hand (OUT-2)
    for k in range(E.N_KINDS):
        extra += hand[k] - sub[k]
    extra -= 2  # the pair goes into the pickup meld
    pending[:] = 0
    pending[top, E.NATURALS] = 2
    mc = obs[E.OB_OPEN_MIN]
    # through the memo (plan at work_plan): after taking the pile, the first opening-turn
    # search (safe_opening) is usually this very one, then answered without searching
    best = opening_search_memo(
        sub, pending, top, extra, ob_melds(obs), rules, mc, opaque(False), scratch
    )
    return best >= mc


@njit(cache=True, inline="always")
def _heuristic_play(obs, params, rules, scratch):
    """One play-phase step of the heuristic kernel (special_chaser's and strong's too)."""
    tmp = scratch_tmp(scratch)
    if obs[E.OB_OPENING_TURN] == 1 and obs[E.OB_OPENED] == 0:
        a = safe_opening(obs, params, rules, scratch)
        if a == -2 and params[H_OPEN_RISKY] > 0:
            a = opening_step(obs, rules, scratch)
        elif a < 0 and obs[E.OB_MELDED] == 1:
            melds = ob_melds(obs)
            pk, mc = obs[E.OB_PILE_KIND], obs[E.OB_OPEN_MIN]
            if opening_reason(ob_pending(obs), melds, opaque(0), pk, mc) != E.R_OK:
                a = opening_step(obs, rules, scratch)  # OPEN-1: once begun it must stand
        if a >= 0:
            return a
        if obs[E.OB_MELDED] == 0:
            return safe_discard(obs, params, rules, scratch)  # cannot open yet
    mask = risky_start_mask(obs, params)
    if _out_reason_inline(ob_melds(obs), opaque(0)) == E.R_OK:
        a = largest_meld(obs, rules, scratch, opaque(True), mask)  # OUT-1 holds: meld out
        if a >= 0:
            return a
        # none: nor without wild cards, whose candidates (every slot it tries, each number of
        # naturals with no wild) the call with wilds judged alike and refused (speed, exact)
    else:  # new_meld_min's held-back melds: never when the team may go out (OUT-1)
        a = largest_meld(obs, rules, scratch, opaque(False), mask | _hold_mask(obs, params))
        if a >= 0:
            return a
    late = hand_is_late(obs, params)
    a = _finish_with_wilds(obs, rules, scratch, params[H_COMPLETE_WITH_WILDS] == 0 or late)
    if a >= 0:
        return a
    hand = ob_hand(obs)
    if meld_size(ob_melds(obs), 0, E.WILD_MELD) == 0 and not (mask >> E.WILD_MELD) & 1:
        w = min(hand[E.TWO] + hand[E.JOKER], E.CANASTA)
        two = min(w, hand[E.TWO])
        a = E.MELD_ACTION[E.WILD_MELD, 0, two, w - two] if w - two <= 4 else -1
        if a >= 0 and action_ok(obs, a, rules, tmp):
            return a
    return _safe_discard_inline(obs, params, rules, scratch, late)


@njit(cache=True, _nrt=False)  # compiled to POLICY_SIGNATURE when first played (registry)
def heuristic_decide(obs, params, rng, rules, scratch):
    """A sensible club player: opens without a risky meld when it can, takes a worthwhile pile,
    starts sevens, aces and a wild meld only with enough of them in hand and of the stock left,
    adds wilds to finish canastas, goes out when it can, discards safely and sheds points late
    (parameters: HEURISTIC_PARAMS, documented in HEURISTIC_PARAM_DOCS)."""
    phase = obs[E.OB_PHASE]
    if phase == E.PH_THREES:
        return E.A_LAY_THREES
    if phase == E.PH_DRAW:
        return E.A_TAKE_PILE if _take_pile_ok(obs, params, rules, scratch) else E.A_DRAW
    if action_ok(obs, E.A_DECLARE, rules, scratch_tmp(scratch)):
        return E.A_DECLARE
    return _heuristic_play(obs, params, rules, scratch)


# ---------------------------------------------------------------------------------------
# special_chaser: heuristic, but chases a Straight, Pairs or Garbage while unopened
# ---------------------------------------------------------------------------------------
#: special_chaser's parameters: the heuristic's, then its own
CHASER_TABLE = (
    *HEURISTIC_TABLE,
    (
        "open_distance",
        4.0,
        "give up the chase and play the heuristic once at least this many cards from every "
        "special hand",
    ),
)
CHASER_PARAMS = {name: default for name, default, _ in CHASER_TABLE}  #: name -> default
C_OPEN_DISTANCE = len(HEURISTIC_TABLE)  #: open (give up the chase) when this far from one


STRAIGHT_KINDS = (
    E.JOKER,
    E.TWO,
    E.FOUR,
    E.FIVE,
    E.SIX,
    E.SEVEN,
    E.EIGHT,
    E.NINE,
    E.TEN,
    E.JACK,
    E.QUEEN,
    E.KING,
    E.ACE,
)


@njit(cache=True, _nrt=True)
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
    if hand[E.RED_THREE] + hand[E.BLACK_THREE] == 0:
        miss_s += 1
    # Pairs and Garbage: the natural ranks held most, greedily
    used = np.zeros(E.N_KINDS, dtype=np.bool_)
    miss_p = _place_groups(hand, used, need_pairs, 7, 7, 2)
    used[:] = False
    miss_g = _place_groups(hand, used, need_garbage, 4, 2, 4)
    return miss_s, miss_p, miss_g


@njit(cache=True, _nrt=False)
def _place_groups(hand, used, need, n, n_big, big):
    """``n`` groups on the unused natural ranks held most, greedily (the lower rank on a tie):
    the first ``n_big`` of ``big`` cards, the rest of ``big - 1``; their sizes in ``need``,
    the cards missing returned."""
    miss = 0
    for i in range(n):
        bk, bc = -1, -1
        for k in range(E.FIRST_NATURAL, E.N_KINDS):
            if not used[k] and hand[k] > bc:
                bk, bc = k, hand[k]
        used[bk] = True
        want = big if i < n_big else big - 1
        need[bk] = want
        miss += max(0, want - bc)
    return miss


@njit(cache=True, _nrt=False)
def chase_discard(obs, params, rules, scratch, need):
    """The legal discard most in excess of what the chased hand needs (safest on ties)."""
    hand = ob_hand(obs)
    tmp = scratch_tmp(scratch)
    best_a, best_x = -1, 0
    for k in range(E.N_KINDS):
        x = hand[k] - need[k]
        if x > best_x and action_ok(obs, E.A_DISCARD + k, rules, tmp):
            best_a, best_x = E.A_DISCARD + k, x
    if best_a < 0:
        return safe_discard(obs, params, rules, scratch)
    return best_a


@njit(cache=True, _nrt=False)  # compiled to POLICY_SIGNATURE when first played (registry)
def special_chaser_decide(obs, params, rng, rules, scratch):
    """The heuristic, except that while its team has not melded it keeps a three (DEAL-5),
    draws from the stock and discards toward the nearest Straight, Pairs or Garbage, opening
    only when at least ``open_distance`` cards from every special hand. Under another list
    than the tournament's (SPECIAL-8/9) it chases the nearest hand of that list
    (``sim.special.nearest_hand``); the tournament list keeps its three targets."""
    tmp = scratch_tmp(scratch)
    phase = obs[E.OB_PHASE]
    if obs[E.OB_OPENED] == 1 or rules[E.RS_CATALOGUE_N] == 0:  # SPECIAL-7: no list
        return heuristic_decide(obs, params, rng, rules, scratch)
    hand = ob_hand(obs)
    if phase == E.PH_THREES:
        if rules[E.RS_CAT_MIN_KINDS3] > E.SPECIAL_HAND_SIZE:  # DEAL-5: no hand with a three
            return heuristic_decide(obs, params, rng, rules, scratch)
        if hand[E.RED_THREE] > 0:
            return E.A_KEEP_RED_THREE
        return E.A_KEEP_BLACK_THREE
    if phase == E.PH_DRAW:
        return E.A_DRAW  # SPECIAL-1: never after taking the pile
    if action_ok(obs, E.A_DECLARE, rules, tmp):
        return E.A_DECLARE
    targets = work_targets(scratch)
    if rules[E.RS_SPECIAL_HANDS] != E.SPECIALS_ON:  # SPECIAL-8/9: the nearest hand of the list
        miss, _ = nearest_hand(hand, rules, targets[0])
        if miss >= params[C_OPEN_DISTANCE] or obs[E.OB_MELDED] == 1:
            return _heuristic_play(obs, params, rules, scratch)
        return chase_discard(obs, params, rules, scratch, targets[0])
    ns, npairs, ng = targets[0], targets[1], targets[2]
    ms, mp, mg = special_targets(hand, ns, npairs, ng)
    nearest = min(ms, mp, mg)
    if nearest >= params[C_OPEN_DISTANCE] or obs[E.OB_MELDED] == 1:
        return _heuristic_play(obs, params, rules, scratch)
    if ms == nearest:
        return chase_discard(obs, params, rules, scratch, ns)
    if mp == nearest:
        return chase_discard(obs, params, rules, scratch, npairs)
    return chase_discard(obs, params, rules, scratch, ng)
