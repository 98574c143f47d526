"""Scoring a hand for one team (SCORE-1..8, OUT-3).

``score_team`` fills a breakdown ``out[N_SCORE_ITEMS]`` (items ``SCORE_ITEMS`` of
``sim.encoding``); the team's score for the hand is ``out.sum()``. Arrays:

- ``melds_team`` int64[N_KINDS, N_MELD_COLS]: slot = natural kind or WILD_MELD, columns
  NATURALS, TWOS, JOKERS (``melds[team]`` of the engine);
- ``threes_team`` int64[2]: red and black threes laid down;
- ``hands`` int64[2, N_KINDS]: the cards each partner still holds.

The kernels trust their input (positions come from the engine or a validated file).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import encoding as E
from sim.legality import team_canastas
from sim.special import special_award

__all__ = [
    "GOING_OUT",
    "HELD_SEVENS_ACES_PENALTY",
    "MIXED_CANASTA",
    "SEVENS_ACES_CANASTA",
    "WILD_CANASTA",
    "score_team",
]

MIXED_CANASTA = 300  #: SCORE-1
NATURAL_CANASTA = 500  #: SCORE-1
SEVENS_ACES_CANASTA = 2500  #: SCORE-2 (also the penalty for an unfinished one)
WILD_CANASTA_TWOS = 3000  #: SCORE-3 all twos
WILD_CANASTA_FOUR_JOKERS = 2500  #: SCORE-3 holding all four jokers
WILD_CANASTA = 2000  #: SCORE-3 any other (also the default unfinished penalty)
HELD_SEVENS_ACES_PENALTY = 1500  #: SCORE-4
HELD_PENALTY_AT = 3  #: SCORE-4: three or more of a rank in one hand
GOING_OUT = 100  #: OUT-3
MELD_SLOTS = (*E.NATURAL_KINDS, E.WILD_MELD)  #: every slot a team may meld in
#: SCORE-7 value of n threes of one colour, n = 0..4
THREES_VALUE = np.array([0, 100, 300, 500, 1000], dtype=np.int64)


@njit(cache=True, _nrt=False)
def _meld_value(melds_team, slot):
    """SCORE-6 point value of the cards in one meld (CARD-3)."""
    return (
        melds_team[slot, E.NATURALS] * E.KIND_VALUE[slot]
        + melds_team[slot, E.TWOS] * E.KIND_VALUE[E.TWO]
        + melds_team[slot, E.JOKERS] * E.KIND_VALUE[E.JOKER]
    )


@njit(cache=True, _nrt=False)
def _natural_meld_bonus(melds_team, kind):
    """SCORE-1/2 bonus (> 0) or unfinished penalty (< 0) of the team's meld of natural kind.

    Sevens and aces without wilds are the special natural melds; an aces meld that took wilds
    in the initial meld (MELD-7) is scored as an ordinary mixed meld.
    """
    size = melds_team[kind, E.NATURALS] + melds_team[kind, E.TWOS] + melds_team[kind, E.JOKERS]
    wilds = melds_team[kind, E.TWOS] + melds_team[kind, E.JOKERS]
    special = (kind == E.SEVEN or kind == E.ACE) and wilds == 0
    if size >= E.CANASTA:
        if special:
            return SEVENS_ACES_CANASTA  # SCORE-2
        return NATURAL_CANASTA if wilds == 0 else MIXED_CANASTA  # SCORE-1
    if size > 0 and special:
        return -SEVENS_ACES_CANASTA  # SCORE-2 unfinished natural sevens/aces
    return 0


@njit(cache=True, _nrt=False)
def _wild_meld_bonus(melds_team, rules):
    """SCORE-3 bonus (> 0) or unfinished penalty (< 0) of the team's all-wild meld."""
    twos = melds_team[E.WILD_MELD, E.TWOS]
    jokers = melds_team[E.WILD_MELD, E.JOKERS]
    size = twos + jokers + melds_team[E.WILD_MELD, E.NATURALS]
    if size == 0:
        return 0
    if size >= E.CANASTA:
        if jokers == 0:
            return WILD_CANASTA_TWOS
        if jokers == E.N_JOKERS:
            return WILD_CANASTA_FOUR_JOKERS
        return WILD_CANASTA
    if jokers == E.N_JOKERS:
        return -rules[E.RS_WILD_PENALTY_FOUR_JOKERS]  # SCORE-3 variant
    return -WILD_CANASTA


@njit(cache=True, _nrt=False)
def _threes_score(threes_team, canastas):
    """SCORE-7: per colour 100/300/500/1000; minus with no canasta, 0 with one, plus with two+."""
    total = 0
    for colour in range(2):
        total += THREES_VALUE[min(threes_team[colour], THREES_VALUE.shape[0] - 1)]
    if canastas == 0:
        return -total
    if canastas == 1:
        return 0
    return total


@njit(cache=True, _nrt=False)
def _held_penalties(hands, aces_took_wilds):
    """SCORE-4: -1,500 per partner holding 3+ sevens, likewise aces (not after MELD-7 wilds)."""
    total = 0
    for p in range(hands.shape[0]):
        if hands[p, E.SEVEN] >= HELD_PENALTY_AT:
            total -= HELD_SEVENS_ACES_PENALTY
        if hands[p, E.ACE] >= HELD_PENALTY_AT and not aces_took_wilds:
            total -= HELD_SEVENS_ACES_PENALTY
    return total


@njit(cache=True, _nrt=False)
def score_team(melds_team, threes_team, hands, went_out, special_code, rules, out):
    """Fill ``out[N_SCORE_ITEMS]`` with the team's hand score by item (SCORE-1..8, OUT-3)."""
    for i in range(E.N_SCORE_ITEMS):
        out[i] = 0
    if special_code != E.SPECIAL_NONE:  # SCORE-8: the award and nothing else
        out[E.S_SPECIAL_HAND] = special_award(special_code, rules)
        return
    melded = 0
    for slot in MELD_SLOTS:
        if slot == E.WILD_MELD:
            bonus = _wild_meld_bonus(melds_team, rules)
        else:
            bonus = _natural_meld_bonus(melds_team, slot)
        # a completed canasta's bonus, or an unfinished sevens/aces/wild meld's penalty
        out[E.S_CANASTA_BONUS if bonus > 0 else E.S_INCOMPLETE_MELDS] += bonus
        melded += _meld_value(melds_team, slot)
    canastas = team_canastas(melds_team)  # MELD-10
    out[E.S_MELDED_CARDS] = melded if canastas >= 1 else -melded  # SCORE-6
    out[E.S_THREES] = _threes_score(threes_team, canastas)  # SCORE-7
    in_hand = 0
    for p in range(hands.shape[0]):
        for k in range(E.N_KINDS):
            in_hand += hands[p, k] * E.KIND_VALUE[k]  # SCORE-5 (a three counts 5, CARD-3)
    out[E.S_CARDS_IN_HAND] = -in_hand
    aces_took_wilds = melds_team[E.ACE, E.TWOS] + melds_team[E.ACE, E.JOKERS] > 0  # MELD-7
    out[E.S_HAND_PENALTIES] = _held_penalties(hands, aces_took_wilds)  # SCORE-4
    if went_out:
        out[E.S_GOING_OUT] = GOING_OUT  # OUT-3
