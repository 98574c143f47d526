"""Inference in the search: expert_strong with inference (``infer=1``) against expert_strong with
the memory alone, at the same samples (the same time per decision: the likelihood costs one of
strong's decisions per determinization, against ~100 rollouts).

    .venv/bin/python benchmarks/bench_inference.py --deals 200 [--seed 56] [--samples 24]
        [--rollouts 2] [--truth 16] [--whole 0] [--temperature 50] [--epsilon 0.1]

1. **Per decision (paired, low noise).** Strong plays all four seats of each deal; at each
   decision of team 0 that expert_strong searches and where the previous opponent's discard is
   on the pile (the observed action inference reads), both searches run on the same
   determinizations and stock orders (common random numbers): with the weights and without.
   Logged: the effective sample size of the weights. Where they choose differently, both
   moves are valued from the *true* deal (the real hidden hands; the stock's order drawn
   ``--truth`` times, strong in every seat after): the gain of inference's move over the
   plain search's, in points of the hand for the deciding team. The true hands are a draw
   from the true posterior, so this value is unbiased. The best move by those same true-deal
   values, over the plain search's, is printed too: a "true cards" arm, but measured on the
   noisy values it picks from, so biased upward (not a ceiling to quote).
2. **The whole hand** (``--whole N``): ``expert_strong:infer=1`` against ``expert_strong`` on N
   duplicate deals (``analysis.compare``), slow (~2 searching teams).

Ruleset: the tournament rules (``Ruleset()``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim import encoding as E  # noqa: E402
from sim._views import copy_into  # noqa: E402
from sim.engine.contract import MODE_TRUSTED  # noqa: E402
from sim.engine.intercept import IC_KIND, IC_SIZE, IK_PAUSE, PAUSED, reset_intercept  # noqa: E402
from sim.engine.play import new_deck, resume_direct  # noqa: E402
from sim.engine.search import WORK_SIZE, reshuffle_stock  # noqa: E402
from sim.engine.state import apply_action, deal  # noqa: E402
from sim.policies.expert import (  # noqa: E402
    MAX_CANDIDATES,
    base_rollout,
    candidates,
    search_positions,
    search_weighted,
)
from sim.policies.inference import observed_discard  # noqa: E402
from sim.policies.strong import strong_decide  # noqa: E402
from sim.rng import seed_hand  # noqa: E402

#: per decision: deal, number of candidates, plain choice, inferred choice, truth's choice
ROW_COLUMNS = ("deal", "n", "plain", "inferred", "truth")
#: per decision: ESS, gain of the inferred move over the plain one from the true deal, and of
#: the truth's best move over the plain one (biased upward: the best of noisy values)
VALUE_COLUMNS = ("ess", "gain", "truth_best")


@njit(cache=True)
def _true_values(st, obs, cands, n, sp, srng, truth, rules, out):
    """``out[c]``: the mean margin of candidate ``c`` for the deciding team from the true state
    ``st`` (the hidden hands as they are), the stock's order drawn ``truth`` times."""
    team = obs[E.OB_SEAT] % E.N_TEAMS
    base = st.copy()
    s = np.zeros(E.STATE_SIZE, dtype=np.int64)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    robs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    rscratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    items = np.zeros((E.N_TEAMS, E.N_SCORE_ITEMS), dtype=np.int64)
    log = np.zeros(1, dtype=np.int64)
    rrng = np.zeros(4, dtype=np.uint64)
    for c in range(n):
        out[c] = 0.0
    for _ in range(truth):
        reshuffle_stock(base, srng, work)
        r0 = srng.copy()
        for c in range(n):
            copy_into(s, base)
            copy_into(rrng, r0)
            apply_action(s, cands[c], rules, log)
            out[c] += base_rollout(s, team, sp, sp, True, rrng, rules, robs, rscratch, items)
        srng[0] += np.uint64(1)
    for c in range(n):
        out[c] /= truth


