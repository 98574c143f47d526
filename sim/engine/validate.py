"""The validator: is an action legal for the player whose observation is ``obs`` (TURN-1 and
the rules core)?

``action_reason`` is the one validator: the engine checks each policy's proposal with it (or
with ``sim.engine.fastpath``, proved to give its answer), the generator of legal actions
(``sim.engine.generate``) is tested against the table filtered by it, and the step API, the
random policy and the command line use it too. It sees only the observation (``OBS_FIELDS``),
so a policy can ask it what the engine will answer. Every rule is judged by the rules core
(``sim.legality``, ``sim.special``); this module adds the turn's phase (TURN-1), the kept three
(DEAL-5) and the opening turn's search (OPEN-1..4), with its temporaries in ``tmp``
(``TMP_FIELDS``). ``action_ok`` is its yes-or-no answer, which never names an opening's refusal.
"""

from __future__ import annotations

from numba import njit

from sim import encoding as E
from sim._views import copy_into, opaque, sum_words
from sim.engine.observe import bonus_owed
from sim.engine.views import (
    add_operation,
    ob_aside_total,
    ob_hand,
    ob_melds,
    ob_pending,
    take_operation,
    tmp_hand,
    tmp_leave,
    tmp_pending,
    tmp_plan,
    tmp_search,
)
from sim.legality import (
    discard_reason,
    leave_reason,
    meld_reason,
    meld_size,
    opening_count_bound,
    opening_meld_reason,
    opening_reason,
    opening_refusal,
    opening_search_bounded,
    out_reason,
    pile_reason_work,
)
from sim.special import classify_special, special_reason

__all__ = ["action_ok", "action_reason"]


# No default: every caller states the flag, so numba compiles one copy per value (a
# compile-time constant there: random's legal-action generation measured ~5% faster than with
# one signature; cold start).
@njit(cache=True, _nrt=False)
def meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, opening):
    """MELD-1..9, OUT-2 and (in the opening turn, unless ``opening`` is False) OPEN-1..4 for
    one meld operation. When the opening can no longer be completed it answers OPEN-1
    (R_OPEN_MINIMUM, and no other check here does); ``action_reason`` then names the rule that
    stands in the way (``_diagnose_opening``)."""
    hand = ob_hand(obs)
    if slot != E.WILD_MELD and hand[slot] < nat:
        return E.R_NOT_HELD
    if hand[E.TWO] < two or hand[E.JOKER] < joker:
        return E.R_NOT_HELD
    melds = ob_melds(obs)
    total = obs[E.OB_HAND_SIZES] - nat - two - joker  # cards left in hand after the operation
    initial = obs[E.OB_OPENING_TURN] == 1
    r = meld_reason(melds, 0, slot, nat, two, joker, initial, total <= 1, rules)
    if r != E.R_OK:
        return r
    if initial:
        r = opening_meld_reason(melds, 0, slot, nat, two, joker)
        if r != E.R_OK:
            return r  # OPEN-4: this operation would complete a mixed canasta
    bonus = bonus_owed(obs)
    # OUT-2 on the hand the player will hold (a taken pile's rest joins it, PILE-1). From the
    # counts when it keeps two cards or more: then ``leave_reason`` asks only for a card that
    # is not a three, and the MELD-2 variant below concerns a last card (total == 1)
    left = -nat - two - joker
    threes = 0
    for k in range(E.N_KINDS):
        left += hand[k] + obs[E.OB_ASIDE + k]
    for k in (E.RED_THREE, E.BLACK_THREE):
        threes += hand[k] + obs[E.OB_ASIDE + k]
    if left - threes <= 0:
        return E.R_MELD_LEAVES_NO_DISCARD  # OUT-2: no card to discard
    if left <= 1 or total <= 1:
        # judged on the table after the operation: applied to the melds and undone after
        leave = tmp_leave(tmp)
        for k in range(E.N_KINDS):
            leave[k] = hand[k] + obs[E.OB_ASIDE + k]
        take_operation(leave, slot, nat, two, joker)
        add_operation(melds[0], slot, nat, two, joker, 1)
        r = leave_reason(leave, melds, opaque(0), bonus)
        if r == E.R_OK and bonus and total == 1 and meld_size(melds, 0, slot) > E.CANASTA:
            if out_reason(melds, opaque(0)) != E.R_OK:
                r = E.R_MELD_TOO_LONG  # MELD-2 variant: past 7 only by a player who goes out
        add_operation(melds[0], slot, nat, two, joker, -1)
        if r != E.R_OK:
            return r
    if initial and opening:
        # OPEN-1..4: the opening must still be completable after this operation
        hand_after, pending = opening_after(obs, slot, nat, two, joker, tmp)
        plan = tmp_plan(tmp)
        extra = ob_aside_total(obs)
        mc = obs[E.OB_OPEN_MIN]
        pk = obs[E.OB_PILE_KIND]
        work = tmp_search(tmp)
        if (
            opening_search_bounded(
                hand_after, pending, pk, extra, melds, rules, plan, mc, bonus, work
            )
            < mc
        ):
            return E.R_OPEN_MINIMUM  # the only R_OPEN_MINIMUM here (_diagnose_opening)
    return E.R_OK


