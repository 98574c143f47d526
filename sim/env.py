"""A PettingZoo AEC environment of one hand (or one game) of Modern American Canasta.

    from sim.env import env
    e = env(render_mode="ansi")
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.unwrapped.policy_action("heuristic")
        e.step(action)

Follows PettingZoo's conventions for classic card games: agents ``player_0``..``player_3``
(teams 0+2 and 1+3), a ``Dict`` observation (``observation``: the engine's observation vector
of that player, layout ``sim.encoding.OBS_FIELDS``; ``action_mask``: int8 over the action
table, zeros for an agent whose turn it is not), ``Discrete(N_ACTIONS)`` actions (the engine's
``ACTION_TABLE``), the team's score margin as reward at the end (zero-sum). Positions that
leave no choice (``sim.engine.judge.forced_action``: the draw when the pile cannot be taken)
are played inside the environment, as the engine does; so are the threes laid down and
replaced (DEAL-4) and the bonus cards (OPEN-5): an agent is asked only for its decisions, and
one agent may be asked several times in a row (each meld operation of a turn is a step).

Seeding: ``reset(seed=s)`` deals hand 0 of run ``s`` exactly as ``sim.simulate(n, seed=s)``
(``seed_hand(run_key(s), i)``, first player ``i % 4``); each further ``reset()`` without a seed
deals the run's next hand. With ``game=True`` an episode is a whole game to the ruleset's
target (GAME-1), dealt as ``sim.simulate_games`` deals game ``g``.

``python_policy(fn, name)`` (``sim.policies.python_agent``, re-exported here) registers a
Python callable ``(observation, action_mask) -> action`` as a policy the runner plays; it
needs no optional extra.

Needs the ``rl`` extra (``pip install 'canasta-sim[rl]'``: pettingzoo, gymnasium); the rest of
the package never imports this module. Documentation: docs/env.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from sim import encoding as E
from sim.errors import CanastaError
from sim.policies.python_agent import legal_mask, observation_vector, python_policy
from sim.ruleset import Ruleset, as_ruleset

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - the rl extra is missing
    raise ImportError(
        "sim.env needs pettingzoo and gymnasium: pip install 'canasta-sim[rl]'"
    ) from exc

__all__ = ["env", "legal_mask", "observation_bounds", "policy_action", "python_policy", "raw_env"]

AGENTS = tuple(f"player_{p}" for p in range(E.N_PLAYERS))  #: seat p is player_p; team p % 2
#: the env's seats have no policy: each decision goes to its agent (``Hand.turns``)
_AGENTS_DECIDE = (None,) * E.N_PLAYERS
REWARDS = ("margin", "win")  #: reward modes: the score margin, or +1 / -1 / 0 for a tie
#: default penalty of an illegal action in ``env()`` with reward="margin", hand and game
#: episodes: below every margin measured (docs/env.md: 13,640 points in 60,000 hands, 307,240
#: in random-against-random games stopped by the cap); with reward="win" it is -1, a loss
ILLEGAL_MARGIN = {False: -25_000.0, True: -500_000.0}


def observation_bounds() -> tuple[np.ndarray, np.ndarray]:
    """int64 low/high bounds of each entry of the observation vector (layout OBS_FIELDS)."""
    from sim.limits import MAX_SCORE

    kinds = (-1, E.N_KINDS - 1)
    bounds = {
        "phase": (0, len(E.PHASE_NAMES) - 1),
        "seat": (0, E.N_PLAYERS - 1),
        "turn": (0, E.MAX_TURNS),
        "pile_top": kinds,
        "pile_kind": kinds,
        "kept": kinds,
        "turn_card_drawn": (0, 1),
        "opened": (0, 1),
        "drew_stock": (0, 1),
        "took_pile": (0, 1),
        "opening_turn": (0, 1),
        "melded": (0, 1),
        "scores": (-MAX_SCORE, MAX_SCORE),
        "open_min": (0, MAX_SCORE),
    }
    low, high = [], []
    for name, width in E.OBS_FIELDS:
        lo, hi = bounds.get(name, (0, E.N_CARDS))  # the rest are card counts
        low += [lo] * width
        high += [hi] * width
    return np.array(low, dtype=np.int64), np.array(high, dtype=np.int64)


def env(illegal_reward: float | None = None, **kwargs) -> AECEnv:
    """The environment with PettingZoo's classic wrappers: an illegal action ends the episode
    with ``illegal_reward`` for the agent that took it and 0 for the others
    (``TerminateIllegalWrapper``; default: -25,000 with reward="margin", -500,000 for game
    episodes, -1 with "win"),
    actions outside the table raise (``AssertOutOfBoundsWrapper``), and the AEC call order is
    enforced (``OrderEnforcingWrapper``). ``kwargs`` go to :class:`raw_env`."""
    e = raw_env(**kwargs)
    if illegal_reward is None:
        illegal_reward = -1.0 if e.reward_mode == "win" else ILLEGAL_MARGIN[e.game_mode]
    out = wrappers.TerminateIllegalWrapper(e, illegal_reward=float(illegal_reward))
    out = wrappers.AssertOutOfBoundsWrapper(out)
    return wrappers.OrderEnforcingWrapper(out)


class raw_env(AECEnv):  # PettingZoo's name for the unwrapped class
    """One hand (``game=False``) or one game to the target (``game=True``, GAME-1) of four
    agents; see the module docstring and docs/env.md.

    Parameters
    ----------
    ruleset : Ruleset, dict, TOML path or None
        Ruleset variants (``sim.Ruleset``); None: the tournament rules.
    game : bool
        False: an episode is one hand, the reward its score margin. True: an episode is one
        game, its hands dealt and its end decided by ``sim.play.game.GameDriver``: until a team's
        cumulative score reaches the ruleset's ``target`` (8,500) with the higher total
        (GAME-1), or a hand that wins the game is declared (SPECIAL-10: the declaring team
        wins); the reward, at the game's end, is the margin of the final totals. A game still
        undecided at the engine's cap of 1,024 hands, or with a total past
        ±1,000,000,000 (``sim.finished.past_bound``), is truncated, with no winner.
    reward : {"margin", "win"}
        "margin": the own team's points minus the opponents' (zero-sum: partners get the same
        reward, opponents its negative). "win": +1 for the winning team (a hand: more points;
        a game: GAME-1 or SPECIAL-10), -1 for the other, 0 for a tied hand.
    scores : (int, int)
        Cumulative team scores at the start of each hand (hand episodes; OPEN-1's minimum
        follows them) or of each game (game episodes: scores at which neither team has won,
        GAME-1, ``sim.finished.check_game_start``; a tie at or over the target plays on).
    render_mode : None or "ansi"
        "ansi": ``render()`` returns the table as ``canasta play`` prints it.

    Raises ``RuleViolation`` (a ``CanastaError`` naming the rule) on an illegal action: wrap
    it with :func:`env` for PettingZoo's convention (the episode ends, the agent is penalised).
    """

    metadata: ClassVar[dict] = {
        "render_modes": ["ansi"],
        "name": "canasta_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        ruleset: Ruleset | dict | str | None = None,
        game: bool = False,
        reward: str = "margin",
        scores: Sequence[int] = (0, 0),
        render_mode: str | None = None,
    ):
        from sim.finished import check_game_start
        from sim.limits import check_scores

        super().__init__()
        if reward not in REWARDS:
            raise CanastaError(f"bad reward {reward!r}: expected one of {', '.join(REWARDS)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise CanastaError(f"bad render_mode {render_mode!r}: expected None or 'ansi'")
        self.ruleset = as_ruleset(ruleset)
        self.rules = np.ascontiguousarray(self.ruleset.to_array())
        self.game_mode = bool(game)
        self.reward_mode = reward
        if self.game_mode:  # GAME-1: a game starts where neither team has won
            self.start_scores = check_game_start(scores, self.ruleset.target)
        else:
            self.start_scores = check_scores(scores)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        low, high = observation_bounds()
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.int64),
                    "action_mask": spaces.Box(0, 1, (E.N_ACTIONS,), dtype=np.int8),
                }
            )
            for a in AGENTS
        }
        self.action_spaces = {a: spaces.Discrete(E.N_ACTIONS) for a in AGENTS}
        self.seed: int | None = None
        self.episode = -1  # hand id (hand episodes) or game id (game episodes) of the run
        self.game = None  # the current hand: a sim.play.Hand
        self.driver = None  # the episode's game (game episodes): a sim.play.game.GameDriver
        self.totals = [0, 0]  # cumulative team points of the episode's finished hands
        self.hands_played = 0
        self._winner = -1

    # --- spaces -----------------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # --- episodes ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal the next hand (game) of the run; ``seed`` starts a new run at hand (game) 0.

        ``options={"hand_id": i}`` (hand episodes) or ``{"game_id": g}`` (game episodes)
        deals that one; other keys are ignored."""
        from sim.limits import MAX_GAMES, MAX_HAND_ID, check_int, check_seed

        if seed is not None:
            self.seed = check_seed(seed)
            self.episode = -1
        elif self.seed is None:  # never seeded: a fresh run from the OS's entropy
            state = np.random.SeedSequence().generate_state(1, np.uint64)[0]
            self.seed = int(state >> np.uint64(1))
        key, high = ("game_id", MAX_GAMES - 1) if self.game_mode else ("hand_id", MAX_HAND_ID)
        if options and key in options:
            self.episode = check_int(key, options[key], 0, high)
        else:
            self.episode += 1
            if self.episode > high:
                raise CanastaError(f"{key} {self.episode}: the run has no more (0..{high})")
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {a: {} for a in AGENTS}
        self.totals = [0, 0]
        self.hands_played = 0
        self._winner = -1
        if self.game_mode:
            from sim.play.game import GameDriver

            self.driver = GameDriver(self.seed, self.episode, self.ruleset, self.start_scores)
        self._deal()
        self._advance()

    def _deal(self) -> None:
        """The episode's next hand: hand ``episode`` of the run, or the game's next hand as
        its driver deals it (``sim.play.game.GameDriver``: seeding, DEAL-1, OPEN-1)."""
        from sim.play import Hand

        if self.game_mode:
            self.game = self.driver.deal()
        else:
            self.game = Hand(
                seed=self.seed, hand_id=self.episode, rules=self.ruleset, scores=self.start_scores
            )

    def _advance(self) -> None:
        """Play the positions without a choice (as the engine: the policy is not asked), deal
        the game's next hand when one ends, and end the episode when it is over."""
        g = self.game
        while True:
            for turn in g.turns(_AGENTS_DECIDE):  # the forced steps only (the one loop)
                if turn.action is None:
                    self.agent_selection = AGENTS[turn.seat]
                    return
            self.hands_played += 1
            if not self.game_mode:
                items = g.score_items()
                self.totals = [int(items[t].sum()) for t in range(E.N_TEAMS)]
                break
            self.driver.end_hand()  # GAME-1, SPECIAL-10 and the cap: the driver decides
            self.totals = list(self.driver.totals)
            if self.driver.is_over:
                break
            self._deal()
            g = self.game
        self._finish()

    def _finish(self) -> None:
        """Rewards, zero-sum (partners share them); a game stopped by the cap of hands before
        GAME-1 decided it, or by a total past the bound (``sim.finished.past_bound``), is
        truncated, with no winner (as the engine records it)."""
        from sim.play.game import ENDED_BY_BOUND, ENDED_BY_CAP

        s0, s1 = self.totals  # the hand's (game's) points
        capped = self.game_mode and self.driver.ended_by in (ENDED_BY_CAP, ENDED_BY_BOUND)
        if self.game_mode:
            self._winner = self.driver.winner  # GAME-1 or SPECIAL-10
        else:
            self._winner = -1 if s0 == s1 else int(s1 > s0)
        for p, agent in enumerate(AGENTS):
            t = p % E.N_TEAMS
            if self.reward_mode == "margin":
                r = s0 - s1 if t == 0 else s1 - s0
            else:
                r = 0 if self._winner < 0 else (1 if self._winner == t else -1)
            self.rewards[agent] = float(r)
            self.terminations[agent] = not capped
            self.truncations[agent] = capped
            self.infos[agent] = {"scores": [s0, s1], "hands": self.hands_played}
        self.agent_selection = AGENTS[self.game.current_player]

    @property
    def winner(self) -> int:
        """The team that won the episode once it is over; -1 for a tied hand, a game stopped
        by the cap of hands, or an episode not over."""
        return self._winner

    # --- the AEC API ------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = AGENTS.index(agent)
        mask = np.zeros(E.N_ACTIONS, dtype=np.int8)
        if agent == self.agent_selection and not self.game.is_over:
            mask[self.game.legal_actions()] = 1
        return {"observation": self.game.observation(p), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.game.apply(int(action))  # an illegal action raises RuleViolation (env() wraps)
        self.game.state[E.ST_DECISIONS] += 1  # as the engine counts the policies' decisions
        self._advance()
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode (use 'ansi')")
            return None
        from sim.play.words import hand_lines

        return "\n".join(hand_lines(self.game))

    def close(self) -> None:
        pass

    # --- built-in policies and records ------------------------------------------------
    def policy_action(self, policy, params: np.ndarray | None = None) -> int:
        """The action the registered ``policy`` (a spec such as ``"heuristic"`` or
        ``"heuristic:sevens_threshold=4"``) takes for the current agent, drawing from the
        hand's generator as the engine does: four seats played this way give the very hand
        ``sim.simulate`` plays with the same seed and policies."""
        g = self.game
        if g.is_over:
            raise CanastaError("the episode is over: no agent is to act")
        return policy_action(policy, g.observation(), rng=g.rng, rules=g.rules, params=params)

    def hand_record(self) -> dict[str, Any]:
        """The finished current hand as one row of ``sim.simulate``'s records (docs/records.md)
        without the policy columns."""
        g = self.game
        if not g.is_over:
            raise CanastaError("the hand is not over: no record yet")
        out = dict(zip(E.RECORD_COLUMNS, (int(x) for x in g.record_row()), strict=True))
        out["end_reason"] = E.END_NAMES[out["end_reason"]]
        out["special_hand"] = self.ruleset.special_names[out["special_hand"]]  # SPECIAL-7..9
        return out


# --- policies between Python and the engine ----------------------------------------------
def policy_action(
    policy,
    observation,
    rng: np.ndarray | int | None = None,
    rules: Ruleset | dict | np.ndarray | None = None,
    params: np.ndarray | None = None,
) -> int:
    """The action a registered policy (compiled built-ins included) takes from an observation.

    ``policy``: a spec (``"heuristic"``, ``"heuristic:sevens_threshold=4"``) or ``(name,
    {param: value})`` (``sim.policies.registry.resolve``). ``observation``: the env's Dict or
    its vector. ``rng``: the generator the policy draws from (``uint64[4]``, ``sim.rng``;
    advanced in place: pass the hand's, ``Hand.rng``, to play as the engine does), or an int
    seed, or None (a fresh generator). ``rules``: the ruleset the hand is played under.
    ``params`` replaces the spec's parameters (float64, registry order). The policy's proposal
    is returned as it is: the engine would check it (``sim.engine.judge.action_reason``)."""
    from sim.policies.registry import resolve
    from sim.rng import run_key, seed_hand

    spec, p, label = resolve(policy)
    if params is not None:
        given = np.asarray(params)
        if given.shape != p.shape or not np.issubdtype(given.dtype, np.number):
            raise CanastaError(f"params of {label!r}: expected {p.size} numbers")
        p = given
    p = np.ascontiguousarray(p, dtype=np.float64)
    obs = observation_vector(observation)
    if isinstance(rng, np.ndarray):
        if rng.shape != (4,) or rng.dtype != np.uint64 or not rng.flags.c_contiguous:
            raise CanastaError("rng: a generator state is a contiguous uint64 array of 4")
    else:
        from sim.limits import check_seed

        seed = check_seed(rng) if rng is not None else np.random.SeedSequence()
        if isinstance(seed, np.random.SeedSequence):
            seed = int(seed.generate_state(1, np.uint64)[0] >> np.uint64(1))
        rng = np.zeros(4, dtype=np.uint64)
        seed_hand(run_key(seed), 0, rng)
    if isinstance(rules, np.ndarray):
        rules_arr = np.ascontiguousarray(rules, dtype=np.int64)
        if rules_arr.shape != (E.N_RS,):
            raise CanastaError(f"rules: a ruleset array is {E.N_RS} integers (Ruleset.to_array)")
    else:
        rules_arr = np.ascontiguousarray(as_ruleset(rules).to_array())
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    return int(spec.decide(obs, p, rng, rules_arr, scratch))
