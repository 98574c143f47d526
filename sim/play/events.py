"""The events of a hand, typed: what the engine logs as it plays (``sim.encoding.EVENT_NAMES``,
the ``EV_*`` codes), as an enum and a named tuple.

An :class:`Event` is a ``StrEnum`` whose values are the encoding's event names, so an event
compares equal to its name (``Event.DRAW == "draw"``) and a reader written against the names
keeps working; its ``code`` is the ``EV_*`` number the compiled log holds.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from sim import encoding as E

__all__ = ["Event", "HandEvent"]


class Event(StrEnum):
    """One kind of event in a hand's log (``a``/``b``: the event's two numbers)."""

    ACTION = "action"  #: a seat's action (``a`` the action id, ``b`` the pile's top kind)
    DRAW = "draw"  #: a card drawn from the stock (``b`` its card id)
    REPLACE = "replace"  #: a replacement card for a three laid at once (``b`` its card id)
    BONUS = "bonus"  #: OPEN-5 a bonus card (``b`` its card id)
    LAY_THREE = "lay_three"  #: DEAL-4 a three laid (``a`` its kind)
    PILE_JOINS = "pile_joins"  #: PILE-1/2 the pile's rest joins the hand (``a`` its count)
    END = "end"  #: END-1 the hand is over (``a`` the END_* code)

    @property
    def code(self) -> int:
        """The ``EV_*`` code of the event in the compiled log."""
        return _CODES[self]


_CODES = {e: E.EVENT_NAMES.index(e.value) for e in Event}
assert tuple(e.value for e in Event) == E.EVENT_NAMES  # one event list: the encoding's
#: the card events: ``b`` is the card a seat received (private to that seat)
CARD_EVENTS = frozenset((Event.DRAW, Event.REPLACE, Event.BONUS))


class HandEvent(NamedTuple):
    """One event of a hand: its kind, the seat it concerns and its two numbers."""

    kind: Event
    seat: int
    a: int
    b: int
