"""Advice: rank every distinct choice of one decision by its outcome over paired deals.

``advise(pos)`` takes a what-if position (``analysis.whatif.position``) at the start of the
fixed seat's turn. With ``drawn=None`` the decision is the draw: draw from the stock, or take
the pile where PILE-1/2 may allow it. With ``drawn="KS"`` it is the play step after drawing
that card from the stock: whole-turn plans, each a set of melds (``sim.engine.script.plans``:
each rank melded whole or held back, wild cards placed in a few canonical ways, per the
MELD-*/OPEN-* rules as the engine's validator judges them), then a discard (one per distinct
kind; the last card goes out, OUT-1/2) or a declared special hand (SPECIAL-1).

Each choice is forced as a script of the engine's action ids, then every seat plays on with the
policies (``sim.policies.strongest_fast()`` by default). Deal ``i`` deals the same unseen cards
whatever the choice (paired). Samples go where they matter: rounds of doubling size on the
choices still in the race; a choice leaves the race only when its 95% interval lies wholly
below the best's *and* its paired difference from the best excludes 0 (so a choice whose
interval overlaps the best's is never dropped; with an equity table, only when that holds by
the chance of winning the game too). Each choice's rank, paired difference from the best and
decision confidence come by each measure (``analysis.compare_choices``). ``n`` caps the
deals per choice, ``budget`` the seconds; without ``budget`` the answer depends only on the
position, ``seed``, ``n`` and the policies, never on ``n_jobs``.

With the public card memory (``Position.known``, which the hints fill from the observation) the
cards known to be in other hands are in those hands in every deal, and only the rest is dealt
at random (the reading of ``sim.engine.search.determinize`` with memory); ``Advice.memory``
says so.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analysis import compare_choices as cmp
from analysis import intervals as iv
from analysis.compare_choices import race_keep as _race
from analysis.whatif import Position
from sim import encoding as E
from sim.errors import CanastaError
from sim.play.table import TableView

__all__ = ["MAX_CHOICES", "Advice", "Choice", "advise", "why"]

FIRST_ROUND = 8  #: deals per choice in the race's first round (then doubling)
MAX_CHOICES = 400  #: the plan enumeration's cap (docs/advise.md: how it is bounded)
TAKE_PILE_PROBE = 32  #: deals on which taking the pile is tried before it is offered


@dataclass(frozen=True)
class Choice:
    """One choice of the decision and its outcome for the fixed team (points per hand)."""

    label: str
    melds: list[list[str]]
    discard: str | None
    mean: float
    ci_low: float
    ci_high: float
    diff_from_best: float
    diff_low: float
    diff_high: float
    n: int
    rates: dict[str, float] = field(default_factory=dict)
    #: the choice the seat's own policy (the first of ``policies``) makes here
    policy_pick: bool = False
    #: with an equity table: the team's chance of winning the game after the hand (``win``,
    #: ``ci_low``, ``ci_high``), its paired difference from the best choice by that chance
    #: (``diff_from_best``, ``diff_low``, ``diff_high``), its ``rank`` by it (1: the best),
    #: ``best`` (1.0 for the best by it) and its decision ``confidence`` by it
    game: dict[str, float] = field(default_factory=dict)
    #: the chance, from the paired deals, that this choice is the best by points (a paired
    #: bootstrap, ``analysis.compare_choices``)
    confidence: float = float("nan")
    #: the rank by points (1: the best by points)
    rank: int = 0

    def to_json(self) -> dict:
        return {
            "label": self.label,
            "melds": [list(m) for m in self.melds],
            "discard": self.discard,
            "mean": self.mean,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "diff_from_best": self.diff_from_best,
            "diff_low": self.diff_low,
            "diff_high": self.diff_high,
            "n": self.n,
            "rates": dict(self.rates),
            "policy_pick": self.policy_pick,
            "confidence": self.confidence,
            "rank": self.rank,
            **({"game": dict(self.game)} if self.game else {}),
        }

    @classmethod
    def from_json(cls, d: dict) -> Choice:
        keys = ("mean", "ci_low", "ci_high", "diff_from_best", "diff_low", "diff_high")
        return cls(
            d["label"],
            [list(m) for m in d["melds"]],
            d["discard"],
            *(float(d[k]) for k in keys),
            int(d["n"]),
            {k: float(v) for k, v in d.get("rates", {}).items()},
            bool(d.get("policy_pick", False)),
            {k: float(v) for k, v in d.get("game", {}).items()},
            float(d.get("confidence", float("nan"))),
            int(d.get("rank", 0)),
        )


@dataclass(frozen=True)
class Advice:
    """The choices of one decision (``"draw"`` or ``"play"``), best first."""

    decision: str
    choices: list[Choice]
    #: the deals put the position's public card memory (``Position.known``: cards known to be
    #: in other hands) in their holders' hands and dealt only the rest at random
    memory: bool = False
    #: the points are corrected for the luck of the play-outs' draws (``analysis.luck``)
    luck: bool = False

    def to_json(self) -> dict:
        out = {"decision": self.decision, "choices": [c.to_json() for c in self.choices]}
        return out | {"memory": self.memory, "luck": self.luck}

    @classmethod
    def from_json(cls, d: dict) -> Advice:
        choices = [Choice.from_json(c) for c in d["choices"]]
        return cls(d["decision"], choices, bool(d.get("memory", False)), bool(d.get("luck")))

    def table(self) -> pd.DataFrame:
        rows = []
        for c in self.choices:
            row = c.to_json()
            row.pop("rates")
            row.update({f"game_{k}": v for k, v in row.pop("game", {}).items()})
            row["melds"] = " + ".join(" ".join(m) for m in c.melds)
            rows.append(row | dict(c.rates))
        out = pd.DataFrame(rows)
        methods = {"points and paired differences": iv.NORMAL, "rates": "share of deals"}
        iv.label(out, iv.statements(methods))
        return out


# ---------------------------------------------------------------------------------------
# Choices: scripts of action ids and their labels
# ---------------------------------------------------------------------------------------
def _plan_cards(script, hand_ids) -> tuple[list[list[str]], str | None, list[int]]:
    """The cards (notation) of a plan's melds and discard, taken from the hand's card ids,
    and each meld operation's slot."""
    from sim.cards import format_card

    left = sorted(int(c) for c in hand_ids)
    by_kind: dict[int, list[int]] = {}
    for c in left:
        by_kind.setdefault(int(E.CARD_KIND[c]), []).append(c)

    def take(kind, k):
        if k == 0:
            return []
        got = by_kind[kind][:k]
        by_kind[kind] = by_kind[kind][k:]
        return [format_card(c) for c in got]

    melds, discard, slots = [], None, []
    for a in script:
        kind = int(E.ACTION_TABLE[a, E.AC_TYPE])
        if kind == E.AT_MELD:
            slot = int(E.ACTION_TABLE[a, E.AC_SLOT])
            nat = int(E.ACTION_TABLE[a, E.AC_NAT])
            cards = take(slot, nat) if slot != E.WILD_MELD else []
            cards += take(E.TWO, int(E.ACTION_TABLE[a, E.AC_TWO]))
            cards += take(E.JOKER, int(E.ACTION_TABLE[a, E.AC_JOKER]))
            melds.append(cards)
            slots.append(slot)
        elif kind == E.AT_DISCARD:
            discard = take(int(E.ACTION_TABLE[a, E.AC_SLOT]), 1)[0]
    return melds, discard, slots


