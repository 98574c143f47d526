"""One table of the web app: a human seat against bots, a hand or a game, kept apart from the
HTTP layer (canasta.web.app) so it is tested and benchmarked on its own.

Everything a table sends is built by :func:`canasta.web.view.view` from the human seat's
observation (``Game.observation(seat)``) and the public events (other seats' draws hidden), so
it never holds a card the seat cannot see; once the hand is over every hand is shown, as at a
real table (SCORE-5: the cards left in hand are counted against their team).

Secrets stay here (docs/web.md, threat model): a table dealt at random draws 128 bits from the
operating system (``secrets``) and seeds each hand from a hash of them and the hand's number, so
the deal of a finished hand tells nothing of the next one. Neither the entropy nor a hand's
seed, its RNG state or the running hand's deck is in a view or in a record while the game runs;
the record of a finished game carries the entropy (``table.deal_entropy``) and every deck.

Undo rebuilds the hand from its deal and the actions before the human's previous decision
(``sim.record``: the deal and the actions fix the state; the bots are deterministic given the
position, so their replies come again the same). It never crosses a card leaving the stock nor
the end of the hand (:meth:`Table.undo`), so it cannot show a card that was hidden.
"""

from __future__ import annotations

import hashlib
import secrets
from functools import partial

import numpy as np

from canasta._human import legal_order
from canasta.web.moves import (
    kind_name,
    made_choice,
    merged_choices,
    move_for,
    parse_kinds,
    plain,
)
from canasta.web.view import event_turns, opening_progress
from sim import encoding as E
from sim.errors import CanastaError

__all__ = [
    "ENTROPY_BITS",
    "HINT_BUDGET",
    "HINT_N",
    "HINT_TOP",
    "REVIEW_BUDGET",
    "REVIEW_GAIN",
    "MoveRefused",
    "Table",
    "move_for",
    "warm",
]

HINT_BUDGET = 2.5  #: seconds a hint's simulation may take (the page's promise: <= 3 s)
HINT_N = 200  #: most deals per choice a hint plays
HINT_TOP = 5  #: choices a hint shows
REVIEW_BUDGET = 0.8  #: seconds of advice per decision in the end-of-hand review
REVIEW_GAIN = 100.0  #: points a hint must have gained to be listed in the review
ENTROPY_BITS = 128  #: bits of the operating system's randomness behind a table's deals


class MoveRefused(CanastaError):
    """A move the rules refuse: ``rule`` its ID, the message its ``explain()`` sentence."""

    def __init__(self, message: str, rule: str = ""):
        self.rule = rule
        self.allowed = ""  #: the moves allowed instead (the table fills it in)
        super().__init__(message)


def _fresh(g):
    from sim.record import redeal

    return redeal(g)


