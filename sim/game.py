"""The game driver's old home: ``sim.play.game`` owns it now (``sim.play.GameDriver``); this
module re-exports it for the callers written against ``sim.game``."""

from sim.play.game import ENDED_BY_BOUND, ENDED_BY_CAP, GameDriver, GameOverError

__all__ = ["ENDED_BY_BOUND", "ENDED_BY_CAP", "GameDriver", "GameOverError"]
