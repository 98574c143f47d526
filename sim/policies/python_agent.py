"""Python agents in the runner: ``python_policy`` registers a Python callable
``(observation, action_mask) -> action`` as a policy the engine plays (``sim.simulate``,
``analysis.compare.duplicate``, ``canasta compare``), in Python, one call per decision (a
trivial callable: about 60 µs a decision, against about 5 µs for the compiled heuristic;
docs/env.md). ``legal_mask`` is the mask it is given; ``observation_vector`` reads an
observation given as the env's Dict or as the vector itself. Needs no optional extra (the
PettingZoo environment, ``sim.env``, does).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from sim import encoding as E
from sim.errors import CanastaError
from sim.ruleset import Ruleset, as_ruleset

__all__ = ["python_policy"]


def observation_vector(observation) -> np.ndarray:
    """The int64 observation vector of an env observation (its Dict or the vector itself)."""
    if isinstance(observation, dict):
        if "observation" not in observation:
            raise CanastaError("an env observation is a dict with the key 'observation'")
        observation = observation["observation"]
    obs = np.asarray(observation)
    if obs.shape != (E.OBS_SIZE,) or not np.issubdtype(obs.dtype, np.integer):
        raise CanastaError(f"an observation is {E.OBS_SIZE} integers (layout OBS_FIELDS)")
    return np.ascontiguousarray(obs, dtype=np.int64)


#: Python callables behind the policies registered by ``python_policy``, by slot
_CALLBACKS: dict[int, Callable] = {}
_SLOTS = itertools.count()


def legal_mask(observation, rules: Ruleset | dict | np.ndarray | None = None) -> np.ndarray:
    """int8[N_ACTIONS] mask of the legal actions of the player whose observation this is
    (``sim.engine.judge.legal_actions``: the rules core, from the observation alone)."""
    from sim.engine.judge import legal_actions

    obs = observation_vector(observation)
    if isinstance(rules, np.ndarray):
        rules_arr = np.ascontiguousarray(rules, dtype=np.int64)
    else:
        rules_arr = np.ascontiguousarray(as_ruleset(rules).to_array())
    out = np.zeros(E.N_ACTIONS, dtype=np.int64)
    tmp = np.zeros(E.TMP_SIZE, dtype=np.int64)
    n = int(legal_actions(obs, rules_arr, out, tmp))
    mask = np.zeros(E.N_ACTIONS, dtype=np.int8)
    mask[out[:n]] = 1
    return mask


def _call_python(slot, obs, rules):
    """Run in numba's object mode by the policies ``python_policy`` compiles: the callable's
    answer, or -1 (which the engine counts as an illegal proposal) if it is not an id."""
    vector = np.array(obs, dtype=np.int64)  # a copy: the callable may keep or change it
    a = _CALLBACKS[int(slot)](vector, legal_mask(vector, rules))
    if isinstance(a, bool | np.bool_) or not isinstance(a, int | np.integer):
        return -1
    return int(a) if 0 <= a < E.N_ACTIONS else -1


def _trampoline(slot: int):
    """A compiled policy (the contract's signature) that asks ``_CALLBACKS[slot]`` in Python
    through numba's object mode: the engine kernels take it like any compiled policy."""
    from numba import njit, objmode

    @njit
    def _decide(obs, params, rng, rules, scratch):
        s = slot
        with objmode(a="int64"):
            a = _call_python(s, obs, rules)
        return a

    return _decide


def python_policy(fn: Callable, name: str, doc: str = "", *, replace: bool = False):
    """Register a Python callable ``fn(observation, action_mask) -> action id`` as the policy
    ``name``: ``sim.simulate(n, policies=(name, "heuristic"))``,
    ``analysis.compare.duplicate(name, "heuristic", n)`` and the env's ``policy_action`` then
    play it like any policy, with the same records.

    ``observation`` is the player's int64 observation vector (the env's
    ``observation["observation"]``, layout OBS_FIELDS), ``action_mask`` the int8 mask of its
    legal actions. The engine calls it from its compiled loop through numba's object mode, once
    per decision: Python speed (measured in docs/env.md), in this process only (registered
    policies do not reach joblib's workers: use ``n_jobs=1``). An answer that is not a legal
    action id is counted in the records' ``policy_errors`` and replaced by the first legal
    action, as for any policy. Returns the registry's ``PolicySpec``."""
    from sim.policies.registry import register

    if not callable(fn):
        raise CanastaError(f"python_policy: {fn!r} is not callable")
    slot = next(_SLOTS)
    _CALLBACKS[slot] = fn
    try:
        doc = doc or (fn.__doc__ or "").strip()
        return register(name, _trampoline(slot), doc=doc, replace=replace)
    except Exception:
        del _CALLBACKS[slot]
        raise
