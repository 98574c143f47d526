"""Judging actions from the acting player's observation alone (TURN-1 and the rules core).

``action_reason`` is the one validator: the engine checks each policy's proposal with it
(``check_action``, the same answer made cheaper in an opening turn), ``legal_actions`` filters
the fixed action table with it, and the step API, the random policy and the command line use
it too. It sees only the observation (``OBS_FIELDS``), so a policy can ask it what the engine
will answer. Every rule is judged by the rules core (``sim.legality``, ``sim.special``); this
module adds the turn's phase (TURN-1), the kept three (DEAL-5) and the opening turn's search
(OPEN-1..4), with its temporaries in ``tmp`` (``TMP_FIELDS``).
"""

from __future__ import annotations

from numba import njit

from sim import encoding as E
from sim._views import copy_into, opaque, sum_words
from sim.engine.observe import bonus_owed
from sim.engine.views import (
    add_operation,
    c_view,
    ob_aside_total,
    ob_hand,
    ob_melds,
    ob_pending,
    take_operation,
    tmp_gen_ax,
    tmp_gen_wm,
    tmp_hand,
    tmp_leave,
    tmp_pending,
    tmp_plan,
    tmp_search,
)
from sim.legality import (
    RULE_OF_FIVE_NATURALS,
    discard_reason,
    is_dead,
    leave_reason,
    meld_reason,
    meld_size,
    opening_count_bound,
    opening_meld_reason,
    opening_op_counts,
    opening_path_count,
    opening_reason,
    opening_refusal,
    opening_search_bounded,
    out_reason,
    pile_reason_work,
    restricted_on_empty,
)
from sim.special import classify_special, special_reason


# No default: every caller states the flag, so numba compiles one copy per value (a
# compile-time constant there: random's legal-action generation measured ~5% faster than with
# one signature; cold start).
@njit(cache=True, _nrt=False)
def _meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, opening):
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
        hand_after, pending = _opening_after(obs, slot, nat, two, joker, tmp)
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
def _opening_after(obs, slot, nat, two, joker, tmp):
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
    return _meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, False)


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
def _turn_opening_reason(obs):
    """OPEN-1..4 on the turn's melds when this is an opening turn with melds (a discard ends
    the turn, so they must be a valid opening), else R_OK: the same for every discard."""
    if obs[E.OB_OPENING_TURN] == 1 and obs[E.OB_MELDED] == 1:
        pending, melds = ob_pending(obs), ob_melds(obs)
        return opening_reason(pending, melds, opaque(0), obs[E.OB_PILE_KIND], obs[E.OB_OPEN_MIN])
    return E.R_OK


