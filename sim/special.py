"""Special hands (SPECIAL-1..7): classify a 14-card hand, say why one may not be declared.

Kernels take ``counts`` (``int64[N_KINDS]``, see ``sim.encoding``) and the ruleset array
``rules`` (``Ruleset.to_array()``). Each pattern fixes every count of the hand, so a hand of
the wrong size never matches one: the SPECIAL-1 size check is a separate reason only to
explain a refusal.
"""

from __future__ import annotations

from numba import njit

from sim import encoding as E
from sim._views import opaque

__all__ = [
    "classify_many",
    "classify_special",
    "hand_matches",
    "nearest_hand",
    "special_award",
    "special_reason",
    "wins_game",
]

#: RS_SPECIAL_HANDS code meaning "special hands are off" (SPECIAL-7)
SPECIALS_OFF = E.SPECIALS_OFF


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
def hand_matches(counts, rules, row):
    """SPECIAL-8/9 (and SPECIAL-2): do ``counts`` form exactly the hand of the table row at
    ``rules[row:]`` (layout CH_* in ``sim.encoding``)? The kernel of ``sim.catalogue.matches``:
    an any-mix wild group is any twos and jokers beside the other groups' wild cards, so each
    split of it between jokers and twos is tried, the cards left judged by ``_groups_match``."""
    if counts[E.RED_THREE] + counts[E.BLACK_THREE] != rules[row + E.CH_THREES]:
        return False  # SPECIAL-2: a three only where the hand has its place
    w = rules[row + E.CH_ANY_WILD]
    if w < 0:
        return _groups_match(counts, rules, row, 0, 0)
    for jokers in range(w + 1):
        if counts[E.JOKER] >= jokers and counts[E.TWO] >= w - jokers:
            if _groups_match(counts, rules, row, jokers, w - jokers):
                return True
    return False


@njit(cache=True, _nrt=False)
def _groups_match(counts, rules, row, less_jokers, less_twos):
    """``hand_matches`` for the row's groups other than its any-mix one, on ``counts`` less
    ``less_jokers`` jokers and ``less_twos`` twos: a kind a group names by rank must be held
    that many times; every other kind held is one group of its count, so per size the kinds
    held and the groups must pair off (Hall's condition on natural, wild and either groups)."""
    sizes = rules[row + E.CH_SIZES]
    n_wild = 0
    for k in range(E.N_KINDS):
        if k == E.RED_THREE or k == E.BLACK_THREE:
            continue
        fixed = rules[row + E.CH_FIXED + k]
        c = _held(counts, k, less_jokers, less_twos)
        wild = k == E.JOKER or k == E.TWO
        if fixed >= 0:
            if c != fixed:
                return False
            n_wild += wild
        elif c > 0:
            if c > E.MAX_GROUP or (sizes >> c) & 1 == 0:
                return False  # no group of that size to hold the kind
            n_wild += wild
    if n_wild > rules[row + E.CH_MAX_WILD]:
        return False
    for s in range(1, E.MAX_GROUP + 1):
        if (sizes >> s) & 1 == 0:
            continue
        nat = 0
        wil = 0
        for k in range(E.N_KINDS):
            if _held(counts, k, less_jokers, less_twos) == s and rules[row + E.CH_FIXED + k] < 0:
                if k >= E.FIRST_NATURAL:
                    nat += 1
                elif k == E.JOKER or k == E.TWO:
                    wil += 1
        gn = rules[row + E.CH_NATURAL + s]
        gw = rules[row + E.CH_WILD + s]
        ge = rules[row + E.CH_EITHER + s]
        if nat + wil != gn + gw + ge or nat > gn + ge or wil > gw + ge:
            return False
    return True


@njit(cache=True, _nrt=False)
def _held(counts, k, less_jokers, less_twos):
    """Cards of kind ``k`` in ``counts`` once the any-mix group's split is set aside."""
    if k == E.JOKER:
        return counts[k] - less_jokers
    if k == E.TWO:
        return counts[k] - less_twos
    return counts[k]


@njit(cache=True, _nrt=False)
def catalogue_row(code):
    """First word of the table row of special code ``code`` (>= 1) in the ruleset array."""
    return E.RS_CATALOGUE + (code - 1) * E.CH_WIDTH


