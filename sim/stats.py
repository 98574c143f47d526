"""The Wilson score interval of a proportion: the one definition, used by the ODDS-1 sampler
(``sim.sampler``) and by every proportion of ``analysis`` (``analysis.intervals`` builds its
tables on it), so the two can never disagree. Pure numpy; no scipy (``statistics.NormalDist``
gives the normal quantile).

It lives in ``sim`` because ``sim`` never imports ``analysis`` (docs/architecture.md, layers).
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

from sim.errors import CanastaError

__all__ = ["CONFIDENCE", "wilson_bounds", "z_value"]

CONFIDENCE = 0.95  #: the one confidence level used by default everywhere


def z_value(confidence: float = CONFIDENCE) -> float:
    """Two-sided normal quantile: 1.959963... for 95%."""
    if not 0.0 < confidence < 1.0:
        raise CanastaError(f"confidence {confidence!r} must lie strictly between 0 and 1")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson_bounds(successes, n, confidence: float = CONFIDENCE):
    """Vectorised Wilson score interval (Wilson 1927): (estimate, low, high) arrays; NaN where
    n == 0. Never leaves [0, 1]; exact at the edges (k = 0: low is 0, k = n: high is 1)."""
    k = np.asarray(successes, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    if np.any(k < 0) or np.any(k > n):
        raise CanastaError("a proportion needs 0 <= successes <= trials")
    z = z_value(confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        z2n = z * z / n
        centre = (p + z2n / 2.0) / (1.0 + z2n)
        half = z / (1.0 + z2n) * np.sqrt(p * (1.0 - p) / n + z2n / (4.0 * n))
        low = np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
        high = np.where(k == n, 1.0, np.clip(centre + half, 0.0, 1.0))
    return p, low, high
