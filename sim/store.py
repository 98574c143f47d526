"""A run on disk: one Parquet file per finished chunk, plus the run's metadata.

Layout of a run directory ``DIR``::

    DIR/_canasta_run.json          settings, package versions, schema version (not data)
    DIR/chunk-000000.parquet       chunk 0's rows, written whole or not at all
    DIR/chunk-000001.parquet       ...
    DIR/.chunk-000002.parquet.<pid>.tmp   a chunk being written (hidden)

Chunk files are written under a hidden temporary name and renamed into place (``os.replace`` is
atomic), so a chunk file exists only once complete: an interrupted run (Ctrl-C, kill -9, power
cut after the data reached the disk) keeps every finished chunk and loses at most the ones in
flight. pyarrow's dataset discovery skips names starting with ``_`` or ``.``, so
``pandas.read_parquet(DIR)`` reads exactly the data files, and so does ``load(DIR)``.

The metadata's *settings* (kind of run, ruleset, policies and parameters, seed, chunk size,
number of items, schema version) identify the run: writing into a directory whose settings
differ is refused, naming the first difference, so two runs are never mixed.
"""

from __future__ import annotations

import json
import os
import re
import sys
from importlib import metadata as _md
from pathlib import Path
from typing import Any

import pandas as pd

from sim.errors import CanastaError

SCHEMA_VERSION = 1  #: layout of run directories and their metadata
META_NAME = "_canasta_run.json"  #: starts with "_": pyarrow ignores it as data
_CHUNK_RE = re.compile(r"^chunk-(\d+)\.parquet$")
_TMP_RE = re.compile(r"^\.chunk-\d+\.parquet\.(\d+)\.tmp$")
_VERSIONED = ("canasta-sim", "numpy", "numba", "pandas", "pyarrow", "joblib")
#: settings compared on resume, in the order a refusal names them
_KEY_ORDER = ("schema_version", "kind", "ruleset", "policies", "params", "seed", "n_items",
              "chunk_size", "id_column")  # fmt: skip


def _versions() -> dict[str, str]:
    out = {"python": sys.version.split()[0]}
    for name in _VERSIONED:
        try:
            out[name] = _md.version(name)
        except _md.PackageNotFoundError:
            out[name] = "unknown"
    return out


def _normalise(value: Any) -> Any:
    """The JSON form of a setting (tuples become lists...), as stored and compared."""
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def read_meta(path: str | Path) -> dict:
    """The metadata of a run directory (CanastaError if it is not one)."""
    path = Path(path)
    meta_file = path / META_NAME
    if not meta_file.is_file():
        raise CanastaError(f"{path} is not a canasta run directory (no {META_NAME})")
    try:
        return json.loads(meta_file.read_text())
    except json.JSONDecodeError as exc:
        raise CanastaError(f"{meta_file} is damaged: {exc}") from None


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class RunStore:
    """A run directory opened for writing chunks (see the module docstring)."""

    def __init__(self, path: Path, meta: dict):
        self.path = path
        self.meta = meta
        s = meta["settings"]
        n_chunks = -(-s["n_items"] // s["chunk_size"])
        self.n_chunks = n_chunks
        self._width = max(6, len(str(n_chunks - 1)))

    @classmethod
    def open(cls, path: str | Path, settings: dict) -> RunStore:
        """Create ``path`` for a run with ``settings``, or reopen it to resume the same run.

        Refuses (CanastaError) a directory holding another run, or other files.
        """
        path = Path(path)
        settings = _normalise({**settings, "schema_version": SCHEMA_VERSION})
        if path.exists() and not path.is_dir():
            raise CanastaError(f"--out {path} exists and is not a directory")
        if (path / META_NAME).exists():
            meta = read_meta(path)
            _refuse_if_different(path, meta.get("settings", {}), settings)
            store = cls(path, meta)
            store._clean_stale_temps()
            return store
        if path.exists() and any(not p.name.startswith(".") for p in path.iterdir()):
            raise CanastaError(
                f"--out {path} is not empty and holds no canasta run ({META_NAME} missing); "
                "choose a new or empty directory"
            )
        path.mkdir(parents=True, exist_ok=True)
        meta = {"settings": settings, "versions": _versions(), "complete": False}
        _atomic_write_bytes(path / META_NAME, json.dumps(meta, indent=2).encode())
        return cls(path, meta)

    def chunk_path(self, k: int) -> Path:
        return self.path / f"chunk-{k:0{self._width}d}.parquet"

    def done_chunks(self) -> set[int]:
        """Chunks already on disk (complete by construction: they were renamed into place)."""
        done = set()
        for p in self.path.iterdir():
            m = _CHUNK_RE.match(p.name)
            if m and int(m.group(1)) < self.n_chunks:
                done.add(int(m.group(1)))
        return done

    def write_chunk(self, k: int, df: pd.DataFrame) -> Path:
        """Write chunk k atomically: a hidden temporary file, flushed, renamed into place."""
        final = self.chunk_path(k)
        tmp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
        df.to_parquet(tmp, index=False)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, final)
        return final

    def mark_complete(self) -> None:
        """Record that every chunk is on disk (informational; chunk files are the truth)."""
        if len(self.done_chunks()) == self.n_chunks and not self.meta.get("complete"):
            self.meta["complete"] = True
            _atomic_write_bytes(self.path / META_NAME, json.dumps(self.meta, indent=2).encode())

    def _clean_stale_temps(self) -> None:
        """Remove temporary files left by killed writers (not those of a live process)."""
        for p in self.path.iterdir():
            m = _TMP_RE.match(p.name)
            if m and not _pid_alive(int(m.group(1))):
                p.unlink(missing_ok=True)


def _refuse_if_different(path: Path, old: dict, new: dict) -> None:
    keys = [k for k in _KEY_ORDER if k in old or k in new]
    keys += sorted((set(old) | set(new)) - set(keys))
    for key in keys:
        if old.get(key) != new.get(key):
            raise CanastaError(
                f"--out {path} holds a run made with different settings: {key} was "
                f"{json.dumps(old.get(key))}, this run has {json.dumps(new.get(key))}; "
                "rerun with the same settings to resume it, or choose another directory"
            )


def load(path: str | Path, columns: list[str] | None = None, partial: bool = False):
    """The whole run in ``path`` as one DataFrame sorted by its id column.

    An unfinished run is refused (rerun the same command to finish it) unless ``partial``.
    """
    path = Path(path)
    meta = read_meta(path)
    s = meta["settings"]
    store = RunStore(path, meta)
    missing = store.n_chunks - len(store.done_chunks())
    if missing and not partial:
        raise CanastaError(
            f"run {path} is unfinished: {missing} of {store.n_chunks} chunks missing; rerun the "
            "same command to finish it, or load(..., partial=True)"
        )
    if missing == store.n_chunks:
        return pd.DataFrame()
    df = pd.read_parquet(path, columns=columns)
    id_column = s.get("id_column")
    if id_column and id_column in df.columns:
        df = df.sort_values(id_column, kind="stable", ignore_index=True)
    df.attrs["run"] = meta
    return df
