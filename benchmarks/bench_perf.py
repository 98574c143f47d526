"""Where the hand loop's CPU time goes, by compiled function, sampled by Linux ``perf``.

    .venv/bin/python benchmarks/bench_perf.py [--hands 60000] [--pair heuristic,heuristic]
        [--top 30]

numba's code has no symbols that ``perf`` can read, so this script compiles everything afresh
(an empty ``NUMBA_CACHE_DIR`` of its own: a cached library keeps no module to name its
functions), writes ``/tmp/perf-<pid>.map`` (each compiled function's address, size and name),
then samples its own process with ``perf record`` while it plays ``--hands`` hands through
``sim.api.play_hands``, and prints the functions' shares (``perf report``). Kernels inlined
into a caller count as the caller. Found with it (issue 12, seventh pass): numba's reference
counting (``NRT_incref``/``NRT_decref``) took ~35% of a heuristic hand. Needs ``perf``
(``linux-tools``) and takes a cold compile (~1-2 minutes) first.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def write_perf_map() -> int:
    """``/tmp/perf-<pid>.map`` for every function numba compiled in this process."""
    import gc

    from numba.core.registry import CPUDispatcher

    entries = {}
    for obj in gc.get_objects():
        if not isinstance(obj, CPUDispatcher):
            continue
        for cres in obj.overloads.values():
            lib = cres.library
            mod = getattr(lib, "_final_module", None)
            if mod is None:
                continue
            engine = lib._codegen._engine
            for fn in mod.functions:
                if fn.is_declaration:
                    continue
                addr = engine.get_function_address(fn.name)
                if addr:
                    entries[addr] = fn.name
    addrs = sorted(entries)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
        for i, a in enumerate(addrs):
            size = min(addrs[i + 1] - a if i + 1 < len(addrs) else 4096, 1 << 20)
            fh.write(f"{a:x} {size:x} {entries[a]}\n")
    return len(addrs)


def profile(n_hands: int, pair: tuple[str, str], out: str) -> None:
    """Compile, map, then play ``n_hands`` hands under ``perf record`` (this process)."""
    from sim.api import play_hands
    from sim.rng import run_key

    play_hands(run_key(0), 0, 10, pair)  # compiles everything (no cache)
    n = write_perf_map()
    rec = subprocess.Popen(
        ["perf", "record", "-F", "4000", "-p", str(os.getpid()), "-o", out],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)  # perf attaches
    t = time.process_time()
    play_hands(run_key(1), 0, n_hands, pair)
    dt = time.process_time() - t
    rec.send_signal(signal.SIGINT)
    rec.wait()
    print(f"{n} compiled functions mapped; {n_hands / dt:,.0f} hands/s under perf", flush=True)


def report(out: str, top: int) -> None:
    """The functions' shares of the samples, numba's mangled names shortened."""
    text = subprocess.run(
        ["perf", "report", "-i", out, "--no-children", "--sort", "sym", "--stdio"],
        capture_output=True,
        text=True,
    ).stdout
    print("| share | function |\n| --- | --- |")
    shown = 0
    for line in text.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[[.k]\]\s+(\S+)", line)
        if not m:
            continue
        name = re.sub(r"B\d+v\d+B\d+c8tJTIeF.*", "", m.group(2))
        name = re.sub(r"^_ZN(?:\d+)", "", name)
        name = re.sub(r"\d+", ".", name).strip(".")  # length-prefixed parts: sim.engine.play...
        print(f"| {m.group(1)}% | {name} |")
        shown += 1
        if shown >= top:
            break


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=60000)
    ap.add_argument("--pair", default="heuristic,heuristic")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--child", default="", help=argparse.SUPPRESS)
    args = ap.parse_args()
    pair = tuple(args.pair.split(","))
    if args.child:  # the fresh process on an empty cache
        profile(args.hands, pair, args.child)
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "perf.data")
        env = dict(
            os.environ,
            NUMBA_CACHE_DIR=os.path.join(tmp, "cache"),
            CANASTA_PARALLEL_COMPILE="0",
            PYTHONPATH=str(ROOT),
        )
        cmd = [sys.executable, __file__, "--hands", str(args.hands), "--pair", args.pair]
        subprocess.run([*cmd, "--child", out], env=env, cwd=ROOT, check=True)
        report(out, args.top)


if __name__ == "__main__":
    main()
