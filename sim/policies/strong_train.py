"""Training data for ``strong``'s evaluator: decisions of real hands labelled by
search. Imported by the training code (``analysis.distill``) only, never to play.

``label_hands_kernel`` plays hands with the policy being trained (``strong`` with its current
weights) as team 0 against an opponent from a pool (strong's kernel with other parameters: at
its neutral values it is the heuristic; hand ``h`` meets opponent ``h % len(pool)``), so the
data covers the positions the policy reaches against each. At each decision of team 0 where
``strong_candidates`` lists two or more moves, with probability ``p_label``, a determinized
search values each candidate: the unseen cards dealt ``samples`` times
(``sim.engine.search.determinize``), ``rollouts`` stock orders each, every candidate played to
the hand's end by the policy for its team and by that hand's opponent for the other (the
expert's search, ``sim.policies.expert.search_positions``, with the opponents modelled as
they play), all candidates on the same positions. A row per candidate records its features and its
mean hand margin. The search and the choice of decisions draw from a generator of their own,
seeded per hand from ``label_key``, so the hands played are those of the same run key without
labels, and every row depends only on (run key, label key, hand): the same for any split into
chunks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import encoding as E
from sim.engine.contract import MODE_TRUSTED
from sim.engine.intercept import IC_KIND, IC_SIZE, IK_PAUSE, PAUSED, reset_intercept
from sim.engine.play import new_deck, resume_direct
from sim.engine.state import deal
from sim.policies.expert import search_positions
from sim.policies.strong import (
    MAX_CANDIDATES,
    strong_base_decide,
    strong_candidates,
    strong_decide,
    v2_candidates,
)
from sim.policies.strong_features import context
from sim.policies.strong_v2_features import N_FEATURES_V2, V2_MAX_CANDIDATES, v2_features
from sim.rng import rand_float, seed_hand

__all__ = [
    "N_ROW_COLUMNS",
    "ROWS_PER_HAND",
    "ROWS_PER_HAND_V2",
    "ROW_COLUMNS",
    "R_CANDIDATE",
    "R_KIND",
    "label_hands_kernel",
]

#: the integer columns of a training row (one row per candidate of a labelled decision)
ROW_COLUMNS = (
    "hand",
    "decision",
    "kind",
    "candidate",
    "n",
    "done",
    "seat",
    "turn",
    "action",
    "opponent",  # the hand's opponent: its row of the pool
)
(R_HAND, R_DECISION, R_KIND, R_CANDIDATE, R_N, R_DONE, R_SEAT, R_TURN, R_ACTION, R_OPPONENT) = (
    range(len(ROW_COLUMNS))
)
N_ROW_COLUMNS = len(ROW_COLUMNS)
ROWS_PER_HAND = 64 * MAX_CANDIDATES  #: room a hand may fill (about 20 decisions a hand)
ROWS_PER_HAND_V2 = 64 * V2_MAX_CANDIDATES  #: the same with strong_v2's candidates


@njit(cache=True)
def label_hands_kernel(
    key, label_key, start, stop, pol, pool, samples, rollouts, rules, p_label, x, v, meta
):
    """Hands ``start..stop-1`` of run key ``key``: strong with parameters ``pol`` as team 0
    against ``pool[h % len(pool)]`` (rows of strong parameter arrays); team 0's decisions
    labelled by ``search_positions`` into ``x`` (features: strong's, or strong_v2's candidates
    and features when ``x`` has ``N_FEATURES_V2`` columns), ``v`` (mean margin of the
    candidate for the deciding team) and ``meta`` (ROW_COLUMNS; ``decision`` counts the hand's
    labelled decisions). Returns the number of rows written, -1 if the arrays ran out of room."""
    st = np.zeros(E.STATE_SIZE, dtype=np.int64)
    obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    rng = np.zeros(4, dtype=np.uint64)
    lrng = np.zeros(4, dtype=np.uint64)
    log = np.zeros(1, dtype=np.int64)
    deck = np.zeros(E.N_CARDS, dtype=np.int64)
    cache = np.zeros(E.PC_SIZE, dtype=np.int64)
    v2 = x.shape[1] == N_FEATURES_V2  # strong_v2's evaluator: its candidates and features
    room = V2_MAX_CANDIDATES if v2 else MAX_CANDIDATES
    cands = np.empty(room, dtype=np.int64)
    aux = np.zeros(room, dtype=np.int64)
    keeps = np.zeros(room, dtype=np.float64)
    phi = np.empty((room, x.shape[1]), dtype=np.float64)
    totals = np.zeros(16, dtype=np.int64)
    icpt = np.zeros(IC_SIZE, dtype=np.int64)
    icpt[IC_KIND] = IK_PAUSE  # at team 0's decisions (IC_TEAM 0)
    rows = 0
    for h in range(start, stop):
        seed_hand(key, h, rng)
        seed_hand(label_key, h, lrng)
        new_deck(rng, deck)
        deal(st, deck, h % 4, 0, 0, rules, log)
        opp = pool[h % pool.shape[0]]
        decision = 0  # (hand, decision) names a labelled decision
        # the hand on the engine's one loop, paused at each of team 0's decisions: one call
        # of the loop compiled in place (``resume_direct``), plan and intercept reset here
        # as ``hand_direct`` does, so the labelling kernel compiles one copy of it
        for i in range(E.PC_SIZE):
            cache[i] = 0
        reset_intercept(icpt)
        while True:
            code = resume_direct(
                st,
                obs,
                strong_decide,
                strong_decide,
                pol,
                opp,
                rng,
                rules,
                scratch,
                cache,
                log,
                icpt,
                MODE_TRUSTED,  # strong in every seat: its proposals are not judged again
            )
            if code != PAUSED:
                break
            a0 = strong_base_decide(obs, pol, rng, rules, scratch)
            if v2:
                n, kind = v2_candidates(obs, pol, rng, rules, scratch, a0, cands, aux, keeps)
                if n >= 2:
                    ctx = context(obs, pol)
                    for c in range(n):
                        v2_features(obs, ctx, kind, c, cands, aux, keeps, phi[c])
            else:
                n, kind = strong_candidates(obs, pol, rng, rules, scratch, a0, cands, phi)
            if n >= 2 and rand_float(lrng) < p_label:
                if rows + n > x.shape[0]:
                    return -1
                done = search_positions(
                    obs, samples, rollouts, pol, opp, True, lrng, rules, cands, n, totals
                )
                for c in range(n):
                    r = rows + c
                    for j in range(x.shape[1]):
                        x[r, j] = phi[c, j]
                    v[r] = totals[c] / max(done, 1)
                    meta[r, R_HAND] = h
                    meta[r, R_DECISION] = decision
                    meta[r, R_KIND] = kind
                    meta[r, R_CANDIDATE] = c
                    meta[r, R_N] = n
                    meta[r, R_DONE] = done
                    meta[r, R_SEAT] = st[E.ST_PLAYER]
                    meta[r, R_TURN] = st[E.ST_TURN]
                    meta[r, R_ACTION] = cands[c]
                    meta[r, R_OPPONENT] = h % pool.shape[0]
                rows += n
                decision += 1
    return rows
