"""Debug mode's invariants of an engine state (``play_hands(..., debug=True)``, the tests).

Every card accounted for exactly once (CARD-1), every meld on the table a legal meld
(MELD-*), the pile's kinds and counts in agreement, no negative count: ``INV_OK`` or the
``INV_*`` code of the first that fails.
"""

from __future__ import annotations

from numba import njit

from sim import encoding as E
from sim.engine.views import st_hands, st_melds, tmp_hand, tmp_leave, tmp_melds
from sim.legality import meld_reason

__all__ = []


@njit(cache=True, _nrt=False)
def check_invariants(st, rules, tmp):
    """Debug mode: every card accounted for once, every meld legal, the pile consistent."""
    total = tmp_hand(tmp)
    total[:] = 0
    hands = st_hands(st)
    melds = st_melds(st)
    for p in range(E.N_PLAYERS):
        for k in range(E.N_KINDS):
            if hands[p, k] < 0:
                return E.INV_NEGATIVE
            total[k] += hands[p, k]
    for t in range(E.N_TEAMS):
        for s in range(E.N_KINDS):
            if melds[t, s, E.NATURALS] < 0 or melds[t, s, E.TWOS] < 0 or melds[t, s, E.JOKERS] < 0:
                return E.INV_NEGATIVE
            total[s] += melds[t, s, E.NATURALS]
            total[E.TWO] += melds[t, s, E.TWOS]
            total[E.JOKER] += melds[t, s, E.JOKERS]
        total[E.RED_THREE] += st[E.ST_THREES + 2 * t]
        total[E.BLACK_THREE] += st[E.ST_THREES + 2 * t + 1]
    for i in range(st[E.ST_STOCK_N]):
        total[E.CARD_KIND[st[E.ST_STOCK + i]]] += 1
    pc = tmp_leave(tmp)
    pc[:] = 0
    for i in range(st[E.ST_PILE_N]):
        pc[st[E.ST_PILE + i]] += 1
    for k in range(E.N_KINDS):
        if pc[k] != st[E.ST_PILE_COUNTS + k]:
            return E.INV_PILE
        total[k] += pc[k] + st[E.ST_ASIDE + k]
    for k in range(E.N_KINDS):
        if total[k] != E.KIND_COPIES[k]:
            return E.INV_CARDS
    empty = tmp_melds(tmp)
    empty[:] = 0
    for t in range(E.N_TEAMS):
        for s in range(E.N_KINDS):
            size = melds[t, s, E.NATURALS] + melds[t, s, E.TWOS] + melds[t, s, E.JOKERS]
            if size == 0:
                continue
            if s != E.WILD_MELD and s < E.FIRST_NATURAL:
                return E.INV_MELD
            nat, two, joker = melds[t, s, E.NATURALS], melds[t, s, E.TWOS], melds[t, s, E.JOKERS]
            if size > E.CANASTA and rules[E.RS_ALLOW_LONG_MELD_GOING_OUT] == 1:
                # MELD-2 variant: wilds beyond 7 by a player going out; judge the first seven
                extra = size - E.CANASTA
                cut = min(extra, two)
                two -= cut
                joker -= extra - cut
                if joker < 0:
                    return E.INV_MELD
            r = meld_reason(empty, t, s, nat, two, joker, True, True, rules)
            if r != E.R_OK:
                return E.INV_MELD
    return E.INV_OK
