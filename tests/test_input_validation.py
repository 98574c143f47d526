"""The Python API refuses bad numbers like the command line: ``CanastaError`` naming the
parameter and its allowed range, before any kernel sees the value (``sim.limits``); and the
finished-hand checks of ``sim.finished`` name the rule an impossible end breaks."""

from __future__ import annotations

import json

import numpy as np
import pytest

import sim
from sim import limits as V
from sim.errors import CanastaError, RuleViolation

HUGE = 10**25  # beyond int64


# ---------------------------------------------------------------------------------------
# The shared checks
# ---------------------------------------------------------------------------------------
def test_check_int_names_the_parameter_the_value_and_the_range():
    assert V.check_int("turn", np.int64(5), 0, 9) == 5
    with pytest.raises(CanastaError, match=r"^turn 10: must be an integer in 0\.\.9$"):
        V.check_int("turn", 10, 0, 9)
    for bad in (True, 1.5, "3", None, np.float64(2.0)):
        with pytest.raises(CanastaError, match=r"turn .*must be an integer"):
            V.check_int("turn", bad, 0, 9)


def test_limits_of_counts_seeds_scores_and_jobs():
    assert V.check_seed(V.MAX_SEED) == V.MAX_SEED
    ss = np.random.SeedSequence(2**100)  # big entropy stays possible through a SeedSequence
    assert V.check_seed(ss) is ss
    for bad in (-1, V.MAX_SEED + 1):
        with pytest.raises(CanastaError, match="seed"):
            V.check_seed(bad)
    assert V.check_scores((-5, V.MAX_SCORE)) == (-5, V.MAX_SCORE)
    for bad in (("a", "b"), (0,), (0, 0, 0), "0,0", (HUGE, 0), 5):
        with pytest.raises(CanastaError, match="scores"):
            V.check_scores(bad)
    assert V.check_jobs(-1) == -1 and V.check_jobs(V.MAX_JOBS) == V.MAX_JOBS
    for bad in (0, -2, V.MAX_JOBS + 1, HUGE):
        with pytest.raises(CanastaError, match="n_jobs"):
            V.check_jobs(bad)


def test_chunk_count_limit_names_the_least_chunk_size():
    n = V.MAX_CHUNKS * 10
    assert V.check_chunks(n, 10) == 10
    with pytest.raises(CanastaError, match=f"at least {10:,}") as exc:
        V.check_chunks(n, 9)
    assert f"{V.MAX_CHUNKS:,}" in str(exc.value)


def test_in_memory_check_refuses_a_table_larger_than_memory(monkeypatch):
    monkeypatch.setattr(V, "memory_bytes", lambda: 1000)
    V.check_in_memory(10, 100, "hands")  # exactly fits
    with pytest.raises(CanastaError, match=r"11 hands kept in memory.*out=DIR"):
        V.check_in_memory(11, 100, "hands")


def test_limits_fit_the_seeding():
    """Hand ids must fit seed_hand's int64 index; game g seeds hands g * 1024 + k."""
    from sim.encoding import GAME_HAND_STRIDE

    assert V.MAX_HANDS - 1 <= V.MAX_HAND_ID
    assert V.MAX_GAMES * GAME_HAND_STRIDE <= V.MAX_HAND_ID
    assert V.MAX_DEALS <= V.MAX_HAND_ID


def test_out_dir_must_be_a_directory(tmp_path):
    f = tmp_path / "a-file"
    f.write_text("x")
    V.check_out_dir(tmp_path / "new" / "run")
    for bad in (f, f / "below", ""):
        with pytest.raises(CanastaError, match="out"):
            V.check_out_dir(bad)