def hand_seed(entropy: int, k: int) -> np.random.SeedSequence:
    """Hand ``k``'s seed from a table's entropy: a keyed hash, so one hand's deck (shown once
    it is over) says nothing of another's (the engine's own seeding of a game's hands derives
    each from one key that a hand's generator state gives back)."""
    digest = hashlib.blake2b(
        k.to_bytes(4, "little"), key=entropy.to_bytes(ENTROPY_BITS // 8, "little"), digest_size=32
    ).digest()
    return np.random.SeedSequence(int.from_bytes(digest, "little"))


class Table:
    """A human at ``seat`` (default 0) against bots; ``mode`` 'hand' or 'game' (to the target)."""

    def __init__(
        self,
        seed: int | None = None,
        mode: str = "hand",
        partner: str = "strong",
        opponents: str = "strong",
        rules=None,
        rules_name: str = "tournament (default)",
        seat: int = 0,
        table_id: str | None = None,
        game_id: int = 0,
    ):
        from sim.api import resolve_policies
        from sim.ruleset import as_ruleset

        if mode not in ("hand", "game"):
            raise CanastaError(f"mode {mode!r}: expected 'hand' or 'game'")
        partner, opponents = (r[2] for r in resolve_policies([partner, opponents]))
        self.id = table_id or secrets.token_urlsafe(24)
        #: a practice deal's seed (chosen by the player, who can rebuild it), else None
        self.seed = None if seed is None else int(seed)
        self._entropy = secrets.randbits(ENTROPY_BITS) if seed is None else None
        self.mode = mode
        self.seat = seat
        self.ruleset = as_ruleset(rules)
        self.rules_name = rules_name
        self.policies = [partner if p % 2 == seat % 2 else opponents for p in range(4)]
        self.policies[seat] = "you"
        from sim.game import GameDriver

        #: the game's one owner (GAME-1, SPECIAL-10, DEAL-1, OPEN-1, seeding): the table only
        #: plays the human's seat and shows it
        self.driver = GameDriver(
            seed=0 if self.seed is None else self.seed,
            game_id=game_id,  # a practice seed's game number (its hands' seeds)
            rules=self.ruleset,
            hand_seed=None if self._entropy is None else partial(hand_seed, self._entropy),
        )
        self.decisions: list[int] = []  # action indices of the human's choices, this hand
        self.undo_stock: list[int] = []  # the stock's size before each of those decisions
        self.turns: list[int] = []  # the turn of each event of the running hand (the log's)
        self.review_cache: list | None = None
        self.move_no = 0  #: counts the table's changes: a move must name the current one
        self.chance = None  #: where game mode reads its chance of winning (set by the server)
        self.new_hand()

    # --- hands ------------------------------------------------------------------------
    @property
    def games(self) -> list:
        """The hands of the game, the last one running or just over."""
        return self.driver.hands

    @property
    def game(self):
        return self.games[-1]

    def totals(self) -> tuple[int, int]:
        if not self.games:
            return (0, 0)
        g = self.game
        items = g.score_items()
        return tuple(int(g.start_scores[t] + items[t].sum()) for t in range(E.N_TEAMS))

    def game_over(self) -> bool:
        """The game has ended, as its driver decides: GAME-1 (a team reached the target, a
        tie plays on) or SPECIAL-10 (a hand that wins the game was declared)."""
        return self.mode == "game" and self.driver.is_over

    def new_hand(self) -> None:
        if self.games and not self.game.is_over:
            raise CanastaError("the hand is still running")
        if self.games and self.mode == "hand":
            raise CanastaError("a single hand: start a new table for another")
        self.driver.deal()  # refused once the game is over, naming GAME-1 or SPECIAL-10
        self.decisions, self.undo_stock = [], []
        self.turns = event_turns(self.game)
        self.review_cache = None
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
        """Bots (and the human's forced steps) play until the human has a choice."""
        from sim.engine.judge import forced_action

        g = self.game
        while not g.is_over:
            a = int(forced_action(g.observation()))
            if a < 0:
                if g.current_player == self.seat:
                    return
                a = g.policy_action(self.policies[g.current_player])
            self._play(a)
        if self.driver.hands_played < len(self.driver.hands):
            self.driver.end_hand()  # the game's totals and its end (GAME-1, SPECIAL-10)

    # --- the human's moves --------------------------------------------------------------
    def _refuse(self, code: int, what: str):
        text = f"{what}: {E.explain(code)}"
        if E.reason_rule(code).startswith("OPEN"):  # how far the turn's melds are, the way on
            prog = opening_progress(self.game, self.seat)
            if prog is not None:
                text += (
                    f" (your melds this turn count {prog['so_far']} of the {prog['min']} points "
                    "your team's first meld needs: meld more of your hand in this turn, "
                    "all of it reaching the minimum, before you discard; or Undo)"
                )
        raise MoveRefused(text, E.reason_rule(code))

    def _apply(self, actions: list[int], what: str) -> None:
        """Apply the human's ``actions`` whole or not at all (a copy tried first, orders
        permuted: one meld operation per rank), then let the bots play."""
        g = self.game
        if g.is_over:
            raise MoveRefused("the hand is over", "END-1")
        if g.current_player != self.seat:  # pragma: no cover - the bots always run first
            self._refuse(E.R_WRONG_PHASE, what)
        start = len(g.actions)
        order, first = legal_order(g, actions)
        if order is None:
            self._refuse(first, what)
        self.decisions.append(start)  # one decision: undo takes it back whole
        self.undo_stock.append(int(g.state[E.ST_STOCK_N]))
        self.move_no += 1
        for a in order:
            self._play(a)
        if g.is_over or g.current_player != self.seat:
            self.mark = len(g.events())  # the turn ends: "since your last move"
        self.review_cache = None
        self.run_bots()

    def move(self, body: dict) -> None:
        """A move from the page: ``{"move": name, "cards": [...], "target": kind}``; a refusal
        (:class:`MoveRefused`) names the moves allowed now."""
        from canasta._human import allowed_summary

        try:
            self._move(body)
        except MoveRefused as exc:
            g = self.game
            if not g.is_over and g.current_player == self.seat:
                exc.allowed = allowed_summary(g)
            raise

    def _move(self, body: dict) -> None:
        if not isinstance(body, dict):
            raise CanastaError('expected a JSON object such as {"move": "draw"}')
        name = body.get("move")
        if not isinstance(name, str):
            raise CanastaError('move: expected a move\'s name such as "draw"')
        simple = {
            "draw": E.A_DRAW,
            "pile": E.A_TAKE_PILE,
            "lay": E.A_LAY_THREES,
            "declare": E.A_DECLARE,
            "keep_red": E.A_KEEP_RED_THREE,
            "keep_black": E.A_KEEP_BLACK_THREE,
        }
        from sim.step import describe_action

        if name in simple:
            a = simple[name]
            return self._apply([a], describe_action(a))
        if name == "discard":
            kinds = parse_kinds(body.get("cards"))
            if len(kinds) != 1:
                raise MoveRefused("select exactly one card to discard")
            a = E.A_DISCARD + kinds[0]
            return self._apply([a], describe_action(a))
        if name in ("meld", "out"):
            kinds = parse_kinds(body.get("cards", []))
            target = body.get("target")
            if target is not None:
                target = parse_kinds([target])[0] if target != "wild" else E.WILD_MELD
            ops = self._meld_ops(kinds, target) if kinds else []
            actions = [self._meld_action(*op) for op in ops]
            what = "meld " + " ".join(kind_name(k) for k in kinds)
            if name == "out":
                hand = self.game.observation(self.seat)[E.OB_HAND : E.OB_HAND + E.N_KINDS]
                left = hand.copy()
                for k in kinds:
                    left[k] -= 1
                if left.sum() != 1:
                    raise MoveRefused(
                        "to go out, select the cards to meld so that exactly one card is left "
                        "to discard (OUT-1), or discard your last card",
                        "OUT-1",
                    )
                last = int(np.flatnonzero(left)[0])
                actions.append(E.A_DISCARD + last)
                what = f"go out ({what}, discard {kind_name(last)})" if kinds else "go out"
            if not actions:
                raise MoveRefused(E.explain(E.R_EMPTY_MELD) + ": select cards first", "MELD-1")
            return self._apply(actions, what)
        raise CanastaError(
            f"unknown move {str(name)[:30]!r}: expected draw, pile, meld, out, discard, "
            "declare, lay, keep_red, keep_black"
        )

    @staticmethod
    def _meld_ops(kinds: list[int], target: int | None) -> list[tuple[int, int, int, int]]:
        """(slot, naturals, twos, jokers) per rank of the selection; wild cards join the one
        natural rank, or ``target`` (a meld clicked on the table), or make the wild meld."""
        if any(E.IS_THREE[k] for k in kinds):
            raise MoveRefused(E.explain(E.R_THREE_MELDED), "DEAL-4")
        naturals = sorted({k for k in kinds if E.IS_NATURAL[k]}, reverse=True)
        two, joker = kinds.count(E.TWO), kinds.count(E.JOKER)
        if target is not None:
            if naturals and naturals != [target]:
                raise MoveRefused(E.explain(E.R_MELD_MIXED_RANKS), "MELD-1")
            return [(target, kinds.count(target) if target != E.WILD_MELD else 0, two, joker)]
        if len(naturals) > 1 and two + joker:
            raise MoveRefused(
                "which meld do the wild cards join? meld one rank with its wild cards at a "
                "time, or click the meld on the table to add to it"
            )
        if not naturals:
            return [(E.WILD_MELD, 0, two, joker)]
        return [(k, kinds.count(k), two, joker) for k in naturals]

    @staticmethod
    def _meld_action(slot: int, nat: int, two: int, joker: int) -> int:
        if nat + two + joker > E.CANASTA:
            raise MoveRefused(E.explain(E.R_MELD_TOO_LONG), "MELD-2")
        if slot != E.WILD_MELD and two + joker > E.MAX_OP_WILDS:
            raise MoveRefused(E.explain(E.R_MIXED_TOO_MANY_WILDS), "MELD-4")
        a = int(E.MELD_ACTION[slot, nat, two, joker])
        if a < 0:  # pragma: no cover - every op within the limits above is in the table
            raise MoveRefused("no such meld operation")
        return a

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
        keep = g.actions[:back]
        fresh = _fresh(g)
        for a in keep:
            fresh.apply(a)
        self.driver.replace_hand(fresh)
        self.turns = event_turns(fresh)
        self.review_cache = None
        self.mark = min(getattr(self, "mark", 0), len(fresh.events()))
        self.move_no += 1

    # --- advice -------------------------------------------------------------------------
    def hint(self, budget: float = HINT_BUDGET, equity=None) -> dict:
        """The ranked choices of this decision with 95% intervals and one plain sentence of
        why (analysis.advise.why). With ``equity`` (an equity table of the table's rules and
        bots, game mode) the choices are ranked by the team's chance of winning the game after
        the hand, their points beside it."""
        from analysis.advise import advise, why
        from canasta._human import position_for

        g = self.game
        if g.is_over or g.current_player != self.seat:
            raise CanastaError("hint: not your decision")
        try:
            pos, drawn = position_for(g, self.seat)
        except CanastaError as exc:
            raise CanastaError(str(exc).removeprefix("hint: ")) from None
        if equity is not None and max(pos.scores) >= equity.target:
            equity = None  # a tie at the target plays on (GAME-1): off the table, by points
        adv = advise(
            pos,
            drawn=drawn,
            n=HINT_N,
            budget=budget,
            seed=g.turn,
            ruleset=g.ruleset,
            equity=equity,
        )
        choices = adv.choices
        if equity is not None:  # stable: equal chances keep the points' order
            choices = sorted(choices, key=lambda c: -c.game["win"])
        out = {
            "decision": adv.decision,
            "choices": merged_choices(choices, HINT_TOP),
            "why": plain(why(adv)),
            "ruleset": self.rules_name,
        }
        if equity is not None:
            out["ranked_by"] = "game"
        return out

    def review(self, budget: float | None = REVIEW_BUDGET, gain: float = REVIEW_GAIN) -> list[dict]:
        """At the end of the hand: each of the human's draws, and plays right after a stock
        draw, where the best choice beat the one made by more than ``gain`` points."""
        from analysis.advise import advise, why
        from canasta._human import position_for

        g = self.game
        if not g.is_over:
            raise CanastaError("review: the hand is not over")
        if self.review_cache is not None:
            return self.review_cache
        out = []
        h = _fresh(g)
        for i, a in enumerate(g.actions):
            if h.current_player == self.seat and i in set(self.decisions):
                obs = h.observation(self.seat)
                phase = int(obs[E.OB_PHASE])
                openable = phase == E.PH_DRAW or (
                    phase == E.PH_PLAY and not obs[E.OB_TOOK_PILE] and not obs[E.OB_MELDED]
                )
                if openable:
                    try:
                        pos, drawn = position_for(h, self.seat)
                        adv = advise(
                            pos, drawn=drawn, n=64, budget=budget, seed=h.turn, ruleset=h.ruleset
                        )
                    except CanastaError:
                        adv = None
                    if adv is not None and adv.choices:
                        made = made_choice(g.actions, i, self.seat, h, adv)
                        best = adv.choices[0]
                        # the paired difference (same deals), and only where its 95% interval
                        # lies wholly below 0: a gap within the noise is no lesson
                        if made is not None and -made.diff_from_best > gain and made.diff_high < 0:
                            out.append(
                                {
                                    "turn": h.turn,
                                    "you": plain(made.label),
                                    "you_mean": made.mean,
                                    "best": plain(best.label),
                                    "best_mean": best.mean,
                                    "gain": -made.diff_from_best,
                                    "gain_ci": [-made.diff_high, -made.diff_low],
                                    "why": plain(why(adv, made)),
                                }
                            )
            h.apply(a)
        self.review_cache = out
        return out

    # --- records ------------------------------------------------------------------------
    def finished(self) -> bool:
        """The table's play is over: its hand, or its game (GAME-1)."""
        return self.game.is_over and (self.mode == "hand" or self.game_over())

    def record(self) -> dict:
        """The table's record (sim.record) for the player: while the game runs, without the
        running hand's deck and without any seed; once it is over, with every deck and the
        entropy the deals came from (``table.deal_entropy``)."""
        from sim.record import from_games

        rec = from_games(
            self.games,
            players=self.policies,
            kind=self.mode,
            hide_running_deck=True,
        )
        done = self.finished()
        rec["seed"] = self.seed if done else None
        table = self.settings()
        if done and self._entropy is not None:
            table["deal_entropy"] = f"{self._entropy:032x}"
        return rec | {"table": table}

    def saved(self) -> dict:
        """The whole record, running deck and entropy included, for the server's own store
        (never sent)."""
        from sim.record import from_games

        rec = from_games(self.games, players=self.policies, kind=self.mode)
        rec["seed"] = self.seed
        return rec | {
            "table": self.settings()
            | {
                "id": self.id,
                "entropy": None if self._entropy is None else f"{self._entropy:032x}",
                "move_no": self.move_no,
            },
            "decisions": list(self.decisions),
            "undo_stock": list(self.undo_stock),
            "mark": int(getattr(self, "mark", 0)),
        }

    def settings(self) -> dict:
        """What the table was set up with, as the page and a record show it (no id, no seed)."""
        return {
            "mode": self.mode,
            "seat": self.seat,
            "partner": self.policies[(self.seat + 2) % 4],
            "opponents": self.policies[(self.seat + 1) % 4],
            "rules_name": self.rules_name,
            "practice_seed": self.seed is not None,
        }

    @classmethod
    def resume(cls, saved: dict) -> Table:
        """A table rebuilt from ``saved()`` (a server restart): every hand replayed."""
        from sim.game import GameDriver
        from sim.record import replay

        s = saved.get("table") if isinstance(saved, dict) else None
        if not isinstance(s, dict):
            raise CanastaError("not a saved table")
        t = cls.__new__(cls)
        t.id, t.mode, t.seat = str(s["id"]), s["mode"], int(s["seat"])
        seed = saved.get("seed")
        t.seed = None if seed is None else int(seed)
        t._entropy = None if s.get("entropy") is None else int(s["entropy"], 16)
        if (t.seed is None) == (t._entropy is None):
            raise CanastaError("a saved table has a practice seed or its entropy")
        t.rules_name = s.get("rules_name", "")
        t.driver = GameDriver.resume(
            replay(saved),
            seed=0 if t.seed is None else t.seed,
            hand_seed=None if t._entropy is None else partial(hand_seed, t._entropy),
        )
        t.ruleset = t.games[0].ruleset
        t.policies = list(saved.get("players") or [s["partner"], s["opponents"]] * 2)
        t.decisions = [int(d) for d in saved.get("decisions", [])]
        t.undo_stock = [int(d) for d in saved.get("undo_stock", [])]
        if len(t.undo_stock) != len(t.decisions):
            t.decisions, t.undo_stock = [], []
        t.move_no = int(s.get("move_no", 1))
        t.mark = int(saved.get("mark", 0))
        t.turns = event_turns(t.game)
        t.review_cache = None
        t.run_bots()
        return t

    # --- what the page sees ---------------------------------------------------------------
    def who(self, p: int) -> str:
        if p == self.seat:
            return "You"
        role = (
            "Partner"
            if p % 2 == self.seat % 2
            else ("Left" if p == (self.seat + 1) % 4 else "Right")
        )
        return f"{role} ({self.policies[p]})"

    def view(self, game=None) -> dict:
        """The table as the human seat sees it (:func:`canasta.web.view.view`); in game mode
        with a ``chance`` source (:class:`canasta.web.chance.GameChance`, set by the server)
        also the chance of winning the game at the public scores."""
        from canasta.web.view import view

        out = view(self, game)
        source = getattr(self, "chance", None)
        if game is None and self.mode == "game" and source is not None:
            try:  # a missing equity table is queued, never built here
                out["chance"] = source.chance(self)
            except Exception as exc:  # the game goes on without it
                why = f"chance of winning: unavailable ({type(exc).__name__})"
                out["chance"] = {"status": "unavailable", "text": why}
        return out


def warm(bot: str = "strong", step=None) -> None:
    """Compile (or load from numba's cache) all that a table's first deal and first hint run:
    the bots and the deal, the page's view, a move checked, refused and applied, a hint's
    simulation at a draw and at a play after a stock draw (each compiles its own kernels);
    ``step()`` is called once after each of the four (progress for the page)."""

    done = 0

    def advance(upto: int) -> None:
        nonlocal done
        while done < upto:
            done += 1
            if step is not None:
                step()

    hinted: set[str] = set()
    for seed in range(8):
        t = Table(seed=seed, partner=bot, opponents=bot)
        advance(1)
        t.view()
        t.record()
        advance(2)
        try:
            t.move({"move": "meld", "cards": ["4"] * 3})  # refused: its words, the moves allowed
        except CanastaError:
            pass
        for _ in range(400):
            g = t.game
            if g.is_over or len(hinted) == 2:
                break
            if g.phase in ("draw", "play") and g.phase not in hinted:
                try:
                    t.hint(budget=0.3)
                    hinted.add(g.phase)
                except CanastaError:
                    pass
            t.move(move_for(g.policy_action(bot)))
            t.view()
            advance(3)
        if len(hinted) == 2:
            break
    advance(4)
