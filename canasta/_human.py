"""The terminal's face of the human seat (``canasta play --human``): one hand, or a game to the
target (``--game``), against the bots, one command a line.

A :class:`Session` reads commands from any iterable of lines (a terminal or a pipe) and prints;
the seat itself (the game, the bots' turns, applying a move whole or not at all, refusals, the
hint, undo) is :class:`canasta._seat.Seat`, which the web table drives too, and a command's move
is read by the one move grammar (``sim.moves.parse_move``), as the page's and a record's are. A
refused command prints the rule ID and sentence (``explain``) and what is allowed now. Bots'
moves are printed as they happen, hiding the cards they draw.

``meld CARDS`` may be several engine actions (one meld operation per rank): they are tried on
a copy of the game first, in the given order and then in the other orders, so a command is
applied whole or not at all (docs/play.md).

At the end of each hand, and of the game, the review of the human's decisions (the seat's
review, ``canasta._seat_review.review_hand``, the one the web table shows) is printed as
``canasta review`` prints it: always with ``--review``, else when the player answers yes to
the question (a terminal; a pipe is never asked).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from canasta._seat import (
    HINT_BUDGET,
    HINT_N,
    HINT_TOP,
    Seat,
    allowed_summary,
    position_for,
)
from canasta._seat_review import REVIEW_BUDGET
from sim import encoding as E
from sim.cards import format_melds
from sim.errors import CanastaError
from sim.moves import MoveError, parse_kind, parse_move
from sim.play.words import command_help

__all__ = ["HINT_BUDGET", "HINT_N", "HINT_TOP", "Session", "parse_kind", "position_for"]

HELP_TEXT = "\n".join(  # the moves' lines from the one owner of their words (sim.play.words)
    [
        "commands (one a line):",
        "  help                this list",
        "  show                the table again",
        "  hint                advice for this decision (analysis.advise, a few seconds)",
        "  undo                take back your last decision (while no card has left the stock "
        "since)",
        *command_help(),
        "  quit                leave the hand",
    ]
)

_FACE = ("help", "show", "hint", "undo", "quit", "exit", "auto")
_MOVES = ("draw", "pile", "meld", "wild", "discard", "keep", "lay", "declare", "take")


def meld_operations(text: str) -> list[tuple[int, int, int, int]]:
    """'7 7 7, K K JK' -> [(slot, naturals, twos, jokers), ...]: the meld operations of a
    ``meld`` command (``sim.moves``: one per rank; wild cards alone are the wild meld)."""
    return list(parse_move(f"meld {text}").ops)


def format_advice(adv, top: int = HINT_TOP) -> list[str]:
    """Lines of an ``Advice``: label, mean [ci_low, ci_high], difference from the best."""
    choices = list(adv.choices)[:top]
    if not choices:
        return ["hint: no choice to compare"]
    width = max(len(str(c.label)) for c in choices)
    lines = [
        f"hint ({adv.decision}): expected points for your team this hand, 95% intervals, best first"
    ]
    for i, c in enumerate(choices, 1):
        diff = (
            "best"
            if i == 1
            else f"{c.diff_from_best:+.0f} [{c.diff_low:+.0f}, {c.diff_high:+.0f}] vs best"
        )
        lines.append(
            f"  {i}. {c.label!s:<{width}}  {c.mean:+8.0f} [{c.ci_low:+.0f}, {c.ci_high:+.0f}]"
            f"  {diff}  (n={c.n})"
        )
    return lines


class Session:
    """One hand (``game``), or with ``driver`` (a ``sim.game.GameDriver``, no hand dealt yet)
    a game to the target: ``seat`` is the human's, ``policies[p]`` the bot of each other
    seat; played through a :class:`canasta._seat.Seat`. ``review``: print the review of the
    human's decisions at the end of each hand and of the game; ``ask``: else a function that
    asks the player whether to (None: never asked); ``review_budget``: seconds of advice a
    decision at most."""

    def __init__(
        self,
        game,
        seat: int,
        policies: list[str],
        out: Callable[[str], None] = print,
        advise: Callable | None = None,
        hint_budget: float = HINT_BUDGET,
        driver=None,
        review: bool = False,
        ask: Callable[[str], bool] | None = None,
        review_budget: float | None = REVIEW_BUDGET,
    ):
        from sim.game import GameDriver

        if driver is None:
            driver = GameDriver.resume([game], seed=game.seed)
            self.human = Seat(driver, seat, policies, mode="hand", auto_forced=False)
        else:
            self.human = Seat(driver, seat, policies, mode="game", auto_forced=False)
        self.review = review
        self.ask = ask
        self.review_budget = review_budget
        self._equity: list = []  # the equity table, once looked for (None: none cached)
        self.seat = seat
        self.policies = policies
        self.out = out
        self._advise = advise
        self.hint_budget = hint_budget
        self.shown = 0  # events already printed
        self.refused: CanastaError | None = None  #: the last refusal (its ``rule``, if a rule's)

    @property
    def game(self):
        """The running hand (an undo replaces it by the same deal replayed)."""
        return self.human.game

    # --- printing ---------------------------------------------------------------------
    def who(self, p: int) -> str:
        if p == self.seat:
            return "you"
        role = "partner" if p % E.N_TEAMS == self.seat % E.N_TEAMS else "opponent"
        return f"P{p} ({role}, {self.policies[p]})"

    def flush_events(self) -> None:
        """Print the events since the last call, hiding the cards other players receive."""
        from sim.play.words import event_lines

        events = self.game.events()
        for line in event_lines(events[self.shown :], self.seat, self.who):
            self.out(line)
        self.shown = len(events)

    def table(self) -> list[str]:
        """The table as the human sees it (their observation only)."""
        from sim.cards import format_counts
        from sim.legality import opening_min

        g, s = self.game, self.seat
        v = g.view(s)
        own = v.team
        lines = [f"--- turn {v.turn}: your {v.phase_name} step (seat {s}, team {own}) ---"]
        for i in range(E.N_TEAMS):
            t = v.team_at(i)
            seats = f"you + P{v.seat_at(2)}" if i == 0 else f"P{v.seat_at(1)} + P{v.seat_at(3)}"
            score = int(v.scores[i])
            opened = (
                "opened"
                if v.opened[i]
                else f"not opened, needs {opening_min(g.rules, score, g.hand_number)}"
            )
            red, black = (int(x) for x in v.threes[i])
            lines.append(
                f"team {t} ({seats}): score {score:,}; {opened} (OPEN-1); "
                f"threes laid {red} red, {black} black"
            )
            lines.append(f"  melds: {format_melds(v.melds[i])}")
        top_text = f"top {E.KIND_NAMES[v.pile_top]}, " if v.pile_top >= 0 else ""
        lines.append(
            f"pile: {top_text}{v.pile_n} cards ({format_counts(v.pile_counts) or 'empty'}); "
            f"stock: {v.stock_n} cards"
        )
        sizes = ", ".join(f"P{v.seat_at(i)} {int(v.hand_sizes[i])}" for i in range(1, E.N_PLAYERS))
        lines.append(f"hand sizes: {sizes}")
        if v.aside.sum():
            lines.append(
                f"the pile's rest, yours once your opening stands: {format_counts(v.aside)}"
            )
        lines.append(f"your hand ({int(v.hand.sum())}): {format_counts(v.hand) or '(nothing)'}")
        return lines

    def prompt(self) -> None:
        for line in self.table():
            self.out(line)
        self.out(f"you may: {allowed_summary(self.game)}   (help: commands)")

    def finish(self) -> None:
        """The end of the hand: final table, every hand, the itemised score (sim.play.words)."""
        from sim.play.words import end_lines, score_lines

        g = self.game
        for line in end_lines(g, name=self.who, verb="held"):
            self.out(line)
        scores = g.scores()
        self.out("score of the hand (SCORE-1..8, OUT-3):")
        for line in score_lines(scores):
            self.out(line)
        own = self.seat % E.N_TEAMS
        margin = scores[own]["total"] - scores[1 - own]["total"]
        verdict = "you win" if margin > 0 else "you lose" if margin < 0 else "a tie"
        self.out(f"your team (team {own}): {scores[own]['total']:+,}; {verdict} by {abs(margin):,}")
        if self.human.mode == "game":
            d = self.human.driver
            mine, theirs = d.totals[own], d.totals[1 - own]
            self.out(
                f"game after hand {len(d.hands)}: your team {mine:,}, opponents {theirs:,} "
                f"(target {d.ruleset.target:,}, GAME-1)"
            )
            if d.is_over:
                won = "your team wins" if d.winner == own else "the opponents win"
                self.out(
                    f"the game is over ({d.ended_by}): {won}"
                    if d.winner >= 0
                    else f"the game is over ({d.ended_by}): no winner"
                )

    # --- the review -------------------------------------------------------------------
    def equity(self):
        """The equity table of the game's rules and bots if one is cached (the human's team
        read as its partner's bot, as the web table reads it), else None: never built here
        (it takes minutes), the review is then in points only."""
        if not self._equity:
            from analysis.equity import cached_table
            from canasta.web.chance import stand_in

            p = self.policies
            partner, opponent = p[(self.seat + 2) % 4], p[(self.seat + 1) % 4]
            pair = [partner, opponent] if self.seat % 2 == 0 else [opponent, partner]
            try:
                tab = cached_table(self.human.ruleset, [stand_in(x) for x in pair])
            except (CanastaError, OSError, ValueError):
                tab = None
            self._equity.append(tab)
        return self._equity[0]

    def offer_review(self, scope) -> None:
        """The review of hand ``scope`` (its number) or of the "game", if the player wants
        it (``review``, or yes to ``ask``), printed as ``canasta review`` prints it."""
        what = "the game" if scope == "game" else "this hand"
        if not self.review and not (self.ask is not None and self.ask(f"review {what}? [y/N] ")):
            return
        from analysis.review import band_for
        from canasta._seat_review import review
        from canasta.review import format_text

        eq = self.equity()
        self.out(f"review of {what}: advising each of your decisions (a few seconds each)...")
        if eq is None:
            self.out(
                "  (costs in points only: no equity table is cached for these rules and bots; "
                "canasta equity builds one)"
            )
        rev = review(self.human, scope, equity=eq, budget=self.review_budget)
        rev.meta["record"] = "your game" if scope == "game" else f"your hand {scope}"
        for line in format_text(rev, band_for(self.human.ruleset)).splitlines():
            self.out(line)

    def end_of_hand(self) -> bool:
        """The hand is over: its score, the review offered, and in a game the next hand dealt
        (True) or the game's end and its review (False: the session ends)."""
        self.finish()
        k = len(self.human.hands)
        self.offer_review(k)
        if self.human.mode != "game":
            return False
        if self.human.game_over():
            if k > 1:
                self.offer_review("game")
            return False
        self.human.new_hand()
        self.shown = 0
        g = self.game
        need = g.view(self.seat).open_min
        self.out(
            f"--- hand {k + 1}: P{g.first_player} plays first (DEAL-1); your team's first "
            f"meld needs {need} points (OPEN-1)"
        )
        self.flush_events()
        return True

    # --- playing ----------------------------------------------------------------------
    # --- playing ----------------------------------------------------------------------
    def refuse(self, exc: MoveError | CanastaError) -> None:
        if isinstance(exc, MoveError) and not exc.allowed:
            self.human.refusal(exc)  # the moves allowed now, as the seat gives them
        self.refused = exc
        self.out(f"refused: {exc}")
        self.out(f"you may: {getattr(exc, 'allowed', '') or allowed_summary(self.game)}")

    def hint(self) -> None:
        try:
            advise = self._advise
            if advise is None:
                try:
                    from analysis.advise import advise
                except ImportError:
                    self.out("hint: not available (analysis.advise is not installed)")
                    return
            position_for(self.game, self.seat)  # refused before the wait is announced
            self.out(f"hint: thinking (about {self.hint_budget:g} s)...")
            adv = self.human.advice(budget=self.hint_budget, advise=advise)
        except CanastaError as exc:
            self.out(str(exc) if str(exc).startswith("hint") else f"hint: {exc}")
            return
        for line in format_advice(adv):
            self.out(line)

    def command(self, line: str) -> bool:
        """Run one command line; False when the session ends (quit)."""
        word = line.strip().partition(" ")[0].lower()
        g = self.game
        if not word:
            return True
        if word not in _FACE + _MOVES:
            self.out(f"unknown command {word!r}; type help for the commands")
            return True
        if word in ("quit", "exit"):
            return False
        if word == "help":
            self.out(HELP_TEXT)
            self.out(f"you may: {allowed_summary(g)}")
            return True
        if word == "show":
            self.prompt()
            return True
        if word == "hint":
            self.hint()
            return True
        if word == "undo":
            try:
                self.human.undo()
            except CanastaError as exc:
                self.out(f"refused: {exc}")
                return True
            self.shown = min(self.shown, len(self.game.events()))
            self.out(f"undone: back to turn {self.game.turn}")
            self.prompt()
            return True
        try:
            if word == "auto":  # hidden: play the decision the partner's bot would (docs/play.md)
                move = self.human.bot_move(self.policies[(self.seat + 2) % E.N_PLAYERS])
            else:
                move = parse_move(line)
            turn = g.turn
            self.human.play(move)
        except CanastaError as exc:
            self.refuse(exc)
            return True
        g = self.game
        self.flush_events()
        if g.is_over:
            return True
        if g.turn == turn and word in ("meld", "auto") and g.phase == "play":
            from sim.cards import format_counts

            self.out(f"your hand: {format_counts(g.view(self.seat).hand) or '(nothing)'}")
            self.out(f"you may: {allowed_summary(g)}")
        else:
            self.prompt()
        return True

    def run(self, lines: Iterable[str]) -> int:
        """Play the hand, or the game, from ``lines``; returns 0 (it ended, or the player
        left)."""
        g = self.game
        first = g.first_player
        what = "a game to the target" if self.human.mode == "game" else f"hand {g.hand_id}"
        self.out(
            f"seed {g.seed}, {what}: you play seat {self.seat} (team "
            f"{self.seat % E.N_TEAMS}); P{first} plays first (DEAL-1). Type help for commands."
        )
        for p in range(E.N_PLAYERS):
            if p != self.seat:
                self.out(f"  P{p}: {self.who(p)}")
        self.human.run_bots()
        self.flush_events()
        lines = iter(lines)
        while True:
            if self.game.is_over:
                if self.end_of_hand():
                    continue
                return 0
            self.prompt()
            for line in lines:
                if not self.command(line):
                    self.out(f"you left the hand at turn {self.game.turn}; nothing is scored")
                    return 0
                if self.game.is_over:
                    break
            else:
                self.out(
                    f"end of input at turn {self.game.turn}: the hand is left unfinished; "
                    "nothing is scored"
                )
                return 0
