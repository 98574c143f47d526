"""Speed of one tree against another, each in its own environment, interleaved on a noisy host.

    .venv/bin/python benchmarks/bench_ab.py --base 1125899 --head HEAD [--job hands]
        [--spec heuristic,heuristic] [--base-spec SPEC] [--size 300,20000] [--slices 8]

Each side is a tree of its own: a commit given by name is unpacked (``git archive``) into
``--workdir/<commit>`` once and kept, so its numba cache (``__pycache__`` beside its sources)
stays warm from run to run; a directory is used as it is (``--head`` defaults to this working
tree, uncommitted edits included). Each side runs in a worker process (``_ab_worker.py``) whose
``PYTHONPATH`` is its tree alone, with ``NUMBA_CACHE_DIR`` unset: the worker reports where its
modules and numba caches came from, and the run stops if any lies outside its tree (an editable
install of another checkout answers for any package a tree lacks). Both workers make one
untimed call of the job at each timed size (the compile, or the load of the cache) before any
timing, then are asked in turn for one call each, the order swapped at every pair, so the two
calls of a pair run seconds apart on the same host. CPU time of the worker.

Reported for each size: each side's median rate (units a CPU second) and CPU a call, the median
of the per-pair ratios head/base with the middle half, the digests of the work (the same on
both sides when the two do the same work), and the load average before and after. With two
sizes or more of ``hands``, a straight line through each side's median CPU a call splits it
into a fixed cost a call (the Python layer) and a cost a hand (the compiled play): a ratio at
300 hands a call is mostly the first, at 20,000 mostly the second.

On a shared virtual machine the speed of a core drifts by 10-30% over seconds, and whole runs
taken one after another compare windows, not trees: compare only figures from one run of this
script.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKER = Path(__file__).resolve().with_name("_ab_worker.py")
JOBS = ("hands", "expert", "label")
UNITS = {"hands": "hands", "expert": "searched decisions", "label": "hands"}
DEFAULT_SPEC = {"hands": "heuristic,heuristic", "expert": "expert", "label": "strong"}
DEFAULT_SIZE = {"hands": "300,20000", "expert": "40", "label": "40"}


class ABError(Exception):
    """A side that cannot be measured as asked (one line for the command line)."""


def git(*args: str, cwd: Path = ROOT) -> str:
    out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if out.returncode:
        raise ABError(f"git {' '.join(args)}: {out.stderr.strip() or 'failed'}")
    return out.stdout.strip()


def tree_of(ref: str, workdir: Path, repo: Path = ROOT) -> Path:
    """The directory holding ``ref``: itself if it is a directory, else an unpacked copy of the
    commit (made once, atomically, under ``workdir``)."""
    if Path(ref).is_dir():
        tree = Path(ref).resolve()
        if not (tree / "sim" / "__init__.py").is_file():
            raise ABError(f"{tree}: no sim/__init__.py, not a tree of the project")
        return tree
    try:
        sha = git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", cwd=repo)
    except ABError:
        raise ABError(f"{ref}: neither a directory nor a commit of {repo}") from None
    dest = workdir / sha[:12]
    if (dest / ".ab-commit").is_file():
        return dest.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{sha[:12]}-", dir=workdir))
    archive = subprocess.run(["git", "archive", sha], cwd=repo, capture_output=True)
    if archive.returncode:
        shutil.rmtree(tmp)
        raise ABError(f"git archive {sha}: {archive.stderr.decode().strip()}")
    with tempfile.TemporaryFile() as f:
        f.write(archive.stdout)
        f.seek(0)
        with tarfile.open(fileobj=f) as tar:
            tar.extractall(tmp, filter="data")
    (tmp / ".ab-commit").write_text(sha + "\n")
    try:
        tmp.rename(dest)
    except OSError:  # another run unpacked it first
        shutil.rmtree(tmp)
    return dest.resolve()


def worker_env(tree: Path) -> dict:
    """This environment with the tree alone on ``PYTHONPATH`` and numba's cache left beside
    the tree's sources (no ``NUMBA_CACHE_DIR`` inherited from the caller)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
    env["PYTHONPATH"] = str(tree)
    env["PYTHONNOUSERSITE"] = "1"
    return env