# ---------------------------------------------------------------------------------------
# The API refuses before any work
# ---------------------------------------------------------------------------------------
def test_simulate_refuses_counts_no_run_could_finish():
    with pytest.raises(CanastaError, match=f"n_hands.*{V.MAX_HANDS:,}"):
        sim.simulate(HUGE)
    with pytest.raises(CanastaError, match="kept in memory"):
        sim.simulate(V.MAX_HANDS)  # fine on disk, never in memory
    with pytest.raises(CanastaError, match="chunk"):
        sim.simulate(V.MAX_HANDS, chunk_size=1, out="unused")
    with pytest.raises(CanastaError, match="seed"):
        sim.simulate(5, seed=2**64)
    with pytest.raises(CanastaError, match="n_jobs"):
        sim.simulate(5, n_jobs=HUGE)
    from sim.api import simulate_games

    with pytest.raises(CanastaError, match=f"n_games.*{V.MAX_GAMES:,}"):
        simulate_games(V.MAX_GAMES + 1)


def test_policy_parameters_beyond_the_limit_are_refused():
    """A count given to a policy (the expert's samples...) is cast to int64 in its kernel."""
    from sim.policies.registry import parse

    assert parse(f"heuristic:sevens_threshold={V.MAX_PARAM}")[1][0] == V.MAX_PARAM
    for spec in ("expert:samples=1e300", f"heuristic:sevens_threshold={HUGE}"):
        with pytest.raises(CanastaError, match=f"at most {V.MAX_PARAM:,}"):
            parse(spec)


def test_play_hands_params_must_match_the_policies():
    from sim.api import play_hands
    from sim.rng import run_key

    for params in ([np.zeros(1), np.zeros(1)], [np.zeros(99)], "x"):
        with pytest.raises(CanastaError, match="params"):
            play_hands(run_key(0), 0, 1, ("heuristic", "heuristic"), params=params)


def test_chunk_functions_refuse_ranges_beyond_int64():
    from sim.api import play_games, play_hands
    from sim.rng import run_key

    key = run_key(0)
    for start, stop in ((0, HUGE), (-1, 2), (5, 4), (0, 2**62)):
        with pytest.raises(CanastaError):
            play_hands(key, start, stop)
    with pytest.raises(CanastaError, match="game"):
        play_games(key, 0, V.MAX_HAND_ID)  # its hands' seeds would pass int64


def test_run_key_accepts_only_seeds_in_range():
    from sim.rng import run_key

    assert run_key(V.MAX_SEED).shape == (4,)
    with pytest.raises(CanastaError, match="seed"):
        run_key(V.MAX_SEED + 1)


def test_sampler_refuses_huge_counts_and_an_unreachable_rel_error():
    from sim.rng import run_key
    from sim.sampler import count_hits
    from sim.sampling import sample_dealt_odds

    with pytest.raises(CanastaError, match="n_deals"):
        sample_dealt_odds(HUGE)
    with pytest.raises(CanastaError, match="max_deals"):
        sample_dealt_odds(10, rel_error=1e-9)  # about 1e24 deals
    with pytest.raises(CanastaError, match="max_deals"):
        sample_dealt_odds(10, max_deals=HUGE)
    with pytest.raises(CanastaError, match="chunk"):
        sample_dealt_odds(V.MAX_DEALS, chunk_size=1)
    with pytest.raises(CanastaError, match="deal"):
        count_hits(run_key(0), 0, HUGE, np.zeros(8, dtype=np.int64))


def test_compare_and_whatif_refuse_bad_numbers():
    from analysis.compare import duplicate
    from analysis.whatif import position, whatif

    with pytest.raises(CanastaError, match=r"n .*deals"):
        duplicate("random", "random", HUGE)
    with pytest.raises(CanastaError, match="seed"):
        duplicate("random", "random", 2, seed=-1)
    hand = "7H 7S 7D KS KD 9H"
    for kwargs, word in (
        ({"seat": HUGE}, "seat"),
        ({"turn": -1}, "turn"),
        ({"turn": HUGE}, "turn"),
        ({"scores": ("a", "b")}, "scores"),
        ({"scores": (HUGE, 0)}, "scores"),
        ({"pile_size": HUGE}, "pile_size"),
        ({"stock": -1}, "stock"),
        ({"hand_sizes": (13, 13, 13, HUGE)}, "hand_sizes"),
        ({"hand_sizes": (13, 13)}, "hand_sizes"),
        ({"melds": {0: ["7C 7C 7S", ""]}}, "MELD-1"),
    ):
        with pytest.raises(CanastaError, match=word):
            position(hand, **kwargs)
    pos = position(hand, turn=4)
    with pytest.raises(CanastaError, match="hands per choice"):
        whatif(pos, ["policy"], HUGE)


