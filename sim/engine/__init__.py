"""The deal-and-play engine: compiled hands (``core``, ``play``), records and the step API.

The engine takes compiled policies (decide functions and float64 parameter arrays, never
names) and the ruleset as an array. Array-level entry points: ``hands.play_hands_arrays``,
``hands.play_games_arrays``, ``position.play_position_arrays``. The runs by policy name
(``simulate``, ``simulate_games``, ``play_position``, the chunk functions ``play_hands`` and
``play_games``) live a layer up, in ``sim.api``, and are public as ``sim.simulate``...

The hand for people (``Hand``, which takes policy names, with its turn loop, views and
words) lives above the engine, in ``sim.play``, and is public as ``sim.Hand``.

Holds: ``state`` (transitions), ``observe`` (what a player sees), ``views`` (named views of
the arrays), ``contract`` (the policy signature), ``validate``, ``fastpath``, ``generate`` and
``judge`` (the validator, its fast path, the legal-action generator, one import for the
three), ``play`` (the compiled hand loop and chunk kernels), ``intercept``, ``position`` and
``script`` (forced choices, what-if positions, scripts), ``luck`` (scripts' play-outs with
the luck of their draws counted), ``search`` (the expert's compiled
helpers), ``hands`` (array-level entry points), ``frames`` (records as a DataFrame),
and ``invariants`` (debug checks).
"""

__all__: list[str] = []

# numba's cache of the engine is kept fresh by sim._numba_cache, run when ``sim`` is imported.

#: names that live above the engine: it takes compiled policies and never imports the runner level
_MOVED = ("simulate", "simulate_games", "play_position", "play_hands", "play_games", "Game")


def __getattr__(name):
    if name in _MOVED:
        raise AttributeError(
            f"sim.engine.{name} moved to sim.{name} (the engine takes compiled policies, not "
            "names; docs/architecture.md)"
        )
    raise AttributeError(f"module 'sim.engine' has no attribute {name!r}")