@njit(cache=True, inline="always")
def opening_after(obs, slot, nat, two, joker, tmp):
    """The hand and the turn's melds (OPEN-1..4's ``pending``) after the meld operation, in
    ``tmp``'s hand and pending words: the position whose opening search judges it."""
    hand_after = tmp_hand(tmp)
    copy_into(hand_after, ob_hand(obs))
    take_operation(hand_after, slot, nat, two, joker)
    pending = tmp_pending(tmp)
    copy_into(pending, ob_pending(obs))
    add_operation(pending, slot, nat, two, joker, 1)
    return hand_after, pending


@njit(cache=True, inline="always")
def meld_reason_without_opening(obs, slot, nat, two, joker, rules, tmp):
    """``action_reason`` of a meld operation minus the opening search (OPEN-1..4): for a policy
    melding a step of a plan that the opening search already showed completable (the engine
    still judges the full rule)."""
    return meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, False)


@njit(cache=True, inline="always")
def opening_possible(obs, rules, tmp):
    """OPEN-1..4: can the current opening turn still be completed (from the current position)?"""
    plan = tmp_plan(tmp)
    extra = ob_aside_total(obs)
    mc = obs[E.OB_OPEN_MIN]
    hand, pending = ob_hand(obs), ob_pending(obs)
    pk = obs[E.OB_PILE_KIND]
    melds, bonus, work = ob_melds(obs), bonus_owed(obs), tmp_search(tmp)
    return (
        opening_search_bounded(hand, pending, pk, extra, melds, rules, plan, mc, bonus, work) >= mc
    )


@njit(cache=True, inline="always")
def pile_may_open(obs, rules, tmp):
    """A cheap necessary condition, not a rule: False when the player's team has not opened and
    ``opening_count_bound`` shows that taking the pile cannot complete an opening (PILE-2), so
    callers can skip the full opening search. True otherwise (then ``action_reason`` decides)."""
    top = obs[E.OB_PILE_TOP]
    if obs[E.OB_OPENED] == 1 or top < E.FIRST_NATURAL or obs[E.OB_HAND + top] < 2:
        return True
    rest = tmp_hand(tmp)
    copy_into(rest, ob_hand(obs))
    rest[top] -= 2
    pending = tmp_pending(tmp)
    pending[:] = 0
    pending[top, E.NATURALS] = 2
    return opening_count_bound(rest, pending, ob_melds(obs), rules) >= obs[E.OB_OPEN_MIN]


@njit(cache=True, _nrt=False)
def turn_opening_reason(obs):
    """OPEN-1..4 on the turn's melds when this is an opening turn with melds (a discard ends
    the turn, so they must be a valid opening), else R_OK: the same for every discard."""
    if obs[E.OB_OPENING_TURN] == 1 and obs[E.OB_MELDED] == 1:
        pending, melds = ob_pending(obs), ob_melds(obs)
        pk, mc, wild_ok = obs[E.OB_PILE_KIND], obs[E.OB_OPEN_MIN], obs[E.OB_OPEN_WILD]
        return opening_reason(pending, melds, opaque(0), pk, mc, wild_ok)  # OPEN-2 variant
    return E.R_OK


