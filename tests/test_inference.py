"""Inference in the search (``sim.policies.inference``): a sampled deal weighted by how likely it
makes the previous opponent's last discard under strong's softened play.

The exact case: a real position shrunk to a small deck (most unseen cards moved into the pile,
where they are seen), so that every deal of the unseen cards can be listed. By enumeration, the
Bayes posterior of a deal is its prior (the determinization's: every arrangement of the unseen
cards alike, a multivariate hypergeometric over kinds) times the likelihood, normalised. The
kernel's likelihood equals a plain-Python twin on every deal, and the weighted determinizations
estimate the enumerated posterior within 5 standard errors.
"""

import math

import numpy as np
import pytest

from sim import encoding as E
from sim.engine.invariants import check_invariants
from sim.engine.observe import observe
from sim.engine.search import KIND_IDS, WORK_SIZE, determinize, seed_search
from sim.errors import CanastaError
from sim.play.table import TableView
from sim.policies import parse
from sim.policies.builtin import legal_discard_mask
from sim.policies.inference import (
    deal_likelihood,
    discard_probability,
    effective_sample_size,
    observed_discard,
)
from sim.policies.strong import N_STRONG, ev_cands, ev_phi, evaluated_candidates
from sim.policies.strong_features import N_FEATURES
from tests.test_expert import RULES, real_positions

T, EPS = 50.0, 0.1  #: the expert's defaults (infer_temperature, infer_epsilon)
SP = parse("strong")[1]  #: strong's parameters, its evaluator's weights after them
THREES = (E.RED_THREE, E.BLACK_THREE)


def _hand(st, q):
    return TableView.writable(st).hands[q]


def _to_pile(st, kind):
    """Put one card of ``kind`` at the bottom of the pile (seen by everyone)."""
    w = TableView.writable(st)
    n = w.pile_n
    w.pile[1 : n + 1] = w.pile[:n].copy()
    w.pile[0] = kind
    w.pile_n = n + 1
    w.pile_counts[kind] += 1
    w.discards[kind] += 1


def small_position(hand_cap=2, stock_left=2):
    """A real position at a draw step where the previous opponent's discard is on the pile,
    shrunk: every other hand kept to ``hand_cap`` cards and the stock to ``stock_left``, the rest
    (and every unseen three: DEAL-4 deals them apart) moved to the pile's bottom; the public
    card memory cleared. Returns (state, player)."""
    for st, obs in real_positions(3, hands=4):
        p = obs[E.OB_SEAT]
        if obs[E.OB_PHASE] != E.PH_DRAW or observed_discard(obs) < 0 or obs[E.OB_TURN] < 8:
            continue
        st = st.copy()
        w = TableView.writable(st)
        w.known[:] = 0
        for i in range(1, E.N_PLAYERS):
            h = _hand(st, (p + i) % E.N_PLAYERS)
            for k in THREES:
                while h[k] > 0:
                    h[k] -= 1
                    _to_pile(st, k)
            while h.sum() > hand_cap:
                k = int(np.flatnonzero(h)[-1])
                h[k] -= 1
                _to_pile(st, k)
        stock = list(w.stock_cards)
        kept = [c for c in stock if E.CARD_KIND[c] not in THREES][:stock_left]
        for c in stock:
            if c not in kept:
                _to_pile(st, E.CARD_KIND[c])
        w.stock[: len(kept)] = kept
        w.stock_n = len(kept)
        top = w.pile_kinds[-1]  # the pile's top stays the discard
        assert top == obs[E.OB_PILE_TOP]
        assert check_invariants(st, RULES, np.zeros(E.TMP_SIZE, dtype=np.int64)) == 0  # CARD-1
        return st, p
    raise AssertionError("no position found")


def _unseen(st, p):
    """The unseen cards by kind (other hands and the stock) and the slots' sizes."""
    counts = np.zeros(E.N_KINDS, dtype=np.int64)
    sizes = []
    for i in range(1, E.N_PLAYERS):
        h = _hand(st, (p + i) % E.N_PLAYERS)
        counts += h
        sizes.append(int(h.sum()))
    for c in TableView(st).stock_cards:
        counts[E.CARD_KIND[c]] += 1
    sizes.append(int(st[E.ST_STOCK_N]))
    return counts, sizes


def _splits(counts, size):
    """Every multiset of ``size`` cards drawn from ``counts`` (kind -> copies)."""
    kinds = [k for k in range(E.N_KINDS) if counts[k] > 0]

    def rec(i, left):
        if i == len(kinds):
            if left == 0:
                yield {}
            return
        for c in range(min(counts[kinds[i]], left) + 1):
            for rest in rec(i + 1, left - c):
                yield {kinds[i]: c, **rest} if c else rest

    yield from rec(0, size)


