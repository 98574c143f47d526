"""The human seat of ``canasta play --human``: one hand against the bots, one command a line.

A :class:`Session` reads commands from any iterable of lines (a terminal or a pipe), maps each
to the engine's action ids (``sim.encoding.ACTION_TABLE``) and plays them through the step API
``sim.step.Game``, which judges every action from the player's observation
(``judge.action_reason``): a refused command prints the rule ID and sentence (``explain``) and
what is allowed now. Bots' moves are printed as they happen, hiding the cards they draw.

``meld CARDS`` may be several engine actions (one meld operation per rank): they are tried on
a copy of the game first, in the given order and then in the other orders, so a command is
applied whole or not at all (docs/play.md).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterable

import numpy as np

from sim import encoding as E
from sim.cards import format_melds
from sim.errors import CanastaError

__all__ = [
    "HELP_TEXT",
    "HINT_BUDGET",
    "HINT_N",
    "HINT_TOP",
    "Session",
    "allowed_summary",
    "format_advice",
    "legal_order",
    "meld_action",
    "meld_operations",
    "parse_kind",
    "position_for",
]

HINT_BUDGET = 3.0  #: seconds of simulation a hint may take (analysis.advise budget)
HINT_N = 200  #: most hands per choice a hint plays (the budget usually stops it first)
HINT_TOP = 5  #: choices a hint shows, best first

HELP_TEXT = """commands (one a line):
  help                this list
  show                the table again
  hint                advice for this decision (analysis.advise, a few seconds)
  draw                draw from the stock
  pile                take the discard pile (PILE-1: a natural pair of the top card's rank)
  meld CARDS          meld, e.g. 'meld 7 7 7', 'meld K K 2', 'meld 9 9 9, Q Q JK' (one meld a
                      comma; suits are optional: 7H = 7)
  discard CARD        discard one card and end the turn, e.g. 'discard 4'
  keep [3r|3b]        keep one three toward a Straight (DEAL-5), lay down the others
  lay                 lay down every three (DEAL-4)
  declare             declare a special hand (SPECIAL-1)
  quit                leave the hand"""

_COMMANDS = ("help", "show", "hint", "draw", "pile", "meld", "discard", "keep", "lay")
_COMMANDS += ("declare", "quit", "auto")

#: card word -> kind; suits are optional (the engine counts cards by kind: suits never matter)
_KIND_OF = {name.upper(): k for k, name in enumerate(E.KIND_NAMES)} | {"T": E.TEN}
_KIND_OF |= {"3R": E.RED_THREE, "3B": E.BLACK_THREE, "RED": E.RED_THREE, "BLACK": E.BLACK_THREE}
_SUITS = "SHDC"


def parse_kind(token: str) -> int:
    """Kind of a card word: 'K', 'KH', '10', 'T', '2', 'JK', '3H' (red), '3S' (black), '3r'."""
    t = token.strip().upper()
    if t in _KIND_OF:
        return _KIND_OF[t]
    rank, suit = t[:-1], t[-1:]
    if suit and suit in _SUITS and rank == "3":  # a three's colour is its suit's (SCORE-7)
        return E.RED_THREE if _SUITS.index(suit) in E.RED_SUITS else E.BLACK_THREE
    if suit and suit in _SUITS and rank in _KIND_OF and rank not in ("JK", "3R", "3B"):
        return _KIND_OF[rank]
    raise CanastaError(
        f"bad card {token!r}: a rank A K Q J 10 (or T) 9 8 7 6 5 4 2, JK, or 3r/3b, suit optional"
    )


def meld_operations(text: str) -> list[tuple[int, int, int, int]]:
    """'7 7 7, K K JK' -> [(slot, naturals, twos, jokers), ...]: one engine meld operation per
    rank; a group of wild cards only is the wild meld (MELD-8)."""
    groups = [g for g in text.split(",") if g.strip()]
    if not groups:
        raise CanastaError("meld what? e.g. 'meld 7 7 7' or 'meld K K 2, 9 9 9'")
    ops = []
    for g in groups:
        kinds = [parse_kind(tok) for tok in g.split()]
        if any(E.IS_THREE[k] for k in kinds):
            raise CanastaError(E.explain(E.R_THREE_MELDED))
        naturals = sorted({k for k in kinds if E.IS_NATURAL[k]}, reverse=True)
        twos, jokers = kinds.count(E.TWO), kinds.count(E.JOKER)
        if len(naturals) > 1 and twos + jokers:
            raise CanastaError(
                f"which meld do the wild cards of '{g.strip()}' join? separate melds by commas, "
                "e.g. 'meld K K 2, 9 9 9'"
            )
        if not naturals:
            ops.append((E.WILD_MELD, 0, twos, jokers))
        for k in naturals:
            ops.append((k, kinds.count(k), twos, jokers))
    return ops


def meld_action(slot: int, nat: int, two: int, joker: int) -> int:
    """Action id of one meld operation; an operation the table cannot hold is refused by the
    rule that forbids it (MELD-2 length, MELD-4 wild count)."""
    if nat + two + joker > E.CANASTA:
        raise CanastaError(E.explain(E.R_MELD_TOO_LONG))
    if slot != E.WILD_MELD and two + joker > E.MAX_OP_WILDS:
        raise CanastaError(E.explain(E.R_MIXED_TOO_MANY_WILDS))
    a = int(E.MELD_ACTION[slot, nat, two, joker])
    if a < 0:  # pragma: no cover - every op within the limits above is in the table
        raise CanastaError("no such meld operation")
    return a


def _op_text(slot: int, nat: int, two: int, joker: int) -> str:
    cards = [E.KIND_NAMES[slot]] * nat + ["2"] * two + ["JK"] * joker
    return " ".join(cards)


def allowed_summary(game) -> str:
    """What the current player may do now, in commands (from ``Game.legal_actions``)."""
    acts = game.legal_actions()
    words, discards, melds = [], [], {}
    for a in acts:
        kind, slot, nat, two, joker = (int(x) for x in E.ACTION_TABLE[a])
        if kind == E.AT_DRAW:
            words.append("draw")
        elif kind == E.AT_TAKE_PILE:
            words.append("pile")
        elif kind == E.AT_LAY_THREES:
            words.append("lay")
        elif kind == E.AT_KEEP_THREE:
            words.append(f"keep {E.KIND_NAMES[slot]}")
        elif kind == E.AT_DECLARE:
            words.append("declare")
        elif kind == E.AT_DISCARD:
            discards.append(E.KIND_NAMES[slot])
        else:  # per meld, the largest natural part first, then the fewest wild cards
            key = (nat, -(two + joker))
            if slot not in melds or key > melds[slot][0]:
                melds[slot] = (key, (slot, nat, two, joker))
    if melds:
        parts = []
        for slot in sorted(melds, reverse=True):
            op = melds[slot][1]
            text = _op_text(*op)
            if slot == E.WILD_MELD:
                text = f"wild {text}"
            elif op[1] == 0:
                text = f"{text} on {E.KIND_NAMES[slot]}"
            parts.append(text)
        words.append("meld (for example) " + " | ".join(parts))
    if discards:
        words.append("discard " + "/".join(reversed(discards)))
    return ", ".join(words) if words else "nothing (the hand is over)"


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
        card = _last_draw(game, seat)
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


def _last_draw(game, seat: int) -> int | None:
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


class Session:
    """One hand: ``seat`` is the human's, ``policies[p]`` the bot of each other seat."""

    def __init__(
        self,
        game,
        seat: int,
        policies: list[str],
        out: Callable[[str], None] = print,
        advise: Callable | None = None,
        hint_budget: float = HINT_BUDGET,
        hint_n: int = HINT_N,
    ):
        self.game = game
        self.seat = seat
        self.policies = policies
        self.out = out
        self._advise = advise
        self.hint_budget = hint_budget
        self.hint_n = hint_n
        self.shown = 0  # events already printed

    # --- printing ---------------------------------------------------------------------
    def who(self, p: int) -> str:
        if p == self.seat:
            return "you"
        role = "partner" if p % E.N_TEAMS == self.seat % E.N_TEAMS else "opponent"
        return f"P{p} ({role}, {self.policies[p]})"

    def flush_events(self) -> None:
        """Print the events since the last call, hiding the cards other players receive."""
        from sim.text import event_lines

        events = self.game.events()
        for line in event_lines(events[self.shown :], self.seat, self.who):
            self.out(line)
        self.shown = len(events)

    def table(self) -> list[str]:
        """The table as the human sees it (their observation only)."""
        from sim.cards import format_counts
        from sim.legality import opening_min

        g, s = self.game, self.seat
        obs = g.observation(s)
        own = s % E.N_TEAMS
        state_melds = obs[E.OB_MELDS : E.OB_MELDS + E.N_TEAMS * E.N_KINDS * E.N_MELD_COLS]
        melds = state_melds.reshape(E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS)
        phase = E.PHASE_NAMES[int(obs[E.OB_PHASE])]
        lines = [f"--- turn {int(obs[E.OB_TURN])}: your {phase} step (seat {s}, team {own}) ---"]
        for i in range(E.N_TEAMS):
            t = (own + i) % E.N_TEAMS
            seats = f"you + P{(s + 2) % 4}" if i == 0 else f"P{(s + 1) % 4} + P{(s + 3) % 4}"
            score = int(obs[E.OB_SCORES + i])
            opened = (
                "opened"
                if obs[E.OB_OPENED + i]
                else f"not opened, needs {opening_min(g.rules, score, g.hand_number)}"
            )
            red, black = (int(x) for x in obs[E.OB_THREES + 2 * i : E.OB_THREES + 2 * i + 2])
            lines.append(
                f"team {t} ({seats}): score {score:,}; {opened} (OPEN-1); "
                f"threes laid {red} red, {black} black"
            )
            lines.append(f"  melds: {format_melds(melds[i])}")
        pile_n = int(obs[E.OB_PILE_N])
        top = int(obs[E.OB_PILE_TOP])
        pile = obs[E.OB_PILE_COUNTS : E.OB_PILE_COUNTS + E.N_KINDS]
        top_text = f"top {E.KIND_NAMES[top]}, " if top >= 0 else ""
        lines.append(
            f"pile: {top_text}{pile_n} cards ({format_counts(pile) or 'empty'}); "
            f"stock: {int(obs[E.OB_STOCK_N])} cards"
        )
        sizes = ", ".join(
            f"P{(s + i) % 4} {int(obs[E.OB_HAND_SIZES + i])}" for i in range(1, E.N_PLAYERS)
        )
        lines.append(f"hand sizes: {sizes}")
        aside = obs[E.OB_ASIDE : E.OB_ASIDE + E.N_KINDS]
        if aside.sum():
            lines.append(f"the pile's rest, yours once your opening stands: {format_counts(aside)}")
        hand = obs[E.OB_HAND : E.OB_HAND + E.N_KINDS]
        lines.append(f"your hand ({int(hand.sum())}): {format_counts(hand) or '(nothing)'}")
        return lines

    def prompt(self) -> None:
        for line in self.table():
            self.out(line)
        self.out(f"you may: {allowed_summary(self.game)}   (help: commands)")

    def finish(self) -> None:
        """The end of the hand: final table, every hand, the itemised score (sim.text)."""
        from sim.text import end_lines, score_lines

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

    # --- playing ----------------------------------------------------------------------
    def bots(self) -> None:
        """Let the bots play until it is the human's decision or the hand is over."""
        from sim.engine.judge import forced_action

        g = self.game
        while not g.is_over and g.current_player != self.seat:
            a = int(forced_action(g.observation()))  # as the engine: no choice, no policy
            if a < 0:
                a = g.policy_action(self.policies[g.current_player])
            g.apply(a)
            self.flush_events()

    def refuse(self, code: int, what: str) -> None:
        self.out(f"refused: {what}: {E.explain(code)}")
        self.out(f"you may: {allowed_summary(self.game)}")

    def act(self, actions: list[int], what: str) -> bool:
        """Apply ``actions`` whole or not at all; a refusal names the rule."""
        g = self.game
        if len(actions) == 1:
            code = g.reason(actions[0])
            if code != E.R_OK:
                self.refuse(code, what)
                return False
            g.apply(actions[0])
            return True
        order, first = legal_order(g, actions)  # the meld operations of one command
        if order is None:
            self.refuse(first, what)
            return False
        for a in order:
            g.apply(a)
        return True

    def hint(self) -> None:
        try:
            advise = self._advise
            if advise is None:
                try:
                    from analysis.advise import advise
                except ImportError:
                    self.out("hint: not available (analysis.advise is not installed)")
                    return
            pos, drawn = position_for(self.game, self.seat)
            self.out(f"hint: thinking (about {self.hint_budget:g} s)...")
            adv = advise(
                pos,
                drawn=drawn,
                n=self.hint_n,
                budget=self.hint_budget,
                seed=self.game.turn,
                ruleset=self.game.ruleset,
            )
        except CanastaError as exc:
            self.out(str(exc) if str(exc).startswith("hint") else f"hint: {exc}")
            return
        for line in format_advice(adv):
            self.out(line)

    def command(self, line: str) -> bool:
        """Run one command line; False when the session ends (quit)."""
        from sim.step import describe_action

        word, _, rest = line.strip().partition(" ")
        word, rest = word.lower(), rest.strip()
        g = self.game
        if not word:
            return True
        if word not in _COMMANDS:
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
        try:
            if word == "auto":  # hidden: play the decision the partner's bot would (docs/play.md)
                from sim.engine.judge import forced_action

                a = int(forced_action(g.observation()))
                if a < 0:
                    a = g.policy_action(self.policies[(self.seat + 2) % E.N_PLAYERS])
                actions, what = [a], describe_action(a)
            elif word in ("draw", "pile", "lay", "declare"):
                a = {"draw": E.A_DRAW, "pile": E.A_TAKE_PILE, "lay": E.A_LAY_THREES}.get(
                    word, E.A_DECLARE
                )
                actions, what = [a], describe_action(a)
            elif word == "keep":
                a = self._keep_action(rest)
                actions, what = [a], describe_action(a)
            elif word == "discard":
                tokens = rest.split()
                if len(tokens) != 1:
                    raise CanastaError("discard one card, e.g. 'discard 4'")
                a = E.A_DISCARD + parse_kind(tokens[0])
                actions, what = [a], describe_action(a)
            else:  # meld
                ops = meld_operations(rest)
                actions = [meld_action(*op) for op in ops]
                what = "meld " + ", ".join(_op_text(*op) for op in ops)
        except CanastaError as exc:
            self.out(f"refused: {exc}")
            self.out(f"you may: {allowed_summary(g)}")
            return True
        turn = g.turn
        if self.act(actions, what):
            self.flush_events()
            self.bots()
            if g.is_over:
                return True
            if g.turn == turn and word in ("meld", "auto") and g.phase == "play":
                from sim.cards import format_counts

                hand = g.observation(self.seat)[E.OB_HAND : E.OB_HAND + E.N_KINDS]
                self.out(f"your hand: {format_counts(hand) or '(nothing)'}")
                self.out(f"you may: {allowed_summary(g)}")
            else:
                self.prompt()
        return True

    def _keep_action(self, rest: str) -> int:
        hand = self.game.observation(self.seat)[E.OB_HAND : E.OB_HAND + E.N_KINDS]
        if rest:
            kind = parse_kind(rest)
            if not E.IS_THREE[kind]:
                raise CanastaError("keep a three: 'keep 3r' or 'keep 3b'")
        else:
            held = [k for k in E.THREE_KINDS if hand[k]]
            if len(held) != 1:
                raise CanastaError("say which three you keep: 'keep 3r' or 'keep 3b'")
            kind = held[0]
        return E.A_KEEP_RED_THREE if kind == E.RED_THREE else E.A_KEEP_BLACK_THREE

    def run(self, lines: Iterable[str]) -> int:
        """Play the hand from ``lines``; returns 0 (the hand ended, or the player left)."""
        g = self.game
        first = g.first_player
        self.out(
            f"seed {g.seed}, hand {g.hand_id}: you play seat {self.seat} (team "
            f"{self.seat % E.N_TEAMS}); P{first} plays first (DEAL-1). Type help for commands."
        )
        for p in range(E.N_PLAYERS):
            if p != self.seat:
                self.out(f"  P{p}: {self.who(p)}")
        self.flush_events()
        self.bots()
        if g.is_over:
            self.finish()
            return 0
        self.prompt()
        for line in lines:
            if not self.command(line):
                self.out(f"you left the hand at turn {g.turn}; nothing is scored")
                return 0
            if g.is_over:
                self.finish()
                return 0
        self.out(f"end of input at turn {g.turn}: the hand is left unfinished; nothing is scored")
        return 0
