"""The expert search policy (issue 7): time per decision, time per hand, and its strength.

    .venv/bin/python benchmarks/bench_expert.py [--hands 100] [--spec expert] [--seed 1]
    .venv/bin/python benchmarks/bench_expert.py --compare 2000 --jobs 2 --seed 7
    .venv/bin/python benchmarks/bench_expert.py --label 60

Timing (one core, CPU time of this process, after a warm-up): the expert's decisions on the
positions of ``--hands`` hands the expert plays against the heuristic (its team's seats), split
into searched decisions (more than one candidate) and the rest; and whole hands of expert vs
heuristic (the heuristic's hands for scale). ``--compare N`` runs the issue's strength check,
``analysis.compare.duplicate(expert, heuristic, N)`` (= ``canasta compare``), and prints its
summary with the last commit of ``sim/policies`` (the heuristic it was measured against).
``--label N`` times strong's labelling instead (``analysis.distill.label``: N hands, p_label
0.5, 24 samples x 2 rollouts, one core, CPU time after a warm-up) and prints hands/s with a
digest of the rows (the same in every tree that labels the same data).

The expert deals with the public card memory by default (``memory=1``); against a tree from
before that parameter, time ``--spec expert:memory=0`` here, the same search as its ``expert``.
To compare two trees, use ``bench_ab.py --job expert`` or ``--job label`` (both trees in one
run, interleaved, each in its own environment): whole runs of this script taken one after
another on a shared host compare windows of the host's speed, not the trees.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def collect_positions(spec: str, hands: int, seed: int):
    """Observations at every non-forced decision of the expert's team (team 0) in ``hands``
    hands of ``spec`` against the heuristic, with the generator state at each."""
    import numpy as np

    from sim.play import Hand
    from sim.policies import parse
    from sim.ruleset import as_ruleset

    espec, ep, _ = parse(spec)
    heuristic = parse("heuristic")[:2]
    seats = (None, heuristic, None, heuristic)  # the expert's team decides outside the loop
    out = []
    for h in range(hands):
        g = Hand(seed=seed, hand_id=h)
        while True:
            for _ in g.turns(seats):  # the heuristic's turns and every forced step
                pass
            if g.is_over:
                break
            obs = g.observation()
            out.append((obs, g.rng.copy()))
            g.apply(g.decide(espec, ep, obs))
    return out, ep, np.ascontiguousarray(as_ruleset(None).to_array())


def time_decisions(spec: str, hands: int, seed: int) -> dict:
    import numpy as np

    from sim.encoding import SCRATCH_SIZE
    from sim.policies.expert import MAX_CANDIDATES, candidates, expert_decide

    positions, ep, rules = collect_positions(spec, hands, seed)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    cands = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    searched, plain, n_cands = [], [], []
    for obs, rng in positions:
        n = candidates(obs, ep, rng.copy(), rules, scratch, cands)
        r = rng.copy()
        t = time.process_time()
        expert_decide(obs, ep, r, rules, scratch)
        dt = time.process_time() - t
        (searched if n > 1 else plain).append(dt)
        if n > 1:
            n_cands.append(n)
    total = sum(searched) + sum(plain)
    return {
        "spec": spec,
        "hands": hands,
        "decisions": len(positions),
        "searched": len(searched),
        "mean_candidates": float(np.mean(n_cands)) if n_cands else 0.0,
        "ms_per_searched_decision": 1000 * float(np.mean(searched)) if searched else 0.0,
        "ms_per_decision": 1000 * total / max(len(positions), 1),
        "searched_per_hand": len(searched) / hands,
        "s_per_hand_team_decisions": total / hands,
    }


def time_hands(spec: str, hands: int, seed: int) -> dict:
    from sim.api import play_hands
    from sim.rng import run_key

    play_hands(run_key(seed), 0, 1, (spec, "heuristic"))  # warm-up (loads the cache)
    t = time.process_time()
    df = play_hands(run_key(seed), 0, hands, (spec, "heuristic"))
    expert = (time.process_time() - t) / hands
    t = time.process_time()
    play_hands(run_key(seed), 0, hands, ("heuristic", "heuristic"))
    heur = (time.process_time() - t) / hands
    return {
        "s_per_hand_expert_vs_heuristic": expert,
        "s_per_hand_heuristic_vs_heuristic": heur,
        "turns_per_hand": float(df.turns.mean()),
    }


def time_label(hands: int) -> dict:
    import hashlib

    from analysis import distill
    from sim.policies.registry import resolve
    from sim.policies.strong import S_EVALUATOR

    _, params, _ = resolve("strong")
    params = params.copy()
    params[S_EVALUATOR] = 1.0
    kw = {"seed": (5, 0), "p_label": 0.5, "samples": 24, "rollouts": 2}
    distill.label(params, hands=2, n_jobs=1, chunk=2, **kw)  # warm-up (loads the cache)
    t = time.process_time()
    lab = distill.label(params, hands=hands, n_jobs=1, chunk=hands, **kw)
    dt = time.process_time() - t
    rows = lab.x.tobytes() + lab.v.tobytes() + lab.meta.tobytes()
    return {
        "label_hands": hands,
        "label_cpu_s": dt,
        "label_hands_per_s": hands / dt,
        "rows": len(lab.v),
        "digest": hashlib.sha256(rows).hexdigest()[:16],
    }


def policies_commit() -> str:
    out = subprocess.run(
        ["git", "log", "-1", "--format=%h %ad %s", "--date=iso", "--", "sim/policies/builtin.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=100)
    p.add_argument("--spec", default="expert")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--compare", type=int, default=0, help="duplicate deals vs heuristic")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--label", type=int, default=0, help="time strong's labelling of N hands")
    args = p.parse_args(argv)
    print("heuristic at:", policies_commit())
    if args.label:
        print(json.dumps(time_label(args.label)))
        return 0
    if args.compare:
        from analysis.compare import duplicate

        t = time.time()
        s = duplicate(args.spec, "heuristic", args.compare, seed=args.seed, n_jobs=args.jobs)
        print(json.dumps({**s.summary, "wall_s": round(time.time() - t, 1)}))
        return 0
    print(json.dumps(time_decisions(args.spec, args.hands, args.seed)))
    print(json.dumps(time_hands(args.spec, args.hands, args.seed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
