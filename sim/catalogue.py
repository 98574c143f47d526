"""Special-hand catalogues as data (SPECIAL-7..9): the hand and group types, the presets, and
the reading of a list written in a ruleset file.

A hand is its groups, its award and whether it wins the game (SPECIAL-9). A group is ``size``
cards of one kind, the groups of a hand being of different kinds (SPECIAL-8):

``natural``   one natural rank (A, 4 .. K); ``rank`` fixes which, else any rank not used
``wild``      a matching wild group: all twos or all jokers; ``rank`` "2" or "JK" fixes which
``either``    a natural or a matching wild group (Zip Code, Blast Off)
``any_wild``  wild cards of any mix: any twos and jokers, beside the wild cards the other
              groups hold (Dream Hand Plus 5; at most one such group a hand)
``three``     the one three of a Straight (SPECIAL-2, DEAL-5: a player keeps at most one)

``max_wild_groups`` caps the matching wild groups of a hand ("at most one of them a matching
wild group"). ``matches`` is the plain reading of a hand against counts per kind
(``sim.encoding`` kinds).
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from sim import encoding as E
from sim.errors import CanastaError

__all__ = [
    "CLA",
    "MAX_NAME",
    "TOURNAMENT",
    "Group",
    "Hand",
    "catalogue_from",
    "check_name",
    "describe",
    "encode",
    "matches",
]

GROUP_KINDS = ("natural", "wild", "either", "any_wild", "three")  #: SPECIAL-9 group kinds
_WILD_RANKS = {"2": E.TWO, "JK": E.JOKER}  #: ranks a matching wild group may name
_NATURAL_RANKS = {E.KIND_NAMES[k]: k for k in E.NATURAL_KINDS}  #: "A", "4" .. "K"
#: CARD-1 the most cards a group of each kind can hold
_MAX_SIZE = {
    "natural": int(E.KIND_COPIES[E.FOUR]),
    "wild": int(E.KIND_COPIES[E.TWO]),
    "either": int(E.KIND_COPIES[E.FOUR]),
    "any_wild": int(E.KIND_COPIES[E.TWO] + E.KIND_COPIES[E.JOKER]),
    "three": 1,  # DEAL-5: one three kept, SPECIAL-2
}


@dataclasses.dataclass(frozen=True)
class Group:
    """``size`` cards of one kind (SPECIAL-8/9); ``rank`` the kind it must be, '' for any."""

    size: int
    kind: str = "natural"
    rank: str = ""


@dataclasses.dataclass(frozen=True)
class Hand:
    """A special hand (SPECIAL-9): its groups, award, and whether it wins the game."""

    name: str
    groups: tuple[Group, ...]
    award: int
    wins_game: bool = False  #: SPECIAL-10
    max_wild_groups: int = 2  #: matching wild groups allowed (there are two wild kinds)
    rule: str = "SPECIAL-9"  #: the rule ID that defines it

    @property
    def size(self) -> int:
        return sum(g.size for g in self.groups)


def _g(spec: str) -> tuple[Group, ...]:
    """Compact preset notation: 'A2 72 n2 n2' = natural aces pair, sevens pair, two pairs."""
    out = []
    for tok in spec.split():
        head, size = tok[:-1], int(tok[-1])
        if head in ("n", "w", "e", "x", "t"):
            kind = {"n": "natural", "w": "wild", "e": "either", "x": "any_wild", "t": "three"}
            out.append(Group(size, kind[head]))
        elif head in _WILD_RANKS:
            out.append(Group(size, "wild", head))
        else:
            out.append(Group(size, "natural", head))
    return tuple(out)


_STRAIGHT = _g("A1 21 t1 41 51 61 71 81 91 101 J1 Q1 K1 JK1")
#: SPECIAL-3..6: the tournament list (the default)
TOURNAMENT = (
    Hand("straight", _STRAIGHT, 3000, rule="SPECIAL-3"),
    Hand("pairs", _g("n2 n2 n2 n2 n2 n2 n2"), 2500, rule="SPECIAL-4"),
    Hand("pairs_twos_sevens_aces", _g("22 72 A2 n2 n2 n2 n2"), 2000, rule="SPECIAL-5"),
    Hand("garbage", _g("n4 n4 n3 n3"), 2000, rule="SPECIAL-6"),
)
#: SPECIAL-8: the Canasta League of America list
CLA = (
    Hand("pairs", _g("n2 n2 n2 n2 n2 n2 n2"), 2500, rule="SPECIAL-8"),
    Hand("wild_pairs", _g("A2 72 w2 n2 n2 n2 n2"), 2000, max_wild_groups=1, rule="SPECIAL-8"),
    Hand("miami_pairs", _g("A2 72 22 JK2 n2 n2 n2"), 2500, rule="SPECIAL-8"),
    Hand("zip_code", _g("e2 e2 e3 e3 e4"), 2500, max_wild_groups=1, rule="SPECIAL-8"),
    Hand("straight", _STRAIGHT, 3000, rule="SPECIAL-8"),
    Hand("garbage", _g("n4 n4 n3 n3"), 3000, rule="SPECIAL-8"),
    Hand("blast_off", _g("e5 e4 e3 e2"), 3000, max_wild_groups=1, rule="SPECIAL-8"),
    Hand("triples", _g("n3 n3 n3 n3 w2"), 3500, rule="SPECIAL-8"),
    Hand("quads", _g("n4 n4 n4 w2"), 3500, rule="SPECIAL-8"),
    Hand("dream_hand_plus_4", _g("n5 n5 w4"), 8500, wins_game=True, rule="SPECIAL-8"),
    Hand("dream_hand_plus_5", _g("n5 n4 x5"), 8500, wins_game=True, rule="SPECIAL-8"),
)
PRESETS = {"tournament": TOURNAMENT, "cla": CLA, "none": ()}  #: SPECIAL-7 names


MAX_NAME = 60  #: characters of a hand's or a ruleset's name (printed in tables and records)
#: Unicode categories a name may not hold: controls (newline, NUL), formatting (the
#: right-to-left override, zero-width joiners), surrogates, line and paragraph separators
_NAME_REFUSED = ("Cc", "Cf", "Cs", "Zl", "Zp")


def _fail(where: str, msg: str):
    raise CanastaError(f"ruleset key {where}: {msg}")


def _shown(value) -> str:
    from sim.limits import shown

    return shown(value)


def _key(name) -> str:
    """A key a file wrote, as a message names it: whole unless it is very long."""
    text = str(name)
    return text if len(text) <= 40 else _shown(text)


def check_name(value: Any, where: str) -> str:
    """A name printed in tables, records and the web page (a special hand's, a ruleset's): a
    non-blank string of at most ``MAX_NAME`` characters on one line, with no control or
    formatting character (a newline, NUL, a right-to-left override would forge or garble
    what is printed after it). CanastaError naming the key ``where`` otherwise."""
    if not isinstance(value, str) or not value.strip():
        _fail(where, f"expected a name, got {_shown(value)}")
    if len(value) > MAX_NAME:
        _fail(where, f"a name of {len(value):,} characters; at most {MAX_NAME}")
    for i, ch in enumerate(value):
        if unicodedata.category(ch) in _NAME_REFUSED:
            _fail(
                where,
                f"character {i + 1} is U+{ord(ch):04X} ({unicodedata.name(ch, 'a control')}): "
                "a name is one line of printable text",
            )
    return value


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _a(kind: str) -> str:
    """'a natural group', 'an any_wild group', 'an either group'."""
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} group"


def _group(data: Any, where: str) -> Group:
    if not isinstance(data, Mapping):
        _fail(where, f"a group is a table {{size=..., kind=...}}, got {_shown(data)}")
    unknown = sorted(set(data) - {"size", "kind", "rank"})
    if unknown:
        _fail(f"{where}.{_key(unknown[0])}", "unknown key; a group has size, kind, rank")
    size, kind, rank = data.get("size"), data.get("kind", "natural"), data.get("rank", "")
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        _fail(f"{where}.size", f"expected a positive integer, got {_shown(size)}")
    if not isinstance(kind, str) or kind not in GROUP_KINDS:
        _fail(f"{where}.kind", f"unknown kind {_shown(kind)}; known: {', '.join(GROUP_KINDS)}")
    if not isinstance(rank, str):  # a rank is a card's name, as written on it: "10", "K"
        _fail(f"{where}.rank", f'expected a rank in quotes such as "10" or "K", got {_shown(rank)}')
    if rank:
        ok = {"natural": _NATURAL_RANKS, "wild": _WILD_RANKS}.get(kind, {})
        if rank not in ok:
            known = ", ".join(ok) if ok else f"none ({_a(kind)} names no rank)"
            _fail(f"{where}.rank", f"unknown rank {_shown(rank)} for {_a(kind)}; known: {known}")
    most = int(E.KIND_COPIES[_WILD_RANKS[rank]]) if rank in _WILD_RANKS else _MAX_SIZE[kind]
    if kind == "three" and size > 1:
        _fail(f"{where}.size", "SPECIAL-2: a hand holds at most one three (DEAL-5)")
    if size > most:  # CARD-1
        what = f"a group of {rank}" if rank else _a(kind)
        _fail(f"{where}.size", f"{what} holds at most {_cards(most)}, not {size}")
    return Group(size, kind, rank)


def _hand(data: Any, where: str) -> Hand:
    if not isinstance(data, Mapping):
        _fail(where, f"a hand is a table with name, award, groups; got {_shown(data)}")
    keys = {"name", "award", "groups", "wins_game", "max_wild_groups"}
    unknown = sorted(set(data) - keys)
    if unknown:
        _fail(f"{where}.{_key(unknown[0])}", f"unknown key; a hand has {', '.join(sorted(keys))}")
    name = check_name(data.get("name"), f"{where}.name")
    where = f"{where} ({name})"
    award = data.get("award")
    if isinstance(award, bool) or not isinstance(award, int):
        _fail(f"{where}.award", f"expected a whole number, got {_shown(award)}")
    _check_award(award, where)
    wins = data.get("wins_game", False)
    if not isinstance(wins, bool):
        _fail(f"{where}.wins_game", f"expected true or false, got {_shown(wins)}")
    cap = data.get("max_wild_groups", 2)
    if isinstance(cap, bool) or not isinstance(cap, int) or not 0 <= cap <= 2:
        _fail(f"{where}.max_wild_groups", f"expected 0, 1 or 2, got {_shown(cap)}")
    raw = data.get("groups")
    if not isinstance(raw, Sequence) or isinstance(raw, str) or not raw:
        _fail(f"{where}.groups", "expected a non-empty list of groups")
    groups = tuple(_group(g, f"{where}.groups[{i}]") for i, g in enumerate(raw))
    hand = Hand(name, groups, award, wins, cap)
    _check_hand(hand, where)
    return hand


def _check_award(award: int, where: str) -> None:
    from sim.limits import MAX_SCORE

    if not 0 <= award <= MAX_SCORE:  # SPECIAL-9: like every score; kernels add them in int64
        _fail(
            f"{where}.award", f"must be a whole number from 0 to {MAX_SCORE:,}, got {_shown(award)}"
        )


def _check_hand(hand: Hand, where: str) -> None:
    """Refuse a hand whose award is out of bounds, that breaks SPECIAL-1/2, or that no 14
    cards can form (SPECIAL-9)."""
    _check_award(hand.award, where)
    if hand.size != E.SPECIAL_HAND_SIZE:  # SPECIAL-1
        _fail(f"{where}.groups", f"the groups hold {_cards(hand.size)}, not 14")
    kinds = [g.kind for g in hand.groups]
    fixed = [g.rank for g in hand.groups if g.rank]
    if len(set(fixed)) < len(fixed):
        _fail(f"{where}.groups", "two groups name the same rank (groups are of different kinds)")
    if kinds.count("three") > 1:
        _fail(f"{where}.groups", "SPECIAL-2: at most one three, the Straight's (DEAL-5)")
    if kinds.count("any_wild") > 1:  # two would be one group of their sizes' sum
        _fail(f"{where}.groups", "at most one any_wild group (wild cards of any mix)")
    if kinds.count("wild") > hand.max_wild_groups:
        _fail(f"{where}.max_wild_groups", "fewer than the hand's matching wild groups")
    if "three" in kinds and not _STRAIGHT_RANKS <= set(fixed):
        _fail(
            f"{where}.groups",
            "SPECIAL-2: a three only in a Straight, a hand naming one card of every rank "
            "(DEAL-5: a player keeps a three for nothing else)",
        )
    if _example(hand) is None:
        _fail(f"{where}.groups", "no 14 cards of the deck form these groups")


#: SPECIAL-2, DEAL-5: the ranks a hand holding a three names, as the Straight does
_STRAIGHT_RANKS = {*_NATURAL_RANKS, "2"}


def _example(hand: Hand) -> dict[int, int] | None:
    """Counts per kind of one set of cards forming ``hand`` (``matches`` says yes), or None
    if none exists: a search giving each group a kind of its own.

    Complete because the free natural ranks are interchangeable (each has 8 cards and no
    rule of SPECIAL-9 tells them apart), so a free natural group takes the first unused
    one; the wild kinds differ (8 twos, 4 jokers), so each is tried; an ``any_wild`` group,
    placed last, adds every split between jokers and twos to the cards the others hold."""
    named = {g.rank for g in hand.groups}
    naturals = [k for k in E.NATURAL_KINDS if E.KIND_NAMES[k] not in named]
    wilds = [k for k in E.WILD_KINDS if E.KIND_NAMES[k] not in named]
    order = sorted(range(len(hand.groups)), key=lambda i: hand.groups[i].kind == "any_wild")

    def options(g: Group, counts: dict[int, int], nat: list[int]) -> list[dict[int, int]]:
        if g.kind == "three":
            return [{E.RED_THREE: g.size}]
        if g.rank:
            return [{_NATURAL_RANKS.get(g.rank, _WILD_RANKS.get(g.rank)): g.size}]
        if g.kind == "any_wild":  # any twos and jokers, beside the others' (``matches``)
            return [{E.JOKER: j, E.TWO: g.size - j} for j in range(g.size + 1)]
        out = [{nat[0]: g.size}] if g.kind in ("natural", "either") and nat else []
        if g.kind in ("wild", "either"):
            out += [{k: g.size} for k in wilds if k not in counts]
        return out

    def place(i: int, counts: dict[int, int]) -> dict[int, int] | None:
        if i == len(order):
            arr = [counts.get(k, 0) for k in range(E.N_KINDS)]
            return dict(counts) if matches(hand, arr) else None
        nat = [k for k in naturals if k not in counts]
        g = hand.groups[order[i]]
        for opt in options(g, counts, nat):
            if g.kind == "any_wild":  # added to the kinds the other groups hold
                opt = {k: counts.get(k, 0) + n for k, n in opt.items() if n}
            elif any(k in counts for k in opt):
                continue  # groups of different kinds (SPECIAL-8)
            if any(n > E.KIND_COPIES[k] for k, n in opt.items()):
                continue  # CARD-1
            got = place(i + 1, {**counts, **opt})
            if got is not None:
                return got
        return None

    return place(0, {})


def catalogue_from(value: Any) -> tuple[Hand, ...]:
    """The catalogue of a ``special_hands`` value: a preset name or a list of hand tables."""
    if isinstance(value, str):
        if value not in PRESETS:
            _fail(
                "'special_hands'",
                f"expected one of {', '.join(PRESETS)} or a list of hands, got {_shown(value)}",
            )
        return PRESETS[value]
    if isinstance(value, Sequence) and value and all(isinstance(h, Hand) for h in value):
        for i, h in enumerate(value):
            _check_hand(h, f"special_hands[{i}] ({h.name})")
        hands = tuple(value)
    else:
        if not isinstance(value, Sequence) or isinstance(value, str | bytes):
            _fail(
                "'special_hands'",
                f"expected a preset name or a list of hands, got {_shown(value)}",
            )
        if not value:  # SPECIAL-7: an empty list would silently mean none; clubs write "none"
            _fail(
                "'special_hands'",
                'an empty list; write special_hands = "none" for a game without special hands',
            )
        hands = tuple(_hand(h, f"special_hands[{i}]") for i, h in enumerate(value))
    names = [h.name for h in hands]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup:
        _fail("'special_hands'", f"two hands are named {_shown(dup)}")
    return hands


def _kind_counts(counts) -> tuple[list[int], int, int, int]:
    nat = [int(counts[k]) for k in E.NATURAL_KINDS]
    return (
        nat,
        int(counts[E.TWO]),
        int(counts[E.JOKER]),
        int(counts[E.RED_THREE] + counts[E.BLACK_THREE]),
    )


def matches(hand: Hand, counts) -> bool:
    """Do the cards ``counts`` (per kind) form ``hand`` exactly? (SPECIAL-8/9, SPECIAL-2).

    An ``any_wild`` group is any wild cards, twos or jokers or both, whatever the other groups
    hold (docs/rules.md, SPECIAL-9): the cards form the hand if, for some split of that group
    between jokers and twos, the cards left form the other groups."""
    counts = [int(c) for c in counts]
    any_wild = [g.size for g in hand.groups if g.kind == "any_wild"]
    if not any_wild:
        return _groups_match(hand, counts)
    w = any_wild[0]
    for jokers in range(w + 1):
        if counts[E.JOKER] >= jokers and counts[E.TWO] >= w - jokers:
            rest = list(counts)
            rest[E.JOKER] -= jokers
            rest[E.TWO] -= w - jokers
            if _groups_match(hand, rest):
                return True
    return False


def _groups_match(hand: Hand, counts) -> bool:
    """``matches`` for the hand's groups other than its ``any_wild`` one: every kind a group
    names by rank held that many times, every other kind held one group of its count."""
    held = {k: int(counts[k]) for k in range(E.N_KINDS) if counts[k]}
    threes = held.pop(E.RED_THREE, 0) + held.pop(E.BLACK_THREE, 0)
    want_three = sum(g.size for g in hand.groups if g.kind == "three")
    if threes != want_three:  # SPECIAL-2: a three only where a group wants it
        return False
    free = []
    for g in hand.groups:
        if g.kind in ("three", "any_wild"):
            continue
        if g.rank:
            k = _NATURAL_RANKS.get(g.rank, _WILD_RANKS.get(g.rank))
            if held.pop(k, 0) != g.size:
                return False
        else:
            free.append(g)
    n_wild = sum(1 for g in hand.groups if g.rank in _WILD_RANKS) + sum(
        1 for k in held if k in E.WILD_KINDS
    )
    if n_wild > hand.max_wild_groups:
        return False
    # every remaining kind held is one group of its size: Hall's condition per size
    for s in {*(g.size for g in free), *held.values()}:
        nat = sum(1 for k, c in held.items() if c == s and k not in E.WILD_KINDS)
        wil = sum(1 for k, c in held.items() if c == s and k in E.WILD_KINDS)
        gn = sum(1 for g in free if g.size == s and g.kind == "natural")
        gw = sum(1 for g in free if g.size == s and g.kind == "wild")
        ge = sum(1 for g in free if g.size == s and g.kind == "either")
        if nat + wil != gn + gw + ge or nat > gn + ge or wil > gw + ge:
            return False
    return True


def best_hand(catalogue: Sequence[Hand], counts) -> int:
    """Index of the hand ``counts`` is declared as: of those it forms, the highest award,
    first in the list on a tie (SPECIAL-8); -1 if none."""
    best = -1
    for i, hand in enumerate(catalogue):
        if matches(hand, counts) and (best < 0 or hand.award > catalogue[best].award):
            best = i
    return best


def describe(catalogue: Sequence[Hand]) -> list[str]:
    """Each hand of a catalogue in words, one line a hand."""
    words = {
        "natural": "natural",
        "wild": "matching wild",
        "either": "natural or matching wild",
        "any_wild": "wild cards of any mix",
        "three": "three",
    }
    lines = []
    for h in catalogue:
        parts, seen = [], []
        for g in h.groups:  # equal groups once, counted: "7 groups of 2 natural"
            if g in seen:
                continue
            seen.append(g)
            n = h.groups.count(g)
            lead = f"{n} groups of " if n > 1 else ""
            what = f"{g.size} of {g.rank}" if g.rank else f"{g.size} {words[g.kind]}"
            parts.append(f"{lead}{what}")
        cap = " (at most one matching wild group)" if h.max_wild_groups == 1 else ""
        wins = ", and the team wins the game (SPECIAL-10)" if h.wins_game else ""
        lines.append(f"{h.name}: {', '.join(parts)}{cap}; {h.award:,}{wins}")
    return lines


def _plain(hand: Hand) -> tuple:
    """A hand without its rule ID: what a list written in a file can say."""
    return (hand.name, hand.groups, hand.award, hand.wins_game, hand.max_wild_groups)


def preset_name(catalogue: Sequence[Hand]) -> str | None:
    """The SPECIAL-7 preset a list is, hand for hand (its rule IDs aside), or None."""
    plain = [_plain(h) for h in catalogue]
    for name, preset in PRESETS.items():
        if plain == [_plain(h) for h in preset]:
            return name
    return None


def to_tables(catalogue: Sequence[Hand]) -> list[dict[str, Any]]:
    """A list as the ``[[special_hands]]`` tables of a ruleset file (``catalogue_from`` reads
    them back to the same hands)."""
    out = []
    for h in catalogue:
        groups = []
        for g in h.groups:
            row: dict[str, Any] = {"size": g.size, "kind": g.kind}
            if g.rank:
                row["rank"] = g.rank
            groups.append(row)
        row = {"name": h.name, "award": h.award, "groups": groups}
        if h.wins_game:
            row["wins_game"] = True
        if h.max_wild_groups != 2:
            row["max_wild_groups"] = h.max_wild_groups
        out.append(row)
    return out


def _group_kinds(g: Group) -> tuple[int, int]:
    """Fewest and most kinds of non-three cards a group takes."""
    if g.kind == "three":
        return 0, 0
    if g.kind == "any_wild":  # its twos or jokers may be another group's kind too
        return 0, 2
    return 1, 1


def encode(catalogue: Sequence[Hand], arr) -> None:
    """Write a list into the ruleset array (layout RS_CATALOGUE*/CH_* in ``sim.encoding``):
    one CH_WIDTH row a hand, in list order (its special code is its place + 1), and the ODDS-1
    bounds of the sampler (RS_CAT_*)."""
    if len(catalogue) > E.MAX_CATALOGUE:
        _fail("'special_hands'", f"at most {E.MAX_CATALOGUE} hands, got {len(catalogue)}")
    arr[E.RS_CATALOGUE_N] = len(catalogue)
    most, few3, most3 = 0, E.SPECIAL_HAND_SIZE + 1, 0
    for i, h in enumerate(catalogue):
        row = arr[E.RS_CATALOGUE + i * E.CH_WIDTH : E.RS_CATALOGUE + (i + 1) * E.CH_WIDTH]
        row[:] = 0
        row[E.CH_AWARD] = h.award
        row[E.CH_WINS_GAME] = int(h.wins_game)
        row[E.CH_MAX_WILD] = h.max_wild_groups
        row[E.CH_ANY_WILD] = -1
        row[E.CH_FIXED : E.CH_FIXED + E.N_KINDS] = -1
        for g in h.groups:
            if g.kind == "three":
                row[E.CH_THREES] += g.size
            elif g.rank:
                row[E.CH_FIXED + _NATURAL_RANKS.get(g.rank, _WILD_RANKS.get(g.rank))] = g.size
            elif g.kind == "any_wild":
                row[E.CH_ANY_WILD] = g.size
            else:
                col = {"natural": E.CH_NATURAL, "wild": E.CH_WILD, "either": E.CH_EITHER}
                row[col[g.kind] + g.size] += 1
                row[E.CH_SIZES] |= 1 << g.size
        lo = sum(_group_kinds(g)[0] for g in h.groups)
        hi = sum(_group_kinds(g)[1] for g in h.groups)
        if row[E.CH_THREES]:
            few3, most3 = min(few3, lo), max(most3, hi)
        else:
            most = max(most, hi)
    arr[E.RS_CAT_MAX_DISTINCT] = most
    arr[E.RS_CAT_MIN_KINDS3] = few3
    arr[E.RS_CAT_MAX_KINDS3] = most3
