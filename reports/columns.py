"""The report's tables as columns: each column set a header and how a row's cell is printed
(always through ``reports.fmt``), and which column set each table of the report takes.

Holds :class:`Column`, ``COLUMNS`` (column set name -> its columns), ``TABLE_COLUMNS`` (table
key -> column set name) and ``GROUPING_NAMES`` (a decision table's grouping keys in words).
``reports.content`` says what the report says around them; ``reports.html`` renders them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from analysis.decisions import EXPERIMENTS
from reports import fmt
from reports.figures import HAND_LABELS

__all__ = ["COLUMNS", "TABLE_COLUMNS"]


@dataclass
class Column:
    header: str
    cell: Callable[[pd.Series], str]
    left: bool = False


def _pct(header, est, lo, hi) -> list[Column]:
    """A proportion and its interval, two cells."""
    return [
        Column(header, lambda r: fmt.pct(r[est])),
        Column("95% CI", lambda r: fmt.pct_range(r[lo], r[hi])),
    ]


def _pts(header, est, lo, hi) -> list[Column]:
    """Points and their interval, two cells."""
    return [
        Column(header, lambda r: fmt.points(r[est])),
        Column("95% CI", lambda r: fmt.points_range(r[lo], r[hi])),
    ]


def _text(col) -> Callable[[pd.Series], str]:
    return lambda r: str(r[col])


def _label(name: str) -> str:
    """A hand's name in a table: the figures' label, else its list name in words
    ('zip_code' -> 'Zip Code', SPECIAL-8/9)."""
    return HAND_LABELS.get(name, name.replace("_", " ").title())


def _hand(r) -> str:
    return _label(r["hand"])


def _mc(f) -> Callable[[pd.Series], str]:
    return lambda r: f(r) if "estimate" in r.index and pd.notna(r.get("estimate")) else "—"


def _ratio(k, n) -> Callable[[pd.Series], str]:
    return lambda r: f"{fmt.count(r[k])} / {fmt.count(r[n])}"


POLICY = Column("policy", _text("policy"), left=True)
COLUMNS: dict[str, list[Column]] = {
    "dealt_odds": [
        Column("hand", _hand, left=True),
        Column("exact odds", lambda r: fmt.one_in(r["exact"])),
        Column("exact probability", lambda r: fmt.pct(r["exact"])),
        Column(
            "Monte Carlo", _mc(lambda r: fmt.one_in(r["estimate"]) if r["hits"] else "none seen")
        ),
        Column("95% CI (1 in …)", _mc(lambda r: fmt.one_in_range(r["ci_low"], r["ci_high"]))),
        Column("hits", _mc(lambda r: fmt.count(r["hits"]))),
        Column("exact inside CI", _mc(lambda r: "yes" if r["exact_inside"] else "NO")),
    ],
    "special_frequency": [
        POLICY,
        Column(
            "special hand",
            lambda r: _label(r["special_hand"]),
            left=True,
        ),
        *_pct("share of team-hands", "estimate", "ci_low", "ci_high"),
        Column("odds", lambda r: fmt.one_in(r["estimate"]) if r["successes"] else "none seen"),
        Column("declared / n", _ratio("successes", "n")),
    ],
    "meld_turn": [
        POLICY,
        Column("turn started", _text("turn"), left=True),
        Column("n started", lambda r: fmt.count(r["n"])),
        *_pct("completed", "completion", "completion_low", "completion_high"),
        *_pts("team points in the hand", "points", "points_low", "points_high"),
    ],
    "meld_held": [
        POLICY,
        Column("held", _text("held")),
        Column("n started", lambda r: fmt.count(r["n"])),
        *_pct("completed", "completion", "completion_low", "completion_high"),
        # the team's points are in the by-turn tables; here the meld's own SCORE-2 value
        *_pts("meld bonus/penalty, expected", "meld_points", "meld_points_low", "meld_points_high"),
    ],
    "penalties": [
        POLICY,
        Column("rank", _text("rank"), left=True),
        *_pct("team-hands paying", "frequency", "frequency_low", "frequency_high"),
        Column("paid / n", _ratio("paid", "n")),
        *_pts("cost per team-hand", "cost", "cost_low", "cost_high"),
    ],
    "mixed_aces": [
        POLICY,
        Column("aces melds started", lambda r: fmt.count(r["aces_started"])),
        Column("mixed", lambda r: fmt.count(r["mixed"])),
        *_pct("mixed share", "mixed_share", "mixed_share_low", "mixed_share_high"),
        *_pct("mixed: completed", "completion", "completion_low", "completion_high"),
        *_pts("mixed: team points", "points", "points_low", "points_high"),
    ],
    "comparison": [
        Column("A", _text("policy_a"), left=True),
        Column("B", _text("policy_b"), left=True),
        Column("deals (×2)", lambda r: fmt.count(r["deals"])),
        *_pts("A − B points per hand", "mean_diff", "ci_low", "ci_high"),
        Column("A's win rate", lambda r: fmt.rate(r["win_rate_a"])),
        Column("95% CI", lambda r: fmt.rate_range(r["win_ci_low"], r["win_ci_high"])),
        Column("seed", _text("seed")),
    ],
    "scores": [
        POLICY,
        Column("team-hands", lambda r: fmt.count(r["n"])),
        *_pts("mean score per hand", "estimate", "ci_low", "ci_high"),
    ],
    "net": [
        POLICY,
        Column("team-hands", lambda r: fmt.count(r["n"])),
        *_pts("mean net score per hand (own − opponents')", "estimate", "ci_low", "ci_high"),
    ],
    "decision": [
        Column("situation", lambda r: _situation(r), left=True),
        Column("positions", lambda r: fmt.count(r["positions"])),
        Column("hands", lambda r: fmt.count(r["hands"])),
        Column("deals", lambda r: fmt.count(r["deals"])),
        Column("choice made", lambda r: fmt.pct(r["applied"])),
        *_pts("A − B, net points per hand", "estimate", "ci_low", "ci_high"),
        Column("adjusted p", lambda r: _p(r["p_adj"])),
        Column("better", _text("better"), left=True),
    ],
    "claims": [
        Column(
            "claim", lambda r: f"{r['id']}. {r['claim']} ({r['source'].strip('()')})", left=True
        ),
        Column("verdict", lambda r: _claim_verdict(r), left=True),
        Column("effect of following it", lambda r: _measured(r, "effect")),
        Column("95% CI", lambda r: _measured(r, "ci")),
        Column("hands it rests on", lambda r: _measured(r, "hands")),
        Column("tested as; what differs between the arms", lambda r: _tested(r), left=True),
    ],
    "first_numbers": [
        Column("figure", lambda r: f"{r['group']}: {r['figure']}", left=True),
        Column("estimate", lambda r: _number(r, r["estimate"])),
        Column("95% CI", lambda r: f"{_number(r, r['ci_low'])} to {_number(r, r['ci_high'])}"),
        Column("n", lambda r: fmt.count(r["n"])),
        Column("unit", _text("unit"), left=True),
        Column("interval", _text("interval"), left=True),
    ],
    "first_pickup": [
        Column(
            "hands",
            lambda r: (
                r["situation"]
                if r["grouping"] == "all"
                else f"pile of {r['situation']} at the first pickup"
            ),
            left=True,
        ),
        Column("n", lambda r: fmt.count(r["hands"])),
        *_pct("share won by the first-pickup team", "estimate", "ci_low", "ci_high"),
        Column("its net points a hand", lambda r: fmt.points(r["net"])),
        Column("adjusted p", lambda r: _p(r["p_adj"])),
        Column(
            "verdict",
            _text("better"),
            left=True,
        ),
    ],
    "end_reasons": [
        Column("matchup", _text("matchup"), left=True),
        Column("hand ended by", _text("end_reason"), left=True),
        *_pct("share of hands", "estimate", "ci_low", "ci_high"),
        Column("hands / n", _ratio("successes", "n")),
    ],
}


def _pp(x) -> str:
    """Percentage points of a chance, signed."""
    return "—" if not pd.notna(x) else f"{x:+.2f}".replace("-", "−")


def _pp_ci(lo, hi) -> str:
    return "—" if not (pd.notna(lo) and pd.notna(hi)) else f"{_pp(lo)} to {_pp(hi)}"


def _cell(r, arm: str) -> str:
    """A score cell of a summary row (``analysis.decisions_game.cell_fields``): scores, percentage
    points, interval."""
    own = r.get(f"{arm}_own")
    if not pd.notna(own):
        return "—"
    return (
        f"{int(own):,} vs {int(r[f'{arm}_opp']):,}: {_pp(100 * r[f'{arm}_est'])} "
        f"({_pp_ci(100 * r[f'{arm}_low'], 100 * r[f'{arm}_high'])})"
    )


def _tally(*verdicts: tuple[str, str]) -> list[Column]:
    """The score cells tested, then how many found each verdict (header, field) and how many
    found no clear difference."""
    counts = [("cells tested", "cells"), *verdicts, ("no clear difference", "neither")]
    return [Column(head, lambda r, k=key: fmt.count(r[k])) for head, key in counts]


def _experiment(r) -> str:
    from analysis.experiment_set import BY_KEY

    e = BY_KEY.get(r["experiment"])
    return f"{e.title} (A = {e.do}, B = {e.dont})" if e else str(r["experiment"])


_POINT_OPPONENTS = (0, 3000, 5000, 8000)  # analysis.equity_numbers.POINT_OPPONENTS
COLUMNS |= {
    "game_tiers": [
        Column("edge", lambda r: f"{int(r['below']):,} vs {int(r['above']):,}", left=True),
        Column("opponent at", lambda r: fmt.count(r["opponent"])),
        Column("team 0 first", lambda r: _pp(r["first0"])),
        Column("95% CI", lambda r: _pp_ci(r["low0"], r["high0"])),
        Column("team 1 first", lambda r: _pp(r["first1"])),
        Column("95% CI ", lambda r: _pp_ci(r["low1"], r["high1"])),
    ],
    "game_points": [
        Column("team 0 at", lambda r: fmt.count(r["score"]), left=True),
        *[
            Column(
                f"opponent at {o:,}",
                lambda r, o=o: (
                    f"{_pp(r[f'd{o}'])} ± {1.96 * r[f'se{o}']:.2f}" if f"d{o}" in r.index else "—"
                ),
            )
            for o in _POINT_OPPONENTS
        ],
    ],
    "game_first": [
        Column("both teams at", lambda r: fmt.count(r["score"]), left=True),
        Column("first player's edge", lambda r: _pp(r["difference"])),
        Column("95% CI", lambda r: _pp_ci(r["ci_low"], r["ci_high"])),
    ],
    "game_decisions": [
        Column("decision", _experiment, left=True),
        *_tally(("A better", "favour_a"), ("B better", "favour_b")),
        Column(
            "verdict by score",
            lambda r: {
                "reverses": "reverses with the score",
                "depends": "holds in some regions only",
                "same": "the same wherever tested",
                "none": "no clear verdict at any score",
                "untested": "not tested",
            }[r["kind"]],
            left=True,
        ),
        Column(
            "largest for A (own vs opponents: percentage points, 95% CI)",
            lambda r: _cell(r, "a"),
            left=True,
        ),
        Column("largest for B", lambda r: _cell(r, "b"), left=True),
    ],
    "game_claim_j": [
        Column("region", lambda r: f"{r['region']} (claim: {r['claim']})", left=True),
        *_tally(("milking helps", "helps"), ("milking hurts", "hurts")),
        Column(
            "best for milking (own vs opponents: percentage points, 95% CI)",
            lambda r: _cell(r, "best"),
            left=True,
        ),
        Column("worst for milking", lambda r: _cell(r, "worst"), left=True),
    ],
}


#: a decision table's grouping keys (analysis.decisions.Grouping.key) as a player reads them
GROUPING_NAMES = {
    "held_sevens": "sevens held",
    "held_aces": "aces held",
    "stock": "stock left",
    "turn": "turn",
    "pile_size": "pile size",
    "opened": "team",
    "wilds_held": "wilds held",
    "distance": "from a special hand",
}


def _claim_verdict(r) -> str:
    """The verdict; 'no clear difference' with an interval clear of zero is a lead (the
    correction for the many situations tested does not confirm it)."""
    v = str(r["verdict"])
    lo, hi = r.get("ci_low"), r.get("ci_high")
    if v == "no clear difference" and lo == lo and hi == hi:  # NaN-safe
        centre = 0.5 if r.get("id") == "G" else 0.0
        if lo > centre or hi < centre:
            side = "for" if lo > centre else "against"
            return f"a lead {side} it, not confirmed"
    return v


def _measured(r, what: str) -> str:
    """A claim's effect, interval or hands; a dash where no experiment measured it."""
    if r["verdict"] == "not measured":
        return "—"
    if str(r["verdict"]).startswith("not tested") and what != "hands":
        return "—"  # too few hands to test: no effect to quote
    share = str(r.get("unit", "")).startswith("share")
    if what == "effect":
        return fmt.pct(r["effect"]) if share else f"{fmt.points(r['effect'])} pts"
    if what == "ci":
        if share:
            return fmt.pct_range(r["ci_low"], r["ci_high"])
        return fmt.points_range(r["ci_low"], r["ci_high"])
    return fmt.count(r["hands"])