@njit(cache=True, _nrt=False)
def discard_reason_at(obs, hand, slot, total, opening_r):
    """``action_reason`` of discarding ``slot`` (held) in the play phase, given the hand's
    card count ``total`` and ``opening_r = turn_opening_reason(obs)``, both the same for
    every discard of a position (``legal_actions`` computes them once)."""
    if opening_r != E.R_OK:
        return opening_r  # OPEN-1..4: the turn's melds must be a valid opening
    if total == 1:
        r = discard_reason(hand, slot, ob_melds(obs), obs[E.OB_PILE_N])
        if r != E.R_OK:
            return r  # DISCARD-1 (a lone three)
        if obs[E.OB_MELDED] == 1 and bonus_owed(obs):
            return E.R_OK  # OUT-2: going out if OUT-1 allows, else bonus cards (OPEN-5)
        return out_reason(ob_melds(obs), opaque(0))  # OUT-1: the last card goes out
    return discard_reason(hand, slot, ob_melds(obs), obs[E.OB_PILE_N])  # DISCARD-1..3


@njit(cache=True, _nrt=False)
def action_reason(obs, a, rules, tmp):
    """Is action ``a`` legal for the player whose observation is ``obs``? R_OK or the code of
    the rule that refuses it (``sim.encoding.explain``). ``tmp``: int64[TMP_SIZE] scratch."""
    r = _action_reason_body(obs, a, rules, tmp)
    if r == E.R_OPEN_MINIMUM and E.ACTION_TABLE[a, E.AC_TYPE] == E.AT_MELD:
        r = _diagnose_opening(obs, rules, tmp)
    return r


@njit(cache=True, _nrt=False)
def _action_reason_plain(obs, a, rules, tmp):
    """``action_reason`` without naming the rule that stands in an opening's way: a meld
    operation after which no opening can be completed is R_OPEN_MINIMUM. What ``action_ok``
    asks, so a policy's code never holds ``_diagnose_opening`` (several more opening searches
    only to name the rule: cold start)."""
    return _action_reason_body(obs, a, rules, tmp)


@njit(cache=True, inline="always")  # one compiled copy in each caller above: no extra layer
def _action_reason_body(obs, a, rules, tmp):
    """``_action_reason_plain``'s checks, by the action's type."""
    if a < 0 or a >= E.N_ACTIONS:
        return E.R_BAD_ACTION
    kind = E.ACTION_TABLE[a, E.AC_TYPE]
    slot = E.ACTION_TABLE[a, E.AC_SLOT]
    phase = obs[E.OB_PHASE]
    hand = ob_hand(obs)
    if kind == E.AT_LAY_THREES or kind == E.AT_KEEP_THREE:
        if phase != E.PH_THREES:
            return E.R_WRONG_PHASE
        if kind == E.AT_KEEP_THREE:
            if hand[slot] < 1:
                return E.R_NOT_HELD
            # SPECIAL-7/9: only toward a hand of the list in force holding a three
            if obs[E.OB_OPENED] == 1 or rules[E.RS_CAT_MIN_KINDS3] > E.SPECIAL_HAND_SIZE:
                return E.R_KEEP_THREE  # DEAL-5
        return E.R_OK
    if kind == E.AT_DRAW:
        return E.R_OK if phase == E.PH_DRAW else E.R_WRONG_PHASE
    if kind == E.AT_TAKE_PILE:
        if phase != E.PH_DRAW:
            return E.R_WRONG_PHASE
        r = pile_reason_work(
            hand,
            ob_melds(obs),
            opaque(0),
            obs[E.OB_PILE_COUNTS : E.OB_PILE_COUNTS + E.N_KINDS],
            obs[E.OB_PILE_TOP],
            obs[E.OB_OPENED] == 1,
            obs[E.OB_OPEN_MIN],
            rules,
            tmp_search(tmp),
        )  # PILE-1/2
        return r
    if phase != E.PH_PLAY:
        return E.R_WRONG_PHASE
    if kind == E.AT_DECLARE:
        if obs[E.OB_MELDED] == 1:
            return E.R_SPECIAL_NOT_FIRST_MELD  # SPECIAL-1: the first and only meld
        return special_reason(hand, obs[E.OB_OPENED] == 1, obs[E.OB_DREW_STOCK] == 1, rules)
    if kind == E.AT_DISCARD:
        if hand[slot] < 1:
            return E.R_NOT_HELD
        total = sum_words(obs, E.OB_HAND, E.N_KINDS)
        return discard_reason_at(obs, hand, slot, total, turn_opening_reason(obs))
    if kind == E.AT_MELD:
        nat, two = E.ACTION_TABLE[a, E.AC_NAT], E.ACTION_TABLE[a, E.AC_TWO]
        joker = E.ACTION_TABLE[a, E.AC_JOKER]
        return meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, True)
    return E.R_BAD_ACTION


