"""A club's special-hand list (SPECIAL-9) read from a ruleset file: feasibility decided by
search and checked against a brute force, awards bounded like every score, a three only in a
Straight (SPECIAL-2), refusals in one line naming the key and the list's own rule."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from canasta import main
from sim import catalogue as C
from sim import encoding as E
from sim.errors import CanastaError
from sim.ruleset import Ruleset
from sim.special import special_reason


def _bounded_vectors(bounds: list[int], total: int):
    """Every vector v with 0 <= v[i] <= bounds[i] summing to ``total``."""
    if not bounds:
        if total == 0:
            yield ()
        return
    rest = sum(bounds[1:])
    for n in range(max(0, total - rest), min(bounds[0], total) + 1):
        for tail in _bounded_vectors(bounds[1:], total - n):
            yield (n, *tail)


def _brute_force_formable(hand: C.Hand) -> bool:
    """Does any 14 cards form ``hand`` (``C.matches``)? Every count vector over the kinds
    the hand can use: its named ranks, as many free natural ranks as it has groups (the free
    natural ranks are interchangeable, 8 cards each), twos, jokers and one three colour."""
    named = [C._NATURAL_RANKS.get(g.rank, C._WILD_RANKS.get(g.rank)) for g in hand.groups]
    named = [k for k in named if k is not None]
    free = [k for k in E.NATURAL_KINDS if k not in named][: len(hand.groups)]
    kinds = sorted({*named, *free, E.TWO, E.JOKER, E.RED_THREE})
    bounds = [int(E.KIND_COPIES[k]) for k in kinds]
    counts = np.zeros(E.N_KINDS, dtype=np.int64)
    for vec in _bounded_vectors(bounds, E.SPECIAL_HAND_SIZE):
        if sum(1 for n in vec if n) > len(hand.groups) + 1:  # a kind held is a group
            continue
        counts[:] = 0
        counts[kinds] = vec
        if C.matches(hand, counts):
            return True
    return False


def _table(groups, award=100, **extra):
    return {"name": "club", "award": award, "groups": groups, **extra}


FORMABLE = [  # the audit's list: K x5, Q x4, five wild cards
    [{"size": 5}, {"size": 4, "kind": "either"}, {"size": 5, "kind": "any_wild"}],
]


def _random_groups(rng: np.random.Generator) -> list[dict]:
    """A small list of groups of 14 cards: 2 to 4 groups, kinds and wild ranks at random."""
    n = int(rng.integers(2, 5))
    while True:
        cuts = sorted(rng.choice(np.arange(1, 14), size=n - 1, replace=False))
        sizes = np.diff([0, *cuts, 14])
        if sizes.max() <= 8:
            break
    groups = []
    for size in sizes:
        kind = str(rng.choice(["natural", "wild", "either", "any_wild"]))
        g = {"size": int(size), "kind": kind}
        if kind == "wild" and rng.random() < 0.5:
            g["rank"] = str(rng.choice(["2", "JK"]))
        if kind == "natural" and rng.random() < 0.3:
            g["rank"] = str(rng.choice(["A", "7", "K"]))
        groups.append(g)
    return groups


def _accepted(groups, **extra) -> bool:
    try:
        C.catalogue_from([_table(groups, **extra)])
    except CanastaError as exc:
        assert "\n" not in str(exc) and "special_hands[0] (club)" in str(exc)
        return False
    return True


@pytest.mark.parametrize("groups", FORMABLE)
def test_special_9_formable_list_accepted(groups):
    """SPECIAL-9: {5}, {4, either}, {5, any_wild} is formed by K x5, Q x4 and five wild cards,
    so the list is accepted, and the search's example forms it."""
    (hand,) = C.catalogue_from([_table(groups)])
    example = C._example(hand)
    counts = np.zeros(E.N_KINDS, dtype=np.int64)
    for k, n in example.items():
        counts[k] = n
    assert C.matches(hand, counts) and counts.sum() == 14
    counts[:] = 0
    counts[[E.KING, E.QUEEN, E.TWO, E.JOKER]] = [5, 4, 3, 2]
    assert C.matches(hand, counts) and _brute_force_formable(hand)


