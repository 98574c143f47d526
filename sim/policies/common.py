"""Compiled helpers shared by the built-in policies (policy layer: observation in, ids out)."""

from __future__ import annotations

from numba import njit

from sim import encoding as E
from sim._views import copy_into, inline_copy, opaque
from sim.engine.judge import (
    action_ok,
    meld_reason_without_opening,
    meld_refused_on_counts,
    meld_rules_ok,
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
from sim.legality import (
    is_dead,
    meld_size,
    meld_wilds_cap,
    opening_reason,
    opening_search_bounded,
)

__all__ = []

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
_PW, POLICY_WORK_SIZE = E.layout(POLICY_WORK_FIELDS)
PW_PLAN = E.SCRATCH_FREE + _PW["plan"]  #: scratch offset of plan[N_KINDS, N_MELD_COLS]
PW_SUB = E.SCRATCH_FREE + _PW["sub"]  #: scratch offset of sub[N_KINDS]
PW_TARGETS = E.SCRATCH_FREE + _PW["targets"]  #: scratch offset of targets[3, N_KINDS]
PW_KEYS = E.SCRATCH_FREE + _PW["keys"]  #: scratch offset of keys[N_KINDS]
assert POLICY_WORK_SIZE <= E.POLICY_FREE and 3 * E.N_KINDS >= _PLAN_CELLS  # room for every use
assert PW_PLAN == E.SCRATCH_HINT  # the plan is where the engine looks for a hint (check_action)

#: the memo of the last opening search (``opening_search_memo``), in the scratch's memo words
#: (SCRATCH_MEMO): what the search was given and what it found
OPENING_MEMO_FIELDS = (
    ("valid", 1),  # 1: the words below hold a search whose count reached the minimum
    ("args", 6),  # extra, pile kind, minimum, bonus, max wilds (MELD-4), dead ranks (MELD-9)
    ("hand", E.N_KINDS),  # the cards the search could use
    ("pending", _PLAN_CELLS),  # the turn's melds it started from
    ("best", 1),  # its count
    ("plan", _PLAN_CELLS),  # its plan
)
_OM, _OPENING_MEMO = E.layout(OPENING_MEMO_FIELDS)
OM_VALID = E.SCRATCH_MEMO + _OM["valid"]  #: scratch offsets of the memo's fields
OM_ARGS = E.SCRATCH_MEMO + _OM["args"]
OM_HAND = E.SCRATCH_MEMO + _OM["hand"]
OM_PENDING = E.SCRATCH_MEMO + _OM["pending"]
OM_BEST = E.SCRATCH_MEMO + _OM["best"]
OM_PLAN = E.SCRATCH_MEMO + _OM["plan"]
assert _OPENING_MEMO <= E.POLICY_MEMO


# ---------------------------------------------------------------------------------------
# Named views of the built-ins' words in the scratch (POLICY_WORK_FIELDS)
# ---------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def work_plan(scratch):
    """plan[slot, col]: an opening plan (``opening_plan`` writes it, ``plan_step`` reads it)."""
    return c_view(scratch[PW_PLAN : PW_PLAN + _PLAN_CELLS], _PLAN_SHAPE)


@njit(cache=True, inline="always")
def work_sub(scratch):
    """sub[kind]: the part of the hand an opening may use."""
    return scratch[PW_SUB : PW_SUB + E.N_KINDS]


@njit(cache=True, inline="always")
def work_targets(scratch):
    """targets[3, kind]: the cards each special hand wants (special_chaser)."""
    return c_view(scratch[PW_TARGETS : PW_TARGETS + 3 * E.N_KINDS], (3, E.N_KINDS))


@njit(cache=True, inline="always")
def work_pending(scratch):
    """pending[slot, col] in the targets' words, for a policy's check while drawing (no chase
    is on then)."""
    return c_view(scratch[PW_TARGETS : PW_TARGETS + _PLAN_CELLS], _PLAN_SHAPE)


@njit(cache=True, inline="always")
def work_keys(scratch):
    """keys[kind]: discard preference keys."""
    return scratch[PW_KEYS : PW_KEYS + E.N_KINDS]


# ---------------------------------------------------------------------------------------
# The opening, melds and discards
# ---------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def opening_step(obs, rules, scratch):
    """OPEN-1..4: the next meld operation of the best opening from this position (the plan of
    ``sim.legality.opening_search_alloc``), or -1 if no opening can be completed or none is left."""
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
    extra = held_back + ob_aside_total(obs)
    mc = obs[E.OB_OPEN_MIN]
    pending, pk, melds = ob_pending(obs), obs[E.OB_PILE_KIND], ob_melds(obs)
    # one copy of the search and its memo for either flag (one compile: a faster cold start)
    flag = opaque(True) if bonus else opaque(False)
    best = opening_search_memo(hand, pending, pk, extra, melds, rules, mc, flag, scratch)
    return best if best >= mc else -1


@njit(cache=True, _nrt=False)
def opening_search_memo(hand, pending, pk, extra, melds, rules, mc, bonus, scratch):
    """``opening_search_bounded(hand, pending, pk, extra, melds, rules, plan, mc, bonus, work)``
    with the plan at ``work_plan`` and the tables in the scratch's temporaries, answered
    without searching when the last search the memo holds (``OPENING_MEMO_FIELDS``) was made
    from this position before one meld operation of its own plan (``memo_rest``): then the
    count is the same and the plan is the rest of that plan (checked against
    the search at every opening-turn decision of real hands: tests/test_opening_search_memo.py).
    A plan below the minimum ``mc`` is not kept (callers use only plans that reach it)."""
    plan = work_plan(scratch)
    maxw = rules[E.RS_MAX_WILDS_MIXED]
    if scratch[OM_VALID] == 1:
        dead = _dead_ranks(melds)
        if memo_rest(hand, pending, extra, pk, mc, bonus, maxw, dead, plan, scratch):
            return scratch[OM_BEST]  # the memo now holds this position and its plan
    work = tmp_search(scratch_tmp(scratch))
    best = opening_search_bounded(hand, pending, pk, extra, melds, rules, plan, mc, bonus, work)
    if best < mc:
        scratch[OM_VALID] = 0
        return best
    # keep this search's position and plan for the next call
    scratch[OM_VALID] = 1
    scratch[OM_BEST] = best
    args = scratch[OM_ARGS : OM_ARGS + 6]
    args[0], args[1], args[2], args[3], args[4] = extra, pk, mc, bonus, maxw
    args[5] = _dead_ranks(melds)
    copy_into(scratch[OM_HAND : OM_HAND + E.N_KINDS], hand)
    copy_into(scratch[OM_PENDING : OM_PENDING + _PLAN_CELLS], pending)
    copy_into(scratch[OM_PLAN : OM_PLAN + _PLAN_CELLS], plan)
    return best


@njit(cache=True, inline="always")
def _dead_ranks(melds):
    """Bit k set for each natural rank k dead by MELD-9 (``is_dead``: a canasta of either
    team)."""
    dead = opaque(0)  # not a literal: one copy of memo_rest
    for k in range(E.FIRST_NATURAL, E.N_KINDS):
        if is_dead(melds, k):
            dead |= 1 << k
    return dead


@njit(cache=True, _nrt=False)
def memo_rest(hand, pending, extra, pk, mc, bonus, maxw, dead, plan, scratch):
    """Is this search (``opening_search_memo``'s arguments, ``dead``: the MELD-9 mask of
    ``is_dead``) the memo's after one meld operation taken from the memo's plan? If so, write
    the plan that search would find to ``plan`` and return True.

    Why it is exact. The search (``opening_search``) is a dynamic programme over the
    natural ranks; its states are (wilds placed from hand, OPEN-2 flag, naturals left,
    canastas, unfinished sevens/aces), visited in increasing order, choices (naturals a,
    wilds x) in increasing order, and the first strictly best value is kept. After an
    operation of n naturals and w wild cards (t twos, j jokers) on natural rank s, with the
    same rest of the arguments, the new search's paths are exactly the old search's paths
    that put at least (n, w) on s: the same choices on the other ranks, (a - n, x - w) on s,
    the same naturals left and the same sizes, so the same checks (MELD-1/2/4/6, OPEN-2/4,
    OUT-1/2, PILE-1); their states are the old ones with w fewer wilds placed from hand from
    rank s on, which keeps their order. Their values are the same when the operation's wilds
    are split jokers first (j = min(w, jokers held), as the search counts them): the w cards
    then count in the turn's melds what they counted among the wilds placed. So every new
    state's value is at most the old one's, the old plan's path reaches its old value in
    the new search, and the first best of the subset is the old plan's: same count, same
    choices, the plan rebuilt with the jokers left, highest ranks first. Kept out: the wild
    meld (an operation on it changes MELD-8's test), wilds while a started wild meld is
    incomplete (the test counts the wilds placed from hand, which the operation moves to
    the turn's melds), ranks made dead other than s (MELD-9), and s made dead (a canasta)
    unless the plan puts nothing more on it (the search then offers s nothing more)."""
    args = scratch[OM_ARGS : OM_ARGS + 6]
    if args[0] != extra or args[1] != pk or args[2] != mc or args[3] != bonus or args[4] != maxw:
        return False
    mhand = scratch[OM_HAND : OM_HAND + E.N_KINDS]
    mpend = c_view(scratch[OM_PENDING : OM_PENDING + _PLAN_CELLS], _PLAN_SHAPE)
    mplan = c_view(scratch[OM_PLAN : OM_PLAN + _PLAN_CELLS], _PLAN_SHAPE)
    s = -1  # the one slot whose pending meld changed
    for slot in range(E.N_KINDS):
        if (
            pending[slot, E.NATURALS] != mpend[slot, E.NATURALS]
            or pending[slot, E.TWOS] != mpend[slot, E.TWOS]
            or pending[slot, E.JOKERS] != mpend[slot, E.JOKERS]
        ):
            if s >= 0:
                return False
            s = slot
    if s < 0:  # the same position: the same answer
        for k in range(E.N_KINDS):
            if hand[k] != mhand[k]:
                return False
        if args[5] != dead:
            return False
        copy_into(plan, mplan)
        return True
    if s < E.FIRST_NATURAL:
        return False  # the wild meld (MELD-8)
    n = pending[s, E.NATURALS] - mpend[s, E.NATURALS]
    t = pending[s, E.TWOS] - mpend[s, E.TWOS]
    j = pending[s, E.JOKERS] - mpend[s, E.JOKERS]
    w = t + j
    if n < 0 or t < 0 or j < 0 or n > mplan[s, E.NATURALS]:
        return False
    if w > mplan[s, E.TWOS] + mplan[s, E.JOKERS] or j != min(w, mhand[E.JOKER]):
        return False  # not within the plan, or not jokers first
    wm = pending[E.WILD_MELD, E.TWOS] + pending[E.WILD_MELD, E.JOKERS]
    if w > 0 and 0 < wm < E.CANASTA:
        return False  # MELD-8
    for k in range(E.N_KINDS):
        d = n if k == s else (t if k == E.TWO else (j if k == E.JOKER else 0))
        if hand[k] != mhand[k] - d:
            return False
    bit = 1 << s
    rest_n = mplan[s, E.NATURALS] - n
    rest_w = mplan[s, E.TWOS] + mplan[s, E.JOKERS] - w
    if (dead & ~bit) != args[5] or (dead & bit and rest_n + rest_w > 0):
        return False  # MELD-9
    # the rest of the plan, its wild cards split as the search rebuilds it: jokers to the
    # natural melds from the highest rank down, the rest to the wild meld; the memo then
    # holds this position (the operation moved from the hand to the turn's melds) and it
    mplan[s, E.NATURALS] -= n
    x = mplan[s, E.TWOS] + mplan[s, E.JOKERS] - w
    mplan[s, E.TWOS], mplan[s, E.JOKERS] = x, 0
    jokers_left = hand[E.JOKER]
    for kind in range(E.N_KINDS - 1, E.FIRST_NATURAL - 1, -1):
        x = mplan[kind, E.TWOS] + mplan[kind, E.JOKERS]
        jk = min(x, jokers_left)
        mplan[kind, E.JOKERS] = jk
        mplan[kind, E.TWOS] = x - jk
        jokers_left -= jk
    q = mplan[E.WILD_MELD, E.TWOS] + mplan[E.WILD_MELD, E.JOKERS]
    jk = min(q, jokers_left)
    mplan[E.WILD_MELD, E.JOKERS] = jk
    mplan[E.WILD_MELD, E.TWOS] = q - jk
    copy_into(plan, mplan)
    mhand[s] -= n
    mhand[E.TWO] -= t
    mhand[E.JOKER] -= j
    mpend[s, E.NATURALS] += n
    mpend[s, E.TWOS] += t
    mpend[s, E.JOKERS] += j
    args[5] = dead
    return True


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def opening_stands(obs):
    """OPEN-1..4: this is the team's opening turn and the melds made so far are a valid opening."""
    if obs[E.OB_OPENING_TURN] == 0 or obs[E.OB_MELDED] == 0:
        return False
    r = opening_reason(
        ob_pending(obs), ob_melds(obs), opaque(0), obs[E.OB_PILE_KIND], obs[E.OB_OPEN_MIN]
    )
    return r == E.R_OK


@njit(cache=True, inline="always")
def _meld_ok(obs, slot, nat, two, joker, rules, tmp, stands):
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


@njit(cache=True, inline="always")
def held_and_threes(obs):
    """The cards the player holds (hand and a taken pile's rest) and the threes among them:
    what OUT-2 asks of every meld operation of the position, counted once."""
    hand = ob_hand(obs)
    held, threes = 0, 0
    for k in range(E.N_KINDS):
        held += hand[k] + obs[E.OB_ASIDE + k]
    for k in (E.RED_THREE, E.BLACK_THREE):
        threes += hand[k] + obs[E.OB_ASIDE + k]
    return held, threes


@njit(cache=True, inline="always")
def meld_legal(obs, slot, nat, two, joker, rules, tmp, stands, held, threes):
    """``_meld_ok``: outside the opening turn from the counts (``meld_rules_ok``, the judge's
    own checks in its order, with ``held`` and ``threes`` of ``held_and_threes``; the full
    check only where OUT-2 looks at the table), the same answer as ``action_ok`` there."""
    if obs[E.OB_OPENING_TURN] == 0 and obs[E.OB_PHASE] == E.PH_PLAY:  # (TURN-1: action_ok's)
        return meld_rules_ok(obs, slot, nat, two, joker, rules, tmp, held, threes)
    return _meld_ok(obs, slot, nat, two, joker, rules, tmp, stands)


FULL_CHECK = -3  #: ``largest_natural_meld``: a candidate needs the full check (OUT-2's table)


@njit(cache=True, _nrt=False)
def largest_natural_meld(obs, rules, scratch, skip_mask):
    """``largest_meld`` without wild cards, outside the opening turn: the same
    candidates in the same order (ranks from the highest, the most naturals first, larger
    than the best found), each judged as ``action_reason`` would (``meld_reason_obs``,
    ``meld_reason``) with what every candidate shares counted once: the cards the player
    holds and the threes among them (OUT-2). MELD-1/2/4/9 from the counts; a candidate that
    would leave a card or none (OUT-2's check of the table) returns ``FULL_CHECK``, and
    ``largest_meld`` judges every candidate in full (~45 calls a hand;
    the fallback keeps the judge's code out of this shortcut, a cold-start cost)."""
    if obs[E.OB_PHASE] != E.PH_PLAY:
        return -1  # TURN-1 (action_ok)
    hand = ob_hand(obs)
    melds = ob_melds(obs)
    held, threes = held_and_threes(obs)
    total = obs[E.OB_HAND_SIZES]
    maxw = rules[E.RS_MAX_WILDS_MIXED]
    room = held - threes - 1  # OUT-2: a card to discard
    # each rank's candidate judged with arithmetic, not branches (whether a rank is held,
    # started or dead varies from call to call); the scan keeps the first strictly largest
    best_slot, best_n = -1, 0
    for slot in range(E.N_KINDS - 1, E.FIRST_NATURAL - 1, -1):
        h = hand[slot]
        cur_nat = melds[0, slot, E.NATURALS]
        cur_w = melds[0, slot, E.TWOS] + melds[0, slot, E.JOKERS]
        cur = cur_nat + cur_w
        new = cur == 0
        # not started here and skipped, or MELD-1: too few for a new meld
        refused = new & (((skip_mask >> slot) & 1 == 1) | (h < E.MIN_MELD))
        # MELD-2 (no wild card to add), MELD-9 (a canasta of either team: ``is_dead``'s test
        # without its branches; calling it here cost 2-4% of the heuristic's hands a second)
        refused |= (cur >= E.CANASTA) | (meld_size(melds, 1, slot) >= E.CANASTA)
        refused |= (cur_w > 0) & (cur_w > maxw)  # MELD-4: no natural makes the wilds fewer
        # the most naturals that pass every check, found without trying each number: each
        # check bounds the naturals from above or below
        nat = min(h, E.CANASTA - cur, room)  # MELD-2; OUT-2
        low = max(E.MIN_MELD if new else 1, 2 - cur_nat if cur_w > 0 else 1)  # MELD-1, MELD-4
        take = (h > 0) & ~refused & (nat >= low) & (nat > best_n)
        best_slot = slot if take else best_slot
        best_n = nat if take else best_n
    if best_slot < 0:
        return -1
    # OUT-2 on the table: the full check decides (the candidates taken grow, so the scan that
    # stops at the first one leaving a card or none stops exactly when the largest does)
    if held - best_n <= 1 or total - best_n <= 1:
        return FULL_CHECK
    return E.MELD_ACTION[best_slot, best_n, 0, 0]


#: inlined in ``largest_meld``, its common call (``inline_copy``)
largest_natural_meld_inline = inline_copy(largest_natural_meld)


@njit(cache=True, _nrt=False)  # no eager signature: it would compile the judge beneath it at import
def largest_meld(obs, rules, scratch, use_wilds, skip_mask, shortcut=True):
    """The legal meld operation moving the most cards from hand (ties: higher rank), or -1.
    ``use_wilds``: also try wild cards (naturals' melds and the wild meld); ``skip_mask``:
    bit ``1 << slot`` set for slots not to start a new meld in. Every candidate is judged
    through ``meld_legal`` (``_meld_ok``'s answer, from the counts outside the opening turn),
    and naturals alone after the opening turn (asked for, or all a hand without wild cards
    can meld), the common call, all at once from the counts
    by ``largest_natural_meld`` (the same answer, tested against
    ``shortcut=False``: tests/test_policy_shortcuts.py). One compiled function with the
    shortcut a call of its own, as before it (inlining the general
    path into a dispatcher compiled ~2 s slower, a layer around it cost ~1.4 s)."""
    hand = ob_hand(obs)
    # without a wild card in hand the search with wilds tries the same candidates as the one
    # without (its wild meld loop is empty): the shortcut answers both
    no_wilds = not use_wilds or hand[E.TWO] + hand[E.JOKER] == 0
    if shortcut and obs[E.OB_OPENING_TURN] == 0 and no_wilds:
        a = largest_natural_meld_inline(obs, rules, scratch, skip_mask)
        if a != FULL_CHECK:
            return a
    melds = ob_melds(obs)
    tmp = scratch_tmp(scratch)
    stands = opening_stands(obs)
    held, threes = held_and_threes(obs)
    best_a, best_n = -1, 0
    for slot in range(E.N_KINDS - 1, E.FIRST_NATURAL - 1, -1):
        cur = meld_size(melds, 0, slot)
        if cur == 0 and (skip_mask >> slot) & 1:
            continue
        if hand[slot] == 0 and (cur == 0 or not use_wilds):
            continue
        maxw = min(hand[E.TWO] + hand[E.JOKER], E.MAX_OP_WILDS) if use_wilds else 0
        if maxw > 0:
            maxw = meld_wilds_cap(melds, slot, hand[slot], maxw, obs[E.OB_OPENING_TURN] == 1, rules)
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
                    continue  # MELD-1..9 refuse it on the counts (_meld_ok would say no)
                if meld_legal(obs, slot, nat, two, joker, rules, tmp, stands, held, threes):
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
            if a >= 0 and meld_legal(
                obs, E.WILD_MELD, opaque(0), two, joker, rules, tmp, stands, held, threes
            ):
                best_a, best_n = a, w
                break
    return best_a


@njit(cache=True, _nrt=False)
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
        if key < best_key and action_ok(obs, E.A_DISCARD + k, rules, tmp):
            best_a, best_key = E.A_DISCARD + k, key
    return best_a
