"""What one seat sees, by name: :class:`SeatView`, a read-only decoding of the seat's
observation (``sim.encoding.OBS_FIELDS``) field by field.

Faces, analysis and tests read a seat's table here (``Hand.view(seat)``), never by offsets
into the observation: the layout is decoded once, from the encoding's own field list, and the
view's fields are checked against it when this module is imported.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from types import SimpleNamespace

import numpy as np

from sim import encoding as E

__all__ = ["SeatView", "obs_fields"]

_CELLS = (E.N_KINDS, E.N_MELD_COLS)
#: the shape of each observation field wider than one number (the rest are 1-D)
_SHAPES = {
    "pending": _CELLS,
    "melds": (E.N_TEAMS, *_CELLS),
    "threes": (E.N_TEAMS, 2),
    "known": (E.N_PLAYERS, E.N_KINDS),
}
_OFFSETS, _SIZE = E.layout(E.OBS_FIELDS)
_WIDTHS = dict(E.OBS_FIELDS)


@dataclass(frozen=True)
class SeatView:
    """A seat's observation by name (``sim.encoding.OBS_FIELDS``): "own" team first, seats
    counted from the seat (0 itself, 1 its left opponent, 2 its partner, 3 its right
    opponent). Numbers are ints; the wider fields read-only int64 arrays."""

    phase: int  #: PH_* of the hand
    seat: int  #: the seat's absolute number
    turn: int  #: turns begun in the hand (0-based)
    stock_n: int  #: cards in the stock
    pile_n: int  #: cards in the pile
    pile_top: int  #: kind of the pile's top card, -1 if empty
    turn_card_drawn: int  #: DEAL-3 the turn card has been drawn
    opened: np.ndarray  #: OPEN-1 [own, opponents] has made its first meld
    scores: np.ndarray  #: cumulative scores at the start of the hand [own, opponents]
    open_min: int  #: OPEN-1 the own team's opening minimum
    hand_sizes: np.ndarray  #: cards held by relative seat
    drew_stock: int  #: SPECIAL-1 this turn's draw was from the stock
    took_pile: int  #: OPEN-5 this turn took the pile
    opening_turn: int  #: OPEN-1 the team had not opened when this turn began
    pile_kind: int  #: OPEN-3 the taken pile's top kind this turn, -1
    melded: int  #: a meld was made this turn
    kept: int  #: DEAL-5 kind of the three the seat keeps, -1
    hand: np.ndarray  #: the seat's hand by kind
    pile_counts: np.ndarray  #: the pile by kind (public: every discard was seen)
    discards: np.ndarray  #: every discard of the hand by kind
    aside: np.ndarray  #: PILE-1/2 the taken pile's rest held aside
    pending: np.ndarray  #: OPEN-1 cards melded from hand this opening turn [slot, col]
    melds: np.ndarray  #: [own|opponents, slot, naturals|twos|jokers|...]
    threes: np.ndarray  #: DEAL-4 threes laid [own|opponents, red|black]
    open_rules: np.ndarray  #: OPEN-1/2 [hand number, RS_OPENING_MINIMUM, RS_OPENING_WILD]
    known: np.ndarray  #: the public card memory [relative seat, kind]

    @classmethod
    def from_observation(cls, obs: np.ndarray) -> SeatView:
        """The view of one observation (``Hand.observation(seat)``); the arrays are copies."""
        obs = np.asarray(obs)
        if obs.shape != (_SIZE,):
            raise ValueError(f"an observation has {_SIZE} numbers, got shape {obs.shape}")
        values = {}
        for name, width in E.OBS_FIELDS:
            at = _OFFSETS[name]
            if width == 1:
                values[name] = int(obs[at])
                continue
            arr = np.array(obs[at : at + width], dtype=np.int64).reshape(_SHAPES.get(name, -1))
            arr.flags.writeable = False
            values[name] = arr
        return cls(**values)

    # --- read by name -----------------------------------------------------------------
    @property
    def phase_name(self) -> str:
        return E.PHASE_NAMES[self.phase]

    @property
    def team(self) -> int:
        """The seat's team (0: seats 0 and 2)."""
        return self.seat % E.N_TEAMS

    @property
    def hand_number(self) -> int:
        """OPEN-1 the hand's number in its game (0, a single hand's, reads 1)."""
        return max(1, int(self.open_rules[0]))

    @property
    def open_wild(self) -> int:
        """OPEN-2 variant: 1 when a wild meld of three or more may stand in the opening."""
        return int(self.open_rules[2])

    def seat_at(self, rel: int) -> int:
        """The absolute seat of relative seat ``rel`` (0 the seat, 1 left, 2 partner, 3 right)."""
        return (self.seat + rel) % E.N_PLAYERS

    def team_at(self, rel: int) -> int:
        """The absolute team of relative team ``rel`` (0 the own, 1 the opponents)."""
        return (self.team + rel) % E.N_TEAMS


assert tuple(f.name for f in fields(SeatView)) == tuple(n for n, _ in E.OBS_FIELDS)


def obs_fields(obs: np.ndarray) -> SimpleNamespace:
    """For building a scenario's observation (tests, hand-made positions), never for reading a
    seat's table (that is :class:`SeatView`): every field of the observation wider than one
    number, by its name and shape, as a writable view into ``obs`` (``f.hand[k] = 2``,
    ``f.melds[1, slot] = (3, 0, 0)``)."""
    if not isinstance(obs, np.ndarray) or obs.shape != (_SIZE,) or not obs.flags.writeable:
        raise ValueError(f"obs_fields writes into an observation: a writable array of {_SIZE}")
    return SimpleNamespace(
        **{
            name: obs[_OFFSETS[name] : _OFFSETS[name] + width].reshape(_SHAPES.get(name, -1))
            for name, width in E.OBS_FIELDS
            if width > 1
        }
    )


assert all(_WIDTHS[n] == int(np.prod(s)) for n, s in _SHAPES.items())