def test_special_9_feasibility_search_agrees_with_brute_force():
    """SPECIAL-9: a list is accepted exactly when some 14 cards form it: the search against
    the brute force over every count vector, on 24 random small lists (seed 44) and the
    audit's list; both answers occur, so the check can fail either way."""
    rng = np.random.default_rng(44)
    seen = set()
    for groups in [*FORMABLE, *(_random_groups(rng) for _ in range(24))]:
        for cap in (1, 2):
            hand = C.Hand("club", tuple(C.Group(**g) for g in groups), 100, False, cap)
            truth = _brute_force_formable(hand)
            assert _accepted(groups, max_wild_groups=cap) == truth, (groups, cap)
            seen.add(truth)
    assert seen == {True, False}


def test_special_9_presets_are_formable_by_the_search():
    """SPECIAL-3..6, SPECIAL-8: every preset hand is formable (the search finds one)."""
    for hand in C.TOURNAMENT + C.CLA:
        assert C._example(hand) is not None, hand.name


@pytest.mark.parametrize("award", [-1, 10**9 + 1, 2**63 - 1, 10**29])
def test_special_9_award_out_of_bounds_refused_naming_the_award(award):
    """SPECIAL-9: an award is a whole number from 0 to 1,000,000,000, like every score (a
    larger one wrapped game totals in int64); refused naming special_hands[i] (name).award."""
    groups = [{"size": 7}, {"size": 7, "kind": "either"}]
    with pytest.raises(CanastaError) as err:
        Ruleset(special_hands=[_table(groups), _table(groups, award=award, name="big")])
    msg = str(err.value)
    assert "\n" not in msg and "special_hands[1] (big).award" in msg and "1,000,000,000" in msg
    ok = Ruleset(special_hands=[_table(groups, award=10**9)])
    assert ok.catalogue[0].award == 10**9


def test_special_9_award_bound_holds_for_hand_objects_too():
    """SPECIAL-9: a Hand built in Python is checked like a table read from a file."""
    big = C.Hand("big", C.CLA[0].groups, 10**10)
    with pytest.raises(CanastaError, match=r"special_hands\[0\] \(big\)\.award"):
        Ruleset(special_hands=(big,))


def test_special_2_three_outside_a_straight_refused():
    """SPECIAL-2 (DEAL-5): a three is allowed only in a hand naming one card of every rank,
    as the Straight does; garbage with a three, or two threes, is refused naming SPECIAL-2."""
    three = {"size": 1, "kind": "three"}
    for groups in (
        [three, {"size": 4}, {"size": 4}, {"size": 3}, {"size": 2}],
        [{"size": 2, "kind": "three"}, {"size": 4}, {"size": 4}, {"size": 4}],
    ):
        with pytest.raises(CanastaError) as err:
            C.catalogue_from([_table(groups)])
        assert "SPECIAL-2" in str(err.value) and "special_hands[0] (club)" in str(err.value)
    straight = C.to_tables([C.TOURNAMENT[0]])[0]  # SPECIAL-3 written out: accepted
    assert C.catalogue_from([straight])[0].groups == C.TOURNAMENT[0].groups
    # the Straight with a wild card of either kind for its joker names every rank too
    any_wild = [g for g in straight["groups"] if g.get("rank") != "JK"]
    any_wild.append({"size": 1, "kind": "any_wild"})
    assert len(C.catalogue_from([dict(straight, groups=any_wild)])) == 1


