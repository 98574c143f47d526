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
from sim._views import c_view, copy_into, opaque
from sim.engine.judge import action_ok, pile_may_open
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
    finish_with_wilds,
    hand_is_late,
    risky_start_mask,
    safe_opening,
    take_pile_ok,
    unseen_copies,
)
from sim.policies.common import POLICY_WORK_SIZE, largest_meld, opening_step, work_keys
from sim.policies.strong_features import (
    K_DISCARD,
    K_PICKUP,
    K_START,
    N_FEATURES,
    check_layout,
    context,
    discard_features,
    pickup_features,
    score,
    start_features,
)

__all__ = [
    "DATA_FILE",
    "DATA_VERSION",
    "DISCARD_CANDIDATES",
    "EVALUATOR_WORK_FIELDS",
    "EW_CANDS",
    "EW_KEEPS",
    "EW_KINDS",
    "EW_MASKED",
    "EW_PHI",
    "EXTRA_TABLE",
    "MAX_CANDIDATES",
    "NEUTRAL",
    "N_HEURISTIC",
    "N_STRONG",
    "S_EARLY_DUMP",
    "S_EVALUATOR",
    "S_MELD_KEEP",
    "S_NEW_MELD_MIN",
    "S_PAIR_KEEP",
    "TUNED_NAMES",
    "discard_order",
    "ev_cands",
    "ev_keeps",
    "ev_kinds",
    "ev_masked",
    "ev_phi",
    "evaluator_on",
    "hide_slot",
    "load_data",
    "risky_slot",
    "start_action",
    "strong_base_decide",
    "strong_candidates",
    "strong_decide",
    "strong_discard",
    "strong_play",
    "strong_table",
    "strong_weights",
]

DATA_FILE = "strong.json"  #: in the package ``sim.policies.data``
DATA_VERSION = 3  #: the data file's layout (3: the heuristic's + EXTRA, the evaluator's weights)

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
    (
        "evaluator",
        0.0,
        "1: at the draw with a takeable pile, the discard and the start of a sevens/aces/wild "
        "meld, play the candidate move the learned evaluator scores best "
        "(sim.policies.strong_features); 0: the base move (the four extras' play)",
    ),
)
N_HEURISTIC = len(HEURISTIC_TABLE)  #: strong's parameters: the heuristic's, then EXTRA_TABLE's
S_NEW_MELD_MIN = N_HEURISTIC
S_PAIR_KEEP = N_HEURISTIC + 1
S_MELD_KEEP = N_HEURISTIC + 2
S_EARLY_DUMP = N_HEURISTIC + 3
S_EVALUATOR = N_HEURISTIC + 4
N_STRONG = N_HEURISTIC + len(EXTRA_TABLE)  #: named parameters; the evaluator's weights follow
NEUTRAL = {name: default for name, default, _ in (*HEURISTIC_TABLE, *EXTRA_TABLE)}
#: the parameters the black-box stage tunes (``analysis.training``): all but the evaluator's
TUNED_NAMES = tuple(name for name in NEUTRAL if name != "evaluator")


def load_data(data: dict | None = None, source: str = DATA_FILE) -> dict:
    """The shipped parameters and their training record (``sim/policies/data/strong.json``),
    or ``data`` (a data file read elsewhere, named ``source`` in errors), checked."""
    if data is None:
        path = resources.files("sim.policies.data").joinpath(DATA_FILE)
        data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("version") != DATA_VERSION:
        version = data.get("version") if isinstance(data, dict) else None
        raise CanastaError(f"{source}: version {version!r}, this build reads {DATA_VERSION}")
    if sorted(data.get("parameters", {})) != sorted(NEUTRAL):
        raise CanastaError(f"{source}: expected the parameters {', '.join(NEUTRAL)}")
    evaluator = data.get("evaluator", {})
    check_layout(evaluator.get("features", ()))
    if len(evaluator.get("weights", ())) != N_FEATURES:
        raise CanastaError(f"{source}: expected {N_FEATURES} evaluator weights")
    return data


