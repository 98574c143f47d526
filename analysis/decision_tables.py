"""Decision tables: situations with intervals, Holm across all of them; thresholds.

A position's effect is the mean paired difference over its deals (``analysis.arms``).
Positions taken from the same sampled hand are not independent, so the unit is the sampled
hand: a situation's estimate is the mean over sampled hands (each hand: the mean of its
positions in the situation) with the normal interval over hands. Its two-sided p-value is
Student's t with (hands − 1) degrees of freedom (few hands: the normal law would understate
the tails); fewer than ``MIN_HANDS`` hands: not tested. The p-values of every row of every
table (and of claim G's first-pickup table) are adjusted together by Holm's step-down method
(family-wise error rate 5%, ``analysis.multiple``). A row's verdict is the arm its adjusted
p-value (≤ 0.05) and sign favour, else "no clear difference"; a row with no p-value (fewer
than ``MIN_HANDS`` hands, or no spread) says "not tested (N hands)" (:func:`not_tested`).

:func:`threshold` fits where an effect changes sign along an ordered feature, with a
bootstrap interval over sampled hands.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis import intervals as iv
from analysis import multiple
from analysis.experiment_set import Experiment, Grouping, experiments_of, resolve

__all__ = [
    "TABLE_COLUMNS",
    "information_worth",
    "informed_rule",
    "not_tested",
    "pooled",
    "tables",
    "threshold",
    "threshold_text",
    "thresholds",
    "verdicts",
]

ALPHA = 0.05  #: family-wise error rate of the Holm correction
MIN_HANDS = 5  #: a situation with fewer sampled hands is shown but not tested
CORRECTION = "holm"


TABLE_COLUMNS = (
    "grouping",
    "situation",
    "low",
    "positions",
    "hands",
    "deals",
    "applied",
    "net_a",
    "net_b",
    "estimate",
    "ci_low",
    "ci_high",
    "se",
    "p",
    "p_adj",
    "verdict",
    "better",
)


def _made_share(part: pd.DataFrame) -> float:
    """The share of the situation's deals where the choice was made: made deals over the
    deals offered, pooled over its rows (a row split by a hidden value holds only that
    value's deals, so a mean of the rows' shares would understate it); rows without
    ``offered`` give the mean of their shares."""
    if "offered" not in part.columns:
        done = part[np.isfinite(part["diff"])]
        return float(done["applied"].mean()) if len(done) else float("nan")
    offered = part["offered"].sum()
    return float(part["deals"].sum() / offered) if offered else float("nan")


def _situation(part: pd.DataFrame, confidence: float) -> dict:
    """Mean over sampled hands of the hand's mean difference (a hand is the unit)."""
    made = _made_share(part)
    part = part[np.isfinite(part["diff"])]
    if "split" in part.columns and part["split"].astype(bool).any() and "position" in part:
        # rows of one position split by a hidden feature of its deals: a hand's mean is over
        # its deals, each row weighted by the deals it holds
        w = part["deals"].to_numpy(dtype=np.float64)
        cols = ["diff", "net_a", "net_b"]
        sums = part[cols].mul(w, axis=0).assign(_w=w).groupby(part["hand"]).sum()
        per_hand = sums[cols].div(sums["_w"], axis=0)
    else:
        per_hand = part.groupby("hand")[["diff", "net_a", "net_b"]].mean()
    e = iv.mean(per_hand["diff"], confidence)
    split = "split" in part.columns and "position" in part and part["split"].astype(bool).any()
    return {
        "positions": int(part["position"].nunique()) if split else len(part),
        "hands": len(per_hand),
        "deals": int(part["deals"].sum()),
        "applied": made,
        "net_a": float(per_hand["net_a"].mean()) if len(part) else float("nan"),
        "net_b": float(per_hand["net_b"].mean()) if len(part) else float("nan"),
        "estimate": e.estimate,
        "ci_low": e.ci_low,
        "ci_high": e.ci_high,
        "se": e.se,
    }


