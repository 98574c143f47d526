"""The game-aware bot (``game_strong``): derive its table, and measure it in whole games.

    .venv/bin/python benchmarks/bench_game_bot.py derive [--n 40000] [--seed 4700] [--jobs 2]
    .venv/bin/python benchmarks/bench_game_bot.py measure [--pairs 20000] [--seed 4701]
        [--jobs 2] [--where 4000]

**derive** writes ``sim/policies/data/game_strong.json`` (``--out`` elsewhere). For each
style of the file (style 0: strong; the others bias strong's evaluator toward or away from
starting a sevens, aces or wild meld and taking the pile) and each pair of opening minima
(OPEN-1: one start score in each tier, as ``analysis.equity.measure_outcomes``), ``--n`` hands
are played with the style's team against strong (``game_strong:style=k+1`` as team 0, a target
no hand reaches, so a hand's outcome is its points and a game-winning hand, SPECIAL-10). Every
style plays the same deals (the same seed), so the styles' outcomes are paired by deal. Each
outcome is read through the default equity table (``analysis.equity.equity_table``: strong
against strong, the next hand opened by the other team) from every cell of the grid (own
score x the opponents', every 100 points from -2,000, each cell with that pair of minima),
giving the style team's chance of winning the game after the hand. The default style is the
one of the highest gain over style 0 averaged over every cell; then ``--select``:

- ``cells`` (default): a cell plays another style where its gain exceeds the default's by
  more than ``--margin`` standard errors (2 by default);
- ``tiers``: each OPEN-1 tier pair (own tier x the opponents') plays the style of the highest
  gain pooled over its cells, where that beats the default's by the margin (the shipped
  table: ``--select tiers --margin 0``);
- ``shape``: each cell plays the start-bias style nearest ``base + k x bend``, the bend of
  the equity curve over a +/-2,500 gamble of own points (SCORE-2) at the cell, (base, k)
  fitted to the measured gains.

One step of policy improvement over strong: the table's values are strong's for the hands
after. ``--base`` must keep the shipped file's styles (the policy plays those).

**measure** plays ``--pairs`` duplicate game pairs: game ``g`` with game_strong as team 0
against strong, and the same deals with the seats swapped; the bot's fraction of games won
minus strong's, per pair ``won(A) + won(B) - 1``, with its 95% interval (paired by game).
Where: the first ``--where`` pairs are also played by strong against strong on the same
deals, hand by hand (``max_hands``), and each game's first hand whose outcome differs from
strong's is found: the games' win differences are summed by the bot's and the opponents'
score band at the start of that hand (the decomposition adds up to the paired difference on
those pairs).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analysis import intervals as iv  # noqa: E402
from analysis.equity import equity_table  # noqa: E402
from sim import simulate_games  # noqa: E402
from sim.policies.game_strong import load_data  # noqa: E402

DATA = ROOT / "sim" / "policies" / "data" / "game_strong.json"
TIERS = (3000, 5000)  #: OPEN-1's score bands
BANDS = (3000, 5000, 7000)  #: the score bands of the "where" table


def tier(s: int) -> int:
    return sum(s >= t for t in TIERS)


@njit(cache=False)
def _after(V, tie, low, res, target, s0, s1, d0, d1, w, nf):
    """Team 0's chance of winning after a hand (``analysis.equity.after_hand``, one value)."""
    if w >= 0:
        return 1.0 if w == 0 else 0.0
    x0, x1 = s0 + d0, s1 + d1
    if max(x0, x1) >= target:
        if x0 > x1:
            return 1.0
        return tie[nf] if x0 == x1 else 0.0
    n = V.shape[-1]
    i = min(max((x0 - low) // res, 0), n - 1)
    j = min(max((x1 - low) // res, 0), n - 1)
    return V[nf, i, j]


@njit(cache=False)
def _cells(V, tie, low, res, target, S0, S1, base, alt, nf):
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
    import dataclasses

    from sim.limits import MAX_SCORE
    from sim.ruleset import as_ruleset

    starts = (0, *TIERS)
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


def _gains(a, styles, scores, table):
    """Per style, the paired gain over style 0 in the chance of winning after a hand, and its
    standard error, at every cell: float[2, styles, n, n]; and the share of hands each
    style changed, per pair of minima."""
    V = np.asarray(table.values[0], dtype=np.float64)
    tie = np.asarray(table.meta["tie"], dtype=np.float64)
    n = scores.size
    out = np.zeros((2, len(styles), n, n))
    changed = {}
    t0 = time.perf_counter()
    for p, pair in enumerate([(x, y) for x in range(3) for y in range(3)]):
        seed = int(np.random.SeedSequence([a.seed, p]).generate_state(1)[0])
        S0 = scores[[tier(s) == pair[0] for s in scores]]
        S1 = scores[[tier(s) == pair[1] for s in scores]]
        i0 = np.flatnonzero([tier(s) == pair[0] for s in scores])[:, None]
        i1 = np.flatnonzero([tier(s) == pair[1] for s in scores])[None, :]
        base, nf = _hands(0, pair, a.n, seed, a.jobs)
        for k in range(1, len(styles)):
            alt, _ = _hands(k, pair, a.n, seed, a.jobs)
            x = np.any(alt != base, axis=1)  # the hands the style changed
            changed[f"{k} {pair}"] = round(float(x.mean()), 4)
            args = (table.low, table.resolution, table.target, S0, S1, base[x], alt[x], nf[x])
            sums = _cells(V, tie, *args)
            mean = sums[:, :, 0] / a.n
            out[0, k, i0, i1] = mean
            out[1, k, i0, i1] = np.sqrt(np.maximum(sums[:, :, 1] / a.n - mean**2, 0) / (a.n - 1))
            print(
                f"  {pair} style {k} {styles[k]['name']}: hands changed {x.mean():.3f}, mean "
                f"gain {100 * mean.mean():+.3f} pp",
                flush=True,
            )
        print(f"pair {pair}: {time.perf_counter() - t0:.0f} s", flush=True)
    return out, changed


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
GAMBLE = 2500  #: SCORE-2: a sevens or aces canasta's bonus, and an unfinished one's penalty


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


def choose_shape(
    gains: np.ndarray, styles: list, shape: np.ndarray
) -> tuple[int, np.ndarray, dict]:
    """The default style (as ``choose``) and each cell's start-bias style (those with no take
    bias): the one nearest ``base + k x shape`` at the cell, (base, k) on a grid (base -300..
    1,000 by 50, k -2,000..2,000 by 100) chosen for the highest mean gain over every cell."""
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
    """The default style (as ``choose``) and each OPEN-1 tier pair's style (own tier x the
    opponents'; each pair is measured on hands of its own): the style whose gain, pooled over
    the pair's cells, is highest among those exceeding the default's pooled gain by more than
    ``margin`` times the sum of their pooled standard errors, else the default. Pooling a
    region spends the hands of all its cells on one choice, where ``choose`` spends them on
    each cell."""
    mean, se = gains
    default, _ = choose(gains, margin)
    t = np.array([tier(s) for s in scores])
    cells = np.full(mean.shape[1:], default, dtype=np.int64)
    for x in range(len(TIERS) + 1):
        for y in range(len(TIERS) + 1):
            region = np.ix_(t == x, t == y)
            m = np.array([mean[k][region].mean() for k in range(mean.shape[0])])
            e = np.array([se[k][region].mean() for k in range(mean.shape[0])])
            ok = m - m[default] > margin * (e + e[default])
            if ok.any():
                cells[region] = int(np.flatnonzero(ok)[np.argmax(m[ok])])
    return default, cells


def derive(a) -> None:
    data = load_data(json.loads(Path(a.base).read_text()))
    styles = data["styles"]
    if styles != load_data()["styles"]:  # the policy plays the shipped file's styles
        sys.exit(f"{a.base}: its styles differ from the shipped file's, which the bot plays")
    grid = data["grid"]
    low, step, n = grid["low"], grid["step"], grid["n"]
    t0 = time.perf_counter()
    table = equity_table(n_jobs=a.jobs)
    scores = low + step * np.arange(n)
    saved = Path(a.gains) if a.gains else None
    if saved and saved.exists():  # the measured gains of an earlier run with these settings
        z = np.load(saved, allow_pickle=False)
        gains, changed = z["gains"], json.loads(str(z["changed"]))
    else:
        gains, changed = _gains(a, styles, scores, table)
        if saved:
            np.savez(saved, gains=gains, changed=json.dumps(changed))
    fit = {}
    if a.select == "tiers":
        default, cells = choose_tiers(gains, a.margin, scores)
    elif a.select == "shape":
        default, cells, fit = choose_shape(gains, styles, bend(table, scores))
    else:
        default, cells = choose(gains, a.margin)
    idx = np.arange(n)
    gain = gains[0][cells, idx[:, None], idx[None, :]]
    counts = np.bincount(cells.ravel(), minlength=len(styles))
    pooled = gains[0].reshape(len(styles), -1).mean(axis=1)
    data = {
        **{k: v for k, v in data.items() if k not in ("cells", "note", "derivation")},
        "target": table.target,
        "derivation": {
            "command": "benchmarks/bench_game_bot.py derive " + " ".join(sys.argv[2:]),
            "date": datetime.date.today().isoformat(),
            "seed": a.seed,
            "hands_per_pair_and_style": a.n,
            "rule": RULES[a.select],
            "margin_se": a.margin,
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
    Path(a.out).write_text(json.dumps(data, separators=(",", ":")) + "\n")
    name = styles[default]["name"]
    print(
        f"wrote {a.out}: default style {default} ({name}), cells by style "
        f"{counts.tolist()}, mean gain over strong {100 * gain.mean():.3f} pp"
    )


def _band(s: int) -> int:
    return sum(s >= b for b in BANDS)


BAND_NAMES = ("<3000", "3000-4995", "5000-6995", ">=7000")


def _trace(n: int, pol: tuple, seed: int, jobs: int, hands: int) -> np.ndarray:
    """Both teams' scores after each of the first ``hands`` hands of games 0..n-1:
    int64[n, hands + 1, 2] (index 0: the start)."""
    out = np.zeros((n, hands + 1, 2), dtype=np.int64)
    for h in range(1, hands + 1):
        df = simulate_games(n, pol, seed=seed, max_hands=h, n_jobs=jobs).sort_values("game_id")
        out[:, h, 0], out[:, h, 1] = df.score_team0, df.score_team1
    return out


def measure(a) -> None:
    t0 = time.perf_counter()
    bot, vs = a.bot, a.versus
    A = simulate_games(a.pairs, (bot, vs), seed=a.seed, n_jobs=a.jobs)
    B = simulate_games(a.pairs, (vs, bot), seed=a.seed, n_jobs=a.jobs)
    A, B = A.sort_values("game_id"), B.sort_values("game_id")
    t1 = time.perf_counter()
    wA = (A.winner.to_numpy() == 0).astype(float)
    wB = (B.winner.to_numpy() == 1).astype(float)
    d = iv.mean(wA + wB - 1)
    p = iv.mean((wA + wB) / 2)
    errors = int(A.policy_errors.sum() + B.policy_errors.sum())
    print(
        f"{a.pairs:,} duplicate game pairs, seed {a.seed}: {t1 - t0:.0f} s wall, jobs {a.jobs}; "
        f"hands a game {A.hands.mean():.2f}; illegal proposals {errors}"
    )
    print(
        f"{bot} wins {100 * p.estimate:.2f}% of games [{100 * p.ci_low:.2f}, "
        f"{100 * p.ci_high:.2f}] against {vs}; minus {vs}'s: {100 * d.estimate:+.2f} pp "
        f"[{100 * d.ci_low:+.2f}, {100 * d.ci_high:+.2f}] (95%, paired by deal)"
    )
    if a.where <= 0:
        return
    w = min(a.where, a.pairs)
    S = simulate_games(w, (vs, vs), seed=a.seed, n_jobs=a.jobs).sort_values("game_id")
    hands = int(min(max(A.hands[:w].max(), B.hands[:w].max(), S.hands.max()), a.max_trace))
    tr = {
        k: _trace(w, pol, a.seed, a.jobs, hands)
        for k, pol in (("A", (bot, vs)), ("B", (vs, bot)), ("S", (vs, vs)))
    }
    sw0 = (S.winner.to_numpy() == 0).astype(float)
    total = np.zeros((4, 4))
    count = np.zeros((4, 4), dtype=np.int64)
    late = [0, 0.0]
    for side, bot, won, base in (("A", 0, wA[:w], sw0), ("B", 1, wB[:w], 1 - sw0)):
        diff = np.any(tr[side][:, 1:] != tr["S"][:, 1:], axis=2)  # [game, hand - 1]
        for g in range(w):
            hs = np.flatnonzero(diff[g])
            if hs.size == 0:
                if won[g] != base[g]:  # differs after the traced hands
                    late[0] += 1
                    late[1] += won[g] - base[g]
                continue
            start = tr["S"][g, hs[0]]  # the scores at the start of the first differing hand
            i, j = _band(start[bot]), _band(start[1 - bot])
            total[i, j] += won[g] - base[g]
            count[i, j] += 1
    print(
        f"\nwhere, {w:,} pairs ({time.perf_counter() - t1:.0f} s): games by the band of the "
        f"scores (bot's x opponents') at the start of their first hand that differs from "
        f"{vs} against {vs}; count, and the bot's games won minus {vs}'s there in pp of "
        "all games of those pairs:"
    )
    print("bot \\ opp    " + "".join(f"{b:>22}" for b in BAND_NAMES))
    for i in range(4):
        print(
            f"{BAND_NAMES[i]:>11}  "
            + "".join(f"{count[i, j]:>8} {100 * total[i, j] / w:+6.2f} pp   " for j in range(4))
        )
    print(f"differing after hand {hands}: {late[0]} games, {100 * late[1] / w:+.2f} pp")
    print(
        f"sum: {100 * (total.sum() + late[1]) / w:+.2f} pp (the paired difference on these "
        f"pairs: {100 * np.mean(wA[:w] + wB[:w] - 1):+.2f} pp)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("derive")
    d.add_argument("--n", type=int, default=40_000, help="hands per pair of minima and style")
    d.add_argument("--seed", type=int, default=4700)
    d.add_argument("--jobs", type=int, default=2)
    d.add_argument("--margin", type=float, default=2.0, help="standard errors a style must gain")
    d.add_argument(
        "--select",
        choices=sorted(RULES),
        default="cells",
        help="choose a style per cell, or per OPEN-1 tier pair (pooled)",
    )
    d.add_argument("--base", default=str(DATA), help="the file whose styles and grid to use")
    d.add_argument("--out", default=str(DATA))
    d.add_argument(
        "--gains",
        default="",
        help="an .npz keeping the measured gains: read if it "
        "exists (the selection alone is redone), else written",
    )
    m = sub.add_parser("measure")
    m.add_argument("--pairs", type=int, default=20_000)
    m.add_argument("--seed", type=int, default=4701)
    m.add_argument("--jobs", type=int, default=2)
    m.add_argument("--bot", default="game_strong", help="the policy measured")
    m.add_argument("--versus", default="strong", help="its opponent (and the where-baseline)")
    m.add_argument("--where", type=int, default=4000, help="pairs traced hand by hand")
    m.add_argument("--max-trace", type=int, default=40, help="most hands traced a game")
    a = ap.parse_args()
    derive(a) if a.cmd == "derive" else measure(a)


if __name__ == "__main__":
    main()