def _label(script, melds, discard, going_out, slots=(), table=frozenset(), special="") -> str:
    """E.g. "meld 7H 7S 7D + KS KH KD, discard 4C"; cards added to a meld already on the
    team's table (``table``: its slots) read "add 2C to the Ks"."""
    from sim.encoding import KIND_NAMES

    if script[0] == E.A_DECLARE:
        return f"declare a special hand ({special})" if special else "declare a special hand"
    parts = []
    new = [" ".join(m) for m, s in zip(melds, slots, strict=True) if s not in table]
    if new:
        parts.append("meld " + " + ".join(new))
    for m, s in zip(melds, slots, strict=True):
        if s in table:
            name = "wild meld" if s == E.WILD_MELD else KIND_NAMES[s] + "s"
            parts.append(f"add {' '.join(m)} to the {name}")
    if discard is not None:
        parts.append(("go out discarding " if going_out else "discard ") + discard)
    return ", ".join(parts)


def _play_choices(hand, hand_ids, table) -> list[tuple[tuple, str, list, str | None]]:
    """(script, label, melds, discard) of every plan of ``hand``'s play step, within
    MAX_CHOICES: wild placements are narrowed (up to 3, then 1, then 0 wilds an operation)
    until the plans fit; past that the plans nearest the two extremes (no meld, the most meld
    operations) are kept (docs/advise.md)."""
    from sim.play.position import plans

    for max_wilds in (E.MAX_OP_WILDS, 1, 0):
        found = plans(hand, max_wilds)
        if len(found) <= MAX_CHOICES:
            break
    if len(found) > MAX_CHOICES:
        most = max(len(s) for s in found)
        found = sorted(found, key=lambda s: (min(len(s) - 1, most - len(s)), len(s), s))
        found = sorted(found[:MAX_CHOICES], key=lambda s: (len(s), s))
    from sim.special import classify_special

    held = len(hand_ids)
    cards = np.array(hand.view(hand.current_player).hand)
    # SPECIAL-3..9: the list in force
    special = hand.ruleset.special_names[classify_special(cards, hand.rules)]
    out = []
    for script in found:
        melds, discard, slots = _plan_cards(script, hand_ids)
        going_out = discard is not None and sum(len(m) for m in melds) == held - 1
        label = _label(script, melds, discard, going_out, slots, table, special)
        out.append(((E.A_DRAW, *script), label, melds, discard))
    return out


