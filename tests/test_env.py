"""The PettingZoo environment (sim.env): PettingZoo's API and seed tests, the same hands as
``sim.simulate``/``simulate_games`` (DEAL-1 seeding, GAME-1), Python callables as runner
policies, the example agent. Skipped when the ``rl`` extra (pettingzoo, gymnasium) is absent."""

from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import sim
from sim import encoding as E
from sim.env import AGENTS, env, policy_action, python_policy, raw_env
from sim.errors import CanastaError, RuleViolation
from tests.helpers import play_env_episode

ROOT = Path(__file__).resolve().parents[1]
RECORD_COLS = list(E.RECORD_COLUMNS)  # the policy labels are the runner's


def _play(e, policies, record=False):
    """Play the current episode of ``e`` to its end, team t's seats with ``policies[t]``;
    returns the hand records of every hand seen if ``record``."""
    play_env_episode(e, policies)
    return e.unwrapped.hand_record() if record else None


def test_pettingzoo_api_test_hand_and_game_episodes():
    """PettingZoo's own API test (random legal actions from the mask), hand and game episodes
    (GAME-1), both reward modes."""
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        # PettingZoo warns that a Dict observation is not a Box: its classic games do the same
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(), num_cycles=400)
        api_test(env(game=True, reward="win", ruleset={"target": 1500}), num_cycles=400)


def test_pettingzoo_seed_test():
    from pettingzoo.test import seed_test

    seed_test(env, num_cycles=300)
    seed_test(lambda: env(game=True, ruleset={"target": 1500}), num_cycles=300)


@pytest.mark.parametrize("policies", [("heuristic", "greedy"), ("random", "random")])
def test_deal_1_same_seed_same_hands_as_simulate(policies):
    """DEAL-1: reset(seed=s) then reset() deal hands 0, 1, 2... of run s exactly as
    sim.simulate(n, seed=s); the same built-in policies in the four seats (drawing from the
    hand's generator, as the engine) give the very same records, row for row. "random" checks
    that the policies' draws from the hand's generator are threaded as in the engine."""
    n, seed = 4, 13
    df = sim.simulate(n, policies=policies, seed=seed)
    e = env()
    for h in range(n):
        e.reset(seed=seed) if h == 0 else e.reset()
        got = _play(e, policies, record=True)
        want = df.iloc[h][RECORD_COLS].to_dict()
        assert got == {k: (v.item() if hasattr(v, "item") else v) for k, v in want.items()}


def test_rewards_are_the_team_margin_zero_sum_partners_equal():
    e = raw_env()
    e.reset(seed=5, options={"hand_id": 7})
    rewards = dict.fromkeys(AGENTS, 0.0)
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        rewards[agent] += reward
        e.step(None if terminated or truncated else e.policy_action("heuristic"))
    rec = e.hand_record()
    assert rec["hand_id"] == 7
    margin = rec["score_team0"] - rec["score_team1"]
    assert margin != 0
    assert rewards == {
        "player_0": margin,
        "player_1": -margin,
        "player_2": margin,
        "player_3": -margin,
    }


def test_game_1_game_episode_is_the_engines_game():
    """GAME-1: game=True plays hands until a team reaches the target with the higher total,
    dealt as the engine's game kernel deals game g (hand k seeded g*1024+k, deal rotating,
    OPEN-1 from the running totals): the same totals, hands and winner as simulate_games; the
    reward is the final margin (or +1/-1 with reward="win"); ruleset variants as arguments."""
    from sim import simulate_games

    policies, rules = ("heuristic", "greedy"), {"target": 3000, "max_wilds_mixed": 3}
    df = simulate_games(2, policies, seed=2, ruleset=rules)
    for reward in ("margin", "win"):
        e = env(game=True, ruleset=rules, reward=reward)
        for g in range(2):
            e.reset(seed=2) if g == 0 else e.reset()
            raw = e.unwrapped
            _play(e, policies)
            row = df.iloc[g]
            assert raw.totals == [row.score_team0, row.score_team1]
            assert raw.hands_played == row.hands and raw.winner == row.winner
    e = raw_env(game=True, ruleset=rules)
    e.reset(seed=2, options={"game_id": 1})
    final = {}
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        final[agent] = reward
        e.step(None if terminated or truncated else e.policy_action(policies[int(agent[-1]) % 2]))
    margin = df.score_team0.iloc[1] - df.score_team1.iloc[1]
    assert final["player_0"] == final["player_2"] == margin == -final["player_1"]


