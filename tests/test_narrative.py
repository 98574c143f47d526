"""'What the numbers say' (reports/narrative.py): every sentence builder on small hand-made
tables whose intervals lie above, below and across zero (or above, below and overlapping each
other), asserting the verdict words, the policy and table rows they read, and the cells they
cite. A verdict flipped in the code (early/late, gain/loss, agrees/does not, beats) fails here.

The numbers printed are those of reports.fmt (the same functions the tables use); the ODDS-1
exact values and the SCORE-2/3/4 tables are stand-ins with the analysis tables' columns.
"""

from __future__ import annotations

import pandas as pd
import pytest

from reports import fmt, narrative

# ---------------------------------------------------------------------------------------
# sign / separated: the two interval tests every verdict goes through
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "low, high, want",
    [
        (0.5, 2.0, 1),  # above zero
        (-2.0, -0.5, -1),  # below zero
        (-1.0, 1.0, 0),  # across zero
        (0.0, 1.0, 0),  # touching zero from above: not a clear sign
        (-1.0, 0.0, 0),  # touching zero from below
        (0.0, 0.0, 0),
    ],
)
def test_sign_of_an_interval(low, high, want):
    assert narrative.sign(low, high) == want


@pytest.mark.parametrize(
    "a, b, want",
    [
        ((0.31, 0.4), (0.15, 0.3), 1),  # a wholly above b
        ((0.15, 0.3), (0.31, 0.4), -1),  # a wholly below b
        ((0.1, 0.2), (0.15, 0.3), 0),  # overlapping
        ((0.3, 0.4), (0.1, 0.3), 0),  # touching: overlap
        ((0.1, 0.5), (0.2, 0.3), 0),  # one inside the other
    ],
)
def test_separated_intervals(a, b, want):
    assert narrative.separated(a, b) == want


def _only(tables, order=()):
    said = narrative.sentences(tables, order)
    assert len(said) == 1, [s.text for s in said]
    return said[0]


# ---------------------------------------------------------------------------------------
# _dealt: ODDS-1 exact odds beside the sampled estimate
# ---------------------------------------------------------------------------------------
def _odds(est, lo, hi, exact_any=1 / 6000):
    rows = [
        {"hand": "straight", "exact": 1 / 37_800},
        {"hand": "pairs", "exact": 1 / 9_900},
        {"hand": "garbage", "exact": 1 / 1_450_000},
        {"hand": "any", "exact": exact_any},
    ]
    t = pd.DataFrame(rows)
    if est is not None:
        t["estimate"] = [1e-5, 1e-4, 0.0, est]
        t["ci_low"] = [0.5e-5, 0.8e-4, 0.0, lo]
        t["ci_high"] = [2e-5, 1.2e-4, 1e-6, hi]
        t["n"] = 1_000_000
    return {"dealt_odds": t}


@pytest.mark.parametrize(
    "lo, hi, agrees",
    [
        (1 / 6500, 1 / 5600, True),  # the exact 1/6000 inside the interval
        (1 / 5000, 1 / 4000, False),  # the interval above the exact value
        (1 / 9000, 1 / 7000, False),  # below it
    ],
)
def test_dealt_odds_1_agrees_only_when_the_interval_holds_the_exact_value(lo, hi, agrees):
    """ODDS-1: 'agrees with the exact value' only if the sampled 95% CI contains it; otherwise
    the sentence says the interval does NOT contain it."""
    est = (lo + hi) / 2
    first, _ = narrative.sentences(_odds(est, lo, hi))
    assert first.text.startswith(
        f"The first player is dealt a special hand {fmt.one_in(1 / 6000)} deals (exact, ODDS-1)"
    )
    assert f"sampling {fmt.count(1_000_000)} real deals gives {fmt.one_in(est)}" in first.text
    assert f"(95% CI 1 in {fmt.one_in_range(lo, hi)})" in first.text
    if agrees:
        assert first.text.endswith("which agrees with the exact value.")
        assert "NOT" not in first.text
    else:
        assert first.text.endswith("which does NOT contain the exact value: check the sampler.")
        assert "agrees" not in first.text
    assert set(first.cites) == {"dealt_odds"}
    assert {c for _, _, c in first.cells} == {"exact", "estimate", "ci_low", "ci_high", "n"}
    assert all(row == 3 for _, row, _ in first.cells)  # the 'any' row


