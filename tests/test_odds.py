"""Exact dealt odds (ODDS-1): brute force on small decks, the real deck's closed forms, and
agreement with the SPECIAL-3..6 classifier."""

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from sim import encoding as E
from sim.odds import (
    MODEL,
    NAMES,
    Deck,
    deck_odds,
    exact_odds,
    garbage_vectors,
    pairs_twos_sevens_aces_vectors,
    pairs_vectors,
    straight_vectors,
)
from sim.ruleset import Ruleset
from sim.special import classify_special
from tests.helpers import deal_outcomes


def classify_small(deck, v):
    """The special shapes of a hand of non-threes, read plainly from its counts (not from
    sim.odds' constructions): a set of names."""
    nat = v[: deck.naturals]
    twos, jokers = v[deck.two], v[deck.joker]
    held = sorted(n for n in nat if n)
    names = set()
    if jokers == 0 and twos == 0 and held == [2] * deck.pairs:
        names.add("pairs")
    featured_pairs = all(nat[i] == 2 for i in range(deck.featured))
    if jokers == 0 and twos == 2 and featured_pairs and held == [2] * (deck.pairs - 1):
        names.add("pairs_twos_sevens_aces")
    if jokers == 0 and twos == 0 and held == sorted(deck.garbage):
        names.add("garbage")
    return names


def brute_force(deck):
    """ODDS-1 by following the deal card by card over every possible order of a small deck.

    The deck is shuffled; the player receives its cards in order. Outcome of a deal: whether a
    three came among the first ``hand`` cards, the first ``hand`` non-threes, and the kind of
    the last of them. A forward pass over all draw sequences (grouped by these facts, which is
    all the future depends on, ``tests.helpers.deal_outcomes``) gives each outcome's exact
    probability.
    """
    odds = dict.fromkeys(NAMES, Fraction(0))
    for (flag, v, last), p in deal_outcomes(deck).items():
        first = tuple(n - (i == last) for i, n in enumerate(v))  # first hand-1 non-threes
        straight = flag and all(n == 1 for n in first) and sum(first) == deck.hand - 1
        shapes = classify_small(deck, v)
        for name in shapes:
            odds[name] += p
        odds["straight"] += p * straight
        odds["any"] += p * (straight or bool(shapes))
    return odds


SMALL_DECKS = [
    # every shape possible, 6-card hands
    Deck(copies=3, naturals=3, twos=2, jokers=1, threes=2, pairs=3, garbage=(3, 3), hand=6),
    # Garbage shape equal to Pairs: the union must count those hands once
    Deck(copies=4, naturals=3, twos=2, jokers=1, threes=3, pairs=3, garbage=(2, 2, 2), hand=6),
    # four of a kind in Garbage, one featured rank, more naturals than pairs
    Deck(
        copies=4,
        naturals=3,
        twos=3,
        jokers=2,
        threes=1,
        featured=1,
        pairs=3,
        garbage=(4, 2),
        hand=6,
    ),
]


@pytest.mark.parametrize("deck", SMALL_DECKS, ids=["all-shapes", "garbage-is-pairs", "quads"])
def test_odds_1_counting_matches_brute_force_on_small_decks(deck):
    """ODDS-1: the counting equals a card-by-card enumeration of every deal, exactly."""
    got, want = deck_odds(deck), brute_force(deck)
    assert got == want
    assert all(0 < got[name] for name in NAMES if name != "any")


def test_odds_1_union_is_not_the_sum_when_shapes_overlap():
    """ODDS-1 'any' is the union: a hand with two shapes counts once."""
    deck = SMALL_DECKS[1]
    odds = deck_odds(deck)
    assert odds["pairs"] == odds["garbage"]
    total = odds["straight"] + odds["pairs"] + odds["pairs_twos_sevens_aces"]
    assert odds["any"] == total  # garbage adds nothing beyond pairs


def test_odds_1_real_deck_closed_forms():
    """ODDS-1 on the real deck, written out from the rulebook's description."""
    odds = exact_odds()
    non_threes = comb(100, 14)
    assert odds["pairs"] == Fraction(comb(11, 7) * comb(8, 2) ** 7, non_threes)
    assert odds["pairs_twos_sevens_aces"] == Fraction(comb(9, 4) * comb(8, 2) ** 7, non_threes)
    garbage_ranks = comb(11, 2) * comb(9, 2)
    garbage = Fraction(garbage_ranks * comb(8, 4) ** 2 * comb(8, 3) ** 2, non_threes)
    assert odds["garbage"] == garbage
    three = 1 - Fraction(comb(100, 14), comb(108, 14))
    core = Fraction(8**12 * 4, comb(100, 13))
    assert odds["straight"] == three * core
    # the four events are disjoint in the real game, so the union is their sum
    assert odds["any"] == sum(odds[n] for n in NAMES[:-1])


def test_special_3_to_6_odds_vectors_are_what_the_classifier_calls_them():
    """SPECIAL-3..6: every hand the odds count is classified as that hand by sim.special."""
    deck = Deck()
    rules = Ruleset().to_array()
    # odds' natural index 0..10: featured sevens and aces first, then the other naturals
    naturals = [E.SEVEN, E.ACE, *[k for k in E.NATURAL_KINDS if k not in (E.SEVEN, E.ACE)]]
    kinds = [*naturals, E.TWO, E.JOKER]

    def counts(v, three=False):
        c = np.zeros(E.N_KINDS, dtype=np.int64)
        for i, n in enumerate(v):
            c[kinds[i]] += n
        c[E.RED_THREE] += three
        return c

    expected = [
        (straight_vectors, E.SPECIAL_STRAIGHT, True),
        (pairs_vectors, E.SPECIAL_PAIRS, False),
        (pairs_twos_sevens_aces_vectors, E.SPECIAL_PAIRS_TWOS_SEVENS_ACES, False),
        (garbage_vectors, E.SPECIAL_GARBAGE, False),
    ]
    for build, code, three in expected:
        vectors = build(deck)
        assert vectors
        assert all(classify_special(counts(v, three), rules) == code for v in vectors)
    assert len(pairs_vectors(deck)) == comb(11, 7)
    assert len(garbage_vectors(deck)) == comb(11, 2) * comb(9, 2)


def test_special_7_no_special_hands_no_odds():
    assert all(p == 0 for p in exact_odds({"special_hands": "none"}).values())
    assert exact_odds(Ruleset(garbage_award=3000)) == exact_odds()


def test_model_statement_names_the_rule():
    assert "ODDS-1" in MODEL and "union" in MODEL
