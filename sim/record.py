"""The hand record's old home: ``sim.play.record`` owns it now; this module re-exports it for
the callers written against ``sim.record``."""

from sim.play.record import (
    FORMAT,
    VERSION,
    RecordError,
    dumps,
    from_games,
    game_hand,
    hand_entry,
    load,
    parse_move,
    redeal,
    replay,
    seats_of,
)

__all__ = [
    "FORMAT",
    "VERSION",
    "RecordError",
    "dumps",
    "from_games",
    "game_hand",
    "hand_entry",
    "load",
    "parse_move",
    "redeal",
    "replay",
    "seats_of",
]
