"""Per-decision cost of the engine's kernels on recorded observations (issue 12 profile).

    .venv/bin/python benchmarks/bench_decisions.py [--hands 40] [--reps 20]

Plays ``--hands`` hands with the step API (``Game``, seed 9), random vs random and heuristic vs
heuristic, keeps the observation of every policy decision, then times in compiled loops, by
kind of decision: ``legal_actions`` (what ``random`` pays per decision), the heuristic's call,
the engine's check of its choice (``action_reason``) and the opening search
(``best_opening`` via ``opening_possible``) where it is an opening turn; then the engine's
own work per step (``observe``, ``apply_action``) on the states of the same hands (the
engine observes at a forced step too before issue 12's third pass). Runs on any commit
of the engine since the restructuring (issue 11), so the same script gives the baseline.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def collect(pair, n_hands, states=None):
    """Observations of the policy decisions of ``n_hands`` hands (seed 9); if ``states`` is a
    list, (state, action) of every step, forced ones included, are appended to it."""
    import numpy as np

    from sim.engine.game import Game
    from sim.engine.judge import forced_action

    seen = []
    for h in range(n_hands):
        g = Game(seed=9, hand_id=h)
        while not g.is_over:
            obs = g.observation()
            a = forced_action(obs)
            if a < 0:
                seen.append(obs.copy())
                a = g.policy_action(pair[g.current_player % 2])
            if states is not None:
                states.append((g.state.copy(), int(a)))
            g.apply(int(a))
    return np.array(seen), g.rules


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--reps", type=int, default=20)
    args = ap.parse_args()

    import numpy as np
    from numba import njit

    from sim import encoding as E
    from sim.engine.judge import action_reason, legal_actions, opening_possible
    from sim.policies import get
    from sim.policies.builtin import heuristic_decide

    @njit
    def t_legal(rows, rules, scratch, reps):
        tmp = scratch[E.SCRATCH_TMP : E.SCRATCH_TMP + E.TMP_SIZE]
        out = scratch[E.SCRATCH_LEGAL : E.SCRATCH_LEGAL + E.N_ACTIONS]
        s = 0
        for i in range(rows.shape[0]):
            o = rows[i].copy()
            for _ in range(reps):
                s += legal_actions(o, rules, out, tmp)
        return s

    memo = getattr(E, "SCRATCH_MEMO", -1)  # the built-ins' memo (sixth pass), if any

    @njit
    def t_policy(rows, params, rng, rules, scratch, reps, forget=False):
        # the rows in the order played, repeated: a policy may keep what it found at one
        # decision for the next (the opening search's memo, sixth pass), as in a hand;
        # ``forget`` empties the memo before each decision (every search done in full)
        s = 0
        for _ in range(reps):
            for i in range(rows.shape[0]):
                if forget:
                    scratch[memo] = 0
                s += heuristic_decide(rows[i], params, rng, rules, scratch)
        return s

    @njit
    def t_check(rows, acts, rules, scratch, reps):
        tmp = scratch[E.SCRATCH_TMP : E.SCRATCH_TMP + E.TMP_SIZE]
        s = 0
        for i in range(rows.shape[0]):
            o = rows[i].copy()
            for _ in range(reps):
                s += action_reason(o, acts[i], rules, tmp)
        return s

    @njit
    def t_search(rows, rules, scratch, reps):
        tmp = scratch[E.SCRATCH_TMP : E.SCRATCH_TMP + E.TMP_SIZE]
        s = 0
        for i in range(rows.shape[0]):
            o = rows[i].copy()
            for _ in range(reps):
                s += opening_possible(o, rules, tmp)
        return s

    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    rng = np.ones(4, dtype=np.uint64)
    params = get("heuristic").param_array()

    def groups(rows):
        ph, ot = rows[:, E.OB_PHASE], rows[:, E.OB_OPENING_TURN]
        return [
            ("draw", ph == E.PH_DRAW),
            ("play, opening turn", (ph == E.PH_PLAY) & (ot == 1)),
            ("play, opened", (ph == E.PH_PLAY) & (ot == 0)),
            ("other", (ph != E.PH_PLAY) & (ph != E.PH_DRAW)),
            ("all", ph >= 0),
        ]

    def clock(fn, *a):
        t = time.process_time()
        fn(*a)
        return (time.process_time() - t) / args.reps

    rows, rules = collect(("random", "random"), args.hands)
    t_legal(rows[:1], rules, scratch, 1)
    print(f"random vs random, {args.hands} hands, {len(rows)} decisions: legal_actions")
    print("| decisions | per hand | µs/decision | µs/hand |\n| --- | --- | --- | --- |")
    for name, m in groups(rows):
        sub = np.ascontiguousarray(rows[m])
        if len(sub):
            dt = clock(t_legal, sub, rules, scratch, args.reps)
            print(
                f"| {name} | {len(sub) / args.hands:.1f} | {dt / len(sub) * 1e6:.2f} | "
                f"{dt / args.hands * 1e6:.1f} |"
            )

    rows, rules = collect(("heuristic", "heuristic"), args.hands)
    acts = np.array([heuristic_decide(r.copy(), params, rng, rules, scratch) for r in rows])
    t_policy(rows[:1], params, rng, rules, scratch, 1)
    t_check(rows[:1], acts[:1], rules, scratch, 1)
    t_search(rows[:1], rules, scratch, 1)
    print(f"\nheuristic vs heuristic, {args.hands} hands, {len(rows)} decisions")
    print("| decisions | per hand | heuristic µs/dec | µs/hand | check µs/dec | µs/hand |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, m in groups(rows):
        sub = np.ascontiguousarray(rows[m])
        if not len(sub):
            continue
        a = np.ascontiguousarray(acts[m])
        dp = clock(t_policy, sub, params, rng, rules, scratch, args.reps)
        dc = clock(t_check, sub, a, rules, scratch, args.reps)
        print(
            f"| {name} | {len(sub) / args.hands:.1f} | {dp / len(sub) * 1e6:.2f} | "
            f"{dp / args.hands * 1e6:.1f} | {dc / len(sub) * 1e6:.2f} | "
            f"{dc / args.hands * 1e6:.1f} |"
        )
    m = (rows[:, E.OB_PHASE] == E.PH_PLAY) & (rows[:, E.OB_OPENING_TURN] == 1)
    sub = np.ascontiguousarray(rows[m])
    if len(sub):
        ds = clock(t_search, sub, rules, scratch, args.reps)
        print(f"\nopening search (opening_possible) in opening turns: {ds / len(sub) * 1e6:.2f} µs")
    if len(sub) and memo >= 0:  # the memo's effect, alternating in one process (shared machine)
        t_policy(sub[:1], params, rng, rules, scratch, 1, True)
        kept, forgot = [], []
        for _ in range(5):
            kept.append(clock(t_policy, sub, params, rng, rules, scratch, args.reps))
            forgot.append(clock(t_policy, sub, params, rng, rules, scratch, args.reps, True))
        k, f = min(kept) / args.hands * 1e6, min(forgot) / args.hands * 1e6
        print(
            f"heuristic, opening turns, µs/hand: memo kept {k:.1f}, emptied each decision {f:.1f}"
        )

    # the engine's own work between decisions, on the states of the same hands
    from sim.engine.observe import observe
    from sim.engine.state import apply_action

    @njit
    def t_observe(sts, obs, reps):
        s = 0
        for i in range(sts.shape[0]):
            for _ in range(reps):
                observe(sts[i], sts[i, E.ST_PLAYER], obs)
                s += obs[E.OB_PHASE]
        return s

    @njit
    def t_apply(sts, acts, rules, log, reps, apply):
        s = 0
        st = sts[0].copy()
        for i in range(sts.shape[0]):
            for _ in range(reps):
                st[:] = sts[i]
                if apply:
                    apply_action(st, acts[i], rules, log)
                s += st[E.ST_PHASE]
        return s

    steps = []
    collect(("heuristic", "heuristic"), args.hands, steps)
    sts = np.array([st for st, _ in steps])
    acts = np.array([a for _, a in steps])
    obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    log = np.zeros(1, dtype=np.int64)
    t_observe(sts[:1], obs, 1)
    t_apply(sts[:1], acts[:1], rules, log, 1, True)
    do = clock(t_observe, sts, obs, args.reps)
    da = clock(t_apply, sts, acts, rules, log, args.reps, True)
    dc = clock(t_apply, sts, acts, rules, log, args.reps, False)  # the copy alone
    print(f"\nengine steps, heuristic vs heuristic: {len(sts) / args.hands:.1f} a hand")
    print("| work | µs/step | µs/hand |\n| --- | --- | --- |")
    for name, dt in (("observe", do), ("apply_action", da - dc)):
        print(f"| {name} | {dt / len(sts) * 1e6:.2f} | {dt / args.hands * 1e6:.1f} |")


if __name__ == "__main__":
    main()
