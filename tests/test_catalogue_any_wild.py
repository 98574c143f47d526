"""SPECIAL-9 ``any_wild`` groups, the clubs' reading (docs/rules.md): "N wild cards of any mix"
is any N wild cards, twos or jokers or both, whatever wild cards the hand's other groups hold.
The plain matcher (``sim.catalogue.matches``), the compiled one (``sim.special``), the list
check (a list is accepted when some 14 cards form each hand), the exact odds (``sim.odds``) and
``canasta rules``' words agree on it."""

from __future__ import annotations

import numpy as np
import pytest

from canasta import main
from sim import encoding as E
from sim.cards import counts_of, parse_cards
from sim.catalogue import catalogue_from, matches
from sim.odds import Deck, catalogue_odds
from sim.ruleset import Ruleset
from sim.special import classify_special
from tests.test_catalogue_odds import brute_force, hand_spec

#: the audit's hand: K x5, Q x5, a pair of jokers and two wild cards of any mix
BESIDE_JOKERS = {
    "name": "any_beside_jokers",
    "award": 3000,
    "groups": [
        {"size": 5, "rank": "K"},
        {"size": 5, "rank": "Q"},
        {"size": 2, "kind": "wild", "rank": "JK"},
        {"size": 2, "kind": "any_wild"},
    ],
}
#: a matching wild pair (2-2 or JK-JK) beside two wild cards of any mix
BESIDE_A_PAIR = {
    "name": "any_beside_a_wild_pair",
    "award": 2000,
    "groups": [
        {"size": 5},
        {"size": 5},
        {"size": 2, "kind": "wild"},
        {"size": 2, "kind": "any_wild"},
    ],
}


def _counts(cards: str) -> np.ndarray:
    return counts_of(parse_cards(cards.split()))


@pytest.mark.parametrize(
    ("wilds", "formed"),
    [
        ("2H 2S JK JK", True),  # the twos are the any-mix pair
        ("2H JK JK JK", True),  # a two and a joker are: the audit's case
        ("JK JK JK JK", True),  # two jokers are
        ("2H 2S 2D JK", False),  # one joker: the pair of jokers is missing
        ("2H 2S 2D 2C", False),
    ],
)
def test_special_9_any_wild_is_any_wild_cards_beside_a_ranked_wild_group(wilds, formed):
    cards = "KS KH KD KC KS QS QH QD QC QS " + wilds
    (hand,) = catalogue_from([BESIDE_JOKERS])
    assert matches(hand, _counts(cards)) is formed
    rules = Ruleset(special_hands=(BESIDE_JOKERS,)).to_array()
    assert (int(classify_special(_counts(cards), rules)) == 1) is formed  # the kernel agrees


@pytest.mark.parametrize(
    ("wilds", "formed"),
    [("2H 2S 2D JK", True), ("JK JK JK 2H", True), ("2H 2S 2D 2C", True), ("2H JK 2S JK", True)],
)
def test_special_9_any_wild_beside_a_free_matching_wild_group(wilds, formed):
    """A list the old reading refused as unformable (the any-mix group took every wild card,
    leaving none for the matching pair) is accepted and formed: 2-2 (or JK-JK) and any two."""
    (hand,) = catalogue_from([BESIDE_A_PAIR])
    cards = "KS KH KD KC KS QS QH QD QC QS " + wilds
    assert matches(hand, _counts(cards)) is formed
    rules = Ruleset(special_hands=(BESIDE_A_PAIR,)).to_array()
    assert (int(classify_special(_counts(cards), rules)) == 1) is formed


def test_special_9_at_most_one_any_wild_group():
    groups = [{"size": 5}, {"size": 5}, {"size": 2, "kind": "any_wild"}]
    groups = [*groups, {"size": 2, "kind": "any_wild"}]
    with pytest.raises(Exception, match=r"groups: at most one any_wild group"):
        catalogue_from([{"name": "two_mixes", "award": 1, "groups": groups}])


#: small-deck hands of 6 cards with an any-mix group beside other wild groups
BESIDE_LIST = (
    hand_spec("any_beside_joker_pair", "n2 JK2 x2"),
    hand_spec("any_beside_a_two", "n3 21 x2"),
    hand_spec("any_beside_wild_pair", "n2 w2 x2"),
    hand_spec("any_beside_either", "e2 e2 x2", cap=1),
)


def test_odds_1_exact_odds_of_any_wild_beside_other_wild_groups_match_brute_force():
    """ODDS-1: the exact counting of these hands equals a card-by-card enumeration of every
    deal of a small deck (4 copies, 3 twos, 2 jokers) by the plain matcher."""
    deck = Deck(copies=4, naturals=3, twos=3, jokers=2, threes=3, hand=6)
    got = catalogue_odds(BESIDE_LIST, deck)
    assert got == brute_force(deck, BESIDE_LIST)
    assert all(p > 0 for p in got.values())


def test_special_9_kernel_agrees_with_the_plain_matcher_on_every_wild_split():
    """Every split of four wild cards among twos and jokers beside K x5, Q x5, for both
    lists: the compiled matcher says what the plain one says."""
    for spec in (BESIDE_JOKERS, BESIDE_A_PAIR):
        (hand,) = catalogue_from([spec])
        rules = Ruleset(special_hands=(spec,)).to_array()
        for jokers in range(5):
            c = _counts("KS KH KD KC KS QS QH QD QC QS")
            c[E.JOKER], c[E.TWO] = jokers, 4 - jokers
            want = matches(hand, c)
            assert (int(classify_special(c, rules)) == 1) == want, (spec["name"], jokers)


def test_special_9_rules_words_say_any_mix(tmp_path, capsys):
    """``canasta rules`` says what the matcher does: wild cards of any mix."""
    path = tmp_path / "club.toml"
    path.write_text(
        '[[special_hands]]\nname = "any_beside_jokers"\naward = 3000\ngroups = ['
        '{size = 5, rank = "K"}, {size = 5, rank = "Q"}, {size = 2, kind = "wild", rank = "JK"},'
        ' {size = 2, kind = "any_wild"}]\n'
    )
    assert main(["rules", str(path)]) == 0
    out = capsys.readouterr().out
    assert "2 of JK" in out and "2 wild cards of any mix" in out
