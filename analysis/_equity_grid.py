"""The equity grid's solver (``analysis.equity``): hand-outcome distributions on a score grid,
their products with a table by FFT, and the linear system of GAME-1 solved by BiCGSTAB.

Layout: grid cell ``i`` is the score ``low + r * i``, ``i < n`` (the last score below the
target). A table ``V[t]`` is float64[n, n], ``[i0, i1]`` team 0's chance to win with team ``t``
to play first. The extended table ``E`` the products read is the grid padded by ``m_lo`` cells
below (a lower score reads the grid's lowest: the clamp) and ``m_hi`` above, where either team
is at or past the target (GAME-1's end, read from ``sim.finished.game_outcomes``: the higher
score has won, an exact tie plays on).
"""

from __future__ import annotations

import math

import numpy as np

from sim.finished import GAME_ON, GAME_TIED, game_outcomes

__all__ = []


def fast_length(n: int) -> int:
    """The least m >= n whose prime factors are 2, 3 and 5 (a fast FFT length)."""
    m = n
    while True:
        k = m
        for p in (2, 3, 5):
            while k % p == 0:
                k //= p
        if k == 1:
            return m
        m += 1


def _tier(score: int, thresholds) -> int:
    """OPEN-1: the opening tier of a team's score (0: below the first threshold)."""
    return sum(score >= x for x in thresholds)


def _weights(outcomes, weights, key):
    rows = outcomes.samples[key]
    w = np.ones(len(rows)) if weights is None else np.asarray(weights[key], dtype=np.float64)
    return rows, w


def tie_values(outcomes, target: int, thresholds, weights=None) -> np.ndarray:
    """GAME-1, an exact tie at or above the target: team 0's chance per layer and next first
    team, ``[layer, u]``. The next hand's higher scorer wins (a game-winning hand: its team,
    SPECIAL-10), another tie plays on: ``T[u] = w[u] + e[u] * T[1 - u]``."""
    layers = _layers(outcomes)
    out = np.zeros((len(layers), 2))
    for li, pair in enumerate(layers):
        w0, e = np.zeros(2), np.zeros(2)
        for u in (0,) if outcomes.mirrored else (0, 1):
            a = pair if pair is not None else _tier(target, thresholds)
            rows, w = _weights(outcomes, weights, (a, a, u))
            total = w.sum()
            plain = rows[:, 2] < 0
            end = _after_tie(rows[:, 0], rows[:, 1], target)
            w0[u] = (w[rows[:, 2] == 0].sum() + w[plain & (end == 0)].sum()) / total
            e[u] = w[plain & (end == GAME_TIED)].sum() / total
        if outcomes.mirrored:  # team 1 first is the mirror image: T[1] = 1 - T[0]
            t0 = (w0[0] + e[0]) / (1 + e[0])
            out[li] = (t0, 1 - t0)
            continue
        t0 = (w0[0] + e[0] * w0[1]) / (1 - e[0] * e[1])
        out[li] = (t0, w0[1] + e[1] * t0)
    return out


def _after_tie(d0, d1, target: int) -> np.ndarray:
    """GAME-1's outcome of a hand scoring ``d0``, ``d1`` after an exact tie at the target,
    both teams read as still at or over the target after it (the model's reading, module
    docstring of ``analysis.equity``): the higher scorer wins, another tie plays on."""
    lift = target - np.minimum(np.minimum(d0, d1), 0)
    return game_outcomes(lift + d0, lift + d1, target)


def _layers(outcomes) -> list:
    """None (one layer, opening minima by score) or the tiers of OPEN-1 by hand, in order."""
    if not outcomes.by_hand:
        return [None]
    return sorted({a for a, _, _ in outcomes.samples})


def _fft_padded(a: np.ndarray, size: int) -> np.ndarray:
    """``rfft2`` of the ``size`` × ``size`` array that holds ``a`` in its top-left corner and
    zeros elsewhere, without making it: the rows past ``a`` are zero, so the transform along
    the second axis is taken of ``a``'s rows only (zero-padded to ``size``), then along the
    first (zero-padded likewise). The same transform as ``np.fft.rfft2`` of the padded array."""
    return np.fft.fft(np.fft.rfft(a, n=size, axis=1), n=size, axis=0)