class Worker:
    """One side's process: started, checked and warmed by the constructor."""

    def __init__(self, name: str, tree: Path, job: str, spec, size: int, python: str):
        self.name, self.tree = name, tree
        cfg = {"tree": str(tree), "job": job, "spec": spec, "size": size}
        self.proc = subprocess.Popen(
            [python, "-P", str(WORKER), json.dumps(cfg)],
            cwd=tree,
            env=worker_env(tree),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.imports = self._read("imports")["imports"]
        self._check_imports(self.imports)
        ready = self._read("ready")
        self._check_imports(ready["imports"])
        outside = [d for d in ready["caches"] if not _inside(d, tree)]
        if outside:
            self.close()
            raise ABError(f"{name}: numba caches outside {tree}: {outside[0]}")
        self.warm_cpu = ready["warm_cpu"]
        self.caches = ready["caches"]

    def _read(self, key: str) -> dict:
        line = self.proc.stdout.readline()
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            msg = {}
        if key not in msg:
            self.close()
            raise ABError(f"{self.name} ({self.tree}): the worker stopped before '{key}'")
        return msg

    def _check_imports(self, imports: dict) -> None:
        if imports["outside"] or not _inside(imports["sim"], self.tree):
            bad = imports["outside"][:1] or [f"sim from {imports['sim']}"]
            self.close()
            raise ABError(f"{self.name}: imports outside its tree {self.tree}: {bad[0]}")

    def run(self) -> dict:
        self.proc.stdin.write("run\n")
        self.proc.stdin.flush()
        return self._read("cpu")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=60)


def _inside(path: str | None, tree: Path) -> bool:
    return path is not None and os.path.realpath(path).startswith(str(tree) + os.sep)


def interleave(workers: dict[str, Worker], slices: int) -> dict[str, list[dict]]:
    """``slices`` calls of each worker, in pairs, the order swapped at every pair."""
    names = list(workers)
    got = {n: [] for n in names}
    for i in range(slices):
        for n in names if i % 2 == 0 else names[::-1]:
            got[n].append(workers[n].run())
    return got


def summary(job: str, size: int, got: dict[str, list[dict]]) -> dict:
    rates = {n: [r["units"] / r["cpu"] for r in rs] for n, rs in got.items()}
    ratios = [h / b for h, b in zip(rates["head"], rates["base"], strict=True)]
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    return {
        "job": job,
        "size": size,
        "units": {n: rs[0]["units"] for n, rs in got.items()},
        "rate": {n: statistics.median(r) for n, r in rates.items()},
        "cpu": {n: statistics.median(r["cpu"] for r in rs) for n, rs in got.items()},
        "digests": {n: sorted({r["digest"] for r in rs}) for n, rs in got.items()},
        "ratio": statistics.median(ratios),
        "middle_half": (q[0], q[2]),
        "slices": len(ratios),
    }


def fixed_and_marginal(rows: list[dict], side: str) -> tuple[float, float]:
    """Least-squares line CPU(n) = a + b n through a side's median CPU a call at each size:
    (a in ms a call, 1/b in hands a CPU second)."""
    xs = [r["size"] for r in rows]
    ys = [r["cpu"][side] for r in rows]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )
    return 1000 * (my - b * mx), 1 / b


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", "--baseline", required=True, help="a commit or a directory")
    ap.add_argument("--head", default=str(ROOT), help="a commit or a directory (this tree)")
    ap.add_argument("--job", choices=JOBS, default="hands")
    ap.add_argument("--spec", help="policy spec(s) of both sides (the job's default)")
    ap.add_argument("--base-spec", help="the base's spec when its names differ")
    ap.add_argument("--pair", help="--spec for the hands job (older name)")
    ap.add_argument("--size", "--hands", help="units a call, comma-separated sizes")
    ap.add_argument("--slices", type=int, default=8, help="timed calls a side at each size")
    ap.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "canasta-ab")
    ap.add_argument("--python", default=sys.executable, help="interpreter of both sides")
    ap.add_argument("--json", action="store_true", help="also print the rows as JSON")
    args = ap.parse_args(argv)
    try:
        return _run(args)
    except ABError as e:
        print(f"bench_ab: {e}", file=sys.stderr)
        return 2


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) < 1:
        raise ABError(f"--size {text!r}: expected positive integers separated by commas")
    return sizes


