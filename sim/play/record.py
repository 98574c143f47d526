"""The hand record: one versioned JSON format for a whole hand or game (docs/record.md).

    {"format": "canasta-sim record", "version": 1, "kind": "hand" | "game",
     "ruleset": {...}, "seed": 7, "players": ["you", "strong", "strong", "strong"],
     "target": 8500,
     "hands": [{"hand_id": 0, "first_player": 0, "scores": [0, 0], "deck": [...108 ids],
                "actions": [{"seat": 0, "id": 12, "move": "draw from the stock"}, ...],
                "result": {"end": "out", "scores": {"0": {...}, "1": {...}}}}]}

Written by ``from_games`` (``sim.Hand``, ``canasta play --record``, the web table) and read
back by ``load`` (this format, or a bare ``Hand.record()`` of one hand) and ``replay``, which
plays every hand again through ``sim.play.Hand`` and checks it action by action: a
move the rules refuse stops it with the hand, the action's number, the seat, the move and the
rule ID with its ``explain()`` sentence (``RecordError``). A hand typed by hand may give each
action as a move's text (``"draw"``, ``"meld K K 2"``, ``"discard 7"``; ``parse_move``) and
the deck as card tokens (``"AS"``: the first free copy, CARD-1).

Game-mode hands follow the engine's seeding: hand ``k`` of game ``g`` is
``hand_id = g * GAME_HAND_STRIDE + k``, its first player ``(g + k) % 4`` (DEAL-1), its
starting scores the totals after hand ``k - 1`` (OPEN-1, GAME-1).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sim import encoding as E
from sim.errors import CanastaError

FORMAT = "canasta-sim record"  #: the format tag of every record
VERSION = 1  #: the format's version (docs/record.md: what each version adds)
LEGACY_HAND = "canasta-sim hand 1"  #: ``Hand.record()``'s one-hand form, read as a hand

__all__ = [
    "FORMAT",
    "VERSION",
    "RecordError",
    "dumps",
    "from_games",
    "game_hand",
    "hand_entry",
    "load",
    "parse_move",
    "redeal",
    "replay",
    "seats_of",
]


class RecordError(CanastaError):
    """A record that cannot be read or replayed; ``rule`` names the broken rule ('' if none)."""

    def __init__(self, message: str, rule: str = ""):
        self.rule = rule
        super().__init__(message)


# ---------------------------------------------------------------------------------------
# Moves as text
# ---------------------------------------------------------------------------------------
def parse_move(text: str) -> int:
    """Action id of a move's text (the one move grammar, ``sim.play.moves.parse_move``): the words
    of ``describe_action`` or short ones, one engine action a move.

    ``draw``, ``pile`` (take the pile), ``lay`` (lay down all threes), ``keep 3r``,
    ``declare``, ``discard K``, ``meld K K 2`` (one operation of one rank; wild cards alone
    are the wild meld), ``meld K: 2`` (add a two to the Ks), ``meld K: 3xK 1x2``,
    ``wild meld: 2x2 1xJK``."""
    from sim.play.moves import MoveError
    from sim.play.moves import parse_move as parse

    move = " ".join(text.split()) if isinstance(text, str) else text
    try:
        actions = parse(text).actions()
    except MoveError as exc:
        raise RecordError(f"move {move!r}: {exc}", exc.rule) from None
    except CanastaError as exc:  # words that are no move: an unknown word, a bad card
        text = str(exc)
        raise RecordError(
            text if text.startswith("bad move") else f"move {move!r}: {text}"
        ) from None
    if len(actions) != 1:  # a record's action is one meld operation: one rank
        raise RecordError(f"move {move!r}: {E.explain(E.R_MELD_MIXED_RANKS)}", "MELD-1")
    return actions[0]


# ---------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------
def redeal(game):
    """A new ``Hand`` of the same deal as ``game`` (``Hand.redeal``: seed, hand, ruleset,
    first player, scores, deck), before any action: what a replay or an undo starts from."""
    return game.redeal()


def seats_of(game) -> list[int]:
    """The seat that took each action of ``game`` (its history: no replay)."""
    return list(game.seats)


def hand_entry(game, hide_deck: bool = False, viewer: int | None = None) -> dict[str, Any]:
    """One hand of a record: ``Hand.record()``'s keys, each action with its seat and text,
    and the result once the hand is over. ``hide_deck``: leave the deck out (a hand still
    running, for a face that must not show it: the deck names every hidden card), and the
    other seats' threes steps with it (DEAL-5: a three kept is its player's secret,
    ``sim.play.words.private_step``; the threes laid are on the table): ``viewer`` the seat
    the record is for (None: no seat's threes step is listed)."""
    from sim.play.words import describe_action, private_step

    base = game.record()
    entry = {
        "hand_id": base["hand_id"],
        "first_player": base["first_player"],
        "scores": base["scores"],
        "deck": None if hide_deck else base["deck"],
        "actions": [
            {"seat": s, "id": a, "move": describe_action(a)}
            for s, a in zip(seats_of(game), base["actions"], strict=True)
            if not (hide_deck and s != viewer and private_step(a))
        ],
    }
    if game.is_over:
        entry["result"] = {
            "end": game.end_reason,
            "scores": {str(t): d for t, d in game.scores().items()},
        }
    return entry


def from_games(
    games: Sequence,
    players: Sequence[str] | None = None,
    kind: str | None = None,
    hide_running_deck: bool = False,
    viewer: int | None = None,
) -> dict[str, Any]:
    """A record of ``games`` (the hands of one game in order, or one hand), all under one
    ruleset and seed. ``players``: a label per seat; ``hide_running_deck``: leave out the
    deck of a hand not yet over, and the threes steps of the seats other than ``viewer``
    (``hand_entry``)."""
    games = list(games)
    if not games:
        raise CanastaError("a record needs at least one hand")
    first = games[0]
    kind = kind or ("game" if len(games) > 1 else "hand")
    if kind not in ("hand", "game"):
        raise CanastaError(f"record kind {kind!r}: expected 'hand' or 'game'")
    rec: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "kind": kind,
        "ruleset": first.ruleset.to_dict(),
        "seed": first.seed,
    }
    if players is not None:
        rec["players"] = [str(p) for p in players]
    if kind == "game":
        rec["target"] = int(first.ruleset.target)
    rec["hands"] = [hand_entry(g, hide_running_deck and not g.is_over, viewer) for g in games]
    return rec


