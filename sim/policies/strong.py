"""The ``strong`` policy (issue 13): the heuristic's kernel, four more decision features, and
learned parameters.

``strong`` plays the heuristic's game (``sim.policies.builtin``: its draw, opening, wild-card
and risky-meld logic, called as is) with its play step and its discard rebuilt here so that
four constants the heuristic fixes are parameters (``EXTRA_TABLE``): how long to hold a pair
rather than start a natural meld (keeping pairs keeps the pile takeable, PILE-1), and the
weights of the discard choice that the heuristic hard-codes. At their neutral values
(``EXTRA_TABLE``'s defaults) every decision is the heuristic's (tested).

All the parameters are learned by black-box optimisation on duplicate deals against a pool of
opponents (``analysis.training``, ``canasta train``). The values ship in
``sim/policies/data/strong.json`` beside the training settings, seed, command and measured
margin; they are the registry's defaults, each overridable like the heuristic's
(``strong:sevens_threshold=6``). Running ``strong`` needs only the engine (and ``json``).
"""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
from numba import njit

from sim import encoding as E
from sim._views import opaque
from sim.engine.judge import action_ok, action_reason
from sim.engine.views import ob_hand, ob_melds, ob_pending, scratch_tmp
from sim.errors import CanastaError
from sim.legality import is_dead, meld_size, opening_reason, out_reason
from sim.policies.builtin import (
    H_COMPLETE_WITH_WILDS,
    H_DUMP_WEIGHT,
    H_FEED_WEIGHT,
    H_OPEN_RISKY,
    H_SAFE_WEIGHT,
    H_SHED_STOCK,
    HEURISTIC_TABLE,
    NO_KEY,
    _finish_with_wilds,
    _late,
    _risky_start_mask,
    _safe_opening,
    _take_pile_ok,
    _unseen,
)
from sim.policies.common import largest_meld, opening_step, work_keys

DATA_FILE = "strong.json"  #: in the package ``sim.policies.data``
DATA_VERSION = 2  #: the layout of the data file this module reads (2: the heuristic's + EXTRA)

#: strong's own parameters after the heuristic's (name, neutral value = the heuristic's
#: behaviour, meaning)
EXTRA_TABLE = (
    (
        "new_meld_min",
        2.0,
        "once opened and not late, start a new natural meld from hand only holding at least "
        "this many of the rank (MELD-1/4; 2: whenever legal, the heuristic's play); a pair held "
        "back keeps the pile takeable (PILE-1)",
    ),
    ("pair_keep", 10.0, "discard choice: value of each further copy of a rank held"),
    ("meld_keep", 25.0, "discard choice: value of a rank the team has an unfinished meld of"),
    (
        "early_dump",
        0.2,
        "discard choice before the hand is late: weight of a card's value (the late weight is "
        "dump_weight)",
    ),
)
N_HEURISTIC = len(HEURISTIC_TABLE)  #: strong's parameters: the heuristic's, then EXTRA_TABLE's
S_NEW_MELD_MIN = N_HEURISTIC
S_PAIR_KEEP = N_HEURISTIC + 1
S_MELD_KEEP = N_HEURISTIC + 2
S_EARLY_DUMP = N_HEURISTIC + 3
NEUTRAL = {name: default for name, default, _ in (*HEURISTIC_TABLE, *EXTRA_TABLE)}