def test_dealt_odds_1_rarest_hand_and_exact_only():
    """The rarest hand named is the one with the smallest positive exact odds (Garbage here,
    not a hand listed last or first); without a sampled column the sentence is the exact value
    alone; with an estimate of 0 it says no special hand was seen."""
    t = _odds(None, None, None)
    first, rarest = narrative.sentences(t)
    assert first.text == (
        f"The first player is dealt a special hand {fmt.one_in(1 / 6000)} deals (exact, ODDS-1)."
    )
    assert (
        rarest.text
        == f"The rarest dealt special hand is Garbage: {fmt.one_in(1 / 1_450_000)} deals."
    )
    assert rarest.cells == [("dealt_odds", 2, "exact")]
    t["dealt_odds"].loc[2, "exact"] = 1 / 1000  # Garbage now common: the Straight is rarest
    assert "is Straight:" in narrative.sentences(t)[1].text
    first, _ = narrative.sentences(_odds(0.0, 0.0, 1 / 300_000))
    assert "gives no special hand at all" in first.text


# ---------------------------------------------------------------------------------------
# _special_play: two policies' rates of declaring a special hand
# ---------------------------------------------------------------------------------------
def _special(a, b):
    """special_frequency rows: policy x with 'any' rate and interval ``a``, y with ``b``."""
    rows = []
    for pol, (est, lo, hi) in (("x", a), ("y", b)):
        rows.append({"policy": pol, "special_hand": "pairs", "estimate": 0.5, "n": 1})
        rows.append(
            {"policy": pol, "special_hand": "any", "estimate": est, "ci_low": lo, "ci_high": hi}
            | {"n": 2000}
        )
    return {"special_frequency": pd.DataFrame(rows)}


def test_special_hands_in_play_more_often_only_when_intervals_apart():
    """SPECIAL-1..6 in play: the policy with the higher rate is named first; 'makes special
    hands more often' only when the two intervals do not overlap."""
    s = _only(_special((0.02, 0.015, 0.026), (0.05, 0.041, 0.06)))
    assert s.text.startswith("Special hands made during play: playing y, a team declares one in")
    assert s.text.endswith("y makes special hands more often (the intervals do not overlap).")
    assert f"{fmt.pct(0.05)} of {fmt.count(2000)} team-hands" in s.text
    assert s.text.index(fmt.pct(0.05)) < s.text.index(fmt.pct(0.02))
    s = _only(_special((0.05, 0.041, 0.06), (0.02, 0.015, 0.026)))
    assert s.text.endswith("x makes special hands more often (the intervals do not overlap).")
    s = _only(_special((0.03, 0.02, 0.045), (0.04, 0.03, 0.05)))
    assert s.text.endswith("no clear difference (the intervals overlap).")
    assert "more often" not in s.text
    assert {row for _, row, _ in s.cells} == {1, 3}  # the 'any' rows only


def test_special_hands_in_play_one_policy():
    t = _special((0.02, 0.015, 0.026), (0.05, 0.041, 0.06))["special_frequency"]
    s = _only({"special_frequency": t[t["policy"] == "x"]})
    assert s.text == (
        f"Playing x, a team declares a special hand in {fmt.pct(0.02)} of "
        f"{fmt.count(2000)} team-hands (95% CI {fmt.pct_range(0.015, 0.026)})."
    )


# ---------------------------------------------------------------------------------------
# _meld_turn: completion of sevens / aces / wild melds started early versus late
# ---------------------------------------------------------------------------------------
def _by_turn(early, late, policies=("p",)):
    """A meld_risk(by='turn') table: per policy, bins '1-5' (early), '6-10' (a wide interval
    that overlaps everything), '11-15' (n = 0, left out) and '16+' (late) with completion
    intervals ``early`` and ``late``."""
    rows = []
    bins = (
        ("1-5", 400, early),
        ("6-10", 200, (0.123, 0.01, 0.99)),
        ("11-15", 0, (0, 0, 0)),
        ("16+", 300, late),
    )
    for pol in policies:
        for turn, n, (c, lo, hi) in bins:
            rows.append(
                {"policy": pol, "turn": turn, "n": n, "completion": c}
                | {"completion_low": lo, "completion_high": hi}
            )
    return pd.DataFrame(rows)


HIGH, LOW, MID = (0.8, 0.75, 0.85), (0.4, 0.33, 0.47), (0.6, 0.5, 0.7)


