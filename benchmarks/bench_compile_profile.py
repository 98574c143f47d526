"""Which kernels the first ``sim.simulate`` call compiles, and what each costs (issue 12).

    .venv/bin/python benchmarks/bench_compile_profile.py [--policies heuristic,heuristic] [--top 30]
        [--literals]

Runs the first ``sim.simulate(1, policies=...)`` in a fresh interpreter with an empty
``NUMBA_CACHE_DIR`` and records numba's ``numba:compile`` events (``numba.core.event``): one per
specialisation compiled, nested when compiling a kernel compiles those it calls. For each
function it prints how many specialisations were compiled (more than one: the same kernel
compiled again for other argument types, often literal constants) and the CPU seconds spent
in its own compilation (its typing, lowering and the LLVM optimisation and code generation of
its library, which links the code of everything it calls), and including those it compiled.
The CPU time includes the profiler's small overhead; ``bench_cold_start.py`` gives the figure
without it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_SNIPPET = """
import json, sys, time
from numba.core import event

class Recorder(event.Listener):
    def __init__(self):
        self.stack, self.rows = [], []
    def on_start(self, ev):
        self.stack.append([time.process_time(), 0.0])
    def on_end(self, ev):
        t0, inner = self.stack.pop()
        dt = time.process_time() - t0
        if self.stack:
            self.stack[-1][1] += dt
        f = getattr(ev.data.get("dispatcher"), "py_func", None)
        name = f.__module__ + "." + f.__qualname__ if f is not None else "?"
        self.rows.append((name, str(ev.data.get("args")), dt, dt - inner))

rec = Recorder()
event.register("numba:compile", rec)
import sim
t = time.process_time()
sim.simulate(1, policies=tuple({policies!r}))
print(json.dumps({{"total": time.process_time() - t, "rows": rec.rows}}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policies", default="heuristic,heuristic")
    ap.add_argument("--top", type=int, default=30, help="functions to list (by own time)")
    ap.add_argument(
        "--literals",
        action="store_true",
        help="also list every function compiled more than once with a literal argument, and "
        "its argument types (a constant passed as is: see sim._views.opaque)",
    )
    args = ap.parse_args()
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
        out = subprocess.run(
            [sys.executable, "-c", _SNIPPET.format(policies=policies)],
            env=env,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
    if out.returncode != 0:
        raise SystemExit(f"profile failed:\n{out.stderr[-2000:]}")
    data = json.loads(out.stdout.strip().splitlines()[-1])
    per: dict[str, list] = {}
    for name, _sig, incl, own in data["rows"]:
        p = per.setdefault(name, [0, 0.0, 0.0])
        p[0] += 1
        p[1] += own
        p[2] += incl
    repeats = sum(p[0] - 1 for p in per.values())
    print(
        f"first sim.simulate(1, {tuple(policies)}), empty cache: {data['total']:.1f} s CPU; "
        f"{len(data['rows'])} specialisations of {len(per)} functions ({repeats} repeats)"
    )
    print(f"{'own s':>7} {'incl s':>7} {'n':>3}  function")
    for name, (n, own, incl) in sorted(per.items(), key=lambda kv: -kv[1][1])[: args.top]:
        print(f"{own:7.2f} {incl:7.2f} {n:3d}  {name}")
    if args.literals:
        sigs: dict[str, list] = {}
        for name, sig, _incl, own in data["rows"]:
            sigs.setdefault(name, []).append((own, sig))
        print("\nfunctions compiled more than once, with a literal argument (own s, arguments):")
        for name, rows in sorted(sigs.items(), key=lambda kv: -sum(r[0] for r in kv[1])):
            if len(rows) > 1 and any("Literal" in sig for _, sig in rows):
                print(f"{name} x{len(rows)}")
                for own, sig in rows:
                    print(f"  {own:6.2f}  {sig}")


if __name__ == "__main__":
    main()
