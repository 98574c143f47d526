"""The one move grammar: a human's move as text or as the web page's JSON body, parsed into one
:class:`Move`, checked once against the rules a move's words can break (DEAL-4, MELD-1, MELD-2,
MELD-4), refused with one error type (:class:`MoveError`, its ``rule`` the rule ID).

Every face reads moves here: the terminal (``canasta play --human``, one command a line), the
web table (``{"move": "meld", "cards": ["K", "K", "2"], "target": "K"}``) and the hand record
(``sim.play.record.parse_move``: the words of ``describe_action`` or short ones). Text forms::

    draw | draw from the stock              pile | take the pile | take the discard pile
    lay | lay down all threes               declare | declare a special hand
    keep [3r|3b] | keep one 3r toward ...   discard K
    meld 7 7 7, K K JK   (one meld a comma; a group of several ranks without wild cards is
                          one meld per rank; wild cards alone are the wild meld, MELD-8)
    meld K: 2 | meld 2 on K | meld K: 3xK 1x2 | wild meld: 2x2 1xJK   (to a named meld)

Cards are words with an optional suit (suits never matter to the rules): ``K``, ``KH``,
``10``, ``T``, ``JK``, ``3r``/``3h`` (a red three, SCORE-7), ``3b``/``3s``. A move's words that
cannot be read (an unknown word, a bad card) raise :class:`sim.errors.CanastaError`; a
readable move that the rules refuse raises :class:`MoveError`. Whether the move is legal now is
the engine's question (``Game.reason``), asked by the seat that plays it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim import encoding as E
from sim.errors import CanastaError

__all__ = ["Move", "MoveError", "meld_ops", "move_from_json", "parse_kind", "parse_move"]

#: card word -> kind; suits are optional (the engine counts cards by kind)
_KIND_OF = {name.upper(): k for k, name in enumerate(E.KIND_NAMES)} | {"T": E.TEN}
_KIND_OF |= {"3R": E.RED_THREE, "3B": E.BLACK_THREE, "RED": E.RED_THREE, "BLACK": E.BLACK_THREE}
_SUITS = "SHDC"
_MAX_CARDS = E.N_CARDS  # no move names more cards than the packs hold: bounds every input


def _simple_words() -> dict[str, int]:
    """The words of each action with no card, from the one table (``sim.play.words``): its
    command, its text and the aliases, each to its action id."""
    from sim.play.words import ACTION_ALIASES, ACTION_WORDS

    ids = {E.AT_DRAW: E.A_DRAW, E.AT_TAKE_PILE: E.A_TAKE_PILE, E.AT_LAY_THREES: E.A_LAY_THREES}
    ids[E.AT_DECLARE] = E.A_DECLARE
    out = {w: ids[k] for w, k in ACTION_ALIASES.items()}
    for kind, a in ids.items():
        out |= {ACTION_WORDS[kind].command: a, ACTION_WORDS[kind].text: a}
    return out


def _page_words() -> dict[str, str]:
    """The page's request names of the actions with no card but a three's colour, each to its
    command (``keep_red`` -> ``keep 3r``), from the one table."""
    from sim.play.words import action_words

    simple = (E.A_DRAW, E.A_TAKE_PILE, E.A_LAY_THREES, E.A_DECLARE)
    return {
        action_words(a, "page"): action_words(a, "command")
        for a in (*simple, E.A_KEEP_RED_THREE, E.A_KEEP_BLACK_THREE)
    }


_WORDS = _simple_words()
_JSON_SIMPLE = _page_words()
#: the command word of each action with no card (the move's name)
_NAMES = {_WORDS[w]: w for w in ("draw", "pile", "lay", "declare")}


class MoveError(CanastaError):
    """A move the rules refuse: ``rule`` its rule ID ('' when no rule is at stake), the
    message the rule's ``explain()`` sentence or what to do instead; ``allowed``: the moves
    allowed now, in the terminal's words (the seat fills it in when it is the human's turn)."""

    def __init__(self, message: str, rule: str = ""):
        self.rule = rule
        self.allowed = ""
        super().__init__(message)


def _refused(code: int) -> MoveError:
    return MoveError(E.explain(code), E.reason_rule(code))


@dataclass(frozen=True)
class Move:
    """One move of a human: ``name`` draw, pile, lay, declare, keep, discard, meld or out
    (meld ``ops`` then discard the one card left, OUT-1); ``kind`` the card discarded or the
    three kept (-1: the one three held, or none); ``ops`` the meld operations
    ``(slot, naturals, twos, jokers)``, one per rank."""

    name: str
    kind: int = -1
    ops: tuple[tuple[int, int, int, int], ...] = ()

    def actions(self) -> list[int]:
        """The engine actions of the move (``sim.encoding.ACTION_TABLE`` ids), in order; a
        keep without its three and the discard of going out depend on the hand: the seat
        resolves them."""
        if self.name in ("draw", "pile", "lay", "declare"):
            return [_WORDS[self.name]]
        if self.name == "keep":
            if self.kind < 0:
                raise MoveError(
                    "say which three you keep: 'keep 3r' or 'keep 3b' (DEAL-5)", "DEAL-5"
                )
            return [E.A_KEEP_RED_THREE if self.kind == E.RED_THREE else E.A_KEEP_BLACK_THREE]
        if self.name == "discard":
            return [E.A_DISCARD + self.kind]
        return [_meld_action(*op) for op in self.ops]

    def text(self) -> str:
        """The move in words, as a refusal names it: ``describe_action``'s for one action,
        ``meld 7 7 7, K K JK`` for melds."""
        from sim.play.words import describe_action, op_words

        if self.name == "meld":
            return "meld " + ", ".join(op_words(*op) for op in self.ops)
        if self.name == "out":
            melds = ", ".join(op_words(*op) for op in self.ops)
            return f"go out (meld {melds})" if melds else "go out"
        if self.name == "keep" and self.kind < 0:
            return "keep a three"
        return describe_action(self.actions()[0])

    @classmethod
    def of_action(cls, a: int) -> Move:
        """The move of one engine action id."""
        kind, slot, nat, two, joker = (int(x) for x in E.ACTION_TABLE[a])
        simple = {E.AT_DRAW: "draw", E.AT_TAKE_PILE: "pile", E.AT_LAY_THREES: "lay"}
        simple[E.AT_DECLARE] = "declare"
        if kind in simple:
            return cls(simple[kind])
        if kind == E.AT_KEEP_THREE:
            return cls("keep", slot)
        if kind == E.AT_DISCARD:
            return cls("discard", slot)
        return cls("meld", ops=((slot, nat, two, joker),))


def parse_kind(token: str) -> int:
    """Kind of a card word: 'K', 'KH', '10', 'T', '2', 'JK', '3H' (red), '3S' (black), '3r'."""
    t = str(token).strip().upper()
    if t in _KIND_OF:
        return _KIND_OF[t]
    rank, suit = t[:-1], t[-1:]
    if suit and suit in _SUITS and rank == "3":  # a three's colour is its suit's (SCORE-7)
        return E.RED_THREE if _SUITS.index(suit) in E.RED_SUITS else E.BLACK_THREE
    if suit and suit in _SUITS and rank in _KIND_OF and rank not in ("JK", "3R", "3B"):
        return _KIND_OF[rank]
    raise CanastaError(
        f"bad card {str(token)[:20]!r}: a rank A K Q J 10 (or T) 9 8 7 6 5 4 2, JK, or 3r/3b, "
        "suit optional"
    )


def meld_ops(kinds: list[int], target: int | None = None) -> list[tuple[int, int, int, int]]:
    """The meld operations ``(slot, naturals, twos, jokers)`` of the cards ``kinds`` (one
    meld): to ``target`` (a natural kind or ``WILD_MELD``) when named, else one operation per
    rank, the wild cards joining the one natural rank or, alone, making the wild meld (MELD-8).
    The one place a move's cards are checked against the rules their words break: a three is
    never melded (DEAL-4), a meld is one rank (MELD-1) and not empty, an operation holds at
    most seven cards (MELD-2) and, in a mixed meld, at most the wild cards an operation can
    hold (MELD-4); the engine checks the rest against the table."""
    if len(kinds) > _MAX_CARDS:
        raise _refused(E.R_MELD_TOO_LONG)
    _no_threes(kinds, target)
    if not kinds:
        raise MoveError(
            f"{E.explain(E.R_EMPTY_MELD)}: meld what? e.g. 'meld 7 7 7' or 'meld K K 2, 9 9 9'",
            "MELD-1",
        )
    naturals = sorted({k for k in kinds if E.IS_NATURAL[k]}, reverse=True)
    two, joker = kinds.count(E.TWO), kinds.count(E.JOKER)
    if target is not None:
        if naturals and (target == E.WILD_MELD or naturals != [target]):
            raise _refused(E.R_MELD_MIXED_RANKS)
        ops = [(target, kinds.count(target) if target != E.WILD_MELD else 0, two, joker)]
    elif len(naturals) > 1 and two + joker:
        raise MoveError(
            "which meld do the wild cards join? a meld is one rank (MELD-1): meld each rank "
            "with its own wild cards, e.g. 'meld K K 2, 9 9 9', or name the meld they join",
            "MELD-1",
        )
    elif not naturals:
        ops = [(E.WILD_MELD, 0, two, joker)]
    else:
        ops = [(k, kinds.count(k), two, joker) for k in naturals]
    for op in ops:
        _meld_action(*op)
    return ops


def _no_threes(kinds: list[int], target: int | None = None) -> None:
    """DEAL-4: a three is never melded, nor melded to."""
    if (target is not None and E.IS_THREE[target]) or any(E.IS_THREE[k] for k in kinds):
        raise _refused(E.R_THREE_MELDED)


def _meld_action(slot: int, nat: int, two: int, joker: int) -> int:
    """Action id of one meld operation; one the table cannot hold is refused by the rule that
    forbids it (MELD-2 length, MELD-4 wild count)."""
    if nat + two + joker > E.CANASTA:
        raise _refused(E.R_MELD_TOO_LONG)
    if slot != E.WILD_MELD and two + joker > E.MAX_OP_WILDS:
        raise _refused(E.R_MIXED_TOO_MANY_WILDS)
    a = int(E.MELD_ACTION[slot, nat, two, joker])
    if a < 0:  # pragma: no cover - every op within the limits above is in the table
        raise MoveError("no such meld operation")
    return a


def _items(text: str) -> list[int]:
    """Kinds of 'K K 2' or '2xK 1x2' (each item a card once or N x a card)."""
    kinds: list[int] = []
    for tok in text.replace(",", " ").split():
        n, sep, name = tok.lower().partition("x")
        if not sep or not n:
            n, name = "1", tok
        if not n.isdigit() or len(n) > 3:
            raise CanastaError(f"bad item {tok[:20]!r} (e.g. 'K', '3xK')")
        kinds += [parse_kind(name)] * int(n)
        if len(kinds) > _MAX_CARDS:
            raise _refused(E.R_MELD_TOO_LONG)
    return kinds


def _meld(rest: str, head: str) -> Move:
    target = None
    if head == "wild":
        if not rest.startswith("meld"):
            raise CanastaError(f"bad move 'wild {rest[:30]}': expected 'wild meld: 2 2 JK'")
        target, rest = E.WILD_MELD, rest[4:].lstrip(": ")
    elif ":" in rest:
        name, _, rest = rest.partition(":")
        target = E.WILD_MELD if name.strip() == "wild" else parse_kind(name)
    elif " on " in f" {rest} ":
        rest, _, name = f" {rest} ".rpartition(" on ")
        target = E.WILD_MELD if name.strip() == "wild" else parse_kind(name)
    if target is not None:
        return Move("meld", ops=tuple(meld_ops(_items(rest), target)))
    groups = [g for g in rest.split(",") if g.strip()]
    kinds = [_items(g) for g in groups]
    _no_threes([k for ks in kinds for k in ks])  # before any group's other refusals
    ops = [op for ks in kinds for op in meld_ops(ks)] if groups else meld_ops([])
    return Move("meld", ops=tuple(ops))


def parse_move(text: str) -> Move:
    """The :class:`Move` of a move's text (module docstring): the terminal's commands and the
    record's words alike."""
    if not isinstance(text, str) or not text.strip():
        raise CanastaError(
            f"bad move {str(text)[:30]!r}: expected text such as 'draw' or 'discard 7'"
        )
    move = " ".join(text.split())
    low = move.lower()
    if low in _WORDS:
        return Move(low if low in ("draw", "pile", "lay", "declare") else _word(low))
    head, _, rest = low.partition(" ")
    if head == "keep":
        toks = rest.split()
        if toks and toks[0] == "one":
            toks = toks[1:]
        if not toks:
            return Move("keep")
        kind = parse_kind(toks[0])
        if not E.IS_THREE[kind]:
            raise MoveError("keep a three: 'keep 3r' or 'keep 3b' (DEAL-5)", "DEAL-5")
        return Move("keep", kind)
    if head == "discard":
        toks = rest.split()
        if len(toks) != 1:
            raise MoveError("discard one card, e.g. 'discard 4' (TURN-1)", "TURN-1")
        return Move("discard", parse_kind(toks[0]))
    if head in ("meld", "wild"):
        return _meld(rest, head)
    raise CanastaError(
        f"bad move {move[:30]!r}: expected draw, pile, lay, keep 3r/3b, declare, meld ..., "
        "discard X"
    )


