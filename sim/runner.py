"""Run seeded work in chunks: serially, on local processes (joblib/loky) or on Dask.

The unit of work, of seeding, of writing and of resuming is the *chunk*: chunk ``k`` of a run of
``n_items`` covers the items ``[k*C, min((k+1)*C, n_items))``. A chunk function
``work(key, start, stop) -> pandas.DataFrame`` gets the run's 256-bit key (``sim.rng.run_key``)
and derives every item's randomness from (key, item index) itself, so a run's rows are the same
whatever ``n_jobs``, ``chunk_size`` or backend; it must be picklable (a module-level function or
a ``functools.partial`` of one). Its rows are ordered by the item id column.

With ``out=DIR`` each finished chunk goes to the store (``sim.store``) as soon as it arrives and
is dropped, so memory stays bounded by a few chunks whatever the run's size, and a rerun of the
same command computes only the chunks not trusted on disk: missing, or not matching the record
(rows, bytes, sha256) the store keeps of each chunk it wrote.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pandas as pd

from sim.errors import CanastaError
from sim.jobs import DEFAULT_CHUNK_SIZE
from sim.rng import run_key

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "check_backend",
    "check_count",
    "check_jobs",
    "parallel_map",
    "run_chunks",
]

BACKENDS = ("loky", "dask")  #: local processes, or a Dask cluster through joblib's backend


def chunk_ranges(n_items: int, chunk_size: int) -> list[tuple[int, int, int]]:
    """(k, start, stop) of every chunk: chunk k covers [k*C, min((k+1)*C, n_items))."""
    return [
        (k, start, min(start + chunk_size, n_items))
        for k, start in enumerate(range(0, n_items, chunk_size))
    ]


def check_count(name: str, value, minimum: int = 1) -> int:
    """A whole number >= minimum, or a CanastaError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise CanastaError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def check_jobs(n_jobs) -> int:
    """joblib's convention: a positive count, or -1 for every core (-2 all but one...)."""
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0:
        raise CanastaError(f"jobs must be a positive integer or -1 (every core), got {n_jobs!r}")
    return n_jobs


class Progress:
    """A tqdm bar (items done, items/s, ETA) shown only on a terminal, after a moment."""

    def __init__(self, total: int, unit: str, enabled: bool | None = None, delay: float = 1.0):
        if enabled is None:
            enabled = sys.stderr.isatty()
        self._bar = None
        if enabled:
            from tqdm.auto import tqdm

            self._bar = tqdm(total=total, unit=f" {unit}", unit_scale=total >= 100_000, delay=delay)

    def add_total(self, n: int) -> None:
        if self._bar is not None:
            self._bar.total += n
            self._bar.refresh()

    def update(self, n: int) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _call(func, args):
    return func(*args)


def parallel_map(
    func: Callable,
    tasks: Iterable[tuple],
    n_jobs: int = 1,
    backend: str = "loky",
    scheduler: Any = None,
    ordered: bool = True,
) -> Iterator:
    """Yield ``func(*task)`` for each task as it finishes (in task order if ``ordered``).

    ``n_jobs=1`` on the local backend runs in this process, with no worker start-up. The other
    cases go through joblib, lazily (``return_as="generator"``): results are handed over one at a
    time and nothing is accumulated. ``backend="dask"`` connects a ``distributed.Client`` to
    ``scheduler`` (an address such as ``tcp://127.0.0.1:8786``, or a Client) and runs the same
    tasks on its workers through ``joblib.parallel_config(backend="dask")``.
    """
    n_jobs = check_jobs(n_jobs)
    check_backend(backend, scheduler)
    return _map(func, tasks, n_jobs, backend, scheduler, ordered)


def check_backend(backend: str, scheduler: Any = None) -> None:
    """A known backend; the dask one needs a scheduler (address or Client)."""
    if backend not in BACKENDS:
        raise CanastaError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    if backend == "dask" and not scheduler:
        raise CanastaError("the dask backend needs a scheduler address (--scheduler ADDRESS)")


