"""The human's seat at a table: the one object both faces drive (the terminal's
``canasta play --human``, :class:`canasta._human.Session`, and the web table,
:class:`canasta.web.table.Table`).

A :class:`Seat` holds a game through its driver (``sim.game.GameDriver``: GAME-1, SPECIAL-10,
DEAL-1, OPEN-1, the seeding), plays the bots' turns, applies the human's moves (one entry point,
:meth:`Seat.play`, taking a ``sim.moves.Move`` from the one move grammar) whole or not at all,
refuses an illegal one with one error type (``sim.moves.MoveError``, its ``rule`` the rule ID
and the moves allowed now), and gives the hint (one budget, :data:`HINT_BUDGET`), the undo
and the record; the review of its decisions after a hand and a game is
``canasta._seat_review``'s, kept on the seat per hand. The faces only read input and show
output: lines of text, or JSON with the web's secrets and its saved tables.

Undo rebuilds the hand from its deal and the actions before the human's previous decision
(``Hand.steps``, the one replay: the deal and the actions fix the state; the bots are
deterministic given the position, so their replies come again the same). It never crosses a
card leaving the stock nor the end of the hand (:meth:`Seat.can_undo`), so it cannot show a
card that was hidden.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Sequence

import numpy as np

from canasta._hint import last_draw, made_choice, plain, position_for
from sim import encoding as E
from sim.errors import CanastaError
from sim.moves import Move, MoveError

__all__ = ["HINT_BUDGET", "Seat", "last_draw", "made_choice", "plain", "position_for"]

HINT_BUDGET = 2.5  #: seconds a hint's simulation may take, in every face (the page: <= 3 s)
#: most deals per choice a hint plays: high enough that the 2.5 s budget or the race, not the
#: cap, stops a hint with many close choices (benchmarks/HISTORY.md, "the hint at its budget")
HINT_N = 1600
HINT_TOP = 5  #: choices a hint shows, best first


def allowed_summary(game) -> str:
    """What the current player may do now, in commands (``sim.play.words.allowed_line``)."""
    from sim.play.words import allowed_line

    return allowed_line(game.legal_actions())


def legal_order(game, actions: list[int]) -> tuple[tuple[int, ...] | None, int]:
    """The first order of ``actions`` the rules allow, tried on copies of ``game`` (every
    order of up to four: one meld operation per rank, any may need another first), and the
    reason code of the first refusal met (``R_OK`` when none was); ``None`` when no order is
    legal. ``game`` itself is not changed."""
    first = E.R_OK
    orders = itertools.permutations(actions) if len(actions) <= 4 else [tuple(actions)]
    for order in orders:
        trial = copy.deepcopy(game)
        for a in order:
            code = trial.reason(a)
            if code != E.R_OK:
                first = code if first == E.R_OK else first
                break
            trial.apply(a)
        else:
            return tuple(order), first
    return None, first


def _event_seats(g, start: int = 0) -> list[int]:
    """The seat of each event of ``g``'s log from event ``start`` on."""
    n = int(g.log[0])
    return g.log[1 : 1 + n * E.EVENT_WIDTH].reshape(n, E.EVENT_WIDTH)[start:, 1].tolist()


def replayed(g, upto: int | None = None):
    """``(hand, turns)``: ``g`` dealt again and stepped through its first ``upto`` actions
    (``Hand.steps``, the one replay; all of them by default), and the turn of each event of that
    hand (the log's numbers, the review's): the deal's events in the first turn (TURN-1), an
    event of the seat that acted in the acting turn, another seat's (its threes laid as its
    turn begins) in the turn after."""
    seats = _event_seats(g)
    kinds = g.log[1 : 1 + len(seats) * E.EVENT_WIDTH : E.EVENT_WIDTH].tolist()
    dealt = kinds.index(E.EV_ACTION) if E.EV_ACTION in kinds else len(kinds)
    turns, seen, turn, h = [0] * dealt, dealt, 0, None
    for seat, _a, h in g.steps(upto):
        turns += [turn if p == seat else h.turn for p in _event_seats(h, seen)]
        seen, turn = int(h.log[0]), h.turn
    if h is None:  # no action to step: the hand as dealt
        h = g.redeal()
        turns = turns[: int(h.log[0])]
    return h, turns


