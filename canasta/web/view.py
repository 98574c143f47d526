"""What the page of a web table sees (:func:`view`): built from the human seat's observation
(``Hand.view(seat)``) and the public events only (other seats' draws hidden), so it never
holds a card the seat cannot see, nor a seed, an RNG state, the deck or the session's id; once
the hand is over every hand is shown, as at a real table (SCORE-5).
"""

from __future__ import annotations

from canasta._seat import event_turns, last_draw, opening_progress
from canasta.web.moves import kind_name, move_names
from canasta.web.public import teams_of
from sim import encoding as E

__all__ = ["view"]

LOG_TAIL = 14  #: last events the page shows


def drawn_card(g, seat: int) -> str | None:
    """The kind of the card ``seat`` drew from the stock this turn, while it plays the turn
    and still holds one of that kind (the page marks it), else None."""
    v = g.view(seat)
    if g.is_over or g.current_player != seat or v.phase != E.PH_PLAY:
        return None
    if not v.drew_stock:
        return None
    card = last_draw(g, seat)
    if card is None:
        return None
    k = int(E.CARD_KIND[card])
    return kind_name(k) if v.hand[k] > 0 else None


def log_lines(table, g, start: int = 0) -> list[dict]:
    """The hand's events from event ``start`` in words (``sim.text.event_lines``, the web's
    words: other seats' cards hidden), each with its turn (the numbers the review cites)."""
    from sim.text import WEB_WORDS, event_lines

    events = g.events()
    turns = getattr(table, "turns", [])
    if len(turns) != len(events):  # another game than the table's running hand
        turns = event_turns(g)
    out = []
    for i, ev in enumerate(events[start:], start):
        for line in event_lines([ev], table.seat, table.who, WEB_WORDS):
            out.append({"turn": turns[i], "text": line})
    return out


def view(table, game=None) -> dict:
    """The table as the human seat sees it (module docstring)."""
    from canasta._seat import allowed_summary

    g = table.game if game is None else game
    s = table.seat
    v = g.view(s)
    teams = teams_of(v)
    hand = v.hand
    cards = []
    for k in range(E.N_KINDS - 1, -1, -1):
        if k not in (E.TWO, E.JOKER) and not E.IS_THREE[k]:
            cards += [kind_name(k)] * int(hand[k])
    for k in (E.TWO, E.JOKER, E.RED_THREE, E.BLACK_THREE):
        cards += [kind_name(k)] * int(hand[k])
    top = v.pile_top
    sizes = {str((s + i) % 4): int(v.hand_sizes[i]) for i in range(E.N_PLAYERS)}
    mine = not g.is_over and g.current_player == s
    out = {
        "table": table.settings(),
        "move_no": table.move_no,
        "ruleset": {"name": table.rules_name, "rules": table.ruleset.to_dict()},
        "players": {str(p): table.who(p) for p in range(4)},
        "hand_no": len(table.hands),
        "turn": v.turn,
        "phase": E.PHASE_NAMES[v.phase],
        "to_act": int(g.current_player) if not g.is_over else None,
        "your_turn": mine,
        "hand": cards,
        "drawn": drawn_card(g, s),
        "pile_top": kind_name(top) if top >= 0 else None,
        "pile_size": v.pile_n,
        "stock": v.stock_n,
        "hand_sizes": sizes,
        "open_min": v.open_min,
        "opening": opening_progress(g, s),
        "teams": teams,
        "log": log_lines(table, g)[-LOG_TAIL:],
        "recent": [
            x["text"]
            for x in log_lines(table, g, getattr(table, "mark", 0))
            if not x["text"].startswith("You")
            and "draws a card" not in x["text"]
            and "(hidden)" not in x["text"]
        ],
        "can_undo": game is None and table.can_undo(),
        "allowed": allowed_summary(g) if mine else "",
        "moves": move_names(g) if mine else [],
        "over": bool(g.is_over),
    }
    aside = v.aside
    if aside.sum():
        out["aside"] = [kind_name(k) for k in range(E.N_KINDS) for _ in range(int(aside[k]))]
    if g.is_over:
        out["result"] = _result(table, g)
    _club(table, g, game, out)
    return out


def _club(table, g, game, out: dict) -> None:
    """The club player's additions: the running score with each row explained, the score
    rows of a finished hand explained, and the turns since the human's last move in order."""
    from canasta.web.score import explained_rows, running_score
    from canasta.web.turns import bot_turns

    running = running_score(g, table.seat)
    if running is not None:
        out["running"] = running
    if g.is_over:
        mine = table.seat % E.N_TEAMS
        scores = g.scores()
        items = {k: (scores[mine][k], scores[1 - mine][k]) for k in E.SCORE_ITEMS}
        out["result"]["explained"] = explained_rows(items, zeros=True)  # as the score table
    if game is None:
        out["bot_turns"] = bot_turns(table)


def _result(table, g) -> dict:
    from sim.cards import format_counts
    from sim.play.table import table_hands as st_hands

    scores = g.scores()
    items = [k for k in scores[0] if k != "total"]
    totals = table.totals()
    hands = st_hands(g.state)
    return {
        "end": g.end_reason,
        "items": [
            {"item": k, "team0": scores[0][k], "team1": scores[1][k]} for k in [*items, "total"]
        ],
        "totals": list(totals),
        "your_team": table.seat % 2,
        "held": {str(p): format_counts(hands[p]) for p in range(4)},
        "game_over": table.game_over(),
        "next_hand": table.mode == "game" and not table.game_over(),
        "target": int(table.ruleset.target),
    }
