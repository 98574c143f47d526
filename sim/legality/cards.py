"""The Python layer: a meld given as cards, judged by the kernels (``judge_meld``)."""

from __future__ import annotations

import numpy as np

from sim import encoding as E
from sim.legality.melds import meld_reason
from sim.legality.opening import opening_meld_reason

__all__ = ["judge_meld"]


def meld_slot(counts: np.ndarray) -> tuple[int, int]:
    """(slot, reason) of a meld given as counts per kind: the one natural kind it holds, or
    WILD_MELD for wild cards only; reason R_OK, or why the cards are not one meld (MELD-1,
    DEAL-4)."""
    if counts.sum() == 0:
        return -1, E.R_EMPTY_MELD
    if counts[E.RED_THREE] or counts[E.BLACK_THREE]:
        return -1, E.R_THREE_MELDED  # DEAL-4
    naturals = [k for k in range(E.FIRST_NATURAL, E.N_KINDS) if counts[k] > 0]
    if len(naturals) > 1:
        return -1, E.R_MELD_MIXED_RANKS  # MELD-1: runs and mixed ranks are never melds
    return (naturals[0] if naturals else E.WILD_MELD), E.R_OK


def judge_meld(counts, melds, team, initial, going_out, rules) -> int:
    """Reason code for melding the cards ``counts`` (per kind) onto the team's position.
    ``initial``: as part of the team's opening turn, where OPEN-4 concerns the one meld too
    (the opening's totals, OPEN-1/2, concern the whole turn and are not judged here)."""
    slot, code = meld_slot(counts)
    if code != E.R_OK:
        return code
    nat = int(counts[slot]) if slot != E.WILD_MELD else 0
    two, joker = int(counts[E.TWO]), int(counts[E.JOKER])
    code = int(meld_reason(melds, team, slot, nat, two, joker, initial, going_out, rules))
    if code == E.R_OK and initial:
        code = int(opening_meld_reason(melds, team, slot, nat, two, joker))  # OPEN-4
    return code
