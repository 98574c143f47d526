"""analysis.intervals: the one way intervals are computed (Wilson for shares, normal for means)."""

from math import comb

import numpy as np
import pandas as pd
import pytest

from analysis import intervals as iv
from sim.errors import CanastaError

REPS = 20_000  # simulated samples per coverage check


def _exact_wilson_coverage(n: int, p: float) -> float:
    """True coverage of the Wilson interval at (n, p): sum of binomial pmf where it covers p."""
    k = np.arange(n + 1)
    _, low, high = iv.wilson_bounds(k, np.full(n + 1, n))
    pmf = np.array([comb(n, int(j)) * p**j * (1 - p) ** (n - j) for j in k])
    return float(pmf[(low <= p) & (p <= high)].sum())


def test_z_value_and_statement():
    assert iv.z_value() == pytest.approx(1.959964, abs=1e-6)
    assert iv.statement(iv.WILSON) == "95% Wilson score interval"
    with pytest.raises(CanastaError, match="confidence"):
        iv.z_value(1.5)


def test_wilson_edges_are_exact():
    """0 successes: lower bound exactly 0; n successes: upper bound exactly 1."""
    e0 = iv.proportion(0, 40)
    assert e0.estimate == 0.0 and e0.ci_low == 0.0 and 0.0 < e0.ci_high < 0.1
    en = iv.proportion(40, 40)
    assert en.estimate == 1.0 and en.ci_high == 1.0 and 0.9 < en.ci_low < 1.0
    # the closed form at k = 0: upper = z^2 / (n + z^2)
    z = iv.z_value()
    assert e0.ci_high == pytest.approx(z * z / (40 + z * z), rel=1e-12)
    assert "95% Wilson score interval" in str(e0)
    with pytest.raises(CanastaError):
        iv.proportion(5, 4)


def test_wilson_known_value():
    """Wilson for 12 of 40 by the textbook formula."""
    e = iv.proportion(12, 40)
    z, n, p = iv.z_value(), 40, 0.3
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert (e.ci_low, e.ci_high) == pytest.approx((centre - half, centre + half), rel=1e-12)


@pytest.mark.parametrize(("n", "p"), [(20, 0.1), (20, 0.5), (100, 0.3), (100, 0.05)])
def test_wilson_coverage_matches_exact_and_is_near_95(n, p):
    """Simulated coverage agrees with the exact coverage (sum of binomial pmf) within 5 SE
    (SE = sqrt(c(1-c)/REPS) ~ 0.0015), and the exact coverage is within 0.92..0.98 (Wilson's
    coverage oscillates around the nominal level with n and p)."""
    exact = _exact_wilson_coverage(n, p)
    assert 0.92 <= exact <= 0.98
    rng = np.random.default_rng(20240501)
    k = rng.binomial(n, p, size=REPS)
    _, low, high = iv.wilson_bounds(k, np.full(REPS, n))
    sim = np.mean((low <= p) & (p <= high))
    se = np.sqrt(exact * (1 - exact) / REPS)
    assert abs(sim - exact) <= 5 * se


def test_mean_interval_coverage():
    """Normal interval of a mean of 100 skewed (exponential) values: coverage within
    5 SE (~0.008 at REPS samples) plus 0.01 for the finite-sample (t vs z, skew) bias."""
    rng = np.random.default_rng(7)
    x = rng.exponential(3.0, size=(REPS, 100))
    m = x.mean(axis=1)
    se = x.std(axis=1, ddof=1) / 10.0
    z = iv.z_value()
    cover = np.mean((m - z * se <= 3.0) & (3.0 <= m + z * se))
    assert abs(cover - 0.95) <= 5 * np.sqrt(0.95 * 0.05 / REPS) + 0.01
    e = iv.mean(x[0])
    assert e.ci_low == pytest.approx(m[0] - z * se[0]) and e.n == 100
    assert e.interval == "95% normal interval (mean ± z·SE)"


def test_paired_difference_exact_when_differences_constant():
    """Exact truth: pairs differing by a constant give that constant with a zero-width interval."""
    a = np.array([10.0, -300.0, 2500.0, 45.0])
    e = iv.paired_difference(a, a - 7.5)
    assert (e.estimate, e.ci_low, e.ci_high) == (7.5, 7.5, 7.5)
    with pytest.raises(CanastaError, match="length"):
        iv.paired_difference([1, 2], [1])


def test_tables_state_the_interval():
    df = pd.DataFrame({"g": ["a", "a", "b", "b", "b"], "ok": [1, 0, 1, 1, 1], "x": [1, 3, 2, 2, 2]})
    pt = iv.proportion_table(df, "ok", by="g")
    assert list(pt["successes"]) == [1, 3] and list(pt["n"]) == [2, 3]
    assert pt.loc[1, "ci_high"] == 1.0
    assert (pt["interval"] == "95% Wilson score interval").all()
    mt = iv.mean_table(df, "x", by="g")
    assert list(mt["estimate"]) == [2.0, 2.0]
    assert mt.loc[1, "ci_low"] == 2.0 == mt.loc[1, "ci_high"]
    assert mt.attrs["interval"].startswith("95% normal")
    whole = iv.proportion_table(df, "ok")
    assert whole.loc[0, "estimate"] == pytest.approx(0.8)