def strong_weights() -> np.ndarray:
    """The evaluator's shipped weights, in ``FEATURE_TABLE``'s order (the parameter arrays'
    tail after the named parameters)."""
    return np.array(load_data()["evaluator"]["weights"], dtype=np.float64)


def strong_table() -> tuple[tuple[str, float, str], ...]:
    """(name, learned default, meaning): the heuristic's table then EXTRA_TABLE, with the
    shipped values as defaults."""
    params = load_data()["parameters"]
    return tuple((n, float(params[n]), doc) for n, _, doc in (*HEURISTIC_TABLE, *EXTRA_TABLE))


@njit(cache=True, _nrt=False)
def _discard_keys(obs, params, keys):
    """The keep value (x 1000) of discarding each kind, lowest first: ``safe_discard``'s with
    its keep weights as parameters (pair_keep, meld_keep, early_dump); NO_KEY for a kind not
    held or a three (DISCARD-1)."""
    hand = ob_hand(obs)
    melds = ob_melds(obs)
    late = hand_is_late(obs, params)
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
                u = unseen_copies(obs, melds, k)
                if u >= 2:  # PILE-1: the next player may hold a pair of it
                    risk = u / 8.0 * (3.0 + obs[E.OB_PILE_N])
                    if opp > 0:
                        risk *= 1.0 + params[H_FEED_WEIGHT]
            keep += params[H_SAFE_WEIGHT] * risk
            w = params[H_DUMP_WEIGHT] if late else params[S_EARLY_DUMP]
            keep -= E.KIND_VALUE[k] * w  # SCORE-5: high cards cost more if left in hand
        keys[k] = np.int64(keep * 1000.0)


@njit(cache=True, _nrt=False)
def _next_discard(obs, keys, rules, tmp):
    """The kind of lowest key whose discard is legal (DISCARD-*), -1 if none; the kinds of
    lower key, refused, get NO_KEY (the chosen one keeps its key)."""
    for _ in range(E.N_KINDS):
        best_k, best = -1, NO_KEY
        for k in range(E.N_KINDS):
            if keys[k] < best:
                best_k, best = k, keys[k]
        if best_k < 0:
            return -1
        if action_ok(obs, E.A_DISCARD + best_k, rules, tmp):
            return best_k
        keys[best_k] = NO_KEY
    return -1


@njit(cache=True, _nrt=False)
def discard_order(obs, params, rules, scratch, kinds, keeps, limit, fresh):
    """The first ``limit`` legal discards (DISCARD-*) in strong's order of preference: their
    kinds and keep values in ``kinds``/``keeps``; returns how many (0: no legal discard).
    ``fresh``: the scratch's keys are those ``strong_discard`` left for this observation (it
    refused only kinds before its choice, as illegal), so they are not computed again."""
    tmp = scratch_tmp(scratch)
    keys = work_keys(scratch)
    if not fresh:
        _discard_keys(obs, params, keys)
    n = 0
    while n < limit:
        k = _next_discard(obs, keys, rules, tmp)
        if k < 0:
            break
        kinds[n] = k
        keeps[n] = keys[k] / 1000.0
        keys[k] = NO_KEY
        n += 1
    return n


@njit(cache=True, _nrt=False)
def strong_discard(obs, params, rules, scratch):
    """``sim.policies.builtin.safe_discard`` with its keep weights as parameters (pair_keep,
    meld_keep, early_dump); DISCARD-* legality checked in order of preference."""
    keys = work_keys(scratch)
    _discard_keys(obs, params, keys)
    k = _next_discard(obs, keys, rules, scratch_tmp(scratch))
    return E.A_DISCARD + k if k >= 0 else -1


@njit(cache=True, _nrt=False)
def _hold_mask(obs, params):
    """Bits of natural ranks whose new meld strong holds back (new_meld_min): once opened and
    not late, a rank held fewer than new_meld_min times stays in hand as a pair (PILE-1)."""
    if obs[E.OB_OPENED] == 0 or hand_is_late(obs, params):
        return 0
    hand = ob_hand(obs)
    mask = 0
    for k in range(E.FIRST_NATURAL, E.N_KINDS):
        if hand[k] < params[S_NEW_MELD_MIN]:
            mask |= 1 << k
    return mask


