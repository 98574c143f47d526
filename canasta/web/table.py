"""One table of the web app: a human seat against bots, a hand or a game, kept apart from the
HTTP layer (canasta.web.app) so it is tested and benchmarked on its own.

Everything a table sends is built by :meth:`Table.view` from the human seat's observation
(``Game.observation(seat)``) and the public events (other seats' draws hidden), so it never
holds a card the seat cannot see; once the hand is over every hand is shown, as at a real table
(SCORE-5: the cards left in hand are counted against their team). The deck stays on the
server (``sim.record`` with ``hide_running_deck``) until the hand is over.

Undo rebuilds the hand from its deal and the actions before the human's previous decision
(``sim.record``: the deal and the actions fix the state; the bots are deterministic given the
position, so their replies come again the same).
"""

from __future__ import annotations

import secrets

import numpy as np

from canasta._human import legal_order
from canasta.web.moves import (
    choice_json,
    kind_name,
    made_choice,
    move_for,
    move_names,
    parse_kinds,
    plain,
)
from sim import encoding as E
from sim.errors import CanastaError
from sim.text import meld_cards

__all__ = [
    "HINT_BUDGET",
    "HINT_N",
    "HINT_TOP",
    "LOG_TAIL",
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
LOG_TAIL = 14  #: last events the page shows


class MoveRefused(CanastaError):
    """A move the rules refuse: ``rule`` its ID, the message its ``explain()`` sentence."""

    def __init__(self, message: str, rule: str = ""):
        self.rule = rule
        super().__init__(message)


def _fresh(g):
    from sim.record import redeal

    return redeal(g)


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
    ):
        from sim.api import resolve_policies
        from sim.ruleset import as_ruleset

        if mode not in ("hand", "game"):
            raise CanastaError(f"mode {mode!r}: expected 'hand' or 'game'")
        partner, opponents = (r[2] for r in resolve_policies([partner, opponents]))
        self.id = table_id or secrets.token_urlsafe(12)
        self.seed = secrets.randbelow(2**31) if seed is None else int(seed)
        self.mode = mode
        self.seat = seat
        self.ruleset = as_ruleset(rules)
        self.rules_name = rules_name
        self.policies = [partner if p % 2 == seat % 2 else opponents for p in range(4)]
        self.policies[seat] = "you"
        self.games: list = []  # the hands of the game, the last one running or just over
        self.decisions: list[int] = []  # action indices of the human's choices, this hand
        self.review_cache: list | None = None
        self.new_hand()

    # --- hands ------------------------------------------------------------------------
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
        """GAME-1: a team reached the target (a tie at or above it plays another hand)."""
        if self.mode != "game" or not self.games or not self.game.is_over:
            return False
        t = self.totals()
        return max(t) >= self.ruleset.target and t[0] != t[1]

    def new_hand(self) -> None:
        from sim.record import game_hand

        if self.games and not self.game.is_over:
            raise CanastaError("the hand is still running")
        if self.games and self.mode == "hand":
            raise CanastaError("a single hand: start a new table for another")
        if self.game_over():
            raise CanastaError("the game is over (GAME-1)")
        k = len(self.games)
        if k >= E.GAME_HAND_STRIDE:
            raise CanastaError("the game reached the engine's cap of hands")
        self.games.append(game_hand(self.seed, 0, k, self.totals(), self.ruleset))
        self.decisions = []
        self.review_cache = None
        self.mark = 0
        self.run_bots()

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
            g.apply(a)

    # --- the human's moves --------------------------------------------------------------
    def _refuse(self, code: int, what: str):
        raise MoveRefused(f"{what}: {E.explain(code)}", E.reason_rule(code))

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
        for a in order:
            g.apply(a)
        if g.is_over or g.current_player != self.seat:
            self.mark = len(g.events())  # the turn ends: "since your last move"
        self.review_cache = None
        self.run_bots()

    def move(self, body: dict) -> None:
        """A move from the page: ``{"move": name, "cards": [...], "target": kind}``."""
        if not isinstance(body, dict):
            raise CanastaError('expected a JSON object such as {"move": "draw"}')
        name = body.get("move")
        simple = {
            "draw": E.A_DRAW,
            "pile": E.A_TAKE_PILE,
            "lay": E.A_LAY_THREES,
            "declare": E.A_DECLARE,
            "keep_red": E.A_KEEP_RED_THREE,
            "keep_black": E.A_KEEP_BLACK_THREE,
        }
        from sim.engine.game import describe_action

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

    def undo(self) -> None:
        """Back to the human's previous decision of this hand (bots replayed)."""
        if not self.decisions:
            raise CanastaError("nothing to undo in this hand")
        back = self.decisions.pop()
        g = self.game
        keep = g.actions[:back]
        fresh = _fresh(g)
        for a in keep:
            fresh.apply(a)
        self.games[-1] = fresh
        self.review_cache = None
        self.mark = 0

    # --- advice -------------------------------------------------------------------------
    def hint(self, budget: float = HINT_BUDGET) -> dict:
        """The ranked choices of this decision with 95% intervals and one plain sentence of
        why (analysis.advise.why)."""
        from analysis.advise import advise, why
        from canasta._human import position_for

        g = self.game
        if g.is_over or g.current_player != self.seat:
            raise CanastaError("hint: not your decision")
        try:
            pos, drawn = position_for(g, self.seat)
        except CanastaError as exc:
            raise CanastaError(str(exc).removeprefix("hint: ")) from None
        adv = advise(
            pos,
            drawn=drawn,
            n=HINT_N,
            budget=budget,
            seed=g.turn,
            ruleset=g.ruleset,
        )
        return {
            "decision": adv.decision,
            "choices": [choice_json(c) for c in adv.choices[:HINT_TOP]],
            "why": plain(why(adv)),
            "ruleset": self.rules_name,
        }

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
    def record(self) -> dict:
        """The table's record (sim.record), the running hand's deck left out."""
        from sim.record import from_games

        return from_games(
            self.games,
            players=self.policies,
            kind=self.mode,
            hide_running_deck=True,
        ) | {"table": self.settings()}

    def saved(self) -> dict:
        """The whole record, running deck included, for the server's own store."""
        from sim.record import from_games

        return from_games(self.games, players=self.policies, kind=self.mode) | {
            "table": self.settings(),
            "decisions": list(self.decisions),
            "mark": int(getattr(self, "mark", 0)),
        }

    def settings(self) -> dict:
        return {
            "id": self.id,
            "seed": self.seed,
            "mode": self.mode,
            "seat": self.seat,
            "partner": self.policies[(self.seat + 2) % 4],
            "opponents": self.policies[(self.seat + 1) % 4],
            "rules_name": self.rules_name,
        }

    @classmethod
    def resume(cls, saved: dict) -> Table:
        """A table rebuilt from ``saved()`` (a server restart): every hand replayed."""
        from sim.record import replay

        s = saved.get("table") if isinstance(saved, dict) else None
        if not isinstance(s, dict):
            raise CanastaError("not a saved table")
        t = cls.__new__(cls)
        t.id, t.seed, t.mode, t.seat = s["id"], int(s["seed"]), s["mode"], int(s["seat"])
        t.rules_name = s.get("rules_name", "")
        t.games = replay(saved)
        t.ruleset = t.games[0].ruleset
        t.policies = list(saved.get("players") or [s["partner"], s["opponents"]] * 2)
        t.decisions = [int(d) for d in saved.get("decisions", [])]
        t.mark = int(saved.get("mark", 0))
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
        """The table as the human seat sees it (module docstring: from its observation)."""
        from canasta._human import allowed_summary

        g = self.game if game is None else game
        s = self.seat
        obs = g.observation(s)
        own = s % E.N_TEAMS
        width = E.N_KINDS * E.N_MELD_COLS
        teams = []
        for i in range(E.N_TEAMS):
            team = (own + i) % E.N_TEAMS
            block = obs[E.OB_MELDS + i * width : E.OB_MELDS + (i + 1) * width]
            block = block.reshape(E.N_KINDS, E.N_MELD_COLS)
            melds = []
            for slot in range(E.N_KINDS - 1, -1, -1):
                nat, two, joker = (int(x) for x in block[slot, :3])
                n = nat + two + joker
                if n:
                    melds.append(
                        {
                            "rank": "wild" if slot == E.WILD_MELD else kind_name(slot),
                            "cards": meld_cards(slot, nat, two, joker),
                            "canasta": n >= E.CANASTA,
                            "natural": two + joker == 0 and slot != E.WILD_MELD,
                        }
                    )
            red, black = (int(x) for x in obs[E.OB_THREES + 2 * i : E.OB_THREES + 2 * i + 2])
            seats = [s, (s + 2) % 4] if i == 0 else [(s + 1) % 4, (s + 3) % 4]
            teams.append(
                {
                    "team": team,
                    "label": "You + partner" if i == 0 else "Opponents",
                    "seats": seats,
                    "score": int(obs[E.OB_SCORES + i]),
                    "opened": bool(obs[E.OB_OPENED + i]),
                    "melds": melds,
                    "red_threes": red,
                    "black_threes": black,
                }
            )
        hand = obs[E.OB_HAND : E.OB_HAND + E.N_KINDS]
        cards = []
        for k in range(E.N_KINDS - 1, -1, -1):
            if k not in (E.TWO, E.JOKER) and not E.IS_THREE[k]:
                cards += [kind_name(k)] * int(hand[k])
        for k in (E.TWO, E.JOKER, E.RED_THREE, E.BLACK_THREE):
            cards += [kind_name(k)] * int(hand[k])
        top = int(obs[E.OB_PILE_TOP])
        sizes = {str((s + i) % 4): int(obs[E.OB_HAND_SIZES + i]) for i in range(E.N_PLAYERS)}
        out = {
            "table": self.settings(),
            "ruleset": {"name": self.rules_name, "rules": self.ruleset.to_dict()},
            "players": {str(p): self.who(p) for p in range(4)},
            "hand_no": len(self.games),
            "turn": int(obs[E.OB_TURN]),
            "phase": E.PHASE_NAMES[int(obs[E.OB_PHASE])],
            "to_act": int(g.current_player) if not g.is_over else None,
            "your_turn": (not g.is_over) and g.current_player == s,
            "hand": cards,
            "pile_top": kind_name(top) if top >= 0 else None,
            "pile_size": int(obs[E.OB_PILE_N]),
            "stock": int(obs[E.OB_STOCK_N]),
            "hand_sizes": sizes,
            "open_min": int(obs[E.OB_OPEN_MIN]),
            "teams": teams,
            "log": self._log(g)[-LOG_TAIL:],
            "recent": [
                line
                for line in self._log(g, getattr(self, "mark", 0))
                if not line.startswith("You")
                and "draws a card" not in line
                and "(hidden)" not in line
            ],
            "can_undo": bool(self.decisions) and game is None,
            "allowed": allowed_summary(g) if not g.is_over and g.current_player == s else "",
            "moves": move_names(g) if not g.is_over and g.current_player == s else [],
            "over": bool(g.is_over),
        }
        aside = obs[E.OB_ASIDE : E.OB_ASIDE + E.N_KINDS]
        if aside.sum():
            out["aside"] = [kind_name(k) for k in range(E.N_KINDS) for _ in range(int(aside[k]))]
        if g.is_over:
            out["result"] = self._result(g)
        return out

    def _log(self, g, start: int = 0) -> list[str]:
        """The hand's events (from event ``start``) in words, other seats' cards hidden
        (``sim.text.event_lines``, the web's words)."""
        from sim.text import WEB_WORDS, event_lines

        return event_lines(g.events()[start:], self.seat, self.who, WEB_WORDS)

    def _result(self, g) -> dict:
        from sim.cards import format_counts
        from sim.engine.views import st_hands

        scores = g.scores()
        items = [k for k in scores[0] if k != "total"]
        totals = self.totals()
        hands = st_hands(g.state)
        res = {
            "end": g.end_reason,
            "items": [
                {"item": k, "team0": scores[0][k], "team1": scores[1][k]} for k in [*items, "total"]
            ],
            "totals": list(totals),
            "your_team": self.seat % 2,
            "held": {str(p): format_counts(hands[p]) for p in range(4)},
            "game_over": self.game_over(),
            "next_hand": self.mode == "game" and not self.game_over(),
            "target": int(self.ruleset.target),
        }
        return res


def warm(bot: str = "strong") -> None:
    """Compile (or load from numba's cache) the bots and a hint's simulation, so the first
    turn and the first hint of a table do not wait for it: a table dealt until its first
    decision that a hint can open."""
    for seed in range(20):
        t = Table(seed=seed, partner=bot, opponents=bot)
        try:
            t.hint(budget=0.3)
            return
        except CanastaError:
            continue
