"""The edges of a game (GAME-1, SCORE-3), one rule on every face (``sim.finished``):

- a game starts from scores at which neither team has won: (8,500, 0) or (0, 9,000) is refused
  by the driver (and so ``replay``), ``simulate_games``, the env's game mode and the equity
  table alike; an exact tie at or over the target is a legal start (a tie plays another hand);
- a total beyond ±1,000,000,000 (``sim.limits.MAX_SCORE``: a start near -10⁹, or a ruleset
  whose awards and penalties may each be 10⁹) ends the game undecided, naming the bound, in
  the compiled games, the driver, the env and the web table alike.
"""

from __future__ import annotations

import pytest

from sim import simulate_games
from sim.env import raw_env
from sim.errors import CanastaError
from sim.limits import MAX_SCORE
from sim.play.game import ENDED_BY_BOUND, GameDriver, GameOverError
from tests.helpers import play_env_episode

POLICIES = ("random", "heuristic")  # team 0 plays badly: its first hand is often negative
SEED = 3
WON = [(8500, 0), (0, 9000), (9000, 8600)]  #: starts at which a team has won (GAME-1)
TIES = [(8500, 8500), (9100, 9100)]  #: exact ties at or over the target: legal starts
NEAR = (-MAX_SCORE, 0)  #: a legal start from which one bad hand passes the bound


def _row(df, g: int):
    r = df.iloc[g]
    return int(r.hands), [int(r.score_team0), int(r.score_team1)], int(r.winner)


# --- GAME-1: where a game may start ----------------------------------------------------------
@pytest.mark.parametrize("scores", WON)
def test_game_1_a_start_where_a_team_has_won_is_refused_everywhere(scores):
    """GAME-1: the driver, the games kernel's setup, the env's game mode and the equity table
    refuse a start at which a team has already won, with one message naming GAME-1."""
    from analysis.equity import synthetic_table

    faces = {
        "driver": lambda: GameDriver(seed=1, scores=scores),
        "simulate_games": lambda: simulate_games(1, POLICIES, seed=1, scores=scores),
        "env": lambda: raw_env(game=True, scores=scores),
        "equity": lambda: synthetic_table().value(*scores),
    }
    for face, call in faces.items():
        with pytest.raises(CanastaError) as err:
            call()
        text = str(err.value)
        assert "GAME-1" in text and "already won" in text and "\n" not in text, face


def test_game_1_replay_refuses_a_record_that_starts_after_the_game_was_won():
    """GAME-1: a game record whose first hand starts at (8,500, 0) is refused by replay."""
    from sim.play import Hand
    from sim.play.record import from_games, replay

    hand = Hand(seed=1, hand_id=0, scores=(8500, 0))  # one hand may start anywhere (OPEN-1)
    hand.play(POLICIES)
    with pytest.raises(CanastaError, match="GAME-1"):
        replay(from_games([hand], kind="game"))


