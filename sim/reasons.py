"""Reason codes: what a rule check says when it refuses (``REASONS``, the ``R_*`` constants,
``explain``). Split from ``sim.encoding``, which re-exports every name here (``E.R_OK``,
``E.explain``): kernels and callers keep reading them there."""

from __future__ import annotations

__all__ = [
    "N_REASONS",
    "REASONS",
    "R_ACES_WILD",
    "R_BAD_ACTION",
    "R_DEAD_RANK",
    "R_DISCARD_EMPTY_PILE",
    "R_DISCARD_THREE",
    "R_DISCARD_WILD",
    "R_EMPTY_MELD",
    "R_KEEP_THREE",
    "R_MELD_LEAVES_NO_DISCARD",
    "R_MELD_MIXED_RANKS",
    "R_MELD_TOO_LONG",
    "R_MELD_TOO_SMALL",
    "R_MIXED_TOO_FEW_NATURALS",
    "R_MIXED_TOO_MANY_WILDS",
    "R_NOT_HELD",
    "R_OK",
    "R_OPEN_FIRST",
    "R_OPEN_MINIMUM",
    "R_OPEN_MIXED_CANASTA",
    "R_OPEN_NO_BASE_MELD",
    "R_OPEN_NO_NATURAL_MELD",
    "R_OUT_CANASTAS",
    "R_OUT_INCOMPLETE_ACES",
    "R_OUT_INCOMPLETE_SEVENS",
    "R_OUT_INCOMPLETE_WILD",
    "R_OUT_NO_DISCARD",
    "R_PILE_CANNOT_OPEN",
    "R_PILE_DEAD_RANK",
    "R_PILE_EMPTY",
    "R_PILE_MELD_FULL",
    "R_PILE_NO_PAIR",
    "R_PILE_TOP_WILD_OR_THREE",
    "R_RULE_OF_FIVE",
    "R_SECOND_MELD",
    "R_SEVENS_WILD",
    "R_SPECIALS_OFF",
    "R_SPECIAL_AFTER_PILE",
    "R_SPECIAL_NOT_14",
    "R_SPECIAL_NOT_A_HAND",
    "R_SPECIAL_NOT_FIRST_MELD",
    "R_SPECIAL_NOT_GARBAGE",
    "R_SPECIAL_NOT_IN_CLA",
    "R_SPECIAL_NOT_IN_LIST",
    "R_SPECIAL_NOT_PAIRS",
    "R_SPECIAL_NOT_PAIRS_TSA",
    "R_SPECIAL_THREE",
    "R_THREE_MELDED",
    "R_TOO_MANY_COPIES",
    "R_WILD_MELD_INCOMPLETE",
    "R_WRONG_PHASE",
    "explain",
    "reason_rule",
]

