"""'What the numbers say': plain sentences generated from the report's own tables.

Every number in a sentence is read from a cell of an analysis table of the same run, through
:class:`Cells`, which records (table, row, column) for each value it hands out; the sentence
cites those tables and the report embeds the cell list, so each number can be traced (and the
tests check it). Directions come from intervals only:

* a single estimate with its interval: a gain if the interval lies above zero, a loss if below,
  "no clear difference" / "no clear sign" if it straddles zero;
* two independent estimates (two policies' rates): "more often" only when the two 95%
  intervals do not overlap (a conservative test), otherwise "no clear difference".

No sentence holds a hand-written number; a sentence whose table is missing is left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from reports import fmt
from reports.figures import HAND_LABELS

__all__ = ["sentences", "separated", "sign"]


@dataclass
class Sentence:
    text: str
    cites: tuple[str, ...]  #: table keys
    cells: list[tuple[str, int, str]] = field(default_factory=list)  #: (table, row, column)


class Cells:
    """Reads table cells and remembers which ones a sentence used."""

    def __init__(self, tables: dict[str, pd.DataFrame]):
        self.tables = tables
        self.used: list[tuple[str, int, str]] = []

    def __call__(self, key: str, row: int, col: str):
        self.used.append((key, int(row), col))
        return self.tables[key].loc[row, col]

    def sentence(self, text: str) -> Sentence:
        cites = tuple(dict.fromkeys(k for k, _, _ in self.used))
        s = Sentence(text, cites, list(self.used))
        self.used = []
        return s


def sign(low: float, high: float) -> int:
    """+1 if the interval lies above zero, -1 below, 0 if it straddles (or touches) zero."""
    if low > 0:
        return 1
    if high < 0:
        return -1
    return 0


def separated(a: tuple[float, float], b: tuple[float, float]) -> int:
    """+1 if interval a lies wholly above b, -1 below, 0 if they overlap."""
    if a[0] > b[1]:
        return 1
    if a[1] < b[0]:
        return -1
    return 0


def _dealt(c: Cells) -> list[Sentence]:
    t = c.tables.get("dealt_odds")
    if t is None:
        return []
    out = []
    i = int(t.index[t["hand"] == "any"][0])
    p = c("dealt_odds", i, "exact")
    text = f"The first player is dealt a special hand {fmt.one_in(p)} deals (exact, ODDS-1)"
    if "estimate" in t.columns and pd.notna(t.loc[i, "estimate"]):
        est = c("dealt_odds", i, "estimate")
        lo, hi = c("dealt_odds", i, "ci_low"), c("dealt_odds", i, "ci_high")
        n = c("dealt_odds", i, "n")
        inside = lo <= p <= hi
        seen = fmt.one_in(est) if est > 0 else "no special hand at all"
        text += (
            f"; sampling {fmt.count(n)} real deals gives {seen} "
            f"(95% CI 1 in {fmt.one_in_range(lo, hi)}), "
            + (
                "which agrees with the exact value."
                if inside
                else "which does NOT contain the exact value: check the sampler."
            )
        )
    else:
        text += "."
    out.append(c.sentence(text))
    hands = t[(t["hand"] != "any") & (t["exact"] > 0)]
    if len(hands):
        j = int(hands["exact"].idxmin())
        p = c("dealt_odds", j, "exact")
        name = HAND_LABELS.get(t.loc[j, "hand"], t.loc[j, "hand"])
        out.append(c.sentence(f"The rarest dealt special hand is {name}: {fmt.one_in(p)} deals."))
    return out


def _special_play(c: Cells) -> list[Sentence]:
    t = c.tables.get("special_frequency")
    if t is None:
        return []
    anyrows = t[t["special_hand"] == "any"]
    if len(anyrows) == 0:
        return []
    hi_i = int(anyrows["estimate"].idxmax())
    lo_i = int(anyrows["estimate"].idxmin())
    pol_hi = t.loc[hi_i, "policy"]

    def part(i):
        est, lo, hi = (c("special_frequency", i, k) for k in ("estimate", "ci_low", "ci_high"))
        n = c("special_frequency", i, "n")
        return (
            f"{fmt.pct(est)} of {fmt.count(n)} team-hands (95% CI {fmt.pct_range(lo, hi)})",
            (lo, hi),
        )

    text_hi, ci_hi = part(hi_i)
    if hi_i == lo_i:
        return [c.sentence(f"Playing {pol_hi}, a team declares a special hand in {text_hi}.")]
    pol_lo = t.loc[lo_i, "policy"]
    text_lo, ci_lo = part(lo_i)
    d = separated(ci_hi, ci_lo)
    verdict = (
        f"{pol_hi} makes special hands more often (the intervals do not overlap)"
        if d > 0
        else "no clear difference (the intervals overlap)"
    )
    return [
        c.sentence(
            f"Special hands made during play: playing {pol_hi}, a team declares one in "
            f"{text_hi}; playing {pol_lo}, in {text_lo}: {verdict}."
        )
    ]


def _main_policy(t: pd.DataFrame, order: tuple[str, ...]) -> str:
    present = list(dict.fromkeys(t["policy"]))
    for p in order:
        if p in present:
            return p
    return present[0]


def _meld_turn(c: Cells, meld: str, order) -> list[Sentence]:
    key = f"{meld}_by_turn"
    t = c.tables.get(key)
    if t is None or len(t) == 0:
        return []
    pol = _main_policy(t, order)
    g = t[(t["policy"] == pol) & (t["n"] > 0)]
    if len(g) < 2:
        return []
    first, last = int(g.index[0]), int(g.index[-1])

    def part(i):
        est, lo, hi = (c(key, i, k) for k in ("completion", "completion_low", "completion_high"))
        n = c(key, i, "n")
        return (
            f"turns {t.loc[i, 'turn']}, {fmt.pct(est)} of {fmt.count(n)} "
            f"(95% CI {fmt.pct_range(lo, hi)})",
            (lo, hi),
        )

    a, ci_a = part(first)
    b, ci_b = part(last)
    d = separated(ci_a, ci_b)
    verdict = {
        1: "early starts complete more often (the intervals do not overlap)",
        -1: "late starts complete more often (the intervals do not overlap)",
        0: "no clear difference (the intervals overlap)",
    }[d]
    article = "An" if meld == "aces" else "A"
    return [
        c.sentence(
            f"{article} {meld} meld started by {pol} is completed by the end of the hand: "
            f"started on {a}; started on {b}: {verdict}."
        )
    ]


def _meld_held(c: Cells, meld: str, order) -> list[Sentence]:
    key = f"{meld}_by_held"
    t = c.tables.get(key)
    if t is None or len(t) == 0:
        return []
    pol = _main_policy(t, order)
    g = t[(t["policy"] == pol) & (t["n"] > 1)]
    out = []
    for i in dict.fromkeys([int(g.index[0]), int(g.index[-1])]) if len(g) else []:
        est = c(key, i, "meld_points")
        lo, hi = c(key, i, "meld_points_low"), c(key, i, "meld_points_high")
        n, held = c(key, i, "n"), t.loc[i, "held"]
        s = sign(lo, hi)
        verdict = {1: "on average a gain", -1: "on average a loss", 0: "no clear sign"}[s]
        out.append(
            c.sentence(
                f"Starting {meld} while holding {held} ({pol}): the meld's own bonus or penalty "
                f"is worth {fmt.points(est)} points per meld on average over {fmt.count(n)} "
                f"melds (95% CI {fmt.points_range(lo, hi)}): {verdict}."
            )
        )
    return out


def _penalties(c: Cells, order) -> list[Sentence]:
    t = c.tables.get("penalties")
    if t is None or len(t) == 0:
        return []
    pol = _main_policy(t, order)
    out = []
    for i in t.index[t["policy"] == pol]:
        i = int(i)
        f = [c("penalties", i, k) for k in ("frequency", "frequency_low", "frequency_high")]
        cost = [c("penalties", i, k) for k in ("cost", "cost_low", "cost_high")]
        n = c("penalties", i, "n")
        out.append(
            c.sentence(
                f"The {t.loc[i, 'rank']} in-hand penalty (SCORE-4) is paid in "
                f"{fmt.pct(f[0])} of {pol}'s {fmt.count(n)} team-hands (95% CI "
                f"{fmt.pct_range(f[1], f[2])}), costing {fmt.points(cost[0])} points per "
                f"team-hand (95% CI {fmt.points_range(cost[1], cost[2])})."
            )
        )
    return out


def _comparison(c: Cells) -> list[Sentence]:
    t = c.tables.get("comparison")
    if t is None:
        return []
    out = []
    for i in t.index:
        i = int(i)
        a, b = t.loc[i, "policy_a"], t.loc[i, "policy_b"]
        d = [c("comparison", i, k) for k in ("mean_diff", "ci_low", "ci_high")]
        w = [c("comparison", i, k) for k in ("win_rate_a", "win_ci_low", "win_ci_high")]
        n = c("comparison", i, "deals")
        s = sign(d[1], d[2])
        if s > 0:
            head = f"{a} beats {b}"
        elif s < 0:
            head = f"{b} beats {a}"
        else:
            head = f"No clear difference between {a} and {b}"
        out.append(
            c.sentence(
                f"{head}: on {fmt.count(n)} duplicate deals {a} scores {fmt.points(d[0])} "
                f"points per hand against {b} (95% CI {fmt.points_range(d[1], d[2])}) and "
                f"wins a share {fmt.rate(w[0])} of hands (95% CI {fmt.rate_range(w[1], w[2])})."
            )
        )
    return out


def _scores(c: Cells) -> list[Sentence]:
    t = c.tables.get("scores")
    if t is None or len(t) == 0:
        return []
    parts = []
    for i in t.index:
        i = int(i)
        e = [c("scores", i, k) for k in ("estimate", "ci_low", "ci_high")]
        n = c("scores", i, "n")
        parts.append(
            f"{t.loc[i, 'policy']} {fmt.points(e[0])} over {fmt.count(n)} team-hands "
            f"(95% CI {fmt.points_range(e[1], e[2])})"
        )
    return [c.sentence("Mean team score per hand: " + "; ".join(parts) + ".")]


def sentences(tables: dict[str, pd.DataFrame], order: tuple[str, ...] = ()) -> list[Sentence]:
    """The list, in report order; ``order`` says which policy to feature first."""
    c = Cells(tables)
    out = _dealt(c) + _special_play(c)
    for meld in ("sevens", "aces"):
        out += _meld_turn(c, meld, order)
        out += _meld_held(c, meld, order)
    out += _penalties(c, order)
    out += _meld_turn(c, "wild", order)
    out += _comparison(c)
    out += _scores(c)
    return out
