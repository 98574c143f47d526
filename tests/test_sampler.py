"""ODDS-1 dealt-odds sampler: both kernels agree with the exact odds and with each other,
counts never depend on chunking or jobs, rounds to a relative error, per-deal records."""

import math

import numpy as np
import pytest

from analysis.intervals import wilson_bounds
from sim.encoding import RED_THREE, SPECIAL_NONE
from sim.errors import CanastaError
from sim.odds import exact_odds
from sim.rng import run_key
from sim.ruleset import DEFAULT_RULESET, Ruleset
from sim.sampler import (
    BLOCK,
    HAND_NAMES,
    SPECIAL_NAMES,
    count_hits,
    dealt_records,
    relative_se,
    sample_dealt_odds,
    wilson,
)
from sim.special import classify_special

RULES = DEFAULT_RULESET.to_array()
EXACT = {k: float(v) for k, v in exact_odds().items()}
Z_TOL = 4.5  # tolerance in standard errors: a false alarm about once in 150,000 runs


def _named(hits):
    out = {name: int(hits[SPECIAL_NAMES.index(name)]) for name in HAND_NAMES[:-1]}
    out["any"] = int(hits[0])
    return out


def _within(hits, n, p):
    """|hits - n p| within Z_TOL binomial standard errors."""
    return abs(hits - n * p) <= Z_TOL * math.sqrt(n * p * (1 - p))


def test_odds_1_fast_estimates_agree_with_exact_values():
    """ODDS-1: 40M deals (seed 11), straight/pairs/pairs 2-7-A/any each within 4.5 binomial
    standard errors of sim.odds.exact_odds (expected hits ~1,060 / 4,030 / 1,540 / 6,650, so
    the check resolves the odds to about 10-15%)."""
    n = 40_000_000
    got = _named(count_hits(run_key(11), 0, n, RULES, "fast"))
    for name in ("straight", "pairs", "pairs_twos_sevens_aces", "any"):
        assert _within(got[name], n, EXACT[name]), (name, got[name], n * EXACT[name])
    # garbage (~1 in 1.45M) expects ~28 hits here: only a loose sanity bound
    assert _within(got["garbage"], n, EXACT["garbage"])


def test_odds_1_baseline_agrees_with_exact_and_with_fast_kernel():
    """ODDS-1: the baseline (full shuffle, real deal positions) on 3M deals agrees with the
    exact values (4.5 SE), and with the fast kernel's 30M deals by a two-sample z-test on
    'any', straight and pairs: the two kernels sample the same distribution."""
    n_base, n_fast = 3_000_000, 30_000_000
    base = _named(count_hits(run_key(5), 0, n_base, RULES, "baseline"))
    fast = _named(count_hits(run_key(6), 0, n_fast, RULES, "fast"))
    for name in ("straight", "pairs", "pairs_twos_sevens_aces", "any"):
        assert _within(base[name], n_base, EXACT[name]), (name, base[name])
    for name in ("any", "straight", "pairs"):
        p1, p2 = base[name] / n_base, fast[name] / n_fast
        pooled = (base[name] + fast[name]) / (n_base + n_fast)
        se = math.sqrt(pooled * (1 - pooled) * (1 / n_base + 1 / n_fast))
        assert abs(p1 - p2) <= Z_TOL * se, (name, p1, p2)


def test_odds_1_counts_do_not_depend_on_chunks_or_jobs():
    """Deal i depends only on (seed, i): split points inside blocks, any chunk size and 2 jobs
    give the same counts as one range."""
    key = run_key(3)
    n = 3 * BLOCK * 50 + 123
    whole = count_hits(key, 0, n, RULES, "fast")
    for cut in (1, BLOCK - 1, BLOCK, 5 * BLOCK + 17):
        parts = count_hits(key, 0, cut, RULES, "fast") + count_hits(key, cut, n, RULES, "fast")
        assert np.array_equal(parts, whole)
    a = sample_dealt_odds(n, seed=3, chunk_size=4097)
    b = sample_dealt_odds(n, seed=3, chunk_size=BLOCK * 7, n_jobs=2)
    assert a.hits == b.hits == _named(whole)
    base_whole = count_hits(key, 0, 5000, RULES, "baseline")
    base_parts = count_hits(key, 0, 1234, RULES, "baseline")
    base_parts += count_hits(key, 1234, 5000, RULES, "baseline")
    assert np.array_equal(base_whole, base_parts)


