"""Does the hint pick what a long run picks? (issue 56's target)

For random decisions (the draw and the play step; the first turn and mid-hand; the tournament
list), the hint's advice (``canasta._seat``'s budget: ``HINT_BUDGET`` seconds, at most
``HINT_N`` deals a choice, seed 0) against the same advice with ``--factor`` times the budget
and deals (another seed, so its deals are fresh). Reports the share of decisions where the
hint's top choice is the long run's best, and what following the hint costs by the long run
(its paired difference from the long run's best, points per hand). Run from the repository
root::

    python benchmarks/bench_advise_hint.py --decisions 10 --factor 32
"""

from __future__ import annotations

import argparse
import json

import numpy as np


def main(argv=None) -> int:
    from bench_advise_vr import _position  # this directory is on the path when run

    from analysis.advise import advise
    from canasta._seat import HINT_BUDGET, HINT_N

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--decisions", type=int, default=10)
    p.add_argument("--factor", type=float, default=32)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--luck", action="store_true", help="the hint with the luck correction")
    a = p.parse_args(argv)
    rng = np.random.default_rng(a.seed)
    kinds = ("first draw", "first play", "mid draw", "mid play")
    rows = []
    for i in range(a.decisions):
        kind = kinds[i % len(kinds)]
        pos, drawn = _position(rng, kind)
        hint = advise(pos, drawn=drawn, n=HINT_N, budget=HINT_BUDGET, seed=0, luck=a.luck)
        if len(hint.choices) < 2:
            continue
        n_long, b_long = int(HINT_N * a.factor), HINT_BUDGET * a.factor
        long = advise(pos, drawn=drawn, n=n_long, budget=b_long, seed=1)
        by = {c.label: c for c in long.choices}
        top = by[hint.choices[0].label]
        row = {
            "kind": kind,
            "choices": len(hint.choices),
            "hint_n": hint.choices[0].n,
            "long_n": long.choices[0].n,
            "same": top.label == long.choices[0].label,
            "cost": -top.diff_from_best,
            "hint_confidence": hint.choices[0].confidence,
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    same = np.mean([r["same"] for r in rows])
    cost = [r["cost"] for r in rows]
    print(
        f"tournament list, strong: {len(rows)} decisions with a choice; the hint's top is the "
        f"{a.factor:g}x run's best in {same:.0%}; following it costs {np.mean(cost):.1f} points "
        f"a decision on average (median {np.median(cost):.1f}) by the long run"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