@njit(cache=True, _nrt=False)
def _diagnose_opening(obs, rules, tmp):
    """After ``meld_reason_obs`` refused a meld operation with R_OPEN_MINIMUM (its opening
    search from the position the operation leaves fell short; nothing else there returns that
    code): the rule that stands in the way, OPEN-1, OPEN-2, OPEN-4 or OUT-1/2
    (``opening_refusal``, slower), judged on the hand and pending melds the search was given,
    still in ``tmp``. Apart from ``meld_reason_obs`` so that it is compiled once, for
    ``action_reason`` only (cold start)."""
    hand_after, pending, melds = tmp_hand(tmp), tmp_pending(tmp), ob_melds(obs)
    pk, extra, mc = obs[E.OB_PILE_KIND], ob_aside_total(obs), obs[E.OB_OPEN_MIN]
    return opening_refusal(hand_after, pending, melds, 0, pk, extra, rules, mc, bonus_owed(obs))


@njit(cache=True, inline="always")
def declare_ok(obs, rules, tmp):
    """``action_reason(obs, A_DECLARE, rules, tmp) == R_OK``, without naming a refusal:
    ``special_reason`` accepts only a hand ``classify_special`` recognises (SPECIAL-3..7), so
    the other conditions (SPECIAL-1/2) are judged only for such a hand; a refused hand's
    nearest special hand (``_nearest_refusal``, most of the cost) is never looked for. The
    flags ``special_reason`` refuses first (SPECIAL-1: a team that has melded, a turn that
    took the pile) are read before the hand is classified."""
    if obs[E.OB_PHASE] != E.PH_PLAY or obs[E.OB_MELDED] == 1:
        return False  # TURN-1; SPECIAL-1: the first and only meld
    if obs[E.OB_OPENED] == 1 or obs[E.OB_DREW_STOCK] == 0:
        return False  # SPECIAL-1: the team has melded, or the pile was taken (special_reason)
    if classify_special(ob_hand(obs), rules) == E.SPECIAL_NONE:
        return False  # SPECIAL-3..7: no special hand (or specials off)
    return _action_reason_plain(obs, E.A_DECLARE, rules, tmp) == E.R_OK


@njit(cache=True, inline="always")
def action_ok(obs, a, rules, tmp):
    """``action_reason(obs, a, rules, tmp) == R_OK``, for callers that need only yes or no: a
    meld operation refused in an opening turn is not diagnosed (``opening_refusal`` runs
    several more opening searches only to name the rule), nor a refused declaration
    (``declare_ok``); the answer is the same. It never calls ``action_reason``: a policy that
    asks only this compiles no diagnosis (cold start)."""
    if a == E.A_DECLARE:
        return declare_ok(obs, rules, tmp)
    if 0 <= a < E.N_ACTIONS and E.ACTION_TABLE[a, E.AC_TYPE] == E.AT_MELD:
        if obs[E.OB_PHASE] != E.PH_PLAY:
            return False  # TURN-1
        slot = E.ACTION_TABLE[a, E.AC_SLOT]
        nat, two = E.ACTION_TABLE[a, E.AC_NAT], E.ACTION_TABLE[a, E.AC_TWO]
        joker = E.ACTION_TABLE[a, E.AC_JOKER]
        return meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, True) == E.R_OK
    return _action_reason_plain(obs, a, rules, tmp) == E.R_OK
