"""Special hands (SPECIAL-1..7): classify a 14-card hand, say why one may not be declared.

Kernels take ``counts`` (``int64[N_KINDS]``, see ``sim.encoding``) and the ruleset array
``rules`` (``Ruleset.to_array()``). Each pattern fixes every count of the hand, so a hand of
the wrong size never matches one: the SPECIAL-1 size check is a separate reason only to
explain a refusal.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import encoding as E
from sim._views import opaque

#: RS_SPECIAL_HANDS code meaning "special hands are off" (SPECIAL-7)
SPECIALS_OFF = E.SPECIAL_HANDS_MODES.index("none")

#: SPECIAL-3/4/5 fixed awards, indexed by special code (garbage comes from the ruleset)
FIXED_AWARD = np.array([0, 3000, 2500, 2000, 0], dtype=np.int64)


@njit(cache=True, _nrt=False)
def is_straight(counts):
    """SPECIAL-3: one each of A, 2, 3 (either colour), 4..K, and one joker."""
    if counts[E.JOKER] != 1 or counts[E.TWO] != 1:
        return False
    if counts[E.RED_THREE] + counts[E.BLACK_THREE] != 1:
        return False
    for k in range(E.FIRST_NATURAL, E.N_KINDS):
        if counts[k] != 1:
            return False
    return True


@njit(cache=True, _nrt=False)
def _natural_groups(counts, size):
    """Number of natural ranks held exactly ``size`` times; -1 if any other count > 0 occurs."""
    n = 0
    for k in range(E.FIRST_NATURAL, E.N_KINDS):
        c = counts[k]
        if c == size:
            n += 1
        elif c != 0:
            return -1
    return n


@njit(cache=True, _nrt=False)
def is_pairs(counts):
    """SPECIAL-4 (and SPECIAL-2): seven pairs of seven natural ranks, no wilds, no threes."""
    if counts[E.JOKER] + counts[E.TWO] + counts[E.RED_THREE] + counts[E.BLACK_THREE] != 0:
        return False
    return _natural_groups(counts, 2) == 7


@njit(cache=True, _nrt=False)
def is_pairs_twos_sevens_aces(counts):
    """SPECIAL-5 (and SPECIAL-2): seven pairs of different ranks incl. 2s, 7s, As; no jokers."""
    if counts[E.JOKER] + counts[E.RED_THREE] + counts[E.BLACK_THREE] != 0:
        return False
    if counts[E.TWO] != 2 or counts[E.SEVEN] != 2 or counts[E.ACE] != 2:
        return False
    # the twos are the seventh pair: six natural pairs, of which sevens and aces are two
    return _natural_groups(counts, 2) == 6


@njit(cache=True, _nrt=False)
def is_garbage(counts):
    """SPECIAL-6 (and SPECIAL-2): two fours and two threes of a kind, four natural ranks, no
    wilds."""
    if counts[E.JOKER] + counts[E.TWO] + counts[E.RED_THREE] + counts[E.BLACK_THREE] != 0:
        return False
    fours = 0
    threes = 0
    for k in range(E.FIRST_NATURAL, E.N_KINDS):
        c = counts[k]
        if c == 4:
            fours += 1
        elif c == 3:
            threes += 1
        elif c != 0:
            return False
    return fours == 2 and threes == 2


@njit(cache=True, _nrt=False)
def classify_special(counts, rules):
    """SPECIAL-3..7: the special code of a 14-card hand, SPECIAL_NONE if none (or specials off).

    The four patterns are disjoint (only the Straight holds a joker, only Pairs with twos,
    sevens and aces holds twos, only Garbage holds triples), so the order of tests is immaterial.
    """
    if rules[E.RS_SPECIAL_HANDS] == SPECIALS_OFF:  # SPECIAL-7
        return E.SPECIAL_NONE
    if is_straight(counts):
        return E.SPECIAL_STRAIGHT
    if is_pairs(counts):
        return E.SPECIAL_PAIRS
    if is_pairs_twos_sevens_aces(counts):
        return E.SPECIAL_PAIRS_TWOS_SEVENS_ACES
    if is_garbage(counts):
        return E.SPECIAL_GARBAGE
    return E.SPECIAL_NONE


@njit(cache=True, _nrt=False)
def classify_many(rows, rules, out):
    """classify_special over each row of ``rows`` (int64[n, N_KINDS]) into ``out`` (int64[n])."""
    for i in range(rows.shape[0]):
        out[i] = classify_special(rows[i], rules)


@njit(cache=True, _nrt=False)
def special_reason(counts, team_has_melded, drew_from_stock, rules):
    """May a player holding ``counts`` declare a special hand now? R_OK or the first refusal.

    SPECIAL-7 off, SPECIAL-1 first and only meld / after a stock draw / exactly 14 cards,
    SPECIAL-2 no three outside a Straight (two threes; or one three where another card would
    make the hand special), SPECIAL-3..6 the cards form a special hand (a hand whose one three
    has its Straight place fails there: the Straight with a two for the joker is SPECIAL-3).
    """
    if rules[E.RS_SPECIAL_HANDS] == SPECIALS_OFF:  # SPECIAL-7
        return E.R_SPECIALS_OFF
    if team_has_melded:  # SPECIAL-1: first and only meld
        return E.R_SPECIAL_NOT_FIRST_MELD
    if not drew_from_stock:  # SPECIAL-1: never after taking the pile
        return E.R_SPECIAL_AFTER_PILE
    if counts.sum() != E.SPECIAL_HAND_SIZE:  # SPECIAL-1
        return E.R_SPECIAL_NOT_14
    threes = counts[E.RED_THREE] + counts[E.BLACK_THREE]
    if threes > 1:  # SPECIAL-2: even a Straight holds only one three
        return E.R_SPECIAL_THREE
    if threes == 1 and not is_straight(counts) and _three_spoils(counts, rules):
        return E.R_SPECIAL_THREE  # SPECIAL-2: without the three the hand would be special
    if classify_special(counts, rules) == E.SPECIAL_NONE:  # SPECIAL-3..6
        return _nearest_refusal(counts)
    return E.R_OK


@njit(cache=True, _nrt=False)
def _overlap_garbage(counts):
    """Most cards of ``counts`` a Garbage hand (SPECIAL-6) could share with it."""
    best = 0
    for f1 in range(E.FIRST_NATURAL, E.N_KINDS):
        for f2 in range(f1 + 1, E.N_KINDS):
            for t1 in range(E.FIRST_NATURAL, E.N_KINDS):
                for t2 in range(t1 + 1, E.N_KINDS):
                    if t1 == f1 or t1 == f2 or t2 == f1 or t2 == f2:
                        continue
                    n = min(counts[f1], 4) + min(counts[f2], 4)
                    n += min(counts[t1], 3) + min(counts[t2], 3)
                    best = max(best, n)
    return best


@njit(cache=True, _nrt=False)
def _top_pairs(counts, n, skip_a, skip_b):
    """Cards the best ``n`` natural pairs could share with ``counts`` (two ranks left out): each
    rank shares 2, 1 or 0 cards, so the best ``n`` are the twos first, then the ones (no sort:
    numba's sort compiles a quicksort, ~1 s of a cold start)."""
    twos = ones = 0
    for k in range(E.FIRST_NATURAL, E.N_KINDS):
        if k != skip_a and k != skip_b:
            c = min(counts[k], 2)
            if c == 2:
                twos += 1
            elif c == 1:
                ones += 1
    t = min(twos, n)
    return 2 * t + min(ones, n - t)


@njit(cache=True, _nrt=False)
def _nearest_refusal(counts):
    """SPECIAL-3..6: the refusal of a hand that is no special hand names the rule of the special
    hand it comes nearest to (most cards in common; ties in the order Straight, Pairs, Pairs
    with twos, sevens and aces, Garbage)."""
    straight = min(counts[E.JOKER], 1) + min(counts[E.TWO], 1)
    straight += min(counts[E.RED_THREE] + counts[E.BLACK_THREE], 1)
    for k in range(E.FIRST_NATURAL, E.N_KINDS):
        straight += min(counts[k], 1)
    pairs = _top_pairs(counts, opaque(7), opaque(-1), opaque(-1))  # one compiled copy
    tsa = min(counts[E.TWO], 2) + min(counts[E.SEVEN], 2) + min(counts[E.ACE], 2)
    tsa += _top_pairs(counts, opaque(4), E.SEVEN, E.ACE)
    garbage = _overlap_garbage(counts)
    best = max(straight, pairs, tsa, garbage)
    if straight == best:
        return E.R_SPECIAL_NOT_A_HAND  # SPECIAL-3
    if pairs == best:
        return E.R_SPECIAL_NOT_PAIRS  # SPECIAL-4
    if tsa == best:
        return E.R_SPECIAL_NOT_PAIRS_TSA  # SPECIAL-5
    return E.R_SPECIAL_NOT_GARBAGE  # SPECIAL-6


@njit(cache=True, _nrt=True)
def _three_spoils(counts, rules):
    """SPECIAL-2 names a refusal only when the one three is what the hand breaks: some other
    card in its place would make a special hand (a Pairs or Garbage hand holding a three).
    Otherwise the three has its place (a Straight's) and the hand fails SPECIAL-3..6."""
    kind_three = E.RED_THREE if counts[E.RED_THREE] > 0 else E.BLACK_THREE
    other = counts.copy()
    other[kind_three] -= 1
    for k in range(E.N_KINDS):
        if k == E.RED_THREE or k == E.BLACK_THREE:
            continue
        other[k] += 1
        special = classify_special(other, rules) != E.SPECIAL_NONE
        other[k] -= 1
        if special:
            return True
    return False


@njit(cache=True, _nrt=False)
def special_award(code, rules):
    """SPECIAL-3..6 award of a special code: 3,000 / 2,500 / 2,000 / garbage_award; 0 if none."""
    if code == E.SPECIAL_GARBAGE:
        return rules[E.RS_GARBAGE_AWARD]
    return FIXED_AWARD[code]
