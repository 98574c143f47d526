"""Special hands: SPECIAL-1..7, kernel against its pure-Python twin and an exact definition."""

import itertools

import numpy as np
import pytest

from sim import encoding as E
from sim.cards import counts_of, format_card, parse_cards
from sim.ruleset import Ruleset
from sim.special import classify_many, classify_special, special_award, special_reason
from tests.helpers import few_kind_vectors, neighbour_vectors
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


def test_special_2_names_the_three_only_when_the_three_is_what_breaks_the_hand():
    """SPECIAL-2 vs SPECIAL-3: a Straight with a two in place of the joker holds its one three
    where a Straight may; the missing joker is the fault (SPECIAL-3). A Pairs or Garbage hand
    with one three in place of a card is refused for the three (SPECIAL-2)."""
    for missing_joker in (STRAIGHT.replace("JK", "2C"), STRAIGHT.replace("JK", "9D")):
        c = counts(missing_joker)
        assert special_reason(c, False, True, RULES) == E.R_SPECIAL_NOT_A_HAND
        assert E.reason_rule(special_reason(c, False, True, RULES)) == "SPECIAL-3"
    for with_three in (PAIRS.replace("KD", "3D"), GARBAGE.replace("JD", "3C")):
        assert special_reason(counts(with_three), False, True, RULES) == E.R_SPECIAL_THREE
    junk_with_three = "AS KH QD 9C 8S 8H 6D 6C 5S 4H 4D JC 10H 3H"
    assert special_reason(counts(junk_with_three), False, True, RULES) == E.R_SPECIAL_NOT_A_HAND
    assert special_reason(counts(STRAIGHT), False, True, RULES) == E.R_OK


@pytest.mark.parametrize(
    ("cards", "code", "rule"),
    [
        (STRAIGHT.replace("JK", "2C"), E.R_SPECIAL_NOT_A_HAND, "SPECIAL-3"),
        (STRAIGHT.replace("3H", "9D"), E.R_SPECIAL_NOT_A_HAND, "SPECIAL-3"),
        (PAIRS.replace("KD", "QD"), E.R_SPECIAL_NOT_PAIRS, "SPECIAL-4"),
        (PAIRS.replace("KS KD", "JK JK"), E.R_SPECIAL_NOT_PAIRS, "SPECIAL-4"),
        (PAIRS_27A.replace("9S 9H", "JK JK"), E.R_SPECIAL_NOT_PAIRS_TSA, "SPECIAL-5"),
        (PAIRS_27A.replace("AS AH", "AS 8H"), E.R_SPECIAL_NOT_PAIRS_TSA, "SPECIAL-5"),
        (GARBAGE.replace("QD", "2D"), E.R_SPECIAL_NOT_GARBAGE, "SPECIAL-6"),
        (GARBAGE.replace("AC", "9C"), E.R_SPECIAL_NOT_GARBAGE, "SPECIAL-6"),
    ],
)
def test_special_3_to_6_refusal_names_the_special_hand_the_cards_come_nearest(cards, code, rule):
    """SPECIAL-3..6: a hand that is no special hand is refused under the rule of the special
    hand it shares most cards with, not always SPECIAL-3."""
    got = special_reason(counts(cards), False, True, RULES)
    assert got == code and E.reason_rule(int(got)) == rule


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
    assert special_reason(counts(not_a_hand), False, True, RULES) == E.R_SPECIAL_NOT_PAIRS


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


# --- the classifier in both directions: exhaustive and near-miss count vectors ------------


def exact_special(rows):
    """SPECIAL-3..6 read straight off the rulebook, vectorised over count vectors (one row per
    hand, columns the kinds of sim.encoding): the special code of each row, 0 if none."""
    rows = np.asarray(rows)
    nat = rows[:, list(E.NATURAL_KINDS)]
    jokers, twos = rows[:, E.JOKER], rows[:, E.TWO]
    threes = rows[:, E.RED_THREE] + rows[:, E.BLACK_THREE]
    only_pairs = np.isin(nat, (0, 2)).all(axis=1)
    n_pairs = (nat == 2).sum(axis=1)
    # SPECIAL-3: one of each of A..K (one two, one three of either colour), one joker
    straight = (jokers == 1) & (twos == 1) & (threes == 1) & (nat == 1).all(axis=1)
    # SPECIAL-4: seven pairs of seven natural ranks, no wild, no three (SPECIAL-2)
    pairs = (jokers + twos + threes == 0) & only_pairs & (n_pairs == 7)
    # SPECIAL-5: seven pairs of seven ranks, among them twos, sevens, aces; no joker, no three
    tsa = (jokers + threes == 0) & (twos == 2) & only_pairs & (n_pairs == 6)
    tsa &= (rows[:, E.SEVEN] == 2) & (rows[:, E.ACE] == 2)
    # SPECIAL-6: 4 + 4 + 3 + 3 of four natural ranks, nothing else
    top4 = np.sort(nat, axis=1)[:, -4:]
    garbage = (jokers + twos + threes == 0) & ((nat > 0).sum(axis=1) == 4)
    garbage &= (top4 == (3, 3, 4, 4)).all(axis=1)
    out = np.zeros(len(rows), dtype=np.int64)
    out[straight] = E.SPECIAL_STRAIGHT
    out[pairs] = E.SPECIAL_PAIRS
    out[tsa] = E.SPECIAL_PAIRS_TWOS_SEVENS_ACES
    out[garbage] = E.SPECIAL_GARBAGE
    assert not (straight.astype(int) + pairs + tsa + garbage > 1).any()  # disjoint
    return out


