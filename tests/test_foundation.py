"""Encoding, card notation and ruleset: CARD-1..3 and the variant fields."""

import numpy as np
import pytest

from sim import encoding as E
from sim.cards import counts_of, format_card, format_cards, parse_cards
from sim.errors import CanastaError, RuleViolation
from sim.ruleset import Ruleset, as_ruleset


def test_card_1_deck_has_108_cards_two_packs_and_four_jokers():
    assert E.N_CARDS == 108
    counts = np.bincount(E.CARD_KIND, minlength=E.N_KINDS)
    assert counts.tolist() == E.KIND_COPIES.tolist()
    assert counts[E.JOKER] == 4 and counts[E.TWO] == 8
    assert counts[E.RED_THREE] == 4 and counts[E.BLACK_THREE] == 4


def test_card_2_wild_natural_and_three_sets_partition_the_kinds():
    assert set(E.WILD_KINDS) == {E.JOKER, E.TWO}
    assert E.IS_NATURAL.sum() == 11 and list(np.flatnonzero(E.IS_NATURAL)) == list(E.NATURAL_KINDS)
    assert not (E.IS_WILD & E.IS_THREE).any() and not (E.IS_WILD & E.IS_NATURAL).any()


def test_card_3_point_values():
    value = {format_card(c): int(E.CARD_VALUE[c]) for c in range(E.N_CARDS)}
    assert value["JK"] == 50 and value["2S"] == 20 and value["AH"] == 20
    assert all(value[f"{r}C"] == 10 for r in ("K", "Q", "J", "10", "9", "8"))
    assert all(value[f"{r}D"] == 5 for r in ("7", "6", "5", "4"))
    assert value["3H"] == 5 and value["3S"] == 5


def test_three_colour_follows_suit():
    ids = parse_cards("3H 3D 3S 3C")
    assert [int(E.CARD_KIND[i]) for i in ids] == [E.RED_THREE] * 2 + [E.BLACK_THREE] * 2


def test_notation_round_trips_every_card():
    assert format_cards(parse_cards(format_cards(range(E.N_CARDS)))) == format_cards(
        range(E.N_CARDS)
    )


def test_notation_is_case_insensitive_and_accepts_t_for_ten():
    assert format_cards(parse_cards("as th 10d jk Qc")) == "AS 10H 10D JK QC"


@pytest.mark.parametrize("token", ["1S", "AX", "11H", "J", "", "JKR", "10"])
def test_bad_token_is_an_error_naming_it(token):
    if not token:
        assert parse_cards(token).size == 0
        return
    with pytest.raises(CanastaError, match=repr(token)):
        parse_cards(["AS", token])


def test_card_1_third_copy_is_refused():
    parse_cards("7H 7H")
    with pytest.raises(RuleViolation, match="CARD-1") as exc:
        parse_cards("7H 7H 7H")
    assert exc.value.rule == "CARD-1"
    with pytest.raises(RuleViolation):
        parse_cards("JK JK JK JK JK")


def test_counts_of():
    counts = counts_of(parse_cards("7H 7S 2C JK 3D"))
    assert counts[E.SEVEN] == 2 and counts[E.TWO] == 1 and counts[E.JOKER] == 1
    assert counts[E.RED_THREE] == 1 and counts.sum() == 5


def test_reason_table_has_a_row_per_code():
    codes = [v for k, v in vars(E).items() if k.startswith("R_")]
    assert sorted(codes) == list(range(E.N_REASONS))
    assert E.explain(E.R_SEVENS_WILD).startswith("MELD-6: ")


def test_ruleset_defaults_match_the_rulebook():
    r = Ruleset()
    assert r.allow_long_meld_going_out is False  # MELD-2
    assert r.max_wilds_mixed == 2  # MELD-4
    assert r.rule_of_five is True  # MELD-5
    assert r.wild_penalty_four_jokers == 2000  # SCORE-3
    assert r.garbage_award == 2000  # SPECIAL-6
    assert r.special_hands == "tournament"  # SPECIAL-7
    assert r.target == 8500  # GAME-1


def test_ruleset_unknown_key_is_named():
    with pytest.raises(CanastaError, match="'max_wild_mixed'"):
        Ruleset.from_dict({"max_wild_mixed": 3})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("max_wilds_mixed", 0),
        ("max_wilds_mixed", "2"),
        ("rule_of_five", 1),
        ("garbage_award", -5),
        ("special_hands", "classic"),
        ("target", 0),
    ],
)
def test_ruleset_bad_value_is_named(key, value):
    with pytest.raises(CanastaError, match=key):
        Ruleset.from_dict({key: value})


def test_ruleset_from_toml_both_layouts(tmp_path):
    flat = tmp_path / "flat.toml"
    flat.write_text("max_wilds_mixed = 3\ngarbage_award = 3000\n")
    table = tmp_path / "table.toml"
    table.write_text("[ruleset]\nspecial_hands = 'none'\n")
    assert as_ruleset(flat).max_wilds_mixed == 3 and as_ruleset(flat).garbage_award == 3000
    assert as_ruleset(str(table)).special_hands == "none"
    bad = tmp_path / "bad.toml"
    bad.write_text("[ruleset\n")
    with pytest.raises(CanastaError, match="not valid TOML"):
        as_ruleset(bad)


def test_ruleset_array_layout():
    arr = Ruleset(max_wilds_mixed=3, special_hands="none", target=5000).to_array()
    assert arr[E.RS_MAX_WILDS_MIXED] == 3 and arr[E.RS_TARGET] == 5000
    assert E.SPECIAL_HANDS_MODES[arr[E.RS_SPECIAL_HANDS]] == "none"
    assert arr.shape == (E.N_RS,)
