"""Wall time of the main job, ``canasta report``, with a warm numba cache (issue 12).

    .venv/bin/python benchmarks/bench_report.py [--rounds 2] [--baseline DIR] [-- REPORT ARGS]

Each round runs ``canasta report --quiet`` (the defaults unless REPORT ARGS are given, e.g.
``-- --hands 2000 --positions 40``) in a fresh interpreter, the way a user runs it, and prints
the wall seconds of the whole process and the report's own phase timings (``meta``: the
simulation, the dealt-odds sampling, the decision experiments; the rest is analysis, figures
and HTML). ``--baseline DIR`` runs a checkout of another commit (a ``git worktree``) the same
way, alternating with this tree round by round: on a shared machine only figures from the same
window compare, and the first run of a pair tends to be faster, so compare medians. Both trees
must have compiled once before (their numba caches live beside their sources): the first
round of a tree that has not is a cold start, not a report.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
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

PHASES = (("seconds", "report"), ("simulation_seconds", "simulation"),
          ("dealt_odds_seconds", "dealt odds"), ("decisions_seconds", "decisions"))  # fmt: skip


def one_run(root: Path, extra: list[str]) -> dict:
    """One ``canasta report`` in a fresh interpreter on ``root``'s sources."""
    env = dict(os.environ, PYTHONPATH=str(root))
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "report.html")
        w0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", _SNIPPET, out, *extra], env=env, cwd=root,
                              capture_output=True, text=True)  # fmt: skip
        wall = time.perf_counter() - w0
    if proc.returncode != 0:
        raise SystemExit(f"report failed in {root}:\n{proc.stderr[-2000:]}")
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    return got | {"wall": wall}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--baseline", type=Path, help="another checkout (e.g. a git worktree)")
    ap.add_argument("report_args", nargs="*", help="after --: arguments of canasta report")
    args = ap.parse_args()
    trees = [("this tree", ROOT)] + ([("baseline", args.baseline.resolve())] if args.baseline
                                     else [])  # fmt: skip
    runs: dict[str, list[dict]] = {name: [] for name, _ in trees}
    for r in range(args.rounds):
        order = trees if r % 2 == 0 else trees[::-1]  # alternate who goes first
        for name, root in order:
            got = one_run(root, args.report_args)
            runs[name].append(got)
            print(f"round {r + 1} {name}: {got['wall']:.1f} s wall", file=sys.stderr)
    args_text = " ".join(args.report_args) or "(defaults)"
    print(f"canasta report {args_text}, {os.cpu_count()} cores, medians of {args.rounds} rounds")
    print("| tree | wall s | " + " | ".join(f"{label} s" for _, label in PHASES) + " |")
    print("| --- | --- | " + " | ".join("---" for _ in PHASES) + " |")
    for name, _ in trees:
        cells = [statistics.median(g["wall"] for g in runs[name])]
        for key, _ in PHASES:
            vals = [g[key] for g in runs[name] if g.get(key) is not None]
            cells.append(statistics.median(vals) if vals else float("nan"))
        print(f"| {name} | " + " | ".join(f"{c:.1f}" for c in cells) + " |")
    if args.baseline:
        mine = statistics.median(g["wall"] for g in runs["this tree"])
        base = statistics.median(g["wall"] for g in runs["baseline"])
        print(f"\nbaseline / this tree (wall): {base / mine:.2f}x")


if __name__ == "__main__":
    main()
