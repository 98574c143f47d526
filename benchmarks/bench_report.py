"""Wall time and peak memory of the main job, ``canasta report``, with a warm numba cache.

    .venv/bin/python benchmarks/bench_report.py [--rounds 2] [--baseline DIR] [-- REPORT ARGS]
    .venv/bin/python benchmarks/bench_report.py --memory --hands 20000,60000 [--jobs 2]
        [--deals 0] [--policies A,B,...]

Each round runs ``canasta report --quiet`` (the defaults unless REPORT ARGS are given, e.g.
``-- --hands 2000 --positions 40``) in a fresh interpreter, the way a user runs it, and prints
the wall seconds of the whole process and the report's own phase timings (``meta``: the
simulation, the dealt-odds sampling, the decision experiments; the rest is analysis, figures
and HTML). ``--baseline DIR`` runs a checkout of another commit (a ``git worktree``) the same
way, alternating with this tree round by round: on a shared machine only figures from the same
window compare, and the first run of a pair tends to be faster, so compare medians. Both trees
must have compiled once before (their numba caches live beside their sources): the first
round of a tree that has not is a cold start, not a report.

``--memory``: peak memory of ``canasta report`` at each ``--hands`` size, in a fresh process
each, run as ``canasta report --hands N --deals D --jobs J --policies P --quiet``:

* ``self peak``: the report process's own peak RSS (``getrusage(RUSAGE_SELF)`` at its end);
* ``tree peak``: the sum of its and its worker processes' RSS, sampled every 0.1 s;
* ``hands``: the hands simulated, ``runs x --hands`` (every pair of policies both ways);
* ``bytes/hand``: between two sizes, the growth of the self peak per extra simulated hand (the
  slope; the fixed part, interpreter, numba, pandas, matplotlib, cancels out).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_SNIPPET = """
import json, sys, time
import reports.build as B
seen = {}
real = B.build
def build(*a, **k):
    r = real(*a, **k)
    seen.update(r.meta)
    return r
B.build = build
from canasta import main
code = main(["report", "--quiet", "--out", sys.argv[1], *sys.argv[2:]])
keys = ("seconds", "simulation_seconds", "dealt_odds_seconds", "decisions_seconds")
print(json.dumps({k: seen.get(k) for k in keys} | {"code": code}))
"""

PHASES = (
    ("seconds", "report"),
    ("simulation_seconds", "simulation"),
    ("dealt_odds_seconds", "dealt odds"),
    ("decisions_seconds", "decisions"),
)


def one_run(root: Path, extra: list[str]) -> dict:
    """One ``canasta report`` in a fresh interpreter on ``root``'s sources."""
    import resource

    env = dict(os.environ, PYTHONPATH=str(root))
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "report.html")
        w0 = time.perf_counter()
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.run(
            [sys.executable, "-c", _SNIPPET, out, *extra],
            env=env,
            cwd=root,
            capture_output=True,
            text=True,
        )
        wall = time.perf_counter() - w0
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU of the report and the workers it reaped: on a shared machine the wall time moves
    # with the load, the CPU much less
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if proc.returncode != 0:
        raise SystemExit(f"report failed in {root}:\n{proc.stderr[-2000:]}")
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    return got | {"wall": wall, "cpu": cpu}


_MEMORY_CHILD = """
import json, resource, sys
out, argv = sys.argv[1], sys.argv[2:]
from canasta import main
code = main(["report", *argv, "--quiet", "--out", out])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print("PEAK " + json.dumps({"self": peak, "code": code}), file=sys.stderr)
"""


def _tree_rss(pid: int) -> int:
    import psutil

    try:
        me = psutil.Process(pid)
        procs = [me, *me.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for p in procs:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def memory_run(argv: list[str]) -> dict:
    """Peaks of one report run in a fresh process."""
    env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "report.html")
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", _MEMORY_CHILD, out, *argv],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        tree = {"peak": 0}

        def watch():
            while proc.poll() is None:
                tree["peak"] = max(tree["peak"], _tree_rss(proc.pid))
                time.sleep(0.1)

        w = threading.Thread(target=watch, daemon=True)
        w.start()
        _, err = proc.communicate()
        w.join()
        seconds = time.perf_counter() - t0
    line = [x for x in err.splitlines() if x.startswith("PEAK ")]
    if proc.returncode != 0 or not line:
        raise SystemExit(f"report run failed:\n{err[-2000:]}")
    got = json.loads(line[-1][5:])
    return {"self": got["self"], "tree": tree["peak"], "seconds": seconds}