@njit(cache=True, _nrt=False)
def _discard_reason_at(obs, hand, slot, total, opening_r):
    """``action_reason`` of discarding ``slot`` (held) in the play phase, given the hand's
    card count ``total`` and ``opening_r = _turn_opening_reason(obs)``, both the same for
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


@njit(cache=True, inline="always")
def _legal_discards(obs, hand, total, opening_r):
    """Bit k set when discarding ``k`` is legal in the play phase (``_discard_reason_at`` of
    every held kind), from one pass over the hand: DISCARD-1/2 need only the hand's count and
    whether it holds nothing but wild cards and threes; DISCARD-3 (an empty pile) refuses a
    restricted card exactly when some unrestricted kind may be discarded, the same answer for
    every restricted kind. A last card (going out, OUT-1) is judged by ``_discard_reason_at``."""
    mask = 0
    if opening_r != E.R_OK:
        return mask  # OPEN-1..4: the turn's melds must be a valid opening
    if total == 1:
        for k in range(E.N_KINDS):
            if hand[k] > 0 and _discard_reason_at(obs, hand, k, total, opening_r) == E.R_OK:
                mask |= 1 << k
        return mask
    wilds = hand[E.JOKER] + hand[E.TWO]
    only_wild = wilds + hand[E.RED_THREE] + hand[E.BLACK_THREE] == total
    for k in range(E.FIRST_NATURAL, E.N_KINDS):
        if hand[k] > 0:
            mask |= 1 << k  # DISCARD-1/2: a natural may go
    if only_wild:  # DISCARD-2: wild cards only when nothing but wilds and threes is held
        for k in (E.JOKER, E.TWO):
            if hand[k] > 0:
                mask |= 1 << k
    if obs[E.OB_PILE_N] == 0 and mask != 0:
        melds = ob_melds(obs)
        free = 0  # DISCARD-3: the legal discards not restricted on an empty pile
        for k in range(E.N_KINDS):
            if (mask >> k) & 1 and not restricted_on_empty(melds, k):
                free |= 1 << k
        if free != 0:
            mask = free
    return mask


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
        return _discard_reason_at(obs, hand, slot, total, _turn_opening_reason(obs))
    if kind == E.AT_MELD:
        nat, two = E.ACTION_TABLE[a, E.AC_NAT], E.ACTION_TABLE[a, E.AC_TWO]
        joker = E.ACTION_TABLE[a, E.AC_JOKER]
        return _meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, True)
    return E.R_BAD_ACTION


@njit(cache=True, _nrt=False)
def _diagnose_opening(obs, rules, tmp):
    """After ``_meld_reason_obs`` refused a meld operation with R_OPEN_MINIMUM (its opening
    search from the position the operation leaves fell short; nothing else there returns that
    code): the rule that stands in the way, OPEN-1, OPEN-2, OPEN-4 or OUT-1/2
    (``opening_refusal``, slower), judged on the hand and pending melds the search was given,
    still in ``tmp``. Apart from ``_meld_reason_obs`` so that it is compiled once, for
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
        return _meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, True) == E.R_OK
    return _action_reason_plain(obs, a, rules, tmp) == E.R_OK


@njit(cache=True, inline="always")
def quick_ok(obs, a, rules):
    """True only where ``action_reason(obs, a, rules, tmp)`` is R_OK and the counts show it
    without the rest of the judge: the engine's check of a policy's choice in the common cases
    (plain draws, discards and melds, most of the checks of a hand). False says nothing:
    ``check_action`` judges. Proved:

    - TURN-1: a draw in the draw phase, laying the threes in the threes phase (no other
      condition in ``action_reason``);
    - DISCARD-1..3: a natural card held (no three, no wild card), more than one card in hand
      (the last card is OUT-1's), not a restricted card on an empty pile (DISCARD-3: sevens,
      aces, a dead rank), and the turn's melds, in an opening turn, a valid opening
      (OPEN-1..4 at the discard, by ``opening_reason`` as the full check);
    - a meld operation outside the opening turn: ``_meld_reason_obs``'s checks in its order
      (``_meld_on_counts``: the cards held, MELD-1..9 by ``meld_reason``, OUT-2's card to
      discard), except that leaving a card or none (OUT-2 on the table after it) goes to the
      full check.

    Property-tested against ``action_reason`` on every action of every decision of real
    hands (tests/test_speed11_quick.py)."""
    if a < 0 or a >= E.N_ACTIONS:
        return False
    phase = obs[E.OB_PHASE]
    kind = E.ACTION_TABLE[a, E.AC_TYPE]
    if kind == E.AT_DRAW:
        return phase == E.PH_DRAW
    if kind == E.AT_LAY_THREES:
        return phase == E.PH_THREES
    if phase != E.PH_PLAY:
        return False
    slot = E.ACTION_TABLE[a, E.AC_SLOT]
    hand = ob_hand(obs)
    if kind == E.AT_DISCARD:
        if slot < E.FIRST_NATURAL or hand[slot] < 1:
            return False  # DISCARD-1/2 may refuse a three or a wild card
        if obs[E.OB_PILE_N] == 0 and restricted_on_empty(ob_melds(obs), slot):
            return False  # DISCARD-3: a restricted card on an empty pile
        total = sum_words(obs, E.OB_HAND, E.N_KINDS)
        if total <= 1:
            return False  # the last card: going out (OUT-1)
        if obs[E.OB_OPENING_TURN] == 1 and obs[E.OB_MELDED] == 1:
            # OPEN-1..4: the turn's melds must be a valid opening when the turn ends (the
            # flags tested here too keep the call off the common path)
            return _turn_opening_reason(obs) == E.R_OK
        return True
    if kind != E.AT_MELD or obs[E.OB_OPENING_TURN] == 1:
        return False  # the opening turn's melds: the search or check_action's plan
    nat, two = E.ACTION_TABLE[a, E.AC_NAT], E.ACTION_TABLE[a, E.AC_TWO]
    joker = E.ACTION_TABLE[a, E.AC_JOKER]
    held = sum_words(obs, E.OB_HAND, E.N_KINDS) + ob_aside_total(obs)
    threes = 0
    for k in (E.RED_THREE, E.BLACK_THREE):
        threes += hand[k] + obs[E.OB_ASIDE + k]
    # 1 only: an operation leaving a card or none goes to the full check (TABLE_DECIDES)
    return _meld_on_counts(obs, slot, nat, two, joker, rules, held, threes) == 1


