"""Cold and warm start, and where the compile time goes: the first ``sim.simulate`` call of a
fresh process.

    .venv/bin/python benchmarks/bench_cold_start.py [--policies heuristic,heuristic]
        [--breakdown] [--code-size] [--baseline DIR] [--serial]
    .venv/bin/python benchmarks/bench_cold_start.py --profile [--top 30] [--literals]
    .venv/bin/python benchmarks/bench_cold_start.py --serve [--web-profile]

Cold: a fresh interpreter with an empty ``NUMBA_CACHE_DIR``, timing ``import sim`` and the
first ``sim.simulate(1, policies=...)``: wall seconds, and CPU seconds of that process plus
its children (``sim.warm`` compiles the chunk kernel in a second process on a machine
with two cores or more; ``--serial`` turns that off, ``CANASTA_PARALLEL_COMPILE=0``). Warm: a second
fresh interpreter on the cache the first one filled (the issue asks < 1 s). ``--breakdown``
compiles the compiled modules one at a time in another fresh process (engine kernels, the
built-in policies, strong, expert) to show where a full compile goes. ``--baseline DIR``
measures a checkout of another commit (e.g. a ``git worktree``) the same way, right after, and
prints the ratio: on a shared machine only figures from the same window compare.
``--code-size`` compiles the chunk kernel and the policies, each in a fresh process on an empty
cache, and counts the lines of machine code numba emitted for every compiled function (each
library holds the code of the callees LLVM inlined into it): a measure of compile work that,
unlike seconds, does not depend on what else the machine is doing (issue 12, tenth pass: the
shared machine's cold start varied by 30% within an hour; this count does not vary); beside
it, the CPU seconds of each function's own compile (numba's compile events, callees apart).

``--profile``: which kernels the first call compiles and what each costs. It runs the first
``sim.simulate(1, policies=...)`` in a fresh interpreter with an empty ``NUMBA_CACHE_DIR`` and
records numba's ``numba:compile`` events (``numba.core.event``): one per specialisation
compiled, nested when compiling a kernel compiles those it calls. For each function it prints
how many specialisations were compiled (more than one: the same kernel compiled again for
other argument types, often literal constants) and the CPU seconds spent in its own
compilation and including those it compiled (the profiler's small overhead included).
``--literals`` lists the functions compiled more than once with a literal argument.

``--serve``: the web table's first start as a player meets it. ``canasta serve`` is started
in a fresh process on an empty ``NUMBA_CACHE_DIR`` (and empty state and equity caches); as soon
as it answers, the page's first deal is asked for (``POST /api/new``, one hand, the server's
default bots), then the first bots' turns (the player's first move, ``POST /api/move``), and
the warm-up's end is awaited (``GET /api/ready``). Each is timed in wall seconds from the
start of the process, with the CPU seconds of the server's processes (its own and its
children's, from ``/proc``) at that moment: on a shared machine the wall clock depends on the
load, the CPU seconds much less. ``--web-profile``: which kernels the web table's steps compile
in order (the deal, the page's view, the bots' first turn, the hint), own CPU seconds each.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_FIRST_CALL = """
import json, resource, time
t0, w0 = time.process_time(), time.perf_counter()
import sim
t1, w1 = time.process_time(), time.perf_counter()
sim.simulate(1, policies=tuple({policies!r}))
t2, w2 = time.process_time(), time.perf_counter()
c = resource.getrusage(resource.RUSAGE_CHILDREN)
child = c.ru_utime + c.ru_stime
print(json.dumps({{"import_cpu": t1 - t0, "first_call_cpu": t2 - t1 + child,
                  "children_cpu": child, "first_call_wall": w2 - w1}}))
"""

_BREAKDOWN = """
import json, time
out = {}
t = time.process_time()
import sim
for name, stmt in [
    ("engine kernels (sim.engine.play)", "import sim.engine.play"),
    ("heuristic", "from sim.policies import get; get('heuristic').decide"),
    ("random, greedy, special_chaser", "from sim.policies import get; "
     "[get(n).decide for n in ('random', 'greedy', 'special_chaser')]"),
    ("strong", "from sim.policies import get; get('strong').decide"),
    ("expert (+ expert_strong)", "from sim.policies import get; get('expert').decide"),
]:
    exec(stmt)
    n = time.process_time()
    out[name] = n - t
    t = n
