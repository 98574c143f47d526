"""SPECIAL-8/9 (and SPECIAL-2): the catalogue classifier kernel (``sim.special.hand_matches``
reading the ruleset array's table) against two readings of its own: the sets of count vectors
built group by group (``sim.odds.hand_vectors``) and the plain matcher (``sim.catalogue``)."""

import tomllib
from pathlib import Path

import numpy as np
import pytest

from sim import encoding as E
from sim.catalogue import CLA, TOURNAMENT, best_hand, catalogue_from, matches
from sim.odds import NATURAL_ORDER, Deck, hand_vectors
from sim.ruleset import Ruleset
from sim.special import classify_special, matched_many
from tests.helpers import few_kind_vectors, neighbour_vectors

ROOT = Path(__file__).resolve().parents[1]
CLUB = catalogue_from(
    tomllib.loads((ROOT / "rules" / "club-example.toml").read_text())["special_hands"]
)
LISTS = {"tournament": TOURNAMENT, "cla": CLA, "club": CLUB}
#: sim.odds' vector index -> sim.encoding kind
_KIND_OF = [E.KIND_NAMES.index(n) for n in NATURAL_ORDER] + [E.TWO, E.JOKER]


def _rows(vectors, three):
    """Count vectors of sim.odds' vectors; a hand with a three once with each colour."""
    base = np.zeros((len(vectors), E.N_KINDS), dtype=np.int64)
    if len(vectors):
        base[:, _KIND_OF] = np.array(sorted(vectors), dtype=np.int64)
    if not three:
        return base
    red, black = base.copy(), base.copy()
    red[:, E.RED_THREE] = 1
    black[:, E.BLACK_THREE] = 1
    return np.concatenate([red, black])


def _built(hands):
    """Every count vector of every hand of a list, with the hands (bit mask) it is built for."""
    want = {}
    for i, h in enumerate(hands):
        vectors, three = hand_vectors(Deck(), h)
        assert vectors, h.name
        for row in _rows(vectors, three):
            key = tuple(row)
            want[key] = want.get(key, 0) | (1 << i)
    return want


def _masks(rows, rules):
    out = np.empty(len(rows), dtype=np.int64)
    matched_many(np.ascontiguousarray(rows), rules, out)
    return out


@pytest.mark.parametrize("name", list(LISTS))
def test_special_8_9_kernel_exact_on_every_hand_of_the_list_and_itsneighbour_vectors(name):
    """SPECIAL-8/9 in both directions: every count vector of every hand of the list is formed
    by exactly the hands it was built for (the kernel's mask equals the built one), and so are
    every 14-card vector of at most three kinds and every vector one card from a seeded
    sample of 3,000 hands of the list (13, 14, 15 cards): exactly the built vectors match."""
    hands = LISTS[name]
    rules = Ruleset(special_hands=hands).to_array()
    want = _built(hands)
    rows = np.array(list(want), dtype=np.int64)
    got = _masks(rows, rules)
    bad = [r.tolist() for r, g in zip(rows, got, strict=True) if g != want[tuple(r)]]
    assert not bad, bad[:3]
    rng = np.random.default_rng(32)
    sample = rows[rng.choice(len(rows), min(3000, len(rows)), replace=False)]
    others = np.concatenate([few_kind_vectors(max_kinds=3), neighbour_vectors(sample)])
    got = _masks(others, rules)
    expect = np.array([want.get(tuple(r), 0) for r in others.tolist()])
    bad = np.flatnonzero(got != expect)
    assert not len(bad), [others[i].tolist() for i in bad[:3]]
    assert len(others) > 10_000


@pytest.mark.parametrize("name", list(LISTS))
def test_special_8_9_kernel_agrees_with_the_plain_matcher(name):
    """SPECIAL-8/9: kernel == ``sim.catalogue.matches`` hand by hand, and the declared code ==
    ``best_hand`` + 1 (highest award, SPECIAL-8), on a seeded sample of 1,500 hands of the
    list, 1,500 of their neighbours and 1,500 uniform 14-card deals."""
    hands = LISTS[name]
    rules = Ruleset(special_hands=hands).to_array()
    rng = np.random.default_rng(33)
    rows = np.array(list(_built(hands)), dtype=np.int64)
    near = neighbour_vectors(rows[rng.choice(len(rows), min(200, len(rows)), replace=False)])
    deals = np.zeros((1500, E.N_KINDS), dtype=np.int64)
    for d in range(1500):
        np.add.at(deals[d], E.CARD_KIND[rng.choice(E.N_CARDS, 14, replace=False)], 1)
    pick = lambda a: a[rng.choice(len(a), min(1500, len(a)), replace=False)]  # noqa: E731
    rows = np.concatenate([pick(rows), pick(near), deals])
    got = _masks(rows, rules)
    for row, mask in zip(rows, got, strict=True):
        plain = sum(1 << i for i, h in enumerate(hands) if matches(h, row))
        assert mask == plain, (row.tolist(), mask, plain)
        assert classify_special(row, rules) == best_hand(hands, row) + 1
    assert got.any() and (got == 0).any()


def test_special_3_to_6_tournament_codes_unchanged():
    """SPECIAL-3..6: under the default list the codes are today's (records unchanged)."""
    rules = Ruleset().to_array()
    assert [h.name for h in TOURNAMENT] == list(E.SPECIAL_NAMES[1:])
    assert rules[E.RS_CATALOGUE_N] == 4 and rules[E.RS_SPECIAL_HANDS] == E.SPECIALS_ON
    assert Ruleset(special_hands="none").to_array()[E.RS_CATALOGUE_N] == 0


def test_special_8_highest_award_declared_and_cla_awards():
    """SPECIAL-8: awards as listed; a hand forming two hands of a list is the higher award."""
    from sim.catalogue import Group, Hand
    from sim.special import special_award, wins_game

    rules = Ruleset(special_hands="cla").to_array()
    assert [special_award(i + 1, rules) for i in range(len(CLA))] == [h.award for h in CLA]
    assert [wins_game(i + 1, rules) for i in range(len(CLA))] == [h.wins_game for h in CLA]
    # two hands with the same cards: 4-4-3-3 naturals is both; the 3,000 one is declared
    low = Hand("low", tuple(Group(n) for n in (4, 4, 3, 3)), 1000)
    high = Hand("high", tuple(Group(n, "either") for n in (4, 4, 3, 3)), 3000)
    rules = Ruleset(special_hands=(low, high)).to_array()
    c = np.zeros(E.N_KINDS, dtype=np.int64)
    c[[E.FOUR, E.FIVE]] = 4
    c[[E.SIX, E.NINE]] = 3
    assert classify_special(c, rules) == 2 and _masks(c[None], rules)[0] == 3
