"""The ``expert`` policy: determinized Monte Carlo search over a base policy's rollouts.

At its decision points the expert lists a few candidate moves, samples ``samples`` full
positions consistent with its observation (``sim.engine.search.determinize``: the unseen cards
dealt at random), draws ``rollouts`` stock orders for each, plays every candidate forward from
each sample with the base policy for all four players (as ``sim.engine.search.rollout``)
and keeps the candidate with the best average hand margin (own team's score minus the other's).
Every candidate is judged on the same samples and stock orders (common random numbers), so the
comparison is paired and its noise small. Ties keep the first candidate (the base policy's
choice; at the draw, drawing), and ``margin`` points per hand are asked of any other.

The base policy (parameter ``rollout``) proposes the candidates, plays the expert's
other decisions and plays the rollouts: 0 is the heuristic (``expert``, today's search, its
records unchanged), 1 is ``strong`` (``sim.policies.strong``, whose own parameters follow the
heuristic's). ``expert_strong`` is registered as ``expert`` with ``rollout=1`` and strong's
learned values as its defaults; ``expert_strong_v2`` the same with strong_v2's values and
weights (``evaluator=2``: strong's kernel plays strong_v2 wherever it is called).

Decision points (the rest is the base policy's):

- the draw, when taking the pile is legal (PILE-1/2): draw or take;
- the discard (DISCARD-*): the base policy's choice and its next preferences (found by asking
  the base policy again with the chosen kinds hidden), up to ``candidates``, plus starting a
  sevens (MELD-6), aces (MELD-7) or wild (MELD-8) meld instead, when legal;
- starting a sevens, aces or wild meld proposed by the base policy: do it, or hold (the
  base policy's choice with those cards hidden).

Uses only the observation: the search reads ``obs`` alone, and its randomness comes from one
draw of the hand's generator (``sim.engine.search.seed_search``), so it is reproducible from
the seed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import encoding as E
from sim._views import copy_into
from sim.engine.contract import MODE_TRUSTED
from sim.engine.judge import action_ok, pile_may_open
from sim.engine.play import hand_direct
from sim.engine.search import (
    WORK_SIZE,
    determinize,
    reshuffle_stock,
    seed_search,
    team_margin,
)
from sim.engine.state import apply_action
from sim.engine.views import scratch_tmp
from sim.errors import CanastaError
from sim.policies.builtin import HEURISTIC_TABLE, heuristic_decide
from sim.policies.inference import deal_likelihood
from sim.policies.strong import (
    EXTRA_TABLE,
    hide_slot,
    risky_slot,
    start_action,
    strong_decide,
    strong_table,
)

#: the expert's own parameters (name, default, meaning); the base policy's follow (its rollouts
#: and its own moves): the heuristic's, then strong's own (EXTRA_TABLE, used when rollout=1)
_SEARCH_TABLE = (
    ("samples", 24.0, "determinizations (deals of the unseen cards) per decision"),
    ("rollouts", 2.0, "stock orders (rollouts) per determinization"),
    ("candidates", 4.0, "discard candidates searched (the base policy's first choices)"),
    (
        "margin",
        0.0,
        "points per hand a move must gain over the base policy's choice to replace it",
    ),
    (
        "rollout",
        0.0,
        "the base policy that proposes, plays the other moves and the rollouts: 0 heuristic, "
        "1 strong (its extra parameters follow; expert_strong has strong's learned values)",
    ),
    (
        "memory",
        1.0,
        "1: determinizations place the cards the public card memory knows (taken with the "
        "pile, not shown since) in their holders' hands (measured stronger: docs/policies.md); "
        "0: every unseen card dealt at random",
    ),
    (
        "infer",
        0.0,
        "1: each determinization's rollouts weighted by how likely it makes the previous "
        "opponent's last discard under strong's softened play (sim.policies.inference); "
        "0: every determinization counts alike",
    ),
    ("infer_temperature", 50.0, "infer: the softmax temperature over strong's scores"),
    ("infer_epsilon", 0.1, "infer: the share of the uniform legal discard in the model"),
)
EXPERT_TABLE = (*_SEARCH_TABLE, *HEURISTIC_TABLE, *EXTRA_TABLE)
EXPERT_PARAMS = {name: default for name, default, _ in EXPERT_TABLE}  #: name -> default
_X = {name: i for i, (name, _, _) in enumerate(_SEARCH_TABLE)}
E_SAMPLES = _X["samples"]  #: index of each search parameter in the params array
E_ROLLOUTS = _X["rollouts"]
E_CANDIDATES = _X["candidates"]
E_MARGIN = _X["margin"]
E_ROLLOUT = _X["rollout"]
E_MEMORY = _X["memory"]
E_INFER = _X["infer"]
E_INFER_T = _X["infer_temperature"]
E_INFER_EPS = _X["infer_epsilon"]
N_EXPERT_PARAMS = len(_SEARCH_TABLE)  #: the base policy's parameters start here
ROLLOUT_HEURISTIC, ROLLOUT_STRONG = 0, 1  #: values of the rollout parameter
MAX_CANDIDATES = 16  #: room for candidate moves


@njit(cache=True)
def _add(cands, n, a):
    for i in range(n):
        if cands[i] == a:
            return n
    if n < cands.shape[0]:
        cands[n] = a
        n += 1
    return n


@njit(cache=True)
def _start_ops(obs, rules, scratch, cands, n):
    """Add the start of a sevens, aces or wild meld (all of the rank held, twos first in a
    wild meld) when the team has none and it is legal now."""
    tmp = scratch_tmp(scratch)
    for slot in (E.SEVEN, E.ACE, E.WILD_MELD):
        a = start_action(obs, slot, rules, tmp)
        if a >= 0:
            n = _add(cands, n, a)
    return n


def check_params(values: dict) -> None:
    """The registry's check of an expert parameter set: ``rollout`` names a base policy."""
    if values["rollout"] not in (ROLLOUT_HEURISTIC, ROLLOUT_STRONG):
        raise CanastaError(
            f"expert parameter 'rollout': 0 (heuristic) or 1 (strong), got {values['rollout']:g}"
        )
    if not 0 < values["infer_epsilon"] <= 1:
        # the uniform share keeps every deal's weight above zero
        raise CanastaError(
            f"expert parameter 'infer_epsilon': above 0, at most 1, got {values['infer_epsilon']:g}"
        )
    if values["infer_temperature"] <= 0:
        raise CanastaError("expert parameter 'infer_temperature': must be above 0")