def _map(func, tasks, n_jobs, backend, scheduler, ordered):
    if backend == "loky" and n_jobs == 1:
        for task in tasks:
            yield func(*task)
        return

    import joblib

    return_as = "generator" if ordered else "generator_unordered"
    if backend == "loky":
        par = joblib.Parallel(n_jobs=n_jobs, backend="loky", return_as=return_as)
        yield from par(joblib.delayed(_call)(func, t) for t in tasks)
        return

    client, own = _dask_client(scheduler)
    try:
        with joblib.parallel_config(backend="dask", client=client):
            # n_jobs=1 would make joblib run sequentially here: default to every Dask worker
            par = joblib.Parallel(n_jobs=-1 if n_jobs == 1 else n_jobs, return_as=return_as)
            yield from par(joblib.delayed(_call)(func, t) for t in tasks)
    finally:
        if own:
            client.close()


def _dask_client(scheduler):
    """(client, created here) for a scheduler address or an existing Client."""
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - dask is an optional extra
        raise CanastaError(
            "the dask backend needs dask.distributed: pip install 'canasta-sim[dask]'"
        ) from None
    if isinstance(scheduler, Client):
        return scheduler, False
    try:
        return Client(scheduler, timeout="10s"), True
    except OSError as exc:
        raise CanastaError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None


def _run_chunk(work, key, k, start, stop):
    return k, start, stop, work(key, start, stop)


def _check_chunk(df, start, stop, id_column):
    """Each chunk has one row per item, ids start..stop-1 in order (a wrong chunk is a bug)."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"chunk function returned {type(df).__name__}, expected a DataFrame")
    if id_column is None:
        return
    if id_column not in df.columns:
        cols = ", ".join(map(str, df.columns))
        raise CanastaError(
            f"chunk rows have no id column {id_column!r} (columns: {cols}); pass id_column= "
            "the chunk function's id column, or None"
        )
    ids = df[id_column].to_numpy()
    if len(ids) != stop - start or (len(ids) and (ids[0] != start or ids[-1] != stop - 1)):
        raise RuntimeError(
            f"chunk [{start}, {stop}) returned {len(ids)} rows with ids "
            f"{ids[:1].tolist()}..{ids[-1:].tolist()}: expected one row per item, in order"
        )


def run_chunks(
    work: Callable[..., pd.DataFrame],
    n_items: int,
    seed: int = 0,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    n_jobs: int = 1,
    backend: str = "loky",
    scheduler: Any = None,
    out: str | Path | None = None,
    meta: dict | None = None,
    progress: bool | None = None,
    id_column: str | None = "hand_id",
    unit: str = "hands",
    quiet: bool = False,
) -> pd.DataFrame | Path:
    """Run ``work`` over ``n_items`` items in chunks; the same rows for any jobs/chunking.

    Returns the whole table (sorted by ``id_column``) when ``out`` is None; otherwise writes one
    Parquet file per chunk under ``out`` (resuming: trusted chunks already there are skipped), and
    returns the directory, which ``sim.load`` reads. ``meta`` holds the run's settings (kind,
    ruleset, policies and parameters...) kept in the directory's metadata; a directory made
    with other settings is refused (``sim.store``). ``progress``: None shows a bar on a
    terminal, False never; ``quiet=True`` is the same as ``progress=False``.
    """
    if quiet:
        progress = False
    n_items = check_count("the number of items", n_items)
    chunk_size = check_count("chunk size", chunk_size)
    check_jobs(n_jobs)
    check_backend(backend, scheduler)
    key = run_key(seed)
    chunks = chunk_ranges(n_items, chunk_size)
    task = functools.partial(_run_chunk, work)

    if out is None:
        parts = []
        with Progress(n_items, unit, progress) as bar:
            results = parallel_map(
                task, ((key, *c) for c in chunks), n_jobs, backend, scheduler, ordered=True
            )
            for _, start, stop, df in results:
                _check_chunk(df, start, stop, id_column)
                parts.append(df)
                bar.update(stop - start)
        table = pd.concat(parts, ignore_index=True)
        return table

    from sim.store import RunStore

    settings = dict(meta or {})
    settings.update(seed=seed, chunk_size=chunk_size, n_items=n_items, id_column=id_column)
    store = RunStore.open(out, settings)  # checks the chunks on disk against their records
    try:
        todo = [c for c in chunks if c[0] not in store.done]  # missing, unrecorded or damaged
        left = sum(stop - start for _, start, stop in todo)
        with Progress(left, unit, progress) as bar:
            results = parallel_map(
                task, ((key, *c) for c in todo), n_jobs, backend, scheduler, ordered=False
            )
            for k, start, stop, df in results:
                _check_chunk(df, start, stop, id_column)
                store.write_chunk(k, df)
                del df
                bar.update(stop - start)
    finally:
        store.close()
    return store.path
