"""Reference counting off in the hot kernels.

The rules core, the judge, the engine's transitions and observation and the built-in
policies are compiled with ``_nrt=False`` (numba emits no ``NRT_incref``/``NRT_decref``: they
took ~35% of a heuristic hand's time), the few kernels that allocate with ``_nrt=True``
stated, and the named views are inlined (``inline="always"``). What could go wrong, and is
checked here:

- a flag left unstated: numba compiles a callee with the flag of the caller that first
  reaches it (``Flags.inherit_if_not_set``), so every kernel of these modules states it or
  is inlined;
- a counted reference never released: a kernel without counting that receives a new
  reference (a view returned by a counted kernel that is not inlined) never releases it, and
  the array it views is never freed. Called from a counted caller, as the hand loop is, such a
  leak holds the caller's arrays: their Python reference counts would grow with every call.

The decisions themselves are unchanged (``tests/test_records_unchanged.py``: the same
computation, only the bookkeeping of array lifetimes differs).
"""

import sys

import numpy as np
import pytest
from numba import njit
from numba.core.registry import CPUDispatcher

from sim import encoding as E
from sim import rng, scoring, special
from sim.engine import fastpath, generate, invariants, observe, play, state, validate
from sim.engine import views as engine_views
from sim.engine.judge import action_reason, check_action, legal_actions, legal_actions_filter
from sim.engine.observe import observe as observe_state
from sim.engine.state import apply_action
from sim.engine.views import scratch_hint
from sim.legality import cards, discard, melds, opening, out, pile, search
from sim.policies import builtin, common, strong, strong_features
from sim.policies.builtin import (
    greedy_decide,
    heuristic_decide,
    random_decide,
    special_chaser_decide,
)
from tests.real_hands import RULE_IDS, RULES, games

HOT_MODULES = (melds, opening, search, pile, discard, out, cards)
HOT_MODULES += (special, scoring, validate, fastpath, generate, state, observe, engine_views)
HOT_MODULES += (builtin, common)
HOT_MODULES += (strong, strong_features)  # strong's evaluator: its work words in the scratch
HOT_MODULES += (play, rng, invariants)  # the hand loop itself (play_hand_loop)


def test_every_hot_kernel_states_its_reference_counting_or_is_inlined():
    """Each compiled function of the hot modules sets ``_nrt`` itself or is inlined into its
    callers, so that none takes its flag from whichever caller compiles it first."""
    unstated = []
    for mod in HOT_MODULES:
        for name, obj in vars(mod).items():
            if not isinstance(obj, CPUDispatcher) or obj.py_func.__module__ != mod.__name__:
                continue
            opts = obj.targetoptions
            if "_nrt" not in opts and opts.get("inline") != "always":
                unstated.append(f"{mod.__name__}.{name}")
    assert unstated == []


# counted callers, as the hand loop is (compiled with numba's default: reference counting on)
@njit
def _counted_policies(obs, params, rng, rules, scratch):
    a = heuristic_decide(obs, params, rng, rules, scratch)
    a += greedy_decide(obs, params, rng, rules, scratch)
    a += special_chaser_decide(obs, params, rng, rules, scratch)
    return a + random_decide(obs, params, rng, rules, scratch)


@njit
def _counted_strong(obs, params, rng, rules, scratch):
    return strong.strong_decide(obs, params, rng, rules, scratch)


@njit
def _counted_judge(obs, a, rules, scratch, cache):
    tmp = scratch[E.SCRATCH_TMP : E.SCRATCH_TMP + E.TMP_SIZE]
    out = scratch[E.SCRATCH_LEGAL : E.SCRATCH_LEGAL + E.N_ACTIONS]
    n = legal_actions(obs, rules, out, tmp) + legal_actions_filter(obs, rules, out, tmp)
    return (
        n
        + action_reason(obs, a, rules, tmp)
        + check_action(obs, a, rules, tmp, cache, scratch_hint(scratch))
    )


@njit
def _counted_engine(st, obs, a, rules, log):
    observe_state(st, st[E.ST_PLAYER], obs)
    apply_action(st, a, rules, log)


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_uncounted_kernels_release_every_reference_of_a_counted_caller(rules):
    """At every decision of real hands (heuristic and random play), the policies, the judge
    and the engine's steps called from counted kernels leave the Python reference count of
    every array they were given as it was: no reference taken without counting is kept."""
    from sim.policies import get

    params = np.ascontiguousarray(get("special_chaser").param_array())
    sp = np.ascontiguousarray(get("strong").param_array())  # the evaluator on, its weights
    rng = np.ones(4, dtype=np.uint64)
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    cache = np.zeros(E.PC_SIZE, dtype=np.int64)
    log = np.zeros(1, dtype=np.int64)
    arrays = (params, sp, rng, scratch, cache, log)
    decisions = 0
    for pair in (("heuristic", "heuristic"), ("random", "random")):
        for g, obs in games(pair, 31, range(2), rules):
            r = g.rules
            st = g.state.copy()
            before = [sys.getrefcount(x) for x in (*arrays, obs, r, st)]
            for _ in range(3):
                _counted_policies(obs, params, rng, r, scratch)
                _counted_strong(obs, sp, rng, r, scratch)
                a = int(heuristic_decide(obs, params, rng, r, scratch))
                _counted_judge(obs, a, r, scratch, cache)
                s = st.copy()
                _counted_engine(s, obs.copy(), a, r, log)
            after = [sys.getrefcount(x) for x in (*arrays, obs, r, st)]
            assert after == before, decisions
            decisions += 1
    assert decisions > 200
