"""Stand-ins shared by several test files (the report's tests): small, seeded, known answers."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np

from sim import encoding as E
from sim.odds import exact_odds

__all__ = [
    "binomial_odds",
    "deal_outcomes",
    "few_kind_vectors",
    "neighbour_vectors",
    "numba_cache_dir",
    "plan_cache_walk",
    "play_env_episode",
    "scratch_hint",
]


def numba_cache_dir(source) -> Path:
    """The directory numba caches the compiled functions of the file ``source`` (which must
    exist) in, asked of
    numba's own locators in numba's order: ``NUMBA_CACHE_DIR`` when set (as CI images and
    containers often do), else ``__pycache__`` beside the source, else the user-wide cache."""
    from numba.core.caching import FunctionCache

    for locator in FunctionCache._impl_class._locator_classes:
        found = locator.from_function(numba_cache_dir, str(source))
        if found is not None:
            return Path(found.get_cache_path())
    raise RuntimeError(f"numba has no cache directory for {source}")  # pragma: no cover


def binomial_odds(n_deals, seed=0, n_jobs=1, ruleset=None):
    """Stand-in for the dealt-odds sampler: hits ~ Binomial(deals, exact p) per hand."""
    rng = np.random.default_rng(seed)
    return {
        h: {"hits": int(rng.binomial(n_deals, float(p))), "deals": n_deals}
        for h, p in exact_odds(ruleset).items()
    }


def scratch_hint(g):
    """The plan the game's policies left in their scratch (the engine's hint, SCRATCH_HINT)."""

    n = E.N_KINDS * E.N_MELD_COLS
    return g._scratch[E.SCRATCH_HINT : E.SCRATCH_HINT + n].reshape(E.N_KINDS, E.N_MELD_COLS)


def _decisions(g):
    """``(turn, forced)`` for each turn of ``g`` where its player has a choice, from the one
    turn loop (``Hand.turns``, no seat given a policy): the forced steps are played (``forced``:
    one was since the last choice), and the caller applies each choice before the next."""
    forced = False
    while not g.is_over:
        for t in g.turns((None, None)):
            if t.action is None:
                yield t, forced
                forced = False
            else:
                forced = True


def plan_cache_walk(g, policy: str) -> tuple[int, int]:
    """OPEN-1..4: play ``g`` out with ``policy``, the opening plan cache kept as the engine
    keeps it (reset by a forced step), and assert that ``check_action`` gives
    ``action_reason``'s answer for every meld operation while the cache is valid (each probe on
    a copy, the state the engine would see) and for the policy's own choice (on the cache).
    Returns (decisions with a valid cache, meld operations probed)."""
    from sim.engine.judge import action_reason, check_action

    tmp = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)[E.SCRATCH_TMP : E.SCRATCH_TMP + E.TMP_SIZE]
    tmp2 = np.zeros_like(tmp)
    cache = np.zeros(E.PC_SIZE, dtype=np.int64)
    hits = probed = 0
    for t, forced in _decisions(g):
        obs = t.obs
        if forced:  # the engine resets the cache at a forced step
            cache[E.PC_VALID] = 0
        if cache[E.PC_VALID] == 1:
            hits += 1
            for b in range(E.A_FIRST_MELD, E.N_ACTIONS):
                want = action_reason(obs, b, g.rules, tmp2)
                got = check_action(obs, b, g.rules, tmp, cache.copy(), scratch_hint(g))
                assert got == want, (g.hand_id, b)
                probed += 1
        a = g.policy_action(policy)
        got = check_action(obs, a, g.rules, tmp, cache, scratch_hint(g))
        assert got == action_reason(obs, a, g.rules, tmp2), (g.hand_id, a)
        g.apply(a)
    return hits, probed


def neighbour_vectors(rows):
    """Every count vector one card away (one out, one in, or one swapped) from ``rows``."""

    out = []
    for row in rows:
        for k in range(E.N_KINDS):
            if row[k] > 0:
                less = row.copy()
                less[k] -= 1
                out.append(less)
                for j in range(E.N_KINDS):
                    if j != k and less[j] < E.KIND_COPIES[j]:
                        swap = less.copy()
                        swap[j] += 1
                        out.append(swap)
            if row[k] < E.KIND_COPIES[k]:
                more = row.copy()
                more[k] += 1
                out.append(more)
    return np.unique(np.array(out), axis=0)


def play_env_episode(e, policies) -> None:
    """Play the current episode of the environment ``e`` to its end, team t's seats with
    the registered policy ``policies[t]``."""
    from sim.env import AGENTS

    raw = e.unwrapped
    for agent in e.agent_iter():
        _, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(raw.policy_action(policies[AGENTS.index(agent) % 2]))


def deal_outcomes(deck):
    """Every deal of a small ``sim.odds.Deck``, card by card, grouped by what ODDS-1 reads of
    it: whether a three came among the first ``hand`` cards, the counts ``v`` of the first
    ``hand`` non-threes and the kind of the last of them; {(flag, v, last): probability}."""
    copies = deck.kind_copies()
    states = {(0, False, (0,) * deck.kinds, -1): Fraction(1)}
    done = Counter()
    while states:
        nxt = Counter()
        for (t, flag, v, last), p in states.items():
            pos = t + sum(v)
            left = deck.size - pos
            if deck.threes - t:
                nxt[(t + 1, flag or pos < deck.hand, v, last)] += p * Fraction(
                    deck.threes - t, left
                )
            for k in range(deck.kinds):
                if copies[k] - v[k]:
                    w = tuple(n + (i == k) for i, n in enumerate(v))
                    key = (t, flag, w, k)
                    (done if sum(w) == deck.hand else nxt)[key] += p * Fraction(
                        copies[k] - v[k], left
                    )
        states = nxt
    out = Counter()
    for (_, flag, v, last), p in done.items():
        out[(flag, v, last)] += p
    return out


def _compositions(total, parts, cap):
    """Every way to write ``total`` as ``parts`` ordered parts of 1..cap, as an array."""
    out = [c for c in itertools.product(range(1, cap + 1), repeat=parts) if sum(c) == total]
    return np.array(out, dtype=np.int64).reshape(-1, parts)


def few_kind_vectors(total=14, max_kinds=4):
    """Every count vector of ``total`` cards holding at most ``max_kinds`` kinds (CARD-1 copy
    limits respected): every hand with a rank used 4+ times in few ranks, Garbage's whole
    neighbourhood (7-4-3, 8-3-3, 5-3-3-3, 4-4-4-2, ...)."""

    blocks = []
    for m in range(1, max_kinds + 1):
        comp = _compositions(total, m, int(E.KIND_COPIES.max()))
        for kinds in itertools.combinations(range(E.N_KINDS), m):
            ok = comp[(comp <= E.KIND_COPIES[list(kinds)]).all(axis=1)]
            block = np.zeros((len(ok), E.N_KINDS), dtype=np.int64)
            block[:, list(kinds)] = ok
            blocks.append(block)
    return np.concatenate(blocks)
