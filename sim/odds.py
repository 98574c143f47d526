"""Exact odds of being dealt a special hand (ODDS-1), in plain Python with Fractions.

The model (ODDS-1, stated in ``MODEL``): the first player's dealt hand. For Pairs, Pairs with
twos-sevens-aces and Garbage it is a uniform ``hand`` of the deck's non-three cards; for the
Straight it is the first three received plus the first ``hand - 1`` non-three cards received,
so a Straight needs (a) a three among the first ``hand`` cards of the shuffled deck and (b) the
first ``hand - 1`` non-threes to be one of each natural, one two and one joker. Shuffling makes
the order of the non-threes independent of where the threes sit, so P = P(a) * P(b).

Counting is done over a parametrised ``Deck`` (copies per natural rank, natural ranks, twos,
jokers, threes, and the shapes of the hands), so a test can enumerate a small deck by brute
force and compare exactly. An event is a set of *count vectors* over the non-three kinds
(naturals 0..n-1 with the featured ranks, sevens and aces, first; then twos; then jokers); a
vector's probability is multivariate hypergeometric. Unions are unions of vector sets, and the
Straight's overlap with the others is counted from the vectors too, so nothing is assumed
disjoint.
"""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction
from math import comb, prod

__all__ = ["deck_odds", "exact_odds", "model_statement"]

#: names of the exact odds, in report order
NAMES = ("straight", "pairs", "pairs_twos_sevens_aces", "garbage", "any")

_DEALT = (
    "ODDS-1 model: the dealt hand is that of the player who plays first, the 14 cards held "
    "after the first stock draw of the first turn with every three laid down and replaced. "
)
_LATER = (
    "Exact values by counting; the odds of making a special hand later in play are measured "
    "by simulation only."
)
#: the model statement under the tournament list (the default; ``model_statement`` for any)
MODEL = (
    _DEALT + "Pairs, Pairs with twos-sevens-aces and Garbage: a uniformly random 14 of the 100 "
    "non-three cards. Straight: at least one three among the player's first 14 cards "
    "(dealt, then stock) and the first 13 non-three cards received are one each of "
    "A, 2, 4..K and a joker (the kept three completes it, DEAL-5). 'Any' is the union of "
    "these events in one deal. " + _LATER
)


def model_statement(ruleset=None) -> str:
    """ODDS-1: the model statement for the special-hand list in force (SPECIAL-7..9): the
    tournament list's ``MODEL``, or the same model in words naming the list's hands, those
    with a three (a Straight's model) apart."""
    from sim.ruleset import as_ruleset

    rules = as_ruleset(ruleset)
    hands = rules.catalogue
    if not hands:
        return _DEALT + "Special hands are off (SPECIAL-7 'none'): every odds is 0. " + _LATER
    if rules.special_hands == "tournament":
        return MODEL
    three = [h.name for h in hands if any(g.kind == "three" for g in h.groups)]
    plain = [h.name for h in hands if h.name not in three]
    text = _DEALT + f"Special-hand list: {rules.list_name} ({len(hands)} hands). "
    if plain:
        text += f"{', '.join(plain)}: a uniformly random 14 of the 100 non-three cards. "
    if three:
        text += (
            f"{', '.join(three)}: at least one three among the player's first 14 cards (dealt, "
            "then stock) and the first 13 non-three cards received complete the hand (the kept "
            "three completes it, DEAL-5). "
        )
    return text + "'Any' is the union of these events in one deal, overlaps counted. " + _LATER


@dataclasses.dataclass(frozen=True)
class Deck:
    """A deck and the special-hand shapes, parametrised (defaults: the real game)."""

    copies: int = 8  #: CARD-1: copies of each natural rank (two packs)
    naturals: int = 11  #: CARD-2: natural ranks A, 4..K
    twos: int = 8  #: CARD-2
    jokers: int = 4  #: CARD-1
    threes: int = 8  #: CARD-2: red and black together
    featured: int = 2  #: SPECIAL-5: natural ranks needing a pair besides the twos (7s, As)
    pairs: int = 7  #: SPECIAL-4/5: pairs in the hand
    garbage: tuple[int, ...] = (4, 4, 3, 3)  #: SPECIAL-6: group sizes of distinct ranks
    hand: int = 14  #: SPECIAL-1

    @property
    def two(self) -> int:
        """Index of the twos in a count vector."""
        return self.naturals

    @property
    def joker(self) -> int:
        """Index of the jokers in a count vector."""
        return self.naturals + 1

    @property
    def kinds(self) -> int:
        return self.naturals + 2

    def kind_copies(self) -> tuple[int, ...]:
        return (self.copies,) * self.naturals + (self.twos, self.jokers)

    @property
    def non_threes(self) -> int:
        return sum(self.kind_copies())

    @property
    def size(self) -> int:
        return self.non_threes + self.threes


