"""canasta-sim: Monte Carlo simulation and analytics for Modern American Canasta.

Public here: ``Ruleset``, ``DEFAULT_RULESET``, the errors (``errors``), and (imported on first use)
``simulate``, ``simulate_games``, ``play_position``, ``play_hands``, ``play_games`` (``sim.api``),
``load`` (``sim.store``), ``Hand``, ``describe_action`` (``sim.play``: one hand; ``Game`` is
its deprecated name) and ``GameDriver`` (``sim.play``: one game of hands, GAME-1 and
SPECIAL-10).

Holds the rules core (``ruleset``, ``encoding`` with its parts ``kinds`` and ``reasons``,
``cards``, ``legality``, ``special``, ``scoring``, ``odds``, ``sampler``, ``finished``,
``catalogue``; the shipped ruleset files in ``rulesets/``), the engine (``engine``), the
policies (``policies``), the run level (``api``, ``runner``, ``jobs``, ``store``, ``warm``,
``sampling``, ``rng``, ``limits``), the hand, the game, the records, the move grammar, its
turn loop, views, events and words (``play``; ``step``, ``text``, ``game``, ``record`` and
``moves`` are its old names, kept as re-exports),
statistics helpers (``stats``) and the PettingZoo environment (``env``).
"""

from sim._numba_cache import ensure_fresh_cache

ensure_fresh_cache()  # before any compiled module of sim is imported (stale inlined kernels)

from sim.errors import CanastaError, RuleViolation  # noqa: E402 (after the cache guard)
from sim.ruleset import DEFAULT_RULESET, Ruleset  # noqa: E402

__version__ = "0.1.0"


#: public functions of heavier modules, imported on first use so ``import sim`` stays quick
_LAZY = {
    "load": "sim.store",
    "simulate": "sim.api",
    "simulate_games": "sim.api",
    "play_position": "sim.api",
    "play_hands": "sim.api",
    "play_games": "sim.api",
    "Hand": "sim.play",
    "Game": "sim.step",  # deprecated: sim.play.Hand (warns)
    "describe_action": "sim.play",
    "GameDriver": "sim.play",
}

__all__ = [
    "DEFAULT_RULESET",
    "CanastaError",
    "Game",
    "GameDriver",
    "Hand",
    "RuleViolation",
    "Ruleset",
    "__version__",
    "describe_action",
    "load",
    "play_games",
    "play_hands",
    "play_position",
    "simulate",
    "simulate_games",
]
assert set(_LAZY) <= set(__all__)  # every public name a user calls is listed


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sim' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *_LAZY})