@njit(cache=True, _nrt=False)
def strong_play(obs, params, rules, scratch):
    """One play step: ``sim.policies.builtin.heuristic_play`` with strong's discard and its
    held-back new melds (never when the team may go out, OUT-1)."""
    tmp = scratch_tmp(scratch)
    if obs[E.OB_OPENING_TURN] == 1 and obs[E.OB_OPENED] == 0:
        a = safe_opening(obs, params, rules, scratch)
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
    mask = risky_start_mask(obs, params)
    if out_reason(ob_melds(obs), opaque(0)) == E.R_OK:
        a = largest_meld(obs, rules, scratch, opaque(True), mask)  # OUT-1 holds: meld out
        if a >= 0:
            return a
    a = largest_meld(obs, rules, scratch, opaque(False), mask | _hold_mask(obs, params))
    if a >= 0:
        return a
    late = hand_is_late(obs, params)
    a = finish_with_wilds(obs, rules, scratch, params[H_COMPLETE_WITH_WILDS] == 0 or late)
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


@njit(cache=True, _nrt=False)
def strong_base_decide(obs, params, rng, rules, scratch):
    """The base move: the heuristic's draw and declaration, strong's play step
    (``strong_play``); what ``strong`` plays with evaluator=0."""
    phase = obs[E.OB_PHASE]
    if phase == E.PH_THREES:
        return E.A_LAY_THREES
    if phase == E.PH_DRAW:
        return E.A_TAKE_PILE if take_pile_ok(obs, params, rules, scratch) else E.A_DRAW
    if action_ok(obs, E.A_DECLARE, rules, scratch_tmp(scratch)):  # as the heuristic (fast)
        return E.A_DECLARE
    return strong_play(obs, params, rules, scratch)


# ---------------------------------------------------------------------------------------
# the evaluator: candidate moves at the search points, scored by learned weights
# ---------------------------------------------------------------------------------------
MAX_CANDIDATES = 8  #: room for candidate moves (four discards, three starts, and one spare)
DISCARD_CANDIDATES = 4  #: discards considered: the base policy's first choices
#: the evaluator's words in the scratch, after the built-ins' work fields (so that strong's
#: kernels allocate nothing and count no references, as the built-ins, issue 12)
EVALUATOR_WORK_FIELDS = (
    ("cands", MAX_CANDIDATES),  # the candidate moves
    ("kinds", DISCARD_CANDIDATES),  # the discards' kinds in the base policy's order
    ("keeps", DISCARD_CANDIDATES),  # their keep values (float64 words)
    ("phi", MAX_CANDIDATES * N_FEATURES),  # the candidates' features (float64 words)
    ("masked", E.OBS_SIZE),  # the observation with a meld's cards hidden (holding)
)
_EW, _EVALUATOR_WORK = E.layout(EVALUATOR_WORK_FIELDS)
_EW0 = E.SCRATCH_FREE + POLICY_WORK_SIZE
EW_CANDS, EW_KINDS, EW_KEEPS = _EW0 + _EW["cands"], _EW0 + _EW["kinds"], _EW0 + _EW["keeps"]
EW_PHI, EW_MASKED = _EW0 + _EW["phi"], _EW0 + _EW["masked"]
assert POLICY_WORK_SIZE + _EVALUATOR_WORK <= E.POLICY_FREE  # room after the built-ins'


@njit(cache=True, inline="always")
def ev_cands(scratch):
    return scratch[EW_CANDS : EW_CANDS + MAX_CANDIDATES]


@njit(cache=True, inline="always")
def ev_kinds(scratch):
    return scratch[EW_KINDS : EW_KINDS + DISCARD_CANDIDATES]


@njit(cache=True, inline="always")
def ev_keeps(scratch):
    return scratch[EW_KEEPS : EW_KEEPS + DISCARD_CANDIDATES].view(np.float64)


