"""The style table of the ``game_strong`` policy (``sim/policies/data/game_strong.json``),
derived from measured hands read through the equity table (docs/policies.md, "Playing for the
game").

For each style of the file (style 0: strong; the others bias strong's evaluator toward or away
from starting a sevens, aces or wild meld and taking the pile) and each pair of opening minima
(OPEN-1: one start score in each tier, as ``analysis.equity.measure_outcomes``), ``n`` hands
are played with the style's team against strong (``game_strong:style=k+1`` as team 0, a target
no hand reaches, so a hand's outcome is its points and a game-winning hand, SPECIAL-10). Every
style plays the same deals (the same seed), so the styles' outcomes are paired by deal. Each
outcome is read through the default equity table (``analysis.equity.equity_table``: strong
against strong, the next hand opened by the other team; ``after_hand``) from every cell of the
grid (own score x the opponents', every 100 points from -2,000, each cell with that pair of
minima), giving the style team's chance of winning the game after the hand. The default style
is the one of the highest gain over style 0 averaged over every cell; then ``select``
(:data:`RULES`):

- ``cells``: a cell plays another style where its gain exceeds the default's by more than
  ``margin`` standard errors;
- ``tiers``: each OPEN-1 tier pair (own tier x the opponents') plays the style of the highest
  gain pooled over its cells, where that beats the default's by the margin (the shipped
  table: ``select="tiers"``, ``margin=0``);
- ``shape``: each cell plays the start-bias style nearest ``base + k x bend``, the bend of
  the equity curve over a +/-2,500 gamble of own points (SCORE-2) at the cell, (base, k)
  fitted to the measured gains.

One step of policy improvement over strong: the table's values are strong's for the hands
after. :func:`derive_table` returns the file's contents; ``benchmarks/bench_game_bot.py
derive`` writes them.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import time
from pathlib import Path

import numpy as np
from numba import njit

from sim.finished import GAME_TIED, game_outcome

__all__ = [
    "GAMBLE",
    "RULES",
    "bend",
    "cell_sums",
    "choose",
    "choose_shape",
    "choose_tiers",
    "derive_table",
    "measure_gains",
]

GAMBLE = 2500  #: SCORE-2: a sevens or aces canasta's bonus, and an unfinished one's penalty
RULES = {
    "cells": "default: the style of the highest mean gain over style 0 across all cells; a "
    "cell plays another style whose gain exceeds the default's by more than margin_se x (the "
    "sum of their standard errors)",
    "tiers": "default: the style of the highest mean gain over style 0 across all cells; each "
    "OPEN-1 tier pair (own x opponents') plays the style of the highest gain pooled over its "
    "cells among those exceeding the default's pooled gain by more than margin_se x (the sum "
    "of their pooled standard errors), else the default",
    "shape": "each cell plays the start-bias style nearest base + k x the equity curve's bend "
    "there (bend: [E(s+2500) + E(s-2500) - 2 E(s)] / [E(s+2500) - E(s-2500)], own points s, "
    "the equity table after a hand), base and k the pair of highest mean gain over every cell",
}


def _tier(score: int) -> int:
    """OPEN-1: the opening tier of a team's score (0: below the first threshold)."""
    from sim.legality.opening import OPEN_THRESHOLDS

    return sum(score >= t for t in OPEN_THRESHOLDS)


