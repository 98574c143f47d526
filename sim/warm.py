"""A first run compiles on two cores: the chunk kernel in a second process, the policies here.

On an empty numba cache the first run of a fresh process compiles two independent pieces: the
policies' decide functions (``sim.policies.registry``: compiled to the contract's signature)
and the engine's chunk kernel (``sim.play.compiled.ready_kernel``: compiled once for any policy,
which it takes as a first-class function). numba compiles one function at a time in a process,
so on a machine with two or more cores :func:`warm_start` starts ``python -m sim.warm
MODULE:KERNEL`` to compile the kernel into the on-disk cache while this process compiles the
policies, then loads the kernel from the cache (the wait a newcomer feels).

What makes it safe:

- **One writer per cache file.** The second process compiles the kernel with every other
  dispatcher of ``sim`` uncached (numba's ``NullCache``): the judge, the state and the other
  kernels both processes compile are written by this process alone, so two writers never race
  on a function's cache index (numba numbers a function's overloads in one index file).
- **Nothing depends on it.** When the cache (or this process) holds the kernel or every
  policy, when ``CANASTA_PARALLEL_COMPILE=0``, on one core, or if the second process fails in
  any way, this process compiles what is missing itself, as before; the compiled code is the
  same either way (the same sources, compiled by the same numba), so results never depend on
  it (tested).
- **Its CPU is counted.** ``benchmarks/bench_cold_start.py`` adds the children's CPU time.

Used by ``sim.api`` before a run of the local backend (``n_jobs=1`` or joblib's loky workers,
which then load both from the cache instead of compiling the same code each); not for Dask,
whose workers have caches of their own.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from sim._numba_cache import fewer_collections

__all__ = ["cached", "enabled"]

ENV = "CANASTA_PARALLEL_COMPILE"  #: "0" turns the second process off
WAIT = 900  #: seconds to wait for the second process (it takes ~25 s) before compiling here


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1


def enabled() -> bool:
    """The second process is allowed: two cores or more and not turned off by ``ENV``."""
    return os.environ.get(ENV, "1") != "0" and _cores() >= 2


def _kernel(path: str):
    """The chunk kernel named ``"module:name"`` (its dispatcher)."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def _child_env() -> dict:
    """This environment, with the directory holding this ``sim`` first on ``PYTHONPATH``: the
    second process compiles these sources even when this one found them through ``sys.path``
    (a notebook's insert) rather than an installation."""
    root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


def cached(dispatcher) -> bool | None:
    """Does numba's on-disk cache hold an index for this dispatcher? None if it is not a
    cached dispatcher (a policy written in Python, compiled here without a cache)."""
    try:
        return os.path.exists(dispatcher._cache._cache_file._index_path)
    except AttributeError:
        return None


def _to_compile(dispatcher) -> bool:
    """Neither compiled in this process nor in the on-disk cache (a cache that cannot be
    written never fills: a process that compiled once must not start a second process again)."""
    return not getattr(dispatcher, "signatures", None) and cached(dispatcher) is False


def warm_start(kernel_path: str, policies: Sequence[str]) -> bool:
    """When the cache lacks the chunk kernel ``kernel_path`` or one of the ``policies``
    (registry specs), compile them now, the kernel in a second process if both are missing;
    returns whether a second process compiled it. When the cache holds all of them, nothing
    is loaded here (the run's workers load what they use)."""
    from sim.play.compiled import ready_kernel
    from sim.policies.registry import resolve

    kernel = _kernel(kernel_path)
    specs = [resolve(p)[0] for p in policies]
    cold = [s for s in specs if _to_compile(s.function)]
    kernel_cold = _to_compile(kernel)
    if not cold and not kernel_cold:
        return False
    proc = None
    if enabled() and cold and kernel_cold:
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "sim.warm", kernel_path],
                env=_child_env(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except OSError:  # no process could start: compile here
            proc = None
    with fewer_collections():  # fewer GC passes while numba compiles: a faster cold start
        for s in specs:
            s.decide  # noqa: B018 (compiles the policy, or loads it from the cache)
    ok = False
    if proc is not None:
        try:
            ok = proc.wait(timeout=WAIT) == 0
        except subprocess.TimeoutExpired:  # never seen; compile here rather than hang
            proc.kill()
            proc.wait()
    ready_kernel(kernel)  # loads what the second process wrote; compiles if it failed
    return ok


def _compile_kernel_alone(kernel_path: str) -> None:
    """The second process: compile the kernel, writing only its own cache files."""
    from numba.core.caching import NullCache
    from numba.core.registry import CPUDispatcher

    from sim.play.compiled import ready_kernel

    kernel = _kernel(kernel_path)
    for name, module in list(sys.modules.items()):
        if name == "sim" or name.startswith("sim."):
            for obj in vars(module).values():
                if isinstance(obj, CPUDispatcher) and obj is not kernel:
                    obj._cache = NullCache()
    ready_kernel(kernel)


if __name__ == "__main__":
    _compile_kernel_alone(sys.argv[1])
