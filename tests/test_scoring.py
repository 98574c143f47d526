"""Scoring a hand: SCORE-1..8 and OUT-3, by example and against the plain twin."""

import numpy as np
import pytest

from sim import encoding as E
from sim.ruleset import Ruleset
from sim.scoring import score_team
from tests.twins import scoring_twin

NAME_KIND = {name: k for k, name in enumerate(E.KIND_NAMES)}


def arrays(melds, threes, hands):
    """Engine arrays of a list-form team position (the twin's input)."""
    m = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    for meld in melds:
        naturals = [c for c in meld if c not in ("JK", "2")]
        slot = NAME_KIND[naturals[0]] if naturals else E.WILD_MELD
        for c in meld:
            col = {"JK": E.JOKERS, "2": E.TWOS}.get(c, E.NATURALS)
            m[slot, col] += 1
    t = np.array([threes.count("3r"), threes.count("3b")], dtype=np.int64)
    h = np.zeros((2, E.N_KINDS), dtype=np.int64)
    for p, hand in enumerate(hands):
        for c in hand:
            h[p, NAME_KIND[c]] += 1
    return m, t, h


def kernel(melds=(), threes=(), hands=((), ()), went_out=False, special="", rules=None):
    rules = rules or Ruleset()
    m, t, h = arrays(list(melds), list(threes), [list(x) for x in hands])
    out = np.zeros(E.N_SCORE_ITEMS, dtype=np.int64)
    code = E.SPECIAL_NAMES.index(special)
    score_team(m, t, h, went_out, code, rules.to_array(), out)
    return dict(zip(E.SCORE_ITEMS, out.tolist(), strict=True))


def cards(spec):
    return spec.split()


K7 = cards("K K K K K K K")  # natural canasta of kings
Q_MIXED = cards("Q Q Q Q Q 2 JK")  # mixed canasta of queens


def test_score_1_mixed_300_natural_500():
    """SCORE-1: mixed 300 natural 500."""
    s = kernel([K7, Q_MIXED])
    assert s["canasta_bonus"] == 800
    s = kernel([cards("8 8 8 8 8 8 2")])
    assert s["canasta_bonus"] == 300


def test_score_2_sevens_and_aces_canastas_and_unfinished_penalty():
    """SCORE-2: sevens and aces canastas and unfinished penalty."""
    assert kernel([cards("7 7 7 7 7 7 7")])["canasta_bonus"] == 2500
    assert kernel([cards("A A A A A A A")])["canasta_bonus"] == 2500
    assert kernel([cards("7 7 7 7")])["incomplete_melds"] == -2500
    assert kernel([cards("A A A")])["incomplete_melds"] == -2500


def test_meld_7_aces_with_wilds_score_as_mixed_meld():
    """MELD-7 with SCORE-2: an aces meld holding wilds is ordinary: 300, no penalty."""
    assert kernel([cards("A A A A A 2 2")])["canasta_bonus"] == 300
    assert kernel([cards("A A A 2")])["incomplete_melds"] == 0


def test_score_3_wild_canastas_and_unfinished_wild_meld():
    """SCORE-3: wild canastas and unfinished wild meld."""
    assert kernel([cards("2 2 2 2 2 2 2")])["canasta_bonus"] == 3000
    assert kernel([cards("JK JK JK JK 2 2 2")])["canasta_bonus"] == 2500
    assert kernel([cards("JK JK 2 2 2 2 2")])["canasta_bonus"] == 2000
    assert kernel([cards("2 2 JK")])["incomplete_melds"] == -2000
    assert kernel([cards("JK JK JK JK")])["incomplete_melds"] == -2000
    variant = Ruleset(wild_penalty_four_jokers=2500)
    assert kernel([cards("JK JK JK JK 2")], rules=variant)["incomplete_melds"] == -2500
    assert kernel([cards("JK JK JK 2")], rules=variant)["incomplete_melds"] == -2000