def tables(
    raw: pd.DataFrame,
    confidence: float = iv.CONFIDENCE,
    correction: str = CORRECTION,
    alpha: float = ALPHA,
    experiments=None,
) -> dict[str, pd.DataFrame]:
    """One table per experiment (``decision_<key>``): an ``all`` row, then a row per situation
    of each grouping; p-values adjusted across every row of every table. ``experiments``
    (keys or specs): default those of the rows (:func:`experiments_of`)."""
    chosen = experiments_of(raw) if experiments is None else resolve(experiments)
    hands = raw.attrs.get("hands")
    raw = raw.copy(deep=False)
    raw.attrs = {}  # every filtered copy would deep-copy the hand summaries
    out = {}
    by_table = {}
    for exp in chosen:
        by_table[exp.table] = exp
        part = raw[raw["experiment"] == exp.key]
        if part.empty:
            continue
        rows = [
            {
                "grouping": "all",
                "situation": "all positions",
                "low": 0,
                **_situation(part, confidence),
            }
        ]
        for g in exp.groupings:
            for label, low, ranges in g.cells():
                keep = np.ones(len(part), dtype=bool)
                for feature, lo, hi in ranges:
                    keep &= ((part[feature] >= lo) & (part[feature] <= hi)).to_numpy()
                rows.append(
                    {
                        "grouping": g.key,
                        "situation": label,
                        "low": low,
                        **_situation(part[keep], confidence),
                    }
                )
        worth = None
        if exp.information is not None and "info_a" in part.columns:
            rule = informed_rule(exp, exp.information.low, exp.information.high)
            for col, arm in (("info_a", exp.do), ("info_b", exp.dont)):
                sel = part.assign(diff=part[col], net_a=np.nan, net_b=np.nan)
                rows.append(
                    {
                        "grouping": "information",
                        "low": 0,
                        "situation": f"the rule '{rule}' ({exp.information.label}), "
                        f"instead of always: {arm}",
                        **_situation(sel, confidence),
                    }
                )
            worth = information_worth(part, exp, confidence)
        out[exp.table] = pd.DataFrame(rows)
        if worth is not None:
            out[exp.table].attrs["information_worth"] = worth
    pickup = None
    if hands:  # claim G's statistic joins the family: one correction across the report
        from analysis.numbers import first_pickup

        pickup = first_pickup(pd.DataFrame(hands))
    if not out and pickup is None:
        return out
    parts = [p_values(t) for t in out.values()]
    if pickup is not None:
        parts.append(pickup["p"].to_numpy(dtype=np.float64))
    p_all = np.concatenate(parts)
    adj = multiple.adjust(p_all, correction)
    i = 0
    method = multiple.METHODS[correction]
    family = f"{method}, alpha {alpha:g}, across {len(p_all)} situations"
    if pickup is not None:
        n = len(pickup)
        pickup["p_adj"] = adj[len(p_all) - n :]
        pickup["verdict"] = verdicts(pickup["estimate"] - 0.5, pickup["p_adj"], alpha)
        said = {1: "the first-pickup team wins more", -1: "the other team wins more"}
        pickup["better"] = [
            said.get(int(x), "no clear difference") if np.isfinite(p) else not_tested(h)
            for x, p, h in zip(pickup["verdict"], pickup["p_adj"], pickup["hands"], strict=True)
        ]
        pickup.attrs["correction"] = family
    for key, t in out.items():
        n = len(t)
        t["p"], t["p_adj"] = p_all[i : i + n], adj[i : i + n]
        i += n
        t["verdict"] = verdicts(t["estimate"], t["p_adj"], alpha)
        exp = by_table[key]
        said = {1: exp.do, -1: exp.dont}
        if exp.information is not None:  # an information row: knowing it, or a fixed arm
            said_info = {1: exp.information.label, -1: "the fixed choice"}
        t["better"] = [
            (said_info if g == "information" else said).get(int(x), "no clear difference")
            for g, x in zip(t["grouping"], t["verdict"], strict=True)
        ]
        # an interval clear of zero that the correction does not confirm: a lead
        lead = np.where(t["ci_low"] > 0, 1, np.where(t["ci_high"] < 0, -1, 0))
        for j in np.flatnonzero((t["verdict"].to_numpy() == 0) & (lead != 0)):
            side = said_info if t["grouping"].iat[j] == "information" else said
            t.loc[t.index[j], "better"] = f"a lead, not confirmed: {side[int(lead[j])]}"
        untested = ~np.isfinite(t["p_adj"].to_numpy(dtype=np.float64))
        t.loc[untested, "better"] = [not_tested(h) for h in t.loc[untested, "hands"]]
        t.attrs["interval"] = f"{iv.statement(iv.NORMAL, confidence)} over sampled hands"
        t.attrs["correction"] = family
        out[key] = t[list(TABLE_COLUMNS)]
        out[key].attrs.update(t.attrs)
    if pickup is not None:
        out["first_pickup"] = pickup
    return out