def _draw_choices(deals) -> list:
    """Draw, and take the pile when the rules allow it in one of the first deals (PILE-1/2;
    elsewhere the script is refused and the policy decides: ``rates["applied"]``)."""
    out = [((E.A_DRAW,), "draw", [], None)]
    for h in range(TAKE_PILE_PROBE):
        hand = deals.hand(h)
        if hand.is_over:
            continue
        if hand.phase == "threes" or hand.reason(E.A_TAKE_PILE) == E.R_OK:
            out.append(((E.A_TAKE_PILE,), "take the pile", [], None))
            break
    return out


def _turn_end(hand, seat: int) -> bytes:
    """The seat's hand, its team's melds and the pile (bottom first) of ``hand``: what a turn
    leaves, compared between a policy's turn and each plan's."""
    t = TableView(hand.state)
    parts = (t.hands[seat], t.melds[seat % E.N_TEAMS], t.pile_kinds)
    return b"|".join(np.ascontiguousarray(x).tobytes() for x in parts)


def _policy_pick(hand, cands, policy: str) -> int:
    """Index of the candidate the seat's ``policy`` chooses at the decision of ``hand`` (its
    observation only; matched by the turn's end: hand, melds and pile), or -1."""
    from sim.policies.registry import resolve

    spec, params, _ = resolve(policy)
    h = hand.fork()
    seat = h.current_player
    for t in h.turns((None,) * E.N_PLAYERS):  # DEAL-4: threes laid before the decision
        if not (t.forced and h.phase == "threes"):
            break
    if h.phase == "draw":
        a = h.decide(spec, params)
        return next((i for i, c in enumerate(cands) if c[0] == (a,)), -1)
    mine = h.fork()
    if not mine.finish_turn(policy=(spec, params)):
        return -1
    want = _turn_end(mine, seat)
    for i, c in enumerate(cands):
        trial = h.fork()
        if trial.finish_turn(script=c[0][1:]) and _turn_end(trial, seat) == want:
            return i  # the script after its draw ends the turn where the policy's does
    return -1