def _vector(deck: Deck, groups: dict[int, int]) -> tuple[int, ...]:
    v = [0] * deck.kinds
    for kind, n in groups.items():
        v[kind] = n
    return tuple(v)


def _possible(deck: Deck, v: tuple[int, ...], size: int) -> bool:
    return sum(v) == size and all(n <= c for n, c in zip(v, deck.kind_copies(), strict=True))


def straight_vectors(deck: Deck) -> set[tuple[int, ...]]:
    """SPECIAL-3 without its three: one of each natural, one two, one joker (hand - 1 cards)."""
    v = _vector(deck, {k: 1 for k in range(deck.kinds)})
    return {v} if _possible(deck, v, deck.hand - 1) else set()


def pairs_vectors(deck: Deck) -> set[tuple[int, ...]]:
    """SPECIAL-4: ``pairs`` pairs of different natural ranks, no wilds."""
    out = set()
    for ranks in itertools.combinations(range(deck.naturals), deck.pairs):
        v = _vector(deck, dict.fromkeys(ranks, 2))
        if _possible(deck, v, deck.hand):
            out.add(v)
    return out


def pairs_twos_sevens_aces_vectors(deck: Deck) -> set[tuple[int, ...]]:
    """SPECIAL-5: pairs of twos and of each featured rank, the rest natural pairs, no jokers."""
    out = set()
    others = range(deck.featured, deck.naturals)
    for ranks in itertools.combinations(others, deck.pairs - 1 - deck.featured):
        groups = dict.fromkeys((*range(deck.featured), *ranks, deck.two), 2)
        v = _vector(deck, groups)
        if _possible(deck, v, deck.hand):
            out.add(v)
    return out


def garbage_vectors(deck: Deck) -> set[tuple[int, ...]]:
    """SPECIAL-6: groups of the given sizes on different natural ranks, no wilds."""
    out = set()
    for ranks in itertools.permutations(range(deck.naturals), len(deck.garbage)):
        v = _vector(deck, dict(zip(ranks, deck.garbage, strict=True)))
        if _possible(deck, v, deck.hand):
            out.add(v)
    return out


def vector_probability(deck: Deck, v: tuple[int, ...]) -> Fraction:
    """P(a uniform sum(v) of the non-threes has exactly the counts v): hypergeometric."""
    ways = prod(comb(c, n) for c, n in zip(deck.kind_copies(), v, strict=True))
    return Fraction(ways, comb(deck.non_threes, sum(v)))


def three_among_first(deck: Deck) -> Fraction:
    """P(at least one three among the first ``hand`` cards of the shuffled deck)."""
    return 1 - Fraction(comb(deck.size - deck.threes, deck.hand), comb(deck.size, deck.hand))


def straight_overlap(deck: Deck, core: set, others: set) -> Fraction:
    """P(first hand-1 non-threes are a Straight core and the first ``hand`` lie in ``others``),
    summed over the kind of the hand-th non-three; multiply by three_among_first for the event."""
    total = Fraction(0)
    copies = deck.kind_copies()
    left = deck.non_threes - (deck.hand - 1)
    for s in core:
        for k in range(deck.kinds):
            extended = tuple(n + (i == k) for i, n in enumerate(s))
            if extended in others:
                total += vector_probability(deck, s) * Fraction(copies[k] - s[k], left)
    return total


def deck_odds(deck: Deck) -> dict[str, Fraction]:
    """Exact ODDS-1 probabilities for a parametrised deck."""
    core = straight_vectors(deck)
    sets = {
        "pairs": pairs_vectors(deck),
        "pairs_twos_sevens_aces": pairs_twos_sevens_aces_vectors(deck),
        "garbage": garbage_vectors(deck),
    }
    p3 = three_among_first(deck)
    odds = {"straight": p3 * sum((vector_probability(deck, s) for s in core), Fraction(0))}
    for name, vectors in sets.items():
        odds[name] = sum((vector_probability(deck, v) for v in vectors), Fraction(0))
    union = set().union(*sets.values())  # a hand counted once even if it has two shapes
    p_union = sum((vector_probability(deck, v) for v in union), Fraction(0))
    both = p3 * straight_overlap(deck, core, union)
    odds["any"] = odds["straight"] + p_union - both  # inclusion-exclusion
    return {name: odds[name] for name in NAMES}


#: the real deck's natural ranks in Deck vector order (the featured sevens and aces first); a
#: small Deck has the first ``naturals`` of them
NATURAL_ORDER = ("7", "A", "4", "5", "6", "8", "9", "10", "J", "Q", "K")


def _kind_index(deck: Deck, rank: str) -> int | None:
    """Deck vector index of a rank a group names (None: the deck has no such rank)."""
    if rank == "2":
        return deck.two
    if rank == "JK":
        return deck.joker
    names = NATURAL_ORDER[: deck.naturals]
    return names.index(rank) if rank in names else None