def test_score_4_sevens_and_aces_held_per_player_per_rank():
    """SCORE-4: sevens and aces held per player per rank."""
    hands = (cards("7 7 7 A A A"), cards("7 7 7 A A"))
    s = kernel([K7], hands=hands)
    assert s["hand_penalties"] == -4500  # player 0: sevens and aces; player 1: sevens
    assert s["cards_in_hand"] == -(6 * 5 + 5 * 20)  # on top of the cards' own values


def test_score_4_choice_no_aces_penalty_after_aces_took_wilds():
    """SCORE-4 Choice (MELD-7): a team whose aces meld holds wilds pays no aces penalty."""
    s = kernel([K7, cards("A A 2")], hands=(cards("A A A 7 7 7"), ()))
    assert s["hand_penalties"] == -1500  # the sevens still cost


def test_score_5_cards_in_hand_count_against_threes_5():
    """SCORE-5: cards left in hand count against the team; a three counts 5."""
    s = kernel(hands=(cards("JK 2 A K 4 3r"), cards("3b")))
    assert s["cards_in_hand"] == -(50 + 20 + 20 + 10 + 5 + 5 + 5)


def test_score_6_melded_cards_plus_with_a_canasta_minus_without():
    """SCORE-6: melded cards plus with a canasta minus without."""
    assert kernel([K7, cards("4 4 4")])["melded_cards"] == 70 + 15
    assert kernel([cards("K K K JK"), cards("4 4 4")])["melded_cards"] == -(30 + 50 + 15)


def test_score_7_threes_by_colour_and_canastas():
    """SCORE-7: threes by colour and canastas."""
    threes = cards("3r 3r 3r 3r 3b 3b")  # 1000 + 300
    assert kernel(threes=threes)["threes"] == -1300
    assert kernel([K7], threes=threes)["threes"] == 0
    assert kernel([K7, Q_MIXED], threes=threes)["threes"] == 1300
    assert kernel([K7, Q_MIXED], threes=cards("3r 3b 3b 3b"))["threes"] == 100 + 500


def test_out_3_going_out_100():
    """OUT-3: going out 100."""
    assert kernel([K7, Q_MIXED], went_out=True)["going_out"] == 100
    assert kernel([K7, Q_MIXED])["going_out"] == 0


def test_score_8_special_hand_scores_only_its_award():
    """SCORE-8: special hand scores only its award."""
    hands = (cards("7 7 7 A A A"), ())
    s = kernel([K7], threes=cards("3r"), hands=hands, went_out=True, special="pairs")
    assert s == dict.fromkeys(E.SCORE_ITEMS, 0) | {"special_hand": 2500}
    garbage = kernel(special="garbage", rules=Ruleset(garbage_award=3000))
    assert sum(garbage.values()) == 3000


def test_meld_2_variant_long_meld_still_one_canasta():
    """MELD-2 variant: a meld past 7 cards is still one canasta (a mixed one here)."""
    s = kernel([cards("K K K K K K K 2"), Q_MIXED])
    assert s["canasta_bonus"] == 600 and s["threes"] == 0


# --- random valid positions against the twin --------------------------------------------

NATURAL_NAMES = [E.KIND_NAMES[k] for k in E.NATURAL_KINDS]
COPIES = {E.KIND_NAMES[k]: int(E.KIND_COPIES[k]) for k in range(E.N_KINDS)}
SPECIALS = [n for n in E.SPECIAL_NAMES if n]


def _take(left, name, n):
    n = min(n, left[name])
    left[name] -= n
    return [name] * n


def _wilds(rng, left, n):
    out = []
    for _ in range(n):
        pool = [w for w in ("2", "JK") if left[w] > 0]
        if not pool:
            break
        out += _take(left, pool[rng.integers(len(pool))], 1)
    return out