@njit(cache=True, inline="always")
def judge_choice(obs, a, rules, tmp, cache, hint):
    """``check_action``'s answer, given at once where ``quick_ok`` proves it legal (an action
    for which ``check_action`` keeps no plan: its cache is cleared as it would be)."""
    if quick_ok(obs, a, rules):
        cache[E.PC_VALID] = 0
        return E.R_OK
    return check_action(obs, a, rules, tmp, cache, hint)


@njit(cache=True, _nrt=False)
def check_action(obs, a, rules, tmp, cache, hint):
    """``action_reason`` for the engine's check of a policy's proposal, with the same answer,
    made cheaper in an opening turn (OPEN-1..4), where a meld operation is legal only if the
    opening can still be completed from the position it leaves, which ``action_reason`` finds
    by searching. Two ways to show it without the search:

    - the cache (int64[PC_SIZE], layout ``PLAN_CACHE_FIELDS``): after a meld operation
      passes, an opening plan from the position it leaves is kept. The next operation, if part
      of that plan (each of its naturals, twos and jokers within the plan's for the slot) on
      the very hand the plan was made for, leaves the rest of the plan available, so the
      opening is still completable (the rest of the operation's rules are judged in full);
      except an operation on the wild meld (MELD-8: once started, wild cards may join natural
      melds only after it is complete, which the rest of the plan may not respect);
    - the ``hint`` (plan[slot, col], the scratch's ``SCRATCH_HINT`` words): the plan the
      policy says it follows from this position. What is left of it after the operation is
      checked exactly as a path of the search (``sim.legality.opening_path_count``): if it
      reaches the minimum, the search would too, so the first operation of an opening does not
      search again what the policy has just searched. Never trusted: any other
      content fails the check and the search decides.

    Anything else clears the cache."""
    valid = cache[E.PC_VALID] == 1
    cache[E.PC_VALID] = 0
    if a < 0 or a >= E.N_ACTIONS or E.ACTION_TABLE[a, E.AC_TYPE] != E.AT_MELD:
        return action_reason(obs, a, rules, tmp)
    if obs[E.OB_PHASE] != E.PH_PLAY or obs[E.OB_OPENING_TURN] != 1:
        return action_reason(obs, a, rules, tmp)
    slot = E.ACTION_TABLE[a, E.AC_SLOT]
    nat = E.ACTION_TABLE[a, E.AC_NAT]
    two = E.ACTION_TABLE[a, E.AC_TWO]
    joker = E.ACTION_TABLE[a, E.AC_JOKER]
    plan = cache_plan(cache)
    if valid and cache[E.PC_ASIDE] == ob_aside_total(obs):
        same = True
        for k in range(E.N_KINDS):
            if cache[E.PC_HAND + k] != obs[E.OB_HAND + k]:
                same = False
                break
        # not for the wild meld: starting it (MELD-8) forbids the rest of a plan that puts
        # wild cards on natural melds before the wild meld is complete
        in_plan = slot != E.WILD_MELD and _in_plan(plan, slot, nat, two, joker)
        if same and in_plan:
            r = _meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, False)
            if r == E.R_OK:
                _keep_plan(obs, slot, nat, two, joker, cache)
                add_operation(plan, slot, nat, two, joker, -1)
            return r
    if _hint_completes(obs, slot, nat, two, joker, rules, tmp, hint):
        r = _meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, False)
        if r == E.R_OK:  # (a refusal is named by action_reason below, as before)
            rest = tmp_plan(tmp)  # the hint less the operation, a path of the search
            if _jokers_first(rest, obs[E.OB_HAND + E.JOKER] - joker):
                copy_into(plan, rest)  # kept as the search's plan would be (see _jokers_first)
                _keep_plan(obs, slot, nat, two, joker, cache)
            return r
    r = action_reason(obs, a, rules, tmp)
    if r == E.R_OK:
        copy_into(plan, tmp_plan(tmp))  # _meld_reason_obs left the plan from the position after it
        _keep_plan(obs, slot, nat, two, joker, cache)
    return r


