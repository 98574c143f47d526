"""Decision experiments' statistics: the multiple-testing corrections against hand-worked
examples, and rules of thumb read from tables with known effects."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pandas as pd
import pytest

from analysis import decisions as D
from analysis import multiple
from sim.errors import CanastaError


# ---------------------------------------------------------------------------------------
# Holm and Benjamini–Hochberg, worked by hand
# ---------------------------------------------------------------------------------------
def test_holm_worked_example():
    """p = (0.01, 0.04, 0.03, 0.005), m = 4. Sorted: 0.005·4 = 0.02, 0.01·3 = 0.03,
    0.03·2 = 0.06, 0.04·1 = 0.04 -> running max 0.06. In the given order: 0.03, 0.06, 0.06,
    0.02."""
    got = multiple.holm([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(got, [0.03, 0.06, 0.06, 0.02], rtol=1e-12)


def test_bh_worked_example():
    """Same p. Sorted: 0.005·4/1 = 0.02, 0.01·4/2 = 0.02, 0.03·4/3 = 0.04, 0.04·4/4 = 0.04;
    running min from the top keeps them. In the given order: 0.02, 0.04, 0.04, 0.02."""
    got = multiple.bh([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(got, [0.02, 0.04, 0.04, 0.02], rtol=1e-12)


def test_bh_step_up_takes_the_later_minimum():
    """p = (0.02, 0.03, 0.04), m = 3: 0.02·3 = 0.06, 0.03·3/2 = 0.045, 0.04·3/3 = 0.04; the
    running minimum from the top gives 0.04 to all three (BH's step-up), Holm gives 0.06,
    0.06, 0.06 (0.02·3, max(0.03·2, 0.06), max(0.04, 0.06))."""
    np.testing.assert_allclose(multiple.bh([0.02, 0.03, 0.04]), [0.04] * 3, rtol=1e-12)
    np.testing.assert_allclose(multiple.holm([0.02, 0.03, 0.04]), [0.06] * 3, rtol=1e-12)


def test_corrections_cap_at_one_and_skip_nan():
    np.testing.assert_allclose(multiple.holm([0.5, 0.6]), [1.0, 1.0])
    got = multiple.holm([0.01, np.nan, 0.02])  # m = 2: 0.02, 0.02
    assert np.isnan(got[1]) and got[0] == pytest.approx(0.02) and got[2] == pytest.approx(0.02)
    with pytest.raises(CanastaError, match=r"\[0, 1\]"):
        multiple.holm([1.5])
    with pytest.raises(CanastaError, match="unknown correction"):
        multiple.adjust([0.1], "bonferroni-ish")


def test_t_p_against_the_t_table():
    """Two-sided 5% points of Student's t: 12.706 (1 df), 2.228 (10 df); the normal's 1.960
    at very many df."""
    p = multiple.t_p([12.7062, 2.228139, 1.959964, 0.0], 1.0, [1, 10, 1e7, 5])
    np.testing.assert_allclose(p, [0.05, 0.05, 0.05, 1.0], atol=1e-6)
    assert np.isnan(multiple.t_p(1.0, 0.0, 5)[0]) and np.isnan(multiple.t_p(1.0, 1.0, 0)[0])


def test_normal_p():
    """Two-sided: z = 1.959964 gives 0.05; no spread gives NaN (nothing to test)."""
    p = multiple.normal_p([1.959964, -1.959964, 0.0, 1.0], [1.0, 1.0, 1.0, 0.0])
    np.testing.assert_allclose(p[:3], [0.05, 0.05, 1.0], atol=1e-6)
    assert np.isnan(p[3])


# ---------------------------------------------------------------------------------------
# Rules of thumb from tables with known effects
# ---------------------------------------------------------------------------------------
def thumb_rules(effects, positions=300, seed=0):
    tabs = D.tables(D.synthetic_raw(effects, positions=positions, deals=40, seed=seed))
    return tabs, {(r.experiment, r.grouping): r for r in D.rules_of_thumb(tabs)}


def test_threshold_rule_hold_until():
    """Sevens: melding costs 800 with 3 or 4 held and gains 800 with 5+ (per-deal sd 400, 40
    deals, about 100 positions a situation: SE about 10, so the effects are 80 SE away). The
    rule says to hold until 5 and what starting earlier costs, with an interval around 800."""
    tabs, rules = thumb_rules({"sevens": lambda f: -800.0 if f["sevens"] < 5 else 800.0})
    r = rules[("sevens", "held_sevens")]
    assert r.verdicts == (-1, -1, 1)
    assert r.text.startswith("Hold your sevens until you hold 5 sevens; then start a sevens")
    m = re.search(r"costs (\d[\d,]*) net points a hand \[(\d[\d,]*), (\d[\d,]*)\]", r.text)
    est, lo, hi = (float(x.replace(",", "")) for x in m.groups())
    assert lo < 800 < hi and lo < est < hi
    assert r.table == "decision_sevens"
    t = tabs["decision_sevens"]
    assert list(t[t["grouping"] == "held_sevens"]["better"]) == [
        "hold your sevens",
        "hold your sevens",
        "start a sevens meld now",
    ]


def test_one_direction_rules():
    """Taking the pile gains 500 everywhere; starting a wild meld costs 500 everywhere."""
    _, rules = thumb_rules({"pile": lambda f: 500.0, "wild": lambda f: -500.0})
    pile = rules[("pile", "opened")]
    assert pile.verdicts == (1, 1)
    assert pile.text.startswith(
        "Take the pile rather than draw from the stock (in every situation tested)"
    )
    assert "gains +" in pile.text and "elsewhere" not in pile.text
    wild = rules[("wild", "wilds_held")]
    assert wild.verdicts == (-1, -1, -1, -1)  # 3, 4, 5, 6+ wilds
    assert wild.text.startswith("Keep your wilds out of a wild meld rather than start")


def test_null_table_says_no_clear_difference():
    """No effect anywhere: every rule says 'no clear difference' and no verdict is set (Holm
    at 5% family-wise: a false direction in a null family has chance at most 5%; seed fixed)."""
    tabs, rules = thumb_rules({})
    assert all(r.verdicts == (0,) * len(r.verdicts) for r in rules.values())
    assert all("no clear difference" in r.text for r in rules.values())
    # an interval clear of zero without a verdict is called a lead (about 5% of null rows)
    for t in tabs.values():
        lead = (t["ci_low"] > 0) | (t["ci_high"] < 0)
        assert (t["better"][~lead] == "no clear difference").all()
        assert t["better"][lead].str.startswith("a lead, not confirmed: ").all()


def test_few_hands_are_not_tested():
    """A situation with fewer than MIN_HANDS sampled hands gets no p-value and no direction,
    however large its estimate."""
    t = pd.DataFrame(
        {"estimate": [900.0, 900.0], "se": [10.0, 10.0], "hands": [D.MIN_HANDS - 1, D.MIN_HANDS]}
    )
    p = D.p_values(t)
    assert np.isnan(p[0]) and p[1] < 1e-3


def test_direction_needs_the_adjusted_test():
    """A row whose own p-value is below 0.05 but whose Holm-adjusted one is not gets no
    direction."""
    est = np.array([2.1, 0.0, 0.0])
    p = multiple.normal_p(est, np.ones(3))
    adj = multiple.holm(p)
    assert p[0] < 0.05 < adj[0]
    assert D.verdicts(est, adj).tolist() == [0, 0, 0]
    assert D.verdicts(est, p).tolist() == [1, 0, 0]


def test_rule_count_does_not_depend_on_size():
    """One rule per experiment and grouping, at any size: at least 8."""
    want = sum(len(e.groupings) for e in D.EXPERIMENTS)
    assert want >= 8
    for positions in (8, 200):
        tabs = D.tables(D.synthetic_raw(positions=positions, deals=10))
        assert len(D.rules_of_thumb(tabs)) == want


# ---------------------------------------------------------------------------------------
# What each figure of a table measured
# ---------------------------------------------------------------------------------------
def _split_rows(made, hidden, nets=(1.0, 0.0)):
    """The rows of one position of two_cards_block (split by the partner's sevens) whose
    deals have the partner's sevens ``hidden`` and where the choice was made in ``made``."""
    from analysis import arms

    exp = D.BY_KEY["two_cards_block"]
    hidden, made = np.asarray(hidden), np.asarray(made, dtype=bool)
    net = [np.full(len(hidden), x) for x in nets]
    r = arms._paired(net, [made, made], (0, 1), len(hidden), hidden, exp.information)
    base = {"experiment": exp.key, "hand": 0, "seat": 0, "position": 0, "opened": 0}
    return D.position_rows(base, r, exp.hidden)


def test_choice_made_under_a_hidden_grouping_is_the_pooled_share():
    """A position of 12 deals split by the partner's sevens (0, 1, 2+: four deals each).
    Choice made in every deal: 100% over all positions and in each value, not the mean of
    the values' shares of the position (33%). Made only where the partner holds 0: 4 of
    12 deals over all positions, 4 of 4 at 0, and none at 1 or 2+ (rows that keep their
    deals though no difference was measured)."""
    hidden = np.tile([0, 1, 2], 4)
    rows = []
    for h in range(6):
        rows += [r | {"hand": h, "position": h} for r in _split_rows([True] * 12, hidden)]
    t = D.tables(pd.DataFrame(rows), experiments=["two_cards_block"])["decision_two_cards_block"]
    assert (t["applied"].dropna() == 1.0).all() and t["applied"].notna().sum() >= 5
    assert t.set_index("situation").loc["all positions", "applied"] == 1.0
    rows = []
    for h in range(6):
        rows += [r | {"hand": h, "position": h} for r in _split_rows(hidden == 0, hidden)]
    t = D.tables(pd.DataFrame(rows), experiments=["two_cards_block"])["decision_two_cards_block"]
    got = t[t["grouping"].isin(["all", "partner_sevens"])].set_index("situation")["applied"]
    assert got.tolist() == pytest.approx([4 / 12, 1.0, 0.0, 0.0])
    assert t.set_index("situation").loc["all positions", "deals"] == 6 * 4


def test_threshold_whose_interval_runs_outside_the_values_seen_is_no_clear_sign_change():
    """A fitted zero at 5.1 pile sevens seen 0–5 whose 95% interval runs from −47.9 to 29.3
    does not place the sign change: 'no clear sign change', never 'changes sign at'; the
    same zero with an interval inside the values seen (half a unit either side) is one."""
    exp = D.BY_KEY["discard_seven"]
    t = D.Threshold(exp.key, "sevens_pile", "sevens_pile", 5.1, -47.9, 29.3, 0.6, 0, 5, 40, 9.0)
    text = D.describe_threshold(t, exp)
    assert "no clear sign change for sevens_pile 0–5" in text and "changes sign at" not in text
    assert "≈ 5.1" in text and "-47.9 to 29.3" in text
    clear = dataclasses.replace(t, ci_low=3.2, ci_high=5.4)
    assert "changes sign at sevens_pile ≈ 5.1 (95% interval 3.2 to 5.4" in (
        D.describe_threshold(clear, exp)
    )
    for lo, hi in ((-0.6, 4.0), (1.0, 5.6), (np.nan, np.nan)):
        out = D.describe_threshold(dataclasses.replace(t, ci_low=lo, ci_high=hi), exp)
        assert "no clear sign change" in out


def test_untested_rows_and_claims_say_not_tested_with_their_hands():
    """Four positions (four sampled hands) an experiment, a huge effect (2,000 points a hand,
    sd 10 a deal): every row's interval is clear of zero, but no row has the MIN_HANDS hands a
    test needs, so each says "not tested (N hands)" — never a verdict nor a lead — and so do
    the rules of thumb, the Advice and every claim, which quote no effect."""
    from analysis import claims

    effects = {e.key: (lambda f: 2000.0) for e in D.EXPERIMENTS}
    tabs = D.tables(D.synthetic_raw(effects, positions=4, deals=40, sd=10.0))
    for t in (tabs[e.table] for e in D.EXPERIMENTS):
        assert (t["hands"] < D.MIN_HANDS).all() and (t["verdict"] == 0).all()
        want = [f"not tested ({h} hand{'' if h == 1 else 's'})" for h in t["hands"]]
        assert t["better"].tolist() == want
    for rule in D.rules_of_thumb(tabs) + D.advice(tabs):
        assert ": not tested (" in rule.text and "no clear difference" not in rule.text
        assert "lead" not in rule.text
    got = claims.verdicts(tabs)
    measured = got[got["verdict"] != "not measured"]
    assert len(measured) >= 10
    for _, c in measured.iterrows():
        assert c["verdict"] == f"not tested ({c['hands']} hand{'' if c['hands'] == 1 else 's'})"
        assert np.isnan(c["effect"]) and np.isnan(c["ci_low"])


def test_a_claim_rests_only_on_its_tested_rows_and_names_the_others():
    """Claim A reads the '4+ in the pile' rows of the sevens and the aces tables. With the
    aces row cut to 3 hands (untested), the verdict, the effect and the hands it rests on
    are the sevens row's alone, and the aces row is named as not tested."""
    from analysis import claims

    tabs = D.tables(D.synthetic_raw({"discard_seven": lambda f: -900.0}, positions=300))
    aces = tabs["decision_discard_ace"]
    row = (aces["grouping"] == "aces_pile") & (aces["situation"] == "4+")
    aces.loc[row, ["hands", "p_adj"]] = [3, np.nan]
    sevens = tabs["decision_discard_seven"].set_index(["grouping", "situation"])
    seven = sevens.loc[("sevens_pile", "4+")]
    a = claims.verdicts(tabs).set_index("id").loc["A"]
    assert a["verdict"] == "supported" and a["hands"] == seven["hands"]
    assert a["effect"] == pytest.approx(-seven["estimate"])
    assert a["untested"] == "aces_pile 4+: not tested (3 hands)"


def test_information_is_priced_as_the_best_rule_using_it_minus_the_best_without():
    """Two cards block, synthetic: discarding a seven gains 300 when the partner holds 2+
    sevens and costs 300 otherwise (values 0, 1, 2 in turn). Always discarding: −100, so the
    best rule without the information is always keeping (0); the best using it discards at
    2+ (+100): the information is worth +100 (300 hands, SE about 8.5: 5 SE = 42). The fixed
    rule's rows name the rule they price."""
    effects = {"two_cards_block": lambda f: 300.0 if f["partner_sevens"] >= 2 else -300.0}
    tabs = D.tables(D.synthetic_raw(effects, positions=300, deals=40))
    t = tabs["decision_two_cards_block"]
    w = t.attrs["information_worth"]
    assert abs(w["estimate"] - 100) < 42 and w["ci_low"] < 100 < w["ci_high"]
    assert w["with"] == (
        "discard a seven when the partner holds 2+ sevens (not seen by the player), "
        "else keep the three sevens"
    )
    assert w["without"] == "always: keep the three sevens" and w["hands"] == 300
    info = t[t["grouping"] == "information"]["situation"].tolist()
    assert info == [
        f"the rule '{w['with']}' (knowing the partner's sevens), instead of always: {arm}"
        for arm in ("discard a seven", "keep the three sevens")
    ]
    advice = next(r for r in D.advice(tabs) if r.experiment == "two_cards_block")
    assert "What knowing the partner's sevens is worth, the best rule that uses it" in advice.text