class _Pos:
    """A raw position for the engine's position_arrays (no analysis-layer checks)."""

    def __init__(self, **kw):
        self.hand, self.seat, self.turn, self.scores = "7H 7S 7D KS KD 9H", 0, 4, (0, 0)
        self.melds, self.pile_top = {}, None
        self.__dict__.update(kw)


def test_position_arrays_refuse_numbers_beyond_their_range():
    from sim.engine.position import position_arrays

    position_arrays(_Pos(), "policy")  # the base position is fine
    for kw, word in (
        ({"turn": HUGE}, "turn"),
        ({"seat": -1}, "seat"),
        ({"scores": (0, HUGE)}, "scores"),
        ({"pile_top": HUGE}, "pile_top"),
        ({"pile_size": HUGE}, "pile_size"),
        ({"stock": HUGE}, "stock"),
        ({"hand_sizes": [13, 13, 13, HUGE]}, "hand_sizes"),
        ({"hand": [0, HUGE]}, "card ids"),
        ({"hand": ["x", 3]}, "card ids"),
        ({"melds": {0: ["7C 7C 7S", ""]}}, "MELD-1"),
    ):
        with pytest.raises(CanastaError, match=word):
            position_arrays(_Pos(**kw), "policy")


def test_position_meld_9_no_canasta_of_one_rank_on_both_sides():
    """MELD-9: a what-if position with both teams holding a canasta of kings is refused (the
    same check as a finished hand's, sim.finished.check_table)."""
    from sim.engine.position import position_arrays

    melds = {0: ["KS KH KD KC 2S 2H 2D"], 1: ["KS KH KD KC 2C JK JK"]}
    pos = _Pos(melds=melds, hand="7H 7S 7D 9S 9D 9H")
    with pytest.raises(RuleViolation, match="MELD-9"):
        position_arrays(pos, "policy", {"max_wilds_mixed": 3})


# ---------------------------------------------------------------------------------------
# The step API
# ---------------------------------------------------------------------------------------
def test_game_refuses_bad_numbers_like_the_cli():
    from sim.play import Hand as Game

    for kwargs, word in (
        ({"hand_id": -1}, "hand_id"),
        ({"hand_id": HUGE}, "hand_id"),
        ({"seed": -1}, "seed"),
        ({"seed": HUGE}, "seed"),
        ({"scores": ("a", "b")}, "scores"),
        ({"scores": (HUGE, 0)}, "scores"),
        ({"scores": (0,)}, "scores"),
        ({"first_player": 7}, "first_player"),
        ({"deck": list(range(107))}, "deck"),
        ({"deck": ["x"] * 108}, "deck"),
        ({"deck": [HUGE] * 108}, "deck"),
        ({"rules": {"target": HUGE}}, "target"),
    ):
        with pytest.raises(CanastaError, match=word):
            Game(**kwargs)


def test_game_replay_of_a_broken_record_is_a_canasta_error():
    from sim.play import Hand as Game

    g = Game(seed=3, hand_id=1)
    g.play(("random", "random"))
    record = g.record()
    assert Game.replay(json.dumps(record)).scores() == g.scores()
    for key in ("hand_id", "deck", "actions", "scores", "ruleset", "first_player"):
        broken = {k: v for k, v in record.items() if k != key}
        with pytest.raises(CanastaError, match=repr(key)):
            Game.replay(broken)
    for key, value, word in (
        ("hand_id", -1, "hand_id"),
        ("scores", ["a", "b"], "scores"),
        ("actions", ["draw"], "actions"),
        ("actions", [True], "actions"),
        ("deck", record["deck"][:-1], "deck"),
    ):
        with pytest.raises(CanastaError, match=word):
            Game.replay({**record, key: value})
    with pytest.raises(RuleViolation, match="action 1"):
        Game.replay({**record, "actions": [HUGE]})