@njit(cache=True)
def infer_deals_kernel(
    key, search_key, start, stop, xp, sp, samples, rollouts, truth, t, eps, rules, rows, vals
):
    """Deals ``start..stop-1`` played by strong; at team 0's searched decisions with an observed
    discard, the plain and the weighted search on the same positions; rows written, returns
    their number (-1 out of room)."""
    st = np.zeros(E.STATE_SIZE, dtype=np.int64)
    obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    rng = np.zeros(4, dtype=np.uint64)
    srng = np.zeros(4, dtype=np.uint64)
    log = np.zeros(1, dtype=np.int64)
    deck = np.zeros(E.N_CARDS, dtype=np.int64)
    cache = np.zeros(E.PC_SIZE, dtype=np.int64)
    cands = np.empty(MAX_CANDIDATES, dtype=np.int64)
    ti = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    tw = np.zeros(MAX_CANDIDATES, dtype=np.float64)
    tv = np.zeros(MAX_CANDIDATES, dtype=np.float64)
    ess = np.zeros(2, dtype=np.float64)
    icpt = np.zeros(IC_SIZE, dtype=np.int64)
    icpt[IC_KIND] = IK_PAUSE
    n_rows = 0
    for h in range(start, stop):
        seed_hand(key, h, rng)
        seed_hand(search_key, h, srng)
        new_deck(rng, deck)
        deal(st, deck, h % 4, 0, 0, rules, log)
        for i in range(E.PC_SIZE):
            cache[i] = 0
        reset_intercept(icpt)
        while True:
            code = resume_direct(
                st, obs, strong_decide, strong_decide, sp, sp, rng, rules, scratch, cache, log,
                icpt, MODE_TRUSTED,
            )  # fmt: skip
            if code != PAUSED:
                break
            if observed_discard(obs) < 0:
                continue
            n = candidates(obs, xp, rng.copy(), rules, scratch, cands)
            if n < 2:
                continue
            if n_rows >= rows.shape[0]:
                return -1
            both = srng.copy()  # the same determinizations and stock orders for both
            d1 = search_positions(obs, samples, rollouts, sp, sp, True, both, rules, cands, n,
                                   ti, True)  # fmt: skip
            both = srng.copy()
            search_weighted(obs, samples, rollouts, sp, sp, True, both, rules, cands, n, tw,
                             True, t, eps, ess)  # fmt: skip
            srng[0] += np.uint64(7919)  # the next decision's determinizations
            plain, inferred = 0, 0
            for c in range(1, n):
                if ti[c] > ti[0] and ti[c] > ti[plain]:
                    plain = c
                if tw[c] > tw[0] and tw[c] > tw[inferred]:
                    inferred = c
            _true_values(st, obs, cands, n, sp, srng, truth, rules, tv)
            best = 0
            for c in range(1, n):
                if tv[c] > tv[best]:
                    best = c
            r = rows[n_rows]
            r[0], r[1], r[2], r[3], r[4] = h, n, plain, inferred, best
            vals[n_rows, 0] = ess[1]
            vals[n_rows, 1] = tv[inferred] - tv[plain]
            vals[n_rows, 2] = tv[best] - tv[plain]
            _ = d1
            n_rows += 1
    return n_rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=56)
    ap.add_argument("--samples", type=int, default=24)
    ap.add_argument("--rollouts", type=int, default=2)
    ap.add_argument("--truth", type=int, default=16)
    ap.add_argument("--temperature", type=float, default=50.0)
    ap.add_argument("--epsilon", type=float, default=0.1)
    ap.add_argument("--whole", type=int, default=0)
    a = ap.parse_args()
    if a.deals < 1 or a.samples < 1 or a.rollouts < 1 or a.truth < 1:
        raise SystemExit("bench_inference: --deals, --samples, --rollouts, --truth >= 1")
    if not (0 < a.epsilon <= 1 and a.temperature > 0):
        raise SystemExit("bench_inference: 0 < --epsilon <= 1, --temperature > 0")
    from sim.api import rules_array
    from sim.policies import parse
    from sim.rng import run_key
    from sim.ruleset import Ruleset

    rules = rules_array(Ruleset())
    _, sp, _ = parse("strong")
    _, xp, _ = parse("expert_strong")
    rows = np.zeros((64 * a.deals, len(ROW_COLUMNS)), dtype=np.int64)
    vals = np.zeros((64 * a.deals, len(VALUE_COLUMNS)))
    t0 = time.time()
    keys = (run_key(a.seed), run_key(a.seed + 1))
    sizes = (a.samples, a.rollouts, a.truth, a.temperature, a.epsilon)
    n = infer_deals_kernel(*keys, 0, a.deals, xp, sp, *sizes, rules, rows, vals)
    if n < 0:
        raise SystemExit("bench_inference: rows ran out of room")
    rows, vals = rows[:n], vals[:n]
    secs = time.time() - t0
    per_deal = np.zeros(a.deals)
    ceiling = np.zeros(a.deals)
    np.add.at(per_deal, rows[:, 0], vals[:, 1])
    np.add.at(ceiling, rows[:, 0], vals[:, 2])
    differs = rows[:, 2] != rows[:, 3]

    def ci(x):
        m, se = x.mean(), x.std(ddof=1) / np.sqrt(len(x))
        return f"{m:+.2f} [{m - 1.96 * se:+.2f}, {m + 1.96 * se:+.2f}]"

    ess = vals[:, 0]
    print(
        f"inference (T={a.temperature:g}, eps={a.epsilon:g}) vs memory alone, ruleset "
        f"tournament, {a.deals} deals (seed {a.seed}), {a.samples}x{a.rollouts} positions a "
        f"search, truth {a.truth} stock orders; {secs:.0f} s"
    )
    print(f"decisions searched with an observed discard: {n}; choices differ: {differs.sum()}")
    print(
        f"ESS of {a.samples} determinizations: median {np.median(ess):.1f}, 10% "
        f"{np.quantile(ess, 0.1):.1f}, min {ess.min():.1f}"
    )
    print(f"gain of inference's moves, points a hand (one-step, true deal): {ci(per_deal)}")
    print(f"true deal's best move over the plain search's (biased upward): {ci(ceiling)}")
    if a.whole:
        from analysis.compare import duplicate

        c = duplicate("expert_strong:infer=1", "expert_strong", a.whole, seed=a.seed)
        s = c.summary
        print(
            f"whole hands, {s['deals']} duplicate deals: {s['mean_diff']:+.1f} "
            f"[{s['ci_low']:+.1f}, {s['ci_high']:+.1f}] points a hand"
        )


if __name__ == "__main__":
    main()