print(json.dumps(out))
"""

_CODE_SIZE = """
import gc, json, time
from numba.core import event
from numba.core.registry import CPUDispatcher
stack, seconds = [], {{}}  # CPU seconds of each function's own compile (its callees' apart)
class Listener(event.Listener):
    def on_start(self, e):
        f = e.data["dispatcher"].py_func
        stack.append([f.__module__ + "." + f.__qualname__, time.process_time(), 0.0])
    def on_end(self, e):
        name, t0, inner = stack.pop()
        took = time.process_time() - t0
        seconds[name] = seconds.get(name, 0.0) + took - inner
        if stack:
            stack[-1][2] += took
event.register("numba:compile", Listener())
import sim
what = {what!r}
if what == "kernel":
    from sim.engine.play import play_hands_kernel, ready_kernel
    ready_kernel(play_hands_kernel)
else:
    from sim.policies import get
    get(what).decide
asm = {{}}
for obj in gc.get_objects():
    if isinstance(obj, CPUDispatcher):
        name = obj.py_func.__module__ + "." + obj.py_func.__qualname__
        for cres in obj.overloads.values():
            asm[name] = asm.get(name, 0) + cres.library.get_asm_str().count("\\n")
print(json.dumps({{"asm": asm, "seconds": seconds}}))
"""

SERIAL = {}  #: extra environment (--serial)


def _cpu(pid: int) -> float:
    """CPU seconds of process ``pid`` and its children, live or reaped (Linux ``/proc``)."""
    tick = os.sysconf("SC_CLK_TCK")

    def fields(p) -> list[str]:
        text = Path(f"/proc/{p}/stat").read_text()
        return text[text.rindex(")") + 2 :].split()  # after the command's name

    try:
        f = fields(pid)
    except OSError:
        return float("nan")
    total = sum(int(x) for x in f[11:15])  # utime, stime, cutime, cstime
    for d in Path("/proc").iterdir():
        if d.name.isdigit() and d.name != str(pid):
            try:
                g = fields(d.name)
            except OSError:
                continue
            if int(g[1]) == pid:  # a live child
                total += sum(int(x) for x in g[11:15])
    return total / tick


def serve_first_deal(timeout: float = 3600.0, show=None) -> dict:
    """``--serve``: the first deal, the first bots' turns and the warm-up's end of a fresh
    ``canasta serve`` on empty caches, wall seconds from its start and the server's CPU
    seconds then (module docstring); ``show(name, mark)`` is called as each is reached."""
    import socket
    import time
    import urllib.error
    import urllib.request

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(
            os.environ,
            NUMBA_CACHE_DIR=f"{tmp}/numba",
            CANASTA_EQUITY_CACHE=f"{tmp}/equity",
            PYTHONPATH=str(ROOT),
        )
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "canasta", "serve", "--port", str(port), "--state", f"{tmp}/t"],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        jar, key = {}, []

        def call(path: str, body=None) -> dict:
            req = urllib.request.Request(base + path)
            if body is not None:
                req.data = json.dumps(body).encode()
                req.add_header("Content-Type", "application/json")
            if jar:
                req.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in jar.items()))
            if key:  # the table's key, kept as the page keeps it
                req.add_header("X-Canasta-Key", key[0])
            with urllib.request.urlopen(req, timeout=timeout) as r:
                if r.headers.get("X-Canasta-Key"):
                    key[:] = [r.headers["X-Canasta-Key"]]
                for h in r.headers.get_all("Set-Cookie") or []:
                    k, _, v = h.split(";")[0].partition("=")
                    jar[k.strip()] = v.strip()
                return json.loads(r.read())

        def mark(name: str) -> None:
            out[name] = {"wall": time.perf_counter() - t0, "cpu": _cpu(proc.pid)}
            if show is not None:
                show(name, out[name])

        try:
            while True:
                if proc.poll() is not None:
                    raise SystemExit(f"canasta serve stopped: {proc.stderr.read()[-2000:]!r}")
                try:
                    call("/api/options")
                    break
                except OSError:
                    time.sleep(0.1)
            mark("answers")
            view = call("/api/new", {"mode": "hand"})
            mark("first deal")
            # the player's first turn played to its end (a draw, then a discard the rules
            # allow): the bots then play theirs, which the answer waits for
            if "lay" in (view.get("moves") or []):  # threes first (DEAL-4)
                view = call("/api/move", {"move": "lay", "move_no": view["move_no"]})
            moves = view.get("moves") or []
            if "draw" in moves:
                view = call("/api/move", {"move": "draw", "move_no": view["move_no"]})
            refused = []
            for card in dict.fromkeys(view.get("hand") or []):
                try:
                    body = {"move": "discard", "cards": [card], "move_no": view["move_no"]}
                    view = call("/api/move", body)
                except urllib.error.HTTPError as exc:  # a discard refused: the next card
                    refused.append(f"{card}: {exc.code} {exc.read()[:120]!r}")
                    continue
                mark("first bots' turns")
                break
            else:
                print("  the player's first turn did not end:", "; ".join(refused), flush=True)
            while not call("/api/ready")["ready"]:
                time.sleep(0.5)
            mark("warm-up done")
        finally:
            proc.terminate()
            proc.wait(30)
    return out


def _run(snippet: str, root: Path, cache: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(root), **SERIAL)
    out = subprocess.run(
        [sys.executable, "-c", snippet], env=env, capture_output=True, text=True, cwd=root
    )
    if out.returncode != 0:
        raise SystemExit(f"benchmark snippet failed in {root}:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def code_size(root: Path, policies: list[str]) -> dict:
    """Lines of machine code and compile seconds per compiled function: the chunk kernel's
    process and each policy's, each compiled alone on an empty cache (what the two processes
    of a first run compile)."""
    out = {}
    for what in ["kernel", *dict.fromkeys(policies)]:
        with tempfile.TemporaryDirectory() as cache:
            out[what] = _run(_CODE_SIZE.format(what=what), root, cache)
    return out


def measure(root: Path, policies: list[str], breakdown: bool, sizes: bool = False) -> dict:
    """Cold then warm first call of ``root``'s sources (and the breakdown and code sizes, if
    asked)."""
    snippet = _FIRST_CALL.format(policies=policies)
    with tempfile.TemporaryDirectory() as cache:
        cold = _run(snippet, root, cache)
        warm = _run(snippet, root, cache)
    result = {"cold": cold, "warm": warm}
    if breakdown:
        with tempfile.TemporaryDirectory() as cache:
            result["breakdown"] = _run(_BREAKDOWN, root, cache)
    if sizes:
        result["code_size"] = code_size(root, policies)
    return result


def _show(label: str, r: dict) -> None:
    c, w = r["cold"], r["warm"]
    print(
        f"{label}: cold first call {c['first_call_wall']:.1f} s wall, "
        f"{c['first_call_cpu']:.1f} s CPU (second process {c.get('children_cpu', 0):.1f}), "
        f"import {c['import_cpu']:.2f} s; warm first call {w['first_call_wall']:.2f} s wall "
        f"({w['first_call_cpu']:.2f} s CPU)"
    )
    for name, sec in r.get("breakdown", {}).items():
        print(f"    {name:<36}{sec:7.1f} s CPU")
    for what, c in r.get("code_size", {}).items():
        asm, sec = c["asm"], c["seconds"]
        top = sorted(asm.items(), key=lambda kv: -kv[1])[:6]
        print(
            f"    {what}: {sum(asm.values()):,} lines of machine code in {len(asm)} functions "
            f"({sum(sec.values()):.1f} s CPU compiling); largest: "
            + ", ".join(f"{n.rsplit('.', 1)[-1]} {v:,} ({sec.get(n, 0):.1f} s)" for n, v in top)
        )


#: the compile events of a fresh interpreter, one row each: (the step it ran in, the function,
#: its argument types, inclusive CPU s, own CPU s); the script after it may rename ``step[0]``
_RECORDER = """
import json, time
from numba.core import event
step = ["import"]

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
        self.rows.append((step[0], name, str(ev.data.get("args")), dt, dt - inner))