def test_game_actions_beyond_the_table_are_refused_not_overflowed():
    from sim.encoding import R_BAD_ACTION
    from sim.play import Hand as Game

    g = Game(seed=1)
    for bad in (HUGE, -HUGE, True, 1.0):
        assert g.reason(bad) == R_BAD_ACTION
        with pytest.raises(RuleViolation):
            g.apply(bad)
    with pytest.raises(CanastaError, match="params"):
        g.policy_action("heuristic", params=np.zeros(1))
    with pytest.raises(CanastaError, match="unknown policy"):
        g.play(("nosuch", "random"))


# ---------------------------------------------------------------------------------------
# Cards and rulesets
# ---------------------------------------------------------------------------------------
def test_an_empty_card_is_bad_input_not_nothing():
    from sim.cards import parse_cards

    assert parse_cards("").size == 0  # one string may name no card
    assert parse_cards(["7H", "7S,7D"]).size == 3
    for bad in ([""], ["7H", ""], [" "], [","], 5, b"7H"):
        with pytest.raises(CanastaError, match="card"):
            parse_cards(bad)


def test_ruleset_numbers_beyond_a_score_and_unreadable_files(tmp_path):
    from sim.ruleset import Ruleset

    for key in ("target", "garbage_award", "wild_penalty_four_jokers"):
        with pytest.raises(CanastaError, match=key):
            Ruleset(**{key: HUGE})
    with pytest.raises(CanastaError, match="cannot read"):
        Ruleset.from_toml(tmp_path)
    bad = tmp_path / "r.toml"
    bad.write_bytes(b"target = \xff\n")
    with pytest.raises(CanastaError, match="cannot read"):
        Ruleset.from_toml(bad)


# ---------------------------------------------------------------------------------------
# Finished hands: library checks with the rule named
# ---------------------------------------------------------------------------------------
def _team(melds=(), hands=("4S", "4H"), went_out=False, **extra):
    return {"melds": list(melds), "threes": [], "hands": list(hands), "went_out": went_out}


TWO_CANASTAS = ["JS JH JD JC JS JH JD", "10S 10H 10D 10C 10S 10H 10D"]


@pytest.mark.parametrize(
    ("teams", "rules"),
    [
        # OUT-2 / END-1: both teams with nothing, nobody went out
        ([_team(hands=("", "")), _team(hands=("", ""))], ("OUT-2", "END-1")),
        # OUT-2: a team whose partners both hold nothing but did not go out
        ([_team(hands=("", "")), _team()], ("OUT-2",)),
        # OUT-2: one partner holds nothing without the team going out
        ([_team(), _team(hands=("9S", ""))], ("OUT-2",)),
        # OUT-2: the partner of the player who went out holds nothing too
        ([_team(TWO_CANASTAS, hands=("", ""), went_out=True), _team()], ("OUT-2",)),
        # OUT-1: going out without two canastas
        ([_team(["8C 8C 8S"], hands=("", "9S"), went_out=True), _team()], ("OUT-1",)),
        # END-1: two players end the hand
        (
            [
                _team(TWO_CANASTAS, hands=("", "9S"), went_out=True),
                _team(["QS QH QD QC QS QH QD", "KS KH KD KC KS KH KD"], ("", "9S"), True),
            ],
            ("END-1",),
        ),
    ],
)
def test_finished_hand_refuses_impossible_ends_naming_the_rule(teams, rules):
    from sim.finished import load_position

    with pytest.raises(CanastaError) as exc:
        load_position({"teams": teams})
    for rule in rules:
        assert rule in str(exc.value)


def test_finished_hand_possible_ends_are_scored():
    """END-1: the stock ran out (nobody went out, everyone holds cards), or one player went
    out (OUT-3: 100) and the partner kept a card."""
    from sim.finished import load_position, score_position

    stock_out = score_position(load_position({"teams": [_team(), _team()]}))
    assert [t["breakdown"]["going_out"] for t in stock_out] == [0, 0]
    went = load_position({"teams": [_team(TWO_CANASTAS, ("", "9S"), True), _team()]})
    assert score_position(went)[0]["breakdown"]["going_out"] == 100