class _Serial:
    """An executor that runs in the caller's thread (``workers`` 1)."""

    def map(self, fn, items):
        return [fn(x) for x in items]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _executor(workers: int):
    """Threads for the grid's FFTs (numpy's FFTs release the GIL); the results do not
    depend on ``workers``: every block is computed alike and written to its own cells."""
    if workers <= 1:
        return _Serial()
    from concurrent.futures import ThreadPoolExecutor

    return ThreadPoolExecutor(max_workers=workers)


class Grid:
    """The grid of one solve: its distributions' FFTs and the blocks of each layer.
    ``workers``: threads for the FFTs (the results are the same for any number)."""

    def __init__(self, outcomes, target, r, low, thresholds, weights=None, workers: int = 1):
        self.r, self.low, self.target = r, low, target
        self.workers = max(1, int(workers))
        self.n = n = math.ceil((target - low) / r)
        plain = [v[v[:, 2] < 0] for v in outcomes.samples.values()]
        lo = min(int(v[:, :2].min()) for v in plain if len(v))
        hi = max(int(v[:, :2].max()) for v in plain if len(v))
        self.m_lo = max(0, -(lo // r)) + 1
        self.m_hi = max(0, hi // r) + 2
        w = self.m_lo + self.m_hi + 1  # pmf width: offsets -m_lo..m_hi cells
        self.N = fast_length(n + self.m_lo + self.m_hi)
        self.layers = _layers(outcomes)
        self.by_hand = outcomes.by_hand
        scores = low + r * np.arange(n)
        tiers = np.array([_tier(int(s), thresholds) for s in scores])
        self.tier_slices = {}
        for a in np.unique(tiers):
            idx = np.flatnonzero(tiers == a)
            self.tier_slices[int(a)] = slice(int(idx[0]), int(idx[-1]) + 1)
        self.spec = {}
        pmfs = {}
        for key in outcomes.samples:
            rows, wt = _weights(outcomes, weights, key)
            total = wt.sum()
            self.spec[key] = wt[rows[:, 2] == 0].sum() / total  # SPECIAL-10 for team 0
            keep = rows[:, 2] < 0
            pmf = _split(rows[keep, 0], rows[keep, 1], wt[keep] / total, r, self.m_lo, w)
            # correlation as a convolution: the kernel flipped
            pmfs[key] = np.ascontiguousarray(pmf[::-1, ::-1], dtype=np.float32)
        with _executor(self.workers) as pool:
            ffts = pool.map(lambda k: _fft_padded(pmfs[k], self.N), list(pmfs))
        self.G = dict(zip(pmfs, ffts, strict=True))
        s = low + r * (np.arange(self.N) - self.m_lo)  # the score of each extended cell
        end = game_outcomes(s[:, None], s[None, :], target)  # GAME-1, sim.finished's rule
        self.term = end != GAME_ON  #: the extended cells where the game has ended or tied
        self.term_win = (end == 0).astype(np.float32)
        self.term_tie = end == GAME_TIED

    def blocks(self, layer):
        """(a, b, rows, cols) of the grid: the pairs of opening tiers in force at ``layer``."""
        if self.layers[layer] is None:
            return [
                (a, b, ra, cb)
                for a, ra in self.tier_slices.items()
                for b, cb in self.tier_slices.items()
            ]
        k = self.layers[layer]
        return [(k, k, slice(0, self.n), slice(0, self.n))]

    def extend(self, v: np.ndarray | None, tie: float | None) -> np.ndarray:
        """The extended table of ``v`` (None: zeros), its terminal cells zero (``tie`` None)
        or GAME-1's values (won, lost, ``tie``) with ``v`` None."""
        n, lo = self.n, self.m_lo
        if v is None:
            e = self.term_win.copy()
            e[self.term_tie] = tie
            return e
        e = np.zeros((self.N, self.N), dtype=np.float32)
        e[: lo + n + self.m_hi, : lo + n + self.m_hi] = np.pad(
            v.astype(np.float32), ((lo, self.m_hi), (lo, self.m_hi)), mode="edge"
        )
        e[self.term] = 0
        return e

    def apply(self, e: np.ndarray, t: int, layer: int, out: np.ndarray, used=None) -> None:
        """``out[block] = sum over outcomes p(o) e[s + o]`` for the hands of team ``t``
        playing first, block by block (its pair of opening minima). ``used``: ``e`` is zero
        past its first ``used`` rows and columns (the grid's, not its terminal cells)."""
        k = self.N if used is None else used
        f = _fft_padded(e[:k, :k], self.N)
        off = self.m_lo + self.m_hi

        def block(item):
            a, b, rows, cols = item
            x = np.fft.ifft(f * self.G[(a, b, t)], axis=0)[rows.start + off : rows.stop + off]
            y = np.fft.irfft(x, n=self.N, axis=1)
            out[rows, cols] = y[:, cols.start + off : cols.stop + off]

        with _executor(self.workers) as pool:
            list(pool.map(block, self.blocks(layer)))

    def special(self, t: int, layer: int) -> np.ndarray:
        """Team 0's chance of a game-winning hand (SPECIAL-10) at each cell, ``t`` first."""
        out = np.zeros((self.n, self.n))
        for a, b, rows, cols in self.blocks(layer):
            out[rows, cols] = self.spec[(a, b, t)]
        return out


def _split(d0, d1, w, r, m_lo, width) -> np.ndarray:
    """The outcomes' distribution on the grid's offsets (``[o0 + m_lo, o1 + m_lo]``), an
    outcome between two grid offsets split between them in proportion (bilinear)."""
    u0, u1 = d0 / r, d1 / r
    f0, f1 = np.floor(u0), np.floor(u1)
    a0, a1 = u0 - f0, u1 - f1
    i0, i1 = f0.astype(np.int64) + m_lo, f1.astype(np.int64) + m_lo
    out = np.zeros(width * width)
    for di, wa in ((0, 1 - a0), (1, a0)):
        for dj, wb in ((0, 1 - a1), (1, a1)):
            idx = (i0 + di) * width + (i1 + dj)
            out += np.bincount(idx, weights=w * wa * wb, minlength=width * width)
    return out.reshape(width, width)


#: a product this small against the norms of its vectors is a breakdown of BiCGSTAB (a division
#: by about zero); far below anything a well-posed step gives, so it never moves a normal solve
BREAKDOWN = 64 * np.finfo(np.float64).eps
MAX_RESTARTS = 20  #: restarts after a breakdown before the solve stops where it is


def _breaks(dot: float, u: np.ndarray, w: np.ndarray) -> bool:
    """Is ``dot`` (``u @ w``) about zero against the vectors' norms (or not a number)?"""
    scale = float(np.linalg.norm(u)) * float(np.linalg.norm(w))
    return not np.isfinite(dot) or abs(dot) <= BREAKDOWN * scale


def bicgstab(op, b, x0, tol=1e-7, maxiter=300):
    """Solve ``op(x) = b`` by BiCGSTAB (van der Vorst 1992); returns (x, iterations, the
    final relative residual).

    Guarded against breakdown (a division by about zero, ``BREAKDOWN``): when the shadow
    residual is orthogonal to the residual or to ``op(p)``, the method restarts from the
    current ``x`` with the shadow residual ``r + op(r)`` or ``r + op(p)`` (not orthogonal to
    either where the operator is not skew); where no stabilising step can be taken
    (``omega`` zero) the BiCG half step is kept if it lowers the residual, then the method
    restarts, else it stops. It stops too after ``MAX_RESTARTS`` restarts. A stopped solve
    returns a finite ``x`` and the residual it reached, never a division by zero."""
    x = x0.copy()
    r = b - op(x)
    bnorm = float(np.linalg.norm(b)) or 1.0
    res = float(np.linalg.norm(r)) / bnorm
    rhat = r.copy()
    rho = alpha = omega = 1.0
    v = np.zeros_like(b)
    p = np.zeros_like(b)
    it = restarts = 0
    while res > tol and it < maxiter and restarts <= MAX_RESTARTS:
        it += 1
        rho_new = float(rhat @ r)
        if _breaks(rho_new, rhat, r):
            rhat, rho, alpha, omega = r + op(r), 1.0, 1.0, 1.0
            v, p = np.zeros_like(b), np.zeros_like(b)
            restarts += 1
            continue
        beta = (rho_new / rho) * (alpha / omega)
        p = r + beta * (p - omega * v)
        v = op(p)
        rv = float(rhat @ v)
        if _breaks(rv, rhat, v):
            rhat, rho, alpha, omega = r + v, 1.0, 1.0, 1.0
            v, p = np.zeros_like(b), np.zeros_like(b)
            restarts += 1
            continue
        alpha = rho_new / rv
        s = r - alpha * v
        if float(np.linalg.norm(s)) / bnorm <= tol:
            x += alpha * p
            r = s
            res = float(np.linalg.norm(r)) / bnorm
            break
        tt = op(s)
        tts = float(tt @ tt)
        omega = float(tt @ s) / tts if tts > 0 else 0.0
        if omega == 0.0:  # no stabilising step: the BiCG half step alone, if it helps
            if float(np.linalg.norm(s)) >= float(np.linalg.norm(r)):
                break  # no progress this way: stop with the residual reached
            x += alpha * p
            r = s
            rhat, rho, alpha, omega = r.copy(), 1.0, 1.0, 1.0
            v, p = np.zeros_like(b), np.zeros_like(b)
            res = float(np.linalg.norm(r)) / bnorm
            restarts += 1
            continue
        x += alpha * p + omega * s
        r = s - omega * tt
        rho = rho_new
        res = float(np.linalg.norm(r)) / bnorm
    return x, it, res


def solve_layers(grid: Grid, vtie: np.ndarray, mirrored: bool, guess=None):
    """Every layer's table: the last (stationary: its hands follow each other) solved, each
    earlier one a single hand before the next. ``mirrored``: team 1 first is the mirror
    image of team 0 first (one policy for both teams), ``V[1] = 1 - V[0]^T``, and only
    ``V[0]`` is solved. ``guess``: a starting table (float[2, n, n]). Returns
    float32[layers, 2, n, n] and a report (iterations, residuals)."""
    n = grid.n
    last = len(grid.layers) - 1
    shape = (n, n)

    def product(v, t, layer, tie=None):
        """Sum over the outcomes of a hand with team t first of the next table v (team
        1 - t first next): its linear part (tie None) or GAME-1's terminal values (v None)."""
        out = np.zeros(shape)
        # a table past the grid is zero (its terminal cells come with v None): FFT the rest
        used = None if v is None else grid.m_lo + n
        grid.apply(grid.extend(v, tie), t, layer, out, used)
        return out

    def whole(v, t, layer):
        """The table before a hand with team t first, v the table after it."""
        out = product(v, t, layer) + product(None, t, layer, vtie[min(layer + 1, last), 1 - t])
        return out + grid.special(t, layer)

    ts = (0,) if mirrored else (0, 1)
    if mirrored:  # V0 = P0(1 - V0^T) + terminal + special: (I + P0 T) V0 = P0(1) + ...
        rhs = (whole(np.ones(shape), 0, last)).ravel()

        def op(x):
            v0 = x.reshape(shape)
            return (v0 + product(np.ascontiguousarray(v0.T), 0, last)).ravel()

    else:
        rhs = np.concatenate([whole(np.zeros(shape), t, last).ravel() for t in ts])

        def op(x):
            v0, v1 = x[: n * n].reshape(shape), x[n * n :].reshape(shape)
            a0 = v0 - product(v1, 0, last)
            a1 = v1 - product(v0, 1, last)
            return np.concatenate([a0.ravel(), a1.ravel()])

    if guess is None:
        x0 = np.full(len(ts) * n * n, 0.5)
    else:
        x0 = np.concatenate([np.asarray(guess[t], dtype=np.float64).ravel() for t in ts])
    x, it, res = bicgstab(op, rhs, x0)
    report = {
        "iterations": it,
        "relative_residual": res,
        "max_abs_residual": float(np.abs(op(x) - rhs).max()),
    }
    values = np.zeros((len(grid.layers), 2, n, n), dtype=np.float32)
    for t in ts:
        values[last, t] = x[t * n * n : (t + 1) * n * n].reshape(shape)
    for layer in range(last, -1, -1):  # OPEN-1 by hand: hand k, then hand k + 1
        if layer < last:
            for t in ts:
                values[layer, t] = whole(values[layer + 1, 1 - t].astype(np.float64), t, layer)
        if mirrored:
            values[layer, 1] = 1 - values[layer, 0].T
    np.clip(values, 0, 1, out=values)
    return values, report
