"""Intervals, computed one way everywhere in ``analysis``; every output states which.

Two kinds of estimate, two methods, one confidence level (95% unless a caller asks otherwise):

* a **proportion** of independent trials (k successes in n) gets the **Wilson score interval**
  (Wilson 1927): it never leaves [0, 1], is exact at the edges (k = 0 gives a lower bound of
  exactly 0, k = n an upper bound of exactly 1) and keeps near-nominal coverage for small n and
  rare events, where the textbook ``p ± z·SE`` interval collapses to a point;
* a **mean** (points per hand, a paired difference, or a share that is the mean of correlated
  per-deal values) gets the **normal interval** ``mean ± z·SE`` with ``SE = sd / sqrt(n)``
  (sample sd, ddof=1): simulation samples are large, so the central limit theorem carries it.

A paired difference is the mean interval of the per-pair differences (same deal, two ways).

Every table built here carries the columns ``estimate, ci_low, ci_high, n`` and an ``interval``
column holding the statement (e.g. "95% Wilson score interval"), also kept in ``DataFrame.attrs``.
No scipy: the normal quantile comes from ``statistics.NormalDist``. The Wilson bounds and the
normal quantile are ``sim.stats``'s (the ODDS-1 sampler in ``sim`` uses them too, and ``sim``
never imports ``analysis``); this module re-exports them and builds every table on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from sim.errors import CanastaError
from sim.stats import CONFIDENCE, wilson_bounds, z_value

__all__ = [
    "COLUMNS",
    "Estimate",
    "coverage",
    "label",
    "mean",
    "mean_table",
    "proportion",
    "proportion_table",
    "statement",
    "wilson_bounds",
]

WILSON = "Wilson score interval"  #: method name for proportions
NORMAL = "normal interval (mean ± z·SE)"  #: method name for means and paired differences
COLUMNS = ("estimate", "ci_low", "ci_high", "n")  #: the columns every interval table carries


def statement(method: str, confidence: float = CONFIDENCE) -> str:
    """The sentence every output carries, e.g. '95% Wilson score interval'."""
    return f"{confidence * 100:g}% {method}"


@dataclass(frozen=True)
class Estimate:
    """One estimate with its interval; ``interval`` says how it was computed."""

    estimate: float
    ci_low: float
    ci_high: float
    n: int
    interval: str
    se: float = float("nan")

    def as_dict(self) -> dict:
        return asdict(self)

    def __str__(self) -> str:
        ci = f"[{self.ci_low:.6g}, {self.ci_high:.6g}]"
        return f"{self.estimate:.6g} {ci} (n={self.n}, {self.interval})"


# ---------------------------------------------------------------------------------------
# Proportions: Wilson score interval
# ---------------------------------------------------------------------------------------
def proportion(successes: int, n: int, confidence: float = CONFIDENCE) -> Estimate:
    """k successes in n independent trials, with its Wilson score interval."""
    p, low, high = wilson_bounds(successes, n, confidence)
    return Estimate(float(p), float(low), float(high), int(n), statement(WILSON, confidence))


# ---------------------------------------------------------------------------------------
# Means: normal interval
# ---------------------------------------------------------------------------------------
def mean(values, confidence: float = CONFIDENCE) -> Estimate:
    """Mean of ``values`` with its normal interval (NaN interval below 2 values)."""
    x = np.asarray(values, dtype=np.float64)
    n = x.size
    if n == 0:
        nan = float("nan")
        return Estimate(nan, nan, nan, 0, statement(NORMAL, confidence), nan)
    m = float(x.mean())
    se = float(x.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    half = z_value(confidence) * se
    return Estimate(m, m - half, m + half, n, statement(NORMAL, confidence), se)


def paired_difference(a, b, confidence: float = CONFIDENCE) -> Estimate:
    """Mean of a - b over pairs (same deal played two ways), with its normal interval."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise CanastaError(f"paired samples differ in length: {a.size} and {b.size}")
    return mean(a - b, confidence)


# ---------------------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------------------
def label(df: pd.DataFrame, text: str) -> pd.DataFrame:
    """Write the table's interval statement ``text`` in its ``interval`` column and attrs."""
    df["interval"] = text
    df.attrs["interval"] = text
    return df


def statements(methods: dict[str, str], confidence: float = CONFIDENCE) -> str:
    """The statement of a table mixing methods: ``{"completion": WILSON, "points": NORMAL}``
    -> 'completion: 95% Wilson score interval; points: 95% normal interval (mean ± z·SE)'."""
    return "; ".join(f"{what}: {statement(m, confidence)}" for what, m in methods.items())


