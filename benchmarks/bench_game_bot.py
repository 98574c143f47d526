"""The game-aware bot (``game_strong``): derive its table, and measure it in whole games.

    .venv/bin/python benchmarks/bench_game_bot.py derive [--n 40000] [--seed 4700] [--jobs 2]
    .venv/bin/python benchmarks/bench_game_bot.py measure [--pairs 20000] [--seed 4701]
        [--jobs 2] [--where 4000]

**derive** writes ``sim/policies/data/game_strong.json`` (``--out`` elsewhere): the table
``analysis.game_styles.derive_table`` derives (its docstring says how), from ``--n`` hands per
pair of opening minima and style, the selection rule ``--select`` (``cells``, ``tiers``: the
shipped table, with ``--margin 0``; ``shape``) and ``--margin`` standard errors. ``--base``
must keep the shipped file's styles (the policy plays those).

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
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analysis import intervals as iv  # noqa: E402
from analysis.game_styles import RULES, derive_table  # noqa: E402
from sim import simulate_games  # noqa: E402
from sim.errors import CanastaError  # noqa: E402

DATA = ROOT / "sim" / "policies" / "data" / "game_strong.json"
BANDS = (3000, 5000, 7000)  #: the score bands of the "where" table


def derive(a) -> None:
    base = json.loads(Path(a.base).read_text())
    try:
        data = derive_table(
            base,
            n=a.n,
            seed=a.seed,
            jobs=a.jobs,
            select=a.select,
            margin=a.margin,
            gains_file=a.gains or None,
            command="benchmarks/bench_game_bot.py derive " + " ".join(sys.argv[2:]),
            say=lambda line: print(line, flush=True),
        )
    except CanastaError as exc:
        sys.exit(f"{a.base}: {exc}")
    Path(a.out).write_text(json.dumps(data, separators=(",", ":")) + "\n")
    d = data["derivation"]
    name = data["styles"][d["default_style"]]["name"]
    print(
        f"wrote {a.out}: default style {d['default_style']} ({name}), cells by style "
        f"{d['cells_by_style']}, mean gain over strong {100 * d['mean_gain_over_strong']:.3f} pp"
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