def _deals(counts, sizes):
    """Every deal of the unseen kinds into the slots (three hands, then the stock), with its
    prior probability under the determinization (all arrangements of the cards alike)."""
    total = sum(sizes)
    arrangements = math.factorial(total) / math.prod(math.factorial(int(c)) for c in counts)

    def rec(slot, left):
        if slot == len(sizes) - 1:
            yield [dict((k, int(c)) for k, c in enumerate(left) if c)]
            return
        for part in _splits(left, sizes[slot]):
            rest = left.copy()
            for k, c in part.items():
                rest[k] -= c
            for tail in rec(slot + 1, rest):
                yield [part, *tail]

    for deal in rec(0, counts.copy()):
        ways = math.prod(
            math.factorial(sizes[s]) / math.prod(math.factorial(c) for c in deal[s].values())
            for s in range(len(sizes))
        )
        yield deal, ways / arrangements


def _dealt(st, p, deal):
    """The state with the other hands and the stock holding ``deal``."""
    out = st.copy()
    for i in range(1, E.N_PLAYERS):
        h = _hand(out, (p + i) % E.N_PLAYERS)
        h[:] = 0
        for k, c in deal[i - 1].items():
            h[k] = c
    ids = [KIND_IDS[k, j] for k, c in deal[-1].items() for j in range(c)]
    TableView.writable(out).stock[: len(ids)] = ids
    return out


def _twin_likelihood(st, p, temperature=T, epsilon=EPS):
    """The likelihood written plainly: the previous player's decision rebuilt by hand, strong's
    candidates scored, softmax, mixed with the uniform legal discard."""
    obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    observe(st, p, obs)
    d = int(obs[E.OB_PILE_TOP])
    q = (p + 3) % 4
    s = st.copy()
    w = TableView.writable(s)
    w.hands[q, d] += 1
    w.pile_n -= 1
    w.pile_counts[d] -= 1
    w.discards[d] -= 1
    s[E.ST_PLAYER], s[E.ST_PHASE], s[E.ST_TURN] = q, E.PH_PLAY, s[E.ST_TURN] - 1
    took = int(s[E.ST_PILE_N] == 0)
    s[E.ST_TOOK_PILE], s[E.ST_DREW_STOCK], s[E.ST_MELDED] = took, 1 - took, 0
    s[E.ST_OPENING_TURN] = 1 - w.opened[q % 2]
    qobs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    observe(s, q, qobs)
    legal = [k for k in range(E.N_KINDS) if (legal_discard_mask(qobs) >> k) & 1]
    uniform = 1 / len(legal) if d in legal else 1 / E.N_KINDS
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    rng = np.array([1, 2, 3, 4], dtype=np.uint64)
    a0, n, _ = evaluated_candidates(qobs, SP, rng, RULES, scratch, N_STRONG)
    if n <= 1:
        model = float(a0 == E.A_DISCARD + d)
    else:
        w = SP[N_STRONG : N_STRONG + N_FEATURES]
        scores = np.array([w @ ev_phi(scratch)[c] for c in range(n)])
        soft = np.exp((scores - scores.max()) / temperature)
        hit = [c for c in range(n) if ev_cands(scratch)[c] == E.A_DISCARD + d]
        model = soft[hit].sum() / soft.sum()
    return (1 - epsilon) * model + epsilon * uniform


def _kernel_likelihood(st, p, temperature=T, epsilon=EPS):
    obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    observe(st, p, obs)
    rng = np.array([1, 2, 3, 4], dtype=np.uint64)
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    wst = np.zeros(E.STATE_SIZE, dtype=np.int64)
    wobs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    return deal_likelihood(obs, st, SP, rng, RULES, scratch, temperature, epsilon, wst, wobs)


@pytest.fixture(scope="module")
def small():
    st, p = small_position()
    counts, sizes = _unseen(st, p)
    deals = list(_deals(counts, sizes))
    return st, p, deals


def test_every_deal_listed_and_the_prior_sums_to_one(small):
    deals = small[2]
    assert 20 <= len(deals) <= 20_000  # a deck small enough to list, big enough to matter
    assert math.isclose(sum(prior for _, prior in deals), 1.0, rel_tol=1e-12)


def test_likelihood_equals_its_twin_on_every_deal(small):
    """The kernel's weight of each listed deal equals the plain-Python twin's (1e-12), is never
    zero (the epsilon share), and varies across deals (the discard says something)."""
    st, p, deals = small
    weights = []
    for deal, _ in deals:
        s = _dealt(st, p, deal)
        w = _kernel_likelihood(s, p)
        assert w == pytest.approx(_twin_likelihood(s, p), abs=1e-12)
        assert w > 0
        weights.append(w)
    assert max(weights) > 2 * min(weights)