def load_data() -> dict:
    """The shipped parameters and their training record (``sim/policies/data/strong.json``)."""
    text = resources.files("sim.policies.data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    if data.get("version") != DATA_VERSION:
        raise CanastaError(
            f"{DATA_FILE}: version {data.get('version')!r}, this build reads {DATA_VERSION}"
        )
    if sorted(data.get("parameters", {})) != sorted(NEUTRAL):
        raise CanastaError(f"{DATA_FILE}: expected the parameters {', '.join(NEUTRAL)}")
    return data


def strong_table() -> tuple[tuple[str, float, str], ...]:
    """(name, learned default, meaning): the heuristic's table then EXTRA_TABLE, with the
    shipped values as defaults."""
    params = load_data()["parameters"]
    return tuple((n, float(params[n]), doc) for n, _, doc in (*HEURISTIC_TABLE, *EXTRA_TABLE))


@njit(cache=True)
def strong_discard(obs, params, rules, scratch):
    """``sim.policies.builtin.safe_discard`` with its keep weights as parameters (pair_keep,
    meld_keep, early_dump); DISCARD-* legality checked in order of preference."""
    hand = ob_hand(obs)
    melds = ob_melds(obs)
    tmp = scratch_tmp(scratch)
    late = _late(obs, params)
    keys = work_keys(scratch)
    for k in range(E.N_KINDS):
        if hand[k] == 0 or k == E.RED_THREE or k == E.BLACK_THREE:
            keys[k] = NO_KEY  # DISCARD-1
            continue
        keep = 0.0
        if k == E.JOKER or k == E.TWO:
            keep = 1000.0
        elif is_dead(melds, k):
            keep = -30.0 - E.KIND_VALUE[k]  # MELD-9: no use, and it blocks the pile (PILE-2)
            if (k == E.SEVEN or k == E.ACE) and hand[k] >= 3:
                keep -= 60.0  # SCORE-4
        else:
            keep = params[S_PAIR_KEEP] * (hand[k] - 1)
            if meld_size(melds, 0, k) > 0 and meld_size(melds, 0, k) < E.CANASTA:
                keep += params[S_MELD_KEEP]
            if (k == E.SEVEN or k == E.ACE) and hand[k] >= 3 and meld_size(melds, 0, k) == 0:
                if late or obs[E.OB_STOCK_N] <= params[H_SHED_STOCK]:
                    keep -= 60.0  # SCORE-4: shed a third seven/ace it does not meld
            risk = 0.0
            opp = meld_size(melds, 1, k)
            if not is_dead(melds, k) and opp < 5:
                u = _unseen(obs, melds, k)
                if u >= 2:  # PILE-1: the next player may hold a pair of it
                    risk = u / 8.0 * (3.0 + obs[E.OB_PILE_N])
                    if opp > 0:
                        risk *= 1.0 + params[H_FEED_WEIGHT]
            keep += params[H_SAFE_WEIGHT] * risk
            w = params[H_DUMP_WEIGHT] if late else params[S_EARLY_DUMP]
            keep -= E.KIND_VALUE[k] * w  # SCORE-5: high cards cost more if left in hand
        keys[k] = np.int64(keep * 1000.0)
    for _ in range(E.N_KINDS):
        best_k, best = -1, NO_KEY
        for k in range(E.N_KINDS):
            if keys[k] < best:
                best_k, best = k, keys[k]
        if best_k < 0:
            break
        if action_reason(obs, E.A_DISCARD + best_k, rules, tmp) == E.R_OK:
            return E.A_DISCARD + best_k
        keys[best_k] = NO_KEY
    return -1


@njit(cache=True)
def _hold_mask(obs, params):
    """Bits of natural ranks whose new meld strong holds back (new_meld_min): once opened and
    not late, a rank held fewer than new_meld_min times stays in hand as a pair (PILE-1)."""
    if obs[E.OB_OPENED] == 0 or _late(obs, params):
        return 0
    hand = ob_hand(obs)
    mask = 0
    for k in range(E.FIRST_NATURAL, E.N_KINDS):
        if hand[k] < params[S_NEW_MELD_MIN]:
            mask |= 1 << k
    return mask


@njit(cache=True)
def strong_play(obs, params, rules, scratch):
    """One play step: ``sim.policies.builtin.heuristic_play`` with strong's discard and its
    held-back new melds (never when the team may go out, OUT-1)."""
    tmp = scratch_tmp(scratch)
    if obs[E.OB_OPENING_TURN] == 1 and obs[E.OB_OPENED] == 0:
        a = _safe_opening(obs, params, rules, scratch)
        if a == -2 and params[H_OPEN_RISKY] > 0:
            a = opening_step(obs, rules, scratch)
        elif a < 0 and obs[E.OB_MELDED] == 1:
            melds = ob_melds(obs)
            pk, mc = obs[E.OB_PILE_KIND], obs[E.OB_OPEN_MIN]
            if opening_reason(ob_pending(obs), melds, opaque(0), pk, mc) != E.R_OK:
                a = opening_step(obs, rules, scratch)  # OPEN-1: once begun it must stand
        if a >= 0:
            return a
        if obs[E.OB_MELDED] == 0:
            return strong_discard(obs, params, rules, scratch)  # cannot open yet
    mask = _risky_start_mask(obs, params)
    if out_reason(ob_melds(obs), opaque(0)) == E.R_OK:
        a = largest_meld(obs, rules, scratch, opaque(True), mask)  # OUT-1 holds: meld out
        if a >= 0:
            return a
    a = largest_meld(obs, rules, scratch, opaque(False), mask | _hold_mask(obs, params))
    if a >= 0:
        return a
    late = _late(obs, params)
    a = _finish_with_wilds(obs, rules, scratch, params[H_COMPLETE_WITH_WILDS] == 0 or late)
    if a >= 0:
        return a
    hand = ob_hand(obs)
    if meld_size(ob_melds(obs), 0, E.WILD_MELD) == 0 and not (mask >> E.WILD_MELD) & 1:
        w = min(hand[E.TWO] + hand[E.JOKER], E.CANASTA)
        two = min(w, hand[E.TWO])
        a = E.MELD_ACTION[E.WILD_MELD, 0, two, w - two] if w - two <= 4 else -1
        if a >= 0 and action_ok(obs, a, rules, tmp):
            return a
    return strong_discard(obs, params, rules, scratch)


@njit(cache=True)  # compiled to POLICY_SIGNATURE when first played (registry)
def strong_decide(obs, params, rng, rules, scratch):
    """The heuristic's draw and declaration; strong's play step (``strong_play``)."""
    phase = obs[E.OB_PHASE]
    if phase == E.PH_THREES:
        return E.A_LAY_THREES
    if phase == E.PH_DRAW:
        return E.A_TAKE_PILE if _take_pile_ok(obs, params, rules, scratch) else E.A_DRAW
    if action_ok(obs, E.A_DECLARE, rules, scratch_tmp(scratch)):  # as the heuristic (fast)
        return E.A_DECLARE
    return strong_play(obs, params, rules, scratch)
