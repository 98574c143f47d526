"""Dealt-odds sampler (ODDS-1): deals per second per core, baseline and fast kernel, one run.

    .venv/bin/python benchmarks/bench_sampler.py [--fast-deals N] [--baseline-deals N]
        [--repeat R] [--jobs J] [--rules FILE]

Both kernels are compiled (or loaded from the cache) before timing; each is timed ``repeat``
times on one core in this process and the best time is kept. The baseline shuffles the whole
108-card deck per deal; the fast kernel draws only the cards it needs (sim/sampler.py).
``--jobs J`` adds the rate of ``sample_dealt_odds`` with J jobs (start-up of workers included).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numpy as np

from sim.encoding import CARD_KIND
from sim.rng import run_key
from sim.ruleset import DEFAULT_RULESET, as_ruleset
from sim.sampler import BLOCK, N_SPECIAL, baseline_hits, fast_hits
from sim.sampling import sample_dealt_odds


def _best(fn, repeat):
    """Best wall time and best CPU time (process_time) of ``repeat`` calls: on a shared machine
    the CPU time is the time the kernel really had a core."""
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return min(wall), min(cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fast-deals", type=int, default=50_000_000)
    ap.add_argument("--baseline-deals", type=int, default=4_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rules", default=None, help="ruleset file (default: the default ruleset)")
    args = ap.parse_args()

    ruleset = as_ruleset(args.rules) if args.rules else DEFAULT_RULESET
    rules = ruleset.to_array()
    key = run_key(2026)
    hits = np.zeros(N_SPECIAL, dtype=np.int64)
    t0 = time.perf_counter()
    fast_hits(key, 0, BLOCK, BLOCK, CARD_KIND, rules, hits)
    baseline_hits(key, 0, 100, CARD_KIND, rules, hits)
    warm = time.perf_counter() - t0

    def fast():
        fast_hits(key, 0, args.fast_deals, BLOCK, CARD_KIND, rules, np.zeros(N_SPECIAL, np.int64))

    def base():
        baseline_hits(key, 0, args.baseline_deals, CARD_KIND, rules, np.zeros(N_SPECIAL, np.int64))

    t_fast, c_fast = _best(fast, args.repeat)
    t_base, c_base = _best(base, args.repeat)
    r_fast = args.fast_deals / t_fast
    r_base = args.baseline_deals / t_base
    result = {
        "fast_deals_per_s_per_core": r_fast,
        "baseline_deals_per_s_per_core": r_base,
        "ratio": r_fast / r_base,
        "fast_deals_per_cpu_s": args.fast_deals / c_fast,
        "baseline_deals_per_cpu_s": args.baseline_deals / c_base,
        "ratio_cpu": (args.fast_deals / c_fast) / (args.baseline_deals / c_base),
        "load_average_1min": os.getloadavg()[0],
        "fast_deals": args.fast_deals,
        "baseline_deals": args.baseline_deals,
        "compile_or_cache_load_s": warm,
    }
    if args.jobs > 1:
        n = args.fast_deals * args.jobs
        sample_dealt_odds(BLOCK, n_jobs=args.jobs, ruleset=ruleset)  # start the workers
        t0 = time.perf_counter()
        sample_dealt_odds(n, seed=1, n_jobs=args.jobs, ruleset=ruleset)
        result[f"fast_deals_per_s_{args.jobs}_jobs"] = n / (time.perf_counter() - t0)
    result["ruleset"] = ruleset.label
    result["machine"] = f"{platform.machine()} {platform.processor() or ''}".strip()
    print(f"ruleset: {ruleset.label}")
    print(f"fast kernel:     {r_fast / 1e6:8.2f} M deals/s/core ({args.fast_deals:,} deals)")
    print(f"baseline kernel: {r_base / 1e6:8.2f} M deals/s/core ({args.baseline_deals:,} deals)")
    print(f"ratio fast/baseline: {r_fast / r_base:.1f}x")
    print(
        f"per CPU-second: fast {result['fast_deals_per_cpu_s'] / 1e6:.2f} M, baseline "
        f"{result['baseline_deals_per_cpu_s'] / 1e6:.2f} M, ratio {result['ratio_cpu']:.1f}x "
        f"(load average {result['load_average_1min']:.2f})"
    )
    if args.jobs > 1:
        rate = result[f"fast_deals_per_s_{args.jobs}_jobs"]
        print(f"fast, {args.jobs} jobs:   {rate / 1e6:8.2f} M deals/s in total")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
