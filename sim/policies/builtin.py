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
    JOKERS,
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
    OB_OPEN_MIN,
    OB_OPENED,
    OB_OPENING_TURN,
    OB_PHASE,
    OB_PILE_COUNTS,
    OB_PILE_KIND,
    OB_PILE_N,
    OB_PILE_TOP,
    OB_STOCK_N,
    PH_DRAW,
    PH_THREES,
    QUEEN,
    R_OK,
    RED_THREE,
    RS_RULE_OF_FIVE,
    RS_SPECIAL_HANDS,
    SCRATCH_FREE,
    SCRATCH_LEGAL,
    SEVEN,
    SIX,
    SPECIALS_ON,
    TEN,
    TWO,
    TWOS,
    WILD_MELD,
)
from sim.engine.contract import POLICY_SIGNATURE
from sim.engine.core import (
    action_reason,
    legal_actions,
    ob_hand,
    ob_melds,
    ob_pending,
    opening_best,
    pile_may_open,
)
from sim.legality import is_dead, meld_size, opening_reason, out_reason
from sim.policies.common import (
    cheapest_discard,
    largest_meld,
    meld_ok,
    opening_plan,
    opening_stands,
    opening_step,
    plan_step,
    tmp_of,
)
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
H_LATE_STOCK = 5  #: stock size from which the hand is "late": shed points and SCORE-4 cards
H_COMPLETE_WITH_WILDS = 6  #: 1: wilds join natural melds only to finish a canasta; 0: freely
H_RISKY_MIN_STOCK = 7  #: start sevens/aces/wild melds only with this many stock cards left
H_LIVE_MIN = 8  #: ... and only if this many of the rank are held or unseen (SCORE-2 odds)
H_OPEN_RISKY = 9  #: 1: open with a risky meld when no safe opening reaches OPEN-1; 0: wait
H_OPP_OUT_LATE = 10  #: 1: an opponent team able to go out (OUT-1) also makes the hand late
H_FEED_WEIGHT = 11  #: extra discard risk for a rank the opponents have melded (PILE-1)
H_DUMP_WEIGHT = 12  #: late in the hand, weight of a card's value when choosing a discard
H_SHED_STOCK = 13  #: from this stock size down, shed a third seven/ace it will not meld
KEYS_OFFSET = N_KINDS * N_MELD_COLS + 4 * N_KINDS  #: after the plan, work and chaser targets
SUB_OFFSET = N_KINDS * N_MELD_COLS  #: the "work" words: the part of the hand an opening uses
NO_KEY = 1 << 62  #: a kind that cannot be discarded
#: the heuristic's parameters and defaults (registry order; the names are part of the API:
#: analysis notebooks and reports sweep them as ``heuristic:sevens_threshold=5``)
HEURISTIC_PARAMS = {
    "sevens_threshold": 5.0,
    "aces_threshold": 5.0,
    "wild_meld_threshold": 5.0,
    "pile_min": 2.0,
    "safe_weight": 1.0,
    "late_stock": 10.0,
    "complete_with_wilds": 1.0,
    "risky_min_stock": 0.0,
    "live_min": 7.0,
    "open_risky": 0.0,
    "opp_out_late": 1.0,
    "feed_weight": 0.0,
    "dump_weight": 1.0,
    "shed_stock": 60.0,
}
#: one line per parameter, for the registry's documentation
HEURISTIC_PARAM_DOCS = {
    "sevens_threshold": "start a natural sevens meld (from hand, the pile or the opening) only "
    "holding at least this many sevens (SCORE-2: +2,500 complete, -2,500 not)",
    "aces_threshold": "the same for a natural aces meld (an aces meld that takes wilds in the "
    "opening, MELD-7, is safe and not limited)",
    "wild_meld_threshold": "start a wild meld only holding at least this many wild cards "
    "(SCORE-3: +2,000..3,000 complete, -2,000 not)",
    "pile_min": "once opened, take the pile only when it holds at least this many cards",
    "safe_weight": "weight of the risk that a discard lets the next player take the pile",
    "late_stock": "from this many stock cards down the hand is late: shed a third seven/ace "
    "(SCORE-4), put wild cards on any meld, discard high cards first",
    "complete_with_wilds": "1: before late, wild cards join natural melds only to finish a "
    "canasta; 0: whenever legal",
    "risky_min_stock": "start sevens, aces or wild melds only with at least this many stock "
    "cards left (time to finish them); 0: no such condition (measured best with thresholds of "
    "5: holding five sevens costs SCORE-4's 1,500 while two more finish the meld)",
    "live_min": "start sevens/aces only if at least this many of the rank are held or unseen "
    "(not in the pile or the opponents' melds); 7 = no more than one copy gone",
    "open_risky": "1: when no opening without a risky meld reaches the OPEN-1 minimum, open "
    "with one anyway; 0: wait for a safe opening",
    "opp_out_late": "1: an opponent team that could go out now (OUT-1) makes the hand late",
    "feed_weight": "extra discard risk for a rank the opponents have a meld of (they may hold "
    "a pair of it, PILE-1); 0 by default: measured, 1 loses ~95 points a hand on duplicate deals "
    "(the pile is always frozen, and the copies unseen already weigh the pair's chance)",
    "dump_weight": "late in the hand, weight of a card's value when choosing a discard",
    "shed_stock": "from this many stock cards down (or when the hand is late), discard a third "
    "seven or ace whose meld it would not start, rather than risk SCORE-4's 1,500",
}


