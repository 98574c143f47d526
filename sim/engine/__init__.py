"""The deal-and-play engine: compiled hands (``core``, ``play``), records and the step API.

Public entry points (imported on first use, so ``import sim.engine`` stays light):
``Game`` and ``describe_action`` (step API, ``game``), ``play_hands``, ``simulate``,
``play_games``, ``simulate_games`` (``hands``), ``play_position`` (what-if positions,
``position``).
"""

# numba's cache of the engine is kept fresh by sim._numba_cache, run when ``sim`` is imported.

_LAZY = {
    "Game": "sim.engine.game",
    "describe_action": "sim.engine.game",
    "play_hands": "sim.engine.hands",
    "simulate": "sim.engine.hands",
    "play_games": "sim.engine.hands",
    "simulate_games": "sim.engine.hands",
    "play_position": "sim.engine.position",
}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sim.engine' has no attribute {name!r}")