def dumps(record: dict) -> str:
    """The record as JSON text, readable: one key a line, each action on a line of its own."""
    c = json.dumps
    top = []
    for key, value in record.items():
        if key != "hands":
            top.append(f" {c(key)}: {c(value)}")
            continue
        hands = []
        for h in value:
            lines = []
            for k, v in h.items():
                if k == "actions":
                    acts = ",\n".join(f"    {c(a)}" for a in v)
                    lines.append(f"   {c(k)}: [\n{acts}\n   ]" if v else f"   {c(k)}: []")
                else:
                    lines.append(f"   {c(k)}: {c(v)}")
            hands.append("  {\n" + ",\n".join(lines) + "\n  }")
        top.append(' "hands": [\n' + ",\n".join(hands) + "\n ]")
    return "{\n" + ",\n".join(top) + "\n}\n"


# ---------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------
def load(source: str | Path | dict) -> dict[str, Any]:
    """A record from a file path, JSON text or a dict, its structure checked; a bare
    ``Hand.record()`` becomes a one-hand record. Rules are checked by ``replay``."""
    if isinstance(source, Path) or (
        isinstance(source, str) and not source.lstrip().startswith("{")
    ):
        path = Path(source)
        try:
            source = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"record {path}: cannot read it ({exc.strerror or exc})") from None
    if isinstance(source, str):
        try:
            source = json.loads(source)
        except json.JSONDecodeError as exc:
            raise RecordError(f"bad record: not JSON ({exc})") from None
    if not isinstance(source, dict):
        raise RecordError("bad record: expected a JSON object")
    rec = source
    if rec.get("format") == LEGACY_HAND:
        legacy = {k: rec.get(k) for k in ("hand_id", "first_player", "scores", "deck")}
        rec = {
            "format": FORMAT,
            "version": VERSION,
            "kind": "hand",
            "ruleset": rec.get("ruleset"),
            "seed": rec.get("seed"),
            "hands": [legacy | {"actions": rec.get("actions")}],
        }
    if rec.get("format") != FORMAT:
        raise RecordError(f'bad record: expected "format": {FORMAT!r}')
    version = rec.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= VERSION:
        raise RecordError(f"bad record: version {version!r} (this reader knows 1..{VERSION})")
    if rec.get("kind", "hand") not in ("hand", "game"):
        raise RecordError(f"bad record: kind {rec.get('kind')!r}: expected 'hand' or 'game'")
    hands = rec.get("hands")
    if not isinstance(hands, list) or not hands or not all(isinstance(h, dict) for h in hands):
        raise RecordError("bad record: 'hands' must be a non-empty list of hands")
    players = rec.get("players")
    if players is not None and (not isinstance(players, list) or len(players) != E.N_PLAYERS):
        raise RecordError("bad record: 'players' must name the 4 seats")
    for i, h in enumerate(hands, 1):
        if not isinstance(h.get("actions", []), list):
            raise RecordError(f"bad record: hand {i}: 'actions' must be a list")
    return rec