@pytest.mark.parametrize(
    "early, late, verdict",
    [
        (HIGH, LOW, "early starts complete more often (the intervals do not overlap)"),
        (LOW, HIGH, "late starts complete more often (the intervals do not overlap)"),
        (MID, (0.65, 0.55, 0.75), "no clear difference (the intervals overlap)"),
    ],
)
@pytest.mark.parametrize("meld", ["sevens", "aces", "wild"])
def test_meld_turn_verdict_early_late_score_2_3(meld, early, late, verdict):
    """SCORE-2/3 meld risk by start turn: early starts 'complete more often' only when the
    first bin's interval lies wholly above the last's; late when below; overlap: no clear
    difference. The first and last bins with hands are compared (an empty bin is skipped)."""
    s = _only({f"{meld}_by_turn": _by_turn(early, late)})
    article = "An" if meld == "aces" else "A"
    assert s.text.startswith(f"{article} {meld} meld started by p is completed by the end")
    assert s.text.endswith(f": {verdict}.")
    a = f"started on turns 1-5, {fmt.pct(early[0])} of {fmt.count(400)}"
    b = f"started on turns 16+, {fmt.pct(late[0])} of {fmt.count(300)}"
    assert a in s.text and b in s.text and s.text.index(a) < s.text.index(b)
    assert f"(95% CI {fmt.pct_range(early[1], early[2])})" in s.text
    assert "6-10" not in s.text and fmt.pct(0.123) not in s.text  # the first and last bins
    assert {row for _, row, _ in s.cells} == {0, 3} and s.cites == (f"{meld}_by_turn",)


def test_meld_turn_reads_the_featured_policy():
    """The sentence is about the first policy of ``order`` present in the table, whatever
    the table's row order; with fewer than two bins with hands there is no sentence."""
    t = pd.concat([_by_turn(LOW, HIGH, ("other",)), _by_turn(HIGH, LOW, ("main",))])
    t = t.reset_index(drop=True)
    s = _only({"sevens_by_turn": t}, order=("absent", "main"))
    assert "started by main" in s.text and "early starts complete more often" in s.text
    s = _only({"sevens_by_turn": t}, order=())
    assert "started by other" in s.text and "late starts complete more often" in s.text
    one_bin = _by_turn(HIGH, LOW).iloc[[0, 2]]
    assert narrative.sentences({"sevens_by_turn": one_bin}) == []


# ---------------------------------------------------------------------------------------
# _meld_held: the meld's own bonus or penalty by the count held when starting it
# ---------------------------------------------------------------------------------------
def _by_held(intervals, n=(50, 40, 30)):
    rows = [
        {"policy": "p", "held": held, "n": k, "meld_points": (lo + hi) / 2}
        | {"meld_points_low": lo, "meld_points_high": hi}
        for held, k, (lo, hi) in zip((3, 4, 5), n, intervals, strict=True)
    ]
    return pd.DataFrame(rows)


@pytest.mark.parametrize(
    "interval, verdict",
    [
        ((200.0, 900.0), "on average a gain"),
        ((-1500.0, -300.0), "on average a loss"),
        ((-400.0, 600.0), "no clear sign"),
        ((0.0, 600.0), "no clear sign"),
    ],
)
@pytest.mark.parametrize("meld", ["sevens", "aces"])
def test_meld_held_verdict_gain_loss_score_2(meld, interval, verdict):
    """SCORE-2 by count held: 'a gain' only when the interval lies above zero, 'a loss' only
    below it, 'no clear sign' across (or touching) zero. One sentence for the fewest held and
    one for the most held (rows with n > 1), each with its own verdict."""
    other = (-50.0, 50.0)
    said = narrative.sentences({f"{meld}_by_held": _by_held([interval, other, interval])})
    assert len(said) == 2
    first, last = said
    lo, hi = interval
    assert first.text.startswith(f"Starting {meld} while holding 3 (p): the meld's own bonus")
    assert last.text.startswith(f"Starting {meld} while holding 5 (p)")
    for s in said:
        assert s.text.endswith(f": {verdict}.")
        assert f"(95% CI {fmt.points_range(lo, hi)})" in s.text
        assert f"worth {fmt.points((lo + hi) / 2)} points per meld" in s.text
    assert (
        f"over {fmt.count(50)} melds" in first.text and f"over {fmt.count(30)} melds" in last.text
    )


def test_meld_held_mixed_verdicts_and_single_meld_rows():
    """The two sentences judge their own rows: a loss holding 3, a gain holding 5; a row of a
    single meld (n = 1) has no interval worth a sentence and is skipped."""
    t = _by_held([(-900.0, -100.0), (-50.0, 50.0), (100.0, 900.0)])
    first, last = narrative.sentences({"aces_by_held": t})
    assert first.text.endswith("on average a loss.") and "holding 3" in first.text
    assert last.text.endswith("on average a gain.") and "holding 5" in last.text
    t = _by_held([(-900.0, -100.0), (-50.0, 50.0), (100.0, 900.0)], n=(1, 40, 30))
    first, last = narrative.sentences({"aces_by_held": t})
    assert "holding 4" in first.text and first.text.endswith("no clear sign.")
    assert "holding 5" in last.text
    only = _by_held([(-900.0, -100.0), (-50.0, 50.0), (100.0, 900.0)], n=(1, 1, 30))
    assert [s.text.split(" (p)")[0] for s in narrative.sentences({"aces_by_held": only})] == [
        "Starting aces while holding 5"
    ]


