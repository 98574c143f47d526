"""Claims checked (analysis.claims): a verdict per published claim from the Holm-adjusted
decision tables. Synthetic rows with known effects (analysis.decisions.synthetic_raw, normal
noise of sd 400 a deal, 40 deals a position, 120 positions): an effect of 300 net points is
~7.5 standard errors per situation of 40 hands, far beyond Holm's threshold; an effect of 0
passes only with the family-wise error of 5%."""

import numpy as np

from analysis import claims as C
from analysis import decisions as D


def _verdicts(effects, seed=3, pickup_share=0.5):
    raw = D.synthetic_raw(effects, positions=120, deals=40, seed=seed, pickup_share=pickup_share)
    return C.verdicts(D.tables(raw)).set_index("id")


MEASURED = tuple("ABCDEFGHIJKLMNO")  #: every claim (M, N, O: the open, the block, F's exception)


def test_every_claim_has_a_source_a_test_and_a_verdict_or_what_it_needs():
    assert [c.id for c in C.CLAIMS] == list("ABCDEFGHIJKLMNO")
    for c in C.CLAIMS:
        assert c.claim and c.source and c.test
        assert bool(c.parts) != bool(c.needs), c.id  # measured, or says what it needs
        for p in c.parts:
            assert p.table == "first_pickup" or p.table.removeprefix("decision_") in D.BY_KEY
            assert p.favours in (1, -1)
            exp = D.BY_KEY.get(p.table.removeprefix("decision_"))
            if exp is not None and p.grouping != "all":  # the rows it names exist
                g = next(g for g in exp.groupings if g.key == p.grouping)
                assert set(p.situations) <= {cell[0] for cell in g.cells()}, (c.id, p)
    assert tuple(c.id for c in C.CLAIMS if c.parts) == MEASURED


def test_a_known_effect_gives_supported_and_contradicted():
    # chasing the special hand gains 300 (claim K supported); starting a sevens or aces meld
    # gains 300 (claim F, "hold them", contradicted); a wild meld with 3 or 4 wilds costs 300
    # and with 5+ gains 300 (D supported, its sign change between 4 and 5)
    out = _verdicts(
        {
            "special_minimum": lambda f: 300.0,
            "sevens": lambda f: 300.0,
            "aces": lambda f: 300.0,
            "wild": lambda f: -300.0 if f["wilds"] <= 4 else 300.0,
        }
    )
    assert out.loc["K", "verdict"] == "supported"
    assert out.loc["F", "verdict"] == "contradicted"
    assert out.loc["D", "verdict"] == "supported"
    # the effect is signed as a gain for following the claim, its interval about it
    for cid, sign in (("K", 1), ("F", -1), ("D", 1)):
        r = out.loc[cid]
        assert r["ci_low"] < r["effect"] < r["ci_high"]
        assert np.sign(r["effect"]) == sign
        assert abs(abs(r["effect"]) - 300) < 5 * (r["ci_high"] - r["ci_low"]) / (2 * 1.96)


def test_a_conditional_claim_half_wrong_is_mixed():
    """B says: discard a seven unless several are in the pile. Discarding it gaining 300
    everywhere supports the first half and contradicts the second."""
    out = _verdicts({"seven_or_triple": lambda f: 300.0})
    assert out.loc["B", "verdict"] == "mixed"


def test_no_effect_gives_no_clear_difference_and_unmeasured_claims_say_so(monkeypatch):
    out = _verdicts({})
    for cid in MEASURED:  # O's row (6+ sevens held, none gone) holds one synthetic hand
        want = "not tested (1 hand)" if cid == "O" else "no clear difference"
        assert out.loc[cid, "verdict"] == want, cid
    # a claim without rows (none today) is 'not measured' and says what it needs
    monkeypatch.setattr(
        C, "CLAIMS", (C.Claim("Z", "a claim", "a source", "a test", needs="an experiment"),)
    )
    r = C.verdicts({}).set_index("id").loc["Z"]
    assert r["verdict"] == "not measured" and r["note"] == "an experiment"


def test_claim_l_reads_the_keep_three_rows():
    """Keeping the three gaining 300 in every situation supports L; costing 300 contradicts
    it (synthetic rows, sd 400 over 40 deals, 60 positions: ~20 SE)."""
    assert _verdicts({"keep_three": lambda f: 300.0}).loc["L", "verdict"] == "supported"
    assert _verdicts({"keep_three": lambda f: -300.0}).loc["L", "verdict"] == "contradicted"


def test_first_pickup_claim_reads_the_hands():
    """G from hand summaries where the first-pickup team wins 75% of hands: 480 hands, about
    320 with a pickup, ~105 with a big pile: SE ≈ 0.042, 0.25 above one half is ~6 SE."""
    out = _verdicts({}, pickup_share=0.75)
    r = out.loc["G"]
    assert r["verdict"] == "supported"
    assert r["ci_low"] < 0.75 < r["ci_high"] and r["ci_low"] > 0.5


def test_a_missing_table_is_not_measured():
    out = C.verdicts({}).set_index("id")
    assert (out["verdict"] == "not measured").all()
    assert "not run" in out.loc["K", "note"]


def test_a_claimed_threshold_is_located():
    """D's sign change: an effect of 600·(wilds − 4.5) a position crosses zero at 4.5 wilds;
    the fitted zero and its interval from resampling hands must hold it."""
    raw = D.synthetic_raw(
        {"wild": lambda f: 600.0 * (f["wilds"] - 4.5)}, positions=120, deals=40, seed=5
    )
    t = {x.grouping: x for x in D.thresholds(raw, ["wild"])}["wilds_held"]
    assert t.ci_low < 4.5 < t.ci_high and abs(t.at - 4.5) < 0.5 and t.slope > 0
    out = C.verdicts(D.tables(raw), D.thresholds(raw)).set_index("id")
    assert "changes sign at wilds ≈" in out.loc["D", "threshold"]


def test_pooled_interval_counts_overlapping_groupings_as_correlated():
    """Two rows of one grouping (different positions) add their errors in quadrature; two
    groupings of one table (the same positions) add them linearly; two tables in quadrature."""
    import pandas as pd

    def rows(tables, groupings):
        return pd.DataFrame(
            {
                "hands": [10, 10],
                "estimate": [1.0, 3.0],
                "se": [3.0, 4.0],
                "_table": tables,
                "_grouping": groupings,
            }
        )

    z = 1.959963984540054
    est, lo, hi = C._pooled(rows(["t", "t"], ["g", "g"]))
    assert est == 2.0 and abs((hi - est) / z - 2.5) < 1e-9  # sqrt(1.5² + 2²)
    _, lo, hi = C._pooled(rows(["t", "t"], ["g", "h"]))
    assert abs((hi - lo) / (2 * z) - 3.5) < 1e-9  # 1.5 + 2
    _, lo, hi = C._pooled(rows(["t", "u"], ["g", "g"]))
    assert abs((hi - lo) / (2 * z) - 2.5) < 1e-9
