"""Claims checked (analysis.claims): a verdict per published claim from the Holm-adjusted
decision tables. Synthetic rows with known effects (analysis.decisions.synthetic_raw, normal
noise of sd 400 a deal, 40 deals a position, 120 positions): an effect of 300 net points is
~7.5 standard errors per situation of 40 hands, far beyond Holm's threshold; an effect of 0
passes only with the family-wise error of 5%."""

import numpy as np

from analysis import claims as C
from analysis import decisions as D


def _verdicts(effects, seed=3):
    raw = D.synthetic_raw(effects, positions=120, deals=40, seed=seed)
    return C.verdicts(D.tables(raw)).set_index("id")


def test_every_claim_has_a_source_a_test_and_a_verdict_or_what_it_needs():
    assert [c.id for c in C.CLAIMS] == list("ABCDEFGHIJKL")
    for c in C.CLAIMS:
        assert c.claim and c.source and c.test
        assert bool(c.experiment) != bool(c.needs), c.id  # measured, or says what it needs
        assert c.experiment == "" or c.experiment in D.BY_KEY, c.id
        assert c.favours in (1, -1)


def test_a_known_effect_gives_supported_and_contradicted():
    # chasing the special hand gains 300 (claim K supported); starting a sevens meld gains
    # 300 (claim F, "hold them", contradicted); a wild meld with 3 wilds costs 300 (D supported)
    out = _verdicts({"special": lambda f: 300.0, "sevens": lambda f: 300.0,
                     "wild": lambda f: -300.0 if f["wilds"] == 3 else 0.0})  # fmt: skip
    assert out.loc["K", "verdict"] == "supported"
    assert out.loc["F", "verdict"] == "contradicted"
    assert out.loc["D", "verdict"] == "supported"
    # the effect is signed as a gain for following the claim, its interval about it
    for cid, sign in (("K", 1), ("F", -1), ("D", 1)):
        r = out.loc[cid]
        assert r["ci_low"] < r["effect"] < r["ci_high"]
        assert np.sign(r["effect"]) == sign
        assert abs(abs(r["effect"]) - 300) < 5 * (r["ci_high"] - r["ci_low"]) / (2 * 1.96)


def test_no_effect_gives_no_clear_difference_and_unmeasured_claims_say_so():
    out = _verdicts({})
    for cid in ("D", "E", "F", "K"):
        assert out.loc[cid, "verdict"] == "no clear difference", cid
    for cid in ("A", "B", "C", "G", "H", "I", "J", "L"):
        assert out.loc[cid, "verdict"] == "not measured" and out.loc[cid, "note"], cid


def test_a_missing_table_is_not_measured():
    out = C.verdicts({}).set_index("id")
    assert (out["verdict"] == "not measured").all()
    assert "not run" in out.loc["K", "note"]