def hand_vectors(deck: Deck, hand) -> tuple[set[tuple[int, ...]], bool]:
    """SPECIAL-8/9: every count vector of non-threes forming ``hand`` (a ``sim.catalogue.Hand``)
    on ``deck``, and whether the hand holds a three (then the vectors are its ``hand - 1``
    non-threes, the Straight's model). Built from the groups, not by testing vectors: each
    group takes a kind of its own (SPECIAL-8), equal groups taking a combination of kinds; an
    ``any_wild`` group then adds every split between jokers and twos to each vector of the
    other groups (any wild cards, beside theirs: ``sim.catalogue.matches``)."""
    need_three = sum(g.size for g in hand.groups if g.kind == "three")
    rest = [g for g in hand.groups if g.kind != "three"]
    size = deck.hand - need_three
    copies = deck.kind_copies()
    wilds = (deck.two, deck.joker)
    if need_three > 1 or sum(g.size for g in rest) != size:
        return set(), bool(need_three)
    base = [0] * deck.kinds
    n_wild = 0
    for g in rest:
        if g.rank:
            k = _kind_index(deck, g.rank)
            if k is None or base[k] or copies[k] < g.size:
                return set(), bool(need_three)
            base[k] = g.size
            n_wild += k in wilds
    any_wild = [g.size for g in rest if g.kind == "any_wild"]
    classes: dict[tuple[str, int], int] = {}
    for g in rest:
        if not g.rank and g.kind != "any_wild":
            classes[(g.kind, g.size)] = classes.get((g.kind, g.size), 0) + 1
    order = sorted(classes.items(), key=lambda kv: (-kv[0][1], kv[0][0]))
    naturals = tuple(range(deck.naturals))
    eligible = {"natural": naturals, "wild": wilds, "either": naturals + wilds}
    out: set[tuple[int, ...]] = set()

    def place(i, v, n_w):
        if i == len(order):
            out.add(tuple(v))
            return
        (kind, gsize), m = order[i]
        free = [k for k in eligible[kind] if not v[k] and copies[k] >= gsize]
        for ks in itertools.combinations(free, m):
            w = n_w + sum(k in wilds for k in ks)
            if n_w >= 0 and w > hand.max_wild_groups:
                continue
            nv = list(v)
            for k in ks:
                nv[k] = gsize
            place(i + 1, nv, w)

    if n_wild <= hand.max_wild_groups:
        place(0, base, n_wild)
    if any_wild:  # the wild cards of any mix: every split between jokers and twos, added
        w, grouped, out = any_wild[0], out, set()
        for v in grouped:
            for j in range(w + 1):
                nv = list(v)
                nv[deck.joker] += j
                nv[deck.two] += w - j
                if nv[deck.joker] <= copies[deck.joker] and nv[deck.two] <= copies[deck.two]:
                    out.add(tuple(nv))
    return out, bool(need_three)


def _ways(deck: Deck, vectors) -> int:
    """Hands of sum(v) non-threes, over all ``vectors``: sum of prod C(copies, count)."""
    copies = deck.kind_copies()
    return sum(prod(comb(c, n) for c, n in zip(copies, v, strict=True)) for v in vectors)


def catalogue_odds(hands, deck: Deck | None = None) -> dict[str, Fraction]:
    """ODDS-1 exact probability of every hand of a list (SPECIAL-7..9) and of "any" (the
    union of the list's events in one deal, overlaps counted), on ``deck`` (the real one by
    default). A hand with a three follows the Straight's model; two hands sharing a vector
    (the same cards form both) count that deal once in "any"."""
    deck = deck or Deck()
    p3 = three_among_first(deck)
    odds: dict[str, Fraction] = {}
    cores: set = set()
    others: set = set()
    for h in hands:
        vectors, three = hand_vectors(deck, h)
        n = deck.hand - 1 if three else deck.hand
        p = Fraction(_ways(deck, vectors), comb(deck.non_threes, n))
        odds[h.name] = p3 * p if three else p
        (cores if three else others).update(vectors)
    p_core = Fraction(_ways(deck, cores), comb(deck.non_threes, deck.hand - 1))
    p_other = Fraction(_ways(deck, others), comb(deck.non_threes, deck.hand))
    both = p3 * straight_overlap(deck, cores, others) if cores and others else Fraction(0)
    odds["any"] = p3 * p_core + p_other - both  # inclusion-exclusion
    return odds


def exact_odds(ruleset=None) -> dict[str, Fraction]:
    """ODDS-1 exact odds of the dealt special hands of the list in force (SPECIAL-7..9): one
    entry a hand, in list order, then "any" (only "any", 0, if SPECIAL-7 'none')."""
    from sim.ruleset import as_ruleset

    return catalogue_odds(as_ruleset(ruleset).catalogue)
