"""The one module that owns every encoding in canasta-sim.

Everything that turns cards, ranks, melds, reasons and rulesets into integers lives here;
every other module imports these names instead of repeating a number.

Cards (CARD-1)
    108 card ids. ids 0..103 are the two 52-card packs, ``id = pack*52 + suit*13 + rank``
    with ``rank`` 0..12 for A 2 3 ... K and ``suit`` 0..3 for S H D C; ids 104..107 are
    the four jokers. The two packs are indistinguishable in play; ids only keep suits
    (the colour of a three matters, DEAL-4/SCORE-7) and make transcripts and replays exact.

Kinds (rank codes)
    The engine keeps hands, melds and piles as *counts per kind*, 15 kinds:
    ``JOKER=0, TWO=1, RED_THREE=2, BLACK_THREE=3, FOUR=4 ... TEN=10, JACK=11, QUEEN=12,
    KING=13, ACE=14``. Natural kinds are the contiguous range 4..14 (CARD-2), so a kind
    code of a natural equals its face value for 4..10 and aces rank high.

Melds
    ``melds[team, slot, col]`` counts cards in a team's meld: ``slot`` is the natural kind
    (4..14) or ``WILD_MELD`` (0) for the meld made only of wild cards (MELD-8); ``col`` is
    ``NATURALS``, ``TWOS`` or ``JOKERS``. A meld exists when its total is > 0 (MELD-3: at
    most one meld per rank per team, so this table can hold every legal position).

Reasons
    Rule checks return an int reason: ``R_OK`` (0) when legal, otherwise a code whose
    rule ID and message are in ``REASONS``. ``explain(code)`` renders it.

Ruleset array
    ``Ruleset.to_array()`` packs the variants into an int64 array indexed by ``RS_*`` so
    compiled kernels receive them as an argument (numba freezes globals at compile time).
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------------------------------
# Kinds
# ---------------------------------------------------------------------------------------
JOKER = 0  #: joker (wild, 50 points)
TWO = 1  #: two (wild, 20 points)
RED_THREE = 2  #: red three (bonus card, DEAL-4)
BLACK_THREE = 3  #: black three (bonus card, DEAL-4)
FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN = 4, 5, 6, 7, 8, 9, 10  #: naturals by face value
JACK, QUEEN, KING, ACE = 11, 12, 13, 14  #: court naturals; aces rank high

#: printable name of each kind, indexed by kind code; its length defines N_KINDS
KIND_NAMES = ("JK", "2", "3r", "3b", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
N_KINDS = len(KIND_NAMES)  #: number of kinds (15)

FIRST_NATURAL = FOUR  #: natural kinds are FIRST_NATURAL..N_KINDS-1 (CARD-2)
NATURAL_KINDS = tuple(range(FIRST_NATURAL, N_KINDS))  #: the 11 meldable natural ranks
WILD_KINDS = (JOKER, TWO)  #: CARD-2 wild cards
THREE_KINDS = (RED_THREE, BLACK_THREE)  #: CARD-2/DEAL-4 bonus cards

#: CARD-3 point value of each kind (a three counts 5 only when left in hand)
KIND_VALUE = np.array([50, 20, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20], dtype=np.int64)
#: CARD-1 copies of each kind in the 108-card deck (two packs + 4 jokers)
KIND_COPIES = np.array([4, 8, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8], dtype=np.int64)

IS_WILD = np.zeros(N_KINDS, dtype=np.bool_)  #: CARD-2 wild mask by kind
IS_WILD[list(WILD_KINDS)] = True
IS_THREE = np.zeros(N_KINDS, dtype=np.bool_)  #: threes mask by kind
IS_THREE[list(THREE_KINDS)] = True
IS_NATURAL = ~(IS_WILD | IS_THREE)  #: CARD-2 natural mask by kind

# ---------------------------------------------------------------------------------------
# Card ids
# ---------------------------------------------------------------------------------------
RANK_SYMBOLS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")  #: by rank
SUIT_SYMBOLS = ("S", "H", "D", "C")  #: spades, hearts, diamonds, clubs
RED_SUITS = (1, 2)  #: hearts and diamonds are red (the colour of a three, SCORE-7)
N_RANKS = len(RANK_SYMBOLS)  #: 13
N_SUITS = len(SUIT_SYMBOLS)  #: 4
N_PACKS = 2  #: CARD-1
N_JOKERS = 4  #: CARD-1
PACK_SIZE = N_RANKS * N_SUITS  #: 52
FIRST_JOKER_ID = N_PACKS * PACK_SIZE  #: 104
N_CARDS = FIRST_JOKER_ID + N_JOKERS  #: 108 (CARD-1)
JOKER_SYMBOL = "JK"

#: kind of each rank index 0..12 (A 2 3 4 ... K); the three is coloured by suit below
_RANK_TO_KIND = (ACE, TWO, -1, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING)


def _build_card_tables():
    kind = np.empty(N_CARDS, dtype=np.int64)
    suit = np.full(N_CARDS, -1, dtype=np.int64)
    rank = np.full(N_CARDS, -1, dtype=np.int64)
    for cid in range(FIRST_JOKER_ID):
        r, s = cid % PACK_SIZE % N_RANKS, cid % PACK_SIZE // N_RANKS
        rank[cid], suit[cid] = r, s
        if r == 2:
            kind[cid] = RED_THREE if s in RED_SUITS else BLACK_THREE
        else:
            kind[cid] = _RANK_TO_KIND[r]
    kind[FIRST_JOKER_ID:] = JOKER
    return kind, suit, rank


#: CARD_KIND[id] -> kind; CARD_SUIT[id] -> 0..3 or -1 for jokers; CARD_RANK[id] -> 0..12 or -1
CARD_KIND, CARD_SUIT, CARD_RANK = _build_card_tables()
CARD_VALUE = KIND_VALUE[CARD_KIND]  #: CARD-3 point value of each card id

# ---------------------------------------------------------------------------------------
# Melds
# ---------------------------------------------------------------------------------------
WILD_MELD = JOKER  #: meld slot of the all-wild meld (MELD-8); natural melds use their kind
NATURALS, TWOS, JOKERS = 0, 1, 2  #: columns of melds[team, slot, col]
MELD_COLUMNS = ("naturals", "twos", "jokers")
N_MELD_COLS = len(MELD_COLUMNS)  #: 3
MIN_MELD = 3  #: MELD-1 smallest meld
CANASTA = 7  #: MELD-10 cards in a canasta; MELD-2 largest meld
N_TEAMS = 2
N_PLAYERS = 4
HAND_SIZE = 13  #: DEAL-1
TURN_CARD_FROM_BOTTOM = 9  #: DEAL-3: the stock's 9th card from the bottom


def team_of(player: int) -> int:
    """Team of a seat: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    return player % N_TEAMS