def test_game_1_equity_command_refuses_a_won_start_before_any_work(capsys):
    from canasta import main

    assert main(["equity", "--scores", "0,9000"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--scores 0,9000" in err and "GAME-1" in err


@pytest.mark.parametrize("scores", TIES)
def test_game_1_a_tie_at_the_target_plays_another_hand_on_every_face(scores):
    """GAME-1: from an exact tie at or over the target the game goes on; the kernel, the
    driver and the env play the same games from it (at least one hand each)."""
    kernel = simulate_games(3, POLICIES, seed=SEED, scores=scores)
    for g in range(3):
        want = _row(kernel, g)
        assert want[0] >= 1
        d = GameDriver(seed=SEED, game_id=g, scores=scores).play(POLICIES)
        assert (d.hands_played, d.totals, d.winner) == want
        assert list(d.hands[0].start_scores) == list(scores)
        e = raw_env(game=True, scores=scores)
        e.reset(seed=SEED, options={"game_id": g})
        assert list(e.driver.start_scores) == list(scores)  # not silently 0/0
        play_env_episode(e, POLICIES)
        assert (e.hands_played, e.totals, e.winner) == want


def test_game_1_equity_at_a_tie_at_the_target_is_the_tie_value():
    """GAME-1: the equity table answers a tie at or over the target with its tie value (the
    next hand's higher scorer wins) and that value's standard error."""
    from analysis.equity import synthetic_table

    t = synthetic_table()
    for first in (0, 1):
        v = t.value(8500, 8500, first=first)
        assert v["win_team0"] == pytest.approx(t.meta["tie"][first])
        assert v["se"] == pytest.approx(t.meta["tie_se"][first])
        assert v["ci_low"] < v["win_team0"] < v["ci_high"]
        assert t.value(9100, 9100, first=first)["win_team0"] == v["win_team0"]


# --- GAME-1 and the bound on totals ---------------------------------------------------------
def test_game_1_a_total_past_the_bound_ends_the_game_undecided_kernel_and_driver():
    """From (-10⁹, 0) a negative first hand of team 0 passes the bound: the games kernel and
    the driver end the game there, undecided (winner -1), and the driver refuses the next
    hand naming the bound; games that stay in bounds play on alike."""
    kernel = simulate_games(4, POLICIES, seed=SEED, scores=NEAR)
    bound = 0
    for g in range(4):
        want = _row(kernel, g)
        d = GameDriver(seed=SEED, game_id=g, scores=NEAR).play(POLICIES)
        assert (d.hands_played, d.totals, d.winner) == want
        if d.ended_by == ENDED_BY_BOUND:
            bound += 1
            assert d.winner == -1 and min(d.totals) < -MAX_SCORE
            with pytest.raises(GameOverError, match="1,000,000,000") as err:
                d.deal()
            assert err.value.rule == "GAME-1" and "bound" in str(err.value)
    assert bound >= 1  # the sample holds such a game


def test_game_1_a_ruleset_at_its_bounds_is_played_by_the_driver_as_by_the_kernel():
    """SCORE-3: with every penalty and award in bounds but at 10⁹ (a target of 10⁹ too), a
    game whose totals pass the bound ends undecided on both faces instead of the driver
    failing to deal the next hand."""
    rules = {"wild_penalty_four_jokers": MAX_SCORE, "target": MAX_SCORE}
    start = (-MAX_SCORE + 3000, 0)  # any bad hand of team 0 now passes the bound
    kernel = simulate_games(4, POLICIES, seed=SEED, ruleset=rules, scores=start)
    ends = set()
    for g in range(4):
        d = GameDriver(seed=SEED, game_id=g, rules=rules, scores=start).play(POLICIES)
        assert (d.hands_played, d.totals, d.winner) == _row(kernel, g)
        ends.add(d.ended_by)
    assert ENDED_BY_BOUND in ends


def test_game_1_the_env_truncates_a_game_past_the_bound():
    """The env's game mode starts at its ``scores`` and truncates a game past the bound, with
    no winner, as the kernel records it."""
    kernel = simulate_games(4, POLICIES, seed=SEED, scores=NEAR)
    seen = False
    for g in range(4):
        e = raw_env(game=True, scores=NEAR)
        e.reset(seed=SEED, options={"game_id": g})
        play_env_episode(e, POLICIES)
        assert (e.hands_played, e.totals, e.winner) == _row(kernel, g)
        if e.driver.ended_by == ENDED_BY_BOUND:
            seen = True
            assert all(e.truncations.values()) and not any(e.terminations.values())
    assert seen


def test_game_1_the_web_table_ends_a_game_past_the_bound(monkeypatch):
    """The web table's game (its driver started near the bound) ends after the hand that
    passes it: the page shows the game over, no next hand, and a new hand is refused naming
    the bound, where it used to fail dealing it."""
    import sim.game
    from canasta.web.table import Table
    from sim.play.moves import Move

    class NearBound(GameDriver):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, scores=NEAR, **kwargs)

    monkeypatch.setattr(sim.game, "GameDriver", NearBound)
    for game_id in range(4):
        t = Table(seed=SEED, mode="game", partner="random", opponents="heuristic", game_id=game_id)
        while not t.game.is_over:
            t.play(Move.of_action(t.game.policy_action("random")))
        if t.driver.ended_by != ENDED_BY_BOUND:
            continue
        result = t.view()["result"]
        assert result["game_over"] and not result["next_hand"]
        with pytest.raises(GameOverError, match="bound"):
            t.new_hand()
        return
    raise AssertionError("no game of the sample passed the bound")  # pragma: no cover
