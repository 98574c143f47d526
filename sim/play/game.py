"""One game of Modern American Canasta: its hands, their seeding, and its end (GAME-1).

    from sim.play.game import GameDriver
    d = GameDriver(seed=7, game_id=0, rules="cla")
    while not d.is_over:
        hand = d.deal()                      # a sim.play.Hand, stepped by any face
        hand.play(("heuristic", "heuristic"))  # or apply the actions one at a time
        d.end_hand()                         # totals, then GAME-1 / SPECIAL-10 decide
    d.winner, d.totals, d.ended_by

Names: a *hand* is one deal played out (``sim.play.Hand``; its old name ``sim.step.Game``
said game), a *game* is the hands to the target, driven here (``GameDriver``: the name says
it drives the game, and keeps it apart from the hands it deals). ``sim.game`` is this
module's old path, kept as a re-export.

The driver is the one owner, in Python, of what makes a sequence of hands a game:

- GAME-1: a game ends once a team's cumulative score reaches the ruleset's ``target`` with
  the higher total; an exact tie plays another hand. It starts from scores at which neither
  team has won (a tie at or over the target may start), and ends undecided once a total
  passes ``sim.limits.MAX_SCORE`` either way (``sim.finished``: the one owner of these).
- SPECIAL-10: a hand that "wins the game" ends it at once, won by the declaring team.
- DEAL-1: the deal rotates; hand ``k`` (0-based) is first played by ``(first_player + k) % 4``.
- OPEN-1: hand ``k`` is number ``k + 1`` of the game, and starts at the running totals (the
  opening minimum by score or by hand number reads them in the engine).
- Seeding: hand ``k`` of game ``g`` is hand ``g * GAME_HAND_STRIDE + k`` of run ``seed``
  (``sim.rng.seed_hand``), and a game is capped at ``GAME_HAND_STRIDE`` hands (no winner).

The compiled games kernel (``sim.engine.play.play_games_kernel``, ``sim.simulate_games``) is
its fast twin: with the default start (scores 0/0, ``first_player = game_id % 4``) the same
seed plays the same hands, totals and winner (tests/test_game_driver.py). The PettingZoo
environment (``sim.env``, ``game=True``), the records (``sim.play.record``: ``replay``,
``game_hand``; a game's record is ``sim.play.record.from_games(driver.hands, kind="game")``) and
the faces deal their hands here; none sequences hands itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sim import encoding as E
from sim.errors import CanastaError
from sim.ruleset import Ruleset, as_ruleset

__all__ = ["ENDED_BY_BOUND", "ENDED_BY_CAP", "GameDriver", "GameOverError"]

ENDED_BY_CAP = "cap"  #: ``ended_by`` of a game stopped by the cap of hands (no winner)
ENDED_BY_BOUND = "bound"  #: ``ended_by`` of a game whose total passed MAX_SCORE (no winner)


class GameOverError(CanastaError):
    """A hand asked of a game that has ended; ``rule`` is GAME-1 or SPECIAL-10."""

    def __init__(self, message: str, rule: str):
        super().__init__(message)
        self.rule = rule


class GameDriver:
    """A game (module docstring): the hands to the target. It deals each hand (a
    ``sim.play.Hand``), keeps the totals, decides the end.

    ``seed``: the run's seed; ``game_id``: the game's number in the run (its hands' seeds);
    ``rules``: anything ``sim.ruleset.as_ruleset`` takes; ``scores``: the teams' totals at the
    start (default 0/0); ``first_player``: the seat playing first in hand 1 (default
    ``game_id % 4``, as the games kernel rotates); ``hand_seed``: a function of a hand's
    index ``k`` giving that hand's seed (an int or a ``numpy.random.SeedSequence``) in place
    of ``seed``, for a face that keeps its deals secret (the web table draws them from its
    own entropy); everything else about the game is the same."""

    def __init__(
        self,
        seed: int = 0,
        game_id: int = 0,
        rules: Ruleset | dict | str | None = None,
        scores: Sequence[int] = (0, 0),
        first_player: int | None = None,
        hand_seed: Callable[[int], object] | None = None,
    ):
        from sim.finished import check_game_start
        from sim.limits import MAX_GAMES, check_int, check_seat, check_seed

        self.seed = check_seed(seed)
        self.game_id = check_int("game_id", game_id, 0, MAX_GAMES - 1)
        self.ruleset = as_ruleset(rules)
        self.start_scores = check_game_start(scores, self.ruleset.target)  # GAME-1
        if first_player is None:
            first_player = self.game_id % E.N_PLAYERS  # DEAL-1, as the games kernel
        self.first_player = check_seat(first_player, "first_player")
        self.hand_seed = hand_seed
        self.totals = [int(s) for s in self.start_scores]  #: cumulative team scores
        self.hands: list = []  #: the hands dealt so far (``sim.play.Hand``), in order
        self.winner = -1  #: the team that won, once over (-1: not over, or capped)
        self.ended_by = ""  #: "GAME-1", "SPECIAL-10" or ENDED_BY_CAP once over
        self._scored = 0  # hands whose score is in ``totals``

    # --- the hands --------------------------------------------------------------------
    @property
    def hand(self):
        """The current (last dealt) hand, or None before the first deal."""
        return self.hands[-1] if self.hands else None

    @property
    def hands_played(self) -> int:
        """Hands finished and scored."""
        return self._scored

    @property
    def is_over(self) -> bool:
        return bool(self.ended_by)

    def hand_args(self, k: int, totals: Sequence[int] | None = None) -> dict:
        """The arguments of ``sim.play.Hand`` for hand ``k`` (0-based) of this game
        starting at ``totals`` (default: the running totals): its seed and hand id, the
        first player (DEAL-1), the scores and the hand number (OPEN-1)."""
        from sim.limits import check_int

        k = check_int("hand", k, 0, E.GAME_HAND_STRIDE - 1)
        return {
            "seed": self.seed if self.hand_seed is None else self.hand_seed(k),
            "hand_id": self.game_id * E.GAME_HAND_STRIDE + k,
            "rules": self.ruleset,
            "first_player": (self.first_player + k) % E.N_PLAYERS,
            "scores": tuple(int(x) for x in (self.totals if totals is None else totals)),
            "hand_number": k + 1,
        }

    def hand_at(self, k: int, totals: Sequence[int] | None = None, deck=None):
        """Hand ``k`` of this game dealt from ``totals`` (``hand_args``), without advancing
        the game: a face that keeps its own totals (``sim.play.record.game_hand``)."""
        from sim.play import Hand

        return Hand(**self.hand_args(k, totals), deck=deck)

    def check_not_over(self) -> None:
        """Refuse another hand once the game has ended, naming the rule that ended it."""
        if self.ended_by == "SPECIAL-10":
            name, team = self.hands[-1].special_hand if self.hands else ("", -1)
            raise GameOverError(
                f"the game is over: team {team} declared {name}, a hand that wins the game "
                "(SPECIAL-10)",
                "SPECIAL-10",
            )
        if self.ended_by == "GAME-1":
            raise GameOverError(
                f"the game is over: team {self.winner} won at {self.totals[0]:,} to "
                f"{self.totals[1]:,} (GAME-1: target {self.ruleset.target:,})",
                "GAME-1",
            )
        if self.ended_by == ENDED_BY_BOUND:
            from sim.limits import MAX_SCORE

            raise GameOverError(
                f"the game is over, undecided: the totals {self.totals[0]:,} to "
                f"{self.totals[1]:,} passed the bound of ±{MAX_SCORE:,} on a score (GAME-1)",
                "GAME-1",
            )
        if self.ended_by == ENDED_BY_CAP:
            raise GameOverError(
                f"the game is over: it reached the cap of {E.GAME_HAND_STRIDE} hands (GAME-1)",
                "GAME-1",
            )

    def deal(self, deck=None):
        """Deal the game's next hand (``hand_args``) and return it; ``deck``: a given deck
        order instead of the seeded one. Refused once the game is over (``GameOverError``)
        or while the current hand is still running."""
        self.check_not_over()
        if len(self.hands) > self._scored:
            raise CanastaError("the current hand is still running: finish it first (END-1)")
        g = self.hand_at(len(self.hands), deck=deck)
        self.hands.append(g)
        return g

    def end_hand(self, game=None) -> None:
        """Score the finished current hand (or ``game``, a finished hand played elsewhere,
        as a replay does) into the totals, then decide whether the game is over: SPECIAL-10
        first (a hand that wins the game), then GAME-1 (target reached, higher total; an exact
        tie plays on), then the bound on totals, then the cap of hands."""
        if game is None:
            if len(self.hands) == self._scored:
                raise CanastaError("no hand is running: deal one first")
            game = self.hands[-1]
        else:
            self.check_not_over()
            if len(self.hands) > self._scored:
                raise CanastaError("the current hand is still running: finish it first (END-1)")
            self.hands.append(game)
        if not game.is_over:
            raise CanastaError("the hand is not over yet (END-1)")
        items = game.score_items()
        self.totals = [self.totals[t] + int(items[t].sum()) for t in range(E.N_TEAMS)]
        self._scored += 1
        self._decide(game)

    def _decide(self, game) -> None:
        from sim.finished import game_winner, past_bound
        from sim.special import wins_game

        s0, s1 = self.totals
        state = game.state
        if state[E.ST_END_REASON] == E.END_SPECIAL and wins_game(
            int(state[E.ST_SPECIAL]), game.rules
        ):
            self.winner = int(state[E.ST_SPECIAL_TEAM])  # SPECIAL-10: at once, any scores
            self.ended_by = "SPECIAL-10"
        elif game_winner(s0, s1, self.ruleset.target) >= 0:
            self.winner = int(game_winner(s0, s1, self.ruleset.target))  # GAME-1; a tie plays on
            self.ended_by = "GAME-1"
        elif past_bound(s0, s1):
            self.ended_by = ENDED_BY_BOUND  # no hand can be dealt from there: no winner
        elif self._scored >= E.GAME_HAND_STRIDE:
            self.ended_by = ENDED_BY_CAP  # the engine's cap: no winner

    def replace_hand(self, game) -> None:
        """Put ``game`` in place of the running hand: the same deal replayed to an earlier
        action (an undo). Refused if no hand runs or ``game`` is another deal."""
        if len(self.hands) == self._scored:
            raise CanastaError("no hand is running: deal one first")
        now = self.hands[-1]
        if (game.hand_id, game.first_player, list(game.deck)) != (
            now.hand_id,
            now.first_player,
            list(now.deck),
        ):
            raise CanastaError("replace_hand: not the running hand's deal")
        self.hands[-1] = game

    @classmethod
    def resume(cls, hands: Sequence, seed: int = 0, game_id: int = 0, hand_seed=None) -> GameDriver:
        """The driver of a game whose ``hands`` (``sim.play.Hand``, in order, e.g.
        from ``sim.play.record.replay``) were played: each finished hand scored and the game's end
        decided as it was played; a last hand still running is the current one. Start
        scores, first player and ruleset are the first hand's."""
        hands = list(hands)
        if not hands:
            raise CanastaError("resume: no hands")
        first = hands[0]
        d = cls(seed, game_id, first.ruleset, first.start_scores, first.first_player, hand_seed)
        for i, g in enumerate(hands):
            if g.is_over:
                d.end_hand(g)
            elif i == len(hands) - 1:
                d.check_not_over()
                d.hands.append(g)
            else:
                raise CanastaError(f"resume: hand {i + 1} is not over, yet another follows")
        return d

    # --- whole games ------------------------------------------------------------------
    def play(self, policies: Sequence[str] = ("heuristic", "random")) -> GameDriver:
        """Play the game to its end, one policy spec per team, every hand as the engine
        plays it (``sim.play.Hand.play``); returns the driver."""
        while not self.is_over:
            self.deal().play(policies)
            self.end_hand()
        return self

    def summary(self) -> dict:
        """One row as ``sim.simulate_games`` writes it: game_id, hands, score_team0,
        score_team1, winner, policy_errors."""
        return {
            "game_id": self.game_id,
            "hands": self._scored,
            "score_team0": self.totals[0],
            "score_team1": self.totals[1],
            "winner": self.winner,
            "policy_errors": sum(int(g.state[E.ST_ERRORS]) for g in self.hands[: self._scored]),
        }
