"""Inference in the search: how likely a sampled deal of the unseen cards makes the opponents'
observed play, under a softened model of strong.

A determinization (``sim.engine.search.determinize``) deals the unseen cards as if the other
players' play said nothing about them. Their play does: a card an opponent just discarded was
one it chose to part with from the hand it held then. ``deal_likelihood`` weighs a sampled deal
by the probability of that choice under strong's play, softened so that no deal is given
weight zero:

    P(discard d | deal) = (1 - epsilon) * softmax(strong's scores / temperature)[d]
                          + epsilon * uniform over the legal discards

where the softmax runs over strong's candidate moves at that decision (``strong_candidates``:
its first discards in order, the start of a sevens/aces/wild meld) scored by its learned
evaluator; where strong would make one move only (the evaluator is not asked), that move has
all of the model's mass (a meld instead of the discard: the discard keeps only the epsilon
part: "melds not laid"). At ``temperature`` -> 0 the softmax is strong's argmax.

What the observation shows of the opponents' play: every turn ends with a discard, and the
pile starts empty, so while the player has not taken the pile its top card is the previous
player's (relative seat 3, an opponent) last discard. That discard is the action this module
reads; the observation keeps no other player's history (only the discards by kind and the
public card memory, which the determinization already places). The opponent's position at
that decision is rebuilt from the sampled deal (``_before_discard``): its sampled hand with
the discarded card back in, the pile without it, the turn one back; what happened since (the
player's own draw, when deciding after it) is left as it is, a small approximation.

The search (``sim.policies.expert``, parameter ``infer``) weights each determinization's
rollouts by this likelihood (importance weights: the prior is the determinization's) and
reports the effective sample size ``(sum w)^2 / sum w^2``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from sim import encoding as E
from sim.engine.observe import observe
from sim.policies.builtin import legal_discard_mask
from sim.policies.strong import N_STRONG, ev_cands, ev_phi, evaluated_candidates
from sim.policies.strong_features import N_FEATURES, score

__all__ = ["deal_likelihood", "discard_probability", "effective_sample_size", "observed_discard"]

PREVIOUS = E.N_PLAYERS - 1  #: relative seat of the previous player (an opponent)


@njit(cache=True)
def observed_discard(obs):
    """The kind the previous player (an opponent) discarded to end its last turn, read from the
    pile's top card; -1 when the observation does not show one (no turn before, or the player
    took the pile this turn)."""
    if obs[E.OB_TURN] < 1 or obs[E.OB_TOOK_PILE] != 0 or obs[E.OB_PILE_N] < 1:
        return -1
    return obs[E.OB_PILE_TOP]


@njit(cache=True)
def _before_discard(st, obs, d, out):
    """``out``: the sampled full state ``st`` as it stood at the previous player's discard
    decision: the discarded kind ``d`` back in its hand and off the pile (its top, its count) and
    the discard history, that player to act in its play step, the turn one back."""
    out[:] = st
    q = (obs[E.OB_SEAT] + PREVIOUS) % E.N_PLAYERS
    out[E.ST_HANDS + q * E.N_KINDS + d] += 1
    out[E.ST_PILE_N] -= 1
    out[E.ST_PILE_COUNTS + d] -= 1
    out[E.ST_DISCARDS + d] -= 1
    out[E.ST_PLAYER] = q
    out[E.ST_PHASE] = E.PH_PLAY
    out[E.ST_TURN] -= 1
    out[E.ST_DREW_STOCK] = 1  # it drew from the stock, or (pile now empty) took the pile
    out[E.ST_TOOK_PILE] = 1 if out[E.ST_PILE_N] == 0 else 0
    if out[E.ST_TOOK_PILE] == 1:
        out[E.ST_DREW_STOCK] = 0
    out[E.ST_MELDED] = 0
    out[E.ST_OPENING_TURN] = 1 - out[E.ST_OPENED + q % E.N_TEAMS]
    return q


@njit(cache=True)
def _popcount(x):
    n = 0
    while x:
        n += x & 1
        x >>= 1
    return n


@njit(cache=True)
def discard_probability(qobs, d, sp, rng, rules, scratch, temperature, epsilon):
    """P(strong, softened, discards kind ``d``) at the observation ``qobs`` (see the module):
    strong's parameters ``sp`` with its evaluator's weights after them."""
    legal = legal_discard_mask(qobs)
    n_legal = _popcount(legal)
    uniform = 1.0 / n_legal if (legal >> d) & 1 else 1.0 / E.N_KINDS
    a0, n, _ = evaluated_candidates(qobs, sp, rng.copy(), rules, scratch, N_STRONG)
    target = E.A_DISCARD + d
    if n <= 1:
        model = 1.0 if a0 == target else 0.0
    else:
        cands = ev_cands(scratch)
        phi = ev_phi(scratch)
        weights = sp[N_STRONG : N_STRONG + N_FEATURES]
        t = max(temperature, 1e-9)
        top = -math.inf
        for c in range(n):
            top = max(top, score(weights, phi[c]))
        total, hit = 0.0, 0.0
        for c in range(n):
            e = math.exp((score(weights, phi[c]) - top) / t)
            total += e
            if cands[c] == target:
                hit += e
        model = hit / total
    return (1.0 - epsilon) * model + epsilon * uniform


@njit(cache=True)
def deal_likelihood(obs, st, sp, rng, rules, scratch, temperature, epsilon, work_st, work_obs):
    """The likelihood of the previous opponent's observed discard (``observed_discard``) under
    the sampled deal ``st``; 1.0 when the observation shows none. ``work_st``/``work_obs``:
    a state and an observation to rebuild its decision in."""
    d = observed_discard(obs)
    if d < 0:
        return 1.0
    q = _before_discard(st, obs, d, work_st)
    observe(work_st, q, work_obs)
    return discard_probability(work_obs, d, sp, rng, rules, scratch, temperature, epsilon)


def effective_sample_size(weights: np.ndarray) -> float:
    """(sum w)^2 / sum w^2: how many equally weighted samples the weighted ones are worth."""
    w = np.asarray(weights, dtype=float)
    return float(w.sum() ** 2 / (w**2).sum()) if (w**2).sum() > 0 else 0.0
