"""One game driver (``sim.play.GameDriver``) and its faces: the same seeded games played
through the compiled games kernel (``sim.simulate_games``), the driver, the PettingZoo
environment (``game=True``), the web table (its game mode) and record replay
(``sim.play.record.replay``) give the same hands, totals and winners (GAME-1, SPECIAL-10, DEAL-1
rotation, OPEN-1 by score or by hand number, OPEN-2 variants); a replay refuses a hand after
the game ended, naming the rule."""

from __future__ import annotations

import json

import pytest

from sim import encoding as E
from sim import simulate_games
from sim.env import raw_env
from sim.errors import CanastaError
from sim.play.game import GameDriver, GameOverError
from sim.play.record import RecordError, dumps, from_games, game_hand, hand_entry, replay
from tests.helpers import play_env_episode

POLICIES = ("special_chaser", "heuristic")  # a chaser, so special hands are declared
#: a club list whose only hand wins the game (SPECIAL-9/10), with a small award: a game it
#: ends may be won by the team behind on points
CLUB_WINS = {
    "special_hands": [
        {"name": "pairs", "award": 500, "wins_game": True, "groups": [{"size": 2}] * 7}
    ]
}
VARIANTS = {
    "tournament": None,
    "cla": "cla",
    "club-example": "club-example",
    "club-wins": CLUB_WINS,
    "opening-by-hand": {"opening_minimum": "hand"},
    "wild-opening": {"opening_natural": False, "special_hands": "cla"},
}
N_GAMES = 4
SEED = 3


def _env_game(rules, game_id: int):
    """Game ``game_id`` of run SEED through the environment, each seat its team's policy."""
    e = raw_env(game=True, ruleset=rules)
    e.reset(seed=SEED, options={"game_id": game_id})
    play_env_episode(e, POLICIES)
    return e


def _web_game(rules, game_id: int):
    """Game ``game_id`` of practice seed SEED at the web table, the human's seat (0) moved
    as its team's policy would move it, one action at a time; a new hand dealt until the
    table's game is over."""
    from canasta.web.table import Table
    from sim.play.moves import Move

    t = Table(
        seed=SEED,
        mode="game",
        partner=POLICIES[0],
        opponents=POLICIES[1],
        rules=rules,
        game_id=game_id,
    )
    while not t.game_over():
        if t.game.is_over:
            t.new_hand()
            continue
        t.play(Move.of_action(t.game.policy_action(POLICIES[0])))
    return t


def _record(driver: GameDriver) -> dict:
    return from_games(driver.hands, kind="game")


def _replayed(record: dict, rules) -> GameDriver:
    """A driver fed the hands a replay of ``record`` plays (totals, winner)."""
    games = replay(json.loads(dumps(record)))
    driver = GameDriver(rules=rules)
    for g in games:
        driver.end_hand(g)
    return driver


def test_the_faces_are_compared_under_every_shipped_ruleset():
    """A ruleset shipped later joins the cross-face test below (by its name)."""
    from sim.ruleset import shipped_rulesets

    assert set(shipped_rulesets()) <= set(VARIANTS)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_game_1_special_10_every_face_plays_the_same_games(name):
    """GAME-1, SPECIAL-10, DEAL-1, OPEN-1/2: kernel, driver, env and replay agree, game by
    game, on the hands played, the totals and the winner; hand k of game g is seeded
    g * 1024 + k, first played by (g + k) % 4, numbered k + 1."""
    rules = VARIANTS[name]
    kernel = simulate_games(N_GAMES, POLICIES, seed=SEED, ruleset=rules)
    ends = set()
    for g in range(N_GAMES):
        row = kernel.iloc[g]
        want = (int(row.hands), [int(row.score_team0), int(row.score_team1)], int(row.winner))
        driver = GameDriver(seed=SEED, game_id=g, rules=rules).play(POLICIES)
        assert (driver.hands_played, driver.totals, driver.winner) == want, (name, g)
        assert driver.summary() == {k: int(row[k]) for k in driver.summary()}
        for k, hand in enumerate(driver.hands):
            assert hand.hand_id == g * E.GAME_HAND_STRIDE + k
            assert hand.first_player == (g + k) % E.N_PLAYERS
            assert hand.hand_number == k + 1
        env = _env_game(rules, g)
        assert (env.hands_played, env.totals, env.winner) == want, (name, g, "env")
        web = _web_game(rules, g).driver
        assert (web.hands_played, web.totals, web.winner) == want, (name, g, "web")
        again = _replayed(_record(driver), rules)
        assert (again.hands_played, again.totals, again.winner) == want, (name, g, "replay")
        assert again.ended_by == driver.ended_by
        ends.add(driver.ended_by)
    if name == "club-wins":  # the check above covered games a winning hand ended
        assert "SPECIAL-10" in ends


def test_special_10_the_winning_hand_wins_whatever_the_scores():
    """SPECIAL-10: in the club list's games, a game ended by the winning hand goes to the
    declaring team; in at least one the declaring team is behind on points (the audit's
    reversed winner), and the kernel, the driver and the env all name the declarer."""
    reversed_seen = False
    kernel = simulate_games(N_GAMES, POLICIES, seed=SEED, ruleset=CLUB_WINS)
    for g in range(N_GAMES):
        d = GameDriver(seed=SEED, game_id=g, rules=CLUB_WINS).play(POLICIES)
        if d.ended_by != "SPECIAL-10":
            continue
        _, team = d.hands[-1].special_hand
        assert d.winner == team == kernel.winner.iloc[g] == _env_game(CLUB_WINS, g).winner
        reversed_seen |= d.totals[team] < d.totals[1 - team]
    assert reversed_seen