# Compiled on each run (not cached): numba's cache would not see an edit of
# ``sim.finished.game_outcome``, which it inlines.
@njit(cache=False)
def _after(V, tie, low, res, target, s0, s1, d0, d1, w, nf):
    """Team 0's chance of winning after a hand, one value: ``analysis.equity.after_hand``'s
    reading (SPECIAL-10's winner ``w``, then GAME-1 by ``game_outcome``, then the table),
    which tests/test_game_bot.py checks it against."""
    if w >= 0:
        return 1.0 if w == 0 else 0.0
    end = game_outcome(s0 + d0, s1 + d1, target)
    if end == 0 or end == 1:
        return 1.0 if end == 0 else 0.0
    if end == GAME_TIED:
        return tie[nf]
    n = V.shape[-1]
    i = min(max((s0 + d0 - low) // res, 0), n - 1)
    j = min(max((s1 + d1 - low) // res, 0), n - 1)
    return V[nf, i, j]


@njit(cache=False)
def cell_sums(V, tie, low, res, target, S0, S1, base, alt, nf):
    """For every cell (S0[i], S1[j]): the sums of the paired difference (alt's chance minus
    base's) and of its square over the hands given (rows: d0, d1, winner; only the hands
    whose outcomes differ need be given: the others add 0)."""
    out = np.zeros((S0.size, S1.size, 2))
    for i in range(S0.size):
        for j in range(S1.size):
            s0, s1 = S0[i], S1[j]
            b = c = 0.0
            for h in range(base.shape[0]):
                r, q = base[h], alt[h]
                d = _after(V, tie, low, res, target, s0, s1, q[0], q[1], q[2], nf[h])
                d -= _after(V, tie, low, res, target, s0, s1, r[0], r[1], r[2], nf[h])
                b += d
                c += d * d
            out[i, j, 0], out[i, j, 1] = b, c
    return out


def _hands(style: int, pair: tuple, n: int, seed: int, jobs: int):
    """int64[n, 3] (team 0's points, team 1's, the game-winning team or -1) and the next
    hand's first team, of ``n`` hands of style ``style`` against strong from one start score
    of each tier of ``pair``."""
    from sim.api import simulate_games
    from sim.legality.opening import OPEN_THRESHOLDS
    from sim.limits import MAX_SCORE
    from sim.ruleset import as_ruleset

    starts = (0, *OPEN_THRESHOLDS)
    s = (starts[pair[0]], starts[pair[1]])
    rules = dataclasses.replace(as_ruleset(None), target=MAX_SCORE)
    df = simulate_games(
        n,
        (f"game_strong:style={style + 1}", "strong"),
        seed=seed,
        ruleset=rules,
        scores=s,
        max_hands=1,
        n_jobs=jobs,
    ).sort_values("game_id")
    rows = np.column_stack([df.score_team0 - s[0], df.score_team1 - s[1], df.winner])
    first = (df.game_id.to_numpy() % 4) % 2  # DEAL-1: seat g % 4 opens game g's first hand
    return rows.astype(np.int64), (1 - first).astype(np.int64)


def measure_gains(
    styles: list, scores: np.ndarray, table, n: int, seed: int, jobs: int = 1, say=print
):
    """Per style, the paired gain over style 0 in the chance of winning after a hand, and its
    standard error, at every cell (own score x the opponents', ``scores``): float[2, styles,
    cells, cells]; and the share of hands each style changed, per pair of minima. ``say``:
    where progress lines go."""
    from sim.legality.opening import OPEN_THRESHOLDS

    V = np.asarray(table.values[0], dtype=np.float64)
    tie = np.asarray(table.meta["tie"], dtype=np.float64)
    k_tiers = len(OPEN_THRESHOLDS) + 1
    m = scores.size
    out = np.zeros((2, len(styles), m, m))
    changed = {}
    t0 = time.perf_counter()
    for p, pair in enumerate([(x, y) for x in range(k_tiers) for y in range(k_tiers)]):
        pair_seed = int(np.random.SeedSequence([seed, p]).generate_state(1)[0])
        S0 = scores[[_tier(s) == pair[0] for s in scores]]
        S1 = scores[[_tier(s) == pair[1] for s in scores]]
        i0 = np.flatnonzero([_tier(s) == pair[0] for s in scores])[:, None]
        i1 = np.flatnonzero([_tier(s) == pair[1] for s in scores])[None, :]
        base, nf = _hands(0, pair, n, pair_seed, jobs)
        for k in range(1, len(styles)):
            alt, _ = _hands(k, pair, n, pair_seed, jobs)
            x = np.any(alt != base, axis=1)  # the hands the style changed
            changed[f"{k} {pair}"] = round(float(x.mean()), 4)
            args = (table.low, table.resolution, table.target, S0, S1, base[x], alt[x], nf[x])
            sums = cell_sums(V, tie, *args)
            mean = sums[:, :, 0] / n
            out[0, k, i0, i1] = mean
            out[1, k, i0, i1] = np.sqrt(np.maximum(sums[:, :, 1] / n - mean**2, 0) / (n - 1))
            say(
                f"  {pair} style {k} {styles[k]['name']}: hands changed {x.mean():.3f}, mean "
                f"gain {100 * mean.mean():+.3f} pp"
            )
        say(f"pair {pair}: {time.perf_counter() - t0:.0f} s")
    return out, changed


def bend(table, scores: np.ndarray) -> np.ndarray:
    """Per cell (own score x the opponents'), the equity curve's bend over a gamble of
    +/-``GAMBLE`` of own points: [E(s+g) + E(s-g) - 2 E(s)] / [E(s+g) - E(s-g)], E the chance
    after the hand (``analysis.equity.after_hand``, either team next first, averaged):
    positive where the gamble is worth more in games than in points (convex), in [-1, 1]."""
    from analysis.equity import after_hand

    s0, s1 = (x.ravel() for x in np.meshgrid(scores, scores, indexing="ij"))
    none = np.full(s0.size, -1)

    def chance(d: int) -> np.ndarray:
        at = [after_hand(table, (s0, s1), f, np.full(s0.size, d), 0 * none, none) for f in (0, 1)]
        return np.mean(at, axis=0).reshape(scores.size, scores.size)

    up, down, here = chance(GAMBLE), chance(-GAMBLE), chance(0)
    return (up + down - 2 * here) / np.maximum(up - down, 1e-9)


def choose(gains: np.ndarray, margin: float) -> tuple[int, np.ndarray]:
    """The default style (the highest gain over style 0 averaged over every cell, 0 if none
    gains) and each cell's style: the default, unless another style's gain exceeds the
    default's by more than ``margin`` times the sum of their standard errors (a conservative
    bound of the paired difference's), then the best such style."""
    mean, se = gains
    pooled = mean.reshape(mean.shape[0], -1).mean(axis=1)
    default = int(np.argmax(pooled)) if pooled.max() > 0 else 0
    d_mean, d_se = mean[default], se[default]
    cells = np.full(mean.shape[1:], default, dtype=np.int64)
    best = d_mean.copy()
    for k in range(mean.shape[0]):
        ok = (mean[k] - d_mean > margin * (se[k] + d_se)) & (mean[k] > best)
        cells[ok] = k
        best[ok] = mean[k][ok]
    return default, cells


def choose_tiers(gains: np.ndarray, margin: float, scores: np.ndarray) -> tuple[int, np.ndarray]:
    """The default style (as :func:`choose`) and each OPEN-1 tier pair's style (own tier x
    the opponents'; each pair is measured on hands of its own): the style whose gain, pooled
    over the pair's cells, is highest among those exceeding the default's pooled gain by more
    than ``margin`` times the sum of their pooled standard errors, else the default. Pooling
    a region spends the hands of all its cells on one choice, where ``choose`` spends them on
    each cell."""
    mean, se = gains
    default, _ = choose(gains, margin)
    t = np.array([_tier(s) for s in scores])
    cells = np.full(mean.shape[1:], default, dtype=np.int64)
    for x in np.unique(t):
        for y in np.unique(t):
            region = np.ix_(t == x, t == y)
            m = np.array([mean[k][region].mean() for k in range(mean.shape[0])])
            e = np.array([se[k][region].mean() for k in range(mean.shape[0])])
            ok = m - m[default] > margin * (e + e[default])
            if ok.any():
                cells[region] = int(np.flatnonzero(ok)[np.argmax(m[ok])])
    return default, cells


def choose_shape(
    gains: np.ndarray, styles: list, shape: np.ndarray
) -> tuple[int, np.ndarray, dict]:
    """The default style (as :func:`choose`) and each cell's start-bias style (those with no
    take bias): the one nearest ``base + k x shape`` at the cell, (base, k) on a grid (base
    -300..1,000 by 50, k -2,000..2,000 by 100) chosen for the highest mean gain over every
    cell."""
    mean, _ = gains
    ks = np.array([i for i, x in enumerate(styles) if x["take_bias"] == 0])
    bias = np.array([styles[i]["start_bias"] for i in ks], dtype=float)
    best = (-np.inf, 0, 0, None)
    for base in range(-300, 1001, 50):
        for k in range(-2000, 2001, 100):
            near = ks[np.abs(base + k * shape[..., None] - bias).argmin(axis=-1)]
            m = float(np.take_along_axis(mean, near[None], 0).mean())
            if m > best[0]:
                best = (m, base, k, near)
    default, _ = choose(gains, 0.0)
    return default, best[3].astype(np.int64), {"base": best[1], "k": best[2]}


def derive_table(
    base: dict | None = None,
    n: int = 40_000,
    seed: int = 4700,
    jobs: int = 1,
    select: str = "cells",
    margin: float = 2.0,
    gains_file: str | Path | None = None,
    command: str = "",
    say=print,
) -> dict:
    """The contents of ``game_strong.json``: ``base``'s styles and grid (default: the shipped
    file's; the policy plays the shipped styles, so another set is refused), each cell's
    style chosen by ``select`` (:data:`RULES`) with ``margin`` standard errors from ``n`` hands
    per pair of minima and style (seed ``seed``, ``jobs`` workers), and a record of how
    (``command``: the command line that asked). ``gains_file``: an ``.npz`` keeping the
    measured gains, read if it exists (only the selection is redone), else written."""
    from analysis.equity import equity_table
    from sim.errors import CanastaError
    from sim.policies.game_strong import load_data, shipped_data

    if select not in RULES:
        raise CanastaError(f"select {select!r}: one of {', '.join(sorted(RULES))}")
    shipped = shipped_data()
    data = shipped if base is None else load_data(base, "the base table")
    styles = data["styles"]
    if styles != shipped["styles"]:
        raise CanastaError(
            "the base table's styles differ from the shipped file's, which the policy plays"
        )
    grid = data["grid"]
    low, step, m = grid["low"], grid["step"], grid["n"]
    t0 = time.perf_counter()
    table = equity_table(n_jobs=jobs)
    scores = low + step * np.arange(m)
    saved = Path(gains_file) if gains_file else None
    if saved and saved.exists():  # the measured gains of an earlier run with these settings
        z = np.load(saved, allow_pickle=False)
        gains, changed = z["gains"], json.loads(str(z["changed"]))
    else:
        gains, changed = measure_gains(styles, scores, table, n, seed, jobs, say)
        if saved:
            np.savez(saved, gains=gains, changed=json.dumps(changed))
    fit = {}
    if select == "tiers":
        default, cells = choose_tiers(gains, margin, scores)
    elif select == "shape":
        default, cells, fit = choose_shape(gains, styles, bend(table, scores))
    else:
        default, cells = choose(gains, margin)
    idx = np.arange(m)
    gain = gains[0][cells, idx[:, None], idx[None, :]]
    counts = np.bincount(cells.ravel(), minlength=len(styles))
    pooled = gains[0].reshape(len(styles), -1).mean(axis=1)
    return {
        **{k: v for k, v in data.items() if k not in ("cells", "note", "derivation")},
        "target": table.target,
        "derivation": {
            "command": command,
            "date": datetime.date.today().isoformat(),
            "seed": seed,
            "hands_per_pair_and_style": n,
            "rule": RULES[select],
            "margin_se": margin,
            **({"fit": fit} if fit else {}),
            "default_style": default,
            "pooled_gain_by_style": [round(float(x), 6) for x in pooled],
            "seconds": round(time.perf_counter() - t0),
            "equity_table": {
                "policies": table.meta["policy_labels"],
                "n": table.meta["n"],
                "seed": table.meta["seed"],
                "key": table.path.name if table.path else None,
            },
            "cells_by_style": counts.tolist(),
            "mean_gain_over_strong": round(float(gain.mean()), 6),
            "hands_changed": changed,
        },
        "cells": cells.tolist(),
    }
