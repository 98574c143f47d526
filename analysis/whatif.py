"""What-if positions: fix a hand, deal the rest at random, compare choices by their outcome.

Like a bridge dealer's predeal: a :class:`Position` fixes, at the start of one player's turn,
that player's hand (any size) and optionally the turn, the team scores, the teams' melds, the
pile (its top and the cards below it) and the sizes (the other hands, the pile, the stock);
every simulated hand deals the *unseen* cards at random consistent with what is fixed, forces
the fixed player's decision to each compared choice in turn, and lets the policies play the hand
out. Hand ``i`` deals the same unseen cards whatever the choice (a deal depends only on
(seed, i)), so choices are compared on the same deals: paired differences.

Choices (``CHOICES``): ``meld_sevens`` / ``hold_sevens``, ``meld_aces`` / ``hold_aces``,
``take_pile`` / ``draw``, ``meld_aces_wild`` (MELD-7), ``meld_wilds`` / ``hold_wilds``
(MELD-8), ``stay_in`` (refuse going out this turn), ``keep_three`` / ``lay_three`` (the
keep-or-lay decision of a three at the turn's start, DEAL-4/5), and ``policy`` (let the
seat's policy decide: the baseline).

Output per choice, for the fixed player's team: expected points per hand and net points (normal
intervals), the completion rate of its sevens and aces melds when started and the share of hands
in which it paid each in-hand penalty (Wilson intervals), the share of deals in which the rules
let the choice be made (``applied``), and the paired difference in points against the first
choice.

The playing is the engine's compiled ``sim.play_position(n, position, choice, seed,
policies, n_jobs, ruleset)`` (records of the ``sim.simulate`` schema plus ``applied``). A forced
action the rules refuse in some deal (e.g. melding sevens that cannot be part of a valid
opening, OPEN-1) is not made there: the policy decides, and ``applied`` says how often the
choice was really made.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analysis import intervals as iv
from analysis.schema import require, team_view
from sim.encoding import (
    ACE,
    CARD_KIND,
    IS_NATURAL,
    IS_THREE,
    IS_WILD,
    JOKER,
    N_CARDS,
    N_PLAYERS,
    N_TEAMS,
    SEVEN,
    TWO,
    team_of,
)
from sim.errors import CanastaError

__all__ = ["CHOICES", "Position", "position", "whatif"]


def _choices() -> dict[str, str]:
    from sim.play.position import CHOICES as engine_choices

    return dict(engine_choices)


#: choice name -> what the fixed player does at the fixed position (then the policies play on)
CHOICES = _choices()


@dataclass(frozen=True)
class Position:
    """What is fixed. Card ids are those of ``sim.cards.parse_cards`` (one shared deck)."""

    hand: np.ndarray  #: the fixed player's cards
    seat: int = 0  #: the fixed player's seat (team = seat % 2)
    turn: int = 0  #: the hand's turn number at which the position arises (0 = first turn)
    scores: tuple[int, int] = (0, 0)  #: cumulative team scores (OPEN-1 minimum)
    melds: Mapping[int, tuple[np.ndarray, ...]] = field(default_factory=dict)  #: team -> melds
    pile_top: int = -1  #: card id on top of the discard pile, -1 if not fixed
    pile: np.ndarray | None = None  #: card ids below the pile's top, None if not fixed
    pile_size: int | None = None  #: cards in the pile (default: one discard per turn so far)
    stock: int | None = None  #: cards in the stock (default: what the rest leaves)
    hand_sizes: tuple[int, ...] | None = None  #: the four seats' hand sizes (default 13)
    #: OPEN-1: the hand's number in its game (1-based), read under ``opening_minimum = "hand"``
    hand_number: int = 1
    #: the public card memory: int64[4, N_KINDS], the cards known to be in each other seat's
    #: hand (taken with the pile, not shown since), by kind and absolute seat; None: no memory
    known: np.ndarray | None = None
    #: DEAL-4: the threes laid face up, int64[2, 2]: [team (absolute), red|black]; out of play,
    #: so never dealt; None: none laid
    threes: np.ndarray | None = None

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
    pile: str | None = None,
    pile_size: int | None = None,
    stock: int | None = None,
    hand_sizes: Sequence[int] | None = None,
    hand_number: int = 1,
    known: Mapping[int, str | Sequence[int]] | None = None,
    threes: Sequence[Sequence[int]] | None = None,
) -> Position:
    """Parse and check a position given in card notation (``"7H 7S 7D AS ..."``).

    ``melds``: team -> one meld's cards (a string) or a list of melds (strings). Every card is
    drawn from one 108-card deck, so more copies than two packs hold are refused (CARD-1); a
    melded card must not be a three (DEAL-4). The engine checks the rest when it plays
    (legal melds, sizes that add up to 108). ``hand_number``: the hand's number in its game
    (OPEN-1 under ``opening_minimum = "hand"``; 1 for a hand played on its own). ``known``:
    the public card memory, seat -> the cards known to be in that other seat's hand (those it
    took with the pile and has not shown since), as cards (``"QS QH QD"``, suits do not
    matter) or counts by kind; every deal puts them in that hand and deals only the rest at
    random. The engine checks them against what is fixed (CARD-1) and the hand sizes.
    ``threes``: the threes laid face up (DEAL-4), ``[[red, black] of team 0, [red, black] of
    team 1]``: out of play, so no deal puts them in a hand or the stock, and they count at the
    hand's end (SCORE-*).
    """
    from sim.cards import parse_cards
    from sim.limits import check_cards, check_hand_number, check_scores, check_seat, check_turn

    taken = np.zeros(N_CARDS, dtype=np.bool_)
    ids = parse_cards(hand, taken)
    if ids.size == 0:
        raise CanastaError("the fixed hand is empty: give its cards with --hand")
    seat = check_seat(seat)
    turn = check_turn(turn)
    scores = check_scores(scores)
    fixed_melds = {}
    for team, cards in (melds or {}).items():
        if team not in range(N_TEAMS):
            raise CanastaError(f"bad team {team}: teams are 0 and 1")
        groups = [cards] if isinstance(cards, str) else list(cards)
        parsed = []
        for g in groups:
            m = parse_cards(g, taken)
            if m.size == 0:
                raise CanastaError(f"team {team}'s melds: an empty meld (MELD-1: nothing to meld)")
            if np.any(IS_THREE[CARD_KIND[m]]):
                raise CanastaError("DEAL-4: threes are never melded")
            parsed.append(m)
        fixed_melds[team] = tuple(parsed)
    top = -1
    if pile_top is not None:
        t = parse_cards(pile_top, taken)
        if t.size != 1:
            raise CanastaError("give exactly one pile top card")
        top = int(t[0])
    below = None if pile is None else parse_cards(pile, taken)
    if pile_size is not None:
        pile_size = check_cards(pile_size, "pile_size")
    if stock is not None:
        stock = check_cards(stock, "stock")
    sizes = None
    if hand_sizes is not None:
        if isinstance(hand_sizes, str) or len(hand_sizes) != N_PLAYERS:
            raise CanastaError(f"hand_sizes: give {N_PLAYERS} sizes, one per seat")
        sizes = tuple(check_cards(x, f"hand_sizes[{i}]") for i, x in enumerate(hand_sizes))
    memory = None if known is None else _memory(known, seat)
    return Position(
        ids,
        seat,
        turn,
        (int(scores[0]), int(scores[1])),
        fixed_melds,
        top,
        below,
        pile_size,
        stock,
        sizes,
        check_hand_number(hand_number),
        memory,
        None if threes is None else np.array(threes, dtype=object),
    )


def _memory(known: Mapping[int, str | Sequence[int]], seat: int) -> np.ndarray:
    """seat -> known cards (notation or counts by kind) as int64[N_PLAYERS, N_KINDS]."""
    from sim.cards import parse_cards
    from sim.encoding import N_KINDS
    from sim.limits import check_seat

    if not isinstance(known, Mapping):
        raise CanastaError("known: expected a mapping seat -> cards (e.g. {1: 'QS QH QD'})")
    out = np.zeros((N_PLAYERS, N_KINDS), dtype=np.int64)
    for q, cards in known.items():
        q = check_seat(q)
        if q == seat:
            raise CanastaError(f"known: seat {q} is the fixed player, whose hand is given whole")
        if isinstance(cards, str):
            out[q] = np.bincount(CARD_KIND[parse_cards(cards)], minlength=N_KINDS)
        else:
            counts = np.asarray(cards)
            if counts.shape != (N_KINDS,) or not np.issubdtype(counts.dtype, np.integer):
                raise CanastaError(
                    f"known[{q}]: give cards like 'QS QH' or {N_KINDS} counts by kind"
                )
            if np.any(counts < 0):
                raise CanastaError(f"known[{q}]: card counts are 0 or more")
            out[q] = counts
    return out


def check_choice(pos: Position, choice: str) -> None:
    """Refuse a choice the position cannot make, naming the rule."""
    if choice not in CHOICES:
        raise CanastaError(f"unknown choice {choice!r}: choose from {', '.join(CHOICES)}")
    if choice == "meld_sevens" and pos.counts(SEVEN) < 3:
        raise CanastaError("MELD-1: melding sevens needs 3 or more sevens in the fixed hand")
    if choice == "meld_aces" and pos.counts(ACE) < 3:
        raise CanastaError("MELD-1: melding aces needs 3 or more aces in the fixed hand")
    wilds = pos.counts(JOKER) + pos.counts(TWO)
    if choice == "meld_aces_wild" and (pos.counts(ACE) < 3 or wilds < 1):
        raise CanastaError("MELD-7: melding aces with wilds needs 3+ aces and a wild in the hand")
    if choice == "meld_wilds" and wilds < 3:
        raise CanastaError("MELD-8: starting a wild meld needs 3 or more wild cards in the hand")
    if choice == "take_pile":
        if pos.pile_top < 0:
            if pos.turn == 0:  # DEAL-2: no up-card, so the first turn meets an empty pile
                raise CanastaError("PILE-2: the pile is empty on the first turn of a hand (DEAL-2)")
            return  # a random top card: the pile is taken where the rules allow
        k = int(CARD_KIND[pos.pile_top])
        if IS_WILD[k] or IS_THREE[k]:
            raise CanastaError(
                "PILE-2: the pile cannot be taken when its top card is wild or a three"
            )
        if not IS_NATURAL[k] or pos.counts(k) < 2:
            raise CanastaError(
                "PILE-1: taking the pile needs a natural pair of the top card's rank"
            )


def resolve_play(play: Callable | None = None) -> Callable:
    """``play`` if given, else the engine's compiled ``sim.play_position(n, position,
    choice, seed=S, policies=(A, B), n_jobs=J, ruleset=R)`` (one record row per hand, the
    ``sim.simulate`` schema plus ``applied``, hand i's unseen cards depending only on (S, i))."""
    if play is not None:
        return play
    from sim.api import play_position

    def run(n, pos, choice, n_jobs=1, **kw):
        if n_jobs != 1:  # every job gets chunks (sim.jobs); the rows do not depend on them
            from sim.jobs import chunk_size_for

            kw["chunk_size"] = chunk_size_for(n, n_jobs)
        return play_position(n, pos, choice, n_jobs=n_jobs, **kw)

    return run


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
    from sim.limits import MAX_HANDS, check_count, check_jobs, check_seed

    n = check_count("n (hands per choice)", n, MAX_HANDS, low=2)
    seed = check_seed(seed)
    check_jobs(n_jobs)
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
    methods = {"points, net and differences": iv.NORMAL, "completion and penalty shares": iv.WILSON}
    iv.label(out, iv.statements(methods, confidence))
    out.attrs["team"] = team
    return out