def interval_columns(table: pd.DataFrame, name: str) -> dict[str, np.ndarray]:
    """``{name, name_low, name_high}`` from an interval table's estimate and bounds (in its
    row order), for tables that put several estimates side by side."""
    return {
        name: table["estimate"].to_numpy(),
        f"{name}_low": table["ci_low"].to_numpy(),
        f"{name}_high": table["ci_high"].to_numpy(),
    }


def _wilson_columns(out: pd.DataFrame, confidence: float) -> pd.DataFrame:
    """``out`` (columns ``successes`` and ``n``) with its Wilson estimate and interval."""
    p, low, high = wilson_bounds(out["successes"], out["n"], confidence)
    out["estimate"], out["ci_low"], out["ci_high"] = p, low, high
    return label(out, statement(WILSON, confidence))


def proportion_table(
    df: pd.DataFrame,
    success: str,
    by: str | Sequence[str] | None = None,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """Share of rows where boolean column ``success`` holds, per group ``by``, Wilson intervals.

    Columns: the group keys, ``successes``, ``n``, ``estimate``, ``ci_low``, ``ci_high``,
    ``interval``.
    """
    flag = df[success].astype(bool)
    if by is None:
        out = pd.DataFrame({"successes": [int(flag.sum())], "n": [len(flag)]})
    else:
        keys = [by] if isinstance(by, str) else list(by)
        g = flag.groupby([df[k] for k in keys], observed=True)
        out = pd.DataFrame({"successes": g.sum().astype(np.int64), "n": g.size()}).reset_index()
    return _wilson_columns(out, confidence)


def from_counts(successes, n, confidence: float = CONFIDENCE, **keys) -> pd.DataFrame:
    """A proportion table from count arrays (plus key columns given as keyword arrays)."""
    out = pd.DataFrame(keys)
    out["successes"] = np.asarray(successes, dtype=np.int64)
    out["n"] = np.asarray(n, dtype=np.int64)
    return _wilson_columns(out, confidence)


def mean_table(
    df: pd.DataFrame,
    value: str,
    by: str | Sequence[str] | None = None,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """Mean of column ``value`` per group ``by`` with normal intervals.

    Columns: the group keys, ``n``, ``estimate``, ``se``, ``ci_low``, ``ci_high``, ``interval``.
    """
    x = df[value].astype(np.float64)
    if by is None:
        e = mean(x, confidence)
        out = pd.DataFrame({"n": [e.n], "estimate": [e.estimate], "se": [e.se]})
    else:
        keys = [by] if isinstance(by, str) else list(by)
        g = x.groupby([df[k] for k in keys], observed=True)
        out = pd.DataFrame(
            {"n": g.size(), "estimate": g.mean(), "se": g.std(ddof=1) / np.sqrt(g.size())}
        ).reset_index()
    half = z_value(confidence) * out["se"]
    out["ci_low"] = out["estimate"] - half
    out["ci_high"] = out["estimate"] + half
    return label(out, statement(NORMAL, confidence))


def estimate_row(e: Estimate, **keys) -> dict:
    """A table row (dict) from an Estimate, keys first."""
    return {**keys, **e.as_dict()}


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` (a positive integer) degrees of freedom: the
    closed forms of the regularized upper gamma function at half-integers (no scipy)."""
    import math

    if df < 1 or int(df) != df:
        raise CanastaError(f"chi-square degrees of freedom: a positive integer, got {df!r}")
    if x <= 0:
        return 1.0
    h = x / 2.0
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= h / i
            total += term
        return min(1.0, math.exp(-h) * total)
    total = math.erfc(math.sqrt(h))
    for i in range(1, (df - 1) // 2 + 1):
        total += math.exp(-h + (i - 0.5) * math.log(h) - math.lgamma(i + 0.5))
    return min(1.0, total)


def coverage(estimates, ses) -> tuple[float, int, float]:
    """Do stated standard errors cover the spread of independent estimates of one quantity
    (one experiment at k seeds)? ``(chi2, df, p)``: chi2 = sum((x_i - m)^2 / se_i^2) about the
    inverse-variance weighted mean m, df = k - 1, p its chi-square tail. Errors that are too
    small (correlated units counted as independent) show as chi2/df well above 1, a small p."""
    x = np.asarray(estimates, dtype=np.float64)
    se = np.asarray(ses, dtype=np.float64)
    ok = np.isfinite(x) & np.isfinite(se) & (se > 0)
    x, se = x[ok], se[ok]
    if x.size < 2:
        raise CanastaError(f"coverage: need 2 or more estimates with errors, got {x.size}")
    w = 1.0 / se**2
    m = float((w * x).sum() / w.sum())
    chi2 = float((w * (x - m) ** 2).sum())
    return chi2, x.size - 1, chi2_sf(chi2, x.size - 1)
