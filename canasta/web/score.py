"""The score rows a web table shows, each explained with the rules behind it (SCORE-1..8,
OUT-3, CARD-3), and the running score of a hand in play (:func:`running_score`).

The running score is what each team's table is worth if the hand ended now, from public facts
only (the seat's observation: both teams' melds and laid threes), scored by the engine's own
``sim.scoring.score_team`` with no cards in hand and no one going out. The cards still held
are the one part no seat sees for the others: the seat's own hand is counted beside it
(SCORE-5 and SCORE-4, known to that seat alone), its partner's and the opponents' are not.
"""

from __future__ import annotations

import numpy as np

from sim import encoding as E

__all__ = ["SCORE_ROWS", "explained_rows", "running_score"]

#: each score item of ``sim.encoding.SCORE_ITEMS``: (the row's name, its explanation with the
#: rules it follows); the page shows both under the running score and the hand's final score
SCORE_ROWS: dict[str, tuple[str, str]] = {
    "canasta_bonus": (
        "canasta bonuses",
        "each completed canasta: mixed 300, natural 500 (SCORE-1); natural sevens or aces "
        "2,500 (SCORE-2); wild: all twos 3,000, all four jokers 2,500, any other 2,000 "
        "(SCORE-3)",
    ),
    "going_out": ("going out", "100 to the team that went out (OUT-3)"),
    "melded_cards": (
        "melded cards",
        "the cards on the table at their values (joker 50, two and ace 20, K to 8 10, 7 to 4 "
        "5: CARD-3), added with at least one canasta, subtracted with none (SCORE-6)",
    ),
    "threes": (
        "threes",
        "threes laid, per colour 1 = 100, 2 = 300, 3 = 500, 4 = 1,000: subtracted with no "
        "canasta, nothing with one, added with two or more (SCORE-7)",
    ),
    "cards_in_hand": (
        "cards left in hand",
        "the cards the partners still hold, subtracted at their values (SCORE-5, CARD-3)",
    ),
    "incomplete_melds": (
        "unfinished melds",
        "a natural sevens or aces meld left short of 7 costs 2,500 (SCORE-2); an unfinished "
        "wild meld 2,000 (SCORE-3)",
    ),
    "hand_penalties": (
        "sevens or aces held",
        "1,500 for each player holding three or more sevens, and likewise aces (SCORE-4)",
    ),
    "special_hand": (
        "special hand",
        "the declared hand's award, and nothing else for that team (SCORE-8, SPECIAL-1)",
    ),
}


def explained_rows(items: dict[str, tuple[int, int]], zeros: bool = False) -> list[dict]:
    """``items``: score item -> (your team's points, the opponents'), in ``SCORE_ITEMS``
    order; rows for the page: ``{"item", "label", "why", "you", "opponents"}`` (rows of
    zeros on both sides left out unless ``zeros``), then the total."""
    rows = []
    for item in E.SCORE_ITEMS:
        you, them = items.get(item, (0, 0))
        if you or them or zeros:
            label, why = SCORE_ROWS[item]
            rows.append({"item": item, "label": label, "why": why, "you": you, "opponents": them})
    total_you = sum(v[0] for v in items.values())
    total_them = sum(v[1] for v in items.values())
    rows.append(
        {"item": "total", "label": "total", "why": "", "you": total_you, "opponents": total_them}
    )
    return rows


def _team_block(v, i: int) -> np.ndarray:
    return np.array(v.melds[i], dtype=np.int64)  # a writable copy: the view is read-only


def running_score(g, seat: int) -> dict | None:
    """What each team's table is worth now (module docstring), for ``seat``'s view of the
    running hand ``g``; None once the hand is over (its final score is shown instead).
    ``{"rows": explained_rows, "hand": your hand's points (SCORE-5, SCORE-4), "hand_why"}``."""
    from sim.scoring import score_team

    if g.is_over:
        return None
    v = g.view(seat)
    none = np.zeros((2, E.N_KINDS), dtype=np.int64)
    out = np.zeros(E.N_SCORE_ITEMS, dtype=np.int64)
    per_team = []
    for i in range(E.N_TEAMS):  # relative: your team, then the opponents
        melds = _team_block(v, i)
        threes = np.ascontiguousarray(v.threes[i])
        score_team(melds, threes.astype(np.int64), none, False, E.SPECIAL_NONE, g.rules, out)
        per_team.append(out.copy())
    items = {
        name: (int(per_team[0][k]), int(per_team[1][k])) for k, name in enumerate(E.SCORE_ITEMS)
    }
    # your own hand, as it would count if the hand ended now (only you see it)
    mine = np.zeros((2, E.N_KINDS), dtype=np.int64)
    mine[0] = v.hand
    score_team(_team_block(v, 0), np.zeros(2, np.int64), mine, False, E.SPECIAL_NONE, g.rules, out)
    held = int(out[E.S_CARDS_IN_HAND] + out[E.S_HAND_PENALTIES])
    return {
        "rows": explained_rows(items),
        "hand": held,
        "hand_why": "your own cards if the hand ended now: subtracted at their values "
        "(SCORE-5), 1,500 more for three or more sevens or aces (SCORE-4); your partner's "
        "and the opponents' cards count too, unseen until the hand ends",
    }