def _range(low: int, high: int, top: int = 99) -> str:
    """A bin's label from its bounds: '2', '2–3' or '2+' (``top`` or more: no bound)."""
    if high >= top:
        return f"{low}+"
    return f"{low}" if low == high else f"{low}–{high}"


def informed_rule(exp: Experiment, low: int, high: int) -> str:
    """The rule 'arm A when the told feature lies in [low, high], else arm B' in words, in
    the phrase of the experiment's grouping by that feature where it has one."""
    knows = exp.information.knows
    g = next((g for g in exp.groupings if g.features == (knows,)), None)
    label = _range(low, high)
    from analysis.specs import TRUE_STATE

    when = g.phrase.format(label=label, low=low) if g else f"with {TRUE_STATE[knows]}: {label}"
    return f"{exp.do} {when}, else {exp.dont}"


def information_worth(
    part: pd.DataFrame, exp: Experiment, confidence: float = iv.CONFIDENCE, reps: int = 400
) -> dict | None:
    """What knowing ``exp.information.knows`` is worth: the best rule that uses it (arm A
    when the value is at least, or at most, some count; else arm B) minus the best rule that
    does not (always A or always B), in the experiment's outcome a hand. A rule's effect
    against always B is the mean over sampled hands of the hand's mean over its deals of
    A − B where the rule plays A, so the split rows (one per value) price every rule at
    once. Both rules are chosen on the same hands, so the estimate leans high; the interval
    is the bootstrap over hands with the choice made again in each resample (``reps``,
    fixed seed), and the rules chosen are named. None: no split rows."""
    rows = part[np.isfinite(part["diff"]) & part["split"].astype(bool)]
    if rows.empty:
        return None
    hand, hands = pd.factorize(rows["hand"])
    value, values = pd.factorize(rows[exp.information.knows], sort=True)
    w = rows["deals"].to_numpy(dtype=np.float64)
    per_hand = np.bincount(hand, w)
    contrib = np.zeros((len(hands), len(values)))
    np.add.at(contrib, (hand, value), w * rows["diff"].to_numpy(dtype=np.float64) / per_hand[hand])
    # rule k (A where value >= values[k]) and rule k' (A where value <= values[k]); the
    # rules 'never' (0) and 'always' (all) are among them
    k = len(values)
    at_least = np.array([[1.0 if v >= j else 0.0 for v in range(k)] for j in range(k + 1)])
    at_most = np.array([[1.0 if v <= j else 0.0 for v in range(k)] for j in range(k)])
    rules = np.vstack([at_least, at_most])  # rules[0]: always A; rules[k]: never (always B)

    def best(c: np.ndarray) -> tuple[float, int, float]:
        e = c.mean(axis=0) @ rules.T
        i = int(np.argmax(e))
        return float(e[i] - max(e[0], 0.0)), i, float(e[0])

    worth, pick, always_a = best(contrib)
    rng = np.random.default_rng([exp.number, 53])
    boot = np.array(
        [best(contrib[rng.integers(0, len(hands), len(hands))])[0] for _ in range(reps)]
    )
    tail = (1 - confidence) / 2
    lo, hi = np.quantile(boot, [tail, 1 - tail])
    if pick in (0, k, 2 * k):
        uses = f"always: {exp.dont}" if pick == k else f"always: {exp.do}"
    elif pick < k:
        uses = informed_rule(exp, int(values[pick]), 99)
    else:
        uses = informed_rule(exp, int(values[0]), int(values[pick - k - 1]))
    return {
        "estimate": worth,
        "ci_low": float(lo),
        "ci_high": float(hi),
        "hands": len(hands),
        "with": uses,
        "without": f"always: {exp.do if always_a > 0 else exp.dont}",
        "label": exp.information.label,
        "interval": f"{confidence:.0%} bootstrap over {len(hands):,} sampled hands ({reps} "
        "resamples, the rules chosen again in each)",
    }


