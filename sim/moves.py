"""The move grammar's old home: ``sim.play.moves`` owns it now; this module re-exports it for
the callers written against ``sim.moves``."""

from sim.play.moves import Move, MoveError, meld_ops, move_from_json, parse_kind, parse_move

__all__ = ["Move", "MoveError", "meld_ops", "move_from_json", "parse_kind", "parse_move"]
