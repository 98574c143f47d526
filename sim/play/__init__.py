"""One owner of a hand in Python: the hand (:class:`Hand`: dealt, stepped, remembered,
replayed), the one turn loop (:meth:`Hand.turns`), what a seat sees (:class:`SeatView`), the
typed events (:class:`Event`) and the words of every move (``sim.play.words``).

Faces, analysis and tests play through here; the compiled engine (``sim.engine``) is reached
from this package, ``sim.api`` and ``sim.policies``.
"""

from sim.play.events import Event, HandEvent
from sim.play.hand import Hand, Turn, seat_policies
from sim.play.view import SeatView
from sim.play.words import describe_action

__all__ = ["Event", "Hand", "HandEvent", "SeatView", "Turn", "describe_action", "seat_policies"]