def check_params_unweighted(values: dict) -> None:
    """``expert``'s check: ``check_params``, and no evaluator (its parameter arrays carry no
    learned weights: expert_strong's do)."""
    check_params(values)
    if values["evaluator"] > 0:
        raise CanastaError(
            "expert parameter 'evaluator': expert carries no learned weights; "
            "use expert_strong (strong's rollouts with its evaluator)"
        )


@njit(cache=True)
def _base_decide(obs, hp, strong, rng, rules, scratch):
    """The base policy's move: strong's when ``strong`` (rollout=1), else the heuristic's.
    ``hp`` is the base parameters (the heuristic's table, then strong's extras)."""
    if strong:
        return strong_decide(obs, hp, rng, rules, scratch)
    return heuristic_decide(obs, hp, rng, rules, scratch)


@njit(cache=True)
def _discard_candidates(obs, hp, strong, rng, rules, scratch, first, cands, n, limit):
    """The base policy's discard ``first``, then its next choices: ask it again with the kinds
    already listed hidden from the hand, while it still proposes a discard legal here."""
    masked = obs.copy()
    tmp = scratch_tmp(scratch)
    a = first
    while n < limit:
        n = _add(cands, n, a)
        k = E.ACTION_TABLE[a, E.AC_SLOT]
        c = masked[E.OB_HAND + k]
        masked[E.OB_HAND + k] = 0
        masked[E.OB_HAND_SIZES] -= c
        if masked[E.OB_HAND_SIZES] < 2:
            break
        a = _base_decide(masked, hp, strong, rng, rules, scratch)
        if E.ACTION_TABLE[a, E.AC_TYPE] != E.AT_DISCARD or not action_ok(obs, a, rules, tmp):
            break
    return n