def _hand_rows(ids_lists):
    return np.array([counts_of(np.array(h, dtype=np.int64)) for h in ids_lists], dtype=np.int64)


def every_special_vector():
    """Every count vector of every special hand (SPECIAL-3..6)."""
    nat = list(E.NATURAL_KINDS)
    rows = []
    for three in E.THREE_KINDS:  # SPECIAL-3
        row = np.zeros(E.N_KINDS, dtype=np.int64)
        row[nat] = 1
        row[[E.JOKER, E.TWO, three]] = 1
        rows.append(row)
    for ranks in itertools.combinations(nat, 7):  # SPECIAL-4
        row = np.zeros(E.N_KINDS, dtype=np.int64)
        row[list(ranks)] = 2
        rows.append(row)
    others = [k for k in nat if k not in (E.SEVEN, E.ACE)]
    for ranks in itertools.combinations(others, 4):  # SPECIAL-5
        row = np.zeros(E.N_KINDS, dtype=np.int64)
        row[[*ranks, E.TWO, E.SEVEN, E.ACE]] = 2
        rows.append(row)
    for fours in itertools.combinations(nat, 2):  # SPECIAL-6
        for trips in itertools.combinations([k for k in nat if k not in fours], 2):
            row = np.zeros(E.N_KINDS, dtype=np.int64)
            row[list(fours)] = 4
            row[list(trips)] = 3
            rows.append(row)
    return np.array(rows)


def _classify_rows(rows, rules=RULES):
    got = np.empty(len(rows), dtype=np.int64)
    classify_many(np.ascontiguousarray(rows), rules, got)
    return got


def _tokens(row):
    """Printed cards of a count vector, for the token-reading twin."""
    names = {E.JOKER: "JK", E.TWO: "2S", E.RED_THREE: "3H", E.BLACK_THREE: "3S"}
    return [names.get(k, f"{E.KIND_NAMES[k]}S") for k in range(E.N_KINDS) for _ in range(row[k])]


def _agree(rows, twin_rows):
    got = _classify_rows(rows)
    want = exact_special(rows)
    bad = np.flatnonzero(got != want)
    assert not len(bad), [rows[i].tolist() for i in bad[:5]]
    for row, c in zip(twin_rows, _classify_rows(twin_rows), strict=True):
        assert E.SPECIAL_NAMES[c] == special_twin.classify(_tokens(row)), row.tolist()
    return got


def test_special_3_to_6_classifier_exact_on_every_hand_of_four_or_fewer_kinds():
    """SPECIAL-3..6 in both directions, exhaustively: every 14-card count vector of at most
    four kinds (Garbage's whole neighbourhood: 7-4-3, 8-3-3, 5-4-3-2, a rank held 5+ times...)
    is classified by the kernel exactly as the rulebook's definition and the twin say; each of
    the 1,980 Garbage vectors is found, and nothing else is special."""
    rows = few_kind_vectors()
    rng = np.random.default_rng(7)
    three_or_fewer = rows[(rows > 0).sum(axis=1) <= 3]
    sample = rows[rng.choice(len(rows), 20_000, replace=False)]
    got = _agree(rows, np.concatenate([three_or_fewer, sample]))
    assert (got == E.SPECIAL_GARBAGE).sum() == 55 * 36  # C(11,2) fours x C(9,2) threes
    assert set(np.unique(got)) == {E.SPECIAL_NONE, E.SPECIAL_GARBAGE}
    assert (_classify_rows(rows, OFF) == 0).all()  # SPECIAL-7


def test_special_3_to_6_classifier_exact_one_card_from_every_special_hand():
    """SPECIAL-3..6 in both directions on every special hand and every count vector one card
    away from one (13, 14 and 15 cards): exactly the special hands are special (a Garbage hand
    one card from another is one of them)."""
    specials = every_special_vector()
    known = {tuple(r) for r in specials.tolist()}
    near = np.array([r for r in neighbour_vectors(specials).tolist() if tuple(r) not in known])
    rows = np.concatenate([specials, near])
    rng = np.random.default_rng(9)
    got = _agree(rows, np.concatenate([specials, near[rng.choice(len(near), 20_000, False)]]))
    assert sorted(np.unique(got[: len(specials)])) == [1, 2, 3, 4]
    assert not got[len(specials) :].any() and len(near) > 100_000


def test_special_3_to_6_classifier_exact_on_hands_with_a_rank_held_five_times_or_more():
    """SPECIAL-3..6: 30,000 seeded 14-card count vectors with one kind held 5 to 8 times and
    the rest spread over any kinds, and 30,000 uniform deals: kernel == definition == twin."""
    rng = np.random.default_rng(8)
    rows = np.zeros((60_000, E.N_KINDS), dtype=np.int64)
    for i in range(30_000):
        k = int(rng.integers(E.N_KINDS))
        rows[i, k] = min(int(rng.integers(5, 9)), int(E.KIND_COPIES[k]))
        while rows[i].sum() < 14:
            j = int(rng.integers(E.N_KINDS))
            if rows[i, j] < E.KIND_COPIES[j]:
                rows[i, j] += 1
    rows[30_000:] = _hand_rows(rng.choice(E.N_CARDS, 14, replace=False) for _ in range(30_000))
    got = _agree(rows, rows[rng.choice(len(rows), 10_000, replace=False)])
    assert not got[:30_000].any()  # a kind held 5+ times is never special