def memory(args) -> None:
    """``--memory``: peak memory of one report run per ``--hands`` size, in fresh processes."""
    sizes = [int(x) for x in args.hands.split(",")]
    k = len([p for p in args.policies.split(",") if p])
    runs = 1 if k == 1 else k * (k - 1)
    mib = 1024 * 1024
    print(f"canasta report --deals {args.deals} --jobs {args.jobs} --policies {args.policies}")
    print(f"{'--hands':>8} {'hands':>9} {'self MiB':>9} {'tree MiB':>9} {'B/hand':>7} {'s':>6}")
    prev = None
    for n in sizes:
        argv = ["--hands", str(n), "--deals", str(args.deals), "--jobs", str(args.jobs)]
        r = memory_run([*argv, "--policies", args.policies])
        hands = runs * n
        slope = "" if prev is None else f"{(r['self'] - prev[1]) / (hands - prev[0]):.0f}"
        print(
            f"{n:>8,} {hands:>9,} {r['self'] / mib:>9.0f} {r['tree'] / mib:>9.0f} "
            f"{slope:>7} {r['seconds']:>6.0f}",
            flush=True,
        )
        prev = (hands, r["self"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--baseline", type=Path, help="another checkout (e.g. a git worktree)")
    ap.add_argument("--memory", action="store_true", help="peak memory instead of wall time")
    ap.add_argument("--hands", default="20000,60000", help="--memory: comma-separated --hands")
    ap.add_argument("--jobs", type=int, default=2, help="--memory: --jobs")
    ap.add_argument("--deals", type=int, default=0, help="--memory: dealt-odds deals (default 0)")
    ap.add_argument("--policies", default="heuristic,special_chaser,random", help="--memory")
    ap.add_argument("report_args", nargs="*", help="after --: arguments of canasta report")
    args = ap.parse_args()
    if args.memory:
        memory(args)
        return
    trees = [("this tree", ROOT)] + (
        [("baseline", args.baseline.resolve())] if args.baseline else []
    )
    runs: dict[str, list[dict]] = {name: [] for name, _ in trees}
    for r in range(args.rounds):
        order = trees if r % 2 == 0 else trees[::-1]  # alternate who goes first
        for name, root in order:
            got = one_run(root, args.report_args)
            runs[name].append(got)
            print(
                f"round {r + 1} {name}: {got['wall']:.1f} s wall, {got['cpu']:.1f} s CPU",
                file=sys.stderr,
            )
    args_text = " ".join(args.report_args) or "(defaults)"
    print(f"canasta report {args_text}, {os.cpu_count()} cores, medians of {args.rounds} rounds")
    print("| tree | wall s | CPU s | " + " | ".join(f"{label} s" for _, label in PHASES) + " |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in PHASES) + " |")
    for name, _ in trees:
        cells = [statistics.median(g["wall"] for g in runs[name])]
        cells.append(statistics.median(g["cpu"] for g in runs[name]))
        for key, _ in PHASES:
            vals = [g[key] for g in runs[name] if g.get(key) is not None]
            cells.append(statistics.median(vals) if vals else float("nan"))
        print(f"| {name} | " + " | ".join(f"{c:.1f}" for c in cells) + " |")
    if args.baseline:
        mine = statistics.median(g["wall"] for g in runs["this tree"])
        base = statistics.median(g["wall"] for g in runs["baseline"])
        print(f"\nbaseline / this tree (wall): {base / mine:.2f}x")
        cpu_mine = statistics.median(g["cpu"] for g in runs["this tree"])
        cpu_base = statistics.median(g["cpu"] for g in runs["baseline"])
        print(f"this tree / baseline (CPU): {cpu_mine / cpu_base:.2f}x (target: at most 1.2x)")


if __name__ == "__main__":
    main()