@njit(cache=True, inline="always")  # inlined in check_action: one compiled function
def _hint_completes(obs, slot, nat, two, joker, rules, tmp, hint):
    """Does the ``hint`` less this operation complete an opening from the position the
    operation leaves, as a path of the search ``_meld_reason_obs`` would run there (the same
    hand, turn's melds, table, pile kind, cards aside and OPEN-5 flag; ``opening_path_count``)?
    Leaves that rest of the hint in ``tmp_plan``."""
    hand_after, pending = _opening_after(obs, slot, nat, two, joker, tmp)
    rest = tmp_plan(tmp)
    copy_into(rest, hint)
    add_operation(rest, slot, nat, two, joker, -1)
    extra = ob_aside_total(obs)
    pk, mc = obs[E.OB_PILE_KIND], obs[E.OB_OPEN_MIN]
    melds = ob_melds(obs)
    value = opening_path_count(hand_after, pending, melds, pk, extra, rules, rest, bonus_owed(obs))
    return value >= mc


@njit(cache=True, _nrt=False)
def _jokers_first(plan, jokers):
    """The plan's wild cards are split as the search rebuilds its plans: all the jokers held
    when it uses at least as many wild cards, else jokers only. The cache's argument needs
    it (taking an operation's twos and jokers within the plan's leaves the count of the rest
    unchanged only then)."""
    used, used_j = 0, 0
    for slot in range(E.N_KINDS):
        if E.WILD_MELD < slot < E.FIRST_NATURAL:
            if plan[slot, E.NATURALS] != 0 or plan[slot, E.TWOS] != 0 or plan[slot, E.JOKERS] != 0:
                return False  # no meld of these (a hint's stray words)
            continue
        used += plan[slot, E.TWOS] + plan[slot, E.JOKERS]
        used_j += plan[slot, E.JOKERS]
    return used_j == min(used, jokers)


@njit(cache=True, _nrt=False)
def _in_plan(plan, slot, nat, two, joker):
    """The operation's naturals, twos and jokers are each within the plan's for the slot."""
    if nat > plan[slot, E.NATURALS] or two > plan[slot, E.TWOS]:
        return False
    return joker <= plan[slot, E.JOKERS]


@njit(cache=True, inline="always")
def cache_plan(cache):
    """plan[slot, col] view of the plan cache (``PLAN_CACHE_FIELDS``)."""
    n = E.N_KINDS * E.N_MELD_COLS
    return c_view(cache[E.PC_PLAN : E.PC_PLAN + n], (E.N_KINDS, E.N_MELD_COLS))


@njit(cache=True, _nrt=False)
def _keep_plan(obs, slot, nat, two, joker, cache):
    """Mark the cache valid for the hand the operation leaves (``check_action``)."""
    hand = cache[E.PC_HAND : E.PC_HAND + E.N_KINDS]
    copy_into(hand, ob_hand(obs))
    take_operation(hand, slot, nat, two, joker)
    cache[E.PC_ASIDE] = ob_aside_total(obs)
    cache[E.PC_VALID] = 1


