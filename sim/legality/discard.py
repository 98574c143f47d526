"""DISCARD-1..3: may a card be discarded."""

from __future__ import annotations

from numba import njit

from sim import encoding as E
from sim.legality.melds import is_dead

__all__ = []


@njit(cache=True, _nrt=False)
def _discard_basic(hand, kind):
    """DISCARD-1/2 alone: may ``kind`` be discarded, ignoring DISCARD-3?"""
    if hand[kind] <= 0:
        return E.R_NOT_HELD
    if kind == E.RED_THREE or kind == E.BLACK_THREE:
        return E.R_DISCARD_THREE  # DISCARD-1
    if kind == E.JOKER or kind == E.TWO:
        total = 0
        for k in range(E.N_KINDS):
            total += hand[k]
        only_wild = hand[E.JOKER] + hand[E.TWO] + hand[E.RED_THREE] + hand[E.BLACK_THREE] == total
        if total != 1 and not only_wild:
            return E.R_DISCARD_WILD  # DISCARD-2 (going out, or nothing but wilds besides threes)
    return E.R_OK


@njit(cache=True, _nrt=False)
def _restricted_on_empty(melds, kind):
    """DISCARD-3: cards that may not go onto an empty pile while another discard is legal."""
    return (
        kind == E.SEVEN or kind == E.ACE or kind == E.JOKER or kind == E.TWO or is_dead(melds, kind)
    )


@njit(cache=True, inline="always")
def restricted_on_empty(melds, kind):
    """DISCARD-3: ``kind`` may not go onto an empty pile while another discard is legal (for
    callers judging every discard at once, ``sim.engine.judge.legal_actions``)."""
    return _restricted_on_empty(melds, kind)


@njit(cache=True, _nrt=False)
def discard_reason(hand, kind, melds, pile_size):
    """DISCARD-1..3: may ``kind`` be discarded from ``hand``? (Going out, when it is the last
    card, is judged by ``out_reason``.)"""
    code = _discard_basic(hand, kind)
    if code != E.R_OK:
        return code
    if pile_size == 0 and _restricted_on_empty(melds, kind):
        for other in range(E.N_KINDS):
            if other != kind and _discard_basic(hand, other) == E.R_OK:
                if not _restricted_on_empty(melds, other):
                    return E.R_DISCARD_EMPTY_PILE  # DISCARD-3
    return E.R_OK
