"""Special hands: SPECIAL-1..7, kernel against its pure-Python twin."""

import numpy as np
import pytest

from sim import encoding as E
from sim.cards import counts_of, format_card, parse_cards
from sim.ruleset import Ruleset
from sim.special import classify_many, classify_special, special_award, special_reason
from tests.twins import special_twin

RULES = Ruleset().to_array()
OFF = Ruleset(special_hands="none").to_array()

STRAIGHT = "AS 2S 3H 4S 5D 6S 7C 8S 9S 10H JS QS KD JK"
PAIRS = "AS AH 7S 7H 4S 4H 5S 5H 9S 9H 10S 10H KS KD"
PAIRS_27A = "AS AH 7S 7H 4S 4H 5S 5H 9S 9H 10S 10H 2S 2D"
GARBAGE = "AS AH AD AC KS KH KD KC QS QH QD JS JH JD"


def counts(cards):
    return counts_of(parse_cards(cards))


def code(cards, rules=RULES):
    return int(classify_special(counts(cards), rules))


def test_special_3_straight_one_of_each_rank_and_a_joker():
    """SPECIAL-3: straight one of each rank and a joker."""
    assert code(STRAIGHT) == E.SPECIAL_STRAIGHT
    assert code(STRAIGHT.replace("3H", "3S")) == E.SPECIAL_STRAIGHT  # either colour of three
    assert code(STRAIGHT.replace("JK", "2H")) == E.SPECIAL_NONE  # the joker is required
    assert code(STRAIGHT.replace("KD", "QD")) == E.SPECIAL_NONE  # a rank missing


def test_special_4_pairs_seven_natural_pairs_no_wilds():
    """SPECIAL-4: pairs seven natural pairs no wilds."""
    assert code(PAIRS) == E.SPECIAL_PAIRS
    assert code(PAIRS.replace("KS KD", "AD AC")) == E.SPECIAL_NONE  # four aces: six ranks
    assert code(PAIRS.replace("KS KD", "KS JK")) == E.SPECIAL_NONE  # a wild


def test_special_5_pairs_with_twos_sevens_and_aces():
    """SPECIAL-5: pairs with twos sevens and aces."""
    assert code(PAIRS_27A) == E.SPECIAL_PAIRS_TWOS_SEVENS_ACES
    assert code(PAIRS_27A.replace("7S 7H", "8S 8H")) == E.SPECIAL_NONE  # no sevens
    assert code(PAIRS_27A.replace("AS AH", "JK JK")) == E.SPECIAL_NONE  # jokers
    assert code(PAIRS_27A.replace("AS AH", "QS QH")) == E.SPECIAL_NONE  # no aces


def test_special_6_garbage_two_fours_two_threes_of_a_kind():
    """SPECIAL-6: garbage two fours two threes of a kind."""
    assert code(GARBAGE) == E.SPECIAL_GARBAGE
    assert code(GARBAGE.replace("QD", "2D")) == E.SPECIAL_NONE  # a wild
    assert code(GARBAGE.replace("AC", "QC")) == E.SPECIAL_GARBAGE  # A3 K4 Q4 J3: still 4-4-3-3
    assert code(GARBAGE.replace("JD", "10D")) == E.SPECIAL_NONE  # J2 + 10: five ranks
    assert code(GARBAGE.replace("JD", "QC")) == E.SPECIAL_NONE  # 4-4-4-2


def test_special_2_no_three_except_the_straights_one():
    """SPECIAL-2: no three except the Straight's one three."""
    pairs_with_threes = PAIRS.replace("KS KD", "3S 3C")
    assert code(pairs_with_threes) == E.SPECIAL_NONE
    assert special_reason(counts(pairs_with_threes), False, True, RULES) == E.R_SPECIAL_THREE
    two_threes = STRAIGHT.replace("JK", "3D")
    assert special_reason(counts(two_threes), False, True, RULES) == E.R_SPECIAL_THREE


def test_special_7_off_means_nothing_is_special():
    """SPECIAL-7: off means nothing is special."""
    for hand in (STRAIGHT, PAIRS, PAIRS_27A, GARBAGE):
        assert code(hand, OFF) == E.SPECIAL_NONE
        assert special_reason(counts(hand), False, True, OFF) == E.R_SPECIALS_OFF


