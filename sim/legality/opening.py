"""OPEN-1..4: the initial meld's minimum, its check, and the opening search's cheap bound and
bounded entry points; why an opening cannot be made (``opening_refusal``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import encoding as E
from sim.legality.melds import is_dead, meld_size, meld_wilds
from sim.legality.out import out_reason
from sim.legality.search import (
    RELAX_LEAVE,
    RELAX_OPEN_2,
    RELAX_OPEN_4,
    opening_search,
    opening_search_alloc,
    search_words,
)

__all__ = ["OPEN_MINIMUMS", "OPEN_THRESHOLDS", "opening_count_bound", "opening_min"]

_VALUE = E.KIND_VALUE
OPEN_THRESHOLDS = (3000, 5000)  #: OPEN-1 score bands
OPEN_MINIMUMS = (125, 155, 180)  #: OPEN-1 minimum count per band (per hand number: 1, 2, 3+)
_BY_HAND = E.OPENING_MINIMUM_MODES.index("hand")


@njit(cache=True, _nrt=False)
def opening_min_by(mode, team_score, hand_number):
    """OPEN-1, the one place the minimum is computed: by the team's cumulative score (``mode``
    0, the rulebook), or by the hand's number in the game (``mode`` 1, timed tournament play:
    hand 1 125, hand 2 155, hand 3+ 180; a number below 1 reads as hand 1). ``mode`` is
    ``rules[RS_OPENING_MINIMUM]`` (the state's copy ``ST_OPEN_BY``: ``opening_min_state``)."""
    if mode == _BY_HAND:
        if hand_number <= 1:
            return OPEN_MINIMUMS[0]
        if hand_number == 2:
            return OPEN_MINIMUMS[1]
        return OPEN_MINIMUMS[2]
    if team_score < OPEN_THRESHOLDS[0]:
        return OPEN_MINIMUMS[0]
    if team_score < OPEN_THRESHOLDS[1]:
        return OPEN_MINIMUMS[1]
    return OPEN_MINIMUMS[2]


@njit(cache=True, _nrt=False)
def opening_min(rules, team_score, hand_number=1):
    """OPEN-1: minimum count of the initial meld under ``rules`` (the ruleset array) for a
    team's cumulative score at the start of the hand and the hand's number in the game."""
    return opening_min_by(rules[E.RS_OPENING_MINIMUM], team_score, hand_number)


@njit(cache=True, _nrt=False)
def opening_min_state(st, team):
    """OPEN-1: ``team``'s minimum in the engine state ``st`` (its scores, ``ST_HAND_NUMBER``
    and the variant the deal copied, ``ST_OPEN_BY``)."""
    return opening_min_by(st[E.ST_OPEN_BY], st[E.ST_SCORES + team], st[E.ST_HAND_NUMBER])


@njit(cache=True, _nrt=False)
def from_hand_count(from_hand):
    """OPEN-1/OPEN-3: points of the cards melded from hand (the pile's top card excluded)."""
    total = 0
    for slot in range(E.N_KINDS):
        if slot != E.WILD_MELD:
            total += from_hand[slot, E.NATURALS] * _VALUE[slot]
        total += (
            from_hand[slot, E.TWOS] * _VALUE[E.TWO] + from_hand[slot, E.JOKERS] * _VALUE[E.JOKER]
        )
    return total


@njit(cache=True, _nrt=False)
def opening_reason(from_hand, melds, team, pile_kind, min_count, wild_ok=0):
    """OPEN-1,2,4: is this turn's set of melds a valid initial meld?

    ``from_hand[slot, col]``: cards melded from hand this turn; ``melds``: the position after;
    ``pile_kind``: kind of the pile's top card melded this turn, or -1 (OPEN-3: it counts for
    neither the minimum nor the natural meld, and is not in ``from_hand``). ``wild_ok``: the
    wild opening variant (``RS_OPENING_WILD``, the state's ``ST_OPEN_WILD``, the observation's
    ``OB_OPEN_WILD``): a wild meld of 3+ from hand may stand in for OPEN-2's natural meld.
    """
    if from_hand_count(from_hand) < min_count:
        return E.R_OPEN_MINIMUM  # OPEN-1 (OPEN-3: from-hand cards only)
    natural = False
    for slot in range(E.FIRST_NATURAL, E.N_KINDS):
        if from_hand[slot, E.NATURALS] >= E.MIN_MELD and meld_wilds(melds, team, slot) == 0:
            natural = True  # OPEN-2: 3+ naturals from hand, no wild, top card not counted
    if not natural:
        if not wild_ok:
            return E.R_OPEN_NO_NATURAL_MELD
        if from_hand[E.WILD_MELD, E.TWOS] + from_hand[E.WILD_MELD, E.JOKERS] < E.MIN_MELD:
            return E.R_OPEN_NO_BASE_MELD  # OPEN-2 wild opening: nor a wild meld of 3+
    for slot in range(E.FIRST_NATURAL, E.N_KINDS):
        touched = (
            from_hand[slot, E.NATURALS] + from_hand[slot, E.TWOS] + from_hand[slot, E.JOKERS] > 0
        )
        if (touched or slot == pile_kind) and meld_size(melds, team, slot) >= E.CANASTA:
            if meld_wilds(melds, team, slot) > 0:
                return E.R_OPEN_MIXED_CANASTA  # OPEN-4
    return E.R_OK


@njit(cache=True, _nrt=False)
def opening_meld_reason(melds, team, slot, nat, two, joker):
    """OPEN-4 for one meld operation of the opening turn: may it leave the team's meld of
    ``slot`` as a completed mixed canasta? ``melds`` is the position before the operation.
    (A natural canasta may be completed; the wild meld is not mixed: docs/rules.md.)"""
    if slot < E.FIRST_NATURAL or slot >= E.N_KINDS:
        return E.R_OK
    size = meld_size(melds, team, slot) + nat + two + joker
    if size >= E.CANASTA and meld_wilds(melds, team, slot) + two + joker > 0:
        return E.R_OPEN_MIXED_CANASTA  # OPEN-4
    return E.R_OK


@njit(cache=True, _nrt=True)
def opening_refusal(hand, pending, melds, team, pile_kind, extra, rules, min_count, bonus):
    """The rule that refuses an opening turn that cannot reach ``min_count`` from here
    (arguments as ``opening_search_alloc``; ``team``: the opener's team in ``melds``), R_OK if
    it can:
    OPEN-2 if an opening without a natural meld would reach it, OPEN-4 if one with a mixed
    canasta would, OUT-1/2 if one leaving too few cards in hand would; OPEN-1 only when no
    meldable set of cards reaches the count. When the count needs two of these rules broken,
    the first in that order is named."""
    plan = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    work = np.empty(search_words(hand, rules), dtype=np.int64)
    args = (hand, pending, melds, pile_kind, extra, rules, plan, bonus)
    if opening_search(*args, 0, work) >= min_count:
        return E.R_OK
    # masks of RELAX_* bits, one rule relaxed first, then two, then all three
    for relax in (RELAX_OPEN_2, RELAX_OPEN_4, RELAX_LEAVE, 3, 5, 6, 7):
        got = opening_search(*args, relax, work)
        if got < min_count:
            continue
        if relax & RELAX_OPEN_2:  # OPEN-2 (its wild opening variant's sentence)
            return E.R_OPEN_NO_BASE_MELD if rules[E.RS_OPENING_WILD] else E.R_OPEN_NO_NATURAL_MELD
        if relax & RELAX_OPEN_4:
            return E.R_OPEN_MIXED_CANASTA  # OPEN-4
        return _leave_refusal(hand, pending, melds, team, pile_kind, extra, plan)
    return E.R_OPEN_MINIMUM  # OPEN-1: no meldable set of cards reaches the count


@njit(cache=True, _nrt=True)
def _leave_refusal(hand, pending, melds, team, pile_kind, extra, plan):
    """OUT-1/2: why an opening ``plan`` found with the leave rule relaxed may not stand."""
    left = extra - hand[E.RED_THREE] - hand[E.BLACK_THREE]
    for k in range(E.N_KINDS):
        left += hand[k] - plan[k, E.TWOS] - plan[k, E.JOKERS]
        if k != E.WILD_MELD:
            left -= plan[k, E.NATURALS]
    if left <= 0:
        return E.R_MELD_LEAVES_NO_DISCARD  # OUT-2: no card to discard
    after = melds.copy()
    for k in range(E.N_KINDS):
        for col in range(E.N_MELD_COLS):
            after[team, k, col] = pending[k, col] + plan[k, col]
    if pile_kind >= 0:
        after[team, pile_kind, E.NATURALS] += 1
    r = out_reason(after, team)  # OUT-2: one card and none to hold: discarding it goes out
    return r if r != E.R_OK else E.R_MELD_LEAVES_NO_DISCARD


#: the natural kinds by value, highest first (ties by kind): the order the bound takes pairs
_PAIR_ORDER = np.array(
    sorted(range(E.FIRST_NATURAL, E.N_KINDS), key=lambda k: (-int(E.KIND_VALUE[k]), k)),
    dtype=np.int64,
)


@njit(cache=True, _nrt=False)
def opening_count_bound(hand, pending, melds, rules):
    """A cheap bound, not a rule: no valid opening (OPEN-1/2, MELD-1/4/6/8) from this position
    counts more than this; -1 if no natural meld of 3+ (nor, under the wild opening, a wild
    meld of 3+) could be formed. Counted: the pending
    melds; every natural of a live rank held 3+ times (or already melded this turn); a pair
    only with a wild card to go with it; wild cards only where some meld could take them.
    One pass over the ranks with the per-rank tests as arithmetic (data-dependent branches
    there cost more than the sums); the pairs summed in it, and only when some pairs lack a
    wild card are the best of them chosen (``_best_pairs``)."""
    maxw = rules[E.RS_MAX_WILDS_MIXED]
    bound = 0
    for k in range(E.N_KINDS):
        if k >= E.FIRST_NATURAL:
            bound += pending[k, E.NATURALS] * E.KIND_VALUE[k]
        bound += (
            pending[k, E.TWOS] * E.KIND_VALUE[E.TWO] + pending[k, E.JOKERS] * E.KIND_VALUE[E.JOKER]
        )
    wilds = hand[E.TWO] + hand[E.JOKER]
    slots = 0  # wild cards the natural melds could take (MELD-4, MELD-6)
    n_pairs = 0
    pair_points = 0  # of every pair that needs a wild card
    natural_meld = 0
    for k in range(E.FIRST_NATURAL, E.N_KINDS):
        base_n = pending[k, E.NATURALS]
        natural_meld |= base_n >= 3  # already melded this turn (maybe a canasta, so now dead)
        if is_dead(melds, k):
            continue  # (rare: a predictable branch)
        h = hand[k]
        n = h + base_n
        started = base_n + pending[k, E.TWOS] + pending[k, E.JOKERS] > 0
        takes_wilds = 0 if k == E.SEVEN else 1
        counted = started | (n >= 3)
        bound += counted * h * E.KIND_VALUE[k]
        slots += counted * takes_wilds * maxw
        natural_meld |= n >= 3
        pair = (1 - counted) * (n == 2) * takes_wilds  # needs a wild card (MELD-4)
        n_pairs += pair
        pair_points += pair * 2 * E.KIND_VALUE[k]
    wild_meld = wilds >= 3 or pending[E.WILD_MELD, E.TWOS] + pending[E.WILD_MELD, E.JOKERS] > 0
    pairs_used = min(n_pairs, wilds)
    if pairs_used > 0:  # the best pairs, each with one wild card at least
        if pairs_used < n_pairs:
            pair_points = _best_pairs(hand, pending, melds, pairs_used)
        bound += pair_points
        slots += pairs_used * maxw
    usable = wilds if wild_meld else min(wilds, slots)
    j = min(usable, hand[E.JOKER])  # jokers first: the bound takes the most valuable
    bound += j * E.KIND_VALUE[E.JOKER] + (usable - j) * E.KIND_VALUE[E.TWO]
    if rules[E.RS_OPENING_WILD] and wild_meld:
        return bound  # OPEN-2 wild opening: a wild meld of 3+ may stand in
    return bound if natural_meld else -1


@njit(cache=True, inline="always")
def _best_pairs(hand, pending, melds, m):
    """Points of the ``m`` most valuable pairs ``opening_count_bound`` counts (live, not
    sevens, nothing of the rank melded this turn): highest value first."""
    points = 0
    taken = 0
    for k in _PAIR_ORDER:
        if hand[k] == 2 and pending[k, E.NATURALS] == 0 and k != E.SEVEN:
            if not is_dead(melds, k):
                points += 2 * E.KIND_VALUE[k]
                taken += 1
                if taken == m:
                    break  # every usable pair placed: the rest add nothing
    return points


@njit(cache=True, _nrt=False)
def opening_search_bounded_alloc(
    hand, pending, pile_kind, extra, melds, rules, plan, min_count, bonus=False
):
    """``opening_search_alloc`` on this position, skipped (-1) when the cheap
    ``opening_count_bound`` is already below ``min_count``. ``bonus``: the player is owed bonus
    cards (OPEN-5), so OUT-2 asks only for a card to discard (False gives a plan that is legal
    either way)."""
    if opening_count_bound(hand, pending, melds, rules) < min_count:
        return -1
    return opening_search_alloc(hand, pending, melds, pile_kind, extra, rules, plan, bonus)


@njit(cache=True, inline="always")
def opening_search_bounded(
    hand, pending, pile_kind, extra, melds, rules, plan, min_count, bonus, work
):
    """``opening_search_bounded_alloc`` with the search's tables in ``work``
    (``opening_search``)."""
    if opening_count_bound(hand, pending, melds, rules) < min_count:
        return -1
    return opening_search(hand, pending, melds, pile_kind, extra, rules, plan, bonus, 0, work)
