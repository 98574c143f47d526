"""Per-decision cost of the engine's kernels on recorded observations (issue 12 profile).

    .venv/bin/python benchmarks/bench_decisions.py [--hands 40] [--reps 20]

Plays ``--hands`` hands with the step API (``Game``, seed 9), random vs random and heuristic vs
heuristic, keeps the observation of every policy decision, then times in compiled loops, by
kind of decision: ``legal_actions`` (what ``random`` pays per decision), the heuristic's call,
the engine's check of its choice (``action_reason``) and the opening search
(``opening_search_alloc`` via ``opening_possible``) where it is an opening turn; then the engine's
own work per step (``observe``, ``apply_action``) on the states of the same hands (the
engine observes at a forced step too before issue 12's third pass). Runs on any commit
of the engine since the restructuring (issue 11), so the same script gives the baseline.

``--experiments P`` instead times the report's decision experiments
(``analysis.decisions.run_experiments``) on the seven experiments every commit since issue 14
has (sevens, aces, aces_wild, pile, go_out, special, wild): P positions each, ``--deals``
paired deals, one process, best of ``--rounds``; it prints positions per second (positions
played over wall time, sampling of the positions included) and CPU seconds. Run it on the
base worktree in the same session for the baseline (issue 34)::

    .venv/bin/python benchmarks/bench_decisions.py --experiments 80 --deals 64 --rounds 2
    cd /tmp/base && PYTHONPATH=. /path/to/.venv/bin/python benchmarks/bench_decisions.py ...

``--loop N`` instead plays N heuristic hands through a copy of the engine's hand loop (the
policies called through ``POLICY_TYPE`` as in ``play_hands_kernel``) with one piece done
twice, and prints each piece's marginal cost per hand: what the whole loop spends on it,
caches and branches included (issue 12, sixth pass: the part the per-call timings above do
not attribute; ``--rounds`` sets how many rounds each piece's best is taken over, more on a
busy machine). The engine's check is also measured by leaving it out (the heuristic's choices
are all legal, so the hands are the same; issue 12, eleventh pass: 7.9 µs of a 46 µs hand at
``52e874e``, which led to ``sim.engine.judge.quick_ok``).
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

    from sim.play import Hand

    seen = []
    for h in range(n_hands):
        g = Hand(seed=9, hand_id=h)
        for t in g.turns(pair):
            if not t.forced:
                seen.append(t.obs.copy())
            if states is not None:
                states.append((g.state.copy(), t.action))
    return np.array(seen), g.rules


#: pieces of the hand loop ``loop_profile`` can do twice: (bit, name)
LOOP_PIECES = (
    (1, "observe"),
    (2, "policy, every decision"),
    (64, "policy, opening-turn play"),
    (128, "policy, opened play"),
    (256, "policy, draw"),
    (4, "engine check (judge_choice, as the hand loop makes it)"),
    (32, "apply_action of a decision (its copy of the state taken off)"),
    (16, "deal (generator, shuffle, deal)"),
    (8, "score and record"),
)


def loop_profile(n_hands: int, rounds: int = 3) -> None:
    """Marginal cost per hand of each piece of the hand loop (``--loop``)."""
    import numpy as np
    from numba import njit, types

    from sim import encoding as E
    from sim.engine.judge import check_action
    from sim.engine.observe import observe
    from sim.engine.play import (
        chunk_signature,
        finish_hand,
        forced_action_state,
        hand_arrays,
        new_deck,
    )
    from sim.engine.state import apply_action, deal
    from sim.engine.views import scratch_tmp
    from sim.policies import get
    from sim.rng import run_key, seed_hand
    from sim.ruleset import Ruleset

    try:  # the hand loop's check (issue 12, eleventh pass: the quick test, then check_action)
        from sim.engine.judge import judge_choice as engine_check
    except ImportError:
        engine_check = check_action
    if hasattr(E, "SCRATCH_HINT"):  # the check reads the policy's plan (issue 12, ninth pass)
        from sim.engine.views import scratch_hint

        @njit(inline="always")
        def check(obs, a, rules, tmp, cache, scratch):
            return engine_check(obs, a, rules, tmp, cache, scratch_hint(scratch))
    else:  # an older engine: check_action(obs, a, rules, tmp, cache)

        @njit(inline="always")
        def check(obs, a, rules, tmp, cache, scratch):
            return engine_check(obs, a, rules, tmp, cache)

    def loop(key, start, stop, pol0, pol1, params0, params1, rules, dup):
        # play_hand's body, with the pieces of ``dup`` (LOOP_PIECES bits) done twice; the
        # second policy call gets a scratch of its own (a memo sees the same sequence)
        st, obs, scratch, rng, items, log = hand_arrays()
        deck = np.zeros(E.N_CARDS, dtype=np.int64)
        out = np.zeros((1, E.RECORD_WIDTH), dtype=np.int64)
        status = np.zeros(2, dtype=np.int64)
        cache = np.zeros(E.PC_SIZE, dtype=np.int64)
        cache2 = np.zeros(E.PC_SIZE, dtype=np.int64)
        st2 = st.copy()
        scratch2 = scratch.copy()
        s = 0
        for h in range(start, stop):
            for _ in range(2 if dup & 16 else 1):
                seed_hand(key, h, rng)
                new_deck(rng, deck)
                deal(st, deck, h % 4, 0, 0, rules, log)
            cache[E.PC_VALID] = 0
            while st[E.ST_PHASE] != E.PH_OVER:
                a = forced_action_state(st)
                if a >= 0:
                    cache[E.PC_VALID] = 0
                    apply_action(st, a, rules, log)
                    continue
                for _ in range(2 if dup & 1 else 1):
                    observe(st, st[E.ST_PLAYER], obs)
                again = dup & 2
                if obs[E.OB_PHASE] == E.PH_PLAY:
                    again |= dup & (64 if obs[E.OB_OPENING_TURN] == 1 else 128)
                elif obs[E.OB_PHASE] == E.PH_DRAW:
                    again |= dup & 256
                if st[E.ST_PLAYER] % 2 == 0:
                    a = pol0(obs, params0, rng, rules, scratch)
                    if again:
                        pol0(obs, params0, rng, rules, scratch2)
                else:
                    a = pol1(obs, params1, rng, rules, scratch)
                    if again:
                        pol1(obs, params1, rng, rules, scratch2)
                tmp = scratch_tmp(scratch)
                if dup & 4:
                    for i in range(E.PC_SIZE):
                        cache2[i] = cache[i]
                    s += check(obs, a, rules, tmp, cache2, scratch)
                if not dup & 1024:  # (1024: no check; the heuristic's choices are all legal)
                    if check(obs, a, rules, tmp, cache, scratch) != E.R_OK:
                        return -1
                if dup & (32 | 512):
                    for i in range(E.STATE_SIZE):
                        st2[i] = st[i]
                    if dup & 32:
                        apply_action(st2, a, rules, log)
                apply_action(st, a, rules, log)
                st[E.ST_DECISIONS] += 1
            for _ in range(2 if dup & 8 else 1):
                finish_hand(st, 0, h, rules, items, out[0], status)
            s += out[0, 0]
        return s

    kernel = njit(loop)
    kernel.compile(chunk_signature(types.int64).args)
    kernel.disable_compile()
    spec = get("heuristic")
    d, p = spec.decide, spec.param_array()
    rules = np.ascontiguousarray(Ruleset().to_array())
    key = run_key(2)
    kernel(key, 0, 10, d, d, p, p, rules, 0)
    best = {}
    for _ in range(rounds):  # each piece alternating with the plain loop (shared machine)
        for dup in (0, *(b for b, _ in LOOP_PIECES), 512, 1024):
            t = time.process_time()
            kernel(key, 0, n_hands, d, d, p, p, rules, dup)
            best[dup] = min(best.get(dup, float("inf")), (time.process_time() - t) / n_hands)
    base = best[0] * 1e6
    print(f"heuristic vs heuristic, {n_hands} hands: {base:.1f} µs a hand ({1e6 / base:,.0f}/s)")
    print("| piece | µs/hand |\n| --- | --- |")
    for bit, name in LOOP_PIECES:
        extra = best[bit] - (best[512] if bit == 32 else best[0])
        print(f"| {name} | {extra * 1e6:.1f} |")
    # the check measured the other way: the loop without it (the same hands)
    print(f"| engine check, measured by leaving it out | {(best[0] - best[1024]) * 1e6:.1f} |")


SEVEN = ("sevens", "aces", "aces_wild", "pile", "go_out", "special", "wild")


def experiments_profile(positions: int, deals: int, rounds: int) -> None:
    """Positions per second of the decision experiments (``--experiments``)."""
    from analysis import decisions as D

    D.run_experiments(2, 2, seed=1, sample_hands=4, experiments=list(SEVEN))  # compile, warm
    best = None
    for _ in range(rounds):
        w, c = time.perf_counter(), time.process_time()
        raw = D.run_experiments(positions, deals, seed=0, experiments=list(SEVEN))
        w, c = time.perf_counter() - w, time.process_time() - c
        if best is None or w < best[0]:
            best = (w, c, len(raw))
    w, c, n = best
    print(
        f"{D.__file__}: {n} positions x {deals} deals x 2 in {w:.2f} s wall ({c:.2f} s CPU): "
        f"{n / w:.1f} positions/s wall, {n / c:.1f} positions/s CPU"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--experiments", type=int, default=0, help="time the decision experiments")
    ap.add_argument("--deals", type=int, default=64, help="--experiments: deals a position")
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--loop", type=int, default=0, help="profile the hand loop on N hands")
    ap.add_argument("--rounds", type=int, default=3, help="--loop: rounds (best of each piece)")
    args = ap.parse_args()
    if args.experiments:
        experiments_profile(args.experiments, args.deals, args.rounds)
        return
    if args.loop:
        loop_profile(args.loop, args.rounds)
        return

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
    if memo >= 0:  # the memo's effect, alternating in one process (shared machine)
        t_policy(rows[:1], params, rng, rules, scratch, 1, True)
        for name, rs in (("opening-turn play", sub), ("every decision", rows)):
            kept, forgot = [], []
            for _ in range(5):
                kept.append(clock(t_policy, rs, params, rng, rules, scratch, args.reps))
                forgot.append(clock(t_policy, rs, params, rng, rules, scratch, args.reps, True))
            k, f = min(kept) / args.hands * 1e6, min(forgot) / args.hands * 1e6
            print(f"heuristic, {name}, µs/hand: memo kept {k:.1f}, emptied each decision {f:.1f}")

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