@njit(cache=True, _nrt=False)
def matched_hands(counts, rules):
    """Bit i set for each hand i of the list in force that ``counts`` form (SPECIAL-8/9)."""
    mask = 0
    for i in range(rules[E.RS_CATALOGUE_N]):
        if hand_matches(counts, rules, E.RS_CATALOGUE + i * E.CH_WIDTH):
            mask |= 1 << i
    return mask


@njit(cache=True, _nrt=False)
def best_of(mask, rules):
    """Special code a hand forming the hands of ``mask`` is declared as: the highest award,
    first in the list on a tie (SPECIAL-8); SPECIAL_NONE for an empty mask."""
    best = E.SPECIAL_NONE
    award = -1
    for i in range(rules[E.RS_CATALOGUE_N]):
        if (mask >> i) & 1:
            a = rules[E.RS_CATALOGUE + i * E.CH_WIDTH + E.CH_AWARD]
            if a > award:
                best = i + 1
                award = a
    return best


@njit(cache=True, _nrt=False)
def classify_special(counts, rules):
    """SPECIAL-3..9: the special code of a 14-card hand under the list in force (its place in
    the list + 1; the tournament list keeps SPECIAL_STRAIGHT .. SPECIAL_GARBAGE), SPECIAL_NONE
    if none (or specials off, SPECIAL-7: the list is empty). A hand forming several is the one
    with the highest award, first in the list on a tie (SPECIAL-8)."""
    best = E.SPECIAL_NONE
    award = -1
    n = 0 if rules[E.RS_SPECIAL_HANDS] == E.SPECIALS_OFF else rules[E.RS_CATALOGUE_N]
    for i in range(n):  # SPECIAL-7: 'none' (an array marked off keeps no hand either)
        row = E.RS_CATALOGUE + i * E.CH_WIDTH
        if rules[row + E.CH_AWARD] > award and hand_matches(counts, rules, row):
            best = i + 1
            award = rules[row + E.CH_AWARD]
    return best


@njit(cache=True, _nrt=False)
def classify_many(rows, rules, out):
    """classify_special over each row of ``rows`` (int64[n, N_KINDS]) into ``out`` (int64[n])."""
    for i in range(rows.shape[0]):
        out[i] = classify_special(rows[i], rules)


@njit(cache=True, _nrt=False)
def matched_many(rows, rules, out):
    """matched_hands over each row of ``rows`` (int64[n, N_KINDS]) into ``out`` (int64[n])."""
    for i in range(rows.shape[0]):
        out[i] = matched_hands(rows[i], rules)


@njit(cache=True, _nrt=False)
def special_reason(counts, team_has_melded, drew_from_stock, rules):
    """May a player holding ``counts`` declare a special hand now? R_OK or the first refusal.

    SPECIAL-7 off, SPECIAL-1 first and only meld / after a stock draw / exactly 14 cards,
    SPECIAL-2 no three outside a Straight (two threes; or one three where another card would
    make the hand special), SPECIAL-3..6 the cards form a special hand (a hand whose one three
    has its Straight place fails there: the Straight with a two for the joker is SPECIAL-3).
    """
    if rules[E.RS_CATALOGUE_N] == 0 or rules[E.RS_SPECIAL_HANDS] == E.SPECIALS_OFF:  # SPECIAL-7
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
    code = classify_special(counts, rules)
    if threes == 1 and code == E.SPECIAL_NONE and _three_spoils(counts, rules):
        return E.R_SPECIAL_THREE  # SPECIAL-2: without the three the hand would be special
    if code == E.SPECIAL_NONE:  # SPECIAL-3..6, SPECIAL-8/9
        if rules[E.RS_SPECIAL_HANDS] == E.SPECIALS_CLA:
            return E.R_SPECIAL_NOT_IN_CLA  # SPECIAL-8: the CLA list names its own rule
        if rules[E.RS_SPECIAL_HANDS] != E.SPECIALS_ON:
            return E.R_SPECIAL_NOT_IN_LIST  # SPECIAL-9: a club's own list
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
def top_pairs(counts, n, skip_a, skip_b):
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
    pairs = top_pairs(counts, opaque(7), opaque(-1), opaque(-1))  # one compiled copy
    tsa = min(counts[E.TWO], 2) + min(counts[E.SEVEN], 2) + min(counts[E.ACE], 2)
    tsa += top_pairs(counts, opaque(4), E.SEVEN, E.ACE)
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
    """SCORE-8 award of a special code under the list in force (SPECIAL-3..6: 3,000 / 2,500 /
    2,000 / garbage_award; SPECIAL-8/9 as listed); 0 if none."""
    if code <= E.SPECIAL_NONE or code > rules[E.RS_CATALOGUE_N]:
        return 0
    return rules[catalogue_row(code) + E.CH_AWARD]


