"""The one owner of a hand's words, for every face: every action in every format from one
table (:data:`ACTION_WORDS`: the terminal's command, the record's text, the page's request,
the web log's line, the help; :func:`describe_action`, :func:`command_words`,
:func:`page_move`, :func:`allowed_line`), the deal, the transcript, each team's melds,
threes and hands, the itemised score table, and the events as one seat sees them
(:func:`event_lines`, worded per face by an :class:`EventWords`).

``canasta play``, the human seat of ``canasta play --human``, ``canasta replay``, the web
table and ``sim.env``'s ``ansi`` render print these lines, so a hand reads the same
everywhere. Every function takes a ``sim.play.Hand`` (or a ``scores()`` dict, or its events)
and returns lines without a trailing newline; none prints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sim import encoding as E

__all__ = [
    "ACTION_ALIASES",
    "ACTION_WORDS",
    "COLOURS",
    "TERMINAL_WORDS",
    "WEB_WORDS",
    "ActionWords",
    "EventWords",
    "action_words",
    "allowed_line",
    "command_help",
    "command_words",
    "describe_action",
    "end_lines",
    "event_lines",
    "hand_lines",
    "meld_cards",
    "op_words",
    "page_move",
    "page_names",
    "private_step",
    "score_lines",
    "seat_events",
    "transcript_lines",
]


def private_step(a: int) -> bool:
    """DEAL-5: whether a player keeps a three toward a Straight is that player's secret, so
    its threes step (keep one, or lay them all down) is told to that seat alone; the threes it
    lays are public (the ``lay_three`` events, DEAL-4)."""
    return int(E.ACTION_TABLE[a, E.AC_TYPE]) in (E.AT_KEEP_THREE, E.AT_LAY_THREES)


_CARD_EVENT_NAMES = ("draw", "replace", "bonus")  #: events whose ``b`` is the card received


def seat_events(events: Sequence[tuple], seat: int | None, start: int = 0) -> list[tuple]:
    """``(index, event)`` of the events from ``start`` that ``seat`` is told, ``index`` the
    event's place in the hand's log: another seat's threes step left out (:func:`private_step`)
    and the cards other seats receive hidden (``b`` = -1). ``seat`` None: every event as it
    is (a finished hand, or a face that may show every card)."""
    out = []
    for i in range(start, len(events)):
        ev = events[i]
        name, p, a = ev[0], ev[1], ev[2]
        if seat is None or p == seat:
            out.append((i, ev))
        elif name == "action" and private_step(a):
            continue
        elif name in _CARD_EVENT_NAMES:
            hidden = ev._replace(b=-1) if hasattr(ev, "_replace") else (name, p, a, -1)
            out.append((i, hidden))
        else:
            out.append((i, ev))
    return out


@dataclass(frozen=True)
class ActionWords:
    """The words of one kind of action (``E.AT_*``) in each format, every face's from here:
    ``command`` what a person types at the terminal (``sim.play.moves.parse_move`` reads it),
    ``text`` the record's and the transcript's words (:func:`describe_action`; read by the
    same grammar), ``page`` the web page's request name (``{"move": page}``,
    ``sim.play.moves.move_from_json``), ``log`` the web log's line (None: the event that
    follows says it), ``usage`` and ``help`` the terminal's help line. Fields: ``{kind}`` the
    card's rank name, ``{colour}`` a three's colour, ``{top}`` the pile's top rank, ``{op}``
    the meld's cards as typed (:func:`op_words`), ``{target}`` and ``{items}`` the meld as the
    record writes it, ``{cards}`` and ``{meld}`` as the log says it."""

    command: str
    text: str
    page: str
    log: str | None
    usage: str
    help: str


#: every kind of action in words: the one table the grammar, the records and the faces read
ACTION_WORDS = {
    E.AT_DRAW: ActionWords("draw", "draw from the stock", "draw", None, "draw", "{text}"),
    E.AT_TAKE_PILE: ActionWords(
        "pile",
        "take the discard pile",
        "pile",
        "takes the pile (top {top})",
        "pile",
        "{text} (PILE-1: a natural pair of the top card's rank)",
    ),
    E.AT_MELD: ActionWords(
        "meld {op}",
        "{target}: {items}",
        "meld",
        "melds {cards} ({meld})",
        "meld CARDS",
        "meld, e.g. 'meld 7 7 7', 'meld K K 2', 'meld 9 9 9, Q Q JK' (one meld a\n"
        "comma; suits are optional: 7H = 7); 'meld 2 on K' adds to your Ks",
    ),
    E.AT_DISCARD: ActionWords(
        "discard {kind}",
        "discard {kind}",
        "discard",
        "{text}",
        "discard CARD",
        "discard one card and end the turn, e.g. 'discard 4'",
    ),
    E.AT_KEEP_THREE: ActionWords(
        "keep {kind}",
        "keep one {kind} toward a Straight, lay down the rest",
        "keep_{colour}",
        "{text}",
        "keep [3r|3b]",
        "keep one three toward a Straight (DEAL-5), lay down the others",
    ),
    E.AT_LAY_THREES: ActionWords(
        "lay", "lay down all threes", "lay", None, "lay", "lay down every three (DEAL-4)"
    ),
    E.AT_DECLARE: ActionWords(
        "declare",
        "declare a special hand",
        "declare",
        "{text}",
        "declare",
        "declare a special hand (SPECIAL-1)",
    ),
}
#: the other words the grammar takes for an action with no card (a person's own phrasing)
ACTION_ALIASES = {"take the pile": E.AT_TAKE_PILE}
#: the page's name of a three's colour, by kind (``keep_red``)
COLOURS = {E.RED_THREE: "red", E.BLACK_THREE: "black"}


def _check_action(a: int) -> tuple[int, int, int, int, int]:
    from sim.errors import CanastaError

    if isinstance(a, bool) or not 0 <= a < E.N_ACTIONS:
        raise CanastaError(f"no action {a}: ids run 0..{E.N_ACTIONS - 1}")
    kind, slot, nat, two, joker = (int(x) for x in E.ACTION_TABLE[a])
    return kind, slot, nat, two, joker


def op_words(slot: int, nat: int, two: int, joker: int) -> str:
    """One meld operation as a person types it after ``meld``: ``K K 2``; ``2 on K`` when it
    adds wild cards alone to the Ks; wild cards alone make the wild meld (``2 2 JK``)."""
    cards = " ".join(meld_cards(slot, nat, two, joker))
    if slot == E.WILD_MELD:
        return cards
    return cards if nat else f"{cards} on {E.KIND_NAMES[slot]}"


def _fields(a: int, top: int = -1) -> dict[str, str]:
    kind, slot, nat, two, joker = _check_action(a)
    f = {"kind": E.KIND_NAMES[slot] if kind in (E.AT_DISCARD, E.AT_KEEP_THREE) else ""}
    f["colour"] = COLOURS.get(slot, "") if kind == E.AT_KEEP_THREE else ""
    f["top"] = E.KIND_NAMES[top] if top >= 0 else ""
    if kind == E.AT_MELD:
        items = [f"{nat}x{E.KIND_NAMES[slot]}"] if nat else []
        items += [f"{two}x2"] * (two > 0) + [f"{joker}xJK"] * (joker > 0)
        wild = slot == E.WILD_MELD
        f["op"] = op_words(slot, nat, two, joker)
        f["items"] = " ".join(items)
        f["target"] = "wild meld" if wild else f"meld {E.KIND_NAMES[slot]}"
        f["cards"] = " ".join(meld_cards(slot, nat, two, joker))
        f["meld"] = "the wild meld" if wild else f"the {E.KIND_NAMES[slot]}s"
    return f


def action_words(a: int, form: str = "text", top: int = -1) -> str | None:
    """Action ``a`` in one format of :data:`ACTION_WORDS` (``command``, ``text``, ``page``,
    ``log``); ``top``: the pile's top kind (the log of taking it). None: a log line the next
    event says."""
    kind = _check_action(a)[0]
    template = getattr(ACTION_WORDS[kind], form)
    if template is None:
        return None
    f = _fields(a, top)
    return template.format(text=ACTION_WORDS[kind].text.format(**f), **f)


def describe_action(a: int) -> str:
    """Human-readable text of an action id, e.g. 'meld 7: 3x7' or 'discard K': the record's
    and the transcript's words (:data:`ACTION_WORDS`)."""
    return action_words(a, "text")