def test_special_9_wording_of_refusals():
    """SPECIAL-9: refusals read as English: no doubled space, '1 card', 'an any_wild'."""
    cases = [
        [{"size": 13, "kind": "any_wild"}, {"size": 1}],
        [{"size": 1, "kind": "any_wild", "rank": "2"}, {"size": 13}],
        [{"size": 1}],
    ]
    msgs = []
    for groups in cases:
        with pytest.raises(CanastaError) as err:
            C.catalogue_from([_table(groups)])
        msgs.append(str(err.value))
    assert "an any_wild group holds at most 12 cards, not 13" in msgs[0]
    assert "for an any_wild group; known: none (an any_wild group names no rank)" in msgs[1]
    assert "the groups hold 1 card, not 14" in msgs[2]
    for msg in msgs:
        assert "  " not in msg and " 1 cards" not in msg and " a any_wild" not in msg


def test_special_8_cla_refusal_names_the_cla_rule_and_a_club_list_special_9():
    """SPECIAL-8 / SPECIAL-9: 14 cards forming no hand are refused under cla naming SPECIAL-8
    (the CLA list), under a club's list naming SPECIAL-9."""
    counts = np.zeros(E.N_KINDS, dtype=np.int64)
    counts[[E.FOUR, E.FIVE, E.SIX, E.EIGHT, E.NINE]] = [3, 3, 3, 3, 2]
    cla = Ruleset(special_hands="cla").to_array()
    code = special_reason(counts, False, True, cla)
    assert code == E.R_SPECIAL_NOT_IN_CLA and E.explain(code).startswith("SPECIAL-8: ")
    club = Ruleset.from_toml(C.__file__.replace("catalogue.py", "rulesets/club-example.toml"))
    code = special_reason(counts, False, True, club.to_array())
    assert code == E.R_SPECIAL_NOT_IN_LIST and E.explain(code).startswith("SPECIAL-9: ")


def _cli(capsys, path) -> tuple[int, str]:
    code = main(["rules", str(path)])
    _, err = capsys.readouterr()
    assert err.count("\n") <= 1
    return code, err


@pytest.mark.parametrize(
    "text, words",
    [
        ("target = 9000\ntarget = 8000\n", "key 'target' (line 2) is given twice"),
        (
            '[[special_hands]]\nname = "x"\naward = 1\naward = 2\ngroups = [{size = 14}]\n',
            "key 'award' (line 4) is given twice",
        ),
        ("[ruleset]\ntarget = 1\n[ruleset]\nrule_of_five = true\n", "table [ruleset] (line 3)"),
    ],
)
def test_special_9_duplicate_toml_key_named(capsys, tmp_path, text, words):
    """A key written twice in a ruleset file is refused in one line naming the key (exit 2)."""
    path = tmp_path / "dup.toml"
    path.write_text(text)
    code, err = _cli(capsys, path)
    assert code == 2 and words in err


def test_special_7_empty_list_refused_pointing_to_none(capsys, tmp_path):
    """SPECIAL-7: ``special_hands = []`` is refused (it would silently mean no special hands);
    the message says to write "none", which is accepted."""
    path = tmp_path / "empty.toml"
    path.write_text("special_hands = []\n")
    code, err = _cli(capsys, path)
    assert code == 2 and "'special_hands'" in err and 'special_hands = "none"' in err
    path.write_text('special_hands = "none"\n')
    assert _cli(capsys, path)[0] == 0
    assert Ruleset(special_hands="none").catalogue == ()


def test_special_9_combinations_of_three_groups_enumerated_exhaustively():
    """SPECIAL-9: every list of three unranked groups of sizes (8, 4, 2) or (5, 4, 5) and any
    kinds: the search agrees with the brute force (64 lists a size triple)."""
    kinds = ("natural", "wild", "either", "any_wild")
    for sizes in ((8, 4, 2), (5, 4, 5)):
        for combo in itertools.product(kinds, repeat=3):
            groups = [{"size": s, "kind": k} for s, k in zip(sizes, combo, strict=True)]
            hand = C.Hand("club", tuple(C.Group(**g) for g in groups), 100)
            assert _accepted(groups) == _brute_force_formable(hand), groups
