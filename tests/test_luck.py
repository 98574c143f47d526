"""The luck correction of the advice's play-outs (``sim.engine.luck``, ``analysis.luck``): the
same hands as the plain kernel, centred counts that sum to zero, a correction whose mean is
zero (corrected and plain means agree), and a smaller spread with the shipped weights."""

from __future__ import annotations

import numpy as np
import pytest

from analysis import luck as L
from analysis.whatif import position
from sim import encoding as E

POLICIES = ("heuristic", "heuristic")
OPEN_POS = {"hand": "AS AH AD JK 2C KS KH KD 7H 7S 9C 9D 5S", "turn": 4, "pile_top": "8D"}


def _arrays(drawn=-1):
    from sim.api import compiled_players
    from sim.engine.script import script_arrays
    from sim.ruleset import as_ruleset

    rules = as_ruleset(None)
    players, _ = compiled_players(POLICIES, rules)
    return players, script_arrays(position(**OPEN_POS), drawn, rules)


def test_same_hands_as_the_plain_kernel():
    """The luck kernel plays exactly the plain kernel's hands (its twin): equal records and
    applied flags, row for row, with a drawn card fixed and without."""
    from sim.cards import parse_cards
    from sim.engine.luck import play_scripts_luck_arrays
    from sim.engine.script import play_scripts_arrays
    from sim.rng import run_key

    scripts = np.array([[E.A_DRAW, E.A_DISCARD + E.FIRST_NATURAL + 2], [E.A_DRAW, -1]])
    for drawn in (-1, int(parse_cards("KC")[0])):
        players, arrays = _arrays(drawn)
        key = run_key(3)
        a, fa = play_scripts_arrays(key, 5, 25, players, arrays, scripts, drawn)
        b, fb, counts = play_scripts_luck_arrays(key, 5, 25, players, arrays, scripts, drawn)
        assert np.array_equal(a, b) and np.array_equal(fa, fb)
        assert counts.shape == (40, E.N_TEAMS, E.N_KINDS)
        # each draw adds one at a kind and takes the stock's shares (summing to one) away
        assert np.allclose(counts.sum(axis=2), 0.0)
        assert np.abs(counts).sum() > 0


@pytest.mark.slow
def test_corrected_and_plain_means_agree():
    """On a fixed position, 4,000 play-outs: the correction (the shipped weights times the
    centred counts) has mean zero within 4.5 standard errors, so the corrected mean is the
    plain one; and it takes out part of the spread (the variance of the corrected score is
    below the plain score's)."""
    from sim import encoding as E

    df = L.play_script_luck(
        4000, position(**OPEN_POS), np.array([[E.A_DRAW]]), -1, 11, POLICIES, None
    )
    luck = df["luck"].to_numpy()
    se = luck.std(ddof=1) / np.sqrt(luck.size)
    assert abs(luck.mean()) < 4.5 * se, (luck.mean(), se)
    score = df["score_team0"].to_numpy(dtype=np.float64)
    assert (score - luck).var() < score.var()


def test_weights_file_is_frozen_and_says_how_it_was_made():
    import json

    data = json.loads(L.WEIGHTS_FILE.read_text())
    assert L.load_weights().shape == (E.N_TEAMS, E.N_KINDS)
    assert data["seed"] >= L.FIT_SEED and "python -m analysis.luck" in data["command"]
    assert not L.load_weights().flags.writeable


def test_advise_with_luck_keeps_the_deals():
    """advise(luck=True) plays the same deals and records (the rates, which read the
    records, are the plain run's) and corrects only the points."""
    from analysis.advise import advise

    pos = position(**OPEN_POS)
    a = advise(pos, drawn="KC", n=16, policies=POLICIES, seed=2)
    b = advise(pos, drawn="KC", n=16, policies=POLICIES, seed=2, luck=True)
    assert b.luck and not a.luck
    ra = {c.label: c.rates for c in a.choices if c.n == 16}
    rb = {c.label: c.rates for c in b.choices if c.n == 16}
    common = set(ra) & set(rb)
    assert common and all(ra[k] == rb[k] for k in common)