def _word(low: str) -> str:
    return _NAMES[_WORDS[low]]


def _json_kinds(cards: Any) -> list[int]:
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise CanastaError("cards: expected a list of card names such as ['K', 'K', '2']")
    if len(cards) > _MAX_CARDS:
        raise CanastaError(f"cards: at most {_MAX_CARDS} cards")
    return [parse_kind(c) for c in cards]


def move_from_json(body: Any) -> Move:
    """The :class:`Move` of the web page's request ``{"move": name, "cards": [...],
    "target": kind or "wild"}``: names draw, pile, lay, declare, keep_red, keep_black,
    discard (one card), meld (the cards, to ``target`` when a meld on the table was clicked)
    and out (meld the cards, then discard the one card left, OUT-1). The same move as its
    text form (``parse_move``), checked by the same rules."""
    if not isinstance(body, dict):
        raise CanastaError('expected a JSON object such as {"move": "draw"}')
    name = body.get("move")
    if not isinstance(name, str):
        raise CanastaError('move: expected a move\'s name such as "draw"')
    if name in _JSON_SIMPLE:
        return parse_move(_JSON_SIMPLE[name])
    if name == "discard":
        kinds = _json_kinds(body.get("cards"))
        if len(kinds) != 1:
            raise MoveError("discard one card, e.g. 'discard 4' (TURN-1)", "TURN-1")
        return Move("discard", kinds[0])
    if name in ("meld", "out"):
        kinds = _json_kinds(body.get("cards", []))
        target = body.get("target")
        if target is not None:
            if not isinstance(target, str):
                raise CanastaError("target: expected a meld's rank such as 'K', or 'wild'")
            target = E.WILD_MELD if target.strip().lower() == "wild" else parse_kind(target)
        if name == "out" and not kinds:
            return Move("out")
        return Move(name, ops=tuple(meld_ops(kinds, target)))
    raise CanastaError(
        f"unknown move {name[:30]!r}: expected draw, pile, meld, out, discard, declare, lay, "
        "keep_red, keep_black"
    )
