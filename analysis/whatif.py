"""What-if positions: fix a hand, deal the rest at random, compare choices by their outcome.

Like a bridge dealer's predeal: a :class:`Position` fixes one player's hand (and optionally the
turn, the team scores, the teams' melds and the top of the pile); every simulated hand deals the
*unseen* cards at random consistent with what is fixed, forces the fixed player's decision to
each compared choice in turn, and lets the policies play the hand out. Hand ``i`` deals the same
unseen cards whatever the choice (a deal depends only on (seed, i)), so choices are compared on
the same deals: paired differences.

Choices (``CHOICES``): ``meld_sevens`` / ``hold_sevens``, ``meld_aces`` / ``hold_aces``,
``take_pile`` / ``draw``, and ``policy`` (let the seat's policy decide: the baseline).

Output per choice, for the fixed player's team: expected points per hand and net points (normal
intervals), the completion rate of its sevens and aces melds when started and the share of hands
in which it paid each in-hand penalty (Wilson intervals), and the paired difference in points
against the first choice.

The playing is the engine's: ``play(n, position, choice, seed, policies, n_jobs, ruleset)``
returning records of the issue-3 schema (see :func:`resolve_play`). Until the engine offers a
compiled ``sim.engine.play_position``, :func:`play_with_game` plays positions through the public
step API (``sim.engine.game.Game`` with a fixed deck): the fixed player's 13 dealt cards, the
turns played before the fixed player's first turn (0..3, by choosing the first player), and the
team scores. Fixed melds or a fixed pile top need the engine (refused with a message).
A forced action the rules refuse in some deal (e.g. melding sevens that cannot be part of a valid
opening, OPEN-1) is not made there: the policy decides, and the ``applied`` share says how often
the choice was really made.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np
import pandas as pd

from analysis import intervals as iv
from analysis.records import require, team_view
from sim.encoding import (
    A_DRAW,
    A_TAKE_PILE,
    AC_SLOT,
    AC_TYPE,
    ACE,
    ACTION_TABLE,
    AT_DISCARD,
    AT_MELD,
    CANASTA,
    CARD_KIND,
    HAND_SIZE,
    IS_NATURAL,
    IS_THREE,
    IS_WILD,
    KIND_VALUE,
    MELD_ACTION,
    N_CARDS,
    N_KINDS,
    N_PLAYERS,
    N_TEAMS,
    OB_HAND,
    R_OK,
    RECORD_WIDTH,
    SEVEN,
    team_of,
)
from sim.errors import CanastaError

#: choice name -> what the fixed player does at the fixed position (then the policies play on)
CHOICES = {
    "policy": "let the seat's policy decide (the baseline)",
    "meld_sevens": "meld all the sevens held now (needs 3+ sevens, MELD-1/MELD-6)",
    "hold_sevens": "meld no seven this turn; the policy decides everything else",
    "meld_aces": "meld all the aces held now (needs 3+ aces, MELD-1/MELD-7)",
    "hold_aces": "meld no ace this turn; the policy decides everything else",
    "take_pile": "take the discard pile where the rules allow it (PILE-1/2; not on turn 0)",
    "draw": "draw from the stock instead of taking the pile",
}


@dataclass(frozen=True)
class Position:
    """What is fixed. Card ids are those of ``sim.cards.parse_cards`` (one shared deck)."""

    hand: np.ndarray  #: the fixed player's cards
    seat: int = 0  #: the fixed player's seat (team = seat % 2)
    turn: int = 0  #: the hand's turn number at which the position arises (0 = first turn)
    scores: tuple[int, int] = (0, 0)  #: cumulative team scores (OPEN-1 minimum)
    melds: Mapping[int, np.ndarray] = field(default_factory=dict)  #: team -> card ids melded
    pile_top: int = -1  #: card id on top of the discard pile, -1 if empty/unknown

    @property
    def team(self) -> int:
        return team_of(self.seat)

    def counts(self, kind: int) -> int:
        return int(np.sum(CARD_KIND[self.hand] == kind))


def position(
    hand: str | Sequence[str],
    seat: int = 0,
    turn: int = 0,
    scores: tuple[int, int] = (0, 0),
    melds: Mapping[int, str | Sequence[str]] | None = None,
    pile_top: str | None = None,
) -> Position:
    """Parse and check a position given in card notation (``"7H 7S 7D AS ..."``).

    Every card is drawn from one 108-card deck, so more copies than two packs hold are refused
    (CARD-1); a melded card must not be a three (DEAL-4).
    """
    from sim.cards import parse_cards

    taken = np.zeros(N_CARDS, dtype=np.bool_)
    ids = parse_cards(hand, taken)
    if ids.size == 0:
        raise CanastaError("the fixed hand is empty: give its cards with --hand")
    if not 0 <= seat < N_PLAYERS:
        raise CanastaError(f"bad seat {seat}: seats are 0..{N_PLAYERS - 1}")
    if turn < 0:
        raise CanastaError(f"bad turn {turn}: turns count from 0")
    if len(scores) != N_TEAMS:
        raise CanastaError(f"give {N_TEAMS} team scores, not {len(scores)}")
    fixed_melds = {}
    for team, cards in (melds or {}).items():
        if team not in range(N_TEAMS):
            raise CanastaError(f"bad team {team}: teams are 0 and 1")
        m = parse_cards(cards, taken)
        if np.any(IS_THREE[CARD_KIND[m]]):
            raise CanastaError("DEAL-4: threes are never melded")
        fixed_melds[team] = m
    top = -1
    if pile_top is not None:
        t = parse_cards(pile_top, taken)
        if t.size != 1:
            raise CanastaError("give exactly one pile top card")
        top = int(t[0])
    return Position(ids, seat, turn, (int(scores[0]), int(scores[1])), fixed_melds, top)


def check_choice(pos: Position, choice: str) -> None:
    """Refuse a choice the position cannot make, naming the rule."""
    if choice not in CHOICES:
        raise CanastaError(f"unknown choice {choice!r}: choose from {', '.join(CHOICES)}")
    if choice == "meld_sevens" and pos.counts(SEVEN) < 3:
        raise CanastaError("MELD-1: melding sevens needs 3 or more sevens in the fixed hand")
    if choice == "meld_aces" and pos.counts(ACE) < 3:
        raise CanastaError("MELD-1: melding aces needs 3 or more aces in the fixed hand")
    if choice == "take_pile":
        if pos.pile_top < 0:
            if pos.turn == 0:  # DEAL-2: no up-card, so the first turn meets an empty pile
                raise CanastaError("PILE-2: the pile is empty on the first turn of a hand (DEAL-2)")
            return  # the deal gives the top card: the pile is taken where the rules allow
        k = int(CARD_KIND[pos.pile_top])
        if IS_WILD[k] or IS_THREE[k]:
            raise CanastaError(
                "PILE-2: the pile cannot be taken when its top card is wild or a three"
            )
        if not IS_NATURAL[k] or pos.counts(k) < 2:
            raise CanastaError(
                "PILE-1: taking the pile needs a natural pair of the top card's rank"
            )


def _deck(pos: Position, seed: int, hand_id: int) -> np.ndarray:
    """DEAL-1: the fixed player's cards dealt to its seat, the other 95 shuffled from a generator
    that depends only on (seed, hand_id), so every choice meets the same deal."""
    rest = np.setdiff1d(np.arange(N_CARDS, dtype=np.int64), pos.hand)
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), int(hand_id)]))
    rest = rng.permutation(rest)
    deck = np.empty(N_CARDS, dtype=np.int64)
    lo = pos.seat * HAND_SIZE
    deck[lo : lo + HAND_SIZE] = pos.hand
    deck[:lo] = rest[:lo]
    deck[lo + HAND_SIZE :] = rest[lo:]
    return deck


def _meld_slot(a: int) -> int:
    """Slot of a meld action id, -1 for any other action."""
    return int(ACTION_TABLE[a, AC_SLOT]) if ACTION_TABLE[a, AC_TYPE] == AT_MELD else -1


def _forced(game, choice: str, proposed: int, first_play: bool) -> tuple[int, bool]:
    """The action the fixed player takes instead of ``proposed``, and whether the choice
    changed or confirmed anything (False when the rules refuse it here)."""
    phase = game.phase
    if choice in ("draw", "take_pile"):
        if phase != "draw":
            return proposed, False
        a = A_DRAW if choice == "draw" else A_TAKE_PILE
        return (a, True) if game.reason(a) == R_OK else (proposed, False)
    if phase != "play":
        return proposed, False
    kind = SEVEN if choice.endswith("sevens") else ACE
    if choice.startswith("meld"):
        if not first_play:
            return proposed, False
        held = int(game.observation()[OB_HAND + kind])
        a = int(MELD_ACTION[kind, min(held, CANASTA), 0, 0])
        return (a, True) if a >= 0 and game.reason(a) == R_OK else (proposed, False)
    # hold: never meld the rank this turn; in its place, end the turn with the discard of the
    # kind held fewest times (then the lowest value), never of the held rank
    if _meld_slot(proposed) != kind:
        return proposed, True
    hand = game.observation()[OB_HAND : OB_HAND + N_KINDS]
    discards = [
        a
        for a in game.legal_actions()
        if ACTION_TABLE[a, AC_TYPE] == AT_DISCARD and ACTION_TABLE[a, AC_SLOT] != kind
    ]
    if not discards:
        return proposed, False
    best = min(
        discards,
        key=lambda a: (hand[ACTION_TABLE[a, AC_SLOT]], KIND_VALUE[ACTION_TABLE[a, AC_SLOT]]),
    )
    return int(best), True


def _play_range(start, stop, pos, choice, seed, policies, ruleset):
    """Hands start..stop-1 of :func:`play_with_game`: record rows and applied flags."""
    from sim.engine.game import Game
    from sim.engine.play import write_record

    rows = np.zeros((stop - start, RECORD_WIDTH), dtype=np.int64)
    applied = np.zeros(stop - start, dtype=bool)
    first = (pos.seat - pos.turn) % N_PLAYERS
    for j, i in enumerate(range(start, stop)):
        g = Game(seed, i, ruleset, first_player=first, scores=pos.scores, deck=_deck(pos, seed, i))
        first_play = True
        while not g.is_over:
            p = g.current_player
            a = g.policy_action(policies[p % N_TEAMS])
            if p == pos.seat and g.turn == pos.turn and choice != "policy":
                a, ok = _forced(g, choice, a, first_play and g.phase == "play")
                applied[j] |= ok
                first_play = first_play and g.phase != "play"
            g.apply(a)
        write_record(g.state, i, g.score_items(), rows[j])
    return rows, applied


def play_with_game(
    n: int,
    pos: Position,
    choice: str,
    seed: int = 0,
    policies: tuple[str, str] = ("heuristic", "heuristic"),
    n_jobs: int = 1,
    ruleset=None,
) -> pd.DataFrame:
    """Play ``n`` hands from ``pos`` with ``choice`` forced at the fixed player's first turn,
    through the engine's step API; records of the ``sim.simulate`` schema plus ``applied``.

    Hand i: deck from (seed, i), the game's own generator from (seed, i) as in
    ``sim.simulate``; ``n_jobs`` processes play contiguous ranges of hands (same rows).
    """
    from sim.engine.records import records_frame

    if pos.melds or pos.pile_top >= 0 or pos.turn >= N_PLAYERS:
        raise CanastaError(
            "fixed melds, a fixed pile top or a turn after the first round need the engine's "
            "sim.engine.play_position, which this build does not offer yet"
        )
    if pos.hand.size != HAND_SIZE:
        raise CanastaError(
            f"DEAL-1: a fixed hand at the fixed player's first turn has {HAND_SIZE} cards, "
            f"not {pos.hand.size}"
        )
    if n_jobs is None or n_jobs < 1:
        raise CanastaError(f"bad number of jobs {n_jobs!r}: need 1 or more")
    # hands are independent and seeded by (seed, i): chunks give the same rows for any n_jobs
    bounds = np.linspace(0, n, min(n_jobs, n) + 1).astype(int)
    work = [(a, b, pos, choice, seed, tuple(policies), ruleset) for a, b in pairwise(bounds)]
    if len(work) == 1:
        parts = [_play_range(*work[0])]
    else:
        from joblib import Parallel, delayed

        parts = Parallel(n_jobs=len(work))(delayed(_play_range)(*w) for w in work)
    rows = np.concatenate([r for r, _ in parts])
    applied = np.concatenate([a for _, a in parts])
    out = records_frame(rows, *policies)
    out["applied"] = applied if choice != "policy" else True
    return out


def resolve_play(play: Callable | None = None) -> Callable:
    """``play`` if given; else the engine's compiled ``sim.engine.play_position(n, position,
    choice, seed=S, policies=(A, B), n_jobs=J, ruleset=R)`` when it exists (one record row per
    hand, the ``sim.simulate`` schema, hand i's unseen cards depending only on (S, i)); else
    :func:`play_with_game` through the step API."""
    if play is not None:
        return play
    try:
        from sim.engine import play_position
    except ImportError:
        play_position = None
    return play_position or play_with_game


def whatif(
    pos: Position,
    choices: Sequence[str],
    n: int,
    seed: int = 0,
    policies: tuple[str, str] = ("heuristic", "heuristic"),
    n_jobs: int = 1,
    ruleset=None,
    play: Callable | None = None,
    confidence: float = iv.CONFIDENCE,
) -> pd.DataFrame:
    """Compare ``choices`` at ``pos`` over ``n`` simulated hands each (same deals); see the
    module docstring for the columns."""
    if len(choices) < 1 or len(set(choices)) != len(choices):
        raise CanastaError("give one or more distinct choices to compare")
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 2:
        raise CanastaError(f"bad number of hands {n!r}: need an integer >= 2")
    for c in choices:
        check_choice(pos, c)
    run = resolve_play(play)
    team = pos.team
    views = {}
    for c in choices:
        rec = run(n, pos, c, seed=seed, policies=tuple(policies), n_jobs=n_jobs, ruleset=ruleset)
        require(rec, ["hand_id", "score_team0", "score_team1"], "a what-if comparison")
        v = team_view(rec)
        if "applied" in rec.columns:
            v["applied"] = np.tile(rec["applied"].to_numpy(), N_TEAMS)
        views[c] = v[v["team"] == team].set_index("hand_id").sort_index()
    base = views[choices[0]]
    rows = []
    for c in choices:
        v = views[c]
        if not v.index.equals(base.index):
            raise CanastaError(f"choice {c!r} was not played on the same deals as {choices[0]!r}")
        row = {"choice": c, "n": len(v)}
        if "applied" in v.columns:  # how often the rules let the choice be made
            e = iv.proportion(int(v["applied"].sum()), len(v), confidence)
            row |= {"applied": e.estimate, "applied_low": e.ci_low, "applied_high": e.ci_high}
        for col, name in (("score", "points"), ("net", "net")):
            e = iv.mean(v[col], confidence)
            row |= {name: e.estimate, f"{name}_low": e.ci_low, f"{name}_high": e.ci_high}
        d = iv.paired_difference(v["score"], base["score"], confidence)
        row |= {"diff_vs_first": d.estimate, "diff_low": d.ci_low, "diff_high": d.ci_high}
        for meld in ("sevens", "aces"):
            col = f"{meld}_started_turn"
            if col in v.columns:
                s = v[v[col] >= 0]
                e = iv.proportion(int(s[f"{meld}_completed"].sum()), len(s), confidence)
                row |= {f"{meld}_started": len(s), f"{meld}_completion": e.estimate}
                row |= {f"{meld}_completion_low": e.ci_low, f"{meld}_completion_high": e.ci_high}
            col = f"{meld}_penalty_players"
            if col in v.columns:
                e = iv.proportion(int((v[col] > 0).sum()), len(v), confidence)
                row |= {f"{meld}_penalty": e.estimate, f"{meld}_penalty_low": e.ci_low}
                row |= {f"{meld}_penalty_high": e.ci_high}
        rows.append(row)
    out = pd.DataFrame(rows)
    text = (
        f"points, net and differences: {iv.statement(iv.NORMAL, confidence)}; "
        f"completion and penalty shares: {iv.statement(iv.WILSON, confidence)}"
    )
    out["interval"] = text
    out.attrs["interval"] = text
    out.attrs["team"] = team
    return out
