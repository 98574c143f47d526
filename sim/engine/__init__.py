"""The deal-and-play engine: compiled hands (``core``, ``play``), records and the step API.

The engine takes compiled policies (decide functions and float64 parameter arrays, never
names) and the ruleset as an array. Array-level entry points: ``hands.play_hands_arrays``,
``hands.play_games_arrays``, ``position.play_position_arrays``. The runs by policy name
(``simulate``, ``simulate_games``, ``play_position``, the chunk functions ``play_hands`` and
``play_games``) live a layer up, in ``sim.api``, and are public as ``sim.simulate``...

Public entry points here (imported on first use, so ``import sim.engine`` stays light):
``Game`` and ``describe_action`` (step API, ``game``).

Holds: ``state`` (transitions), ``observe`` (what a player sees), ``views`` (named views of
the arrays), ``contract`` (the policy signature), ``validate``, ``fastpath``, ``generate`` and
``judge`` (the validator, its fast path, the legal-action generator, one import for the
three), ``play`` (the compiled hand loop and chunk kernels), ``intercept``, ``position`` and
``script`` (forced choices, what-if positions, scripts), ``search`` (the expert's compiled
helpers), ``hands`` (array-level entry points), ``records`` (records as a DataFrame),
``invariants`` (debug checks) and ``game`` (the step API).
"""

__all__ = ["Game", "describe_action"]

# numba's cache of the engine is kept fresh by sim._numba_cache, run when ``sim`` is imported.

_LAZY = {"Game": "sim.engine.game", "describe_action": "sim.engine.game"}

#: names that moved above the engine: sim.engine never imports the runner level
_MOVED = ("simulate", "simulate_games", "play_position", "play_hands", "play_games")


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    if name in _MOVED:
        raise AttributeError(
            f"sim.engine.{name} moved to sim.{name} (the engine takes compiled policies, not "
            "names; docs/architecture.md)"
        )
    raise AttributeError(f"module 'sim.engine' has no attribute {name!r}")
