"""``canasta score HAND.json``: scoring from a file, and every impossible position refused with
one line naming the rule."""

import copy
import json

import pytest

from canasta import main
from sim.encoding import SCORE_ITEMS

K7 = "KS KH KD KC KS KH KD"  # natural canasta of kings
Q_MIXED = "QS QH QD QC 2S JK QS"  # mixed canasta of queens


def team(melds=(), threes=(), hands=("4S", "4H"), went_out=False, **extra):
    """A team; by default each partner holds a card (OUT-2: only the player who ends the
    hand is left with none)."""
    return {
        "melds": [m.split() for m in melds],
        "threes": list(threes),
        "hands": [h.split() for h in hands],
        "went_out": went_out,
        **extra,
    }


BASE = {
    "ruleset": {},
    "teams": [
        team([K7, Q_MIXED, "7S 7H 7D"], ["3H", "3D"], ("5C", "AS AH AD 4C")),
        team(["8S 8H 8D", "2C 2D 2H"], ["3S"], ("9S 9H", "JK")),
    ],
}


def score(capsys, tmp_path, data, fmt="json"):
    path = tmp_path / "hand.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    code = main(["score", str(path), "--format", fmt])
    out, err = capsys.readouterr()
    return code, out, err


def scored(capsys, tmp_path, data):
    code, out, err = score(capsys, tmp_path, data)
    assert code == 0, err
    return json.loads(out)["teams"]


def test_score_1_to_7_breakdown_from_a_file(capsys, tmp_path):
    """SCORE-1..7 end to end: the numbers of a position worked by hand."""
    t0, t1 = scored(capsys, tmp_path, BASE)
    assert t0["breakdown"] == {
        "canasta_bonus": 500 + 300,  # SCORE-1
        "going_out": 0,
        "melded_cards": 70 + 120 + 15,  # SCORE-6, two canastas: plus
        "threes": 300,  # SCORE-7: two red threes, two canastas
        "cards_in_hand": -70,  # SCORE-5
        "incomplete_melds": -2500,  # SCORE-2: three sevens
        "hand_penalties": -1500,  # SCORE-4: three aces
        "special_hand": 0,
    }
    assert t0["total"] == sum(t0["breakdown"].values())
    # team 1: no canasta, unfinished wild meld (SCORE-3), one black three against it
    assert t1["breakdown"]["incomplete_melds"] == -2000
    assert t1["breakdown"]["threes"] == -100
    assert t1["breakdown"]["melded_cards"] == -(30 + 60)
    assert t1["total"] == -2000 - 100 - 90 - 70


def test_table_lists_every_item_and_totals(capsys, tmp_path):
    code, out, _ = score(capsys, tmp_path, BASE, fmt="table")
    assert code == 0
    for item in (*SCORE_ITEMS, "total"):
        assert item in out
    assert "-2,765" in out


def test_out_3_going_out_and_score_8_special_hand(capsys, tmp_path):
    data = {
        "teams": [
            team([K7, Q_MIXED, "4S 4H 4D"], went_out=True, hands=("", "5S 5H")),
            team(
                hands=("", "6S 6H"),
                special_hand="AS AH 7S 7H 4C 4D 5C 5D 9S 9H 10S 10H 2S 2D".split(),
            ),
        ]
    }
    code, _, err = score(capsys, tmp_path, data)
    assert code == 2 and "END-1" in err  # a going out and a special hand in one hand
    data["teams"][0]["went_out"] = False
    data["teams"][0]["hands"][0] = ["6D"]  # not going out: the player keeps a card (OUT-2)
    t0, t1 = scored(capsys, tmp_path, data)
    assert t0["breakdown"]["going_out"] == 0
    assert t1["breakdown"] == dict.fromkeys(SCORE_ITEMS, 0) | {"special_hand": 2000}
    data["teams"][1] = team()
    data["teams"][0]["went_out"] = True
    data["teams"][0]["hands"][0] = []
    t0, _ = scored(capsys, tmp_path, data)
    assert t0["breakdown"]["going_out"] == 100  # OUT-3


