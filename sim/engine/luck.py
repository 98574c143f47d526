"""The luck of the stock's draws in scripted play-outs: what a control variate needs.

``play_scripts_luck_kernel`` plays the hands of ``sim.engine.script.play_scripts_kernel``
exactly (the same deal from ``seed_hand(key, h)`` for every script, the same intercept, the
same records), and also writes, per (hand, script), the **centred draw counts** of each team:
for every card that left the stock into a hand during the play-out (a draw, TURN-1, or a
replacement for a laid three, DEAL-4), one at the drawn card's kind minus, at every kind, the
share of that kind among the stock's cards at that moment. Row ``[0]`` counts the fixed seat's
team's draws, row ``[1]`` the other team's. The card ``drawn`` fixed at the decision is no
chance event and is left out.

From the drawing player's view the stock is a uniform random order of its cards, so each
draw's term has mean zero given everything before it: any fixed linear function of these
counts has mean zero, and subtracting it from a hand's score leaves the mean unchanged while
taking out the part of the score that the cards' luck explains (``analysis.luck``). Only
draws that the hand's log holds are counted (``MAX_EVENTS``); stopping the sum early keeps
every term's mean zero.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from sim import encoding as E
from sim._views import copy_into
from sim.engine.intercept import IC_APPLIED, IC_SIZE
from sim.engine.play import chunk_kernel, finish_hand, hand_arrays, play_hand_loop
from sim.engine.position import PS_SEAT, PS_TURN
from sim.engine.script import deal_script, set_script
from sim.rng import seed_hand

__all__ = ["MAX_EVENTS", "play_scripts_luck_arrays"]

MAX_EVENTS = 4096  #: events a hand's log holds (a hand logs a few hundred)


# fmt: off
@chunk_kernel(
    types.int64[::1], types.int64[::1], types.int64[::1],  # template, pos, unseen
    types.int64[:, ::1],  # scripts
    types.int64,  # drawn card id or -1
    types.int64[:, ::1], types.int64[::1],  # out, applied
    types.float64[:, :, ::1],  # the centred draw counts, [row, team (0: fixed), kind]
    types.int64[::1],  # status
)
def play_scripts_luck_kernel(key, start, stop, pol0, pol1, params0, params1, rules,
                             template, pos, unseen, scripts, drawn, out, applied, luck, status):
    # fmt: on
    """``play_scripts_kernel``'s hands and records, and each row's centred draw counts."""
    st, obs, scratch, rng, items, _ = hand_arrays()
    log = np.zeros(1 + MAX_EVENTS * E.EVENT_WIDTH, dtype=np.int64)
    cards = np.empty(unseen.shape[0], dtype=np.int64)
    cache = np.zeros(E.PC_SIZE, dtype=np.int64)
    comp = np.zeros(E.N_KINDS, dtype=np.float64)
    m = scripts.shape[0]
    icpts = np.zeros((m, IC_SIZE), dtype=np.int64)
    for c in range(m):
        set_script(icpts[c], pos[PS_SEAT], pos[PS_TURN], scripts[c])
    team = pos[PS_SEAT] % E.N_TEAMS
    for h in range(start, stop):
        for c in range(m):
            seed_hand(key, h, rng)
            copy_into(cards, unseen)
            log[0] = 0
            deal_script(st, template, pos, cards, drawn, rng, log, rules)
            log[0] = 0  # the deal's own replacements are part of the deal, not of the play
            comp[:] = 0.0
            for i in range(st[E.ST_STOCK_N]):
                comp[E.CARD_KIND[st[E.ST_STOCK + i]]] += 1.0
            icpt = icpts[c]
            code = play_hand_loop(
                st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, log, 0, icpt
            )
            row = (h - start) * m + c
            if finish_hand(st, code, h, rules, items, out[row], status) != 0:
                return code
            applied[row] = icpt[IC_APPLIED]
            _centred_draws(log, comp, drawn, team, luck[row])
    return 0


@njit(cache=True)
def _centred_draws(log, comp, drawn, team, row):
    """Fill ``row`` [2, N_KINDS] from a hand's ``log`` (module docstring); ``comp``: the
    stock's counts by kind when play began (changed here)."""
    row[:, :] = 0.0
    left = 0.0
    for k in range(E.N_KINDS):
        left += comp[k]
    skip = drawn >= 0
    for e in range(log[0]):
        base = 1 + e * E.EVENT_WIDTH
        ev = log[base]
        if ev != E.EV_DRAW and ev != E.EV_REPLACE:
            continue
        kind = log[base + 2]
        if skip and ev == E.EV_DRAW and log[base + 3] == drawn:
            skip = False  # the card fixed at the decision: no chance event
        elif left > 0:
            t = 0 if log[base + 1] % E.N_TEAMS == team else 1
            for k in range(E.N_KINDS):
                row[t, k] -= comp[k] / left
            row[t, kind] += 1.0
        comp[kind] -= 1.0
        left -= 1.0


def play_scripts_luck_arrays(key, start, stop, players, arrays, scripts, drawn=-1):
    """``sim.engine.script.play_scripts_arrays`` with the centred draw counts:
    ``(records, applied, luck float64[rows, 2, N_KINDS])``, row ``(h - start) * n_scripts + c``."""
    from sim.engine.hands import call_kernel, check_range
    from sim.engine.script import check_scripts

    start, stop = check_range(start, stop, "hand")
    scripts = check_scripts(scripts)
    rows = (stop - start) * scripts.shape[0]
    out = np.zeros((rows, E.RECORD_WIDTH), dtype=np.int64)
    applied = np.zeros(rows, dtype=np.int64)
    luck = np.zeros((rows, E.N_TEAMS, E.N_KINDS), dtype=np.float64)
    inputs = tuple(np.ascontiguousarray(a, dtype=np.int64) for a in arrays)
    inputs += (scripts, int(drawn))
    call_kernel(play_scripts_luck_kernel, key, start, stop, players, inputs, (out, applied, luck))
    return out, applied.astype(bool), luck