@njit(cache=True)
def candidates(obs, params, rng, rules, scratch, cands):
    """The moves the expert searches at this decision (the base policy's first), or just one."""
    hp = params[N_EXPERT_PARAMS:]
    strong = params[E_ROLLOUT] == ROLLOUT_STRONG
    tmp = scratch_tmp(scratch)
    phase = obs[E.OB_PHASE]
    if phase == E.PH_DRAW:
        cands[0] = E.A_DRAW
        if pile_may_open(obs, rules, tmp) and action_ok(obs, E.A_TAKE_PILE, rules, tmp):
            cands[1] = E.A_TAKE_PILE
            return 2
        return 1
    h = _base_decide(obs, hp, strong, rng, rules, scratch)
    cands[0] = h
    if phase != E.PH_PLAY:
        return 1
    limit = min(max(int(params[E_CANDIDATES]), 1), cands.shape[0] - 3)
    if E.ACTION_TABLE[h, E.AC_TYPE] == E.AT_DISCARD:
        n = _discard_candidates(obs, hp, strong, rng, rules, scratch, h, cands, 0, limit)
        return _start_ops(obs, rules, scratch, cands, n)
    slot = risky_slot(obs, h)
    if slot >= 0:
        masked = obs.copy()
        hide_slot(masked, slot)
        if masked[E.OB_HAND_SIZES] >= 1:
            hold = _base_decide(masked, hp, strong, rng, rules, scratch)
            if action_ok(obs, hold, rules, tmp):
                return _add(cands, 1, hold)
    return 1


@njit(cache=True, inline="always")
def _rollout_with(decide, st, obs, p0, p1, rng, rules, scratch, cache, log):
    """The hand in ``st`` played to its end with the kernel ``decide`` in every seat (team 0
    with ``p0``, team 1 with ``p1``) on the engine's one hand loop compiled in place
    (``hand_direct``): numba cannot cache a function that passes a compiled policy on as a
    value (its address is a dynamic global); inlined, the call is resolved when compiled. No
    intercept (None: plain play compiled without the intercept's steps); the built-ins'
    proposals applied unjudged (``MODE_TRUSTED``)."""
    hand_direct(
        st, obs, decide, decide, p0, p1, rng, rules, scratch, cache, log, None, MODE_TRUSTED
    )


@njit(cache=True, _nrt=False)
def _rollout_hand(st, obs, p0, p1, strong, rng, rules, scratch, cache, log):
    """``_rollout_with`` the base policy: strong's kernel when ``strong``, else the heuristic's.
    Compiled without reference counting, as the engine's loop is: counted, the loop compiled
    in place paid an atomic increment and decrement for every view of the work arrays it made
    at every step (a sixth of a labelling's time); ``cache`` and ``log`` are the caller's."""
    if strong:
        _rollout_with(strong_decide, st, obs, p0, p1, rng, rules, scratch, cache, log)
    else:
        _rollout_with(heuristic_decide, st, obs, p0, p1, rng, rules, scratch, cache, log)


@njit(cache=True)
def _rollout_margin(st, team, own, opp, strong, rng, rules, obs, scratch, items, cache, log):
    """``base_rollout`` with the loop's plan ``cache`` (``E.PC_SIZE`` words) and ``log`` the
    caller's (allocated once for all its rollouts)."""
    p0, p1 = (own, opp) if team == 0 else (opp, own)
    _rollout_hand(st, obs, p0, p1, strong, rng, rules, scratch, cache, log)
    return team_margin(st, team, rules, items)


@njit(cache=True)
def base_rollout(st, team, own, opp, strong, rng, rules, obs, scratch, items):
    """``sim.engine.search.rollout`` with the base policy in every seat (``_rollout_hand``):
    ``team`` plays with parameters ``own``, the other team with ``opp`` (the expert passes its
    base parameters as both; strong's training models each team as it plays); then
    ``team_margin``. ``st`` is consumed."""
    log = np.zeros(1, dtype=np.int64)
    cache = np.zeros(E.PC_SIZE, dtype=np.int64)  # check_action's opening plan
    return _rollout_margin(st, team, own, opp, strong, rng, rules, obs, scratch, items, cache, log)