# ---------------------------------------------------------------------------------------
# The race
# ---------------------------------------------------------------------------------------
def _policies(policies) -> tuple[str, str]:
    from sim.api import policy_pair, resolve_policies
    from sim.policies import strongest_fast

    if policies is None:
        name = strongest_fast()
        return (name, name)
    policies = tuple(policy_pair(policies, "policies: expected one or two policies, got {n}"))
    resolve_policies(policies)  # unknown names: refused before any work
    return policies


def _check(pos: Position, drawn) -> int:
    """The drawn card's id (-1: none), a copy not fixed elsewhere (CARD-1), after the
    position's own checks; a fixed team that has not melded holds 13 cards (DEAL-1, TURN-1)."""
    if not isinstance(pos, Position):
        raise CanastaError("advise needs a position from analysis.whatif.position(...)")
    n_hand = int(np.asarray(pos.hand).size)
    if pos.hand_sizes is not None and pos.hand_sizes[pos.seat] != n_hand:
        raise CanastaError(
            f"the fixed hand has {n_hand} cards but the hand sizes give seat {pos.seat} "
            f"{pos.hand_sizes[pos.seat]}"
        )
    if not pos.melds.get(pos.team) and n_hand != E.HAND_SIZE:
        raise CanastaError(
            f"the fixed hand has {n_hand} cards: a player whose team has not melded holds "
            f"{E.HAND_SIZE} at the start of its turn (DEAL-1, TURN-1)"
            + ("; give the hand before the draw, and the drawn card apart" if drawn else "")
        )
    if drawn is None:
        return -1
    from sim.cards import parse_cards

    taken = np.zeros(E.N_CARDS, dtype=np.bool_)
    fixed = [np.asarray(pos.hand), pos.pile if pos.pile is not None else np.zeros(0, int)]
    fixed += [m for ms in pos.melds.values() for m in ms]
    for ids in fixed:
        taken[np.asarray(ids, dtype=np.int64)] = True
    if pos.pile_top >= 0:
        taken[pos.pile_top] = True
    if not isinstance(drawn, str):
        raise CanastaError("drawn: give one card like 'KS'")
    try:
        ids = parse_cards(drawn, taken)
    except CanastaError as exc:
        raise CanastaError(
            f"the drawn card {drawn.strip().upper()} is not in the stock: every copy is "
            f"already fixed in the position (CARD-1) ({exc})"
        ) from None
    if ids.size != 1:
        raise CanastaError(f"drawn: give exactly one card, not {drawn!r}")
    return int(ids[0])


def _summaries(team_scores: np.ndarray, views: pd.DataFrame) -> dict[str, float]:
    """Rates that explain a choice's points: completion of its sevens and aces melds (when
    started), the in-hand penalties, going out, and the share of deals the choice was made."""
    rates = {}
    for meld in ("sevens", "aces"):
        started = views[f"{meld}_started_turn"] >= 0
        if started.any():
            rates[f"{meld}_completion"] = float(views.loc[started, f"{meld}_completed"].mean())
        rates[f"{meld}_penalty"] = float((views[f"{meld}_penalty_players"] > 0).mean())
    rates["went_out"] = float(views["went_out"].mean())
    rates["applied"] = float(views["applied"].mean())
    return rates