@njit(cache=True, _nrt=False)
def first_legal_action(obs, rules, tmp):
    """The smallest legal action id (``legal_actions``' first, which lists them in increasing
    order), or -1 if there is none: the engine's replacement for an illegal proposal. Judged
    one id at a time by ``action_reason`` and stopping at the first legal one (in the play
    phase a discard, id 6 + kind, usually comes before any meld), so a hand loop does not
    compile the generator of every legal action for a path it rarely takes (cold start; the
    same id as ``legal_actions``: tests/test_cold_start.py)."""
    for a in range(E.N_ACTIONS):
        if action_reason(obs, a, rules, tmp) == E.R_OK:
            return a
    return -1


@njit(cache=True, _nrt=False)
def forced_action(obs):
    """The only legal action, when the position leaves no choice, else -1: a draw when the pile
    cannot be taken for lack of a pile, of a natural top card or of a pair of it (PILE-1/2).
    The engine applies it without asking the policy (the step API offers it as the one legal
    action)."""
    if obs[E.OB_PHASE] != E.PH_DRAW:
        return -1
    top = obs[E.OB_PILE_TOP]
    if obs[E.OB_PILE_N] == 0 or top < E.FIRST_NATURAL or obs[E.OB_HAND + top] < 2:
        return E.A_DRAW
    return -1


@njit(cache=True, inline="always")
def meld_refused_on_counts(obs, slot, nat, w, rules):
    """True when ``meld_reason`` refuses ``nat`` naturals and ``w`` wild cards from hand on the
    own meld of natural ``slot`` whatever the split of the wilds and the rest of the position
    (each test below is a refusal it reaches on every path to R_OK): a cheap pre-test for
    callers judging many candidates (``legal_actions``, ``policies.common.largest_meld``);
    False says nothing (the full check decides)."""
    melds = ob_melds(obs)
    cur_nat = melds[0, slot, E.NATURALS]
    cur_w = melds[0, slot, E.TWOS] + melds[0, slot, E.JOKERS]
    new = cur_nat + cur_w + nat + w
    if rules[E.RS_ALLOW_LONG_MELD_GOING_OUT] == 0:
        if new > E.CANASTA or is_dead(melds, slot):
            return True  # MELD-2, MELD-9 (a long meld going out is their only exception)
    if cur_nat + cur_w == 0 and new < E.MIN_MELD:
        return True  # MELD-1
    if cur_w + w > 0 and (cur_nat + nat < 2 or cur_w + w > rules[E.RS_MAX_WILDS_MIXED]):
        return True  # MELD-4
    if w > 0:
        if slot == E.SEVEN or 0 < meld_size(melds, 0, E.WILD_MELD) < E.CANASTA:
            return True  # MELD-6, MELD-8
        if obs[E.OB_OPENING_TURN] != 1:
            if slot == E.ACE and cur_w == 0:
                return True  # MELD-7: natural aces take no wild card after the opening
            if rules[E.RS_RULE_OF_FIVE] != 0 and cur_nat + nat < RULE_OF_FIVE_NATURALS:
                return True  # MELD-5
    return False


@njit(cache=True, inline="always")
def _meld_rules_ok(obs, slot, nat, two, joker, rules, tmp, held, threes):
    """``_meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, False) == R_OK`` for
    ``legal_actions``, with the cards the player holds (hand and a taken pile's rest,
    ``held``) and the threes among them counted once per position: the same checks in the
    same order (``_meld_on_counts``), the full kernel only where OUT-2 looks at the table (a
    card or none left)."""
    r = _meld_on_counts(obs, slot, nat, two, joker, rules, held, threes)
    if r == TABLE_DECIDES:
        return _meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, False) == E.R_OK
    return r == 1


TABLE_DECIDES = -1  #: ``_meld_on_counts``: OUT-2 on the table after the operation decides


