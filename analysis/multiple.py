"""Multiple testing: many situations are tested at once, so the error rate is controlled across
them. Two corrections of a family of p-values, both in the original order:

* **Holm** (1979), step-down: sort the m p-values, multiply the i-th smallest (i = 1..m) by
  m − i + 1, carry the running maximum upward, cap at 1. Rejecting where the adjusted value is
  at most alpha controls the **family-wise error rate** (the chance of any false claim) at alpha,
  under any dependence between the tests.
* **Benjamini–Hochberg** (1995), step-up: multiply the i-th smallest by m / i, carry the running
  minimum downward from the largest, cap at 1. Rejecting where the adjusted value is at most q
  controls the **false-discovery rate** (the expected share of false claims among the claims)
  at q for independent or positively dependent tests.

``normal_p`` is the two-sided p-value of an estimate over its standard error (the normal
intervals of ``analysis.intervals``). NaN p-values (no data) stay NaN and do not count in m.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

from sim.errors import CanastaError

__all__ = []

METHODS = {
    "holm": "Holm's step-down correction (family-wise error rate)",
    "bh": "Benjamini–Hochberg (false-discovery rate)",
}


def _check(p) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(p, dtype=np.float64).reshape(-1)
    ok = ~np.isnan(p)
    if np.any((p[ok] < 0) | (p[ok] > 1)):
        raise CanastaError("p-values must lie in [0, 1]")
    return p, ok


def _adjusted(p, step) -> np.ndarray:
    """The p-values adjusted in the order given: ``step(sorted, m)`` adjusts the ``m``
    p-values present, sorted ascending; NaN (not tested) stays NaN, the rest is capped at 1."""
    p, ok = _check(p)
    out = np.full(p.shape, np.nan)
    q = p[ok]
    m = q.size
    if m == 0:
        return out
    order = np.argsort(q, kind="stable")
    res = np.empty(m)
    res[order] = np.minimum(step(q[order], m), 1.0)
    out[ok] = res
    return out


def _holm_step(q: np.ndarray, m: int) -> np.ndarray:
    return np.maximum.accumulate(q * (m - np.arange(m)))


def _bh_step(q: np.ndarray, m: int) -> np.ndarray:
    return np.minimum.accumulate((q * m / np.arange(1, m + 1))[::-1])[::-1]


def holm(p) -> np.ndarray:
    """Holm-adjusted p-values, in the order given."""
    return _adjusted(p, _holm_step)


def bh(p) -> np.ndarray:
    """Benjamini–Hochberg-adjusted p-values (q-values), in the order given."""
    return _adjusted(p, _bh_step)


def adjust(p, method: str = "holm") -> np.ndarray:
    if method not in METHODS:
        raise CanastaError(f"unknown correction {method!r}: choose from {', '.join(METHODS)}")
    return holm(p) if method == "holm" else bh(p)


def normal_p(estimate, se) -> np.ndarray:
    """Two-sided p-values of ``estimate / se`` under the normal law (NaN where se is 0 or NaN:
    no spread, nothing to test)."""
    est = np.atleast_1d(np.asarray(estimate, dtype=np.float64))
    se = np.atleast_1d(np.asarray(se, dtype=np.float64))
    est, se = np.broadcast_arrays(est, se)
    out = np.full(est.shape, np.nan)
    good = np.isfinite(est) & np.isfinite(se) & (se > 0)
    cdf = NormalDist().cdf
    out[good] = [2 * (1 - cdf(abs(e / s))) for e, s in zip(est[good], se[good], strict=True)]
    return out


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the regularized incomplete beta (Lentz's method)."""
    tiny, qab, qap, qam = 1e-300, a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for aa in (
            m * (b - m) * x / ((qam + m2) * (a + m2)),
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
        ):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    from math import exp, lgamma, log

    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1.0 - x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_p(estimate, se, df) -> np.ndarray:
    """Two-sided p-values of ``estimate / se`` under Student's t with ``df`` degrees of freedom
    (p = I_{df/(df+t²)}(df/2, 1/2)); NaN where se is 0 or NaN or df < 1. With few units the
    normal law would understate the tails, and Holm would then pass false directions."""
    est = np.atleast_1d(np.asarray(estimate, dtype=np.float64))
    se = np.atleast_1d(np.asarray(se, dtype=np.float64))
    df = np.atleast_1d(np.asarray(df, dtype=np.float64))
    est, se, df = np.broadcast_arrays(est, se, df)
    out = np.full(est.shape, np.nan)
    for i in np.flatnonzero(np.isfinite(est) & np.isfinite(se) & (se > 0) & (df >= 1)):
        t = est[i] / se[i]
        out[i] = _betainc(df[i] / 2.0, 0.5, df[i] / (df[i] + t * t))
    return out
