"""Runner at scale: 1 vs 2 jobs, chunk overhead, peak memory of a big run to disk, and the warm
start-up time of ``canasta odds --exact``.

    .venv/bin/python benchmarks/bench_runner.py [--hands N] [--rss-items N] [--rss-kind K]
        [--skip rss,startup,...]

* scaling: played hands (``sim.simulate``, greedy vs random) in memory with 1 and 2 jobs, the
  same chunks, workers already started; and the CPU time per hand in this process against in
  the two workers (on a shared machine the wall-clock speedup is only meaningful when the
  load average before the run is well under 1).
* chunk overhead: the same items (per-deal ODDS-1 records, a cheap chunk function) split in
  chunks of 100,000 / 10,000 / 1,000, serial, in memory and to disk, best of 3; overhead =
  extra seconds per extra chunk between 10,000 and 1,000.
* peak RSS: a run to disk in a fresh process (``resource.getrusage`` of that process, and the
  sum of its and its worker processes' RSS sampled every 0.1 s), ``--rss-kind records`` (the
  dealt-odds sampler's per-deal records) or ``hands`` (played hands).
* start-up: ``.venv/bin/canasta odds --exact`` wall time, best of 5 after one warm-up run.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_RSS_CHILD = """
import functools, json, resource, sys, threading, time
from sim.runner import run_chunks
peak = {"tree": 0}
def watch():
    import psutil  # comes with dask.distributed (the test extra)
    me = psutil.Process()
    while True:
        try:
            procs = [me, *me.children(recursive=True)]
            peak["tree"] = max(peak["tree"], sum(p.memory_info().rss for p in procs))
        except psutil.Error:
            pass
        time.sleep(0.1)
threading.Thread(target=watch, daemon=True).start()
kind, n, chunk, jobs, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), \
    sys.argv[5]
t0 = time.perf_counter()
if kind == "records":
    from sim.sampler import dealt_records
    run_chunks(dealt_records, n, seed=1, chunk_size=chunk, n_jobs=jobs, out=out,
               meta={"kind": "dealt_records"}, id_column="deal_id", quiet=True)
else:
    import sim
    sim.simulate(n, policies=("greedy", "random"), seed=1, chunk_size=chunk, n_jobs=jobs,
                 out=out, quiet=True)
dt = time.perf_counter() - t0
self_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kids_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"seconds": dt, "self_max_rss_mib": self_kb / 1024,
                  "children_max_rss_mib": kids_kb / 1024,
                  "tree_peak_rss_mib_sampled": peak["tree"] / 2**20}))
