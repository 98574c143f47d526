"""The turns played since the human's last move, one by one, for the page to show in order
(:func:`bot_turns`): each turn's words and the table as the human seat saw it when that turn
ended.

Built as everything a seat receives is built (``canasta.web.view``): the hand is replayed from
its deal (``sim.record.redeal``: the deal and the actions fix every state) and each frame is
read from the seat's own observation of the replayed game, each line from the public events in
the web's words (other seats' cards hidden), so a frame holds nothing the seat could not see
at that moment at a real table.
"""

from __future__ import annotations

__all__ = ["MAX_FRAMES", "bot_turns"]

MAX_FRAMES = 24  #: turns a view carries at most (the last ones): the page shows them in turn


def _frame(table, g, actor: int, lines: list[str], turn: int) -> dict | None:
    """One turn's words and the public table after it, from ``table.seat``'s observation
    (None for the player's own turn)."""
    from canasta.web.moves import kind_name
    from canasta.web.public import teams_of

    s = table.seat
    if actor == s:
        return None
    v = g.view(s)
    top = v.pile_top
    return {
        "who": table.who(actor),
        "seat": actor,
        "turn": turn,
        "lines": lines,
        "pile_top": kind_name(top) if top >= 0 else None,
        "pile_size": v.pile_n,
        "stock": v.stock_n,
        "hand_sizes": {str((s + i) % 4): int(v.hand_sizes[i]) for i in range(4)},
        "teams": teams_of(v),
    }


def bot_turns(table) -> list[dict]:
    """The bots' turns played since the human's last move ended its turn (``table.mark``
    events of the running hand before them): one frame per turn, in order (the human's own
    forced steps are in the view itself); [] when none was played."""
    g = table.game
    mark = int(getattr(table, "mark", 0))
    key = (len(table.hands), mark, tuple(g.actions))  # the hand, and where it stands
    cached = getattr(table, "_bot_turns", None)
    if cached is not None and cached[0] == key:  # a view asked again: the same turns
        return cached[1]
    frames = _replayed(table, g, mark)
    table._bot_turns = (key, frames)
    return frames


def _replayed(table, g, mark: int) -> list[dict]:
    from sim.record import redeal
    from sim.text import WEB_WORDS, event_lines

    events = g.events()  # the replay's events are these: the same deal and actions
    if mark >= len(events):
        return []
    fresh = redeal(g)
    i = 0
    while int(fresh.log[0]) < mark and i < len(g.actions):  # the log's count of events
        fresh.apply(g.actions[i])
        i += 1
    frames: list[dict] = []
    actor, lines, turn, seen = None, [], 0, int(fresh.log[0])
    for a in g.actions[i:]:
        who = fresh.current_player
        if who != actor:
            if actor is not None:
                frames.append(_frame(table, fresh, actor, lines, turn))
            actor, lines, turn = who, [], int(fresh.turn)  # the log's number for the turn
        fresh.apply(a)
        now = int(fresh.log[0])
        if actor != table.seat:  # the player's own steps are not framed
            lines += event_lines(events[seen:now], table.seat, table.who, WEB_WORDS)
        seen = now
    if actor is not None:
        frames.append(_frame(table, fresh, actor, lines, turn))
    return [f for f in frames if f is not None][-MAX_FRAMES:]
