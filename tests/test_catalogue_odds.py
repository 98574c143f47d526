"""ODDS-1 for any special-hand list (SPECIAL-7..9): exact counting against a card-by-card
enumeration of small decks, the real deck's closed forms of the cla list, and the command."""

import json
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from sim import encoding as E
from sim.catalogue import CLA, TOURNAMENT, Group, Hand, matches
from sim.odds import NATURAL_ORDER, Deck, catalogue_odds, deck_odds, exact_odds
from sim.ruleset import Ruleset
from tests.helpers import deal_outcomes


def counts(deck, v, three=False):
    """A small deck's vector as sim.encoding counts (naturals named by sim.odds.NATURAL_ORDER)."""
    c = np.zeros(E.N_KINDS, dtype=np.int64)
    kinds = [E.KIND_NAMES.index(n) for n in NATURAL_ORDER[: deck.naturals]] + [E.TWO, E.JOKER]
    for i, n in enumerate(v):
        c[kinds[i]] += n
    c[E.BLACK_THREE] += three
    return c


def brute_force(deck, hands):
    """ODDS-1 of every hand of a list and of "any", by the plain matcher over every deal."""
    odds = dict.fromkeys([*(h.name for h in hands), "any"], Fraction(0))
    for (flag, v, last), p in deal_outcomes(deck).items():
        plain = counts(deck, v)
        core = tuple(n - (i == last) for i, n in enumerate(v))
        with_three = counts(deck, core, three=True)
        hit = False
        for h in hands:
            if matches(h, plain) or (flag and matches(h, with_three)):
                odds[h.name] += p
                hit = True
        odds["any"] += p * hit
    return odds


def hand_spec(name, spec, cap=2):
    kinds = {"n": "natural", "w": "wild", "e": "either", "x": "any_wild", "t": "three"}
    groups = []
    for tok in spec.split():
        head, size = tok[:-1], int(tok[-1])
        groups.append(Group(size, kinds[head]) if head in kinds else Group(size, "natural", head))
    return Hand(name, tuple(groups), 100, max_wild_groups=cap)


#: 6-card hands on a 3-rank deck (sevens, aces, fours), overlapping on purpose: Zip-like e3 e3
#: holds every n3 n3; the hand with a three (t1 n3 n2) extends to n3 n3 with its 6th card
SMALL_LIST = (
    hand_spec("pairs", "n2 n2 n2"),
    hand_spec("wild_pair", "A2 w2 n2", cap=1),
    hand_spec("two_groups", "e3 e3", cap=1),
    hand_spec("trips", "n3 n3"),
    hand_spec("any_mix", "n3 x3"),
    hand_spec("straight", "t1 71 A1 41 21 JK1"),
    hand_spec("three_and_groups", "t1 n3 n2"),
)
SMALL = Deck(copies=3, naturals=3, twos=2, jokers=1, threes=2, hand=6)


def test_odds_1_any_list_counting_matches_brute_force_on_a_small_deck():
    """ODDS-1, SPECIAL-9: each hand of a list and "any" (union, overlaps counted) counted
    exactly equal a card-by-card enumeration of every deal of a small deck."""
    got, want = catalogue_odds(SMALL_LIST, SMALL), brute_force(SMALL, SMALL_LIST)
    assert got == want
    assert all(p > 0 for p in got.values())
    assert got["trips"] == got["two_groups"]  # 2 twos, 1 joker: no wild group of 3
    assert got["any"] < sum(p for n, p in got.items() if n != "any")  # overlaps counted once


def test_odds_1_any_list_counting_matches_brute_force_with_several_threes_and_jokers():
    """ODDS-1 on a second small deck (4 copies, 3 threes, 2 jokers): exact == enumeration."""
    deck = Deck(copies=4, naturals=3, twos=3, jokers=2, threes=3, hand=6)
    got = catalogue_odds(SMALL_LIST, deck)
    assert got == brute_force(deck, SMALL_LIST)
    assert got["trips"] < got["two_groups"]  # e3 e3 also holds 2-2-2 with a natural three


def test_odds_1_tournament_list_is_todays_counting():
    """SPECIAL-3..6: the list counting gives today's tournament odds exactly."""
    assert catalogue_odds(TOURNAMENT) == deck_odds(Deck())
    assert exact_odds() == deck_odds(Deck())


