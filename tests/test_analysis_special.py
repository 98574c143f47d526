"""analysis.special: dealt odds beside Monte Carlo (ODDS-1), special hands during play
(SPECIAL-1, SCORE-8) on synthetic records with known probabilities, chasing gain (exact)."""

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from analysis import special
from analysis import synthetic as syn

N = 20_000  # synthetic hands
P_CHASE = 0.02  # special_chaser's synthetic declaration probability per team-hand


@pytest.fixture(scope="module")
def records():
    return syn.synthetic_records(
        N, seed=3, policies=("special_chaser", "heuristic"), p_special={"special_chaser": P_CHASE}
    )


def test_special_frequency_by_policy(records):
    """SCORE-8 award marks the declaring team: 'any' recovers p_special within 5 SE; a policy
    that never declares gets exactly 0 with a Wilson upper bound > 0."""
    t = special.special_frequency(records).set_index(["policy", "special_hand"])
    r = t.loc[("special_chaser", "any")]
    assert r["n"] == N
    assert abs(r["estimate"] - P_CHASE) <= 5 * np.sqrt(P_CHASE * (1 - P_CHASE) / N)
    # the four hands are equally likely in the synthetic data and add up to 'any'
    names = ["straight", "pairs", "pairs_twos_sevens_aces", "garbage"]
    assert sum(t.loc[("special_chaser", h), "successes"] for h in names) == r["successes"]
    h = t.loc[("heuristic", "any")]
    assert (h["successes"], h["estimate"], h["ci_low"]) == (0, 0.0, 0.0) and h["ci_high"] > 0
    assert (t["interval"] == "95% Wilson score interval").all()


def test_special_1_cumulative_curve_by_turn(records):
    """SPECIAL-1 ends the hand at once, so the declaring turn is the hand's last: the curve
    rises as P_CHASE * t / 12 (uniform turn 1..12) and reaches the overall frequency."""
    t = special.special_by_turn(records, max_turn=12)
    c = t[t["policy"] == "special_chaser"]
    assert np.all(np.diff(c["estimate"].to_numpy()) >= 0)
    for _, r in c.iterrows():
        truth = P_CHASE * r["turn"] / 12
        assert abs(r["estimate"] - truth) <= 5 * np.sqrt(truth * (1 - truth) / N)
    total = special.special_frequency(records)
    last = total[(total["policy"] == "special_chaser") & (total["special_hand"] == "any")]
    assert c["successes"].iloc[-1] == last["successes"].iloc[0]


def test_paired_gain_exact():
    """Exact truth: the same synthetic deals with a skill shift of +100 for the chaser give a
    paired gain of exactly 100 points per hand with a zero-width interval."""
    kw = {"seed": 5, "noise": 400.0}
    rx = syn.synthetic_records(500, policies=("chaser", "opp"), skill={"chaser": 100.0}, **kw)
    ry = syn.synthetic_records(500, policies=("base", "opp"), **kw)
    g = special.paired_gain(rx, ry, "chaser", "base").iloc[0]
    assert (g["estimate"], g["ci_low"], g["ci_high"], g["n"]) == (100.0, 100.0, 100.0, 500)
    net = special.paired_gain(rx, ry, "chaser", "base", value="net").iloc[0]
    assert net["estimate"] == 100.0


def test_chasing_gain_with_fake_simulate():
    """chasing_gain runs both seats; a policy facing itself is counted once per seat."""

    def fake(n, policies, seed=0, n_jobs=1):
        skill = {"special_chaser": -50.0, "heuristic": 0.0}
        r = syn.synthetic_records(n, seed=seed, policies=policies, skill=skill)
        return r

    t = special.chasing_gain(n=300, seed=2, simulate=fake).set_index("value")
    assert t.loc["score", "n"] == 600  # 300 deals x 2 seats
    assert abs(t.loc["score", "estimate"] - (-50.0)) <= 5 * t.loc["score", "se"] + 1e-9


def test_odds_1_table_from_counts():
    """ODDS-1 table: exact beside sampled counts; the Wilson interval is recomputed here and
    exact_inside says whether it covers the exact value."""
    exact = {
        "straight": Fraction(1, 1000),
        "pairs": Fraction(1, 500),
        "pairs_twos_sevens_aces": Fraction(1, 2000),
        "garbage": Fraction(1, 1_500_000),
        "any": Fraction(37, 10_000),
    }
    deals = 1_000_000
    sampled = {h: {"hits": round(float(p) * deals), "deals": deals} for h, p in exact.items()}
    sampled["pairs"]["hits"] = 3000  # far from 1/500: outside its interval
    t = special.dealt_odds(sampled=sampled, exact=exact).set_index("hand")
    assert t.loc["straight", "exact_inside"] and not t.loc["pairs", "exact_inside"]
    assert t.loc["garbage", "one_in"] == pytest.approx(1_500_000)
    assert t.loc["any", "interval"] == "95% Wilson score interval"


def test_odds_1_real_modules_agree():
    """ODDS-1 with the real exact odds and sampler: dealt_odds(n, seed) reports exactly the
    sampler's hits for that seed (not another seed's, not a partial count), the exact odds of
    sim.odds, and estimates and exact_inside computed from them. (The rates themselves are
    checked against the exact odds in tests/test_sampler.py, sized to see a 10% bias per hand;
    at this size a check of the rates could not fail for lack of hits.)"""
    from sim.odds import exact_odds
    from sim.sampling import sample_dealt_odds

    deals = 300_000
    t = special.dealt_odds(deals, seed=1).set_index("hand")
    direct = sample_dealt_odds(deals, seed=1)
    other = sample_dealt_odds(deals, seed=2)
    assert direct.hits != other.hits  # the comparison below can tell seeds apart
    exact = exact_odds()
    for h in ("straight", "pairs", "pairs_twos_sevens_aces", "garbage", "any"):
        row = t.loc[h]
        assert (row["hits"], row["deals"]) == (direct.hits[h], deals), h
        assert row["exact"] == float(exact[h])
        assert row["estimate"] == direct.hits[h] / deals
        assert row["exact_inside"] == (row["ci_low"] <= row["exact"] <= row["ci_high"])
    assert t.loc["any", "hits"] >= t.loc["straight", "hits"] and t.loc["any", "hits"] > 0


def test_concatenated_runs_with_repeated_hand_ids():
    """Both seatings of the same deals concatenated: counts add up run by run (SCORE-8 award
    and the declaring team's special name stay with their own row)."""
    pol = {"special_chaser": 0.05}
    r1 = syn.synthetic_records(
        2000, seed=8, policies=("special_chaser", "heuristic"), p_special=pol
    )
    r2 = syn.synthetic_records(
        2000, seed=8, policies=("heuristic", "special_chaser"), p_special=pol
    )
    both = special.special_frequency(pd.concat([r1, r2], ignore_index=True))
    one = [special.special_frequency(r).set_index(["policy", "special_hand"]) for r in (r1, r2)]
    for _, row in both.iterrows():
        key = (row["policy"], row["special_hand"])
        assert row["successes"] == one[0].loc[key, "successes"] + one[1].loc[key, "successes"]
