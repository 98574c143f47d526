"""OUT-1, OUT-2: may a team go out, and may melding leave this hand."""

from __future__ import annotations

from numba import njit

from sim import encoding as E
from sim.legality.melds import canastas, meld_size, meld_wilds, wild_meld_incomplete

__all__ = []


@njit(cache=True, _nrt=False)
def out_reason(melds, team):
    """OUT-1: may the team go out now?"""
    if canastas(melds, team) < 2:
        return E.R_OUT_CANASTAS
    if 0 < meld_size(melds, team, E.SEVEN) < E.CANASTA:
        return E.R_OUT_INCOMPLETE_SEVENS
    if 0 < meld_size(melds, team, E.ACE) < E.CANASTA and meld_wilds(melds, team, E.ACE) == 0:
        return E.R_OUT_INCOMPLETE_ACES
    if wild_meld_incomplete(melds, team):
        return E.R_OUT_INCOMPLETE_WILD
    return E.R_OK


@njit(cache=True, _nrt=False)
def leave_reason(hand_after, melds_after, team, bonus=False):
    """OUT-2: may melding leave this hand? A player not going out keeps a card to discard
    (threes never are, DISCARD-1) and a card to hold (any card, a kept three included); so
    keeping exactly one card means discarding it goes out, and OUT-1 must hold. Except that a
    player owed bonus cards (``bonus``, OPEN-5) needs only the card to discard."""
    total = 0
    for kind in range(E.N_KINDS):
        total += hand_after[kind]
    playable = total - hand_after[E.RED_THREE] - hand_after[E.BLACK_THREE]
    if playable <= 0:
        return E.R_MELD_LEAVES_NO_DISCARD  # OUT-2: no card to discard
    if total == 1 and not bonus:
        return out_reason(melds_after, team)  # OUT-2: no card to hold, so this goes out
    return E.R_OK
