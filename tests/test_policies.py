"""Policies: the shared harness every registered policy passes, the registry, and strength.

The harness (legal moves only, every hand ends, invariants after every action) runs over every
name in the registry, so a new policy's test is its registration.
"""

import numpy as np
import pandas as pd
import pytest
from numba import njit

import sim
from sim.encoding import (
    A_DISCARD,
    A_DRAW,
    A_LAY_THREES,
    N_ACTIONS,
    N_KINDS,
    OB_PHASE,
    PH_DRAW,
    PH_THREES,
    SCRATCH_LEGAL,
    SCRATCH_TMP,
    TMP_SIZE,
)
from sim.engine.core import legal_actions
from sim.engine.hands import play_hands
from sim.errors import CanastaError
from sim.policies import get, names, parse, register, unregister
from sim.policies.registry import split_list
from sim.rng import run_key

BUILTINS = ("random", "greedy", "heuristic", "special_chaser")


@pytest.mark.parametrize("name", names())
def test_harness_every_policy_plays_legal_hands_with_invariants(name):
    """Legal moves only (no proposal replaced), hands end (END-1), invariants hold (debug)."""
    n = 60 if name == "random" else 150
    for other, seed in ((name, 1), ("heuristic", 2), ("random", 3)):
        for pair in ((name, other), (other, name)):
            df = play_hands(run_key(seed), 0, n, pair, debug=True)
            assert (df.policy_errors == 0).all(), pair
            assert set(df.end_reason) <= {"out", "special", "stock"}
            assert (df.turns < 400).all()


def test_builtins_registered_with_docs_and_parameters():
    assert set(BUILTINS) <= set(names())
    h = get("heuristic")
    assert "sevens_threshold" in h.param_names and h.doc
    assert get("special_chaser").param_names[: len(h.param_names)] == h.param_names


def test_registry_rejects_duplicates_unknowns_and_negatives():
    with pytest.raises(CanastaError, match="already registered"):
        register("greedy", get("greedy").decide)
    with pytest.raises(CanastaError, match="unknown policy 'nope'"):
        parse("nope")
    with pytest.raises(CanastaError, match="no parameter 'bogus'"):
        parse("heuristic:bogus=1")
    with pytest.raises(CanastaError, match="must be >= 0"):
        parse("heuristic:sevens_threshold=-1")
    with pytest.raises(CanastaError, match="expected a number"):
        parse("heuristic:sevens_threshold=many")


def test_parameters_settable_by_spec_and_cli_list():
    spec, params, label = parse("heuristic:sevens_threshold=7,pile_min=1")
    i = spec.param_names.index("sevens_threshold")
    assert params[i] == 7 and params[spec.param_names.index("pile_min")] == 1
    assert label == "heuristic:sevens_threshold=7,pile_min=1"
    assert split_list("heuristic:sevens_threshold=4,aces_threshold=5,random") == [
        "heuristic:sevens_threshold=4,aces_threshold=5",
        "random",
    ]
    df = sim.simulate(20, policies=("heuristic:sevens_threshold=9", "random"), seed=1)
    assert (df.policy_team0 == "heuristic:sevens_threshold=9").all()


def test_user_policy_registered_from_own_module_runs_by_name():
    """A user's policy: plain @njit code outside sim/, registered and run by name."""

    @njit
    def always_draw(obs, params, rng, rules, scratch):
        if obs[OB_PHASE] == PH_THREES:
            return A_LAY_THREES
        if obs[OB_PHASE] == PH_DRAW:
            return A_DRAW
        legal = scratch[SCRATCH_LEGAL : SCRATCH_LEGAL + N_ACTIONS]
        n = legal_actions(obs, rules, legal, scratch[SCRATCH_TMP : SCRATCH_TMP + TMP_SIZE])
        for i in range(n):  # the first legal discard
            if legal[i] >= A_DISCARD and legal[i] < A_DISCARD + N_KINDS:
                return legal[i]
        return legal[0]

    register("test_always_draw", always_draw, {"unused": 1.0}, "draws and discards")
    try:
        df = sim.simulate(30, policies=("test_always_draw", "heuristic"), seed=2, debug=True)
        assert (df.policy_errors == 0).all()
        assert (df.team0_opened == 0).all()  # it never melds
    finally:
        unregister("test_always_draw")


def test_illegal_proposals_are_counted_and_replaced():
    @njit
    def bad(obs, params, rng, rules, scratch):
        return N_ACTIONS + 5  # not an action

    register("test_bad", bad)
    try:
        df = sim.simulate(3, policies=("test_bad", "greedy"), seed=3, debug=True)
        assert (df.policy_errors > 0).all()
    finally:
        unregister("test_bad")


def duplicate_difference(a: str, b: str, n: int, seed: int) -> np.ndarray:
    """Per deal: a's points minus b's with the same cards in the same seats (both seatings)."""
    ab = sim.simulate(n, policies=(a, b), seed=seed)
    ba = sim.simulate(n, policies=(b, a), seed=seed)
    return ((ab.score_team0 - ba.score_team0) + (ba.score_team1 - ab.score_team1)).to_numpy() / 2


@pytest.mark.slow
@pytest.mark.parametrize("weaker", ["greedy", "random"])
def test_heuristic_beats_weaker_policy_on_same_deals(weaker):
    """heuristic scores more per hand than greedy/random over 20,000 duplicate deals: the
    mean difference's 95% interval (normal, 1.96 standard errors) lies above zero."""
    d = duplicate_difference("heuristic", weaker, 20_000, seed=2024)
    se = d.std(ddof=1) / np.sqrt(len(d))
    assert d.mean() - 1.96 * se > 0, (d.mean(), se)


@pytest.mark.slow
def test_invariants_over_100000_hands_all_policies():
    """Invariants after every action (CARD-1 cards, MELD-* melds, pile), legal moves only and
    every hand ends, over 100,000 hands spread over every built-in pairing and many seeds."""
    pairs = [(a, b) for a in BUILTINS for b in BUILTINS]
    total = 0
    per_pair = 100_000 // len(pairs) + 1
    frames = []
    for i, pair in enumerate(pairs):
        n = per_pair if "random" not in pair else per_pair // 2
        df = play_hands(run_key(1000 + i), 0, n, pair, debug=True)
        frames.append(df[["policy_errors", "end_reason"]])
        total += n
    if total < 100_000:  # top up with the fast pairing
        df = play_hands(run_key(99), 0, 100_000 - total, ("heuristic", "greedy"), debug=True)
        frames.append(df[["policy_errors", "end_reason"]])
        total = 100_000
    allf = pd.concat(frames)
    assert len(allf) >= 100_000
    assert (allf.policy_errors == 0).all()
    assert set(allf.end_reason) <= {"out", "special", "stock"}


@pytest.mark.parametrize(
    "variant",
    [
        {"max_wilds_mixed": 3},
        {"max_wilds_mixed": 1},
        {"allow_long_meld_going_out": True},
        {"rule_of_five": False},
        {"special_hands": "none"},
    ],
)
def test_harness_under_rule_variants(variant):
    """MELD-2, MELD-4, MELD-5 and SPECIAL-7 variants: legal play and invariants hold."""
    for pair in (("heuristic", "greedy"), ("special_chaser", "random")):
        df = play_hands(run_key(7), 0, 150, pair, rules=variant, debug=True)
        assert (df.policy_errors == 0).all()
        assert set(df.end_reason) <= {"out", "special", "stock"}
        if variant.get("special_hands") == "none":
            assert (df.special_hand == "").all()
