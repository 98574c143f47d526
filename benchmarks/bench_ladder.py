"""Strength ladder: a round robin of duplicate matches among the built-in fast policies.

    .venv/bin/python benchmarks/bench_ladder.py [--deals 2000] [--seed 0] [--jobs 2]
        [--policies random,greedy,heuristic,special_chaser,strong] [--expert-deals 0]
        [--search expert] [--write sim/policies/data/ladder.json]
        [--extend sim/policies/data/ladder.json]

Every pair plays ``--deals`` duplicate deals (``analysis.compare.round_robin``: each deal twice,
seats swapped, the same deals for every pair). Prints the margin matrix (row policy's points
per hand minus the column's) with each cell's 95% interval half-width, and the policies ranked
by their mean margin over the others. ``--expert-deals N`` adds each ``--search`` policy
(default ``expert``) against heuristic and strong on N deals (slow: ~2.6 hands/s/core).
``--write PATH`` saves it all as the ladder the package ships and the report's Methods show
(``sim.policies.ladder``). ``--extend PATH`` starts from that ladder and measures only the
matches it lacks (a pair or a search match naming a policy new to it), at its own deals and
seed (``--deals``/``--seed`` are read from it): every pair is ``analysis.compare.duplicate`` on
the same deals, so a row measured alone equals the full round robin's.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FAST = ("random", "greedy", "heuristic", "special_chaser", "strong", "strong_v2")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--policies", default=",".join(FAST))
    ap.add_argument("--expert-deals", type=int, default=0)
    ap.add_argument("--search", default="expert", help="search policies for --expert-deals")
    ap.add_argument("--write", type=Path, default=None, help="save the ladder (JSON) here")
    ap.add_argument("--extend", type=Path, default=None, help="measure what this ladder lacks")
    ap.add_argument("--versus", default="heuristic,strong", help="the search policies' opponents")
    args = ap.parse_args()

    from analysis.compare import duplicate
    from sim.policies.ladder import LADDER_VERSION, check_ladder, ranking

    names = [p.strip() for p in args.policies.split(",") if p.strip()]
    old = None
    if args.extend:
        old = check_ladder(json.loads(args.extend.read_text(encoding="utf-8")))
        args.deals, args.seed = old["deals"], old["seed"]
        names = [*old["policies"], *(n for n in names if n not in old["policies"])]
    t = time.time()
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            kept = [r for r in (old or {}).get("pairs", ()) if {r["a"], r["b"]} == {a, b}]
            if kept:
                pairs.append(kept[0])
                continue
            s = duplicate(a, b, args.deals, seed=args.seed, n_jobs=args.jobs).summary
            pairs.append(_match(s, args.seed))
            print(
                f"measured {a} vs {b}: {s['mean_diff']:+.1f} [{s['ci_low']:+.1f}, "
                f"{s['ci_high']:+.1f}]",
                flush=True,
            )
    cell = {}
    for r in pairs:
        h = (r["ci_high"] - r["ci_low"]) / 2
        cell[r["a"], r["b"]] = (r["mean_diff"], h)
        cell[r["b"], r["a"]] = (-r["mean_diff"], h)
    w = max(len(n) for n in names) + 2
    print(f"margin matrix: row minus column, points per hand, +-95% half-width; {args.deals} ")
    print(f"duplicate deals per pair, seed {args.seed} ({time.time() - t:.0f} s wall)\n")
    print(" " * w + "".join(f"{n:>18}" for n in names))
    for a in names:
        row = "".join(
            f"{'':>18}" if a == b else f"{cell[a, b][0]:>+10.0f} +-{cell[a, b][1]:<5.0f}"
            for b in names
        )
        print(f"{a:<{w}}{row}")
    print("\nranked by mean margin over the others:")
    order = ranking(pairs, names)
    for a, score in order:
        print(f"  {a:<{w}}{score:+8.0f}")
    search = list((old or {}).get("search", ()))
    if args.expert_deals:
        for policy in [p.strip() for p in args.search.split(",") if p.strip()]:
            for other in [p.strip() for p in args.versus.split(",") if p.strip()]:
                if any(r["a"] == policy and r["b"] == other for r in search):
                    continue  # in the ladder extended
                t = time.time()
                c = duplicate(policy, other, args.expert_deals, seed=args.seed, n_jobs=args.jobs)
                s = c.summary
                search.append(_match(s, args.seed))
                print(
                    f"{policy} vs {other}: {s['mean_diff']:+.0f} [{s['ci_low']:+.0f}, "
                    f"{s['ci_high']:+.0f}] on {s['deals']} deals ({time.time() - t:.0f} s wall)"
                )
    if args.write:
        data = {
            "version": LADDER_VERSION,
            "command": (old["command"] + "; then " if old else "")
            + "python benchmarks/bench_ladder.py "
            + " ".join(sys.argv[1:]),
            "date": datetime.date.today().isoformat(),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}",
            "deals": args.deals,
            "seed": args.seed,
            "policies": names,
            "pairs": pairs,
            "ranking": [{"policy": a, "mean_margin": round(v, 1)} for a, v in order],
            "search": search,
        }
        check_ladder(data)
        args.write.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.write}")


def _match(s, seed: int) -> dict:
    """One duplicate match as the ladder file keeps it."""
    return {
        "a": s["policy_a"],
        "b": s["policy_b"],
        "deals": int(s["deals"]),
        "seed": seed,
        "mean_diff": round(float(s["mean_diff"]), 1),
        "ci_low": round(float(s["ci_low"]), 1),
        "ci_high": round(float(s["ci_high"]), 1),
    }


if __name__ == "__main__":
    main()
