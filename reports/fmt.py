"""Number formatting shared by the tables and the "what the numbers say" sentences.

One function per kind of number, so the same value prints the same way in a table cell and in
the sentence that cites it (the tests rely on that: they format the analysis functions' output
with these functions and look for the strings in the HTML).
"""

from __future__ import annotations

import math

__all__ = ["count", "one_in", "pct", "points", "rate", "sig"]

DASH = "–"  #: en dash between interval bounds


def _finite(x) -> bool:
    try:
        return math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def count(n) -> str:
    """An integer with thousands separators: 12,345."""
    return f"{int(n):,}"


def sig(x: float, digits: int = 3) -> str:
    """``x`` to ``digits`` significant figures, plain notation (no exponent)."""
    if not _finite(x):
        return "n/a"
    x = float(x)
    if x == 0:
        return "0"
    x = float(f"{x:.{digits - 1}e}")  # round first: 9.998 -> 10.0, not 10.00
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(x))))
    return f"{x:,.{decimals}f}"


def pct(p: float) -> str:
    """A proportion as a percentage, 3 significant figures: 0.01234 -> '1.23%'."""
    if not _finite(p):
        return "n/a"
    return f"{sig(100.0 * float(p))}%"


def one_in(p: float) -> str:
    """Odds as '1 in N' (N = 1/p to 3 significant figures, at least the integer part)."""
    if not _finite(p) or float(p) <= 0:
        return "never"
    n = 1.0 / float(p)
    if n < 100:
        return f"1 in {sig(n)}"
    keep = 10 ** (math.floor(math.log10(n)) - 2)  # 3 significant figures
    return f"1 in {round(n / keep) * keep:,}"


def points(x: float) -> str:
    """Points (per hand), signed, no decimals under 1000 rounding: '+1,234' / '−56'."""
    if not _finite(x):
        return "n/a"
    v = round(float(x))
    sign = "+" if v > 0 else ("−" if v < 0 else "±")
    return f"{sign}{abs(v):,}"


def points_ci(x: float, low: float, high: float) -> str:
    """'+123 (95% CI +80 to +166)'."""
    return f"{points(x)} (95% CI {points(low)} to {points(high)})"


def rate(x: float) -> str:
    """A win rate or other share in [0, 1] with 3 decimals: '0.612'."""
    if not _finite(x):
        return "n/a"
    return f"{float(x):.3f}"


def pct_range(low: float, high: float) -> str:
    """A proportion's interval alone: '11.8–12.9%'."""
    return f"{pct(low)[:-1]}{DASH}{pct(high)}"


def points_range(low: float, high: float) -> str:
    """A points interval alone: '+80 to +166'."""
    return f"{points(low)} to {points(high)}"


def rate_range(low: float, high: float) -> str:
    return f"{rate(low)}{DASH}{rate(high)}"


def one_in_range(low: float, high: float) -> str:
    """A probability's interval as the N of '1 in N', rarest first: '6,600–5,980'."""
    return f"{one_in(low)[5:] if float(low) > 0 else '∞'}{DASH}{one_in(high)[5:]}"