@njit(cache=True, inline="always")
def ev_phi(scratch):
    words = scratch[EW_PHI : EW_PHI + MAX_CANDIDATES * N_FEATURES].view(np.float64)
    return c_view(words, (MAX_CANDIDATES, N_FEATURES))


@njit(cache=True, inline="always")
def ev_masked(scratch):
    return scratch[EW_MASKED : EW_MASKED + E.OBS_SIZE]


@njit(cache=True, _nrt=False)
def risky_slot(obs, a):
    """The slot (SEVEN, ACE or WILD_MELD) whose new meld the meld action ``a`` starts, else -1.
    MELD-6/7/8: these are the melds whose start is a gamble (penalties, no wilds, no going
    out until complete)."""
    if a < 0 or E.ACTION_TABLE[a, E.AC_TYPE] != E.AT_MELD:
        return -1
    slot = E.ACTION_TABLE[a, E.AC_SLOT]
    if slot != E.SEVEN and slot != E.ACE and slot != E.WILD_MELD:
        return -1
    if meld_size(ob_melds(obs), 0, slot) != 0:
        return -1
    return slot


@njit(cache=True, _nrt=False)
def hide_slot(masked, slot):
    """Hide the cards of ``slot`` (the wild cards for WILD_MELD) from the hand in ``masked``."""
    if slot == E.WILD_MELD:
        kinds = (E.TWO, E.JOKER)
    else:
        kinds = (slot, slot)
    for k in kinds:
        c = masked[E.OB_HAND + k]
        masked[E.OB_HAND + k] = 0
        masked[E.OB_HAND_SIZES] -= c


@njit(cache=True, _nrt=False)
def start_action(obs, slot, rules, tmp):
    """Starting the team's meld of ``slot`` with every card of it held (wild meld: twos first,
    MELD-8), if legal now (MELD-1/6/7/8), else -1."""
    hand = ob_hand(obs)
    if meld_size(ob_melds(obs), 0, slot) != 0:
        return -1
    if slot == E.WILD_MELD:
        w = min(hand[E.TWO] + hand[E.JOKER], E.CANASTA)
        if w < 3:
            return -1
        two = min(w, hand[E.TWO])
        a = E.MELD_ACTION[E.WILD_MELD, 0, two, w - two]
    else:
        if hand[slot] < 3:
            return -1
        a = E.MELD_ACTION[slot, min(hand[slot], E.CANASTA), 0, 0]
    if a >= 0 and action_ok(obs, a, rules, tmp):
        return a
    return -1


@njit(cache=True, _nrt=False)
def _held(obs, slot):
    hand = ob_hand(obs)
    if slot == E.WILD_MELD:
        return min(hand[E.TWO] + hand[E.JOKER], E.CANASTA)
    return min(hand[slot], E.CANASTA)


