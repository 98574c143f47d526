"""Whole games from any score (GAME-1, OPEN-1, DEAL-1): start scores, the first player and a
cap on the hands, through ``sim.simulate_games`` and ``canasta simulate --games``."""

import numpy as np
import pandas as pd
import pytest

from canasta import main
from sim import simulate_games
from sim.encoding import GAME_HAND_STRIDE
from sim.play import Hand as Game

POL = ("heuristic", "greedy")


def test_game_1_open_1_one_hand_from_a_start_is_the_step_api_hand():
    """A game stopped after one hand from (5,000, -300), seat 1 first: its final scores are the
    start plus the hand that ``Game`` plays from the same seed, deal, scores and first player
    (OPEN-1: 180 for team 0, 125 for team 1, read from the start scores)."""
    start = (5000, -300)
    df = simulate_games(4, POL, seed=3, scores=start, first_player=1, max_hands=1)
    assert df["hands"].tolist() == [1] * 4
    for g in range(4):
        hand = Game(seed=3, hand_id=g * GAME_HAND_STRIDE, first_player=1, scores=start)
        hand.play(POL)
        s = hand.scores()
        row = df.iloc[g]
        assert (row["score_team0"], row["score_team1"]) == (
            start[0] + s[0]["total"],
            start[1] + s[1]["total"],
        )


def test_deal_1_the_first_player_rotates_from_the_given_seat():
    """Hand k of a game whose first hand seat f opens is played with seat (f + k) % 4 first:
    the second hand of a game from seat 3 is the step API's hand with seat 0 first."""
    two = simulate_games(3, POL, seed=5, scores=(100, 200), first_player=3, max_hands=2)
    for g in range(3):
        first = Game(seed=5, hand_id=g * GAME_HAND_STRIDE, first_player=3, scores=(100, 200))
        first.play(POL)
        s = first.scores()
        mid = (100 + s[0]["total"], 200 + s[1]["total"])
        if (max(mid) >= 8500 and mid[0] != mid[1]) or first.end_reason == "special":
            continue  # the game may have ended after one hand
        second = Game(
            seed=5, hand_id=g * GAME_HAND_STRIDE + 1, first_player=0, scores=mid, hand_number=2
        )
        second.play(POL)
        t = second.scores()
        assert two.iloc[g]["score_team0"] == mid[0] + t[0]["total"]
        assert two.iloc[g]["score_team1"] == mid[1] + t[1]["total"]


def test_game_1_games_from_near_the_target_end_at_or_above_it():
    """From 8,400 against 0 every game ends with a winner whose total reached the target, and
    the leader wins more often than not."""
    df = simulate_games(40, POL, seed=1, scores=(8400, 0))
    assert (df["winner"] >= 0).all()
    top = np.maximum(df["score_team0"], df["score_team1"])
    assert (top >= 8500).all()
    assert (df["winner"] == 0).mean() > 0.5


def test_defaults_are_the_game_from_zero_with_the_rotating_deal():
    """scores (0, 0) and no first player are the defaults: the same rows as before."""
    a = simulate_games(5, POL, seed=9)
    b = simulate_games(5, POL, seed=9, scores=(0, 0), first_player=None, hand_number=1)
    pd.testing.assert_frame_equal(a, b, check_exact=True)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"scores": (8500, 0)}, r"already won at these scores \(GAME-1: target 8,500"),
        ({"scores": (0, 0), "ruleset": {"target": 5000}, "first_player": 0}, None),
        ({"scores": (0, 9000), "ruleset": {"target": 5000}}, "GAME-1: target 5,000"),
        ({"first_player": 4}, "first_player 4"),
        ({"max_hands": 0}, "max_hands 0"),
        ({"scores": "0,0"}, "pair of integers"),
    ],
)
def test_game_start_bad_input_names_the_problem(kwargs, message):
    from sim.errors import CanastaError

    if message is None:  # accepted
        assert len(simulate_games(1, POL, **kwargs)) == 1
        return
    with pytest.raises(CanastaError, match=message):
        simulate_games(1, POL, **kwargs)


def test_cli_simulate_games_from_scores(capsys):
    argv = ["simulate", "--games", "4", "--policies", "heuristic,greedy", "--quiet"]
    assert main([*argv, "--scores", "3000,-500", "--first-player", "2"]) == 0
    out = capsys.readouterr().out
    assert "4 games played, from 3,000 to -500, seat 2 first" in out
    for bad, message in [
        (["--scores", "3000"], "expected 2 comma-separated integers"),
        (["--scores", "9000,0"], "team 0 has already won"),
        (["--first-player", "7"], "--first-player 7"),
    ]:
        assert main([*argv, *bad]) == 2
        err = capsys.readouterr().err
        assert err.startswith("canasta: error:") and message in err and "Traceback" not in err
    assert main(["simulate", "-n", "4", "--scores", "1,2", "--quiet"]) == 2
    assert "go with --games" in capsys.readouterr().err