def event_turns(g) -> list[int]:
    """The turn of each event of ``g`` (``replayed``): the hand replayed from its deal."""
    if not g.actions:
        return [0] * int(g.log[0])  # the deal's events, in the first turn (TURN-1)
    return replayed(g)[1]


def hands_before(g):
    """``(i, seat, action, hand)`` for each action of ``g``, ``hand`` as ``seat`` met it before
    action ``i`` (the deal, then ``Hand.steps``, the one replay): one object advanced, copy it
    to keep a position."""
    history = g.history
    if not history:
        return
    yield 0, *history[0], g.redeal()
    for i, ((seat, a), (_s, _a, h)) in enumerate(zip(history[1:], g.steps(), strict=False), 1):
        yield i, seat, a, h


def opening_progress(g, seat: int) -> dict | None:
    """OPEN-1 while ``seat``'s team has not opened and it is ``seat``'s play step: the points
    of the cards melded from hand this turn (the pile's top card not counted, OPEN-3) against
    the minimum; else None."""
    v = g.view(seat)
    if g.is_over or v.opened[0] or g.current_player != seat:
        return None
    pending = v.pending
    so_far = 0
    for slot in range(E.N_KINDS):
        if slot != E.WILD_MELD:
            so_far += int(pending[slot, E.NATURALS]) * int(E.KIND_VALUE[slot])
        so_far += int(pending[slot, E.TWOS]) * int(E.KIND_VALUE[E.TWO])
        so_far += int(pending[slot, E.JOKERS]) * int(E.KIND_VALUE[E.JOKER])
    return {"so_far": so_far, "min": v.open_min}


def _forced(g) -> int | None:
    """The action the rules force now (the hand's turn loop takes it without asking a
    policy), or None when the current player has a choice."""
    t = next(g.turns((None,) * E.N_PLAYERS), None)
    return t.action if t is not None and t.forced else None