def command_words(a: int) -> str:
    """Action ``a`` as a person types it at the terminal, e.g. 'meld K K 2', 'keep 3r'."""
    return action_words(a, "command")


def page_move(a: int) -> dict:
    """The web page's request for action ``a``, as its buttons send it: ``{"move": name}``,
    with the card of a discard and the cards and target of a meld."""
    kind, slot, nat, two, joker = _check_action(a)
    body: dict = {"move": action_words(a, "page")}
    if kind == E.AT_DISCARD:
        body["cards"] = [E.KIND_NAMES[slot]]
    elif kind == E.AT_MELD:
        body["cards"] = meld_cards(slot, nat, two, joker)
        body["target"] = "wild" if slot == E.WILD_MELD else E.KIND_NAMES[slot]
    return body


def page_names(actions: Sequence[int]) -> list[str]:
    """The page's move names of ``actions`` (the buttons legal now), sorted."""
    return sorted({action_words(a, "page") for a in actions})


def command_help() -> list[str]:
    """The terminal's help lines of the moves (:data:`ACTION_WORDS`' usage and help)."""
    order = (E.AT_DRAW, E.AT_TAKE_PILE, E.AT_MELD, E.AT_DISCARD, E.AT_KEEP_THREE)
    order += (E.AT_LAY_THREES, E.AT_DECLARE)
    lines = []
    for kind in order:
        w = ACTION_WORDS[kind]
        first, *rest = w.help.format(text=w.text).split("\n")
        lines.append(f"  {w.usage:<19} {first}")
        lines += [f"  {'':<19} {line}" for line in rest]
    return lines


