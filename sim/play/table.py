"""The whole table of a hand, by name: :class:`TableView`, a read-only decoding of the engine's
state (``sim.encoding.STATE_FIELDS``) field by field, every card shown.

No seat sees this (a seat's table is its :class:`sim.play.view.SeatView`); it is for what may
see every card: a finished hand shown or replayed, the server that deals, an experiment that
groups deals by a hidden card, the tests. Faces, analysis and tests read the state here, never
by offsets into the state array.

    t = TableView(hand.state)          # or TableView.of(hand)
    t.hands[seat]                      # counts per kind; t.melds[team, slot, col]
    t.pile_kinds, t.stock_n            # the pile bottom first; the stock's size

To build a scenario (a test's position, a what-if), ``TableView.writable(state)`` is the same
view with its fields writable into ``state``: ``w.hands[1] = 0``, ``w.stock_n = 5``.
"""

from __future__ import annotations

import numpy as np

from sim import encoding as E

__all__ = ["TableView", "table_hands", "table_melds"]

_OFFSETS, _SIZE = E.layout(E.STATE_FIELDS)
_WIDTHS = dict(E.STATE_FIELDS)
_CELLS = (E.N_KINDS, E.N_MELD_COLS)
#: the shape of each state field that is a table (the other wide fields are 1-D)
_SHAPES = {
    "hands": (E.N_PLAYERS, E.N_KINDS),
    "melds": (E.N_TEAMS, *_CELLS),
    "threes": (E.N_TEAMS, 2),
    "pending": _CELLS,
    "started": (E.N_TEAMS, 3),
    "started_held": (E.N_TEAMS, 2),
    "started_stock": (E.N_TEAMS, 3),
    "known": (E.N_PLAYERS, E.N_KINDS),
}


class TableView:
    """A hand's state by name: ``view.<field>`` for every field of ``STATE_FIELDS`` (an int for
    a one-number field, else a read-only int64 view of the state, shaped as the field's
    comment says: ``hands[player, kind]``, ``melds[team, slot, col]``, ``threes[team,
    red|black]``, ...). The views follow the state: a hand stepped on shows through."""

    __slots__ = ("_state", "_writable")

    def __init__(self, state: np.ndarray):
        state = np.asarray(state)
        if state.shape != (_SIZE,):
            raise ValueError(f"a hand's state has {_SIZE} numbers, got shape {state.shape}")
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "_writable", False)

    @classmethod
    def writable(cls, state: np.ndarray) -> TableView:
        """For building scenarios only (tests, what-if positions): the view of ``state`` (a
        numpy array, written in place) whose wide fields are writable views and whose
        one-number fields may be assigned (``w.stock_n = 5``, ``w.melds[1, QUEEN] = (3, 0, 0)``).
        Nothing checks that what is written is a position the rules can reach."""
        if not isinstance(state, np.ndarray) or not state.flags.writeable:
            raise ValueError("a scenario is written into a writable numpy state array")
        view = cls(state)
        object.__setattr__(view, "_writable", True)
        return view

    @classmethod
    def of(cls, hand) -> TableView:
        """The table of ``hand`` (a ``sim.play.Hand``)."""
        return cls(hand.state)

    def __getattr__(self, name: str):
        at = _OFFSETS.get(name)
        if at is None:
            raise AttributeError(f"a hand's state has no field {name!r}")
        width = _WIDTHS[name]
        if width == 1:
            return int(self._state[at])
        arr = self._state[at : at + width].reshape(_SHAPES.get(name, -1))
        if not self._writable:
            arr = arr.view()
            arr.flags.writeable = False
        return arr

    def __setattr__(self, name: str, value) -> None:
        if name not in _OFFSETS:
            raise AttributeError(f"a hand's state has no field {name!r}")
        if not self._writable:
            raise AttributeError("a TableView is read-only (TableView.writable builds a scenario)")
        if _WIDTHS[name] == 1:
            self._state[_OFFSETS[name]] = value
        else:
            getattr(self, name)[...] = value

    def __dir__(self):
        return [*_OFFSETS, "pile_kinds", "stock_cards", "of", "writable"]

    # --- read by name -----------------------------------------------------------------
    @property
    def pile_kinds(self) -> np.ndarray:
        """The pile's kinds, bottom first (the top last)."""
        return self.pile[: self.pile_n]

    @property
    def stock_cards(self) -> np.ndarray:
        """The stock's card ids, bottom first (the next card drawn last)."""
        return self.stock[: self.stock_n]


def table_hands(state: np.ndarray) -> np.ndarray:
    """``hands[player, kind]`` of a hand's state (read-only): ``TableView(state).hands``."""
    return TableView(state).hands


def table_melds(state: np.ndarray) -> np.ndarray:
    """``melds[team, slot, col]`` of a hand's state (read-only): ``TableView(state).melds``."""
    return TableView(state).melds


assert all(_WIDTHS[n] == int(np.prod(s)) for n, s in _SHAPES.items())
