"""analysis.risk on synthetic records with known generating probabilities (SCORE-2, SCORE-3,
SCORE-4, MELD-7), plus a hand-built table where every answer is exact."""

import numpy as np
import pandas as pd
import pytest

from analysis import risk
from analysis import synthetic as syn
from sim.errors import CanastaError

N = 20_000  # synthetic hands: 40,000 team-hands, ~24,000 with a sevens meld started


@pytest.fixture(scope="module")
def records():
    return syn.synthetic_records(N, seed=11)


def _within(est, truth, n, k=5.0):
    """|est - truth| within k binomial standard errors of the truth."""
    return abs(est - truth) <= k * np.sqrt(truth * (1 - truth) / n)


def test_score_2_sevens_completion_by_held_matches_truth(records):
    """SCORE-2 risk table: completion by count held recovers SEVENS_COMPLETE within 5 SE."""
    t = risk.meld_risk(records, "sevens", by="held", by_policy=False)
    assert list(t["held"]) == list(syn.HELD)
    for _, r in t.iterrows():
        truth = syn.SEVENS_COMPLETE[r["held"]]
        assert _within(r["completion"], truth, r["n"])
        assert r["completion_low"] <= r["completion"] <= r["completion_high"]
        assert r["meld_points"] == pytest.approx(2500 * (2 * r["completion"] - 1))
    assert t["interval"].iloc[0].startswith("completion: 95% Wilson score interval")


def test_score_2_aces_by_turn_flat_and_natural_only(records):
    """Aces (natural, MELD-7 mixed excluded) complete at the mean of ACES_COMPLETE in every
    turn bin, since the synthetic completion does not depend on the turn."""
    truth = float(np.mean(list(syn.ACES_COMPLETE.values())))
    t = risk.meld_risk(records, "aces", by="turn", by_policy=True)
    assert set(t["policy"]) == {"heuristic", "random"}
    assert t["n"].sum() == len(risk.started(records, "aces"))
    for _, r in t.iterrows():
        assert _within(r["completion"], truth, r["n"])
    # mixed aces are apart: started natural aces ~ START_P * (1 - MIXED_ACES_P) of team-hands
    share = len(risk.started(records, "aces")) / (2 * N)
    p = syn.START_P * (1 - syn.MIXED_ACES_P)
    assert _within(share, p, 2 * N)


def test_score_3_wild_meld_by_stock(records):
    """SCORE-3 wild meld: completion WILD_COMPLETE in each stock bin; no 'held' grouping."""
    t = risk.meld_risk(records, "wild", by="stock", by_policy=False)
    assert "meld_points" not in t.columns
    for _, r in t.iterrows():
        assert _within(r["completion"], syn.WILD_COMPLETE, r["n"])
    with pytest.raises(CanastaError, match="rank held"):
        risk.meld_risk(records, "wild", by="held")


def test_meld_7_mixed_aces_apart(records):
    """MELD-7: share of aces melds that are mixed and their completion rate, apart."""
    t = risk.mixed_aces(records, by_policy=False)
    r = t.iloc[0]
    assert _within(r["mixed_share"], syn.MIXED_ACES_P, r["aces_started"])
    assert _within(r["completion"], float(np.mean(list(syn.ACES_COMPLETE.values()))), r["mixed"])


def test_score_4_penalty_frequency_and_cost(records):
    """SCORE-4: share of team-hands paying the sevens penalty is 1-(1-p)^2, cost -1500*2p."""
    t = risk.penalties(records, by_policy=False).set_index("rank")
    p = syn.PENALTY_P
    freq = 1 - (1 - p) ** 2
    sev = t.loc["sevens"]
    assert _within(sev["frequency"], freq, sev["n"])
    # cost per team-hand = -1500 * Binomial(2, p): mean -3000 p, sd 1500 sqrt(2 p (1 - p))
    sd = 1500 * np.sqrt(2 * p * (1 - p))
    assert abs(sev["cost"] - (-3000 * p)) <= 5 * sd / np.sqrt(sev["n"])
    assert sev["cost_low"] <= sev["cost"] <= sev["cost_high"]
    # aces: no penalty for a team whose aces meld is mixed (SCORE-4 Choice)
    ace = t.loc["aces"]
    assert _within(ace["frequency"], freq * (1 - syn.START_P * syn.MIXED_ACES_P), ace["n"])


def _tiny():
    """Four hands, both teams: every quantity countable by hand."""
    base = syn.synthetic_records(4, seed=0)
    base["team0_sevens_started_turn"] = [0, 5, 9, -1]
    base["team0_sevens_completed"] = [1, 1, 0, 0]
    base["team0_sevens_started_held"] = [4, 4, 3, 0]
    base["team1_sevens_started_turn"] = [2, -1, -1, -1]
    base["team1_sevens_completed"] = [1, 0, 0, 0]
    base["team1_sevens_started_held"] = [4, 0, 0, 0]
    base["score_team0"] = [3000, 2000, -2400, 10]
    base["score_team1"] = [1000, 0, 0, 0]
    return base


def test_score_2_exact_on_hand_built_table():
    """Exact truth: 4 sevens melds started, 3 completed; held 4: 3 of 3, held 3: 0 of 1."""
    t = risk.meld_risk(_tiny(), "sevens", by="turn", bins=(0, 100), by_policy=False)
    r = t.iloc[0]
    assert (r["n"], r["completed"], r["completion"]) == (4, 3, 0.75)
    assert r["meld_points"] == 1250.0
    assert r["points"] == pytest.approx((3000 + 2000 - 2400 + 1000) / 4)
    h = risk.meld_risk(_tiny(), "sevens", by="held", by_policy=False).set_index("held")
    assert h.loc[4, "completion"] == 1.0 and h.loc[4, "completion_high"] == 1.0
    assert h.loc[3, "completion"] == 0.0 and h.loc[3, "completion_low"] == 0.0


def test_missing_columns_are_named():
    """A table without the risk extras says exactly which columns it needs."""
    bare = _tiny().drop(columns=["team0_sevens_started_stock", "team1_sevens_started_stock"])
    with pytest.raises(CanastaError, match="team0_sevens_started_stock"):
        risk.meld_risk(bare, "sevens", by="stock")
    with pytest.raises(CanastaError, match="team1_aces_mixed"):
        risk.meld_risk(pd.DataFrame(_tiny()).drop(columns=["team1_aces_mixed"]), "aces")
