"""One owner of a hand and of a game in Python: the hand (``hand``: :class:`Hand`, dealt,
stepped, remembered, replayed, with the one turn loop :meth:`Hand.turns`), the game of hands
(``game``: :class:`GameDriver`, GAME-1 and SPECIAL-10), what a seat sees (``view``:
:class:`SeatView`), the typed events (``events``: :class:`Event`), the words of every move and
event (``words``), the move grammar that reads them back (``moves``), the hand record
(``record``) and the engine's compile entry for the run level (``compiled``); the whole table,
every card (``table``: ``TableView``), and a hand met at a what-if position's decision
(``position``: ``PositionDeals``, ``PositionHand``).

Faces, analysis and tests play through here; the compiled engine (``sim.engine``) is reached
from this package, ``sim.api`` and ``sim.policies``.
"""

from sim.play.events import Event, HandEvent
from sim.play.game import GameDriver
from sim.play.hand import Hand, Turn, seat_policies
from sim.play.view import SeatView
from sim.play.words import describe_action

__all__ = [
    "Event",
    "GameDriver",
    "Hand",
    "HandEvent",
    "SeatView",
    "Turn",
    "describe_action",
    "seat_policies",
]