@njit(cache=True)
def search_positions(
    obs, samples, rollouts, own, opp, strong, rng, rules, cands, n, totals, memory=False
):
    """Sum over ``samples`` x ``rollouts`` sampled positions of the hand margin after each
    candidate (same positions for every candidate: common random numbers), rollouts by
    ``base_rollout`` (the deciding team with ``own``, the other with ``opp``); ``memory``:
    the determinizations place the public card memory's cards (``determinize``); returns how
    many positions were played."""
    team = obs[E.OB_SEAT] % E.N_TEAMS
    srng = np.zeros(4, dtype=np.uint64)
    seed_search(rng, srng)
    base = np.zeros(E.STATE_SIZE, dtype=np.int64)
    st = np.zeros(E.STATE_SIZE, dtype=np.int64)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    robs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    rscratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    items = np.zeros((E.N_TEAMS, E.N_SCORE_ITEMS), dtype=np.int64)
    rrng = np.zeros(4, dtype=np.uint64)
    rrng0 = np.zeros(4, dtype=np.uint64)
    log = np.zeros(1, dtype=np.int64)
    cache = np.zeros(E.PC_SIZE, dtype=np.int64)  # the rollouts' plan of check_action
    for c in range(n):
        totals[c] = 0
    done = 0
    for _ in range(samples):
        if not determinize(obs, base, srng, work, memory):
            break
        for r in range(rollouts):
            if r > 0:
                reshuffle_stock(base, srng, work)
            seed_search(srng, rrng0)  # the rollout policies' generator, the same per candidate
            for c in range(n):
                copy_into(st, base)
                copy_into(rrng, rrng0)
                apply_action(st, cands[c], rules, log)
                m = _rollout_margin(
                    st, team, own, opp, strong, rrng, rules, robs, rscratch, items, cache, log
                )
                totals[c] += m
            done += 1
    return done


@njit(cache=True)
def search_weighted(
    obs, samples, rollouts, own, opp, strong, rng, rules, cands, n, totals, memory, t, eps, ess
):
    """``search_positions`` with each determinization's rollouts weighted by the likelihood of
    the opponents' observed play under it (``sim.policies.inference.deal_likelihood``, strong's
    softened play with the parameters ``own``): ``totals`` (float64) the weighted sums of the
    margins; ``ess[0]`` the weight summed over the positions played (the weighted mean margin
    is ``totals[c] / ess[0]``), ``ess[1]`` the effective sample size of the determinizations,
    ``(sum w)^2 / sum w^2``; returns how many positions were played."""
    team = obs[E.OB_SEAT] % E.N_TEAMS
    srng = np.zeros(4, dtype=np.uint64)
    seed_search(rng, srng)
    base = np.zeros(E.STATE_SIZE, dtype=np.int64)
    st = np.zeros(E.STATE_SIZE, dtype=np.int64)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    robs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    rscratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    wst = np.zeros(E.STATE_SIZE, dtype=np.int64)
    wobs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    items = np.zeros((E.N_TEAMS, E.N_SCORE_ITEMS), dtype=np.int64)
    rrng = np.zeros(4, dtype=np.uint64)
    rrng0 = np.zeros(4, dtype=np.uint64)
    log = np.zeros(1, dtype=np.int64)
    cache = np.zeros(E.PC_SIZE, dtype=np.int64)
    for c in range(n):
        totals[c] = 0.0
    done = 0
    w_sum, w_det, w_sq = 0.0, 0.0, 0.0
    for _ in range(samples):
        if not determinize(obs, base, srng, work, memory):
            break
        w = deal_likelihood(obs, base, own, srng, rules, rscratch, t, eps, wst, wobs)
        w_det += w
        w_sq += w * w
        for r in range(rollouts):
            if r > 0:
                reshuffle_stock(base, srng, work)
            seed_search(srng, rrng0)
            for c in range(n):
                copy_into(st, base)
                copy_into(rrng, rrng0)
                apply_action(st, cands[c], rules, log)
                m = _rollout_margin(
                    st, team, own, opp, strong, rrng, rules, robs, rscratch, items, cache, log
                )
                totals[c] += w * m
            done += 1
            w_sum += w
    ess[0] = w_sum
    ess[1] = w_det * w_det / w_sq if w_sq > 0 else 0.0
    return done


