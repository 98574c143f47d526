"""The web page's words for cards and moves, apart from the table's state
(``canasta.web.table``): a kind's name, the request for an engine action (:func:`move_for`,
what the page's buttons send; the server reads it with the one move grammar,
``sim.moves.move_from_json``), the move names legal now, and an advice choice as JSON with its
label's suits dropped (``canasta._seat.plain``).
"""

from __future__ import annotations

from canasta._seat import plain
from sim import encoding as E
from sim.play.words import page_move, page_names

__all__ = ["move_for"]


def kind_name(k: int) -> str:
    return E.KIND_NAMES[k]


def move_for(action: int) -> dict:
    """The page's request for an engine action, as its buttons send it (tests, benchmarks)."""
    return page_move(action)


def move_names(g) -> list[str]:
    """The page's move names that are legal now (the buttons for threes follow them)."""
    return page_names(g.legal_actions())


def _r(x: float) -> float:
    return round(float(x), 1) + 0.0  # + 0.0: never a "-0" on the page


def choice_json(c) -> dict:
    game = getattr(c, "game", None)
    extra = {}
    if game:  # the team's chance of winning the game after the hand (game mode)
        extra["game"] = {
            "win": game["win"],
            "ci": [game["ci_low"], game["ci_high"]],
            "diff": game["diff_from_best"],
            "diff_ci": [game["diff_low"], game["diff_high"]],
        }
    return extra | {
        "label": plain(c.label),
        "mean": _r(c.mean),
        "ci": [_r(c.ci_low), _r(c.ci_high)],
        "diff": _r(c.diff_from_best),
        "diff_ci": [_r(c.diff_low), _r(c.diff_high)],
        "n": c.n,
        "bot_pick": c.policy_pick,
    }


def merged_choices(choices, top: int) -> list[dict]:
    """The first ``top`` distinct plays of an advice as JSON: choices whose labels are the same
    once suits are dropped are one play (the first, the better, kept), and a choice that
    scored the same as a kept one on every deal (its paired difference 0 with a 0-wide
    interval; in game mode also the same chance of winning) is named with it ("A, or B")
    rather than ranked apart at -0 points."""
    out: list[dict] = []
    kept: list = []
    for c in choices:
        label = plain(c.label)
        if any(plain(k.label) == label for k in kept):
            continue
        same = next(
            (
                i
                for i, k in enumerate(kept)
                if c.diff_from_best == k.diff_from_best
                and c.diff_low == k.diff_low
                and c.diff_high == k.diff_high
                and c.mean == k.mean
                and c.diff_low == c.diff_high
                and getattr(c, "game", None) == getattr(k, "game", None)
            ),
            None,
        )
        if same is not None:
            out[same]["label"] += f", or {label}"
            out[same]["same"].append(label)
            continue
        if len(out) >= top:
            continue
        kept.append(c)
        out.append(choice_json(c) | {"same": []})
    return out
