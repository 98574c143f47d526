"""Forced plans from a what-if position, compiled: play a fixed sequence of actions, then play on.

``canasta advise`` ranks whole-turn plans. A *script* is such a plan as the engine's action
ids, forced in order at the fixed seat's fixed turn (from its draw decision on: a keep-or-lay
threes decision, DEAL-5, stays the policy's); then the policies play the hand out. Deals are
those of ``sim.engine.position`` (``deal_position``: hand ``h`` shuffles the unseen cards from
``seed_hand(key, h)``), so every script meets the same unseen cards: paired comparisons.

``drawn`` (a card id, or -1) fixes the card the fixed player draws from the stock: it is taken
out of the unseen cards and put on top of the stock once the turn has begun (after the fixed
hand's threes are laid and replaced, DEAL-4), so a script ``[A_DRAW, ...]`` is the play step
after drawing that card.

The engine's one hand loop plays the script as its intercept (``sim.engine.intercept``,
``IK_SCRIPT``). A script step the rules refuse in a deal (``action_reason``) ends the script
there: the policy decides from that point and ``applied`` is 0 for that deal. At the play
step after a fixed draw every step is decided by the observation, which the position fixes,
so a plan legal on one deal is legal on all (``plans`` checks it on deal 0).

Kernel: ``play_scripts_kernel`` (several scripts on each deal); Python: ``script_arrays``
(check the position, remove the drawn card), ``play_scripts_arrays`` (compiled policies in,
records out) and ``plans`` (enumerate the distinct plans of the play step, legal by the
engine's own validator). Policy names and DataFrames are ``sim.api``'s (``sim.api.play_script``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from sim import encoding as E
from sim._views import copy_into
from sim.engine.intercept import (
    IC_APPLIED,
    IC_KIND,
    IC_N,
    IC_SCRIPT,
    IC_SEAT,
    IC_SIZE,
    IC_TURN,
    IK_SCRIPT,
    MAX_SCRIPT,
    NO_ACTION,
)
from sim.engine.judge import action_reason
from sim.engine.observe import observe
from sim.engine.play import chunk_kernel, finish_hand, hand_arrays, play_hand_loop
from sim.engine.position import (
    CH_POLICY,
    POSITION_ARGS,
    PS_SEAT,
    PS_STOCK_N,
    PS_TURN,
    RESULT_ARGS,
    deal_position,
)
from sim.engine.position import position_arrays as _position_arrays
from sim.engine.state import apply_action, may_keep_three
from sim.engine.views import scratch_tmp
from sim.errors import CanastaError
from sim.rng import seed_hand


@njit(cache=True)
def set_script(icpt, seat, turn, script):
    """``icpt`` made the intercept of ``script`` (padded with ``NO_ACTION``) at ``seat``'s
    turn ``turn``: its actions forced in order (``sim.engine.intercept``)."""
    n = 0
    while n < min(script.shape[0], MAX_SCRIPT) and script[n] != NO_ACTION:
        n += 1
    icpt[IC_KIND] = IK_SCRIPT
    icpt[IC_SEAT] = seat
    icpt[IC_TURN] = turn
    icpt[IC_N] = n
    for i in range(MAX_SCRIPT):
        icpt[IC_SCRIPT + i] = script[i] if i < n else NO_ACTION


@njit(cache=True)
def deal_script(st, template, pos, unseen, drawn, rng, log, rules):
    """``deal_position``, then (``drawn`` >= 0) that card on top of the stock: dealt after the
    turn began, so the fixed hand's threes were replaced from the random stock (DEAL-4)."""
    deal_position(st, template, pos, unseen, rng, log, rules)
    if drawn >= 0:
        n = st[E.ST_STOCK_N]
        st[E.ST_STOCK + n] = drawn
        st[E.ST_STOCK_N] = n + 1
        st[E.ST_TURN_CARD_DRAWN] = 1 if n + 1 <= E.TURN_CARD_FROM_BOTTOM - 1 else 0  # DEAL-3


