"""The ``strong`` policy: the heuristic's kernel with its own parameter vector, and a
learned evaluator of candidate moves.

``strong``'s base move is the heuristic's (``sim.policies.builtin.heuristic_decide``, called as
is) at strong's values of the heuristic's parameters (``sim.policies.heuristic_params``, among
them the four the classic heuristic leaves at their neutral defaults: ``new_meld_min``,
``pair_keep``, ``meld_keep``, ``early_dump``). Strong adds only its parameter ``evaluator``
(``EXTRA_TABLE``) and, at the draw with a takeable pile, the discard and the start of a
sevens, aces or wild meld, the candidate move its learned evaluator scores best
(``strong_candidates``, features in ``sim.policies.strong_features``).

All the parameters are learned by black-box optimisation on duplicate deals against a pool of
opponents (``analysis.training``, ``canasta train``), the evaluator's weights distilled from
search. The values ship in ``sim/policies/data/strong.json`` beside the training settings,
seed, command and measured margin; they are the registry's defaults, each overridable like the
heuristic's (``strong:sevens_threshold=6``). Running ``strong`` needs only the engine (and
``json``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import encoding as E
from sim._views import c_view, copy_into
from sim.engine.judge import action_ok, pile_may_open
from sim.engine.views import ob_hand, ob_melds, scratch_tmp
from sim.errors import CanastaError
from sim.legality import meld_size
from sim.policies.builtin import (
    NO_KEY,
    chase_discard,
    discard_key,
    hand_is_late,
    heuristic_decide,
    legal_discard_mask,
)
from sim.policies.common import POLICY_WORK_SIZE, work_keys, work_targets
from sim.policies.datafile import read_data
from sim.policies.heuristic_params import H_SHED_STOCK, HEURISTIC_TABLE
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
from sim.policies.strong_v2_features import (
    EVALUATOR_V2,
    K_OPEN,
    N_FEATURES_V2,
    V2_AUX,
    V2_CANDS,
    V2_KEEPS,
    V2_KINDS,
    V2_MAX_CANDIDATES,
    V2_ORDER_KEEPS,
    V2_PHI,
    V2_WORK_END,
    opening_first_meld,
    v2_features,
)
from sim.special import catalogue_row, nearest_hand

__all__ = [
    "DATA_VERSION",
    "FROZEN_FILE",
    "LATER_NAMES",
    "MAX_CANDIDATES",
    "NEUTRAL",
    "N_STRONG",
    "S_EVALUATOR",
    "TUNED_NAMES",
    "chasing",
    "load_data",
    "peek_kinds_strong_decide",
    "peek_next_strong_decide",
    "peek_next_when_strong_decide",
    "peek_others_strong_decide",
    "peek_when_strong_decide",
    "strong_candidates",
    "strong_decide",
    "v2_candidates",
]

DATA_FILE = "strong.json"  #: in the package ``sim.policies.data``
#: the frozen reference: a copy of the data file as shipped in December 2026, never retrained,
#: played as ``strong_2026_12`` so strength figures keep one fixed yardstick
FROZEN_FILE = "strong_2026_12.json"
#: the data file's layout (4: the heuristic's + EXTRA with chase_distance, the evaluator's
#: weights; 3 had no chase_distance)
DATA_VERSION = 4

#: strong's own parameter after the heuristic kernel's (name, neutral value, meaning); the
#: evaluator's weights follow it in the params array
EXTRA_TABLE = (
    (
        "evaluator",
        0.0,
        "1: at the draw with a takeable pile, the discard and the start of a sevens/aces/wild "
        "meld, play the candidate move the learned evaluator scores best "
        "(sim.policies.strong_features); 2: strong_v2's evaluator, every legal discard and "
        "opening now or waiting as well (sim.policies.strong_v2_features); 0: the base move "
        "(the heuristic kernel's play)",
    ),
    (
        "chase_distance",
        0.0,
        "under a special-hand list other than the tournament's (SPECIAL-8/9), while the team "
        "has not melded, chase the nearest hand of the list (sim.special.nearest_hand) while "
        "fewer than this many cards from it: keep a three it wants (DEAL-5), draw from the "
        "stock (SPECIAL-1), discard what it does not need; 0: never (the heuristic's play)",
    ),
)
N_HEURISTIC = len(HEURISTIC_TABLE)  #: strong's parameters: the heuristic's, then EXTRA_TABLE's
S_EVALUATOR = N_HEURISTIC
S_CHASE_DISTANCE = N_HEURISTIC + 1
N_STRONG = N_HEURISTIC + len(EXTRA_TABLE)  #: named parameters; the evaluator's weights follow
NEUTRAL = {name: default for name, default, _ in (*HEURISTIC_TABLE, *EXTRA_TABLE)}
#: parameters added after the shipped values were trained: a data file without one plays its
#: neutral value (the play it was trained with)
LATER_NAMES = ("memory_weight",)
#: the parameters the black-box stage tunes (``analysis.training``, under the tournament list):
#: all but the evaluator's switch, the chase of the other lists and the public card memory's
#: weight (set by measurement)
TUNED_NAMES = tuple(
    name for name in NEUTRAL if name not in ("evaluator", "chase_distance", *LATER_NAMES)
)


def load_data(data: dict | None = None, source: str = DATA_FILE) -> dict:
    """The shipped parameters and their training record (``sim/policies/data/strong.json``,
    or the package's data file named ``source``, e.g. ``FROZEN_FILE``), or ``data`` (a data
    file read elsewhere, named ``source`` in errors), checked."""
    data = read_data(data, source if data is None else DATA_FILE, DATA_VERSION, source)
    given = dict(data.get("parameters", {}))
    for name in LATER_NAMES:
        given.setdefault(name, NEUTRAL[name])
    if sorted(given) != sorted(NEUTRAL):
        raise CanastaError(f"{source}: expected the parameters {', '.join(NEUTRAL)}")
    data = {**data, "parameters": given}
    evaluator = data.get("evaluator", {})
    check_layout(evaluator.get("features", ()))
    if len(evaluator.get("weights", ())) != N_FEATURES:
        raise CanastaError(f"{source}: expected {N_FEATURES} evaluator weights")
    return data


def strong_weights(file: str = DATA_FILE) -> np.ndarray:
    """The evaluator's shipped weights (of the package's data file ``file``), in
    ``FEATURE_TABLE``'s order (the parameter arrays' tail after the named parameters)."""
    return np.array(load_data(source=file)["evaluator"]["weights"], dtype=np.float64)


def strong_table(file: str = DATA_FILE) -> tuple[tuple[str, float, str], ...]:
    """(name, learned default, meaning): the heuristic's table then EXTRA_TABLE, with the
    values of the package's data file ``file`` as defaults."""
    params = load_data(source=file)["parameters"]
    return tuple((n, float(params[n]), doc) for n, _, doc in (*HEURISTIC_TABLE, *EXTRA_TABLE))