def _action_id(item: Any, where: str) -> tuple[int, int | None]:
    """(action id, seat or None) of one recorded action: an id, a move's text, or an object
    with "id" and/or "move" and an optional "seat"."""
    seat = None
    if isinstance(item, dict):
        seat = item.get("seat")
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < E.N_PLAYERS
        ):
            raise RecordError(f"{where}: bad seat {seat!r} (seats are 0..3)")
        ident, move = item.get("id"), item.get("move")
        if ident is None and move is None:
            raise RecordError(f'{where}: an action needs an "id" or a "move"')
        if move is not None:
            try:
                from_text = parse_move(move)
            except RecordError as exc:
                raise RecordError(f"{where}: {exc}", exc.rule) from None
            if ident is not None and ident != from_text:
                raise RecordError(f"{where}: id {ident!r} and move {move!r} disagree")
            return from_text, seat
        item = ident
    if isinstance(item, str):
        try:
            return parse_move(item), seat
        except RecordError as exc:
            raise RecordError(f"{where}: {exc}", exc.rule) from None
    if isinstance(item, bool) or not isinstance(item, int) or not 0 <= item < E.N_ACTIONS:
        raise RecordError(f"{where}: bad action {item!r} (ids 0..{E.N_ACTIONS - 1} or a move)")
    return item, seat


def _deck(deck: Any, where: str) -> list[int]:
    if isinstance(deck, list) and deck and all(isinstance(c, str) for c in deck):
        from sim.cards import parse_cards

        try:
            return parse_cards(deck).tolist()
        except CanastaError as exc:
            raise RecordError(f"{where}: deck: {exc}", getattr(exc, "rule", "")) from None
    return deck