def test_special_1_reasons_first_meld_stock_draw_fourteen_cards():
    """SPECIAL-1: first meld only, after a stock draw, exactly 14 cards."""
    c = counts(PAIRS)
    assert special_reason(c, False, True, RULES) == E.R_OK
    assert special_reason(c, True, True, RULES) == E.R_SPECIAL_NOT_FIRST_MELD
    assert special_reason(c, False, False, RULES) == E.R_SPECIAL_AFTER_PILE
    assert special_reason(counts(PAIRS + " QS"), False, True, RULES) == E.R_SPECIAL_NOT_14
    assert special_reason(counts(PAIRS[:-3]), False, True, RULES) == E.R_SPECIAL_NOT_14
    not_a_hand = PAIRS.replace("KD", "QD")
    assert special_reason(counts(not_a_hand), False, True, RULES) == E.R_SPECIAL_NOT_A_HAND


def test_special_awards_and_garbage_variant():
    """SPECIAL-3..6 awards; SPECIAL-6 variant garbage_award."""
    assert special_award(E.SPECIAL_STRAIGHT, RULES) == 3000
    assert special_award(E.SPECIAL_PAIRS, RULES) == 2500
    assert special_award(E.SPECIAL_PAIRS_TWOS_SEVENS_ACES, RULES) == 2000
    assert special_award(E.SPECIAL_GARBAGE, RULES) == 2000
    assert special_award(E.SPECIAL_GARBAGE, Ruleset(garbage_award=3000).to_array()) == 3000
    assert special_award(E.SPECIAL_NONE, RULES) == 0


# --- random hands, biased so that every special hand (and its near misses) is common -----

_NATURAL_RANK_IDX = [0, *range(3, 13)]  # A, 4..K as rank indices of sim.encoding card ids


def _ids_of_rank(rank):
    return [p * E.PACK_SIZE + s * E.N_RANKS + rank for p in range(E.N_PACKS) for s in range(4)]


_JOKER_IDS = list(range(E.FIRST_JOKER_ID, E.N_CARDS))


def _groups(rng, ranks, sizes):
    hand = []
    for rank, size in zip(ranks, sizes, strict=True):
        hand.extend(rng.choice(_ids_of_rank(rank), size, replace=False).tolist())
    return hand


def _biased_hand(rng, shape):
    if shape == "straight":
        hand = [int(rng.choice(_ids_of_rank(r))) for r in range(E.N_RANKS)]
        hand.append(int(rng.choice(_JOKER_IDS)))
    elif shape == "pairs":
        hand = _groups(rng, rng.choice(_NATURAL_RANK_IDX, 7, replace=False), [2] * 7)
    elif shape == "pairs_27a":
        others = [r for r in _NATURAL_RANK_IDX if r not in (0, 6)]
        ranks = [0, 1, 6, *rng.choice(others, 4, replace=False)]
        hand = _groups(rng, ranks, [2] * 7)
    elif shape == "garbage":
        hand = _groups(rng, rng.choice(_NATURAL_RANK_IDX, 4, replace=False), [4, 4, 3, 3])
    else:
        hand = rng.choice(E.N_CARDS, 14, replace=False).tolist()
    # near misses: swap up to two cards for cards not yet in the hand
    for _ in range(rng.choice(3, p=[0.5, 0.3, 0.2])):
        rest = np.setdiff1d(np.arange(E.N_CARDS), hand)
        hand[rng.integers(len(hand))] = int(rng.choice(rest))
    return hand


def test_special_3_to_6_kernel_agrees_with_twin_on_random_hands():
    """SPECIAL-2..7: kernel == twin on 12,000 seeded hands, specials common by design."""
    rng = np.random.default_rng(20261129)
    shapes = ["straight", "pairs", "pairs_27a", "garbage", "uniform"]
    hands = [_biased_hand(rng, shapes[i % len(shapes)]) for i in range(12_000)]
    rows = np.array([counts_of(h) for h in hands], dtype=np.int64)
    got = np.empty(len(hands), dtype=np.int64)
    classify_many(rows, RULES, got)
    seen = set()
    for hand, c in zip(hands, got, strict=True):
        tokens = [format_card(i) for i in hand]
        want = special_twin.classify(tokens)
        assert E.SPECIAL_NAMES[c] == want, tokens
        seen.add(want)
    assert seen == set(E.SPECIAL_NAMES)  # every outcome occurred, non-special included
    classify_many(rows, OFF, got)
    assert not got.any()  # SPECIAL-7


@pytest.mark.parametrize("hand", [STRAIGHT, PAIRS, PAIRS_27A, GARBAGE])
def test_twin_recognises_the_examples(hand):
    assert special_twin.classify(hand.split()) == E.SPECIAL_NAMES[code(hand)]