@njit(cache=True, _nrt=False)
def _discard_order(obs, params, scratch, kinds, keeps, limit):
    """The first ``limit`` legal discards (DISCARD-*) in the kernel's order of preference
    (``sim.policies.builtin.safe_discard``'s: lowest ``discard_key`` first, the lower kind on a
    tie), their kinds and keep values in ``kinds``/``keeps``; returns how many (0: none)."""
    keys = work_keys(scratch)
    legal = legal_discard_mask(obs)
    late = hand_is_late(obs, params)
    shed = late or obs[E.OB_STOCK_N] <= params[H_SHED_STOCK]
    melds = ob_melds(obs)
    for k in range(E.N_KINDS):
        keys[k] = discard_key(obs, params, melds, k, late, shed) if (legal >> k) & 1 else NO_KEY
    n = 0
    while n < limit:
        best_k, best = -1, NO_KEY
        for k in range(E.N_KINDS):
            if keys[k] < best:
                best_k, best = k, keys[k]
        if best_k < 0:
            break
        kinds[n] = best_k
        keeps[n] = keys[best_k] / 1000.0
        keys[best_k] = NO_KEY
        n += 1
    return n


@njit(cache=True, _nrt=False)
def chasing(obs, params, rules):
    """Does strong consider the chase here: chase_distance > 0 (a vector of the tuned names
    alone has none), a list other than the tournament's (SPECIAL-7..9; that list keeps the
    heuristic's play) and the team not yet melded (SPECIAL-1: only as its first meld)?"""
    if params.shape[0] <= S_CHASE_DISTANCE or params[S_CHASE_DISTANCE] <= 0:
        return False
    if rules[E.RS_SPECIAL_HANDS] == E.SPECIALS_ON or rules[E.RS_CATALOGUE_N] == 0:
        return False
    return obs[E.OB_OPENED] == 0 and obs[E.OB_MELDED] == 0


