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
(``sim.record``: the deal and the actions fix the state; the bots are deterministic given the
position, so their replies come again the same). It never crosses a card leaving the stock nor
the end of the hand (:meth:`Seat.can_undo`), so it cannot show a card that was hidden.
"""

from __future__ import annotations

import copy
import itertools
import re
from collections.abc import Callable, Sequence

import numpy as np

from sim import encoding as E
from sim.errors import CanastaError
from sim.moves import Move, MoveError

__all__ = ["HINT_BUDGET", "Seat", "plain", "position_for"]

HINT_BUDGET = 2.5  #: seconds a hint's simulation may take, in every face (the page: <= 3 s)
HINT_N = 200  #: most deals per choice a hint plays (the budget usually stops it first)
HINT_TOP = 5  #: choices a hint shows, best first


def allowed_summary(game) -> str:
    """What the current player may do now, in commands (``sim.play.words.allowed_line``)."""
    from sim.play.words import allowed_line

    return allowed_line(game.legal_actions())


def position_for(game, seat: int):
    """``(Position, drawn card token or None)``: what ``seat`` sees, as an
    ``analysis.whatif.Position`` for ``analysis.advise.advise``.

    At the draw step the position is now (drawn None). At the play step after drawing from the
    stock it is the position before that draw, with the card drawn (a token such as ``"KS"``,
    of a suit the position does not already name when one is free): the advice covers the
    whole turn. Built from the player's observation only: their hand, the public table (both
    teams' melds, the pile, which every player saw discarded, the sizes), the scores and the
    public card memory (``OB_KNOWN``: the cards the others took with the pile and have not shown
    since, which the advice puts in their hands in every deal). Card suits are chosen (the
    engine counts cards by kind, and so does the advice). Laid threes
    have no place in a Position: they stay among the cards the advice deals at random, so its
    stock is larger by the threes laid (a known approximation)."""
    from analysis.whatif import position

    obs = game.observation(seat)
    phase = int(obs[E.OB_PHASE])
    if phase == E.PH_THREES:
        raise CanastaError("hint: decide on your threes first (keep or lay, DEAL-5)")
    if phase == E.PH_OVER:
        raise CanastaError("hint: the hand is over")
    if phase == E.PH_PLAY and obs[E.OB_TOOK_PILE]:
        raise CanastaError("hint: no advice after taking the pile (only before the draw)")
    if phase == E.PH_PLAY and obs[E.OB_MELDED]:
        raise CanastaError("hint: ask before melding: the advice covers the whole turn")
    hand = obs[E.OB_HAND : E.OB_HAND + E.N_KINDS].copy()
    drawn_kind = None
    if phase == E.PH_PLAY:
        card = last_draw(game, seat)
        if card is None:  # pragma: no cover - the play step follows a draw or a pickup
            raise CanastaError("hint: no draw found this turn")
        drawn_kind = int(E.CARD_KIND[card])
        hand[drawn_kind] -= 1
    pools = {k: [int(c) for c in np.flatnonzero(E.CARD_KIND == k)] for k in range(E.N_KINDS)}

    def cards(counts) -> list[str]:
        from sim.cards import format_card

        out = []
        for k in range(E.N_KINDS):
            for _ in range(int(counts[k])):
                out.append(format_card(pools[k].pop(0)))
        return out

    own = seat % E.N_TEAMS
    width = E.N_KINDS * E.N_MELD_COLS
    melds = {}
    for i in range(E.N_TEAMS):
        team = (own + i) % E.N_TEAMS
        block = obs[E.OB_MELDS + i * width : E.OB_MELDS + (i + 1) * width]
        block = block.reshape(E.N_KINDS, E.N_MELD_COLS)
        groups = []
        for slot in range(E.N_KINDS):
            nat, two, joker = (int(x) for x in block[slot])
            if nat + two + joker:
                c = np.zeros(E.N_KINDS, dtype=np.int64)
                c[slot] += nat
                c[E.TWO] += two
                c[E.JOKER] += joker
                groups.append(" ".join(cards(c)))
        if groups:
            melds[team] = groups
    pile_counts = obs[E.OB_PILE_COUNTS : E.OB_PILE_COUNTS + E.N_KINDS].copy()
    top = int(obs[E.OB_PILE_TOP])
    pile_top = None
    if top >= 0:
        pile_counts[top] -= 1
        pile_top = cards(np.eye(E.N_KINDS, dtype=np.int64)[top])[0]
    below = cards(pile_counts)
    sizes = [0] * E.N_PLAYERS
    for i in range(E.N_PLAYERS):  # relative seats: self, left, partner, right
        sizes[(seat + i) % E.N_PLAYERS] = int(obs[E.OB_HAND_SIZES + i])
    if drawn_kind is not None:
        sizes[seat] -= 1  # the position is before the draw
    scores = [0, 0]
    for i in range(E.N_TEAMS):
        scores[(own + i) % E.N_TEAMS] = int(obs[E.OB_SCORES + i])
    known = {}  # the public card memory: what the others took with the pile, not shown since
    for i in range(1, E.N_PLAYERS):
        row = obs[E.OB_KNOWN + i * E.N_KINDS : E.OB_KNOWN + (i + 1) * E.N_KINDS]
        if row.any():
            known[(seat + i) % E.N_PLAYERS] = row.copy()
    pos = position(
        " ".join(cards(hand)),
        seat=seat,
        turn=int(obs[E.OB_TURN]),
        scores=tuple(scores),
        melds=melds,
        pile_top=pile_top,
        pile=" ".join(below),
        pile_size=int(obs[E.OB_PILE_N]),
        hand_sizes=sizes,
        hand_number=max(1, int(obs[E.OB_OPEN_RULES])),  # OPEN-1: the hand's number, 0 reads 1
        known=known or None,
    )
    return pos, None if drawn_kind is None else _free_token(pos, drawn_kind)


def _free_token(pos, kind: int) -> str:
    """A token of ``kind`` for a card the position does not hold, preferring a suit it does
    not name at all (the notation names a card, the pack is the first free copy, CARD-1)."""
    from collections import Counter

    from sim.cards import format_card

    used = set(pos.hand.tolist()) | set(pos.pile.tolist() if pos.pile is not None else [])
    used |= {int(c) for ms in pos.melds.values() for m in ms for c in m.tolist()}
    used |= {pos.pile_top} if pos.pile_top >= 0 else set()
    named = Counter(format_card(c) for c in used)
    free = [int(c) for c in np.flatnonzero(E.CARD_KIND == kind) if int(c) not in used]
    return format_card(min(free, key=lambda c: named[format_card(c)]))


def last_draw(game, seat: int) -> int | None:
    """Card id that ``seat``'s last draw from the stock brought into the hand: the card drawn,
    or, when that was a three laid down at once (DEAL-4), the last replacement card."""
    card = None
    for name, p, a, b in game.events():
        if p != seat:
            continue
        if name == "action" and a == E.A_DRAW:
            card = -1
        elif name in ("draw", "replace") and card is not None:
            card = b
    return None if card is None or card < 0 else card


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


def event_turns(g) -> list[int]:
    """The turn of each event of ``g`` (the log's numbers, the review's): the hand replayed
    from its deal, an event of the seat that acted in the acting turn, another seat's (its
    threes laid as its turn begins) in the turn after."""
    from sim.record import redeal

    fresh = redeal(g)
    turns = [fresh.turn] * len(fresh.events())
    for a in g.actions:
        before, turn, actor = len(fresh.events()), fresh.turn, fresh.current_player
        fresh.apply(a)
        turns += [turn if p == actor else fresh.turn for _, p, _, _ in fresh.events()[before:]]
    return turns


_SUIT = re.compile(r"\b(10|[2-9AJQK])[SHDC]\b")


def plain(label: str) -> str:
    """An advice label without the suits it chose (the faces show cards by rank: suits never
    matter to the rules), e.g. 'meld 9S 9H 9D' -> 'meld 9 9 9'."""
    return _SUIT.sub(r"\1", label)


def made_choice(actions: Sequence[int], i: int, seat: int, h, adv):
    """The Choice of ``adv`` that the human's actions from index ``i`` made (matched by the
    kinds melded and discarded in the turn), or None."""
    a = actions[i]
    if adv.decision == "draw":
        label = "take the pile" if a == E.A_TAKE_PILE else "draw"
        return next((c for c in adv.choices if c.label == label), None)
    melded, discard = [], None
    for b in actions[i:]:
        kind = int(E.ACTION_TABLE[b, E.AC_TYPE])
        if kind == E.AT_MELD:
            _, slot, nat, two, joker = (int(x) for x in E.ACTION_TABLE[b])
            melded += [slot] * (nat if slot != E.WILD_MELD else 0) + [E.TWO] * two
            melded += [E.JOKER] * joker
        elif kind == E.AT_DISCARD:
            discard = int(E.ACTION_TABLE[b, E.AC_SLOT])
            break
        elif kind == E.AT_DECLARE:
            return next((c for c in adv.choices if c.label.startswith("declare")), None)
    from sim.cards import parse_cards

    want = sorted(melded)
    for c in adv.choices:
        kinds = sorted(int(E.CARD_KIND[x]) for m in c.melds for x in parse_cards(" ".join(m)))
        d = int(E.CARD_KIND[parse_cards(c.discard)[0]]) if c.discard else None
        if kinds == want and d == discard:
            return c
    return None


def opening_progress(g, seat: int) -> dict | None:
    """OPEN-1 while ``seat``'s team has not opened and it is ``seat``'s play step: the points
    of the cards melded from hand this turn (the pile's top card not counted, OPEN-3) against
    the minimum; else None."""
    obs = g.observation(seat)
    if g.is_over or obs[E.OB_OPENED] or g.current_player != seat:
        return None
    pending = obs[E.OB_PENDING : E.OB_PENDING + E.N_KINDS * E.N_MELD_COLS]
    pending = pending.reshape(E.N_KINDS, E.N_MELD_COLS)
    so_far = 0
    for slot in range(E.N_KINDS):
        if slot != E.WILD_MELD:
            so_far += int(pending[slot, E.NATURALS]) * int(E.KIND_VALUE[slot])
        so_far += int(pending[slot, E.TWOS]) * int(E.KIND_VALUE[E.TWO])
        so_far += int(pending[slot, E.JOKERS]) * int(E.KIND_VALUE[E.JOKER])
    return {"so_far": so_far, "min": int(obs[E.OB_OPEN_MIN])}


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
    def games(self) -> list:
        """The hands of the game, the last one running or just over."""
        return self.driver.hands

    @property
    def game(self):
        return self.games[-1]

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
        if self.games and not self.game.is_over:
            raise CanastaError("the hand is still running")
        if self.games and self.mode == "hand":
            raise CanastaError("a single hand: start a new table for another")
        self.driver.deal()  # refused once the game is over, naming GAME-1 or SPECIAL-10
        self.decisions, self.undo_stock = [], []
        self.turns = event_turns(self.game)
        self.mark = 0
        self.move_no += 1
        self.run_bots()

    def _play(self, a: int) -> None:
        """Apply ``a`` to the running hand, tagging its events with the turn (the log's)."""
        g = self.game
        before, turn, actor = int(g.log[0]), g.turn, g.current_player
        g.apply(a)
        seats = g.log[1 : 1 + int(g.log[0]) * E.EVENT_WIDTH].reshape(-1, E.EVENT_WIDTH)[:, 1]
        self.turns += [turn if p == actor else g.turn for p in seats[before:].tolist()]

    def run_bots(self) -> None:
        """The bots (and, with ``auto_forced``, the human's forced steps) play until the
        human has a choice or the hand is over; a finished hand is scored into the game."""
        from sim.engine.judge import forced_action

        g = self.game
        while not g.is_over:
            a = int(forced_action(g.observation()))  # as the engine: no choice, no policy
            if g.current_player == self.seat and (a < 0 or not self.auto_forced):
                return
            if a < 0:
                a = g.policy_action(self.policies[g.current_player])
            self._play(a)
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
        hand = self.game.observation(self.seat)[E.OB_HAND : E.OB_HAND + E.N_KINDS]
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
        from sim.engine.judge import forced_action

        if order != (int(forced_action(g.observation())),):  # a forced step is no decision
            self.decisions.append(start)  # one decision: undo takes it back whole
            self.undo_stock.append(int(g.state[E.ST_STOCK_N]))
        self.move_no += 1
        for a in order:
            self._play(a)
        if g.is_over or g.current_player != self.seat:
            self.mark = len(g.events())  # the turn ends: "since your last move"
        self.run_bots()

    def bot_move(self, policy: str) -> Move:
        """The move ``policy`` would make in the human's place now (the terminal's ``auto``)."""
        from sim.engine.judge import forced_action

        g = self.game
        a = int(forced_action(g.observation()))
        return Move.of_action(a if a >= 0 else g.policy_action(policy))

    # --- undo ---------------------------------------------------------------------------
    def can_undo(self) -> bool:
        """Undo reaches the human's previous decision only while no card has left the stock
        since (a draw, a replacement for a red three: a hidden card seen cannot be unseen) and
        the hand runs (once over every hand is shown)."""
        g = self.game
        return (
            bool(self.decisions)
            and not g.is_over
            and self.undo_stock[-1] == int(g.state[E.ST_STOCK_N])
        )

    def undo(self) -> None:
        """Back to the human's previous decision of this hand (bots replayed), if
        :meth:`can_undo`."""
        from sim.record import redeal

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
        fresh = redeal(g)
        for a in g.actions[:back]:
            fresh.apply(a)
        self.driver.replace_hand(fresh)
        self.turns = event_turns(fresh)
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
            self.games,
            players=self.policies,
            kind=self.mode,
            hide_running_deck=hide_running_deck,
            viewer=self.seat,
        )
