"""Policies: the registry and the built-ins (contract in ``sim.engine.contract``).

The built-ins are registered in one place, ``builtin_registry``, loaded on the registry's
first look-up (so importing the registry does not load the compiled policies). The package:

- ``registry``: names to compiled policies (``register``, ``get``, ``resolve``, ``parse``);
- ``builtin``: random, greedy, heuristic, special_chaser; ``heuristic_params``: the
  heuristic's parameter table (strong's base move is the same kernel at its own values);
  ``common``: the helpers they share (largest meld, opening search with its memo, cheapest
  discard);
- ``strong``, ``strong_features``, ``strong_train``: strong, its features and its training;
  ``strong_v2``, ``strong_v2_features``: strong_v2 (strong's kernel with its wider evaluator)
  and that evaluator's features;
- ``game_strong``: strong that plays for the game, by a style per score region;
- ``expert``: the search policy; ``inference``: the likelihood of a sampled deal given the
  opponents' observed play (the search's ``infer``); ``ladder``: the strength ladder;
- ``python_agent``: ``python_policy``, a Python callable played as a policy;
- ``data``: the shipped weights of strong (and the frozen reference's copy,
  ``strong_2026_12.json``), of strong_v2 (``strong_v2.json``) and game_strong's table
  (package data), each read and its layout's version checked by ``datafile``.
"""

from sim.policies.python_agent import python_policy
from sim.policies.registry import (
    PolicySpec,
    add_loader,
    get,
    names,
    parse,
    register,
    resolve,
    strongest_fast,
    unregister,
)


def _load_builtins() -> None:
    import sim.policies.builtin_registry  # noqa: F401  (registers on import)


add_loader(_load_builtins)

__all__ = [
    "PolicySpec",
    "get",
    "names",
    "parse",
    "python_policy",
    "register",
    "resolve",
    "strongest_fast",
    "unregister",
]