@njit(cache=True)
def _unseen(obs, melds, kind):
    """Copies of ``kind`` the player cannot see (in other hands or the stock)."""
    seen = obs[OB_HAND + kind] + obs[OB_PILE_COUNTS + kind]
    seen += melds[0, kind, NATURALS] + melds[1, kind, NATURALS]
    return KIND_COPIES[kind] - seen


@njit(cache=True)
def _may_start(obs, params, kind, held, taking_pile):
    """SCORE-2/3: may the team start its sevens, aces or wild meld (``kind``: SEVEN, ACE or
    WILD_MELD) holding ``held`` of it? Enough in hand, enough stock left to finish it, and
    (sevens, aces) enough of the rank out of the opponents' melds and (unless ``taking_pile``)
    out of the pile."""
    if obs[OB_STOCK_N] < params[H_RISKY_MIN_STOCK]:
        return False
    if kind == WILD_MELD:
        return held >= params[H_WILD_MELD_THRESHOLD]
    thr = params[H_SEVENS_THRESHOLD] if kind == SEVEN else params[H_ACES_THRESHOLD]
    if held < thr:
        return False
    melds = ob_melds(obs)
    live = KIND_COPIES[kind] - melds[1, kind, NATURALS]
    if not taking_pile:
        live -= obs[OB_PILE_COUNTS + kind]
    return live >= params[H_LIVE_MIN]


@njit(cache=True)
def _risky_start_mask(obs, params):
    """Bit mask of slots whose new meld the heuristic will not start now (sevens, aces, wild)."""
    hand = ob_hand(obs)
    mask = 0
    if not _may_start(obs, params, SEVEN, hand[SEVEN], False):
        mask |= 1 << SEVEN
    if not _may_start(obs, params, ACE, hand[ACE], False):
        mask |= 1 << ACE
    if not _may_start(obs, params, WILD_MELD, hand[TWO] + hand[JOKER], False):
        mask |= 1 << WILD_MELD
    return mask


@njit(cache=True)
def _late(obs, params):
    """The hand may end soon: the stock is low, or the opponents could go out (OUT-1)."""
    if obs[OB_STOCK_N] <= params[H_LATE_STOCK]:
        return True
    return params[H_OPP_OUT_LATE] > 0 and out_reason(ob_melds(obs), 1) == R_OK