# ---------------------------------------------------------------------------------------
# Reasons: what a rule check says when it refuses
# ---------------------------------------------------------------------------------------
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
R_SPECIAL_NOT_A_HAND = 35  #: SPECIAL-3..6
R_SPECIALS_OFF = 36  #: SPECIAL-7
R_TOO_MANY_COPIES = 37  #: CARD-1
R_EMPTY_MELD = 38  #: MELD-1 nothing to meld
R_MELD_LEAVES_NO_DISCARD = 39  #: OUT-2 a meld may not empty the hand

#: reason code -> (rule ID, message); the index is the code
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
    ("SPECIAL-3", "the cards are not a special hand (Straight, Pairs, Pairs 2-7-A, Garbage)"),
    ("SPECIAL-7", "special hands are off in this ruleset"),
    ("CARD-1", "more copies of a card than two packs hold"),
    ("MELD-1", "nothing to meld"),
    ("OUT-2", "a meld may not leave the hand without a card to discard"),
)
N_REASONS = len(REASONS)


def reason_rule(code: int) -> str:
    """Rule ID of a reason code ('' for R_OK and generic refusals)."""
    return REASONS[code][0]


def explain(code: int) -> str:
    """Human sentence for a reason code, led by its rule ID: 'MELD-6: a meld of sevens ...'."""
    rule, msg = REASONS[code]
    return f"{rule}: {msg}" if rule else msg


# ---------------------------------------------------------------------------------------
# Ruleset array layout (see sim.ruleset.Ruleset.to_array)
# ---------------------------------------------------------------------------------------
RS_ALLOW_LONG_MELD_GOING_OUT = 0  #: MELD-2 variant, 0/1
RS_MAX_WILDS_MIXED = 1  #: MELD-4 variant
RS_RULE_OF_FIVE = 2  #: MELD-5 variant, 0/1
RS_WILD_PENALTY_FOUR_JOKERS = 3  #: SCORE-3 variant, points
RS_GARBAGE_AWARD = 4  #: SPECIAL-6 variant, points
RS_SPECIAL_HANDS = 5  #: SPECIAL-7 variant, index into SPECIAL_HANDS_MODES
RS_TARGET = 6  #: GAME-1 variant, points
N_RS = 7
SPECIAL_HANDS_MODES = ("tournament", "none")  #: SPECIAL-7 values, by RS_SPECIAL_HANDS code

# ---------------------------------------------------------------------------------------
# Special hands (SPECIAL-3..6)
# ---------------------------------------------------------------------------------------
SPECIAL_NONE = 0  #: not a special hand
SPECIAL_STRAIGHT = 1  #: SPECIAL-3
SPECIAL_PAIRS = 2  #: SPECIAL-4
SPECIAL_PAIRS_TWOS_SEVENS_ACES = 3  #: SPECIAL-5
SPECIAL_GARBAGE = 4  #: SPECIAL-6
#: names used in JSON, tables and records, indexed by the codes above
SPECIAL_NAMES = ("", "straight", "pairs", "pairs_twos_sevens_aces", "garbage")
SPECIAL_HAND_SIZE = 14  #: SPECIAL-1

# ---------------------------------------------------------------------------------------
# Score breakdown (SCORE-1..8, OUT-3): one item per entry; a team's total is their sum
# ---------------------------------------------------------------------------------------
SCORE_ITEMS = (
    "canasta_bonus",  #: SCORE-1/2/3 bonuses of completed canastas
    "going_out",  #: OUT-3
    "melded_cards",  #: SCORE-6
    "threes",  #: SCORE-7
    "cards_in_hand",  #: SCORE-5 (negative)
    "incomplete_melds",  #: SCORE-2/3 penalties for unfinished sevens, aces, wild melds
    "hand_penalties",  #: SCORE-4 sevens/aces held in hand
    "special_hand",  #: SCORE-8 award
)
(
    S_CANASTA_BONUS,
    S_GOING_OUT,
    S_MELDED_CARDS,
    S_THREES,
    S_CARDS_IN_HAND,
    S_INCOMPLETE_MELDS,
    S_HAND_PENALTIES,
    S_SPECIAL_HAND,
) = range(len(SCORE_ITEMS))
N_SCORE_ITEMS = len(SCORE_ITEMS)