def replay(record: str | Path | dict, upto: tuple[int, int] | None = None) -> list:
    """Every hand of ``record`` played again (``sim.play.Hand``), checked action by
    action: the seat named must be the one to act (TURN-1), each move must be legal (the
    rule and its sentence named where it breaks), a recorded result must match the score
    (SCORE-*), a game's hands must chain their scores (OPEN-1, GAME-1), and no hand may follow
    the end of the game (``sim.play.game.GameDriver``: GAME-1, or SPECIAL-10).
    ``upto=(hand, n)``: stop hand ``hand`` (1-based) after its first ``n`` actions."""
    from sim.play import Hand
    from sim.play.game import GameDriver, GameOverError
    from sim.ruleset import as_ruleset

    rec = load(record)
    try:
        rules = as_ruleset(rec.get("ruleset"))
    except CanastaError as exc:
        raise RecordError(f"bad record: ruleset: {exc}") from None
    seed = rec.get("seed") or 0
    games = []
    totals = None
    driver = None  # the game the hands make: its end (GAME-1, SPECIAL-10)
    for i, h in enumerate(rec["hands"], 1):
        where = f"hand {i}"
        if driver is not None:
            try:
                driver.check_not_over()
            except GameOverError as exc:
                raise RecordError(f"{where}: cannot be played: {exc}", exc.rule) from None
        scores = h.get("scores", [0, 0] if totals is None else totals)
        if totals is not None and list(scores) != list(totals):
            raise RecordError(
                f"{where}: starts at scores {list(scores)} but the hand before ended at "
                f"{list(totals)} (GAME-1: scores are cumulative)",
                "GAME-1",
            )
        if h.get("deck") is None:
            raise RecordError(f"{where}: no deck (a hand still running hides it)")
        try:
            g = Hand(
                seed=seed,
                hand_id=h.get("hand_id", 0),
                rules=rules,
                first_player=h.get("first_player"),
                scores=scores,
                deck=_deck(h.get("deck"), where),
                hand_number=i,  # OPEN-1: hand i of the game
            )
        except RecordError:
            raise
        except CanastaError as exc:
            raise RecordError(f"{where}: {exc}") from None
        if driver is None:
            driver = GameDriver(rules=rules, scores=g.start_scores)
        actions = h.get("actions", [])
        stop = len(actions) if upto is None or upto[0] != i else min(upto[1], len(actions))
        for n, item in enumerate(actions[:stop], 1):
            at = f"{where}, action {n}"
            a, seat = _action_id(item, at)
            from sim.play.words import describe_action

            move = describe_action(a)
            if g.is_over:
                raise RecordError(f"{at} ({move}): the hand is already over (END-1)", "END-1")
            p = g.current_player
            if seat is not None and seat != p:
                raise RecordError(
                    f"{at} (seat {seat}: {move}): it is seat {p}'s turn "
                    "(TURN-1; play goes clockwise, DEAL-1)",
                    "TURN-1",
                )
            code = g.reason(a)
            if code != E.R_OK:
                raise RecordError(
                    f"{at} (seat {p}: {move}): {E.explain(code)}", E.reason_rule(code)
                )
            g.apply(a)
        games.append(g)
        if upto is not None and upto[0] == i:
            return games
        result = h.get("result")
        if result is not None and g.is_over:
            got = {str(t): d for t, d in g.scores().items()}
            want = result.get("scores") if isinstance(result, dict) else None
            if want is not None:
                for t in ("0", "1"):
                    w = want.get(t, {}) if isinstance(want, dict) else {}
                    total = w.get("total") if isinstance(w, dict) else None
                    if total is not None and total != got[t]["total"]:
                        raise RecordError(
                            f"{where}: team {t} scored {total} in the record, but the rules "
                            f"give {got[t]['total']} (SCORE-1..8)",
                            "SCORE-1",
                        )
        elif result is not None and not g.is_over:
            raise RecordError(f"{where}: the record gives a result but the hand is not over")
        if g.is_over:
            driver.end_hand(g)
            totals = list(driver.totals)
        elif i < len(rec["hands"]):
            raise RecordError(f"{where}: not over, yet another hand follows (END-1)", "END-1")
    return games


def game_hand(seed: int, game: int, k: int, totals: Sequence[int], rules=None):
    """Hand ``k`` of game ``game`` starting at ``totals``, dealt as the game's driver deals
    it (``sim.play.game.GameDriver.hand_at``: seeding, DEAL-1, OPEN-1). A face that plays a whole
    game should hold a ``GameDriver`` instead, which also decides the game's end."""
    from sim.play.game import GameDriver

    return GameDriver(seed, game, rules).hand_at(k, totals)