def _spec(job: str, text: str):
    return text.split(",") if job == "hands" else text


def _run(args) -> int:
    if args.slices < 1:
        raise ABError("--slices must be positive")
    sizes = _sizes(args.size or DEFAULT_SIZE[args.job])
    spec = args.spec or args.pair or DEFAULT_SPEC[args.job]
    specs = {"base": _spec(args.job, args.base_spec or spec), "head": _spec(args.job, spec)}
    trees = {"base": tree_of(args.base, args.workdir), "head": tree_of(args.head, args.workdir)}
    if trees["base"] == trees["head"]:
        print("note: base and head are the same tree (an A/A run)")
    load0 = os.getloadavg()
    c0 = time.time()
    rows = []
    for size in sizes:
        workers = {}
        try:
            for n in ("base", "head"):
                workers[n] = Worker(n, trees[n], args.job, specs[n], size, args.python)
            got = interleave(workers, args.slices)
        finally:
            for w in workers.values():
                w.close()
        row = summary(args.job, size, got)
        row["warm_cpu"] = {n: w.warm_cpu for n, w in workers.items()}
        rows.append(row)
        _print_row(row, trees, specs)
    load1 = os.getloadavg()
    children = os.times()
    print(
        f"load average {load0[0]:.1f} before, {load1[0]:.1f} after; "
        f"{time.time() - c0:.0f} s wall, {children.children_user + children.children_system:.0f}"
        " s CPU in the workers (warm-ups included)"
    )
    if args.job == "hands" and len(sizes) > 1:
        for n in ("base", "head"):
            a, r = fixed_and_marginal(rows, n)
            print(f"  {n}: {a:.2f} ms a call fixed, {r:,.0f} hands a CPU second beyond it")
    if args.json:
        print(json.dumps(rows))
    return 0


def _label(spec) -> str:
    return ",".join(spec) if isinstance(spec, list) else spec


def _print_row(row: dict, trees: dict, specs: dict) -> None:
    unit = UNITS[row["job"]]
    print(
        f"{row['job']}: {row['slices']} calls a side of {row['size']:,} "
        f"{'hands' if row['job'] != 'expert' else 'hands of positions'}, interleaved, "
        "default ruleset (tournament), CPU time"
    )
    for n in ("base", "head"):
        per = (
            f"{1000 * row['cpu'][n] / row['units'][n]:.3f} ms a searched decision "
            f"({row['units'][n]:,} a call)"
            if row["job"] == "expert"
            else f"{1000 * row['cpu'][n]:.1f} ms a call"
        )
        rate = f"{row['rate'][n]:,.1f} {unit} a CPU second"
        print(
            f"  {n} {_label(specs[n])} ({trees[n]}): {rate}, {per}; "
            f"warm-up {row['warm_cpu'][n]:.1f} s; work digest {','.join(row['digests'][n])}"
        )
    lo, hi = row["middle_half"]
    same = "same" if row["digests"]["base"] == row["digests"]["head"] else "different"
    print(
        f"  ratio head/base: median {row['ratio']:.3f} (middle half {lo:.3f}-{hi:.3f}); "
        f"{same} work digests"
    )


if __name__ == "__main__":
    raise SystemExit(main())
