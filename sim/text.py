"""The text renderer's old home: ``sim.play.words`` owns a hand's words now; this module
re-exports it for the callers written against ``sim.text``."""

from sim.play.words import (
    TERMINAL_WORDS,
    WEB_WORDS,
    EventWords,
    deal_lines,
    describe_action,
    end_lines,
    event_lines,
    hand_lines,
    meld_cards,
    score_lines,
    status_line,
    transcript_lines,
)

__all__ = [
    "TERMINAL_WORDS",
    "WEB_WORDS",
    "EventWords",
    "deal_lines",
    "describe_action",
    "end_lines",
    "event_lines",
    "hand_lines",
    "meld_cards",
    "score_lines",
    "status_line",
    "transcript_lines",
]