def test_special_6_garbage_award_from_the_file_ruleset(capsys, tmp_path):
    data = {
        "ruleset": {"garbage_award": 3000},
        "teams": [
            team(hands=("", "4S"), special_hand="AS AH AD AC KS KH KD KC QS QH QD JS JH JD"),
            team(["8S 8H 8D"]),
        ],
    }
    t0, _ = scored(capsys, tmp_path, data)
    assert t0["total"] == 3000


def test_meld_2_variant_long_meld_when_going_out(capsys, tmp_path):
    data = copy.deepcopy(BASE)
    data["ruleset"] = {"allow_long_meld_going_out": True}
    data["teams"][0] = team([K7 + " 2H", Q_MIXED], went_out=True, hands=("", "5C"))
    t0, _ = scored(capsys, tmp_path, data)
    assert t0["breakdown"]["canasta_bonus"] == 300 + 300  # the kings took a wild: mixed
    data["teams"][0]["went_out"] = False
    code, _, err = score(capsys, tmp_path, data)
    assert code == 2 and "MELD-2" in err


def edit(path, value):
    """BASE with the field at ``path`` (a tuple of keys) replaced by ``value``."""
    data = copy.deepcopy(BASE)
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


def with_team(t, **kw):
    data = copy.deepcopy(BASE)
    data["teams"][t] = team(**kw)
    return data


BAD = {
    "card_1_third_copy": (edit(("teams", 1, "hands", 0), ["KS"]), "CARD-1"),
    "meld_6_sevens_with_wild": (with_team(1, melds=["7C 7C 7S 2D"]), "MELD-6"),
    "meld_1_two_ranks": (with_team(1, melds=["8C 8C 9S"]), "MELD-1"),
    "meld_1_too_small": (with_team(1, melds=["8C 8C"]), "MELD-1"),
    "meld_1_empty": (with_team(1, melds=[""]), "MELD-1"),
    "meld_2_too_long": (with_team(1, melds=["8C 8C 8S 8S 8D 8D 8H 8H"]), "MELD-2"),
    "meld_4_too_many_wilds": (with_team(1, melds=["8C 8C 8S 2D 2H 2C"]), "MELD-4"),
    "meld_4_wild_meld_with_a_natural": (with_team(1, melds=["8C 2D 2H JK"]), "MELD-4"),
    "meld_3_two_melds_of_a_rank": (with_team(1, melds=["8C 8C 8S", "8D 8D 8H"]), "MELD-3"),
    "meld_3_two_wild_melds": (with_team(1, melds=["2C 2C 2S", "JK JK JK"]), "MELD-3"),
    "deal_4_three_in_meld": (with_team(1, melds=["8C 8C 3S"]), "DEAL-4"),
    "deal_4_threes_not_threes": (with_team(1, threes=["3S", "4S"]), "DEAL-4"),
    # with 8 kings, two canastas of kings need two mixed ones of 4 naturals and 3 wilds
    "meld_9_both_canastas_of_a_rank": (
        {
            "ruleset": {"max_wilds_mixed": 3},
            "teams": [team(["KS KH KD KC 2S 2H 2D"]), team(["KS KH KD KC 2C JK JK"])],
        },
        "MELD-9",
    ),
    "out_1_two_canastas": (with_team(1, melds=["8C 8C 8S"], went_out=True), "OUT-1"),
    "out_1_unfinished_sevens": (edit(("teams", 0, "went_out"), True), "OUT-1"),
    "out_2_going_out_player_holds_cards": (
        with_team(
            1,
            melds=["JS JH JD JC JS JH JD", "10S 10H 10D 10C 10S 10H 10D"],
            hands=("6S", "6H"),
            went_out=True,
        ),
        "OUT-2",
    ),
    # OUT-2: a player who does not go out keeps a card; only the one ending the hand has none
    "out_2_team_did_not_go_out_and_holds_nothing": (with_team(1, hands=("", "")), "OUT-2"),
    "out_2_a_partner_holds_nothing_without_going_out": (
        with_team(1, hands=("", "9S")),
        "OUT-2",
    ),
    "out_2_partner_of_the_one_going_out_holds_nothing": (
        with_team(
            1,
            melds=["JS JH JD JC JS JH JD", "10S 10H 10D 10C 10S 10H 10D"],
            hands=("", ""),
            went_out=True,
        ),
        "OUT-2",
    ),
    "out_2_partner_of_the_declarer_holds_nothing": (
        with_team(
            1,
            hands=("", ""),
            special_hand="AS AH 7S 7H 4C 4D 5C 5D 9S 9H 10S 10H 2S 2D".split(),
        ),
        "OUT-2",
    ),
    "end_1_both_teams_with_nothing": (
        {"teams": [team(hands=("", "")), team(hands=("", ""))]},
        "END-1",
    ),
    "end_1_both_went_out": (
        {
            "teams": [
                team([K7, Q_MIXED], went_out=True),
                team(["JS JH JD JC JS JH JD", "10S 10H 10D 10C 10S 10H 10D"], went_out=True),
            ]
        },
        "END-1",
    ),
    "special_3_not_a_special_hand": (  # a Straight with a nine for its three
        with_team(1, special_hand="AS 2S 9D 4S 5D 6S 7C 8S 9S 10H JS QH KC JK".split()),
        "SPECIAL-3",
    ),
    "special_2_threes_in_pairs": (
        with_team(1, special_hand="AS AH 7S 7H 4C 4D 5C 5D 9S 9H 10S 10H 3S 3C".split()),
        "SPECIAL-2",
    ),
    "special_1_not_14": (with_team(1, special_hand="AS AH 7S 7H".split()), "SPECIAL-1"),
    "special_1_with_melds": (
        with_team(1, melds=["8C 8C 8S"], special_hand="AS AH AD AC JS JH JD JC".split()),
        "SPECIAL-1",
    ),
    "special_1_both_partners_hold_cards": (
        with_team(
            1,
            hands=("6S", "6H"),
            special_hand="4S 4H 4D 4C 5S 5H 5D 5C 6S 6H 6D 9S 9H 9D".split(),
        ),
        "SPECIAL-1",
    ),
}
BAD["special_7_specials_off"] = (
    {**with_team(1, special_hand="AS AH 7S 7H 4C 4D 5C 5D 9S 9H 10S 10H 8S 8D".split())}
    | {"ruleset": {"special_hands": "none"}},
    "SPECIAL-7",
)


