"""Kinds and card ids: the integer codes of the deck (CARD-1..3), part of ``sim.encoding``.

``sim.encoding`` re-exports every name here; import them from there, as every module does.
Kinds are the 15 rank codes the engine counts by (``JOKER=0, TWO=1, RED_THREE=2,
BLACK_THREE=3, FOUR=4 ... ACE=14``); card ids are the 108 cards, ``pack*52 + suit*13 + rank``
for the two packs and 104..107 for the jokers (the layout is described in ``sim.encoding``).
"""

from __future__ import annotations

import numpy as np

# fmt: off
__all__ = [
    "ACE", "BLACK_THREE", "CARD_KIND", "CARD_RANK", "CARD_SUIT", "CARD_VALUE", "EIGHT",
    "FIRST_JOKER_ID", "FIRST_NATURAL", "FIVE", "FOUR", "IS_NATURAL", "IS_THREE", "IS_WILD",
    "JACK", "JOKER", "JOKER_SYMBOL", "KIND_COPIES", "KIND_NAMES", "KIND_VALUE", "KING",
    "NATURAL_KINDS", "NINE", "N_CARDS", "N_JOKERS", "N_KINDS", "N_PACKS", "N_RANKS", "N_SUITS",
    "PACK_SIZE", "QUEEN", "RANK_SYMBOLS", "RED_SUITS", "RED_THREE", "SEVEN", "SIX",
    "SUIT_SYMBOLS", "TEN", "THREE_KINDS", "TWO", "WILD_KINDS",
]
# fmt: on

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