def _ended_game(rules, rule: str) -> GameDriver:
    for g in range(N_GAMES):
        d = GameDriver(seed=SEED, game_id=g, rules=rules).play(POLICIES)
        if d.ended_by == rule:
            return d
    raise AssertionError(f"no game of the sample ended by {rule}")  # pragma: no cover


@pytest.mark.parametrize("rules, rule", [(None, "GAME-1"), (CLUB_WINS, "SPECIAL-10")])
def test_game_1_special_10_replay_refuses_a_hand_after_the_game_ended(
    rules, rule, tmp_path, capsys
):
    """GAME-1 / SPECIAL-10: a record that plays on after its game ended is refused at the
    hand that follows, naming the rule that ended the game (``replay`` and ``canasta
    replay``, exit 2); the driver refuses to deal it too."""
    from canasta import main

    d = _ended_game(rules, rule)
    with pytest.raises(GameOverError) as err:
        d.deal()
    assert err.value.rule == rule
    extra = game_hand(SEED, d.game_id, len(d.hands), d.totals, rules)
    extra.play(POLICIES)
    record = _record(d)
    record["hands"].append(hand_entry(extra))
    with pytest.raises(RecordError) as err:
        replay(record)
    assert err.value.rule == rule and f"hand {len(d.hands) + 1}" in str(err.value)
    path = tmp_path / "on.json"
    path.write_text(dumps(record))
    assert main(["replay", str(path)]) == 2
    out = capsys.readouterr().err
    assert rule in out and out.count("\n") == 1
    assert len(replay(_record(d))) == len(d.hands)  # the game itself replays


def test_game_1_driver_start_scores_and_first_player():
    """GAME-1 / DEAL-1: a game may start from given scores and first player: hand k is first
    played by (first + k) % 4 and starts at the running totals; a start at the target's edge
    ends sooner than the same game from 0/0, and totals chain hand to hand."""
    plain = GameDriver(seed=SEED, game_id=1).play(POLICIES)
    ahead = GameDriver(seed=SEED, game_id=1, scores=(8400, 0), first_player=2).play(POLICIES)
    assert ahead.hands_played < plain.hands_played
    running = [8400, 0]
    for k, hand in enumerate(ahead.hands):
        assert hand.first_player == (2 + k) % 4 and list(hand.start_scores) == running
        items = hand.score_items()
        running = [running[t] + int(items[t].sum()) for t in range(2)]
    assert running == ahead.totals
    default = GameDriver(seed=SEED, game_id=5)
    assert default.first_player == 1 and default.totals == [0, 0]  # the kernel's defaults


def test_game_1_driver_refuses_out_of_order_calls():
    """The driver deals one hand at a time: no second deal while a hand runs, no end of a
    hand still running, no end before a deal; bad arguments refused by name."""
    d = GameDriver(seed=1)
    with pytest.raises(CanastaError, match="no hand is running"):
        d.end_hand()
    d.deal()
    with pytest.raises(CanastaError, match="still running"):
        d.deal()
    with pytest.raises(CanastaError, match="not over"):
        d.end_hand()
    for kw, word in (({"first_player": 4}, "first_player"), ({"game_id": -1}, "game_id")):
        with pytest.raises(CanastaError, match=word):
            GameDriver(**kw)


def test_open_1_advise_record_on_hand_2_uses_hand_2s_minimum(tmp_path):
    """OPEN-1 (``opening_minimum = "hand"``): ``canasta advise --record`` opens a decision of
    hand 2 of a game as a position of hand 2 (minimum 155), not hand 1."""
    from canasta.advise import record_position

    rules = {"opening_minimum": "hand"}
    d = GameDriver(seed=SEED, game_id=0, rules=rules).play(POLICIES)
    assert d.hands_played >= 2
    path = tmp_path / "game.json"
    path.write_text(dumps(_record(d)))
    first = len(d.hands[0].actions)
    for n in range(first + 1, first + len(d.hands[1].actions) + 1):
        try:
            pos, _, ruleset, _ = record_position(str(path), n)
        except CanastaError:
            continue  # a step advise cannot open (threes, a meld already made)
        break
    else:  # pragma: no cover
        raise AssertionError("no decision of hand 2 could be opened")
    assert pos.hand_number == 2 and ruleset.opening_minimum == "hand"


def test_game_1_driver_resumes_a_replayed_game_and_replaces_the_running_hand():
    """A face that restarts (a server) resumes the driver from the replayed hands: the same
    totals, winner and end; a running last hand is current, and an undo may put the same
    deal, replayed to an earlier action, in its place (another deal is refused)."""
    d = GameDriver(seed=SEED, game_id=2, rules=CLUB_WINS).play(POLICIES)
    back = GameDriver.resume(replay(_record(d)), seed=SEED, game_id=2)
    assert (back.totals, back.winner, back.ended_by) == (d.totals, d.winner, d.ended_by)
    live = GameDriver(seed=SEED, game_id=2)
    live.deal().play(POLICIES)
    live.end_hand()
    hand = live.deal()
    for _ in range(6):
        hand.apply(hand.policy_action("heuristic"))
    again = GameDriver.resume(replay(_record(live)), seed=SEED, game_id=2)
    assert again.hands_played == 1 and again.hand.actions == hand.actions
    from sim.play.record import redeal

    fresh = redeal(hand)
    again.replace_hand(fresh)
    assert again.hand is fresh
    with pytest.raises(CanastaError, match="not the running hand"):
        again.replace_hand(live.hands[0])
