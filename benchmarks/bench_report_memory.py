"""Peak memory of ``canasta report`` at a given --hands, in a fresh process (issue 12).

    .venv/bin/python benchmarks/bench_report_memory.py --hands 20000,60000 [--jobs 2]
        [--deals 0] [--policies A,B,...] [--in-memory]

For each size, one fresh process runs the report exactly as ``canasta report --hands N
--deals D --jobs J --quiet`` does (``canasta.main``) and reports:

* ``self peak``: the report process's own peak RSS (``getrusage(RUSAGE_SELF)`` at its end);
* ``tree peak``: the sum of its and its worker processes' RSS, sampled every 0.1 s;
* ``hands``: the hands simulated, ``runs × --hands`` (every pair of policies both ways);
* ``bytes/hand``: between two sizes, the growth of the self peak per extra simulated hand (the
  slope; the fixed part, interpreter, numba, pandas, matplotlib, cancels out).

``--in-memory`` measured the in-memory path that held every record; that path is gone (issue
34: one streamed report path), so it now stops with a note: measure a worktree of an older
commit for that baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = """
import json, resource, sys
mode, out, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
if mode == "cli":
    from canasta import main
    code = main(["report", *argv, "--quiet", "--out", out])
else:  # the in-memory report path was removed (issue 34): only an older commit has it
    sys.exit("--in-memory: the in-memory report path is gone; run this on an older worktree")
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


def measure(mode: str, argv: list[str]) -> dict:
    """Peaks of one report run in a fresh process."""
    env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "report.html")
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", _CHILD, mode, out, *argv],
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
        raise SystemExit(f"report run failed ({mode}):\n{err[-2000:]}")
    got = json.loads(line[-1][5:])
    return {"self": got["self"], "tree": tree["peak"], "seconds": seconds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", default="20000,60000", help="comma-separated --hands values")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--deals", type=int, default=0, help="dealt-odds deals (default 0)")
    ap.add_argument("--policies", default="heuristic,special_chaser,random")
    ap.add_argument("--in-memory", action="store_true", help="also the in-memory baseline")
    args = ap.parse_args()
    sizes = [int(x) for x in args.hands.split(",")]
    k = len([p for p in args.policies.split(",") if p])
    runs = 1 if k == 1 else k * (k - 1)
    modes = ["cli", *(["in-memory"] if args.in_memory else [])]
    mib = 1024 * 1024
    print(f"canasta report --deals {args.deals} --jobs {args.jobs} --policies {args.policies}")
    print(f"{'path':<10} {'--hands':>8} {'hands':>9} {'self MiB':>9} {'tree MiB':>9} "
          f"{'B/hand':>7} {'s':>6}")  # fmt: skip
    for mode in modes:
        prev = None
        for n in sizes:
            argv = ["--hands", str(n), "--deals", str(args.deals), "--jobs", str(args.jobs)]
            r = measure(mode, [*argv, "--policies", args.policies])
            hands = runs * n
            slope = "" if prev is None else f"{(r['self'] - prev[1]) / (hands - prev[0]):.0f}"
            print(
                f"{mode:<10} {n:>8,} {hands:>9,} {r['self'] / mib:>9.0f} {r['tree'] / mib:>9.0f} "
                f"{slope:>7} {r['seconds']:>6.0f}",
                flush=True,
            )
            prev = (hands, r["self"])


if __name__ == "__main__":
    main()