def test_odds_1_rel_error_rounds_extend_the_same_deals():
    """--rel-error: rounds go on until every hand's relative SE <= R, or stop at --max-deals;
    the result equals one run of the final size."""
    r = sample_dealt_odds(200_000, seed=2, rel_error=0.1, max_deals=5_000_000)
    assert r.rounds > 1 and r.deals <= 5_000_000
    rows = r.rows()
    reached = all(rows[h]["rel_se"] <= 0.1 for h in HAND_NAMES)
    assert reached or r.deals == 5_000_000
    one = sample_dealt_odds(r.deals, seed=2)
    assert one.hits == r.hits
    # without garbage's tiny odds the rounds do reach the target: 'straight' alone at 10%
    # needs ~100 hits (~3.8M deals), under the cap
    assert rows["straight"]["rel_se"] <= 0.1 or r.deals == 5_000_000


def test_special_7_none_gives_zero_odds_and_stops():
    """SPECIAL-7 'none': no deal is special; --rel-error does not loop on zero odds."""
    r = sample_dealt_odds(50_000, seed=1, ruleset=Ruleset(special_hands="none"), rel_error=0.01)
    assert r.deals == 50_000 and r.rounds == 1
    assert all(v == 0 for v in r.hits.values())
    assert all(row["exact"] == 0 for row in r.rows().values())


def test_sampled_json_shape_and_wilson_interval():
    """JSON: the --exact keys, each adding hits, deals, estimate, ci_low, ci_high."""
    r = sample_dealt_odds(100_000, seed=9)
    d = r.to_dict()
    assert list(d) == list(exact_odds())
    for row in d.values():
        assert {"hits", "deals", "estimate", "ci_low", "ci_high", "exact"} <= set(row)
        assert row["ci_low"] <= row["estimate"] <= row["ci_high"]
    assert "95% Wilson" in r.table() and "garbage" in r.table()
    # the same Wilson score interval as analysis.intervals, the project's one definition
    for k, n in ((10, 1000), (0, 50), (7, 7), (3, 10**9)):
        _, low, high = wilson_bounds(k, n)
        assert wilson(k, n) == pytest.approx((float(low), float(high)), rel=1e-12, abs=1e-15)
    assert wilson(0, 100)[0] == 0.0 and relative_se(0, 100) == math.inf


def test_bad_sampler_input_is_refused():
    for kwargs in ({"n_deals": 0}, {"rel_error": 1.5}, {"max_deals": -1}, {"kernel": "x"}):
        with pytest.raises(CanastaError):
            sample_dealt_odds(**{"n_deals": 10, **kwargs})


def test_odds_1_dealt_records_follow_the_model():
    """ODDS-1 records: the pairs hand is 14 non-threes, the Straight needs a three among the
    first 14 cards, codes agree with classify_special (SPECIAL-3..6), rows depend on (seed, i)."""
    key = run_key(4)
    df = dealt_records(key, 0, 3000)
    kinds = [c for c in df.columns if c.startswith("n_")]
    counts = df[kinds].to_numpy(np.int64)
    assert (counts.sum(axis=1) == 14).all()
    assert ((df.first_three_at >= 0) & (df.first_three_at <= 14)).all()
    assert (df.received >= 14).all()
    assert (df.distinct == (counts > 0).sum(axis=1)).all()
    assert (df.straight_hand[df.first_three_at == 0] == SPECIAL_NONE).all()
    full = np.zeros(15, dtype=np.int64)
    for i in range(0, 3000, 7):
        full[:] = 0
        full[[k for k in range(15) if k not in (2, 3)]] = counts[i]
        assert df.pairs_hand[i] == classify_special(full, RULES)
    assert (dealt_records(key, 1000, 1100).to_numpy() == df.iloc[1000:1100].to_numpy()).all()
    assert RED_THREE == 2  # records drop the two three kinds (2 and 3) from the pairs hand


@pytest.mark.slow
def test_odds_1_garbage_within_its_interval_at_5_percent():
    """ODDS-1 Garbage (~1 in 1.45M): sampled until its relative SE <= 5% (~400 hits, ~600M
    deals, 2 jobs); the exact value lies within 4.5 standard errors (about +-23%)."""
    r = sample_dealt_odds(50_000_000, seed=21, rel_error=0.05, n_jobs=2)
    g = r.rows()["garbage"]
    assert g["rel_se"] <= 0.05
    assert _within(g["hits"], r.deals, EXACT["garbage"])
    for name in HAND_NAMES:
        assert _within(r.hits[name], r.deals, EXACT[name]), name
