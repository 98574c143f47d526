"""The step API's old home: ``sim.play`` owns the hand now (``sim.play.Hand``).

``Game`` is a deprecated name of :class:`sim.play.Hand` (a hand, not a game: the game is
``sim.play.game.GameDriver``), kept for one release; using it warns (``DeprecationWarning``).
"""

from __future__ import annotations

import warnings

from sim.play.hand import LOG_EVENTS, RECORD_FORMAT, Hand
from sim.play.words import describe_action

__all__ = ["LOG_EVENTS", "RECORD_FORMAT", "Hand", "describe_action"]  # and Game, deprecated


def __getattr__(name: str):
    if name == "Game":
        warnings.warn(
            "sim.step.Game is deprecated: use sim.play.Hand (the same class)",
            DeprecationWarning,
            stacklevel=2,
        )
        return Hand
    raise AttributeError(f"module 'sim.step' has no attribute {name!r}")
