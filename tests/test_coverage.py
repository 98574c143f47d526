"""Intervals that cover: one experiment run at k seeds varies as much as its stated errors say.

Each seed samples new hands, new positions and new deals, so the k estimates of an experiment's
``all`` row are independent measurements of one quantity. Their spread about the
inverse-variance weighted mean, in units of their stated standard errors, is chi-square with
k − 1 degrees of freedom when the errors are right (``analysis.intervals.coverage``); errors
that count correlated units as independent (the paired deals of one position, the positions of
one sampled hand) make it larger. Each experiment is tested at p > 0.001 (17 experiments: a
false alarm in the family under 2%), and the sum over experiments, a sharper test of a common
understatement, likewise. The small sizes keep it cheap; the default report's size was checked
the same way by hand (docs/report.md, "Intervals that cover").
"""

from __future__ import annotations

import numpy as np
import pytest

from analysis import decisions as D
from analysis.intervals import chi2_sf, coverage

SEEDS = range(6)


def test_chi2_tail_matches_known_values():
    """The chi-square tail at the textbook 5% points (df 1, 2, 5, 7) and at 0."""
    for x, df in ((3.841, 1), (5.991, 2), (11.070, 5), (14.067, 7)):
        assert abs(chi2_sf(x, df) - 0.05) < 2e-4
    assert chi2_sf(0.0, 3) == 1.0


def test_coverage_flags_errors_that_are_too_small():
    """Estimates spread with sd 1 pass with errors 1 and fail with errors 0.4 (fixed seed)."""
    rng = np.random.default_rng(0)
    x = rng.normal(0.0, 1.0, 12)
    assert coverage(x, np.ones(12))[2] > 0.01
    assert coverage(x, np.full(12, 0.4))[2] < 0.001


@pytest.mark.slow
def test_every_experiment_covers_over_seeds():
    results: dict[str, list[tuple[float, float]]] = {}
    for seed in SEEDS:
        raw = D.run_experiments(40, 8, seed=seed, n_jobs=1)
        for key, t in D.tables(raw).items():
            if key.startswith("decision_"):
                row = t.iloc[0]  # the 'all' row
                results.setdefault(key, []).append((row["estimate"], row["se"]))
    assert len(results) == len(D.EXPERIMENTS)
    total, total_df = 0.0, 0
    for key, pairs in results.items():
        est, se = np.array(pairs).T
        chi2, df, p = coverage(est, se)
        assert p > 0.001, f"{key}: chi2/df {chi2 / df:.2f} over {df + 1} seeds"
        total, total_df = total + chi2, total_df + df
    assert chi2_sf(total, total_df) > 0.001, f"all experiments: chi2/df {total / total_df:.2f}"