def allowed_line(actions: Sequence[int]) -> str:
    """The moves ``actions`` allow, in the terminal's commands, one line: the words with no
    card, one meld of each rank as an example (its largest natural part first, then the
    fewest wild cards) and the cards that may be discarded."""
    words, discards, melds = [], [], {}
    for a in actions:
        kind, slot, nat, two, joker = _check_action(a)
        if kind == E.AT_DISCARD:
            discards.append(E.KIND_NAMES[slot])
        elif kind == E.AT_MELD:
            key = (nat, -(two + joker))
            if slot not in melds or key > melds[slot][0]:
                melds[slot] = (key, (slot, nat, two, joker))
        else:
            words.append(command_words(a))
    if melds:
        parts = []
        for slot in sorted(melds, reverse=True):
            text = op_words(*melds[slot][1])
            parts.append(f"wild {text}" if slot == E.WILD_MELD else text)
        words.append("meld (for example) " + " | ".join(parts))
    if discards:
        words.append("discard " + "/".join(reversed(discards)))
    return ", ".join(words) if words else "nothing (the hand is over)"


#: the transcript's line for each event other than an action and the end (``{card}``: the
#: event's card, ``{kind}``: its kind, ``{n}``: its count)
_EVENT_TEXT = {
    E.EV_DRAW: "{who}: draws {card}",
    E.EV_REPLACE: "{who}:   replacement card {card}",
    E.EV_BONUS: "{who}:   bonus card {card} (OPEN-5)",
    E.EV_LAY_THREE: "{who}: lays down a {kind} (DEAL-4)",
    E.EV_PILE_JOINS: "{who}:   the rest of the pile ({n} cards) joins the hand",
}


def transcript_lines(events: Sequence[tuple]) -> list[str]:
    """The whole hand's events in words, every card shown (a finished hand, or a face that
    may show every card): draws, pickups, melds, discards, threes, the end."""
    from sim.cards import format_card

    lines = []
    for name, p, a, b in events:
        e = E.EVENT_NAMES.index(name)
        who = f"P{p} (team {p % E.N_TEAMS})"
        if e == E.EV_ACTION:
            kind = E.ACTION_TABLE[a, E.AC_TYPE]
            if kind == E.AT_DRAW:
                continue  # the draw event itself names the card
            text = describe_action(int(a))
            if kind == E.AT_TAKE_PILE:
                top = E.KIND_NAMES[b]
                text += f" (PILE-1: the pair of {top} and the top {top} are melded)"
            lines.append(f"{who}: {text}")
        elif e == E.EV_END:
            lines.append(f"-- hand over: {E.END_NAMES[a]} (END-1)")
        elif e in _EVENT_TEXT:
            text = _EVENT_TEXT[e]
            card = format_card(int(b)) if "{card}" in text else ""
            kind = E.KIND_NAMES[a] if "{kind}" in text else ""
            lines.append(text.format(who=who, card=card, kind=kind, n=a))
    return lines