@njit(cache=True)
def _search_values(obs, params, rng, rules, cands, n, totals):
    """``search_positions`` with the expert's parameters: ``samples`` x ``rollouts``
    positions, the base policy in every seat."""
    hp = params[N_EXPERT_PARAMS:]
    strong = params[E_ROLLOUT] == ROLLOUT_STRONG
    n_samples = max(int(params[E_SAMPLES]), 1)
    n_rollouts = max(int(params[E_ROLLOUTS]), 1)
    memory = params[E_MEMORY] > 0
    return search_positions(
        obs, n_samples, n_rollouts, hp, hp, strong, rng, rules, cands, n, totals, memory
    )


@njit(cache=True)  # compiled to POLICY_SIGNATURE when first played (registry)
def expert_decide(obs, params, rng, rules, scratch):
    """Determinized Monte Carlo search (information-set Monte Carlo) over the base policy's
    rollouts at the draw, the discard and the start of a sevens, aces or wild meld; the base
    policy elsewhere (parameters: EXPERT_PARAMS)."""
    cands = np.empty(MAX_CANDIDATES, dtype=np.int64)
    n = candidates(obs, params, rng, rules, scratch, cands)
    if n <= 1:
        return cands[0]
    if params[E_INFER] > 0:
        return _inferred_choice(obs, params, rng, rules, cands, n)
    totals = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    done = _search_values(obs, params, rng, rules, cands, n, totals)
    if done == 0:
        return cands[0]
    best = 0
    need = params[E_MARGIN] * done
    for c in range(1, n):
        if totals[c] - totals[0] > need and totals[c] > totals[best]:
            best = c
    return cands[best]


@njit(cache=True)
def _inferred_choice(obs, params, rng, rules, cands, n):
    """``expert_decide``'s choice from ``search_weighted`` (infer=1): the candidate with the
    best weighted mean margin, by more than ``margin`` over the base policy's."""
    hp = params[N_EXPERT_PARAMS:]
    totals = np.zeros(MAX_CANDIDATES, dtype=np.float64)
    ess = np.zeros(2, dtype=np.float64)
    done = search_weighted(
        obs,
        max(int(params[E_SAMPLES]), 1),
        max(int(params[E_ROLLOUTS]), 1),
        hp,
        hp,
        params[E_ROLLOUT] == ROLLOUT_STRONG,
        rng,
        rules,
        cands,
        n,
        totals,
        params[E_MEMORY] > 0,
        params[E_INFER_T],
        params[E_INFER_EPS],
        ess,
    )
    if done == 0 or ess[0] <= 0:
        return cands[0]
    best = 0
    for c in range(1, n):
        gain = (totals[c] - totals[0]) / ess[0]  # weighted mean margin over strong's move
        if gain > params[E_MARGIN] and totals[c] > totals[best]:
            best = c
    return cands[best]


def expert_strong_table(base=None) -> tuple[tuple[str, float, str], ...]:
    """``expert_strong``'s table: the search parameters with rollout=1, then strong's table
    with its learned values as defaults; ``base``: another table of strong's kernel in its
    place (``expert_strong_v2`` passes strong_v2's, whose evaluator=2 its kernel then plays
    in the candidates, the other moves and every rollout)."""
    search = tuple(
        (n, float(ROLLOUT_STRONG) if n == "rollout" else d, doc) for n, d, doc in _SEARCH_TABLE
    )
    return (*search, *(strong_table() if base is None else base))


__all__ = ["candidates", "expert_decide"]
