"""The list in force in play (SPECIAL-7..10, SCORE-8): the engine declares and scores any
catalogue hand, a hand that wins the game ends it, special_chaser chases the list's nearest hand,
records name the hands of the list."""

import numpy as np
import pytest

import sim
from sim import encoding as E
from sim.catalogue import CLA, catalogue_from
from sim.ruleset import Ruleset
from sim.special import nearest_hand

CLA_RULES = Ruleset(special_hands="cla")


@pytest.fixture(scope="module")
def cla_hands():
    return sim.simulate(
        1500, policies=("special_chaser", "special_chaser"), seed=32, ruleset=CLA_RULES
    )


def test_score_8_cla_hands_declared_in_play_score_their_award(cla_hands):
    """SCORE-8, SPECIAL-8: in 1,500 fixed-seed hands of special_chaser under the cla list, the
    declared hands are cla hands (several of them), each scored with its listed award, and no
    policy error occurs."""
    df = cla_hands
    award = {h.name: h.award for h in CLA}
    declared = df[df["special_hand"] != ""]
    assert declared["special_hand"].nunique() >= 3
    assert set(declared["special_hand"]) <= set(award)
    assert set(declared["special_hand"]) - {"pairs", "straight", "garbage"}  # not the tournament's
    for _, row in declared.iterrows():
        t = row["special_team"]
        assert row[f"team{t}_special_hand"] == award[row["special_hand"]]
        assert row[f"team{1 - t}_special_hand"] == 0
    assert df["policy_errors"].sum() == 0


def test_special_8_chaser_goes_for_the_nearest_hand_of_the_list():
    """SPECIAL-8/9: nearest_hand names the list's hand the cards come nearest and the cards it
    wants: one card from Zip Code, and from a Wild Pairs hand under the cla list."""
    rules = CLA_RULES.to_array()
    need = np.zeros(E.N_KINDS, dtype=np.int64)
    c = np.zeros(E.N_KINDS, dtype=np.int64)
    c[[E.EIGHT, E.JOKER]] = 2
    c[[E.QUEEN, E.KING]] = 3
    c[E.FOUR] = 3
    c[E.NINE] = 1  # Zip Code wants a fourth four, not the nine
    miss, code = nearest_hand(c, rules, need)
    assert (miss, CLA[code - 1].name) == (1, "zip_code")
    assert need[E.FOUR] == 4 and need[E.NINE] == 0 and need.sum() == 14
    c[:] = 0
    c[[E.ACE, E.SEVEN, E.TWO, E.KING, E.QUEEN, E.JACK]] = 2
    c[E.FIVE], c[E.SIX] = 1, 1
    miss, code = nearest_hand(c, rules, need)
    assert miss == 1 and CLA[code - 1].name == "wild_pairs"


def test_special_10_a_hand_that_wins_the_game_ends_it():
    """SPECIAL-10, GAME-1: with a club list whose Pairs wins the game, fixed-seed games of
    special_chaser end at the hand Pairs is declared (fewer hands than the same games without
    the rule, their winner short of the target in some), and the other games play the same
    hands."""
    pairs = {"name": "pairs", "award": 2500, "groups": [{"size": 2}] * 7}
    wins = Ruleset(special_hands=[{**pairs, "wins_game": True}])
    plain = Ruleset(special_hands=[pairs])
    kw = {"policies": ("special_chaser", "special_chaser"), "seed": 7}
    a, b = sim.simulate_games(120, ruleset=wins, **kw), sim.simulate_games(120, ruleset=plain, **kw)
    assert (a["hands"] <= b["hands"]).all()
    ended = a["hands"] < b["hands"]
    assert ended.sum() >= 3
    same = ~ended  # the same hands (a Pairs in the last hand may still change the winner)
    cols = ["hands", "score_team0", "score_team1"]
    assert (a.loc[same, cols].to_numpy() == b.loc[same, cols].to_numpy()).all()
    won = a[ended]
    best = np.maximum(won["score_team0"], won["score_team1"])
    assert (best < wins.target).any()  # won by the hand, not by the score


def test_special_9_a_club_list_in_a_file_plays_end_to_end(tmp_path):
    """SPECIAL-9: a club list written in a TOML file plays (records name its hands), with
    exact odds for each of its hands."""
    from sim.odds import exact_odds

    path = tmp_path / "club.toml"
    path.write_text(
        'name = "Our club"\n'
        "[[special_hands]]\n"
        'name = "jokers_pairs"\naward = 2000\n'
        'groups = [{size = 2, kind = "wild", rank = "JK"}, {size = 2}, {size = 2}, {size = 2},'
        " {size = 2}, {size = 2}, {size = 2}]\n"
        "[[special_hands]]\n"
        'name = "pairs"\naward = 2500\ngroups = [{size = 2}, {size = 2}, {size = 2}, {size = 2},'
        " {size = 2}, {size = 2}, {size = 2}]\n"
    )
    rules = Ruleset.from_toml(path)
    assert rules.label == "Our club" and [h.name for h in rules.catalogue] == [
        "jokers_pairs",
        "pairs",
    ]
    odds = exact_odds(rules)
    assert (
        list(odds) == ["jokers_pairs", "pairs", "any"]
        and odds["any"] == odds["pairs"] + odds["jokers_pairs"]
    )
    df = sim.simulate(600, policies=("special_chaser", "heuristic"), seed=3, ruleset=path)
    assert set(df["special_hand"]) <= {"", "jokers_pairs", "pairs"}
    assert (df["special_hand"] != "").any() and df["policy_errors"].sum() == 0
    assert catalogue_from(rules.to_dict()["special_hands"]) == rules.catalogue


def test_special_8_advise_offers_a_cla_declaration():
    """SPECIAL-1/8: under the cla list, a Zip Code after a stock draw is offered as a
    declaration by name (no hand of the tournament list: there, no declaration is offered)."""
    from analysis import advise as adv
    from analysis.whatif import position

    spec = {"hand": "8S 8H JK JK QS QH QD KS KH KD 4S 4H 4D", "turn": 4, "pile_top": "5D"}
    kw = {"drawn": "4C", "n": 4, "policies": ("heuristic", "heuristic")}
    a = adv.advise(position(**spec), ruleset=CLA_RULES, **kw)
    assert "declare a special hand (zip_code)" in [c.label for c in a.choices]
    b = adv.advise(position(**spec), **kw)
    assert not [c for c in b.choices if c.label.startswith("declare")]
