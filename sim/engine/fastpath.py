"""The engine's fast path: the validator's answer (``sim.engine.validate.action_reason``) for
a policy's proposal, made cheaper.

``quick_ok`` proves the common cases legal from the counts (plain draws, laying threes, discards
of a held natural, melds outside the opening turn: ``meld_on_counts``); ``check_action`` judges
the rest, in an opening turn without searching where the plan cache (``PLAN_CACHE_FIELDS``) or
the policy's hint (``SCRATCH_HINT``) shows the opening still completable; ``judge_choice`` is
the two together, the engine's check. Each gives ``action_reason``'s answer on every action
of real hands (tests/test_judge_fastpaths.py).
"""

from __future__ import annotations

from numba import njit

from sim import encoding as E
from sim._views import copy_into, sum_words
from sim.engine.observe import bonus_owed
from sim.engine.validate import (
    action_reason,
    meld_reason_obs,
    opening_after,
    turn_opening_reason,
)
from sim.engine.views import (
    add_operation,
    c_view,
    ob_aside_total,
    ob_hand,
    ob_melds,
    take_operation,
    tmp_plan,
)
from sim.legality import (
    meld_reason,
    opening_meld_reason,
    opening_path_count,
    restricted_on_empty,
)

__all__ = ["check_action"]


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
    - a meld operation outside the opening turn: ``meld_reason_obs``'s checks in its order
      (``meld_on_counts``: the cards held, MELD-1..9 by ``meld_reason``, OUT-2's card to
      discard), except that leaving a card or none (OUT-2 on the table after it) goes to the
      full check.

    Property-tested against ``action_reason`` on every action of every decision of real
    hands (tests/test_judge_fastpaths.py)."""
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
            return turn_opening_reason(obs) == E.R_OK
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
    return meld_on_counts(obs, slot, nat, two, joker, rules, held, threes) == 1


TABLE_DECIDES = -1  #: ``meld_on_counts``: OUT-2 on the table after the operation decides


@njit(cache=True, inline="always")
def meld_on_counts(obs, slot, nat, two, joker, rules, held, threes):
    """``meld_reason_obs``'s checks without the opening search, in its order, from the
    counts: the cards held, MELD-1..9 (``meld_reason``), OPEN-4 in an opening turn, OUT-2's
    card to discard (``held``: the hand and a taken pile's rest; ``threes``: the threes among
    them). 1: legal; 0: refused; ``TABLE_DECIDES``: the operation leaves a card or none, and
    OUT-2 must look at the table after it (``meld_reason_obs``). Shared by
    ``legal_actions`` (``meld_rules_ok``) and the engine's ``quick_ok``."""
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
            r = meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, False)
            if r == E.R_OK:
                _keep_plan(obs, slot, nat, two, joker, cache)
                add_operation(plan, slot, nat, two, joker, -1)
            return r
    if hint_completes(obs, slot, nat, two, joker, rules, tmp, hint):
        r = meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, False)
        if r == E.R_OK:  # (a refusal is named by action_reason below, as before)
            rest = tmp_plan(tmp)  # the hint less the operation, a path of the search
            if _jokers_first(rest, obs[E.OB_HAND + E.JOKER] - joker):
                copy_into(plan, rest)  # kept as the search's plan would be (see _jokers_first)
                _keep_plan(obs, slot, nat, two, joker, cache)
            return r
    r = action_reason(obs, a, rules, tmp)
    if r == E.R_OK:
        copy_into(plan, tmp_plan(tmp))  # meld_reason_obs left the plan from the position after it
        _keep_plan(obs, slot, nat, two, joker, cache)
    return r


@njit(cache=True, inline="always")  # inlined in check_action: one compiled function
def hint_completes(obs, slot, nat, two, joker, rules, tmp, hint):
    """Does the ``hint`` less this operation complete an opening from the position the
    operation leaves, as a path of the search ``meld_reason_obs`` would run there (the same
    hand, turn's melds, table, pile kind, cards aside and OPEN-5 flag; ``opening_path_count``)?
    Leaves that rest of the hint in ``tmp_plan``."""
    hand_after, pending = opening_after(obs, slot, nat, two, joker, tmp)
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
