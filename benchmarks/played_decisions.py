"""Decisions of played games, for the benchmarks of the advice (hint, review, luck).

A game is played by ``sim.game.GameDriver`` with one policy in every seat, and its decisions
are read the way ``canasta review`` reads a record (``canasta.review.decisions``): every draw
(``forced`` when only the stock draw is allowed, PILE-1/2) and every play step right after a
stock draw, each as the seat saw it (``analysis.review.Decision``, with the public card
memory). A decision's kind is ``first`` when it falls in the hand's first round of turns
(``turn < 4``) and ``mid`` otherwise, then ``draw`` or ``play``.
"""

from __future__ import annotations

import json
from pathlib import Path

from sim import encoding as E

KINDS = ("first draw", "first play", "mid draw", "mid play")


def play_game(
    policy: str, seed: int, game_id: int, rules=None, low: int | None = None, hands: int = 0
):
    """The hands of game ``game_id`` of run ``seed`` with ``policy`` in every seat, played to
    its end (GAME-1). With ``low``: stopped after the first hand whose end leaves a team's
    total below ``low`` (the equity table's lowest score: further hands would be read off
    the table's edge). With ``hands``: stopped after that many hands."""
    from sim.game import GameDriver

    d = GameDriver(seed=seed, game_id=game_id, rules=rules)
    while not d.is_over:
        h = d.deal()
        h.play((policy, policy))
        d.end_hand()
        if (low is not None and min(d.totals) < low) or len(d.hands) == hands:
            break
    return d.hands


def game_decisions(hands, seats=(0, 1, 2, 3)) -> list:
    """The ``analysis.review.Decision`` of each decision of ``seats`` in ``hands``."""
    from canasta.review import decisions

    return decisions(hands, list(seats))


def kind(decision) -> str:
    """'first draw', 'first play', 'mid draw' or 'mid play' (module docstring)."""
    when = "first" if decision.position.turn < E.N_PLAYERS else "mid"
    return f"{when} {'draw' if decision.drawn is None else 'play'}"


def match(actions, advice):
    """The choice of ``advice`` that ``actions`` (the seat's turn from the decision on) made,
    or None: the matcher ``canasta review`` uses."""
    from canasta._seat import made_choice

    return made_choice(actions, 0, -1, None, advice)


class Rows:
    """A JSON-lines file of finished pieces (one dict a line), so that a stopped run resumes:
    ``done(key)`` says whether the piece keyed ``key`` (a tuple) was finished. A piece added
    again (a row completed later) replaces the earlier line of its key."""

    def __init__(self, path: str | Path, key: tuple[str, ...]):
        self.path, self.key = Path(path), key
        self.keys: dict[tuple, dict] = {}
        if self.path.exists():
            for line in self.path.read_text().splitlines():
                if line.strip():
                    row = json.loads(line)
                    self.keys[self._key(row)] = row

    @property
    def rows(self) -> list[dict]:
        return list(self.keys.values())

    def _key(self, row: dict) -> tuple:
        return tuple(row[k] for k in self.key)

    def done(self, *key) -> bool:
        return tuple(key) in self.keys

    def get(self, *key) -> dict:
        return self.keys[tuple(key)]

    def add(self, row: dict) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as f:
            f.write(json.dumps(row) + "\n")
        self.keys[self._key(row)] = row


def policy_on(rows: Rows, on: str) -> str:
    """The policy playing on that the rows of ``rows`` were measured with, checked against
    ``on`` (the run's): a file holding rows recorded with another is refused in one line (a
    resumed run would mix two yardsticks); the label a report names, ``on``, marked as taken on
    trust when some rows predate the record (``"on"`` in each row)."""
    seen = {r.get("on") for r in rows.rows}
    other = sorted(x for x in seen - {on, None})
    if other:
        raise SystemExit(
            f"{rows.path} holds rows measured with {', '.join(other)} playing on, not {on}"
        )
    return on if None not in seen else f"{on} (as given: older rows do not record it)"