def not_tested(hands) -> str:
    """A row's or a claim's word where nothing was tested (fewer than ``MIN_HANDS`` sampled
    hands, none, or no spread among them): never a verdict, with the hands it has."""
    n = int(hands)
    return f"not tested ({n:,} hand{'' if n == 1 else 's'})"


def p_values(t: pd.DataFrame) -> np.ndarray:
    """Student's t p-values with (hands − 1) degrees of freedom; untested (NaN) below
    ``MIN_HANDS`` hands: too few for the spread to be judged."""
    p = multiple.t_p(t["estimate"], t["se"], t["hands"] - 1)
    p[t["hands"].to_numpy() < MIN_HANDS] = np.nan
    return p


def verdicts(estimate, p_adj, alpha: float = ALPHA) -> np.ndarray:
    """+1 (arm A better), −1 (arm B better) where the adjusted p-value is at most ``alpha``;
    0 (no clear difference) elsewhere, and where there is nothing to test."""
    est = np.asarray(estimate, dtype=np.float64)
    p = np.asarray(p_adj, dtype=np.float64)
    sig = np.isfinite(p) & (p <= alpha)
    return np.where(sig, np.sign(est), 0).astype(np.int64)


def pooled(rows: pd.DataFrame) -> tuple[float, float, float]:
    """The hand-weighted mean of independent situations and its normal interval."""
    w = rows["hands"].to_numpy(dtype=np.float64)
    w = w / w.sum()
    est = float(np.sum(w * rows["estimate"]))
    se = float(np.sqrt(np.sum((w * rows["se"]) ** 2)))
    z = iv.z_value(iv.CONFIDENCE)
    return est, est - z * se, est + z * se


# ---------------------------------------------------------------------------------------
# Thresholds: where the effect changes sign along an ordered feature
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Threshold:
    """The zero of a straight line fitted to the positions' effects along ``feature``
    (least squares, each sampled hand's positions weighted 1/k so a hand counts once), with a
    95% interval from resampling hands (``reps`` bootstrap draws, fixed seed)."""

    experiment: str
    grouping: str
    feature: str
    at: float  #: the fitted sign change (nan: the line does not cross zero in the range)
    ci_low: float
    ci_high: float
    slope_sure: float  #: share of resamples whose slope has the fitted slope's sign
    low: int  #: the range of the feature seen
    high: int
    hands: int
    slope: float  #: points a hand per unit of the feature


def _line(x, y, w):
    sw = w.sum()
    mx, my = (w * x).sum() / sw, (w * y).sum() / sw
    vx = (w * (x - mx) ** 2).sum()
    if vx <= 0:
        return np.nan, np.nan
    b = (w * (x - mx) * (y - my)).sum() / vx
    return my - b * mx, b