def test_game_1_undecided_at_the_cap_of_hands_is_truncated(monkeypatch):
    """GAME-1 as the engine's game kernel: a game still undecided at the cap of hands
    (GAME_HAND_STRIDE, 1,024; 2 here) ends truncated, not terminated, with no winner: the
    margin reward is still the totals' margin, the "win" reward 0."""
    monkeypatch.setattr(E, "GAME_HAND_STRIDE", 2)
    for reward in ("margin", "win"):
        e = raw_env(game=True, ruleset={"target": 10**6}, reward=reward)
        e.reset(seed=4)
        got = dict.fromkeys(AGENTS, 0.0)
        for agent in e.agent_iter():
            _, r, terminated, truncated, _ = e.last()
            got[agent] += r
            if terminated or truncated:
                assert truncated and not terminated
            e.step(None if terminated or truncated else e.policy_action("heuristic"))
        assert e.hands_played == 2 and e.winner == -1
        margin = e.totals[0] - e.totals[1]
        assert margin != 0
        want = margin if reward == "margin" else 0
        assert got["player_0"] == got["player_2"] == want == -got["player_1"]


def test_agent_sees_only_its_decisions_and_its_observation():
    """DEAL-4/OPEN-5 and forced draws happen inside the env: every position an agent is asked
    about leaves a choice; the observation is the engine's view of that seat (own hand only)
    and the mask is the legal actions, zeros for the agents not to act."""
    e = raw_env()
    e.reset(seed=9)
    steps = 0
    while not e.game.is_over:
        agent = e.agent_selection
        p = AGENTS.index(agent)
        assert p == e.game.current_player
        obs = e.observe(agent)
        assert not next(e.game.turns((None,) * 4)).forced  # the hand's loop would ask it
        assert np.array_equal(obs["observation"], e.game.observation(p))
        assert np.flatnonzero(obs["action_mask"]).tolist() == e.game.legal_actions()
        other = AGENTS[(p + 1) % 4]
        assert not e.observe(other)["action_mask"].any()
        assert e.observation_space(agent).contains(obs)
        e.step(e.policy_action("heuristic"))
        steps += 1
    assert steps == e.hand_record()["decisions"] > 0


def test_illegal_action_raw_raises_wrapped_ends_episode():
    """raw_env raises RuleViolation naming the rule; env() follows PettingZoo's classic
    convention: the episode ends, the agent that acted gets illegal_reward, the others 0."""
    e = raw_env()
    e.reset(seed=1)
    bad = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(RuleViolation):
        e.step(bad)
    for illegal, reward in ((None, -25_000.0), (-7.0, -7.0)):
        w = env(illegal_reward=illegal)
        w.reset(seed=1)
        agent = w.agent_selection
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            w.step(bad)
        assert all(w.terminations.values())
        assert w.rewards[agent] == reward
        assert sum(w.rewards.values()) == reward
    w = env(reward="win")
    w.reset(seed=1)
    agent = w.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        w.step(bad)
    assert w.rewards[agent] == -1.0