#: reason code -> (rule ID, message), in code order: the index is the code, named by the R_*
#: constants below (tests/test_explain.py checks both against a table of its own). Codes are
#: never renumbered: the engine's refusals (TURN-1 ...) and the special hands' nearest-hand
#: codes (SPECIAL-4..6) came later, last.
REASONS = (
    ("", "legal"),
    ("", "the cards are not in the hand"),
    ("MELD-1", "a new meld needs at least 3 cards"),
    ("MELD-1", "a meld is cards of one rank only"),
    ("DEAL-4", "threes are never melded"),
    ("MELD-2", "a meld may not hold more than 7 cards"),
    ("MELD-3", "a team holds at most one meld of each rank"),
    ("MELD-4", "a mixed meld needs at least 2 natural cards"),
    ("MELD-4", "a mixed meld holds too many wild cards"),
    ("MELD-5", "rule of five: a wild card joins a natural meld only once it holds 5 naturals"),
    ("MELD-6", "a meld of sevens cannot hold wild cards"),
    ("MELD-7", "aces take wild cards only in the team's initial meld"),
    ("MELD-8", "no wild card joins another meld while the team's wild meld is incomplete"),
    ("MELD-9", "that rank is dead: a canasta of it has been completed"),
    ("OPEN-1", "the initial meld does not reach the minimum count"),
    ("OPEN-2", "the initial meld needs a natural meld of 3+ cards from hand"),
    ("OPEN-4", "a mixed canasta may not be completed in the opening turn"),
    ("PILE-1", "taking the pile needs a natural pair of the top card's rank"),
    ("PILE-2", "the pile is empty"),
    ("PILE-2", "the pile cannot be taken when its top card is wild or a three"),
    ("PILE-2", "the pile cannot be taken with a dead rank"),
    ("PILE-2", "the team's meld of that rank already holds 5 or more cards"),
    ("PILE-2", "the team has not opened and cannot open from hand with the pile"),
    ("DISCARD-1", "a three is never discarded"),
    ("DISCARD-2", "a wild card may be discarded only when going out or holding only wilds"),
    (
        "DISCARD-3",
        "no seven, wild, ace or dead rank onto an empty pile if another discard is legal",
    ),
    ("OUT-1", "going out needs at least two completed canastas"),
    ("OUT-1", "cannot go out with an incomplete sevens meld"),
    ("OUT-1", "cannot go out with an incomplete natural aces meld"),
    ("OUT-1", "cannot go out with an incomplete wild meld"),
    ("OUT-2", "melding every card with no discard is allowed only for a special hand"),
    ("SPECIAL-1", "a special hand must be the team's first and only meld"),
    ("SPECIAL-1", "a special hand is declared holding exactly 14 cards"),
    ("SPECIAL-1", "a special hand cannot be declared after taking the pile"),
    ("SPECIAL-2", "no three may be in a special hand except the one three of a Straight"),
    ("SPECIAL-3", "the cards are not a Straight (one each of A, 2, 3, 4..K and a joker)"),
    ("SPECIAL-7", "special hands are off in this ruleset"),
    ("CARD-1", "more copies of a card than two packs hold"),
    ("MELD-1", "nothing to meld"),
    ("OUT-2", "a meld may not leave the hand without a card to discard"),
    ("TURN-1", "that action does not belong to this phase of the turn"),
    ("", "no such action"),
    ("DEAL-5", "a three may be kept only toward a Straight while the team has not melded"),
    ("OPEN-1", "the initial meld must be completed before discarding"),
    ("SPECIAL-4", "the cards are not Pairs (seven natural pairs of seven ranks, no wild card)"),
    ("SPECIAL-5", "the cards are not Pairs with twos, sevens and aces (seven pairs, no joker)"),
    ("SPECIAL-6", "the cards are not Garbage (two fours and two threes of a kind, no wild)"),
    ("SPECIAL-9", "the cards form no special hand of the list in force"),
    ("OPEN-2", "the initial meld needs a natural meld or a wild meld of 3+ cards from hand"),
    ("SPECIAL-8", "the cards form no hand of the Canasta League of America list"),
)
N_REASONS = len(REASONS)
R_OK = 0  #: legal
R_NOT_HELD = 1  #: the cards are not in the hand
R_MELD_TOO_SMALL = 2  #: MELD-1 a new meld needs 3 cards
R_MELD_MIXED_RANKS = 3  #: MELD-1 one rank per meld
R_THREE_MELDED = 4  #: DEAL-4 threes are never melded
R_MELD_TOO_LONG = 5  #: MELD-2 more than 7 cards
R_SECOND_MELD = 6  #: MELD-3 a second meld of a rank
R_MIXED_TOO_FEW_NATURALS = 7  #: MELD-4 mixed meld needs 2 naturals
R_MIXED_TOO_MANY_WILDS = 8  #: MELD-4 at most max_wilds_mixed wilds
R_RULE_OF_FIVE = 9  #: MELD-5
R_SEVENS_WILD = 10  #: MELD-6
R_ACES_WILD = 11  #: MELD-7
R_WILD_MELD_INCOMPLETE = 12  #: MELD-8
R_DEAD_RANK = 13  #: MELD-9
R_OPEN_MINIMUM = 14  #: OPEN-1
R_OPEN_NO_NATURAL_MELD = 15  #: OPEN-2
R_OPEN_MIXED_CANASTA = 16  #: OPEN-4
R_PILE_NO_PAIR = 17  #: PILE-1
R_PILE_EMPTY = 18  #: PILE-2
R_PILE_TOP_WILD_OR_THREE = 19  #: PILE-2
R_PILE_DEAD_RANK = 20  #: PILE-2 / MELD-9
R_PILE_MELD_FULL = 21  #: PILE-2
R_PILE_CANNOT_OPEN = 22  #: PILE-2 / OPEN-1..4
R_DISCARD_THREE = 23  #: DISCARD-1
R_DISCARD_WILD = 24  #: DISCARD-2
R_DISCARD_EMPTY_PILE = 25  #: DISCARD-3
R_OUT_CANASTAS = 26  #: OUT-1 two canastas
R_OUT_INCOMPLETE_SEVENS = 27  #: OUT-1
R_OUT_INCOMPLETE_ACES = 28  #: OUT-1
R_OUT_INCOMPLETE_WILD = 29  #: OUT-1
R_OUT_NO_DISCARD = 30  #: OUT-2 melding every card needs a special hand
R_SPECIAL_NOT_FIRST_MELD = 31  #: SPECIAL-1
R_SPECIAL_NOT_14 = 32  #: SPECIAL-1
R_SPECIAL_AFTER_PILE = 33  #: SPECIAL-1
R_SPECIAL_THREE = 34  #: SPECIAL-2
R_SPECIAL_NOT_A_HAND = 35  #: SPECIAL-3 (nearest to a Straight; SPECIAL-4..6 further down)
R_SPECIALS_OFF = 36  #: SPECIAL-7
R_TOO_MANY_COPIES = 37  #: CARD-1
R_EMPTY_MELD = 38  #: MELD-1 nothing to meld
R_MELD_LEAVES_NO_DISCARD = 39  #: OUT-2 a meld may not empty the hand
R_WRONG_PHASE = 40  #: TURN-1 the action does not belong to this phase of the turn
R_BAD_ACTION = 41  #: no such action id
R_KEEP_THREE = 42  #: DEAL-5 a three may be kept only while the team has not melded
R_OPEN_FIRST = 43  #: OPEN-1 the turn's melds must make a valid opening first
R_SPECIAL_NOT_PAIRS = 44  #: SPECIAL-4
R_SPECIAL_NOT_PAIRS_TSA = 45  #: SPECIAL-5
R_SPECIAL_NOT_GARBAGE = 46  #: SPECIAL-6
R_SPECIAL_NOT_IN_LIST = 47  #: SPECIAL-9 (a club's list written out)
R_OPEN_NO_BASE_MELD = 48  #: OPEN-2 under the wild opening (``opening_natural = false``)
R_SPECIAL_NOT_IN_CLA = 49  #: SPECIAL-8 (the CLA list in force)


def reason_rule(code: int) -> str:
    """Rule ID of a reason code ('' for R_OK and generic refusals)."""
    return REASONS[code][0]


def explain(code: int) -> str:
    """Human sentence for a reason code, led by its rule ID: 'MELD-6: a meld of sevens ...'."""
    if not 0 <= code < len(REASONS):  # REASONS[-1] would silently name another rule
        raise ValueError(f"no reason code {code!r} (codes are 0..{len(REASONS) - 1})")
    rule, msg = REASONS[code]
    return f"{rule}: {msg}" if rule else msg