def test_weighted_determinizations_estimate_the_bayes_posterior(small):
    """The posterior by enumeration, P(the previous opponent holds kind k | its discard), for
    every kind it may hold, against the self-normalised weighted mean of the determinization's
    samples (6,000, fixed seed): within 5 standard errors (delta method), and the unweighted
    mean (the prior) is further from it where inference moves the odds."""
    st, p, deals = small
    q = 3  # relative seat of the previous player in the deal's slot order
    post = np.array([prior * _kernel_likelihood(_dealt(st, p, d), p) for d, prior in deals])
    post /= post.sum()
    obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    observe(st, p, obs)
    srng = np.zeros(4, dtype=np.uint64)
    seed_search(np.array([7, 7, 7, 7], dtype=np.uint64), srng)
    base = np.zeros(E.STATE_SIZE, dtype=np.int64)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    n = 6000
    held = np.zeros((n, E.N_KINDS))
    w = np.zeros(n)
    prev = (p + 3) % 4
    for i in range(n):
        assert determinize(obs, base, srng, work, False)
        held[i] = _hand(base, prev) > 0
        w[i] = _kernel_likelihood(base, p)
    ess = effective_sample_size(w)
    assert 0.05 * n < ess < n  # weights vary, yet the sample is not degenerate
    moved = 0
    for k in range(E.N_KINDS):
        exact = sum(pr for (d, _), pr in zip(deals, post, strict=True) if d[q - 1].get(k, 0) > 0)
        est = (w * held[:, k]).sum() / w.sum()
        se = math.sqrt((w**2 * (held[:, k] - est) ** 2).sum()) / w.sum()
        assert abs(est - exact) <= 5 * se + 1e-12, (k, est, exact, se)
        prior = sum(pr for d, pr in deals if d[q - 1].get(k, 0) > 0)
        moved += abs(exact - prior) > 0.02
    assert moved >= 1  # the discard moves the odds of some kind


def test_discard_probability_is_a_distribution():
    """Over every kind, the discard probabilities and the model's mass on other moves (a meld)
    add up to 1, at real play-step positions (the softmax and the epsilon share are proper)."""
    checked = 0
    for _st, obs in real_positions(4, hands=2):
        if obs[E.OB_PHASE] != E.PH_PLAY or legal_discard_mask(obs) == 0:
            continue
        rng = np.array([1, 2, 3, 4], dtype=np.uint64)
        scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
        legal = [k for k in range(E.N_KINDS) if (legal_discard_mask(obs) >> k) & 1]
        total = sum(discard_probability(obs, k, SP, rng, RULES, scratch, T, EPS) for k in legal)
        a0, n, _ = evaluated_candidates(obs, SP, rng.copy(), RULES, scratch, N_STRONG)
        # with several candidates the softmax's non-discard share; else strong's one move
        if n <= 1:
            other = 0.0 if E.ACTION_TABLE[a0, E.AC_TYPE] == E.AT_DISCARD else 1.0
        else:
            w = SP[N_STRONG : N_STRONG + N_FEATURES]
            sc = np.array([w @ ev_phi(scratch)[c] for c in range(n)])
            soft = np.exp((sc - sc.max()) / T)
            is_d = [
                E.ACTION_TABLE[ev_cands(scratch)[c], E.AC_TYPE] == E.AT_DISCARD for c in range(n)
            ]
            other = soft[~np.array(is_d)].sum() / soft.sum()
        assert total + (1 - EPS) * other == pytest.approx(1.0, abs=1e-9)
        checked += 1
    assert checked > 50


def test_expert_infer_option_checked_and_off_by_default():
    """infer is off by default; its epsilon must keep every weight above zero."""
    spec = parse("expert_strong")[0]
    assert dict(spec.params)["infer"] == 0
    with pytest.raises(CanastaError, match="infer_epsilon"):
        parse("expert_strong:infer=1,infer_epsilon=0")
    with pytest.raises(CanastaError, match="infer_epsilon"):
        parse("expert_strong:infer=1,infer_epsilon=2")


def test_expert_infer_without_an_observed_discard_changes_nothing():
    """Where the observation shows no discard of the previous opponent (the hand's first turn,
    or the pile taken), every weight is 1 and the search decides exactly as without inference."""
    from sim.policies.expert import expert_decide

    _, on, _ = parse("expert_strong:samples=3,rollouts=1,infer=1")
    _, off, _ = parse("expert_strong:samples=3,rollouts=1")
    seen = 0
    for _st, obs in real_positions(5, hands=3):
        if obs[E.OB_PHASE] not in (E.PH_DRAW, E.PH_PLAY) or observed_discard(obs) >= 0:
            continue
        a = expert_decide(obs, on, np.array([1, 2, 3, 4], dtype=np.uint64), RULES,
                          np.zeros(E.SCRATCH_SIZE, dtype=np.int64))  # fmt: skip
        b = expert_decide(obs, off, np.array([1, 2, 3, 4], dtype=np.uint64), RULES,
                          np.zeros(E.SCRATCH_SIZE, dtype=np.int64))  # fmt: skip
        assert a == b
        seen += 1
    assert seen >= 10