@njit(cache=True, inline="always")
def _meld_on_counts(obs, slot, nat, two, joker, rules, held, threes):
    """``_meld_reason_obs``'s checks without the opening search, in its order, from the
    counts: the cards held, MELD-1..9 (``meld_reason``), OPEN-4 in an opening turn, OUT-2's
    card to discard (``held``: the hand and a taken pile's rest; ``threes``: the threes among
    them). 1: legal; 0: refused; ``TABLE_DECIDES``: the operation leaves a card or none, and
    OUT-2 must look at the table after it (``_meld_reason_obs``). Shared by
    ``legal_actions`` (``_meld_rules_ok``) and the engine's ``quick_ok``."""
    hand = ob_hand(obs)
    if slot != E.WILD_MELD and hand[slot] < nat:
        return 0
    if hand[E.TWO] < two or hand[E.JOKER] < joker:
        return 0
    melds = ob_melds(obs)
    total = obs[E.OB_HAND_SIZES] - nat - two - joker
    initial = obs[E.OB_OPENING_TURN] == 1
    if meld_reason(melds, 0, slot, nat, two, joker, initial, total <= 1, rules) != E.R_OK:
        return 0  # MELD-1..9
    if initial and opening_meld_reason(melds, 0, slot, nat, two, joker) != E.R_OK:
        return 0  # OPEN-4
    left = held - nat - two - joker
    if left - threes <= 0:
        return 0  # OUT-2: no card to discard
    if left <= 1 or total <= 1:
        return TABLE_DECIDES
    return 1


@njit(cache=True, inline="always")
def _opening_op_ok(obs, slot, nat, two, joker, rules, tmp, best_ax, wm_started):
    """OPEN-1..4 for a meld operation on a natural ``slot`` in an opening turn that passes the
    other rules: is the opening still completable after it? ``best_ax``: the turn's best counts
    through at least (naturals, wilds) on each rank (``opening_op_counts``), judged by
    ``_opening_ok_from``. With a started, incomplete wild meld (MELD-8: wild cards placed
    elsewhere are counted differently after the operation) the full search judges."""
    w = two + joker
    if w > 0 and wm_started:
        return _meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, True) == E.R_OK
    v = best_ax[slot - E.FIRST_NATURAL, nat, w]
    return _opening_ok_from(obs, slot, nat, two, joker, rules, tmp, v)


@njit(cache=True, inline="always")
def _opening_ok_from(obs, slot, nat, two, joker, rules, tmp, v):
    """OPEN-1..4 for a meld operation of an opening turn that passes the other rules, from
    ``v``: the best count of a valid opening after it with its wild cards split jokers first
    (``opening_op_counts``: ``best_ax`` on a natural rank, ``best_wm`` on the wild meld).
    Another split counts less by at most the jokers it leaves for later, 30 points each, so
    the full search judges only when that difference matters."""
    mc = obs[E.OB_OPEN_MIN]
    if v < mc:
        return False  # OPEN-1..4: no valid opening after this operation
    w = two + joker
    jf = min(w, obs[E.OB_HAND + E.JOKER])  # the jokers-first split of w
    if joker == jf or v - (jf - joker) * (E.KIND_VALUE[E.JOKER] - E.KIND_VALUE[E.TWO]) >= mc:
        return True
    return _meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, True) == E.R_OK