@njit(cache=True, _nrt=False)
def strong_candidates(obs, params, rng, rules, scratch, a0, cands, phi, fresh):
    """The candidate moves of the decision whose base move is ``a0``, with their features
    (``sim.policies.strong_features``) in ``phi[c]``; ``cands[0] == a0``. Returns (number of
    candidates, decision kind); one candidate where the decision is none of the evaluator's:

    - the draw when the pile may be taken (PILE-1/2): drawing and taking;
    - a discard: the base policy's first ``DISCARD_CANDIDATES`` legal discards in its order,
      then starting a sevens, aces or wild meld with all of it held, where legal;
    - starting a sevens, aces or wild meld: that, and holding (the base move with those cards
      hidden), where legal.

    ``fresh``: ``a0`` was just computed by ``strong_base_decide`` on ``obs`` with this scratch
    (its discard keys are reused, ``discard_order``).
    """
    tmp = scratch_tmp(scratch)
    ctx = context(obs, params)
    cands[0] = a0
    phase = obs[E.OB_PHASE]
    if phase == E.PH_DRAW:
        if not pile_may_open(obs, rules, tmp):
            return 1, K_PICKUP
        if not action_ok(obs, E.A_TAKE_PILE, rules, tmp):
            return 1, K_PICKUP
        takes = a0 == E.A_TAKE_PILE
        cands[1] = E.A_DRAW if takes else E.A_TAKE_PILE
        phi[0, :] = 0.0
        phi[1, :] = 0.0
        pickup_features(obs, ctx, takes, phi[1 if not takes else 0])
        return 2, K_PICKUP
    if phase != E.PH_PLAY or a0 < 0:
        return 1, K_DISCARD
    if E.ACTION_TABLE[a0, E.AC_TYPE] == E.AT_DISCARD:
        kinds = ev_kinds(scratch)
        keeps = ev_keeps(scratch)
        k0 = E.ACTION_TABLE[a0, E.AC_SLOT]
        m = discard_order(obs, params, rules, scratch, kinds, keeps, DISCARD_CANDIDATES, fresh)
        if fresh and (m == 0 or kinds[0] != k0):  # not the keys of a0 after all: compute them
            m = discard_order(obs, params, rules, scratch, kinds, keeps, DISCARD_CANDIDATES, False)
        phi[0, :] = 0.0
        n = 1
        for i in range(m):  # a0 is the first of the order (the same keys): its rank is 0
            if kinds[i] == k0:
                discard_features(obs, ctx, k0, i, keeps[i], phi[0])
            elif n < MAX_CANDIDATES:
                cands[n] = E.A_DISCARD + kinds[i]
                discard_features(obs, ctx, kinds[i], i, keeps[i], phi[n])
                n += 1
        for slot in (E.SEVEN, E.ACE, E.WILD_MELD):
            a = start_action(obs, slot, rules, tmp)
            if a >= 0 and n < MAX_CANDIDATES:
                cands[n] = a
                start_features(obs, ctx, slot, _held(obs, slot), True, phi[n])
                n += 1
        return n, K_DISCARD
    slot = risky_slot(obs, a0)
    if slot < 0:
        return 1, K_START
    masked = ev_masked(scratch)
    copy_into(masked, obs)
    hide_slot(masked, slot)
    if masked[E.OB_HAND_SIZES] < 1:
        return 1, K_START
    hold = strong_base_decide(masked, params, rng, rules, scratch)
    if hold < 0 or hold == a0 or not action_ok(obs, hold, rules, tmp):
        return 1, K_START
    cands[1] = hold
    held = E.ACTION_TABLE[a0, E.AC_NAT] + E.ACTION_TABLE[a0, E.AC_TWO]
    held += E.ACTION_TABLE[a0, E.AC_JOKER]
    start_features(obs, ctx, slot, held, False, phi[0])
    phi[1, :] = 0.0
    return 2, K_START


@njit(cache=True, _nrt=False)
def evaluator_on(params):
    """evaluator=1 and the weights present (a parameter vector of strong's named parameters
    alone, as the tuning stage plays, has none)."""
    return params.shape[0] >= N_STRONG + N_FEATURES and params[S_EVALUATOR] > 0


@njit(cache=True, _nrt=False)  # compiled to POLICY_SIGNATURE when first played (registry)
def strong_decide(obs, params, rng, rules, scratch):
    """The base move (``strong_base_decide``), or, at the evaluator's decisions, the candidate
    move with the highest learned score (``strong_candidates``; ties keep the base move)."""
    a0 = strong_base_decide(obs, params, rng, rules, scratch)
    if not evaluator_on(params):
        return a0
    phase = obs[E.OB_PHASE]
    if phase != E.PH_DRAW and phase != E.PH_PLAY:
        return a0
    if phase == E.PH_PLAY and E.ACTION_TABLE[a0, E.AC_TYPE] != E.AT_DISCARD:
        if risky_slot(obs, a0) < 0:
            return a0  # (fast: most play steps are none of the evaluator's)
    cands = ev_cands(scratch)
    phi = ev_phi(scratch)
    n, _ = strong_candidates(obs, params, rng, rules, scratch, a0, cands, phi, True)
    if n <= 1:
        return a0
    weights = params[N_STRONG : N_STRONG + N_FEATURES]
    best, best_s = 0, score(weights, phi[0])
    for c in range(1, n):
        s = score(weights, phi[c])
        if s > best_s:
            best, best_s = c, s
    return cands[best]
