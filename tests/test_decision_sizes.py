"""How many sampled hands each decision experiment draws its positions from: an experiment
whose key positions are rare asks for more (``positions.hands_per_position``), the others are
drawn from the same hands as they would be alone."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis import decisions as D
from analysis import positions as P
from reports.defaults import DEFAULT_POSITIONS


def test_a_rare_experiment_gets_its_own_hands_and_the_others_keep_theirs():
    """sevens_finish asks 50 hands a position: at the report's 160 positions 8,000 sampled
    hands, the others the run's 960; ``--hands`` given overrides both."""
    finish, sevens = D.BY_KEY["sevens_finish"], D.BY_KEY["sevens"]
    assert finish.hands_per_position == 50 and sevens.hands_per_position == 0
    assert D.experiment_hands(finish, DEFAULT_POSITIONS) == 8000
    assert D.experiment_hands(sevens, DEFAULT_POSITIONS) == 960
    assert D.experiment_hands(finish, DEFAULT_POSITIONS, sample_hands=500) == 500


def test_run_reads_the_longer_sample_only_where_asked():
    """Five positions: sevens from the run's 100 hands, sevens_finish from 250; the sevens
    rows and the hand summaries are those of a run without sevens_finish (hand h is the same
    hand in either sample)."""
    both = D.run_experiments(5, 2, seed=4, experiments=["sevens", "sevens_finish"])
    alone = D.run_experiments(5, 2, seed=4, experiments=["sevens"])
    assert both.attrs["experiment_hands"] == {"sevens": 100, "sevens_finish": 250}
    assert both.attrs["sample_hands"] == 100 and len(both.attrs["hands"]) == 100
    assert both.attrs["hands"] == alone.attrs["hands"]
    mine = both[both["experiment"] == "sevens"].drop(columns="outcomes").reset_index(drop=True)
    pd.testing.assert_frame_equal(mine, alone.drop(columns="outcomes").reset_index(drop=True))
    assert (both.loc[both["experiment"] == "sevens", "hand"] < 100).all()
    assert (both.loc[both["experiment"] == "sevens_finish", "hand"] < 250).all()


@pytest.mark.slow
def test_claim_o_key_row_has_the_hands_a_test_needs_at_the_default_size():
    """Claim O's row (6+ sevens held, none gone) at the report's default size and seed 0:
    its positions come from at least 3 × MIN_HANDS sampled hands (30 measured; at the run's
    default 960 hands it held 4-9 over seeds 0-2, too few to count on a test)."""
    exp = D.BY_KEY["sevens_finish"]
    hands = D.experiment_hands(exp, DEFAULT_POSITIONS)
    picked = P.choose(P.sample_positions(hands, 0), exp, DEFAULT_POSITIONS, 0)
    key = {s["hand"] for s in picked if s["sevens"] >= 6 and s["sevens_gone"] == 0}
    assert len(picked) == DEFAULT_POSITIONS and len(key) >= 3 * D.MIN_HANDS
    assert np.all([exp.select(s) for s in picked])