@njit(cache=True, _nrt=False)
def _catalogue_chase(obs, params, rules, scratch):
    """The chase of the nearest hand of the list in force (SPECIAL-8/9, ``nearest_hand``: the
    same distance as special_chaser's), or -1 for the base move: fewer than chase_distance
    cards missing (at the draw, counting the card to come), keep a three only for a hand with
    one (DEAL-5), draw from the stock (SPECIAL-1: never after taking the pile), declare when
    it can (SPECIAL-1), else discard the card most in excess of the hand's needs."""
    hand = ob_hand(obs)
    need = work_targets(scratch)[0]
    miss, code = nearest_hand(hand, rules, need)
    distance = params[S_CHASE_DISTANCE]
    tmp = scratch_tmp(scratch)
    phase = obs[E.OB_PHASE]
    if phase == E.PH_DRAW:
        return E.A_DRAW if miss - 1 < distance else -1
    if miss >= distance:
        return -1
    if phase == E.PH_THREES:
        if rules[catalogue_row(code) + E.CH_THREES] == 0:
            return -1  # DEAL-5: a three is kept only for a hand that has one
        for a in (E.A_KEEP_RED_THREE, E.A_KEEP_BLACK_THREE):
            if action_ok(obs, a, rules, tmp):
                return a
        return -1
    if phase != E.PH_PLAY:
        return -1
    if action_ok(obs, E.A_DECLARE, rules, tmp):
        return E.A_DECLARE
    return chase_discard(obs, params, rules, scratch, need)


#: the base move (what ``strong`` plays with evaluator=0): the heuristic kernel itself, at
#: strong's parameter values
strong_base_decide = heuristic_decide


# ---------------------------------------------------------------------------------------
# the evaluator: candidate moves at the search points, scored by learned weights
# ---------------------------------------------------------------------------------------
MAX_CANDIDATES = 8  #: room for candidate moves (four discards, three starts, and one spare)
DISCARD_CANDIDATES = 4  #: discards considered: the base policy's first choices
#: the evaluator's words in the scratch, after the built-ins' work fields (so that strong's
#: kernels allocate nothing and count no references, as the built-ins)
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
def _ev_kinds(scratch):
    return scratch[EW_KINDS : EW_KINDS + DISCARD_CANDIDATES]


@njit(cache=True, inline="always")
def _ev_keeps(scratch):
    return scratch[EW_KEEPS : EW_KEEPS + DISCARD_CANDIDATES].view(np.float64)


@njit(cache=True, inline="always")
def ev_phi(scratch):
    words = scratch[EW_PHI : EW_PHI + MAX_CANDIDATES * N_FEATURES].view(np.float64)
    return c_view(words, (MAX_CANDIDATES, N_FEATURES))


@njit(cache=True, inline="always")
def _ev_masked(scratch):
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
def _hold_start(obs, params, rng, rules, scratch, a0, slot):
    """Holding the start ``a0`` of ``slot``: the base move with those cards hidden, if legal
    here and other than ``a0``; else -1."""
    masked = _ev_masked(scratch)
    copy_into(masked, obs)
    hide_slot(masked, slot)
    if masked[E.OB_HAND_SIZES] < 1:
        return -1
    hold = strong_base_decide(masked, params, rng, rules, scratch)
    if hold < 0 or hold == a0 or not action_ok(obs, hold, rules, scratch_tmp(scratch)):
        return -1
    return hold


