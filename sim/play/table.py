"""The whole table of a hand, by name: :class:`TableView`, a read-only decoding of the engine's
state (``sim.encoding.STATE_FIELDS``) field by field, every card shown.

No seat sees this (a seat's table is its :class:`sim.play.view.SeatView`); it is for what may
see every card: a finished hand shown or replayed, the server that deals, an experiment that
groups deals by a hidden card, the tests. Faces, analysis and tests read the state here, never
by offsets into the state array.

    t = TableView(hand.state)          # or TableView.of(hand)
    t.hands[seat]                      # counts per kind; t.melds[team, slot, col]
    t.pile_kinds, t.stock_n            # the pile bottom first; the stock's size
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

    __slots__ = ("_state",)

    def __init__(self, state: np.ndarray):
        state = np.asarray(state)
        if state.shape != (_SIZE,):
            raise ValueError(f"a hand's state has {_SIZE} numbers, got shape {state.shape}")
        self._state = state

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
        arr = arr.view()
        arr.flags.writeable = False
        return arr

    def __dir__(self):
        return [*_OFFSETS, "pile_kinds", "stock_cards", "of"]

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
