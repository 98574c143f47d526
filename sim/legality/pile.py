"""PILE-1, PILE-2: may a player take the discard pile; the rules core's work area."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import encoding as E
from sim._views import c_view, copy_into
from sim.legality.melds import is_dead, meld_size
from sim.legality.out import leave_reason
from sim.legality.search import SEARCH_TABLE_WORDS, opening_search

__all__ = []

PILE_MELD_LIMIT = 5  #: PILE-2: a meld of 5+ cannot take a pair and the top card

#: the rules core's work area (``E.SEARCH_WORK_SIZE`` words: ``sim.engine.views.tmp_search``
#: in the engine): the opening search's tables, then PILE-1/2's copies (``pile_reason_work``)
SEARCH_WORK_FIELDS = (
    ("search", SEARCH_TABLE_WORDS),  # back pointers, 2 layers, 2 lists
    ("hand", E.N_KINDS),  # the hand after the pickup pair (PILE-1)
    ("pending", E.N_KINDS * E.N_MELD_COLS),  # the pickup meld as the opening's pending melds
    ("plan", E.N_KINDS * E.N_MELD_COLS),  # the opening plan (not read)
    ("melds", E.N_TEAMS * E.N_KINDS * E.N_MELD_COLS),  # the table after the pickup meld
)
_SW, _SW_SIZE = E.layout(SEARCH_WORK_FIELDS)
_SW_HAND, _SW_PENDING, _SW_PLAN, _SW_MELDS = (_SW[k] for k in ("hand", "pending", "plan", "melds"))
_CELLS = E.N_KINDS * E.N_MELD_COLS
assert _SW_SIZE == E.SEARCH_WORK_SIZE


@njit(cache=True, _nrt=True)
def pile_reason(hand, melds, team, pile_counts, top_kind, opened, min_count, rules):
    """PILE-1/2: may a player of ``team`` holding ``hand`` take the pile?

    ``pile_counts``: the pile by kind (top card included); ``opened``: the team has made its
    initial meld; ``min_count``: its OPEN-1 minimum, used when it has not.
    """
    work = np.empty(E.SEARCH_WORK_SIZE, dtype=np.int64)
    return pile_reason_work(
        hand, melds, team, pile_counts, top_kind, opened, min_count, rules, work
    )


@njit(cache=True, _nrt=False)
def pile_reason_work(hand, melds, team, pile_counts, top_kind, opened, min_count, rules, work):
    """``pile_reason`` with its copies and the opening search's tables in ``work``
    (int64[SEARCH_WORK_SIZE], layout ``SEARCH_WORK_FIELDS``)."""
    size = 0
    for kind in range(E.N_KINDS):
        size += pile_counts[kind]
    if size == 0:
        return E.R_PILE_EMPTY
    if top_kind < E.FIRST_NATURAL:
        return E.R_PILE_TOP_WILD_OR_THREE
    if is_dead(melds, top_kind):
        return E.R_PILE_DEAD_RANK  # MELD-9
    if meld_size(melds, team, top_kind) >= PILE_MELD_LIMIT:
        return E.R_PILE_MELD_FULL
    if hand[top_kind] < 2:
        return E.R_PILE_NO_PAIR  # PILE-1: always frozen
    rest = work[_SW_HAND : _SW_HAND + E.N_KINDS]
    copy_into(rest, hand)
    rest[top_kind] -= 2
    if not opened:
        pending = c_view(work[_SW_PENDING : _SW_PENDING + _CELLS], (E.N_KINDS, E.N_MELD_COLS))
        pending[:] = 0
        pending[top_kind, E.NATURALS] = 2
        plan = c_view(work[_SW_PLAN : _SW_PLAN + _CELLS], (E.N_KINDS, E.N_MELD_COLS))
        search = work[:SEARCH_TABLE_WORDS]  # SEARCH_WORK_FIELDS: the search's tables come first
        got = opening_search(
            rest, pending, melds, top_kind, size - 1, rules, plan, False, 0, search
        )
        if got < min_count:
            return E.R_PILE_CANNOT_OPEN
        return E.R_OK
    # After the pickup meld the pile joins the hand, which must keep a card to discard (OUT-2).
    after = c_view(work[_SW_MELDS : _SW_MELDS + 2 * _CELLS], (E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS))
    copy_into(after, melds)
    after[team, top_kind, E.NATURALS] += 3
    for kind in range(E.N_KINDS):
        rest[kind] += pile_counts[kind]
    rest[top_kind] -= 1
    return leave_reason(rest, after, team)
