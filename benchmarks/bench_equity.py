"""The equity table (analysis.equity): build time, cached query time, interval width, the
first numbers, and the solver against whole games.

    .venv/bin/python benchmarks/bench_equity.py [--n 40000] [--jobs 2] [--truth-games 2000]

Builds the default table (strongest fast policy against itself, tournament rules, 10-point
grid) into a fresh temporary cache after a warm-up that compiles the kernels, so the build
time is warm; then times a query through ``equity_table`` from the cache (load and value, in
this process, median of 20); reports the widest 95% interval over the grid (every cell, both
first teams) and over the printed region (-2,000 up); the costs of crossing 3,000 and 5,000
(2,990 against 3,010 and 4,990 against 5,010), what 100 points are worth at each score, the
advantage of playing first, each with its paired bootstrap SE; and, with ``--truth-games``,
the table against that many whole games from each of 24 start states.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analysis.equity import equity_table  # noqa: E402
from analysis.equity_numbers import TRUTH_STATES  # noqa: E402
from sim import simulate_games  # noqa: E402


def pct(x: float) -> str:
    return f"{100 * x:+.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=40_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", default=None, help="reuse a cache (default: a fresh one)")
    ap.add_argument("--truth-games", type=int, default=0)
    a = ap.parse_args()
    simulate_games(2, ["strong"], max_hands=1)  # warm: the kernels are compiled or loaded
    cache = Path(a.cache) if a.cache else Path(tempfile.mkdtemp(prefix="equity-bench-"))
    t = time.perf_counter()
    table = equity_table(n=a.n, seed=a.seed, n_jobs=a.jobs, cache=cache)
    build = time.perf_counter() - t
    print(
        f"build: {build:.1f} s wall (n={a.n:,} hands per pair of minima, jobs={a.jobs}); parts "
        + ", ".join(f"{k} {v:.1f} s" for k, v in table.meta["seconds"].items())
    )
    print(f"solver: {table.meta['solver']}")
    times = []
    for i in range(20):
        t = time.perf_counter()
        again = equity_table(n=a.n, seed=a.seed, n_jobs=a.jobs, cache=cache)
        again.value(1000 + 10 * i, 2000)
        times.append(time.perf_counter() - t)
    print(
        f"cached query (load + value): median {1000 * np.median(times):.1f} ms, "
        f"max {1000 * max(times):.1f} ms"
    )
    z = 1.959963984540054
    se = np.asarray(table.se, dtype=np.float64)
    r = int(table.meta["boot_resolution"])
    lo = (-2000 - table.low) // r
    print(
        f"widest 95% half-interval: whole grid {100 * z * se.max():.2f} pp, "
        f"from -2,000 up {100 * z * se[:, :, lo:, lo:].max():.2f} pp"
    )

    print(
        "\ncrossing a threshold (team 0's chance at the lower score minus at the higher; "
        "team 0 to play first / team 1 first), percentage points +- SE:"
    )
    for low_, high_ in ((2990, 3010), (4990, 5010)):
        for opp in (0, 2000, 3000, 5000, 7000, 8000):
            cells = []
            for first in (0, 1):
                d = table.difference((low_, opp), (high_, opp), first=first)
                cells.append(f"{pct(d['difference'])} +- {100 * d['se']:.2f}")
            print(f"  {low_:>5} vs {high_:>5}, opponent {opp:>5}: " + " / ".join(cells))

    print("\n100 points (team 0's chance at s + 100 minus at s, opponent at o, team 0 first):")
    opps = (0, 3000, 5000, 8000)
    print("      s  " + "  ".join(f"o={o:>5}" for o in opps))
    for s in (-3000, -1000, 0, 1000, 2000, 2800, 3000, 4000, 4800, 5000, 6000, 7000, 8000, 8300):
        row = []
        for o in opps:
            d = table.difference((s + 100, o), (s, o), first=0)
            row.append(f"{pct(d['difference']):>7}")
        print(f"  {s:>5}  " + "  ".join(row))

    print("\nplaying first at equal scores (team 0's chance with team 0 first minus 0.5):")
    for s in (-2000, 0, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 8400):
        v = table.value(s, s, first=0)
        print(f"  {s:>5}-{s:<5} {pct(v['win_team0'] - 0.5)} +- {100 * v['se']:.2f}")

    if a.truth_games:
        print(f"\ntable against {a.truth_games:,} whole games from each start (seed 4747):")
        print("  team0  team1 seat   table  (SE)     games  (SE)      z")
        zs = []
        for s0, s1, seat in TRUTH_STATES:
            v = table.value(s0, s1, first=seat % 2)
            df = simulate_games(
                a.truth_games,
                ["strong"],
                seed=4747,
                scores=(s0, s1),
                first_player=seat,
                n_jobs=a.jobs,
            )
            p = float((df["winner"] == 0).mean())
            sp = np.sqrt(p * (1 - p) / len(df))
            zz = (p - v["win_team0"]) / np.sqrt(v["se"] ** 2 + sp**2)
            zs.append(zz)
            print(
                f"  {s0:>5}  {s1:>5}  {seat}   {v['win_team0']:.4f} ({v['se']:.4f})  "
                f"{p:.4f} ({sp:.4f})  {zz:+.2f}"
            )
        print(
            f"  max |z| {max(abs(x) for x in zs):.2f}; within 3 SE: "
            f"{sum(abs(x) < 3 for x in zs)} of {len(zs)}"
        )


if __name__ == "__main__":
    main()
