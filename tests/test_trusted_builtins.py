"""Trusted built-ins (sim.engine.contract): production runs apply the compiled built-in
policies' proposals unjudged, so they must never propose an illegal action. Every built-in
plays under every shipped ruleset and both OPEN-2 variants (a natural meld of 3+ required, or
the wild opening) with the judge on (``debug``: every proposal judged, every invariant checked)
and must make 0 illegal proposals; a user's policy is judged without ``debug`` too."""

import dataclasses

import numpy as np
import pytest
from numba import njit

import sim
from sim.api import play_hands
from sim.encoding import N_ACTIONS
from sim.engine.contract import (
    MODE_DEBUG,
    MODE_TRUST0,
    MODE_TRUST1,
    engine_mode,
    is_builtin,
)
from sim.policies import get, names, register, unregister
from sim.rng import run_key
from sim.ruleset import Ruleset, shipped_rulesets

#: hands a configuration (6 configurations: 3 shipped rulesets x 2 OPEN-2 variants); the
#: fast built-ins play 5 x 6 x 16 = 480 hands, the searches a few each at a small budget
FAST_HANDS = 40
SEARCH_HANDS = 4
SEARCH_SPECS = {
    "expert": "expert:samples=2,rollouts=1,candidates=3",
    "expert_strong": "expert_strong:samples=2,rollouts=1,candidates=3",
    "expert_strong_v2": "expert_strong_v2:samples=2,rollouts=1,candidates=3",
}


def _configurations():
    for name, path in sorted(shipped_rulesets().items()):
        base = Ruleset.from_toml(path)
        for natural in (True, False):  # OPEN-2: natural meld required / the wild opening
            yield (
                f"{name}-{'natural' if natural else 'wild'}",
                dataclasses.replace(base, opening_natural=natural),
            )


CONFIGS = list(_configurations())
BUILTINS = [n for n in names() if is_builtin(get(n).decide)]


def test_every_builtin_is_trusted_and_no_user_policy_is():
    assert {"random", "greedy", "heuristic", "special_chaser", "strong", "expert"} <= set(BUILTINS)

    @njit
    def mine(obs, params, rng, rules, scratch):
        return 0

    register("test_trust_mine", mine)
    try:
        assert not is_builtin(get("test_trust_mine").decide)
        h, u = get("heuristic").decide, get("test_trust_mine").decide
        assert engine_mode((h, u), False) == MODE_TRUST0
        assert engine_mode((u, h), False) == MODE_TRUST1
        assert engine_mode((h, h), False) == MODE_TRUST0 | MODE_TRUST1
        assert engine_mode((u, u), False) == 0
        assert engine_mode((h, h), True) == MODE_DEBUG  # debug: every proposal judged
    finally:
        unregister("test_trust_mine")


@pytest.mark.parametrize("label,rules", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_builtins_propose_only_legal_actions_under_every_ruleset(label, rules):
    """OPEN-1..5, MELD-1..10, PILE-1/2, DISCARD-1..3, OUT-1/2, SPECIAL-1..10 as each shipped
    ruleset sets them: 0 illegal proposals with the judge on, both seats of every built-in."""
    for i, name in enumerate(BUILTINS):
        spec = SEARCH_SPECS.get(name, name)
        n = SEARCH_HANDS if name in SEARCH_SPECS else FAST_HANDS
        for pair in ((spec, "heuristic"), ("random", spec)):
            df = play_hands(run_key(100 + i), 0, n, pair, rules=rules, debug=True)
            assert len(df) == n
            assert int(df.policy_errors.sum()) == 0, (label, pair)
            assert (df.decisions > 0).all()


def test_builtins_records_are_the_same_judged_or_trusted():
    """Trust changes only what is checked: a built-in's hands are the same records with the
    judge on (debug) and off, whatever the ruleset."""
    for _, rules in CONFIGS[::2]:
        a = play_hands(run_key(9), 0, 12, ("strong", "heuristic"), rules=rules, debug=True)
        b = play_hands(run_key(9), 0, 12, ("strong", "heuristic"), rules=rules)
        assert a.equals(b)


def test_user_policy_is_judged_without_debug():
    """A user's policy is always judged: an id that is no action is counted in
    ``policy_errors`` and replaced, in a production run too."""

    @njit
    def bad(obs, params, rng, rules, scratch):
        return N_ACTIONS + 5  # not an action

    register("test_trust_bad", bad)
    try:
        df = sim.simulate(3, policies=("test_trust_bad", "greedy"), seed=3)
        assert (df.policy_errors > 0).all()
        assert np.all(df.policy_errors <= df.decisions)
    finally:
        unregister("test_trust_bad")
