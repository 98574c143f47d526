"""The public table as one seat sees it (:func:`teams_of`): both teams' melds, laid threes,
scores and whether they have opened, read from that seat's observation only. The page's view
(``canasta.web.view``) and the bots' turns shown one by one (``canasta.web.turns``) both draw
the table from it.
"""

from __future__ import annotations

from canasta.web.moves import kind_name
from sim import encoding as E
from sim.text import meld_cards

__all__ = ["teams_of"]


def teams_of(v) -> list[dict]:
    """Both teams as a seat sees them in its view ``v`` (``sim.play.SeatView``), its own first:
    score, opened, melds (each with its cards, canasta or not, natural or not) and laid threes."""
    s = v.seat
    own = s % E.N_TEAMS
    teams = []
    for i in range(E.N_TEAMS):
        team = (own + i) % E.N_TEAMS
        block = v.melds[i]
        melds = []
        for slot in range(E.N_KINDS - 1, -1, -1):
            nat, two, joker = (int(x) for x in block[slot, :3])
            n = nat + two + joker
            if n:
                melds.append(
                    {
                        "rank": "wild" if slot == E.WILD_MELD else kind_name(slot),
                        "cards": meld_cards(slot, nat, two, joker),
                        "canasta": n >= E.CANASTA,
                        "natural": two + joker == 0 and slot != E.WILD_MELD,
                    }
                )
        red, black = (int(x) for x in v.threes[i])
        seats = [s, (s + 2) % 4] if i == 0 else [(s + 1) % 4, (s + 3) % 4]
        teams.append(
            {
                "team": team,
                "label": "You + partner" if i == 0 else "Opponents",
                "seats": seats,
                "score": int(v.scores[i]),
                "opened": bool(v.opened[i]),
                "melds": melds,
                "red_threes": red,
                "black_threes": black,
            }
        )
    return teams