rec = Recorder()
event.register("numba:compile", rec)
"""

_PROFILE = (
    _RECORDER
    + """import sim
t = time.process_time()
sim.simulate(1, policies=tuple({policies!r}))
print(json.dumps({{"total": time.process_time() - t, "rows": rec.rows}}))
"""
)


_WEB_PROFILE = (
    _RECORDER
    + """marks = []
t0 = time.process_time()
def mark(name):
    marks.append((step[0], time.process_time() - t0))
    step[0] = name
import canasta.web.table  # noqa: F401  (the import is a step of its own)
from canasta.web.warmup import PLAN, warm
mark(PLAN[0])
names = iter(PLAN[1:] + ("end",))
warm("strong", lambda: mark(next(names)))  # the server's own plan, step by step
print(json.dumps({"marks": marks, "rows": rec.rows}))
"""
)


def web_profile(top: int) -> None:
    """``--web-profile``: the kernels each step of the server's warm-up plan
    (``canasta.web.warmup.PLAN``, run by its own ``warm``) compiles, in order (a fresh
    interpreter, empty cache), with own CPU seconds."""
    with tempfile.TemporaryDirectory() as cache:
        data = _run(_WEB_PROFILE, ROOT, cache)
    per: dict[str, dict[str, float]] = {}
    for step, name, _sig, _incl, own in data["rows"]:
        per.setdefault(step, {})
        per[step][name] = per[step].get(name, 0.0) + own
    print("the web table's first use, empty cache (strong bots, tournament rules): CPU s")
    marks = data["marks"]
    for (_, before), (step, after) in itertools.pairwise(marks):
        cpu = after - before
        rows = per.get(step, {})
        print(f"{step}: {cpu:.1f} s CPU, {sum(rows.values()):.1f} s of it compiling")
        for name, own in sorted(rows.items(), key=lambda kv: -kv[1])[:top]:
            print(f"  {own:6.1f}  {name}")


def profile(policies: list[str], top: int, literals: bool) -> None:
    """``--profile``: the first call's compile events, per function (own and inclusive CPU s)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
        out = subprocess.run(
            [sys.executable, "-c", _PROFILE.format(policies=policies)],
            env=env,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
    if out.returncode != 0:
        raise SystemExit(f"profile failed:\n{out.stderr[-2000:]}")
    data = json.loads(out.stdout.strip().splitlines()[-1])
    per: dict[str, list] = {}
    for _step, name, _sig, incl, own in data["rows"]:
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
    for name, (n, own, incl) in sorted(per.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"{own:7.2f} {incl:7.2f} {n:3d}  {name}")
    if literals:
        sigs: dict[str, list] = {}
        for _step, name, sig, _incl, own in data["rows"]:
            sigs.setdefault(name, []).append((own, sig))
        print("\nfunctions compiled more than once, with a literal argument (own s, arguments):")
        for name, rows in sorted(sigs.items(), key=lambda kv: -sum(r[0] for r in kv[1])):
            if len(rows) > 1 and any("Literal" in sig for _, sig in rows):
                print(f"{name} x{len(rows)}")
                for own, sig in rows:
                    print(f"  {own:6.2f}  {sig}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policies", default="heuristic,heuristic")
    ap.add_argument("--breakdown", action="store_true")
    ap.add_argument("--code-size", action="store_true", help="machine code per function")
    ap.add_argument("--baseline", type=Path, default=None, help="another checkout to compare")
    ap.add_argument("--serial", action="store_true", help="compile in one process only")
    ap.add_argument("--profile", action="store_true", help="compile events per function instead")
    ap.add_argument("--top", type=int, default=30, help="--profile: functions to list (own time)")
    ap.add_argument("--serve", action="store_true", help="canasta serve's first deal, cold")
    ap.add_argument(
        "--web-profile", action="store_true", help="the web table's steps' compiles, in order"
    )
    ap.add_argument(
        "--literals",
        action="store_true",
        help="--profile: also list every function compiled more than once with a literal "
        "argument, and its argument types (a constant passed as is: see sim._views.opaque)",
    )
    args = ap.parse_args()
    if args.serial:
        SERIAL["CANASTA_PARALLEL_COMPILE"] = "0"
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    if args.profile:
        profile(policies, args.top, args.literals)
        return
    if args.web_profile:
        web_profile(args.top)
        return
    if args.serve:
        print(
            "canasta serve, fresh process, empty numba cache (its default bots, strong; "
            "tournament rules; one hand):"
        )
        serve_first_deal(
            show=lambda name, m: print(
                f"  {name:<18} {m['wall']:7.1f} s wall after start, {m['cpu']:7.1f} s CPU",
                flush=True,
            )
        )
        return
    print(f"sim.simulate(1, policies={tuple(policies)}), fresh process, empty numba cache")
    here = measure(ROOT, policies, args.breakdown, args.code_size)
    _show(f"this tree ({ROOT})", here)
    if args.baseline:
        base = measure(args.baseline.resolve(), policies, args.breakdown, args.code_size)
        _show(f"baseline ({args.baseline})", base)
        b, h = base["cold"], here["cold"]
        print(
            f"cold first call: {b['first_call_wall'] / h['first_call_wall']:.2f}x less wall, "
            f"{b['first_call_cpu'] / h['first_call_cpu']:.2f}x less CPU than the baseline"
        )
        for what in here.get("code_size", {}):
            hs = sum(here["code_size"][what]["asm"].values())
            bs = sum(base["code_size"][what]["asm"].values())
            print(
                f"{what}: {hs:,} lines of machine code against the baseline's {bs:,} "
                f"({hs / bs:.2f}x)"
            )


if __name__ == "__main__":
    main()