def advise(
    pos: Position,
    *,
    drawn: str | None = None,
    n: int = 400,
    budget: float | None = None,
    policies: Sequence[str] | None = None,
    seed: int = 0,
    n_jobs: int = 1,
    ruleset=None,
    equity=None,
    luck: bool = False,
    only: Sequence[str] | None = None,
) -> Advice:
    """Rank every distinct choice of the fixed player's decision at ``pos`` (module docstring).

    ``drawn``: None for the draw decision, else the card drawn from the stock (the play step).
    ``equity``: an equity table (``analysis.equity.equity_table`` of the same rules and
    policies): each choice is also scored by the team's chance of winning the game after the
    hand, each deal's outcome read through the table from ``pos.scores`` (``Choice.game``).
    ``luck``: correct the points for the draws' luck (``analysis.luck``). ``only``: the labels
    of the choices to play (the others are left out)."""
    from analysis.schema import team_view
    from sim.api import play_script
    from sim.limits import MAX_HANDS, check_count, check_jobs, check_seed
    from sim.play.position import PositionDeals, script_rows
    from sim.ruleset import as_ruleset

    n = check_count("n (deals per choice)", n, MAX_HANDS, low=2)
    seed = check_seed(seed)
    check_jobs(n_jobs)
    if budget is not None:
        if not isinstance(budget, int | float) or not math.isfinite(budget) or budget <= 0:
            raise CanastaError(f"budget: expected a positive number of seconds, got {budget!r}")
    pols = _policies(policies)
    drawn_id = _check(pos, drawn)
    rules = as_ruleset(ruleset)
    deals = PositionDeals(pos, drawn_id, rules, seed)
    hand = deals.hand(0)
    if drawn_id < 0:
        decision = "draw"
        cands = _draw_choices(deals)
    else:
        decision = "play"
        if hand.phase != "play" or hand.current_player != pos.seat:
            raise CanastaError("the hand ends before the fixed player can play (END-1)")
        own = hand.view(pos.seat).melds[0].sum(axis=1)  # the team's melds (its own first)
        table = frozenset(int(k) for k in np.flatnonzero(own))
        held = [*np.asarray(pos.hand).tolist(), drawn_id]
        cands = _play_choices(hand, held, table)
    if only is not None:  # a re-measure of named choices (the review, on fresh deals)
        cands = [c for c in cands if c[1] in set(only)]
    if not cands:
        raise CanastaError("no legal choice at this position")
    pick = _policy_pick(hand, cands, pols[pos.team])
    scripts = script_rows([c[0] for c in cands])

    team = pos.team
    game = None if equity is None else cmp.GameChance(equity, rules, pos)
    scores: list[list[np.ndarray]] = [[] for _ in cands]
    chances: list[list[np.ndarray]] = [[] for _ in cands]  # the game chance per deal
    parts: list[list[pd.DataFrame]] = [[] for _ in cands]
    alive = list(range(len(cands)))
    done = 0
    t0 = time.perf_counter()
    while True:
        stop = min(n, max(FIRST_ROUND, 2 * done))
        t_round = time.perf_counter()
        if luck:  # the same deals and records, with the draws' luck (one process)
            from analysis.luck import play_script_luck

            rec = play_script_luck(
                stop - done, pos, scripts[alive], drawn_id, seed, pols, rules, first=done
            )
        else:
            rec = play_script(
                stop - done,
                pos,
                scripts[alive],
                drawn_id,
                seed,
                pols,
                n_jobs,
                rules,
                first=done,
                **_runner(stop - done, n_jobs),
            )
        per_hand = (time.perf_counter() - t_round) / max(1, (stop - done) * len(alive))
        rec = rec.sort_values(["hand_id", "script"], kind="stable")
        if game is not None:
            for j, c in enumerate(alive):
                chances[c].append(game.of(rec[rec["script"] == j]))
        v = team_view(rec.drop(columns=["script", "applied", "luck"], errors="ignore"))
        v["applied"] = np.tile(rec["applied"].to_numpy(), E.N_TEAMS)
        v["script"] = np.tile(rec["script"].to_numpy(), E.N_TEAMS)
        v = v[v["team"] == team]
        for j, c in enumerate(alive):
            part = v[v["script"] == j].sort_values("hand_id")
            parts[c].append(part)
            x = part["score"].to_numpy(dtype=np.float64)
            if luck:  # the corrected score: the mean unchanged, the draws' luck taken out
                x = x - rec.loc[rec["script"] == j, "luck"].to_numpy()
            scores[c].append(x)
        done = stop
        if done >= n or (len(alive) == 1 and len(cands) > 1):
            break
        # a choice stays while it is close by either measure: the best by the chance of
        # winning the game is then never left with fewer deals than the best by points
        keep = set(_race(alive, [np.concatenate(s) for s in scores]))
        if game is not None:
            keep |= set(_race(alive, [np.concatenate(s) for s in chances]))
        alive = [c for c in alive if c in keep]
        if budget is not None:
            spent = time.perf_counter() - t0
            nxt = min(n, 2 * done) - done
            if spent + per_hand * nxt * len(alive) > budget:
                break

    x = [np.concatenate(s) for s in scores]
    pts = cmp.compare(x, seed)
    out = []
    for i, (_script, label, melds, discard) in enumerate(cands):
        e, d = pts["estimate"][i], pts["diff"][i]
        rates = _summaries(x[i], pd.concat(parts[i]))
        out.append(
            Choice(
                label,
                melds,
                discard,
                e.estimate,
                e.ci_low,
                e.ci_high,
                d.estimate,
                d.ci_low,
                d.ci_high,
                len(x[i]),
                rates,
                i == pick,
                confidence=float(pts["confidence"][i]),
                rank=pts["rank"][i],
            )
        )
    if game is not None:  # the chance of winning the game after the hand, beside the points
        from dataclasses import replace

        g = cmp.compare([np.concatenate(s) for s in chances], seed)
        out = [replace(c, game=cmp.game_fields(g, i)) for i, c in enumerate(out)]
    order = sorted(range(len(out)), key=lambda i: out[i].rank)
    memory = pos.known is not None and bool(np.asarray(pos.known).any())
    return Advice(decision, [out[i] for i in order], memory, luck)