@njit(cache=True, _nrt=False)
def legal_actions(obs, rules, out, tmp):
    """Write the legal action ids for ``obs`` into ``out`` in increasing order; return how
    many. Generated from the position: the same list, in the same order, as
    ``legal_actions_filter`` (the table filtered by ``action_reason``), the rules other than
    OPEN-1..4 judged once per number of wild cards (``_meld_rules_ok``), OPEN-1..4 for every
    candidate of an opening turn by one search (``opening_op_counts``; ``_opening_op_ok`` on a
    natural rank, ``_opening_ok_from`` on the wild meld) (tests/test_legal_generation.py, on
    every decision of real hands)."""
    phase = obs[E.OB_PHASE]
    if phase != E.PH_PLAY:
        return _legal_outside_play(obs, rules, out, tmp)
    n = 0
    hand = ob_hand(obs)
    if declare_ok(obs, rules, tmp):
        out[n] = E.A_DECLARE
        n += 1
    total = sum_words(obs, E.OB_HAND, E.N_KINDS)  # the same for every discard
    opening_r = _turn_opening_reason(obs)
    discards = _legal_discards(obs, hand, total, opening_r)
    for k in range(E.N_KINDS):
        if (discards >> k) & 1:
            out[n] = E.A_DISCARD + k
            n += 1
    melds = ob_melds(obs)
    best_ax = tmp_gen_ax(tmp)  # not touched by the checks below
    best_wm = tmp_gen_wm(tmp)
    opening = obs[E.OB_OPENING_TURN] == 1
    wm_started = False
    if opening:
        pending = ob_pending(obs)
        mc = obs[E.OB_OPEN_MIN]
        if opening_count_bound(hand, pending, melds, rules) < mc:
            return n  # OPEN-1: no meld can be part of a valid opening (opening_possible)
        extra, pk, bonus = ob_aside_total(obs), obs[E.OB_PILE_KIND], bonus_owed(obs)
        work = tmp_search(tmp)
        if (
            opening_op_counts(hand, pending, melds, pk, extra, rules, bonus, work, best_ax, best_wm)
            < mc
        ):
            return n  # OPEN-1: as opening_possible (the same count)
        wm = pending[E.WILD_MELD, E.TWOS] + pending[E.WILD_MELD, E.JOKERS]
        wm_started = 0 < wm < E.CANASTA
    held = total + ob_aside_total(obs)  # OUT-2 counts a taken pile's rest (PILE-1)
    threes = 0
    for k in (E.RED_THREE, E.BLACK_THREE):
        threes += hand[k] + obs[E.OB_ASIDE + k]
    for two in range(hand[E.TWO] + 1):
        for joker in range(min(hand[E.JOKER], E.MAX_WILD_MELD_JOKERS) + 1):
            if two + joker < 1 or two + joker > E.CANASTA:
                continue
            if not _meld_rules_ok(
                obs, E.WILD_MELD, opaque(0), two, joker, rules, tmp, held, threes
            ):
                continue
            if opening and not _opening_ok_from(
                obs, E.WILD_MELD, opaque(0), two, joker, rules, tmp, best_wm[two + joker]
            ):
                continue  # OPEN-1..4
            out[n] = E.MELD_ACTION[E.WILD_MELD, 0, two, joker]
            n += 1
    long_melds = rules[E.RS_ALLOW_LONG_MELD_GOING_OUT] != 0
    two_cap, joker_cap = min(hand[E.TWO], E.MAX_OP_WILDS), hand[E.JOKER]
    n_wilds = min(hand[E.TWO] + joker_cap, E.MAX_OP_WILDS)
    for slot in range(E.FIRST_NATURAL, E.N_KINDS):
        started = meld_size(melds, 0, slot) > 0
        if hand[slot] == 0 and not started:
            continue
        if not long_melds and is_dead(melds, slot):
            continue  # MELD-9 refuses every operation (as meld_refused_on_counts)
        # a new meld needs two naturals at least (MELD-1/4: as meld_refused_on_counts)
        for nat in range(0 if started else 2, min(hand[slot], E.CANASTA) + 1):
            # On a natural slot the rules other than OPEN-1..4 see the wild cards only as
            # their number (MELD-1..9 count them; OUT-2 counts the cards left): judged once
            # per number of wilds w (verdict in bit w of ``fine``) with the first split of w
            # twos and jokers in table order (tests/test_speed_fastpaths.py); the splits are
            # listed only when some w > 0 passes (a natural-only operation is the first)
            fine = 0
            for w in range(max(1 - nat, 0), min(n_wilds, E.CANASTA - nat) + 1):
                two = max(0, w - joker_cap)  # the fewest twos: the first split in order
                if meld_refused_on_counts(obs, slot, nat, w, rules):
                    continue  # MELD-1..9 on the counts: no need to call meld_reason
                if _meld_rules_ok(obs, slot, nat, two, w - two, rules, tmp, held, threes):
                    fine |= 1 << w
            if fine == 0:
                continue
            if fine == 1:  # natural cards only: one operation
                if not opening or _opening_op_ok(
                    obs, slot, nat, 0, 0, rules, tmp, best_ax, wm_started
                ):
                    out[n] = E.MELD_ACTION[slot, nat, 0, 0]
                    n += 1
                continue
            for two in range(two_cap + 1):
                for joker in range(min(joker_cap, E.MAX_OP_WILDS - two) + 1):
                    a = E.MELD_ACTION[slot, nat, two, joker]
                    if a < 0 or not (fine >> (two + joker)) & 1:
                        continue
                    if opening and not _opening_op_ok(
                        obs, slot, nat, two, joker, rules, tmp, best_ax, wm_started
                    ):
                        continue
                    out[n] = a
                    n += 1
    return n