# ---------------------------------------------------------------------------------------
# _penalties: SCORE-4 in-hand penalties of the featured policy
# ---------------------------------------------------------------------------------------
def test_penalties_score_4_read_the_featured_policys_rows():
    rows = [
        {"policy": "q", "rank": "sevens", "frequency": 0.5, "cost": -999.0},
        {"policy": "p", "rank": "sevens", "frequency": 0.031, "cost": -46.5},
        {"policy": "p", "rank": "aces", "frequency": 0.012, "cost": -18.0},
    ]
    t = pd.DataFrame(rows).assign(
        frequency_low=lambda d: d.frequency * 0.8,
        frequency_high=lambda d: d.frequency * 1.2,
        cost_low=lambda d: d.cost * 1.3,
        cost_high=lambda d: d.cost * 0.7,
        n=4000,
    )
    said = narrative.sentences({"penalties": t}, order=("p",))
    assert len(said) == 2
    for s, i in zip(said, (1, 2), strict=True):
        r = t.loc[i]
        assert s.text == (
            f"The {r['rank']} in-hand penalty (SCORE-4) is paid in {fmt.pct(r.frequency)} of "
            f"p's {fmt.count(4000)} team-hands (95% CI "
            f"{fmt.pct_range(r.frequency_low, r.frequency_high)}), costing "
            f"{fmt.points(r.cost)} points per team-hand (95% CI "
            f"{fmt.points_range(r.cost_low, r.cost_high)})."
        )
        assert {row for _, row, _ in s.cells} == {i}
    assert "−46" in said[0].text or "−47" in said[0].text  # a cost prints as a loss


# ---------------------------------------------------------------------------------------
# _comparison: duplicate-deal differences
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "low, high, head",
    [
        (10.0, 70.0, "a beats b"),
        (-70.0, -10.0, "b beats a"),
        (-5.0, 29.0, "No clear difference between a and b"),
        (0.0, 29.0, "No clear difference between a and b"),
    ],
)
def test_comparison_who_beats_whom(low, high, head):
    """Duplicate deals: 'a beats b' only when the paired-difference interval lies above zero,
    'b beats a' below, no clear difference across or touching zero; the numbers are a's."""
    row = {
        "policy_a": "a",
        "policy_b": "b",
        "deals": 1000,
        "mean_diff": (low + high) / 2,
        "ci_low": low,
        "ci_high": high,
        "win_rate_a": 0.55,
        "win_ci_low": 0.52,
        "win_ci_high": 0.58,
    }
    s = _only({"comparison": pd.DataFrame([row])})
    assert s.text.startswith(f"{head}: on {fmt.count(1000)} duplicate deals a scores ")
    assert f"{fmt.points((low + high) / 2)} points per hand against b" in s.text
    assert f"(95% CI {fmt.points_range(low, high)})" in s.text
    assert f"wins a share {fmt.rate(0.55)} of hands (95% CI {fmt.rate_range(0.52, 0.58)})" in s.text


# ---------------------------------------------------------------------------------------
# _scores and the whole list
# ---------------------------------------------------------------------------------------
def test_scores_every_policy_in_table_order():
    t = pd.DataFrame(
        {
            "policy": ["p", "q"],
            "estimate": [812.0, -240.0],
            "ci_low": [780.0, -300.0],
            "ci_high": [844.0, -180.0],
            "n": [1200, 1200],
        }
    )
    s = _only({"scores": t})
    assert s.text == (
        f"Mean team score per hand: p {fmt.points(812)} over {fmt.count(1200)} team-hands "
        f"(95% CI {fmt.points_range(780, 844)}); q {fmt.points(-240)} over "
        f"{fmt.count(1200)} team-hands (95% CI {fmt.points_range(-300, -180)})."
    )


def test_missing_tables_give_no_sentence_and_report_order_holds():
    """A sentence whose table is missing is left out; present ones come in report order:
    dealt odds, special hands in play, sevens, aces, penalties, wild melds, comparison,
    scores."""
    assert narrative.sentences({}) == []
    tables = {
        "scores": pd.DataFrame(
            {"policy": ["p"], "estimate": [1.0], "ci_low": [0.0], "ci_high": [2.0], "n": [9]}
        ),
        "wild_by_turn": _by_turn(HIGH, LOW),
        "sevens_by_turn": _by_turn(LOW, HIGH),
        **_odds(None, None, None),
    }
    said = narrative.sentences(tables)
    heads = [s.text.split(" ")[:2] for s in said]
    assert heads == [
        ["The", "first"],
        ["The", "rarest"],
        ["A", "sevens"],
        ["A", "wild"],
        ["Mean", "team"],
    ]