def _runner(count: int, n_jobs: int) -> dict:
    """Runner options for a round: every job gets a chunk (the rows never depend on it)."""
    if n_jobs == 1:
        return {}
    from sim.jobs import chunk_size_for

    return {"chunk_size": chunk_size_for(count, n_jobs), "progress": False}


_RATE_WORDS = {
    "sevens_completion": "completes its sevens",
    "aces_completion": "completes its aces",
    "sevens_penalty": "is caught holding a sevens penalty (SCORE-6)",
    "aces_penalty": "is caught holding an aces penalty (SCORE-6)",
    "went_out": "goes out",
}
_GOOD = {"sevens_completion", "aces_completion", "went_out"}


def why(advice: Advice, against: Choice | None = None) -> str:
    """One plain sentence of why the best choice leads, built only from what the measurement
    shows: its paired difference from the runner-up (or from ``against``, e.g. the choice a
    player made) with the interval, and the rate (a meld completed, a penalty held, going out)
    that differs most between the two."""
    ch = advice.choices
    if against is not None and ch and against is not ch[0]:
        ch = [ch[0], against]

    def cap(text: str) -> str:
        return text[:1].upper() + text[1:]

    if not ch:
        return "No choice to compare."
    best = ch[0]
    if len(ch) == 1:
        return f"{cap(best.label)} is the only choice here."
    second = ch[1]
    gap = -second.diff_from_best  # second's paired difference from the best, sign flipped
    lo, hi = -second.diff_high, -second.diff_low
    n = min(best.n, second.n)
    if math.isnan(gap):
        return f"{cap(best.label)} and {second.label} could not be told apart yet."
    if lo <= 0 <= hi or math.isnan(lo):
        lead = (
            f"{cap(best.label)} and {second.label} score about the same "
            f"({gap:+.0f} points, 95% interval {lo:+.0f} to {hi:+.0f} over {n} paired deals): "
            "either is fine"
        )
    else:
        lead = (
            f"{cap(best.label)} scores {gap:.0f} more points for your team than "
            f"{second.label} (95% interval {lo:+.0f} to {hi:+.0f} over {n} paired deals)"
        )
    found = None
    for key, words in _RATE_WORDS.items():
        a, b = best.rates.get(key), second.rates.get(key)
        if a is None or b is None or math.isnan(a) or math.isnan(b):
            continue
        if abs(a - b) >= 0.1 and (found is None or abs(a - b) > found[0]):
            found = (abs(a - b), key, words, a, b)
    if found is None:
        return lead + "."
    _, key, words, a, b = found
    better = (a > b) == (key in _GOOD)
    link = "because" if better and not (lo <= 0 <= hi) else "and"
    if not better:
        link = "although"
    return (
        f"{lead}, {link} your team {words} in {a:.0%} of the deals after it against "
        f"{b:.0%} after {second.label}."
    )