@njit(cache=True, inline="always")  # a library of its own would link the judge again
def _legal_outside_play(obs, rules, out, tmp):
    """The legal actions (table order) outside the play phase: the red-threes decision, the
    draw, none once the hand is over. Shared by ``legal_actions`` and its oracle, so that the
    engine's hand loop does not compile the oracle's play-phase filter (cold start)."""
    n = 0
    phase = obs[E.OB_PHASE]
    if phase == E.PH_THREES:
        for a in (E.A_LAY_THREES, E.A_KEEP_RED_THREE, E.A_KEEP_BLACK_THREE):
            if action_reason(obs, a, rules, tmp) == E.R_OK:
                out[n] = a
                n += 1
        return n
    if phase == E.PH_DRAW:
        out[n] = E.A_DRAW
        n += 1
        if (
            pile_may_open(obs, rules, tmp)
            and action_reason(obs, E.A_TAKE_PILE, rules, tmp) == E.R_OK
        ):
            out[n] = E.A_TAKE_PILE
            n += 1
    return n


@njit(cache=True, _nrt=False)
def legal_actions_filter(obs, rules, out, tmp):
    """``legal_actions`` by filtering the fixed action table with ``action_reason`` (the one
    validator): the oracle the generator is tested against (tests/test_legal_generation.py)."""
    if obs[E.OB_PHASE] != E.PH_PLAY:
        return _legal_outside_play(obs, rules, out, tmp)
    n = 0
    hand = ob_hand(obs)
    if action_reason(obs, E.A_DECLARE, rules, tmp) == E.R_OK:
        out[n] = E.A_DECLARE
        n += 1
    for k in range(E.N_KINDS):
        if hand[k] > 0 and action_reason(obs, E.A_DISCARD + k, rules, tmp) == E.R_OK:
            out[n] = E.A_DISCARD + k
            n += 1
    if obs[E.OB_OPENING_TURN] == 1 and not opening_possible(obs, rules, tmp):
        return n  # OPEN-1: no meld can be part of a valid opening
    melds = ob_melds(obs)
    for two in range(hand[E.TWO] + 1):
        for joker in range(min(hand[E.JOKER], E.MAX_WILD_MELD_JOKERS) + 1):
            if two + joker < 1 or two + joker > E.CANASTA:
                continue
            if (
                _meld_reason_obs(obs, E.WILD_MELD, opaque(0), two, joker, rules, tmp, True)
                == E.R_OK
            ):
                out[n] = E.MELD_ACTION[E.WILD_MELD, 0, two, joker]
                n += 1
    for slot in range(E.FIRST_NATURAL, E.N_KINDS):
        if hand[slot] == 0 and meld_size(melds, 0, slot) == 0:
            continue
        for nat in range(min(hand[slot], E.CANASTA) + 1):
            for two in range(min(hand[E.TWO], E.MAX_OP_WILDS) + 1):
                for joker in range(min(hand[E.JOKER], E.MAX_OP_WILDS - two) + 1):
                    a = E.MELD_ACTION[slot, nat, two, joker]
                    if a < 0:
                        continue
                    if _meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, True) == E.R_OK:
                        out[n] = a
                        n += 1
    return n