@njit(cache=True, _nrt=False)
def wins_game(code, rules):
    """SPECIAL-10: does the hand of special code ``code`` win the game?"""
    if code <= E.SPECIAL_NONE or code > rules[E.RS_CATALOGUE_N]:
        return False
    return rules[catalogue_row(code) + E.CH_WINS_GAME] == 1


@njit(cache=True, _nrt=False)
def _pick_kind(hand, need, rules, row, first, last, size):
    """The kind in first..last-1 a group of ``size`` takes, greedily: unused (need 0), named by
    no group, with enough copies, held most (the lowest kind on a tie); -1 if none."""
    best, best_c = -1, -1
    for k in range(first, last):
        if need[k] == 0 and rules[row + E.CH_FIXED + k] < 0 and E.KIND_COPIES[k] >= size:
            if hand[k] > best_c:
                best, best_c = k, hand[k]
    return best


@njit(cache=True, _nrt=False)
def _hand_need(hand, rules, row, need):
    """Cards per kind one instance of the table row's hand wants (``need``), chosen greedily
    from ``hand`` (largest groups first, each on the kind held most), and the cards missing."""
    need[:] = 0
    miss = max(0, rules[row + E.CH_THREES] - hand[E.RED_THREE] - hand[E.BLACK_THREE])
    n_wild = 0
    for k in range(E.N_KINDS):
        f = rules[row + E.CH_FIXED + k]
        if f >= 0:
            need[k] = f
            miss += max(0, f - hand[k])
            n_wild += k == E.JOKER or k == E.TWO
    w = rules[row + E.CH_ANY_WILD]
    if w >= 0:  # any twos and jokers beside a ranked wild group's (jokers first)
        jokers = min(
            max(0, hand[E.JOKER] - need[E.JOKER]), w, E.KIND_COPIES[E.JOKER] - need[E.JOKER]
        )
        twos_held = max(0, hand[E.TWO] - need[E.TWO])
        need[E.JOKER] += jokers
        need[E.TWO] += w - jokers
        miss += max(0, w - jokers - twos_held)
    for s in range(E.MAX_GROUP, 0, -1):
        for col in range(3):  # natural, matching wild, either
            base = (E.CH_NATURAL, E.CH_WILD, E.CH_EITHER)[col]
            for _ in range(rules[row + base + s]):
                k = -1
                if col != 1:
                    k = _pick_kind(hand, need, rules, row, E.FIRST_NATURAL, E.N_KINDS, s)
                if n_wild < rules[row + E.CH_MAX_WILD] and col != 0:
                    kw = _pick_kind(hand, need, rules, row, E.JOKER, E.TWO + 1, s)
                    if kw >= 0 and (k < 0 or hand[kw] > hand[k]):
                        k = kw
                if k < 0:
                    miss += s  # no kind left for it (not in a valid list)
                    continue
                n_wild += k == E.JOKER or k == E.TWO
                need[k] = s
                miss += max(0, s - hand[k])
    return miss


@njit(cache=True, _nrt=False)
def nearest_hand(hand, rules, need):
    """SPECIAL-8/9 distance: the hand of the list in force ``hand`` comes nearest to (fewest
    cards missing, the first listed on a tie), as (cards missing, special code), with ``need``
    the cards per kind it wants (its groups placed greedily on the kinds held most). A list
    with no hand: (SPECIAL_HAND_SIZE + 1, SPECIAL_NONE)."""
    best, best_miss = E.SPECIAL_NONE, E.SPECIAL_HAND_SIZE + 1
    for i in range(rules[E.RS_CATALOGUE_N]):
        miss = _hand_need(hand, rules, E.RS_CATALOGUE + i * E.CH_WIDTH, need)
        if miss < best_miss:
            best, best_miss = i + 1, miss
    if best != E.SPECIAL_NONE:
        _hand_need(hand, rules, catalogue_row(best), need)
    else:
        need[:] = 0
    return best_miss, best