def test_render_ansi_shows_the_table_as_canasta_play():
    e = env(render_mode="ansi")
    e.reset(seed=3)
    text = e.render()
    assert "deal (DEAL-1; no up-card, DEAL-2):" in text and "to act" in text
    _play(e, ("heuristic", "heuristic"))
    text = e.render()
    assert "-- hand over" in text and "team 0 melds:" in text
    total = text.splitlines()[-1].split()
    rec = e.unwrapped.hand_record()
    assert total == ["total", str(rec["score_team0"]), str(rec["score_team1"])]
    quiet = raw_env()
    quiet.reset(seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert quiet.render() is None


def test_bad_arguments_are_canasta_errors():
    with pytest.raises(CanastaError, match="reward"):
        raw_env(reward="points")
    with pytest.raises(CanastaError, match="render_mode"):
        raw_env(render_mode="human")
    with pytest.raises(CanastaError, match="ruleset"):
        raw_env(ruleset={"nope": 1})
    e = raw_env()
    with pytest.raises(CanastaError, match="seed"):
        e.reset(seed=-1)
    with pytest.raises(CanastaError, match="hand_id"):
        e.reset(seed=1, options={"hand_id": -3})
    with pytest.raises(CanastaError, match="observation"):
        policy_action("heuristic", np.zeros(5, dtype=np.int64))
    with pytest.raises(CanastaError, match="unknown policy"):
        policy_action("nope", np.zeros(E.OBS_SIZE, dtype=np.int64))
    with pytest.raises(CanastaError, match="not callable"):
        python_policy(3, "three")


def test_python_policy_plays_in_the_runner_with_simulate_records():
    """A Python callable registered with python_policy is played by sim.simulate like any
    policy: a callable that asks the compiled heuristic gives the heuristic's very records; an
    answer that is no legal id is counted in policy_errors (and replaced), never a crash."""
    from sim.policies.registry import unregister

    def py_heuristic(obs, mask):
        a = policy_action("heuristic", obs, rng=0)  # the heuristic draws nothing from rng
        assert mask[a] == 1
        return a

    python_policy(py_heuristic, "test_py_heuristic", replace=True)
    python_policy(lambda obs, mask: "draw", "test_py_bad", replace=True)
    try:
        a = sim.simulate(3, ("test_py_heuristic", "greedy"), seed=4)
        b = sim.simulate(3, ("heuristic", "greedy"), seed=4)
        cols = [c for c in a.columns if c != "policy_team0"]
        assert a[cols].equals(b[cols])
        assert (a.policy_team0 == "test_py_heuristic").all()
        bad = sim.simulate(2, ("test_py_bad", "greedy"), seed=4)
        assert (bad.policy_errors > 0).all()
        assert (bad.policy_errors <= bad.decisions).all()
    finally:
        unregister("test_py_heuristic")
        unregister("test_py_bad")


def test_python_policy_in_a_duplicate_comparison():
    """The route for an agent trained elsewhere: analysis.compare.duplicate seats the callable
    like any registered policy (both seatings of every deal)."""
    from analysis.compare import duplicate
    from sim.policies.registry import unregister

    python_policy(lambda obs, mask: int(np.flatnonzero(mask)[-1]), "test_py_last", replace=True)
    try:
        c = duplicate("test_py_last", "heuristic", 3, seed=2)
        assert c["deals"] == 3 and c["policy_a"] == "test_py_last"
        assert np.isfinite(c["mean_diff"])
    finally:
        unregister("test_py_last")


def test_example_trains_and_compares_at_a_small_size(capsys):
    """examples/train_agent.py: REINFORCE through the env against heuristic, then a duplicate
    comparison of the trained agent (small sizes here)."""
    spec = importlib.util.spec_from_file_location("train_agent", ROOT / "examples/train_agent.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        out = module.main(["--hands", "6", "--deals", "3", "--seed", "2"])
    finally:
        from sim.policies.registry import unregister

        unregister("linear")
    assert len(out["margins"]) == 6
    assert np.any(out["weights"] != 0)  # it learned something from 6 hands' returns
    assert out["comparison"]["deals"] == 3
    assert "linear vs heuristic over 3 duplicate deals" in capsys.readouterr().out