def threshold(
    exp: Experiment, grouping: Grouping, raw: pd.DataFrame, reps: int = 400, seed: int = 0
) -> Threshold | None:
    """Where ``exp``'s effect changes sign along ``grouping``'s feature (None: too few)."""
    part = raw[(raw["experiment"] == exp.key) & np.isfinite(raw["diff"])]
    if grouping.feature not in part.columns or part["hand"].nunique() < MIN_HANDS:
        return None
    x = part[grouping.feature].to_numpy(dtype=np.float64)
    y = part["diff"].to_numpy(dtype=np.float64)
    hands = part["hand"].to_numpy()
    uniq, inv, k = np.unique(hands, return_inverse=True, return_counts=True)
    w = 1.0 / k[inv]
    a, b = _line(x, y, w)
    lo, hi = int(x.min()), int(x.max())
    if not np.isfinite(b) or lo == hi:
        return None
    at = -a / b if b != 0 else np.nan
    rng = np.random.default_rng([seed, exp.number, 7])
    rows = [np.flatnonzero(inv == i) for i in range(len(uniq))]
    zeros, same = [], 0
    for _ in range(reps):
        pick = np.concatenate([rows[i] for i in rng.integers(0, len(uniq), len(uniq))])
        ra, rb = _line(x[pick], y[pick], w[pick])
        if np.isfinite(rb) and rb != 0:
            same += np.sign(rb) == np.sign(b)
            zeros.append(-ra / rb)
    z = np.array(zeros)
    inside = np.isfinite(at) and lo - 0.5 <= at <= hi + 0.5
    q = np.quantile(z, [0.025, 0.975]) if len(z) else (np.nan, np.nan)
    at = float(at) if inside else np.nan
    return Threshold(
        exp.key,
        grouping.key,
        grouping.feature,
        at,
        float(q[0]),
        float(q[1]),
        same / reps,
        lo,
        hi,
        len(uniq),
        float(b),
    )


def thresholds(raw: pd.DataFrame, experiments=None) -> list[Threshold]:
    """:func:`threshold` of every ordered grouping (one with ``until``) of the experiments."""
    out = []
    for exp in experiments_of(raw) if experiments is None else resolve(experiments):
        for g in exp.groupings:
            if g.until:
                t = threshold(exp, g, raw)
                if t is not None:
                    out.append(t)
    return out


def _clear(t: Threshold) -> bool:
    """A sign change is located only when its whole interval lies within the values seen
    (half a unit either side, as the fitted zero itself): beyond them the line is an
    extrapolation, and an interval reaching there says the data do not place it."""
    lo, hi = t.low - 0.5, t.high + 0.5
    return bool(np.isfinite(t.ci_low) and np.isfinite(t.ci_high)) and (
        lo <= t.ci_low and t.ci_high <= hi
    )


def describe_threshold(t: Threshold, exp: Experiment) -> str:
    """A threshold in words."""
    gain = (
        f"{abs(t.slope):,.0f} points a hand per unit; the slope's sign in "
        f"{t.slope_sure:.0%} of resamples"
    )
    if np.isfinite(t.at) and not _clear(t):
        return (
            f"{exp.do_ing} minus {exp.dont_ing}: no clear sign change for {t.feature} "
            f"{t.low}–{t.high} (a fitted line crosses zero at ≈ {t.at:.1f}, but its 95% "
            f"interval, {t.ci_low:.1f} to {t.ci_high:.1f} resampling {t.hands} hands, runs "
            f"outside the values seen; {gain})"
        )
    if np.isfinite(t.at):
        side = exp.do_ing if t.slope > 0 else exp.dont_ing
        return (
            f"{exp.do_ing} minus {exp.dont_ing} changes sign at {t.feature} ≈ {t.at:.1f} "
            f"(95% interval {t.ci_low:.1f} to {t.ci_high:.1f}, resampling {t.hands} hands); "
            f"above it {side} is ahead ({gain})"
        )
    return (
        f"{exp.do_ing} minus {exp.dont_ing} does not change sign for {t.feature} "
        f"{t.low}–{t.high} (a fitted line, {gain})"
    )


def threshold_text(exp: Experiment, raw: pd.DataFrame | None) -> list[str]:
    if raw is None or raw.empty:
        return []
    return [describe_threshold(t, exp) for t in thresholds(raw, [exp])]