@njit(cache=True)
def _safe_opening(obs, params, rules, scratch):
    """OPEN-1..4 without starting a risky meld: the next step of the best opening that starts no
    sevens, natural aces or wild meld the heuristic would not start (``_may_start``), or -1.
    Natural aces that take wilds in the opening are a mixed meld (MELD-7) and allowed.
    -2 when no such opening exists (-1: it exists and needs no further step)."""
    hand = ob_hand(obs)
    melds = ob_melds(obs)
    sub = scratch[SCRATCH_FREE + SUB_OFFSET : SCRATCH_FREE + SUB_OFFSET + N_KINDS]
    for k in range(N_KINDS):
        sub[k] = hand[k]
    mask = _risky_start_mask(obs, params)
    if (mask >> SEVEN) & 1 and meld_size(melds, 0, SEVEN) == 0:
        sub[SEVEN] = 0
    pw = N_KINDS * N_MELD_COLS
    plan = scratch[SCRATCH_FREE : SCRATCH_FREE + pw].reshape((N_KINDS, N_MELD_COLS))
    for _ in range(3):
        held_back = 0
        for k in range(N_KINDS):
            held_back += hand[k] - sub[k]
        if opening_plan(obs, rules, scratch, sub, held_back) < 0:
            return -2
        again = False
        if (mask >> ACE) & 1 and meld_size(melds, 0, ACE) == 0 and sub[ACE] > 0:
            if plan[ACE, NATURALS] > 0 and plan[ACE, TWOS] + plan[ACE, JOKERS] == 0:
                sub[ACE] = 0  # a natural aces meld it would not start
                again = True
        if (mask >> WILD_MELD) & 1 and meld_size(melds, 0, WILD_MELD) == 0:
            if plan[WILD_MELD, TWOS] + plan[WILD_MELD, JOKERS] > 0:
                keep_j = min(sub[JOKER], 2)  # too few wilds for a wild meld: jokers first
                sub[TWO] = min(sub[TWO], 2 - keep_j)
                sub[JOKER] = keep_j
                again = True
        if not again:
            return plan_step(obs, rules, scratch)
    return -2


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
    stands = opening_stands(obs)
    cur = meld_size(melds, 0, WILD_MELD)
    if 0 < cur < CANASTA:  # MELD-8: finish the wild meld first, twos before jokers
        for w in range(min(wilds, CANASTA - cur), 0, -1):
            two = min(w, hand[TWO])
            a = MELD_ACTION[WILD_MELD, 0, two, w - two]
            if a >= 0 and meld_ok(obs, WILD_MELD, 0, two, w - two, rules, tmp, stands):
                return a
        return -1
    for slot in range(N_KINDS - 1, FIRST_NATURAL - 1, -1):
        size = meld_size(melds, 0, slot)
        if size == 0 or size >= CANASTA or slot == SEVEN:
            continue  # MELD-6: sevens never take wilds
        if rules[RS_RULE_OF_FIVE] == 1 and melds[0, slot, NATURALS] < 5:
            continue  # MELD-5: no wild joins before 5 naturals (the check, made cheap)
        need = CANASTA - size
        if need > wilds and not free_wilds:
            continue
        w = min(need, wilds)
        two = min(w, hand[TWO])  # twos first: jokers are worth more elsewhere (SCORE-3)
        a = MELD_ACTION[slot, 0, two, w - two]
        if a >= 0 and meld_ok(obs, slot, 0, two, w - two, rules, tmp, stands):
            return a
    return -1


