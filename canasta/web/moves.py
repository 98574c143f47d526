"""The web page's words for cards and moves, apart from the table's state
(``canasta.web.table``): a kind's name, the page's card names parsed back, the request for an
engine action (:func:`move_for`, what the page's buttons send), the move names legal now, an
advice choice as JSON with its label's suits dropped, and the advice choice a human's turn made.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from sim import encoding as E
from sim.errors import CanastaError
from sim.text import meld_cards

__all__ = ["move_for", "plain"]


def kind_name(k: int) -> str:
    return E.KIND_NAMES[k]


_KIND = {name.upper(): k for k, name in enumerate(E.KIND_NAMES)}


def parse_kinds(cards: Any) -> list[int]:
    """Kinds of the page's selected cards (names such as 'K', '2', 'JK', '3r')."""
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise CanastaError("cards: expected a list of card names such as ['K', 'K', '2']")
    out = []
    for c in cards:
        k = _KIND.get(c.strip().upper())
        if k is None:
            raise CanastaError(f"bad card {c[:20]!r}: expected A K Q J 10 9 .. 4 2 JK 3r 3b")
        out.append(k)
    return out


def move_for(action: int) -> dict:
    """The page's request for an engine action, as its buttons send it (tests, benchmarks)."""
    kind, slot, nat, two, joker = (int(x) for x in E.ACTION_TABLE[action])
    simple = {E.AT_DRAW: "draw", E.AT_TAKE_PILE: "pile", E.AT_LAY_THREES: "lay"}
    simple[E.AT_DECLARE] = "declare"
    if kind in simple:
        return {"move": simple[kind]}
    if kind == E.AT_KEEP_THREE:
        return {"move": "keep_red" if slot == E.RED_THREE else "keep_black"}
    if kind == E.AT_DISCARD:
        return {"move": "discard", "cards": [kind_name(slot)]}
    cards = meld_cards(slot, nat, two, joker)
    target = "wild" if slot == E.WILD_MELD else kind_name(slot)
    return {"move": "meld", "cards": cards, "target": target}


def move_names(g) -> list[str]:
    """The page's move names that are legal now (the buttons for threes follow them)."""
    names = {
        E.AT_DRAW: "draw",
        E.AT_TAKE_PILE: "pile",
        E.AT_LAY_THREES: "lay",
        E.AT_DECLARE: "declare",
        E.AT_DISCARD: "discard",
        E.AT_MELD: "meld",
    }
    out = set()
    for a in g.legal_actions():
        kind, slot = int(E.ACTION_TABLE[a, E.AC_TYPE]), int(E.ACTION_TABLE[a, E.AC_SLOT])
        if kind == E.AT_KEEP_THREE:
            out.add("keep_red" if slot == E.RED_THREE else "keep_black")
        elif kind in names:
            out.add(names[kind])
    return sorted(out)


_SUIT = re.compile(r"\b(10|[2-9AJQK])[SHDC]\b")


def plain(label: str) -> str:
    """An advice label without the suits it chose (the page shows cards by rank: suits never
    matter to the rules), e.g. 'meld 9S 9H 9D' -> 'meld 9 9 9'."""
    return _SUIT.sub(r"\1", label)


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


def made_choice(actions: Sequence[int], i: int, seat: int, h, adv):
    """The Choice of ``adv`` that the human's actions from index ``i`` made (matched by the
    kinds melded and discarded in the turn), or None."""
    a = actions[i]
    if adv.decision == "draw":
        label = "take the pile" if a == E.A_TAKE_PILE else "draw"
        return next((c for c in adv.choices if c.label == label), None)
    melded, discard = [], None
    for b in actions[i:]:
        kind = int(E.ACTION_TABLE[b, E.AC_TYPE])
        if kind == E.AT_MELD:
            _, slot, nat, two, joker = (int(x) for x in E.ACTION_TABLE[b])
            melded += [slot] * (nat if slot != E.WILD_MELD else 0) + [E.TWO] * two
            melded += [E.JOKER] * joker
        elif kind == E.AT_DISCARD:
            discard = int(E.ACTION_TABLE[b, E.AC_SLOT])
            break
        elif kind == E.AT_DECLARE:
            return next((c for c in adv.choices if c.label.startswith("declare")), None)
    from sim.cards import parse_cards

    want = sorted(melded)
    for c in adv.choices:
        kinds = sorted(int(E.CARD_KIND[x]) for m in c.melds for x in parse_cards(" ".join(m)))
        d = int(E.CARD_KIND[parse_cards(c.discard)[0]]) if c.discard else None
        if kinds == want and d == discard:
            return c
    return None
