"""One owner of a hand in Python: the hand (``hand``: :class:`Hand`, dealt, stepped,
remembered, replayed, with the one turn loop :meth:`Hand.turns`), what a seat sees (``view``:
:class:`SeatView`), the typed events (``events``: :class:`Event`) and the words of every move
(``words``); the whole table, every card (``table``: ``TableView``), and a hand met at a what-if
position's decision (``position``: ``PositionDeals``, ``PositionHand``).

Faces, analysis and tests play through here; the compiled engine (``sim.engine``) is reached
from this package, ``sim.api`` and ``sim.policies``.
"""

from sim.play.events import Event, HandEvent
from sim.play.hand import Hand, Turn, seat_policies
from sim.play.view import SeatView
from sim.play.words import describe_action

__all__ = ["Event", "Hand", "HandEvent", "SeatView", "Turn", "describe_action", "seat_policies"]