@njit(cache=True, _nrt=False)
def strong_candidates(obs, params, rng, rules, scratch, a0, cands, phi):
    """The candidate moves of the decision whose base move is ``a0``, with their features
    (``sim.policies.strong_features``) in ``phi[c]``; ``cands[0] == a0``. Returns (number of
    candidates, decision kind); one candidate where the decision is none of the evaluator's:

    - the draw when the pile may be taken (PILE-1/2): drawing and taking;
    - a discard: the base policy's first ``DISCARD_CANDIDATES`` legal discards in its order,
      then starting a sevens, aces or wild meld with all of it held, where legal;
    - starting a sevens, aces or wild meld: that, and holding (the base move with those cards
      hidden), where legal.
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
        kinds = _ev_kinds(scratch)
        keeps = _ev_keeps(scratch)
        k0 = E.ACTION_TABLE[a0, E.AC_SLOT]
        m = _discard_order(obs, params, scratch, kinds, keeps, DISCARD_CANDIDATES)
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
    hold = _hold_start(obs, params, rng, rules, scratch, a0, slot)
    if hold < 0:
        return 1, K_START
    cands[1] = hold
    held = E.ACTION_TABLE[a0, E.AC_NAT] + E.ACTION_TABLE[a0, E.AC_TWO]
    held += E.ACTION_TABLE[a0, E.AC_JOKER]
    start_features(obs, ctx, slot, held, False, phi[0])
    phi[1, :] = 0.0
    return 2, K_START


@njit(cache=True, _nrt=False)
def evaluator_on(params, weights_at=N_STRONG):
    """evaluator=1 and the weights present at ``weights_at`` (a parameter vector of strong's
    named parameters alone, as the tuning stage plays, has none)."""
    return params.shape[0] >= weights_at + N_FEATURES and params[S_EVALUATOR] > 0


@njit(cache=True, _nrt=False)
def evaluated_candidates(obs, params, rng, rules, scratch, weights_at):
    """strong's move before its learned scores: ``(a, n, kind)``. ``n <= 1``: play ``a`` (a
    chase's move, the base move ``strong_base_decide``, or the one candidate); otherwise the
    ``n`` candidates of ``strong_candidates`` are in the scratch's ``ev_cands``/``ev_phi``
    with ``a`` the base move, for the caller to score with the weights at ``weights_at`` (the
    evaluator is on when they are present and ``evaluator`` > 0)."""
    if chasing(obs, params, rules):  # the list in force's nearest hand (SPECIAL-8/9)
        a = _catalogue_chase(obs, params, rules, scratch)
        if a >= 0:
            return a, 0, -1
    a0 = strong_base_decide(obs, params, rng, rules, scratch)
    if not evaluator_on(params, weights_at):
        return a0, 0, -1
    phase = obs[E.OB_PHASE]
    if phase != E.PH_DRAW and phase != E.PH_PLAY:
        return a0, 0, -1
    if phase == E.PH_PLAY and E.ACTION_TABLE[a0, E.AC_TYPE] != E.AT_DISCARD:
        if risky_slot(obs, a0) < 0:
            return a0, 0, -1  # (fast: most play steps are none of the evaluator's)
    n, kind = strong_candidates(
        obs, params, rng, rules, scratch, a0, ev_cands(scratch), ev_phi(scratch)
    )
    return a0, n, kind


# ---------------------------------------------------------------------------------------
# strong_v2's evaluator (evaluator=2): every legal discard, and opening now or waiting
# ---------------------------------------------------------------------------------------
#: strong's ``masked`` observation (holding a start) stays clear of strong_v2's words
assert V2_WORK_END <= EW_MASKED


@njit(cache=True, _nrt=False)
def v2_candidates(obs, params, rng, rules, scratch, a0, cands, aux, keeps):
    """strong_v2's candidate moves of the decision whose base move is ``a0`` (``cands[0] ==
    a0``) and what their features need (``aux``: a discard's place in the base policy's order,
    a start's cards held, 1 for taking when the base takes; ``keeps``: a discard's keep
    value). Returns (number of candidates, decision kind, ``DECISION_KINDS_V2``):

    - the draw when the pile may be taken (PILE-1/2): drawing and taking;
    - a discard: every legal discard (DISCARD-*) in the base policy's order, then starting a
      sevens, aces or wild meld with all of it held, where legal (MELD-6/7/8);
    - starting a sevens, aces or wild meld: that, and holding (the base move with those cards
      hidden), where legal;
    - the first meld of the team's opening turn (OPEN-1): that, and waiting (the base policy's
      first legal discard instead).
    """
    tmp = scratch_tmp(scratch)
    cands[0] = a0
    aux[0] = 0
    keeps[0] = 0.0
    phase = obs[E.OB_PHASE]
    if phase == E.PH_DRAW:
        if not pile_may_open(obs, rules, tmp) or not action_ok(obs, E.A_TAKE_PILE, rules, tmp):
            return 1, K_PICKUP
        takes = a0 == E.A_TAKE_PILE
        cands[1] = E.A_DRAW if takes else E.A_TAKE_PILE
        aux[0] = aux[1] = 1 if takes else 0
        return 2, K_PICKUP
    if phase != E.PH_PLAY or a0 < 0:
        return 1, K_DISCARD
    kinds = scratch[V2_KINDS : V2_KINDS + E.N_KINDS]
    order_keeps = scratch[V2_ORDER_KEEPS : V2_ORDER_KEEPS + E.N_KINDS].view(np.float64)
    if E.ACTION_TABLE[a0, E.AC_TYPE] == E.AT_DISCARD:
        k0 = E.ACTION_TABLE[a0, E.AC_SLOT]
        m = _discard_order(obs, params, scratch, kinds, order_keeps, E.N_KINDS)
        n = 1
        for i in range(m):
            if kinds[i] == k0:
                aux[0] = i
                keeps[0] = order_keeps[i]
            elif n < V2_MAX_CANDIDATES:
                cands[n] = E.A_DISCARD + kinds[i]
                aux[n] = i
                keeps[n] = order_keeps[i]
                n += 1
        for slot in (E.SEVEN, E.ACE, E.WILD_MELD):
            a = start_action(obs, slot, rules, tmp)
            if a >= 0 and n < V2_MAX_CANDIDATES:
                cands[n] = a
                aux[n] = _held(obs, slot)
                n += 1
        return n, K_DISCARD
    slot = risky_slot(obs, a0)
    if slot >= 0:
        hold = _hold_start(obs, params, rng, rules, scratch, a0, slot)
        if hold < 0:
            return 1, K_START
        cands[1] = hold
        aux[0] = E.ACTION_TABLE[a0, E.AC_NAT] + E.ACTION_TABLE[a0, E.AC_TWO]
        aux[0] += E.ACTION_TABLE[a0, E.AC_JOKER]
        return 2, K_START
    if not opening_first_meld(obs, a0):
        return 1, K_DISCARD
    if _discard_order(obs, params, scratch, kinds, order_keeps, 1) < 1:
        return 1, K_OPEN
    wait = E.A_DISCARD + kinds[0]
    if not action_ok(obs, wait, rules, tmp):
        return 1, K_OPEN
    cands[1] = wait
    return 2, K_OPEN


@njit(cache=True, _nrt=False)
def _v2_decide(obs, params, rng, rules, scratch):
    """strong_v2's move: the base move, or at its decisions (``v2_candidates``) the candidate
    with the highest score by the weights after the named parameters (ties keep the base)."""
    if chasing(obs, params, rules):  # the list in force's nearest hand (SPECIAL-8/9)
        a = _catalogue_chase(obs, params, rules, scratch)
        if a >= 0:
            return a
    a0 = strong_base_decide(obs, params, rng, rules, scratch)
    phase = obs[E.OB_PHASE]
    if phase != E.PH_DRAW and phase != E.PH_PLAY:
        return a0
    if phase == E.PH_PLAY and E.ACTION_TABLE[a0, E.AC_TYPE] != E.AT_DISCARD:
        if risky_slot(obs, a0) < 0 and not opening_first_meld(obs, a0):
            return a0  # (fast: most play steps are none of the evaluator's)
    cands = scratch[V2_CANDS : V2_CANDS + V2_MAX_CANDIDATES]
    aux = scratch[V2_AUX : V2_AUX + V2_MAX_CANDIDATES]
    keeps = scratch[V2_KEEPS : V2_KEEPS + V2_MAX_CANDIDATES].view(np.float64)
    n, kind = v2_candidates(obs, params, rng, rules, scratch, a0, cands, aux, keeps)
    if n <= 1:
        return a0
    phi = scratch[V2_PHI : V2_PHI + N_FEATURES_V2].view(np.float64)
    weights = params[N_STRONG : N_STRONG + N_FEATURES_V2]
    ctx = context(obs, params)
    best, best_s = 0, 0.0
    for c in range(n):
        v2_features(obs, ctx, kind, c, cands, aux, keeps, phi)
        s = score(weights, phi)
        if c == 0 or s > best_s:
            best, best_s = c, s
    return cands[best]


@njit(cache=True, _nrt=False)  # compiled to POLICY_SIGNATURE when first played (registry)
def strong_decide(obs, params, rng, rules, scratch):
    """The base move (``strong_base_decide``), or, at the evaluator's decisions, the candidate
    move with the highest learned score (``strong_candidates``; ties keep the base move);
    ``evaluator=2`` with its weights present: strong_v2's (``_v2_decide``)."""
    if params.shape[0] >= N_STRONG + N_FEATURES_V2 and params[S_EVALUATOR] >= EVALUATOR_V2:
        return _v2_decide(obs, params, rng, rules, scratch)
    a0, n, _ = evaluated_candidates(obs, params, rng, rules, scratch, N_STRONG)
    if n <= 1:
        return a0
    cands = ev_cands(scratch)
    phi = ev_phi(scratch)
    weights = params[N_STRONG : N_STRONG + N_FEATURES]
    best, best_s = 0, score(weights, phi[0])
    for c in range(1, n):
        s = score(weights, phi[c])
        if s > best_s:
            best, best_s = c, s
    return cands[best]