def _seat_name(p: int) -> str:
    return f"P{p}"


def deal_lines(game) -> list[str]:
    """The four hands dealt and the turn card (DEAL-1, DEAL-3): the whole deal, so only for a
    finished hand or a face that may show every card."""
    from sim.cards import format_cards

    lines = ["deal (DEAL-1; no up-card, DEAL-2):"]
    for p in range(E.N_PLAYERS):
        cards = game.deck[p * E.HAND_SIZE : (p + 1) * E.HAND_SIZE]
        lines.append(f"  P{p}: {format_cards(sorted(cards.tolist()))}")
    turn_card = game.deck[E.N_PLAYERS * E.HAND_SIZE + 8]
    lines.append(f"  turn card (DEAL-3, 9th from the stock's bottom): {format_cards([turn_card])}")
    return lines


def end_lines(game, name: Callable[[int], str] = _seat_name, verb: str = "holds") -> list[str]:
    """The special hand declared (SPECIAL-1), each team's melds and threes laid, and what
    each player holds (``name``: a seat's label, ``verb``: 'holds' or 'held')."""
    from sim.cards import format_counts, format_melds
    from sim.engine.views import st_hands, st_melds, st_threes

    melds, threes, hands = st_melds(game.state), st_threes(game.state), st_hands(game.state)
    lines = []
    special, special_team = game.special_hand
    if special:
        lines.append(f"team {special_team} declared a special hand: {special} (SPECIAL-1)")
    for t in range(E.N_TEAMS):
        lines.append(
            f"team {t} melds: {format_melds(melds[t])}; threes laid: "
            f"{int(threes[t, 0])} red, {int(threes[t, 1])} black"
        )
        for p in (t, t + E.N_TEAMS):
            lines.append(f"  {name(p)} {verb}: {format_counts(hands[p]) or '(nothing)'}")
    return lines


def score_lines(scores: dict) -> list[str]:
    """The itemised score table of a hand (``Hand.scores()``: SCORE-1..8, OUT-3), one item a
    line, the totals last (plain integers, so a reader can split the line)."""
    items = [k for k in scores[0] if k != "total"]
    width = max(len(i) for i in [*items, "score"])
    lines = [f"{'score':<{width}} {'team 0':>8} {'team 1':>8}"]
    for item in [*items, "total"]:
        lines.append(f"{item:<{width}} {scores[0][item]:>8} {scores[1][item]:>8}")
    return lines


def status_line(game) -> str:
    """Where a running hand stands, from the acting player's observation: the pile, the stock
    and who is to act."""
    obs = game.observation()
    top = int(obs[E.OB_PILE_TOP])
    return (
        f"pile: {int(obs[E.OB_PILE_N])} cards, top {E.KIND_NAMES[top] if top >= 0 else '-'}; "
        f"stock: {int(obs[E.OB_STOCK_N])} cards; turn {game.turn}: P{game.current_player} "
        f"to act ({game.phase})"
    )


def hand_lines(game, header: str | None = None) -> list[str]:
    """The whole hand as one text: a header line, the deal, every draw, pickup, meld, discard
    and three so far, the melds and hands, then the score table once it is over (while it
    runs, the status line instead)."""
    if header is None:
        header = (
            f"seed {game.seed}, hand {game.hand_id}: team 0 (seats 0, 2), team 1 (seats 1, 3); "
            f"seat {game.first_player} plays first (DEAL-1); scores at the start "
            f"{game.start_scores[0]}, {game.start_scores[1]}"
        )
    lines = [header, *deal_lines(game), *game.transcript(), *end_lines(game)]
    if not game.is_over:
        return [*lines, status_line(game)]
    return lines + score_lines(game.scores())


