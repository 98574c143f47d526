"""One table of the web app: a human seat against bots, a hand or a game, kept apart from the
HTTP layer (canasta.web.app) so it is tested and benchmarked on its own.

The seat itself is :class:`canasta._seat.Seat` (the game through its driver, the bots' turns,
moves applied whole or not at all, refusals naming the rule, hint, undo, review), which the
terminal drives too; a :class:`Table` is its web face: a move's JSON body read by the one move
grammar (``sim.moves.move_from_json``), the advice as JSON, the table's secrets, and the saved
form a restarted server resumes.

Everything a table sends is built by :func:`canasta.web.view.view` from the human seat's
observation (``Game.observation(seat)``) and the public events (other seats' draws hidden), so
it never holds a card the seat cannot see; once the hand is over every hand is shown, as at a
real table (SCORE-5: the cards left in hand are counted against their team).

Secrets stay here (docs/web.md, threat model): a table dealt at random draws 128 bits from the
operating system (``secrets``) and seeds each hand from a hash of them and the hand's number, so
the deal of a finished hand tells nothing of the next one. Neither the entropy nor a hand's
seed, its RNG state or the running hand's deck is in a view or in a record while the game runs;
the record of a finished game carries the entropy (``table.deal_entropy``) and every deck.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from functools import partial

import numpy as np

from canasta._seat import HINT_BUDGET, HINT_N, HINT_TOP, Seat, plain
from canasta._seat_review import REVIEW_BUDGET, REVIEW_N
from canasta.web.moves import merged_choices, move_for
from sim.errors import CanastaError
from sim.moves import MoveError, move_from_json

__all__ = [
    "HINT_BUDGET",
    "HINT_N",
    "HINT_TOP",
    "REVIEW_BUDGET",
    "REVIEW_N",
    "Table",
    "move_for",
    "why_text",
]

ENTROPY_BITS = 128  #: bits of the operating system's randomness behind a table's deals

#: a move the rules refuse: the one error type of moves (``sim.moves.MoveError``), its ``rule``
#: the rule ID and ``allowed`` the moves allowed now (the server answers 422 with both)
MoveRefused = MoveError


def hand_seed(entropy: int, k: int) -> np.random.SeedSequence:
    """Hand ``k``'s seed from a table's entropy: a keyed hash, so one hand's deck (shown once
    it is over) says nothing of another's (the engine's own seeding of a game's hands derives
    each from one key that a hand's generator state gives back)."""
    digest = hashlib.blake2b(
        k.to_bytes(4, "little"), key=entropy.to_bytes(ENTROPY_BITS // 8, "little"), digest_size=32
    ).digest()
    return np.random.SeedSequence(int.from_bytes(digest, "little"))


class Table(Seat):
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
        from sim.game import GameDriver
        from sim.policies.registry import check_table_policy
        from sim.ruleset import as_ruleset

        if mode not in ("hand", "game"):
            raise CanastaError(f"mode {mode!r}: expected 'hand' or 'game'")
        partner, opponents = (r[2] for r in resolve_policies([partner, opponents]))
        for label in (partner, opponents):
            check_table_policy(label)  # a measuring reference (peeking_strong) is no table's bot
        self.id = table_id or secrets.token_urlsafe(24)
        #: the page's proof that the cookie is its own: sent once, kept in the page's storage
        #: (per origin, so a page on another port cannot plant it as it can a cookie)
        self.key = secrets.token_urlsafe(18)
        #: a practice deal's seed (chosen by the player, who can rebuild it), else None
        self.seed = None if seed is None else int(seed)
        self._entropy = secrets.randbits(ENTROPY_BITS) if seed is None else None
        self.rules_name = rules_name
        self.chance = None  #: where game mode reads its chance of winning (set by the server)
        policies = [partner if p % 2 == seat % 2 else opponents for p in range(4)]
        policies[seat] = "you"
        #: the game's one owner (GAME-1, SPECIAL-10, DEAL-1, OPEN-1, seeding): the seat only
        #: plays the human's seat, the table shows it
        driver = GameDriver(
            seed=0 if self.seed is None else self.seed,
            game_id=game_id,  # a practice seed's game number (its hands' seeds)
            rules=as_ruleset(rules),
            hand_seed=None if self._entropy is None else partial(hand_seed, self._entropy),
        )
        super().__init__(driver, seat, policies, mode=mode, auto_forced=True)

    # --- the human's moves --------------------------------------------------------------
    def move(self, body: dict) -> None:
        """A move from the page: ``{"move": name, "cards": [...], "target": kind}``
        (``sim.moves.move_from_json``); a refusal (:class:`MoveRefused`) names the rule and
        the moves allowed now."""
        try:
            move = move_from_json(body)
        except MoveError as exc:
            raise self.refusal(exc) from None
        self.play(move)

    # --- advice -------------------------------------------------------------------------
    def hint(self, budget: float = HINT_BUDGET, equity=None, advise=None) -> dict:
        """The ranked choices of this decision with 95% intervals and one plain sentence of
        why (:func:`why_text`). With ``equity`` (an equity table of the table's rules and
        bots, game mode) the choices are ranked by the team's chance of winning the game after
        the hand, their points beside it. ``advise``: where the simulation runs (the server's
        pool of workers; default here)."""
        from analysis.advise import why

        try:
            adv = self.advice(budget=budget, equity=equity, advise=advise)
        except CanastaError as exc:
            raise CanastaError(str(exc).removeprefix("hint: ")) from None
        by_game = equity is not None and any(getattr(c, "game", None) for c in adv.choices)
        out = {
            "decision": adv.decision,
            "choices": merged_choices(adv.choices, HINT_TOP),
            "why": plain(why_text(adv, why)),
            "ruleset": self.rules_name,
        }
        if by_game:
            out["ranked_by"] = "game"
        return out

    # --- records ------------------------------------------------------------------------
    def finished(self) -> bool:
        """The table's play is over: its hand, or its game (GAME-1)."""
        return self.game.is_over and (self.mode == "hand" or self.game_over())

    def record(self) -> dict:
        """The table's record (sim.record) for the player: while the game runs, without the
        running hand's deck and without any seed; once it is over, with every deck and the
        entropy the deals came from (``table.deal_entropy``)."""
        rec = super().record(hide_running_deck=True)
        done = self.finished()
        rec["seed"] = self.seed if done else None
        table = self.settings()
        if done and self._entropy is not None:
            table["deal_entropy"] = f"{self._entropy:032x}"
        return rec | {"table": table}

    def saved(self) -> dict:
        """The whole record, running deck and entropy included, for the server's own store
        (never sent)."""
        rec = super().record(hide_running_deck=False)
        rec["seed"] = self.seed
        return rec | {
            "table": self.settings()
            | {
                "id": self.id,
                "entropy": None if self._entropy is None else f"{self._entropy:032x}",
                "key": self.key,
                "move_no": self.move_no,
            },
            "decisions": list(self.decisions),
            "undo_stock": list(self.undo_stock),
            "mark": int(self.mark),
            "reviews": {str(k): r.to_json() for k, r in self.review_cache.items()},
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
        t.id = str(s["id"])
        t.key = str(s.get("key") or secrets.token_urlsafe(18))  # none saved: no page holds it
        seed = saved.get("seed")
        t.seed = None if seed is None else int(seed)
        t._entropy = None if s.get("entropy") is None else int(s["entropy"], 16)
        if (t.seed is None) == (t._entropy is None):
            raise CanastaError("a saved table has a practice seed or its entropy")
        t.rules_name = s.get("rules_name", "")
        t.chance = None
        driver = GameDriver.resume(
            replay(saved),
            seed=0 if t.seed is None else t.seed,
            hand_seed=None if t._entropy is None else partial(hand_seed, t._entropy),
        )
        policies = list(saved.get("players") or [s["partner"], s["opponents"]] * 2)
        Seat.__init__(t, driver, int(s["seat"]), policies, mode=s["mode"], auto_forced=True)
        t.decisions = [int(d) for d in saved.get("decisions", [])]
        t.undo_stock = [int(d) for d in saved.get("undo_stock", [])]
        if len(t.undo_stock) != len(t.decisions):
            t.decisions, t.undo_stock = [], []
        t.move_no = int(s.get("move_no", 1))
        t.mark = int(saved.get("mark", 0))
        t.run_bots()
        from analysis.review import Review

        for k, r in (saved.get("reviews") or {}).items():  # the finished hands' reviews kept
            if 1 <= int(k) <= len(t.hands) and t.hands[int(k) - 1].is_over:
                t.review_cache[int(k)] = Review.from_json(r)
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


def _points(x: float) -> str:
    """Points as the hint's table rounds them, signed, never "-0" or "+0"."""
    v = math.floor(x + 0.5)
    return "0" if v == 0 else f"{v:+d}"


def why_text(adv, why) -> str:
    """The hint's one sentence of why: ``why(adv)`` (``analysis.advise.why``) where its
    figures read true once rounded; else, in words from the same measurement:

    - choices ranked by the chance of winning the game (game mode): the first need not be the
      one every paired difference is measured from, so the sentence compares the chances and
      the points as the table shows them (it said "-0 points, 95% interval -0 to -0" where the
      table showed +850 against +852);
    - by points, a paired difference whose 95% interval holds 0 once rounded: the two score
      about the same, each figure rounded as the table rounds it."""
    ch = adv.choices
    if len(ch) < 2:
        return why(adv)
    best, second = ch[0], ch[1]
    a = best.label[:1].upper() + best.label[1:]
    if best.diff_from_best != 0 and best.game and second.game:
        wa, wb = best.game["win"], second.game["win"]
        d = math.floor(best.mean - second.mean + 0.5)
        if d == 0:
            points = f"about the same points this hand ({_points(best.mean)} on average)"
        else:
            more = "more" if d > 0 else "fewer"
            points = (
                f"{abs(d)} {more} points this hand on average "
                f"({_points(best.mean)} against {_points(second.mean)})"
            )
        link = "though" if d < 0 else "and"
        return (
            f"{a} gives your team the better chance of winning the game ({wa:.0%} against "
            f"{wb:.0%} after {second.label}), {link} {points}."
        )
    gap, lo, hi = -second.diff_from_best, -second.diff_high, -second.diff_low
    if any(math.isnan(x) for x in (gap, lo, hi)):
        return why(adv)
    n = min(best.n, second.n)
    figures = f"95% interval {_points(lo)} to {_points(hi)} over {n} paired deals"
    if math.floor(lo + 0.5) <= 0 <= math.floor(hi + 0.5):
        return (
            f"{a} and {second.label} score about the same ({_points(gap)} points, {figures}): "
            "either is fine."
        )
    if hi < 0:  # ahead on its average over more deals, behind on the deals both were played on
        return (
            f"{a} and {second.label} are close: on the deals both were played on, "
            f"{second.label} scored {_points(-gap)} points more ({figures})."
        )
    return why(adv)
