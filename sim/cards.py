"""Card notation for people: ``AS 10H 7D 2C 3H JK``.

A token is a rank ``A 2 3 4 5 6 7 8 9 10 J Q K`` (``T`` also means ten) followed by a suit
``S H D C``, or ``JK`` for a joker; case-insensitive. Parsing gives card ids (see
``sim.encoding``): the first copy of a card is pack 0, the second pack 1, and a third copy
is refused (CARD-1).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from sim.encoding import (
    CARD_KIND,
    CARD_RANK,
    CARD_SUIT,
    FIRST_JOKER_ID,
    JOKER_SYMBOL,
    KIND_NAMES,
    N_CARDS,
    N_JOKERS,
    N_KINDS,
    N_PACKS,
    N_RANKS,
    PACK_SIZE,
    R_TOO_MANY_COPIES,
    RANK_SYMBOLS,
    SUIT_SYMBOLS,
)
from sim.errors import CanastaError, RuleViolation

__all__ = [
    "counts_of",
    "format_card",
    "format_cards",
    "format_counts",
    "format_melds",
    "parse_cards",
    "parse_token",
    "tokenize",
]

_RANK_INDEX = {sym: i for i, sym in enumerate(RANK_SYMBOLS)} | {"T": 9}
_SUIT_INDEX = {sym: i for i, sym in enumerate(SUIT_SYMBOLS)}


def tokenize(cards: str | Iterable[str]) -> list[str]:
    """Split a string (spaces or commas) or flatten an iterable of strings into tokens.

    One string may hold no card (``""``: nothing); in an iterable every item names at least
    one card, so an empty item (``["7H", ""]``, a command line's ``""``) is refused as a bad
    card, not read as nothing."""
    if isinstance(cards, str):
        return cards.replace(",", " ").split()
    if isinstance(cards, bytes) or not isinstance(cards, Iterable):
        raise CanastaError(f"bad cards {cards!r}: expected tokens such as 'AS 7H JK'")
    out: list[str] = []
    for item in cards:
        if not isinstance(item, str):
            raise CanastaError(f"bad card {item!r}: expected a token such as 'AS' or 'JK'")
        tokens = item.replace(",", " ").split()
        if not tokens:
            raise CanastaError(f"empty card {item!r}: expected a token such as 'AS' or 'JK'")
        out.extend(tokens)
    return out


def parse_token(token: str) -> tuple[int, int]:
    """Return (rank index 0..12, suit 0..3) for a card token, or (-1, -1) for a joker."""
    t = token.strip().upper()
    if t == JOKER_SYMBOL:
        return -1, -1
    rank, suit = t[:-1], t[-1:]
    if rank not in _RANK_INDEX or suit not in _SUIT_INDEX:
        raise CanastaError(
            f"bad card {token!r}: expected rank A 2-10 J Q K (or T) and suit S H D C, or JK"
        )
    return _RANK_INDEX[rank], _SUIT_INDEX[suit]


def parse_cards(cards: str | Iterable[str], taken: np.ndarray | None = None) -> np.ndarray:
    """Parse tokens into distinct card ids (int64 array).

    ``taken`` (bool[108], updated in place) lets several calls share one deck, so a card
    named in two places still counts against the two copies the packs hold (CARD-1).
    """
    used = np.zeros(N_CARDS, dtype=np.bool_) if taken is None else taken
    ids = []
    for tok in tokenize(cards):
        rank, suit = parse_token(tok)
        if rank < 0:
            candidates = range(FIRST_JOKER_ID, FIRST_JOKER_ID + N_JOKERS)
        else:
            candidates = [p * PACK_SIZE + suit * N_RANKS + rank for p in range(N_PACKS)]
        for cid in candidates:
            if not used[cid]:
                used[cid] = True
                ids.append(cid)
                break
        else:
            raise RuleViolation(R_TOO_MANY_COPIES, f"{tok.upper()}")
    return np.array(ids, dtype=np.int64)


def format_card(cid: int) -> str:
    """Token of a card id, e.g. 104 -> 'JK', 0 -> 'AS'."""
    if not 0 <= cid < N_CARDS:
        raise CanastaError(f"bad card id {cid}: ids run 0..{N_CARDS - 1}")
    if cid >= FIRST_JOKER_ID:
        return JOKER_SYMBOL
    return RANK_SYMBOLS[CARD_RANK[cid]] + SUIT_SYMBOLS[CARD_SUIT[cid]]


def format_cards(ids: Iterable[int]) -> str:
    """Tokens of card ids, space separated."""
    return " ".join(format_card(int(c)) for c in ids)


def counts_of(ids: Iterable[int]) -> np.ndarray:
    """Counts per kind (int64[N_KINDS]) of card ids."""
    counts = np.zeros(N_KINDS, dtype=np.int64)
    for c in ids:
        counts[CARD_KIND[int(c)]] += 1
    return counts


def format_counts(counts: np.ndarray) -> str:
    """Readable multiset of kinds, e.g. '7 7 7 2 JK' (threes shown as 3r/3b)."""
    parts = []
    for kind in range(N_KINDS - 1, -1, -1):
        parts.extend([KIND_NAMES[kind]] * int(counts[kind]))
    return " ".join(parts)


def format_melds(melds_team: np.ndarray) -> str:
    """One team's melds (``[N_KINDS, N_MELD_COLS]`` counts), highest rank first:
    'K[K K K 2]  wild[2 2 JK]*' (* a canasta); '(none)' without a meld."""
    from sim.encoding import CANASTA, JOKERS, NATURALS, TWOS, WILD_MELD

    parts = []
    for slot in range(N_KINDS - 1, -1, -1):
        n, t, j = (int(x) for x in melds_team[slot, (NATURALS, TWOS, JOKERS)])
        if n + t + j == 0:
            continue
        name = "wild" if slot == WILD_MELD else KIND_NAMES[slot]
        cards = " ".join([KIND_NAMES[slot]] * n + ["2"] * t + ["JK"] * j)
        parts.append(f"{name}[{cards}]{'*' if n + t + j >= CANASTA else ''}")
    return "  ".join(parts) if parts else "(none)"