def meld_cards(slot: int, nat: int, two: int, joker: int) -> list[str]:
    """The cards of a meld (or a meld action) by rank name: the naturals of ``slot`` (none in
    the wild meld), then the twos and jokers, e.g. ['K', 'K', '2']."""
    naturals = [E.KIND_NAMES[slot]] * (nat if slot != E.WILD_MELD else 0)
    return naturals + ["2"] * two + ["JK"] * joker


@dataclass(frozen=True)
class EventWords:
    """How one face words the events of a hand (``Hand.events()``): ``card`` names a card id a
    seat received, ``action`` an action's text (``None``: the event that follows says it), and
    each other event a pair of templates, (the seat's own, another seat's), with the fields
    ``who``, ``card`` (own events only: another seat's cards stay hidden), ``kind`` (a three
    laid), ``n`` (cards joining a hand) and ``end`` (how the hand ended)."""

    card: Callable[[int], str]
    action: Callable[[int, int], str | None]
    templates: dict[str, tuple[str, str]]


def _terminal_action(a: int, b: int) -> str | None:
    kind = int(E.ACTION_TABLE[a, E.AC_TYPE])
    if kind == E.AT_DRAW:
        return None  # the draw event says it
    text = describe_action(a)
    if kind == E.AT_TAKE_PILE:
        text += f" (top {E.KIND_NAMES[b]}: the pair and the top card are melded)"
    return text


def _web_action(a: int, b: int) -> str | None:
    return action_words(a, "log", top=b)


def _format_card(c: int) -> str:
    from sim.cards import format_card

    return format_card(c)


#: the terminal's words (``canasta play --human``): cards with their suits, the rules cited
TERMINAL_WORDS = EventWords(
    card=_format_card,
    action=_terminal_action,
    templates={
        "draw": ("{who}: draw {card}", "{who}: draws a card"),
        "replace": ("  replacement card {card}", "  replacement card (hidden)"),
        "bonus": ("  bonus card {card} (OPEN-5)", "  bonus card (hidden) (OPEN-5)"),
        "lay_three": ("{who}: lay down a {kind} (DEAL-4)", "{who}: lays down a {kind} (DEAL-4)"),
        "pile_joins": ("  the rest of the pile ({n} cards) joins the hand",) * 2,
        "end": ("-- hand over: {end} (END-1)",) * 2,
    },
)

#: the web table's words: cards by rank (the page shows no suits), every line names its seat
WEB_WORDS = EventWords(
    card=lambda c: E.KIND_NAMES[int(E.CARD_KIND[c])],
    action=_web_action,
    templates={
        "draw": ("{who}: drew {card}", "{who}: draws a card"),
        "replace": ("{who}: replacement card {card}", "{who}: replacement card (hidden)"),
        "bonus": ("{who}: bonus card {card}", "{who}: bonus card (hidden)"),
        "lay_three": ("{who}: lays down a {kind} (DEAL-4)",) * 2,
        "pile_joins": ("{who}: the rest of the pile ({n} cards) joins the hand",) * 2,
        "end": ("hand over: {end} (END-1)",) * 2,
    },
)


def event_lines(
    events: Sequence[tuple[str, int, int, int]],
    seat: int,
    who: Callable[[int], str],
    words: EventWords = TERMINAL_WORDS,
) -> list[str]:
    """The events of a hand in words as ``seat`` sees them (:func:`seat_events`: the cards
    other seats receive hidden, their threes steps untold), ``who`` a seat's label, ``words``
    the face's wording (:data:`TERMINAL_WORDS`, :data:`WEB_WORDS`)."""
    lines = []
    for _, (name, p, a, b) in seat_events(events, seat):
        if name == "action":
            text = words.action(a, b)
            if text is not None:
                lines.append(f"{who(p)}: {text}")
            continue
        if name not in words.templates:
            continue
        mine = p == seat
        fields = {"who": who(p), "n": a}
        if mine and name in _CARD_EVENT_NAMES:
            fields["card"] = words.card(b)
        if name == "lay_three":
            fields["kind"] = E.KIND_NAMES[a]
        if name == "end":
            fields["end"] = E.END_NAMES[a]
        lines.append(words.templates[name][0 if mine else 1].format(**fields))
    return lines