def _tested(r) -> str:
    tables = ", ".join(
        "first_pickup" if k == "first_pickup" else f"decision_{k}"
        for k in str(r["experiment"]).split(", ")
        if k
    )
    where = f" (table {tables})" if tables else ""
    note = f"; not measured: needs {r['note']}" if r["note"] else ""
    sign = f"; {r['threshold']}" if r.get("threshold") else ""
    if r.get("untested") and not str(r["verdict"]).startswith("not tested"):
        sign += f"; rows left out of the verdict: {r['untested']}"
    unit = f"; effect: {r['unit']}" if r.get("unit") and r["verdict"] != "not measured" else ""
    differs = f". What differs: {r['differs']}" if r.get("differs") else ""
    return f"{r['test']}{where}{note}{sign}{unit}{differs}"


def _number(r, x) -> str:
    """A first number in its unit: a share as a percentage, the rest to 3 significant digits."""
    if r["unit"] == "share":
        return fmt.pct(x)
    return fmt.sig(x)


def _situation(r) -> str:
    if r["grouping"] == "all":
        return "all positions"
    return f"{GROUPING_NAMES.get(r['grouping'], r['grouping'])}: {r['situation']}"


def _p(p) -> str:
    if not pd.notna(p):
        return "—"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


TABLE_COLUMNS = {  # table key -> column set
    "dealt_odds": "dealt_odds",
    "special_frequency": "special_frequency",
    "sevens_by_turn": "meld_turn",
    "aces_by_turn": "meld_turn",
    "wild_by_turn": "meld_turn",
    "sevens_by_held": "meld_held",
    "aces_by_held": "meld_held",
    "penalties": "penalties",
    "mixed_aces": "mixed_aces",
    "comparison": "comparison",
    "scores": "scores",
    "net": "net",
    "end_reasons": "end_reasons",
    "claims": "claims",
    "first_numbers": "first_numbers",
    "first_pickup": "first_pickup",
    **{k: k for k in ("game_tiers", "game_points", "game_first", "game_decisions", "game_claim_j")},
    **{f"decision_{e.key}": "decision" for e in EXPERIMENTS},
}