@njit(cache=True, _nrt=False)  # compiled to POLICY_SIGNATURE when first played (registry)
def peeking_strong_decide(obs, params, rng, rules, scratch):
    """``strong_decide`` as the peeking reference (registered ``peeking_strong``, marked by
    ``sim.engine.contract.mark_peeking``): the engine shows it every other hand through the
    public card memory's rows (``OB_KNOWN``), which its discard reads (``memory_weight``). A
    function of its own so that the engine can tell it from strong."""
    return strong_decide(obs, params, rng, rules, scratch)


# bounds of what the public card memory can be worth to strong's play: the same decide under
# other names, so that the engine can tell each peeking scope (``PEEK_*``) from the others
# (registered by ``benchmarks/bench_memory.py``, not shipped as policies)
@njit(cache=True, _nrt=False)
def peek_kinds_strong_decide(obs, params, rng, rules, scratch):
    """``strong_decide`` seeing the true count of each kind the memory places in a hand."""
    return strong_decide(obs, params, rng, rules, scratch)


@njit(cache=True, _nrt=False)
def peek_when_strong_decide(obs, params, rng, rules, scratch):
    """``strong_decide`` seeing every hand at the decisions where the memory holds a card."""
    return strong_decide(obs, params, rng, rules, scratch)


@njit(cache=True, _nrt=False)
def peek_next_strong_decide(obs, params, rng, rules, scratch):
    """``strong_decide`` seeing the next player's hand (the other rows the memory)."""
    return strong_decide(obs, params, rng, rules, scratch)


@njit(cache=True, _nrt=False)
def peek_others_strong_decide(obs, params, rng, rules, scratch):
    """``strong_decide`` seeing the partner's and the previous player's hands (the next
    player's row the memory)."""
    return strong_decide(obs, params, rng, rules, scratch)


@njit(cache=True, _nrt=False)
def peek_next_when_strong_decide(obs, params, rng, rules, scratch):
    """``strong_decide`` seeing the next player's hand at the decisions where the memory holds
    a card."""
    return strong_decide(obs, params, rng, rules, scratch)