class Seat:
    """A human at ``seat`` against bots (``policies[p]`` the bot of each other seat, "you" at
    ``seat``) in the game of ``driver`` (a ``sim.game.GameDriver``; its running hand, if any,
    is played on, else one is dealt); ``mode`` 'hand' (one hand) or 'game' (to the target).
    ``auto_forced``: the human's forced steps (a draw when the pile cannot be taken, PILE-1/2)
    are played for them (the page, one button); False: the human types them (the terminal)."""

    def __init__(
        self,
        driver,
        seat: int,
        policies: Sequence[str],
        mode: str = "hand",
        auto_forced: bool = True,
    ):
        if mode not in ("hand", "game"):
            raise CanastaError(f"mode {mode!r}: expected 'hand' or 'game'")
        self.driver = driver
        self.seat = int(seat)
        self.policies = list(policies)
        self.mode = mode
        self.auto_forced = auto_forced
        self.ruleset = driver.ruleset
        self.move_no = 0  #: counts the seat's changes (the web: a move names the current one)
        self.decisions: list[int] = []  # action indices of the human's choices, this hand
        self.undo_stock: list[int] = []  # the stock's size before each of those decisions
        #: hand number -> its review (``canasta._seat_review``; a finished hand's stays)
        self.review_cache: dict = {}
        self.mark = 0  # events of the hand before the human's last move ended a turn
        if driver.hand is None:
            self.new_hand()
        else:
            self.turns = event_turns(self.game)
            self.move_no = 1

    # --- the game -----------------------------------------------------------------------
    @property
    def hands(self) -> list:
        """The hands of the game (``sim.play.Hand``), the last one running or just over."""
        return self.driver.hands

    @property
    def games(self) -> list:
        """Deprecated name of :attr:`hands` (each is a hand, not a game)."""
        import warnings

        warnings.warn("Seat.games is Seat.hands", DeprecationWarning, stacklevel=2)
        return self.hands

    @property
    def game(self):
        """The running hand (or the last, just over)."""
        return self.hands[-1]

    def totals(self) -> tuple[int, int]:
        g = self.game
        items = g.score_items()
        return tuple(int(g.start_scores[t] + items[t].sum()) for t in range(E.N_TEAMS))

    def game_over(self) -> bool:
        """The game has ended, as its driver decides: GAME-1 (a team reached the target, a
        tie plays on) or SPECIAL-10 (a hand that wins the game was declared)."""
        return self.mode == "game" and self.driver.is_over

    def finished(self) -> bool:
        """The seat's play is over: its hand, or its game (GAME-1)."""
        return self.game.is_over and (self.mode == "hand" or self.game_over())

    def new_hand(self) -> None:
        if self.hands and not self.game.is_over:
            raise CanastaError("the hand is still running")
        if self.hands and self.mode == "hand":
            raise CanastaError("a single hand: start a new table for another")
        self.driver.deal()  # refused once the game is over, naming GAME-1 or SPECIAL-10
        self.decisions, self.undo_stock = [], []
        self.turns = event_turns(self.game)
        self.mark = 0
        self.move_no += 1
        self.run_bots()

    def _tag(self, before: int, turn: int, actor: int) -> None:
        """Tag the running hand's events from event ``before`` on with their turn (the log's
        numbers): the actor's in ``turn``, another seat's in the turn after the action."""
        g = self.game
        self.turns += [turn if p == actor else g.turn for p in _event_seats(g, before)]

    def _play(self, a: int) -> None:
        """Apply ``a`` to the running hand, tagging its events with the turn."""
        g = self.game
        before, turn, actor = int(g.log[0]), g.turn, g.current_player
        g.apply(a)
        self._tag(before, turn, actor)

    def _seats(self, policy: str | None = None) -> tuple:
        """Each seat's policy for the hand's turn loop: the bots', and at the human's seat
        ``policy`` (None: the human decides)."""
        return tuple(policy if p == self.seat else self.policies[p] for p in range(E.N_PLAYERS))

    def run_bots(self) -> None:
        """The bots (and, with ``auto_forced``, the human's forced steps) play until the
        human has a choice or the hand is over, through the hand's turn loop (a step the rules
        force asks no policy); a finished hand is scored into the game."""
        g = self.game
        last = None
        for t in g.turns(self._seats(), forced_for_all=self.auto_forced):
            if last is not None:
                self._tag(*last)  # the previous step, applied as the loop went on
            if t.action is None:
                return  # the human's decision
            last = (int(g.log[0]), g.turn, t.seat)
        if last is not None:
            self._tag(*last)
        if self.driver.hands_played < len(self.driver.hands):
            self.driver.end_hand()  # the game's totals and its end (GAME-1, SPECIAL-10)

    # --- the human's moves --------------------------------------------------------------
    def allowed(self) -> str:
        """The moves allowed now, in the terminal's words ('' when not the human's turn)."""
        g = self.game
        if g.is_over or g.current_player != self.seat:
            return ""
        return allowed_summary(g)

    def refusal(self, exc: MoveError) -> MoveError:
        """``exc`` with the moves allowed now filled in (both faces show them)."""
        exc.allowed = self.allowed()
        return exc

    def _refuse(self, code: int, what: str):
        text = f"{what}: {E.explain(code)}"
        if E.reason_rule(code).startswith("OPEN"):  # how far the turn's melds are, the way on
            prog = opening_progress(self.game, self.seat)
            if prog is not None:
                text += (
                    f" (your melds this turn count {prog['so_far']} of the {prog['min']} points "
                    "your team's first meld needs: meld more of your hand in this turn, "
                    "all of it reaching the minimum, before you discard; or undo)"
                )
        raise self.refusal(MoveError(text, E.reason_rule(code)))

    def _actions(self, move: Move) -> tuple[list[int], str]:
        """The engine actions of ``move`` and its words, the parts that depend on the hand
        resolved: the three kept when only one is held (DEAL-5), going out's last card."""
        hand = self.game.view(self.seat).hand
        if move.name == "keep" and move.kind < 0:
            held = [k for k in E.THREE_KINDS if hand[k]]
            if len(held) != 1:
                raise MoveError(
                    "say which three you keep: 'keep 3r' or 'keep 3b' (DEAL-5)", "DEAL-5"
                )
            move = Move("keep", held[0])
        actions, what = move.actions(), move.text()
        if move.name == "out":
            left = hand.copy()
            for slot, nat, two, joker in move.ops:
                left[slot if slot != E.WILD_MELD else E.TWO] -= nat
                left[E.TWO] -= two
                left[E.JOKER] -= joker
            if left.sum() != 1:
                raise MoveError(
                    "to go out, meld cards so that exactly one card is left to discard (OUT-1), "
                    "or discard your last card",
                    "OUT-1",
                )
            last = int(np.flatnonzero(left)[0])
            actions.append(E.A_DISCARD + last)
            what = f"{what[:-1]}, discard {E.KIND_NAMES[last]})" if move.ops else "go out"
        return actions, what

    def play(self, move: Move) -> None:
        """Apply the human's ``move`` whole or not at all (a copy tried first, in the given
        order of its meld operations, then in the others), then let the bots play; a
        refusal is a ``MoveError`` naming the rule and the moves allowed."""
        g = self.game
        if g.is_over:
            raise MoveError("the hand is over (END-1)", "END-1")
        try:
            actions, what = self._actions(move)
        except MoveError as exc:
            raise self.refusal(exc) from None
        if g.current_player != self.seat:  # pragma: no cover - the bots always run first
            self._refuse(E.R_WRONG_PHASE, what)
        start = len(g.actions)
        if len(actions) == 1:
            code = g.reason(actions[0])
            order = None if code != E.R_OK else tuple(actions)
        else:
            order, code = legal_order(g, actions)
        if order is None:
            self._refuse(code, what)
        if order != (_forced(g),):  # a forced step is no decision
            self.decisions.append(start)  # one decision: undo takes it back whole
            self.undo_stock.append(g.view(self.seat).stock_n)
        self.move_no += 1
        for a in order:
            self._play(a)
        if g.is_over or g.current_player != self.seat:
            self.mark = len(g.events())  # the turn ends: "since your last move"
        self.run_bots()

    def bot_move(self, policy: str) -> Move:
        """The move ``policy`` would make in the human's place now (the terminal's ``auto``)."""
        g = self.game
        return Move.of_action(next(g.turns(self._seats(policy))).action)

    # --- undo ---------------------------------------------------------------------------
    def can_undo(self) -> bool:
        """Undo reaches the human's previous decision only while no card has left the stock
        since (a draw, a replacement for a red three: a hidden card seen cannot be unseen) and
        the hand runs (once over every hand is shown)."""
        g = self.game
        return (
            bool(self.decisions)
            and not g.is_over
            and self.undo_stock[-1] == g.view(self.seat).stock_n
        )

    def undo(self) -> None:
        """Back to the human's previous decision of this hand (bots replayed), if
        :meth:`can_undo`."""
        g = self.game
        if g.is_over:
            raise CanastaError("undo: the hand is over (every hand has been shown)")
        if not self.decisions:
            raise CanastaError("nothing to undo in this hand")
        if not self.can_undo():
            raise CanastaError(
                "undo: a card has left the stock since your last decision, so it cannot be "
                "taken back (a card seen stays seen)"
            )
        back = self.decisions.pop()
        self.undo_stock.pop()
        fresh, self.turns = replayed(g, back)
        self.driver.replace_hand(fresh)
        self.mark = min(self.mark, len(fresh.events()))
        self.move_no += 1

    # --- advice -------------------------------------------------------------------------
    def advice(self, budget: float = HINT_BUDGET, equity=None, advise: Callable | None = None):
        """The advice (``analysis.advise.Advice``) on the human's decision now: every choice
        with its 95% interval, best first; with ``equity`` (an equity table of the game's
        rules and bots, game mode) ranked by the team's chance of winning the game after the
        hand. ``advise``: the function to ask (default ``analysis.advise.advise``). Refused
        (``CanastaError``, 'hint: ...') where a hint does not reach (``position_for``)."""
        if advise is None:
            from analysis.advise import advise
        g = self.game
        if g.is_over or g.current_player != self.seat:
            raise CanastaError("hint: not your decision")
        pos, drawn = position_for(g, self.seat)
        if equity is not None and max(pos.scores) >= equity.target:
            equity = None  # a tie at the target plays on (GAME-1): off the table, by points
        kw = {} if equity is None else {"equity": equity}
        adv = advise(
            pos, drawn=drawn, n=HINT_N, budget=budget, seed=g.turn, ruleset=g.ruleset, **kw
        )
        if equity is not None:  # stable: equal chances keep the points' order
            from dataclasses import replace

            adv = replace(adv, choices=sorted(adv.choices, key=lambda c: -c.game["win"]))
        return adv

    # --- the record ---------------------------------------------------------------------
    def record(self, hide_running_deck: bool = True) -> dict:
        """The game's record (``sim.record``), the running hand's deck left out by default
        (it names every hidden card), and with it the other seats' threes steps (DEAL-5)."""
        from sim.record import from_games

        return from_games(
            self.hands,
            players=self.policies,
            kind=self.mode,
            hide_running_deck=hide_running_deck,
            viewer=self.seat,
        )