@pytest.mark.parametrize("case", list(BAD))
def test_impossible_positions_are_refused_naming_the_rule(capsys, tmp_path, case):
    data, rule = BAD[case]
    code, out, err = score(capsys, tmp_path, data)
    assert code == 2 and out == ""
    assert err.startswith("canasta: error: ") and err.count("\n") == 1, err
    assert rule in err, err


MALFORMED = {
    "not_json": ('{"teams": [', "not valid JSON"),
    "not_an_object": ("[1, 2]", "expected an object"),
    "missing_teams": ({"ruleset": {}}, "missing key 'teams'"),
    "one_team": ({"teams": [team()]}, "two teams"),
    "missing_team_key": (
        {"teams": [{"melds": [], "threes": [], "hands": [[], []]}, team()]},
        "'went_out'",
    ),
    "unknown_team_key": ({"teams": [team(wentout=True), team()]}, "'wentout'"),
    "went_out_not_bool": (edit(("teams", 0, "went_out"), "yes"), "true or false"),
    "melds_not_a_list": (edit(("teams", 0, "melds"), 5), "list of card lists"),
    "card_not_a_string": (edit(("teams", 1, "threes"), [3]), "list of cards"),
    "bad_token": (edit(("teams", 1, "threes"), ["3X"]), "'3X'"),
    "three_hands": (edit(("teams", 1, "hands"), [[], [], []]), "two partners"),
    "unknown_ruleset_key": (edit(("ruleset",), {"garbage": 1}), "'garbage'"),
    "ruleset_not_object": (edit(("ruleset",), [1]), "ruleset"),
    "ruleset_empty_list": (edit(("ruleset",), []), "ruleset"),
    "unknown_top_key": (edit(("rules",), {}), "'rules'"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_input_is_one_line_exit_2(capsys, tmp_path, case):
    data, message = MALFORMED[case]
    code, out, err = score(capsys, tmp_path, data)
    assert code == 2 and out == ""
    assert err.startswith("canasta: error: ") and err.count("\n") == 1, err
    assert message in err, err


def test_missing_file_is_one_line_exit_2(capsys, tmp_path):
    assert main(["score", str(tmp_path / "nope.json")]) == 2
    err = capsys.readouterr().err
    assert "not found" in err and err.count("\n") == 1