def random_position(rng, rules):
    """A valid team position in list form: MELD-1..8 hold, no more cards than CARD-1 allows."""
    left = dict(COPIES)
    melds = []
    for name in NATURAL_NAMES:
        if rng.random() > 0.35:
            continue
        size = int(rng.choice([3, 4, 5, 6, 7, 7, 7]))
        max_w = 0 if name == "7" else min(rules.max_wilds_mixed, size - 2)
        if name == "A" and rng.random() < 0.6:
            max_w = 0  # most aces melds stay natural (MELD-7)
        w = int(rng.integers(max_w + 1))
        naturals = _take(left, name, size - w)
        if len(naturals) < 2:  # MELD-4: the deck ran short of this rank
            continue
        meld = naturals + _wilds(rng, left, w)
        if len(meld) >= 3:
            if rules.allow_long_meld_going_out and len(meld) == 7 and rng.random() < 0.3:
                meld += _wilds(rng, left, int(rng.integers(1, 3)))  # MELD-2 variant
            melds.append(meld)
    if rng.random() < 0.4:  # a wild meld, often of all twos or with all four jokers
        size = int(rng.integers(3, 8))
        style = rng.integers(3)
        if style == 0:
            meld = _take(left, "2", size)
        elif style == 1:
            meld = _take(left, "JK", 4) + _take(left, "2", size - 4)
        else:
            meld = _wilds(rng, left, size)
        if len(meld) >= 3:
            melds.append(meld)
    threes = _take(left, "3r", int(rng.integers(5))) + _take(left, "3b", int(rng.integers(5)))
    hands = []
    for _ in range(2):
        pool = [name for name, n in left.items() for _ in range(n)]
        picks = rng.choice(len(pool), min(len(pool), int(rng.integers(0, 12))), replace=False)
        hand = [pool[i] for i in picks]
        for c in hand:
            left[c] -= 1
        if rng.random() < 0.3:  # make SCORE-4 common
            hand += _take(left, str(rng.choice(["7", "A"])), int(rng.integers(3, 5)))
        hands.append(hand)
    complete = [m for m in melds if len(m) >= 7]
    unfinished_special = any(
        len(m) < 7
        and (all(c in ("2", "JK") for c in m) or (m[0] in ("7", "A") and set(m) == {m[0]}))
        for m in melds
    )
    went_out = len(complete) >= 2 and not unfinished_special and rng.random() < 0.5  # OUT-1
    special = str(rng.choice(SPECIALS)) if rng.random() < 0.05 else ""
    return melds, threes, hands, went_out, special


def test_score_1_to_8_kernel_agrees_with_twin_on_random_positions():
    """SCORE-1..8, OUT-3: kernel == twin on 10,000 seeded random valid positions."""
    rng = np.random.default_rng(1129)
    rulesets = [
        Ruleset(),
        Ruleset(max_wilds_mixed=3, wild_penalty_four_jokers=2500, garbage_award=3000),
        Ruleset(allow_long_meld_going_out=True),
    ]
    out = np.zeros(E.N_SCORE_ITEMS, dtype=np.int64)
    nonzero = dict.fromkeys(E.SCORE_ITEMS, 0)
    for i in range(10_000):
        rules = rulesets[i % len(rulesets)]
        melds, threes, hands, went_out, special = random_position(rng, rules)
        m, t, h = arrays(melds, threes, hands)
        score_team(m, t, h, went_out, E.SPECIAL_NAMES.index(special), rules.to_array(), out)
        want = scoring_twin.score_team(melds, threes, hands, went_out, special, rules.to_dict())
        got = dict(zip(E.SCORE_ITEMS, out.tolist(), strict=True))
        assert got == want, (melds, threes, hands, went_out, special, rules)
        for k, v in got.items():
            nonzero[k] += v != 0
    assert all(n > 100 for n in nonzero.values()), nonzero  # every item was exercised


@pytest.mark.parametrize("seed", [1, 2])
def test_random_positions_respect_card_1(seed):
    """CARD-1: the generator never uses more copies than the deck holds."""
    rng = np.random.default_rng(seed)
    for _ in range(300):
        melds, threes, hands, _, _ = random_position(rng, Ruleset())
        used = [c for m in melds for c in m] + threes + [c for h in hands for c in h]
        for name in set(used):
            assert used.count(name) <= COPIES[name]
