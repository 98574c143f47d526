"""``observe`` against its loops (issue 12, seventh pass), in one process.

    .venv/bin/python benchmarks/bench_observe.py [--hands 30] [--rounds 15]

Times ``sim.engine.observe.observe`` (its blocks of words copied by ``copy_words``, one
``memcpy`` each) against ``observe_loops`` below, the same observation copied word by word
as it was before (kept here as the 'before' of the measurement; ``observe_table`` is the
tested oracle), on the states of real heuristic hands (seed 9), a sample of them small
enough to stay in cache as the hand loop's one state does: ns an observation, best of
``--rounds`` alternating rounds.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()

    import numpy as np
    from bench_decisions import collect
    from numba import njit

    from sim import encoding as E
    from sim.engine.observe import _observe_seat, observe

    @njit(_nrt=False)
    def observe_loops(st, p, obs):
        obs[E.OB_PHASE] = st[E.ST_PHASE]
        obs[E.OB_TURN] = st[E.ST_TURN]
        obs[E.OB_STOCK_N] = st[E.ST_STOCK_N]
        obs[E.OB_PILE_N] = st[E.ST_PILE_N]
        obs[E.OB_TURN_CARD_DRAWN] = st[E.ST_TURN_CARD_DRAWN]
        obs[E.OB_DREW_STOCK] = st[E.ST_DREW_STOCK]
        obs[E.OB_TOOK_PILE] = st[E.ST_TOOK_PILE]
        obs[E.OB_OPENING_TURN] = st[E.ST_OPENING_TURN]
        obs[E.OB_PILE_KIND] = st[E.ST_PILE_KIND]
        obs[E.OB_MELDED] = st[E.ST_MELDED]
        for j in range(E.N_KINDS):
            obs[E.OB_PILE_COUNTS + j] = st[E.ST_PILE_COUNTS + j]
            obs[E.OB_DISCARDS + j] = st[E.ST_DISCARDS + j]
            obs[E.OB_ASIDE + j] = st[E.ST_ASIDE + j]
        for j in range(E.N_KINDS * E.N_MELD_COLS):
            obs[E.OB_PENDING + j] = st[E.ST_PENDING + j]
        _observe_seat(st, p, obs)

    @njit
    def timed(sts, obs, reps, loops):
        s = 0
        for _ in range(reps):
            for i in range(sts.shape[0]):
                if loops:
                    observe_loops(sts[i], sts[i, E.ST_PLAYER], obs)
                else:
                    observe(sts[i], sts[i, E.ST_PLAYER], obs)
                s += obs[E.OB_HAND + 5]
        return s

    steps = []
    collect(("heuristic", "heuristic"), args.hands, steps)
    sts = np.array([s for s, _ in steps])[::40].copy()  # ~80 states: in cache
    obs, obs2 = np.zeros(E.OBS_SIZE, dtype=np.int64), np.zeros(E.OBS_SIZE, dtype=np.int64)
    for i in range(len(sts)):  # the same words
        observe(sts[i], sts[i, E.ST_PLAYER], obs)
        observe_loops(sts[i], sts[i, E.ST_PLAYER], obs2)
        assert (obs == obs2).all()
    reps = 2000
    best = [float("inf"), float("inf")]
    for _ in range(args.rounds):
        for loops in (0, 1):
            t = time.process_time()
            timed(sts, obs, reps, loops)
            best[loops] = min(best[loops], (time.process_time() - t) / reps / len(sts) * 1e9)
    n = len(sts)
    print(f"observe {best[0]:.1f} ns an observation; the loops {best[1]:.1f} ns ({n} states)")


if __name__ == "__main__":
    main()