# fmt: off
@chunk_kernel(
    *POSITION_ARGS,  # template, pos, unseen (the drawn card removed)
    types.int64[:, ::1],  # scripts
    types.int64,  # drawn card id or -1
    *RESULT_ARGS,  # out, applied, status
)
def play_scripts_kernel(key, start, stop, pol0, pol1, params0, params1, rules,
                        template, pos, unseen, scripts, drawn, out, applied, status):
    # fmt: on
    """Hands ``start..stop-1``, each played once per script: hand ``h`` with script ``c`` is
    dealt and played from ``seed_hand(key, h)`` (the same unseen cards for every script); its
    record goes to ``out[(h - start) * n_scripts + c]``."""
    st, obs, scratch, rng, items, log = hand_arrays()
    cards = np.empty(unseen.shape[0], dtype=np.int64)
    cache = np.zeros(E.PC_SIZE, dtype=np.int64)  # the opening plan of check_action
    m = scripts.shape[0]
    icpts = np.zeros((m, IC_SIZE), dtype=np.int64)  # each script's intercept
    for c in range(m):
        set_script(icpts[c], pos[PS_SEAT], pos[PS_TURN], scripts[c])
    for h in range(start, stop):
        for c in range(m):
            seed_hand(key, h, rng)
            copy_into(cards, unseen)
            deal_script(st, template, pos, cards, drawn, rng, log, rules)
            icpt = icpts[c]
            code = play_hand_loop(
                st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, log, 0, icpt
            )
            row = (h - start) * m + c
            if finish_hand(st, code, h, rules, items, out[row], status) != 0:
                return code
            applied[row] = icpt[IC_APPLIED]
    return 0


# ---------------------------------------------------------------------------------------
# Python: the position with a drawn card, the plans of the play step, the kernel's caller
# ---------------------------------------------------------------------------------------
def script_arrays(position, drawn: int = -1, ruleset=None):
    """``(template, pos, unseen)`` of ``position`` (``position_arrays``, policy choice) with
    the ``drawn`` card id (-1: none) taken out of the unseen cards, to be put on the stock."""
    template, pos, unseen = _position_arrays(position, "policy", ruleset)
    pos[2] = CH_POLICY
    _mark_kept_three(template, int(pos[PS_SEAT]), ruleset)
    if drawn < 0:
        return template, pos, unseen
    from sim.cards import format_card

    name = format_card(drawn)
    kind = E.CARD_KIND[drawn]
    same = unseen[E.CARD_KIND[unseen] == kind]
    known = template[E.ST_KNOWN + kind : E.ST_KNOWN + E.N_PLAYERS * E.N_KINDS : E.N_KINDS].sum()
    stand_in = drawn
    if drawn not in set(unseen.tolist()) and known > 0 and same.size > 0:
        # a copy the public card memory took for a hand: suits never matter, so that hand
        # holds another unseen copy of the kind instead
        stand_in = int(same[0])
    elif drawn not in set(unseen.tolist()):
        raise CanastaError(
            f"CARD-1: the drawn card {name} is already fixed in the position"
            + (" or known in another hand" if known > 0 else "")
        )
    if E.IS_THREE[E.CARD_KIND[drawn]]:
        raise CanastaError(
            f"DEAL-4: a drawn three ({name}) is laid and replaced at once; give the card drawn "
            "in its place"
        )
    if pos[PS_STOCK_N] < 1:
        raise CanastaError("END-1: the stock is empty, so no card can be drawn from it")
    return template, pos, unseen[unseen != stand_in]