"""


def _timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _hands_task(seed, start, stop):
    """Play a chunk; (pid, wall s, CPU s): the CPU time shows the work a chunk costs in a
    worker against in this process, whatever share of a core the shared machine gave it."""
    from sim.api import play_hands
    from sim.rng import run_key

    t0, c0 = time.perf_counter(), time.process_time()
    play_hands(run_key(seed), start, stop, ("greedy", "random"))
    return os.getpid(), time.perf_counter() - t0, time.process_time() - c0


def _cpu_per_hand(n_hands: int, chunk: int) -> dict:
    from sim.runner import parallel_map

    tasks = [(3, s, min(s + chunk, n_hands)) for s in range(0, n_hands, chunk)]
    serial = [_hands_task(*t) for t in tasks]
    list(parallel_map(_hands_task, tasks[:2], n_jobs=2))  # workers warm
    workers = list(parallel_map(_hands_task, tasks, n_jobs=2))
    return {
        "cpu_ms_per_hand_serial": 1e3 * sum(r[2] for r in serial) / n_hands,
        "cpu_ms_per_hand_2_workers": 1e3 * sum(r[2] for r in workers) / n_hands,
        "worker_pids": len({r[0] for r in workers}),
    }


def scaling(n_hands: int) -> dict:
    import sim

    chunk = max(1, n_hands // 8)
    run = functools.partial(
        sim.simulate, n_hands, policies=("greedy", "random"), seed=3, chunk_size=chunk, quiet=True
    )
    sim.simulate(200, policies=("greedy", "random"), chunk_size=100, quiet=True)  # compile
    sim.simulate(200, policies=("greedy", "random"), chunk_size=100, n_jobs=2, quiet=True)
    load = os.getloadavg()[0]
    t1 = _timed(lambda: run(n_jobs=1))
    t2 = _timed(lambda: run(n_jobs=2))
    return {
        "load_average_1min_before": load,
        "hands": n_hands,
        "chunk_size": chunk,
        "seconds_1_job": t1,
        "seconds_2_jobs": t2,
        "hands_per_s_1_job": n_hands / t1,
        "hands_per_s_2_jobs": n_hands / t2,
        "speedup": t1 / t2,
        **_cpu_per_hand(n_hands, chunk),
    }


def chunk_overhead(n_items: int = 400_000, repeat: int = 3) -> dict:
    """Extra seconds per extra chunk: chunks of 1,000 vs 10,000 items (best of ``repeat``)."""
    from sim.runner import run_chunks
    from sim.sampler import dealt_records

    run_chunks(dealt_records, 1000, id_column="deal_id")  # compile
    out = {"items": n_items, "load_average_1min_before": os.getloadavg()[0]}
    sizes = (100_000, 10_000, 1_000)
    for to_disk in (False, True):
        times = {}
        for chunk in sizes:
            best = float("inf")
            for _ in range(repeat):
                with tempfile.TemporaryDirectory() as tmp:
                    target = Path(tmp) / "run" if to_disk else None
                    best = min(
                        best,
                        _timed(
                            lambda c=chunk, t=target: run_chunks(
                                dealt_records, n_items, chunk_size=c, out=t, id_column="deal_id"
                            )
                        ),
                    )
            times[chunk] = best
        label = "disk" if to_disk else "memory"
        extra = n_items // sizes[2] - n_items // sizes[1]
        out[f"{label}_seconds_by_chunk_size"] = times
        out[f"{label}_overhead_ms_per_chunk"] = 1e3 * (times[sizes[2]] - times[sizes[1]]) / extra
    return out


def peak_rss(kind: str, n_items: int, chunk: int, jobs: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        res = subprocess.run(
            [sys.executable, "-c", _RSS_CHILD, kind, str(n_items), str(chunk), str(jobs), tmp],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        size = sum(p.stat().st_size for p in Path(tmp).glob("*.parquet"))
    out = json.loads(res.stdout.strip().splitlines()[-1])
    out.update(kind=kind, items=n_items, chunk_size=chunk, jobs=jobs, parquet_mib=size / 2**20)
    return out


def startup(repeat: int = 5) -> dict:
    exe = ROOT / ".venv" / "bin" / "canasta"
    cmd = [str(exe), "odds", "--exact"] if exe.exists() else [sys.executable, "-m", "canasta"]
    subprocess.run(cmd, capture_output=True, check=True)  # warm the caches
    times = [
        _timed(lambda: subprocess.run(cmd, capture_output=True, check=True)) for _ in range(repeat)
    ]
    return {"command": " ".join(cmd[-3:]), "best_s": min(times), "median_s": sorted(times)[2]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000, help="played hands for the scaling run")
    ap.add_argument("--rss-items", type=int, default=10_000_000)
    ap.add_argument("--rss-kind", choices=("records", "hands"), default="records")
    ap.add_argument("--rss-chunk", type=int, default=100_000)
    ap.add_argument("--rss-jobs", type=int, default=1)
    ap.add_argument("--skip", default="", help="comma list of: scaling,chunks,rss,startup")
    args = ap.parse_args()
    skip = set(args.skip.split(","))
    result = {}
    if "scaling" not in skip:
        result["scaling"] = scaling(args.hands)
        print("scaling:", json.dumps(result["scaling"]), flush=True)
    if "chunks" not in skip:
        result["chunks"] = chunk_overhead()
        print("chunk overhead:", json.dumps(result["chunks"]), flush=True)
    if "rss" not in skip:
        result["rss"] = peak_rss(args.rss_kind, args.rss_items, args.rss_chunk, args.rss_jobs)
        print("peak RSS:", json.dumps(result["rss"]), flush=True)
    if "startup" not in skip:
        result["startup"] = startup()
        print("start-up:", json.dumps(result["startup"]), flush=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