def test_odds_1_cla_closed_forms():
    """SPECIAL-8 hands on the real deck, written out from the rulebook's table."""
    odds = exact_odds(Ruleset(special_hands="cla"))
    assert list(odds) == [h.name for h in CLA] + ["any"]
    n14 = comb(100, 14)
    pair_w = comb(8, 2) + comb(4, 2)  # a matching wild pair: 2-2 or JK-JK
    assert odds["pairs"] == Fraction(comb(11, 7) * comb(8, 2) ** 7, n14)
    assert odds["wild_pairs"] == Fraction(comb(9, 4) * comb(8, 2) ** 6 * pair_w, n14)
    miami = comb(9, 3) * comb(8, 2) ** 5 * comb(8, 2) * comb(4, 2)
    assert odds["miami_pairs"] == Fraction(miami, n14)
    assert odds["garbage"] == exact_odds()["garbage"]
    assert odds["triples"] == Fraction(comb(11, 4) * comb(8, 3) ** 4 * pair_w, n14)
    assert odds["quads"] == Fraction(comb(11, 3) * comb(8, 4) ** 3 * pair_w, n14)
    dream4 = comb(11, 2) * comb(8, 5) ** 2 * (comb(8, 4) + comb(4, 4))
    assert odds["dream_hand_plus_4"] == Fraction(dream4, n14)
    mixes = sum(comb(4, j) * comb(8, 5 - j) for j in range(5))
    assert odds["dream_hand_plus_5"] == Fraction(11 * 10 * comb(8, 5) * comb(8, 4) * mixes, n14)
    assert odds["straight"] == exact_odds()["straight"]
    # Zip Code: 2,2,3,3,4 of five kinds, at most one of them a matching wild group
    zip_ways = 0
    for wild_size, ways_w in ((0, 1), (2, pair_w), (3, comb(8, 3) + comb(4, 3)), (4, 71)):
        sizes = [2, 2, 3, 3, 4]
        if wild_size:
            sizes.remove(wild_size)
        ranks = 1
        left = 11
        for s in set(sizes):
            m = sizes.count(s)
            ranks *= comb(left, m) * comb(8, s) ** m
            left -= m
        zip_ways += ranks * ways_w
    assert odds["zip_code"] == Fraction(zip_ways, n14)
    # no 14 cards form two cla hands (each fixes its group sizes), so the union is the sum
    assert odds["any"] == sum(p for n, p in odds.items() if n != "any")


def test_odds_1_cli_exact_json_lists_the_cla_hands(capsys):
    """ODDS-1: ``canasta odds --exact --rules rules/cla.toml --format json`` lists all eleven
    hands and "any", exact."""
    from pathlib import Path

    from canasta import main

    root = Path(__file__).resolve().parents[1]
    assert (
        main(["odds", "--exact", "--rules", str(root / "rules" / "cla.toml"), "--format", "json"])
        == 0
    )
    rows = json.loads(capsys.readouterr().out)
    assert list(rows) == [h.name for h in CLA] + ["any"]
    exact = exact_odds(Ruleset(special_hands="cla"))
    for name, row in rows.items():
        assert row["fraction"] == f"{exact[name].numerator}/{exact[name].denominator}"


@pytest.mark.parametrize("preset", ["tournament", "cla"])
def test_odds_1_fast_sampler_agrees_with_exact_on_one_million_deals(preset):
    """ODDS-1: the sampler classifies by the list in force: 10^6 fixed-seed deals, every hand
    whose exact p gives >= 20 expected hits and "any" within 5 standard errors
    sqrt(p(1-p)/n) of exact."""
    from sim.sampling import sample_dealt_odds

    rules = Ruleset(special_hands=preset)
    n = 1_000_000
    r = sample_dealt_odds(n, seed=32, ruleset=rules)
    for name, p in r.exact.items():
        p = float(p)
        if p * n >= 20:
            se = (p * (1 - p) / n) ** 0.5
            assert abs(r.hits[name] / n - p) <= 5 * se, (name, r.hits[name], p * n)


@pytest.mark.slow
def test_odds_1_cla_sampled_on_10_8_deals_within_5_se_of_exact():
    """ODDS-1, SPECIAL-8: 10^8 fixed-seed real deals of the cla list (2 jobs): each of the
    eleven hands and "any" within 5 standard errors sqrt(p(1-p)/n) of its exact value (the
    Dream Hands expect 0.03 and 0.8 hits: their tolerance allows 0 and at most 5)."""
    from sim.sampling import sample_dealt_odds

    n = 100_000_000
    r = sample_dealt_odds(n, seed=3208, ruleset=Ruleset(special_hands="cla"), n_jobs=2)
    assert r.deals == n and list(r.hits) == [h.name for h in CLA] + ["any"]
    for name, p in r.exact.items():
        p = float(p)
        se = (p * (1 - p) / n) ** 0.5
        assert abs(r.hits[name] / n - p) <= 5 * se, (name, r.hits[name], p * n)