def _mark_kept_three(template, seat: int, ruleset) -> None:
    """DEAL-4/5 for an advised position (the draw or the play step, after the turn's threes):
    a three the fixed hand still holds is the one kept toward a Straight, so it is marked kept
    in ``template`` (the turn's start then lays nothing and asks nothing). Any other three in
    hand is refused: threes are laid before the draw."""
    from sim.ruleset import as_ruleset

    base = E.ST_HANDS + seat * E.N_KINDS
    red, black = int(template[base + E.RED_THREE]), int(template[base + E.BLACK_THREE])
    if red + black == 0:
        return
    if red + black > 1:
        raise CanastaError(
            f"DEAL-4: the hand holds {red + black} threes at the draw; threes are laid at the "
            "start of the turn, and a hand keeps at most one (toward a Straight, DEAL-5)"
        )
    rules = np.ascontiguousarray(as_ruleset(ruleset).to_array())
    if not may_keep_three(template, seat, rules):  # the engine's own DEAL-5 test
        why = (
            " though its team has melded; a kept three is laid at the start of the turn once "
            "the team has melded"
            if template[E.ST_OPENED + seat % E.N_TEAMS] == 1
            else ", but the special hands in force have no Straight to keep it for; threes are "
            "laid at the start of the turn"
        )
        raise CanastaError(f"DEAL-5: the hand holds a three{why}")
    template[E.ST_KEPT + seat] = E.RED_THREE if red else E.BLACK_THREE


def check_scripts(scripts) -> np.ndarray:
    """``scripts`` as an int64[n_scripts, width] array, each row at most ``MAX_SCRIPT``
    actions before its ``NO_ACTION`` padding (a CanastaError otherwise)."""
    arr = np.ascontiguousarray(np.atleast_2d(scripts), dtype=np.int64)
    for i, row in enumerate(arr):
        pad = np.flatnonzero(row == NO_ACTION)
        n = int(pad[0]) if pad.size else row.size
        if n > MAX_SCRIPT:
            raise CanastaError(f"script {i}: {n} actions; a script holds at most {MAX_SCRIPT}")
    return arr


def play_scripts_arrays(key, start, stop, players, arrays, scripts, drawn=-1):
    """Hands ``start..stop-1`` from a checked position (``arrays``: ``script_arrays``' template, pos
    and unseen; ``players``: ``sim.engine.hands.Players``) with every script (rows of ``scripts``,
    padded with ``NO_ACTION``): ``(records int64[n * n_scripts, RECORD_WIDTH], applied bool[...])``,
    row ``(h - start) * n_scripts + c`` for hand ``h`` and script ``c``."""
    from sim.engine.hands import call_kernel, check_range

    start, stop = check_range(start, stop, "hand")
    scripts = check_scripts(scripts)
    m = scripts.shape[0]
    out = np.zeros(((stop - start) * m, E.RECORD_WIDTH), dtype=np.int64)
    applied = np.zeros((stop - start) * m, dtype=np.int64)
    inputs = tuple(np.ascontiguousarray(a, dtype=np.int64) for a in arrays)
    inputs += (scripts, int(drawn))
    call_kernel(play_scripts_kernel, key, start, stop, players, inputs, (out, applied))
    return out, applied.astype(bool)


def decision_state(template, pos, unseen, drawn, rules_arr, key, hand: int = 0):
    """The state at the fixed player's first decision of its turn in deal ``hand`` (threes
    laid, DEAL-4; a DEAL-5 keep-or-lay decision left as it is), and with ``drawn`` >= 0 after
    drawing it: the position of the play step."""
    from sim.engine.play import hand_arrays as arrays

    st, _obs, _scratch, rng, _items, log = arrays()
    seed_hand(np.ascontiguousarray(key, dtype=np.uint64), hand, rng)
    cards = np.array(unseen, dtype=np.int64)
    deal_script(st, template, pos, cards, drawn, rng, log, rules_arr)
    if drawn >= 0:
        apply_action(st, E.A_DRAW, rules_arr, log)
    return st