@njit(cache=True)
def safe_discard(obs, params, rules, scratch):
    """DISCARD-*: the legal discard that keeps most and risks least. Keep: pairs and ranks the
    team melds, wild cards. Risk: a natural of a live rank the next player may pair (PILE-1),
    weighed by the pile's size, more for a rank the opponents meld. Late in the hand: shed a
    third seven/ace (SCORE-4) and high cards (SCORE-5)."""
    hand = ob_hand(obs)
    melds = ob_melds(obs)
    tmp = tmp_of(scratch)
    late = _late(obs, params)
    keys = scratch[SCRATCH_FREE + KEYS_OFFSET : SCRATCH_FREE + KEYS_OFFSET + N_KINDS]
    for k in range(N_KINDS):
        if hand[k] == 0 or k == RED_THREE or k == BLACK_THREE:
            keys[k] = NO_KEY  # DISCARD-1
            continue
        keep = 0.0
        if k == JOKER or k == TWO:
            keep = 1000.0
        elif is_dead(melds, k):
            keep = -30.0 - KIND_VALUE[k]  # MELD-9: no use, and it blocks the pile (PILE-2)
            if (k == SEVEN or k == ACE) and hand[k] >= 3:
                keep -= 60.0  # SCORE-4
        else:
            keep = 10.0 * (hand[k] - 1)
            if meld_size(melds, 0, k) > 0 and meld_size(melds, 0, k) < CANASTA:
                keep += 25.0
            if (k == SEVEN or k == ACE) and hand[k] >= 3 and meld_size(melds, 0, k) == 0:
                if late or obs[OB_STOCK_N] <= params[H_SHED_STOCK]:
                    keep -= 60.0  # SCORE-4: shed a third seven/ace it does not meld
            risk = 0.0
            opp = meld_size(melds, 1, k)
            if not is_dead(melds, k) and opp < 5:
                u = _unseen(obs, melds, k)
                if u >= 2:
                    risk = u / 8.0 * (3.0 + obs[OB_PILE_N])
                    if opp > 0:
                        risk *= 1.0 + params[H_FEED_WEIGHT]
            keep += params[H_SAFE_WEIGHT] * risk
            w = params[H_DUMP_WEIGHT] if late else 0.2
            keep -= KIND_VALUE[k] * w  # high cards cost more if left in hand
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
    """PILE-1/2 and judgement: a big enough pile, and no sevens/aces meld it would not start."""
    if obs[OB_PILE_N] < params[H_PILE_MIN] and obs[OB_OPENED] == 1 and obs[OB_STOCK_N] > 0:
        return False
    top = obs[OB_PILE_TOP]
    melds = ob_melds(obs)
    hand = ob_hand(obs)
    if (top == SEVEN or top == ACE) and meld_size(melds, 0, top) == 0:
        # PILE-1 starts a natural meld: the pile's copies join the hand too
        if not _may_start(obs, params, top, hand[top] + obs[OB_PILE_COUNTS + top], True):
            return False
    tmp = tmp_of(scratch)
    if not pile_may_open(obs, rules, tmp) or action_reason(obs, A_TAKE_PILE, rules, tmp) != R_OK:
        return False
    return (
        obs[OB_OPENED] == 1 or params[H_OPEN_RISKY] > 0 or _safe_pickup(obs, params, rules, scratch)
    )


@njit(cache=True)
def _safe_pickup(obs, params, rules, scratch):
    """PILE-2 with the heuristic's caution: can the team open after taking the pile without
    starting a sevens, aces or wild meld it would not start (``_safe_opening``)? A partial check:
    sevens/aces it would not start are left out of the hand, and the wild cards capped at 2."""
    hand = ob_hand(obs)
    top = obs[OB_PILE_TOP]
    sub = scratch[SCRATCH_FREE + SUB_OFFSET : SCRATCH_FREE + SUB_OFFSET + N_KINDS]
    pw = N_KINDS * N_MELD_COLS
    base = SCRATCH_FREE + SUB_OFFSET + N_KINDS  # the chaser's targets: unused while drawing
    pending = scratch[base : base + pw].reshape((N_KINDS, N_MELD_COLS))
    plan = scratch[SCRATCH_FREE : SCRATCH_FREE + pw].reshape((N_KINDS, N_MELD_COLS))
    mask = _risky_start_mask(obs, params)
    for k in range(N_KINDS):
        sub[k] = hand[k]
    sub[top] -= 2
    for k in (SEVEN, ACE):
        if (mask >> k) & 1:
            sub[k] = 0
    if (mask >> WILD_MELD) & 1:
        keep_j = min(sub[JOKER], 2)
        sub[TWO] = min(sub[TWO], 2 - keep_j)
        sub[JOKER] = keep_j
    extra = obs[OB_PILE_N] - 1  # the pile's rest, and the cards left out, stay in hand (OUT-2)
    for k in range(N_KINDS):
        extra += hand[k] - sub[k]
    extra -= 2  # the pair goes into the pickup meld
    pending[:] = 0
    pending[top, NATURALS] = 2
    mc = obs[OB_OPEN_MIN]
    best = opening_best(sub, pending, top, extra, ob_melds(obs), rules, plan, mc)
    return best >= mc