def _meld_ops(hand, touched, max_wilds):
    """Canonical meld operations from ``hand`` (counts per kind): each natural rank not yet
    touched this turn melded whole (all its naturals, at most a canasta's worth) with 0 to
    ``max_wilds`` wild cards, twos before jokers; wilds alone on a rank's table meld; the wild
    meld (MELD-8) with every wild held or with the fewest (3, twos first)."""
    twos, jokers = int(hand[E.TWO]), int(hand[E.JOKER])
    ops = []
    for slot in range(E.FIRST_NATURAL, E.N_KINDS):
        if slot in touched:
            continue
        nat = min(int(hand[slot]), E.CANASTA)
        for w in range(min(max_wilds, E.MAX_OP_WILDS, twos + jokers) + 1):
            t = min(w, twos)
            j = w - t
            if nat + t + j == 0:
                continue
            a = int(E.MELD_ACTION[slot, nat, t, j])
            if a >= 0:
                ops.append((slot, a))
    if E.WILD_MELD not in touched and twos + jokers >= 1:
        every = (min(twos, E.CANASTA), min(jokers, E.MAX_WILD_MELD_JOKERS))
        t = min(twos, 3)
        fewest = (t, min(jokers, 3 - t))  # MELD-1: the smallest wild meld, twos first
        for t, j in sorted({every, fewest}):
            a = int(E.MELD_ACTION[E.WILD_MELD, 0, t, j])
            if a >= 0:
                ops.append((E.WILD_MELD, a))
    return ops


def plans(st, rules_arr, max_wilds: int = E.MAX_OP_WILDS, limit: int = 20_000):
    """The distinct plans of the play step from state ``st`` (the fixed player to act, phase
    play): a list of action-id tuples, each a sequence of meld operations ending in a discard
    (the last card: going out, OUT-1/2) or a declared special hand (SPECIAL-1). Operations are
    ``_meld_ops``'s canonical ones, every step judged legal by ``action_reason`` on the state it
    meets; plans that leave the same table, hand and discard are one plan. ``limit`` bounds the
    states searched (a CanastaError past it)."""
    from sim.engine.state import apply_action as apply

    if st[E.ST_PHASE] != E.PH_PLAY:
        raise CanastaError("the fixed player is not at the play step of its turn")
    obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    tmp = scratch_tmp(np.zeros(E.SCRATCH_SIZE, dtype=np.int64))
    log = np.zeros(1, dtype=np.int64)
    p = int(st[E.ST_PLAYER])
    out: dict[tuple, tuple] = {}
    seen: set[bytes] = set()
    stack = [(st.copy(), (), frozenset())]
    n = 0
    while stack:
        s, path, touched = stack.pop()
        key = s.tobytes()
        if key in seen:
            continue
        seen.add(key)
        n += 1
        if n > limit:
            raise CanastaError(f"more than {limit} meld plans from this hand; give fewer cards")
        observe(s, p, obs)
        if not path and action_reason(obs, E.A_DECLARE, rules_arr, tmp) == E.R_OK:
            out.setdefault(("declare", key), (E.A_DECLARE,))
        hand = obs[E.OB_HAND : E.OB_HAND + E.N_KINDS].copy()
        for k in range(E.N_KINDS):
            if hand[k] > 0 and action_reason(obs, E.A_DISCARD + k, rules_arr, tmp) == E.R_OK:
                out.setdefault((key, k), (*path, E.A_DISCARD + k))
        for slot, a in _meld_ops(hand, touched, max_wilds):
            if action_reason(obs, a, rules_arr, tmp) != E.R_OK:
                continue
            nxt = s.copy()
            apply(nxt, a, rules_arr, log)
            if nxt[E.ST_PHASE] != E.PH_PLAY or nxt[E.ST_PLAYER] != p:
                continue  # not a meld that keeps the turn (never expected)
            stack.append((nxt, (*path, a), touched | {slot}))
    return sorted(out.values(), key=lambda t: (len(t), t))


__all__ = ["NO_ACTION", "decision_state", "plans", "script_arrays"]