@njit(cache=True)
def heuristic_play(obs, params, rules, scratch):
    """One play-phase step of the heuristic (shared with special_chaser)."""
    tmp = tmp_of(scratch)
    if obs[OB_OPENING_TURN] == 1 and obs[OB_OPENED] == 0:
        a = _safe_opening(obs, params, rules, scratch)
        if a == -2 and params[H_OPEN_RISKY] > 0:
            a = opening_step(obs, rules, scratch)
        elif a < 0 and obs[OB_MELDED] == 1:
            melds = ob_melds(obs)
            pk, mc = obs[OB_PILE_KIND], obs[OB_OPEN_MIN]
            if opening_reason(ob_pending(obs), melds, 0, pk, mc) != R_OK:
                a = opening_step(obs, rules, scratch)  # OPEN-1: once begun it must stand
        if a >= 0:
            return a
        if obs[OB_MELDED] == 0:
            return safe_discard(obs, params, rules, scratch)  # cannot open yet
    mask = _risky_start_mask(obs, params)
    if out_reason(ob_melds(obs), 0) == R_OK:
        a = largest_meld(obs, rules, scratch, True, mask)  # OUT-1 holds: meld out
        if a >= 0:
            return a
    a = largest_meld(obs, rules, scratch, False, mask)
    if a >= 0:
        return a
    late = _late(obs, params)
    a = _finish_with_wilds(obs, rules, scratch, params[H_COMPLETE_WITH_WILDS] == 0 or late)
    if a >= 0:
        return a
    hand = ob_hand(obs)
    if meld_size(ob_melds(obs), 0, WILD_MELD) == 0 and not (mask >> WILD_MELD) & 1:
        w = min(hand[TWO] + hand[JOKER], CANASTA)
        two = min(w, hand[TWO])
        a = MELD_ACTION[WILD_MELD, 0, two, w - two] if w - two <= 4 else -1
        if a >= 0 and action_reason(obs, a, rules, tmp) == R_OK:
            return a
    return safe_discard(obs, params, rules, scratch)


@njit(POLICY_SIGNATURE, cache=True)
def heuristic_decide(obs, params, rng, rules, scratch):
    """A sensible club player: opens without a risky meld when it can, takes a worthwhile pile,
    starts sevens, aces and a wild meld only with enough of them in hand and of the stock left,
    adds wilds to finish canastas, goes out when it can, discards safely and sheds points late
    (parameters: HEURISTIC_PARAMS, documented in HEURISTIC_PARAM_DOCS)."""
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
CHASER_PARAM_DOCS = {
    **HEURISTIC_PARAM_DOCS,
    "open_distance": "give up the chase and play the heuristic once at least this many cards "
    "from every special hand",
}


def param_docs(params: dict) -> str:
    """'name (default): what it does' lines for the registry's documentation."""
    docs = {**CHASER_PARAM_DOCS}
    return "\n".join(f"  {k} ({v:g}): {docs[k]}" for k, v in params.items())


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
