"""A run on disk: one Parquet file per finished chunk, each recorded in the run's metadata.

Layout of a run directory ``DIR``::

    DIR/_canasta_run.json          settings, package versions, a record of every finished chunk
    DIR/chunk-000000.parquet       chunk 0's rows
    DIR/chunk-000001.parquet       ...
    DIR/.chunk-000002.parquet.<pid>.tmp   a chunk being written (hidden)

**A chunk is trusted only if the metadata records it** (``chunks``: file name -> rows, bytes,
sha256 of the file) **and the file matches the record.** Writing chunk k: its bytes go to a
hidden temporary file, fsync, ``os.replace`` into place, then the metadata (also temporary file,
fsync, ``os.replace``) records it. A crash anywhere in between leaves no file, a hidden partial
one, or a whole file not yet recorded: never a trusted chunk with wrong data. The rerun of the
same command replays every chunk that is not trusted (missing, unrecorded, damaged) and nothing
else; a file that is no part of the run (not one of its chunk names) is never deleted: the
rerun refuses, naming it. pyarrow's dataset discovery skips names starting with ``_`` or ``.``,
so ``pandas.read_parquet(DIR)`` reads the chunk files of an intact run and nothing else.

Runs of schema 1 (before checksums) hold no chunk records: their chunks are checked as far as
their files show (Parquet footer readable, row count and id range of the chunk), and a rerun of
the same command adopts the chunks passing that check, recording their checksums then, and
replays the others (docs/architecture.md).

The metadata's *settings* (kind of run, ruleset, policies and parameters, seed, chunk size,
number of items, schema version) identify the run: writing into a directory whose settings
differ is refused, naming the first difference, so two runs are never mixed.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shlex
import sys
from dataclasses import dataclass, field
from importlib import metadata as _md
from pathlib import Path
from typing import Any

import pandas as pd

from sim.errors import CanastaError

__all__ = ["RunStore", "check_run", "iter_chunks", "load", "read_meta"]

SCHEMA_VERSION = 2  #: 1: no chunk records; 2: each chunk's rows, bytes and sha256 recorded
META_NAME = "_canasta_run.json"  #: starts with "_": pyarrow ignores it as data
_TMP_RE = re.compile(r"^\.(?:chunk-\d+\.parquet|_canasta_run\.json)\.(\d+)\.tmp$")
_VERSIONED = ("canasta-sim", "numpy", "numba", "pandas", "pyarrow", "joblib")
#: settings compared on resume, in the order a refusal names them
_KEY_ORDER = (
    "schema_version",
    "kind",
    "ruleset",
    "policies",
    "params",
    "seed",
    "n_items",
    "chunk_size",
    "id_column",
)


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


def _fsync_dir(path: Path) -> None:
    """Make the renames in ``path`` durable (not possible on every platform: then skipped)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all: a hidden temporary file, fsync, ``os.replace``."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _meta_text(meta: dict) -> str:
    """The metadata as JSON, one chunk record a line: readable, and written by json's C
    encoder (``indent`` would take the slow pure-Python one, rewritten after every chunk)."""
    lines = [f" {json.dumps(k)}: {json.dumps(v)}" for k, v in meta.items() if k != "chunks"]
    chunks = sorted(meta["chunks"].items())  # in chunk order, whatever order they finished in
    recs = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in chunks)
    lines.append(' "chunks": {\n' + recs + "\n }" if recs else ' "chunks": {}')
    return "{\n" + ",\n".join(lines) + "\n}\n"


def read_meta(path: str | Path) -> dict:
    """The metadata of a run directory (CanastaError if it is not one, or it is damaged)."""
    path = Path(path)
    meta_file = path / META_NAME
    if not meta_file.is_file():
        raise CanastaError(f"{path} is not a canasta run directory (no {META_NAME})")
    try:
        meta = json.loads(meta_file.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CanastaError(f"{meta_file} is damaged: {exc}") from None
    _run_shape(path, meta)
    return meta


def _run_shape(path: Path, meta: Any) -> tuple[int, int, int]:
    """(schema version, n_items, chunk_size) of a metadata dict, or CanastaError naming what is
    wrong with it (a metadata file edited or written by something else)."""
    s = meta.get("settings") if isinstance(meta, dict) else None
    if not isinstance(s, dict):
        raise CanastaError(f"{path / META_NAME} is damaged: it holds no settings")
    for key in ("schema_version", "n_items", "chunk_size"):
        value = s.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise CanastaError(f"{path / META_NAME} is damaged: settings.{key} is {value!r}")
    version = s["schema_version"]
    if version > SCHEMA_VERSION:
        raise CanastaError(
            f"{path} was written by a newer canasta-sim (run schema {version}; this one reads "
            f"up to {SCHEMA_VERSION}): upgrade canasta-sim to read it"
        )
    chunks = meta.get("chunks", {})
    if not isinstance(chunks, dict) or not all(isinstance(r, dict) for r in chunks.values()):
        raise CanastaError(f"{path / META_NAME} is damaged: its chunk records are not a mapping")
    return version, s["n_items"], s["chunk_size"]


def chunk_name(k: int, n_chunks: int) -> str:
    """The file name of chunk k of a run of n_chunks chunks (6 digits at least)."""
    return f"chunk-{k:0{max(6, len(str(n_chunks - 1)))}d}.parquet"


def _sha256_file(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


# -- checking a run ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """Why one file of a run directory is not trusted.

    ``kind``: ``missing`` (a chunk with no file), ``unrecorded`` (a chunk file the metadata does
    not record: its write was interrupted, or it was copied in), ``damaged`` (a recorded chunk
    whose file differs from its record, or a chunk that fails the footer checks), ``foreign``
    (a file or directory that is no part of the run).
    """

    file: str
    kind: str
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.file}: {self.detail}"


@dataclass
class RunCheck:
    """What ``check_run`` found: the trusted chunks and the problems, one per file."""

    path: Path
    meta: dict
    n_chunks: int
    good: dict[int, dict] = field(default_factory=dict)  #: chunk -> its record
    problems: list[Problem] = field(default_factory=list)

    @property
    def schema_version(self) -> int:
        return self.meta["settings"]["schema_version"]

    @property
    def intact(self) -> bool:
        """Every chunk present and trusted, nothing else in the directory."""
        return not self.problems

    @property
    def rows(self) -> int:
        return sum(r["rows"] for r in self.good.values())

    def of_kind(self, *kinds: str) -> list[Problem]:
        return [p for p in self.problems if p.kind in kinds]

    def repair(self) -> str:
        """What to do about the problems, in one clause."""
        what = []
        if self.of_kind("foreign"):  # first: a rerun refuses while they are there
            what.append(f"move the foreign files out of {self.path}")
        if self.of_kind("missing", "unrecorded", "damaged"):
            what.append(repair_command(self.path, self.meta["settings"]))
        return ", then ".join(what)


def _ranges(n_items: int, chunk_size: int, n_chunks: int):
    for k in range(n_chunks):
        yield k, k * chunk_size, min((k + 1) * chunk_size, n_items)


def _footer_problem(path: Path, rows: int | None, start: int, stop: int, id_column) -> str | None:
    """What is wrong with a chunk file as far as its Parquet footer shows, or None."""
    import pyarrow.parquet as pq

    try:
        md = pq.read_metadata(path)
    except Exception as exc:  # any unreadable footer is damage, whatever pyarrow raises
        return f"unreadable Parquet footer ({str(exc).split('. ')[0]})"
    if rows is not None and md.num_rows != rows:
        return f"{md.num_rows} rows in its footer, {rows} recorded"
    if id_column is None:
        return None
    if md.num_rows != stop - start:
        return f"{md.num_rows} rows, expected {stop - start} (ids {start}..{stop - 1})"
    names = [md.schema.column(i).name for i in range(md.num_columns)]
    if id_column not in names:
        return f"no id column {id_column!r}"
    col = names.index(id_column)
    lows, highs = [], []
    for g in range(md.num_row_groups):
        st = md.row_group(g).column(col).statistics
        if st is None or not st.has_min_max:
            return None  # nothing more to check without reading the data
        lows.append(st.min)
        highs.append(st.max)
    if lows and (min(lows) != start or max(highs) != stop - 1):
        return f"ids {min(lows)}..{max(highs)}, expected {start}..{stop - 1}"
    return None


def check_run(
    path: str | Path, meta: dict | None = None, checksums: bool = True, footers: bool = True
) -> RunCheck:
    """Check a run directory without loading its data: which chunks are trusted, and a
    ``Problem`` for every file that is not (see ``Problem``).

    A recorded chunk is trusted if its file has the recorded size, row count (from the Parquet
    footer) and, with ``checksums``, sha256. A schema-1 run records nothing: its chunks are
    checked by footer (readable, row count, id range from the column statistics).
    ``footers=False`` skips the footers of recorded chunks (``load`` hashes them as it reads).
    """
    path = Path(path)
    meta = read_meta(path) if meta is None else meta
    version, n_items, chunk_size = _run_shape(path, meta)
    id_column = meta["settings"].get("id_column")
    n_chunks = -(-n_items // chunk_size)
    records = meta.get("chunks", {}) if version >= 2 else None
    check = RunCheck(path, meta, n_chunks)
    names: dict[str, int] = {}
    present: dict[int, Path] = {}
    foreign = []
    for entry in sorted(path.iterdir()):
        if entry.name.startswith((".", "_")):  # not data to pyarrow: not ours to judge
            continue
        if not names:
            names = {chunk_name(k, n_chunks): k for k in range(n_chunks)}
        k = names.get(entry.name)
        if k is None or not entry.is_file():
            foreign.append(
                Problem(
                    entry.name,
                    "foreign",
                    "no part of this run (pandas.read_parquet of the directory would read it)",
                )
            )
        else:
            present[k] = entry
    for k, start, stop in _ranges(n_items, chunk_size, n_chunks):
        name = chunk_name(k, n_chunks)
        rec = None if records is None else records.get(name)
        file = present.get(k)
        if file is None:
            why = "recorded but not on disk" if rec else "not written yet"
            check.problems.append(Problem(name, "missing", why))
            continue
        if records is not None and rec is None:
            check.problems.append(
                Problem(
                    name,
                    "unrecorded",
                    "on disk but not recorded in the metadata (its write was interrupted, or it "
                    "was copied in): not trusted",
                )
            )
            continue
        why = None
        size = file.stat().st_size
        if rec is not None and size != rec.get("bytes"):
            why = f"{size} bytes, {rec.get('bytes')} recorded"
        elif rec is not None and checksums and _sha256_file(file) != rec.get("sha256"):
            why = "its sha256 differs from the recorded one"
        if why is None and (rec is None or footers):
            rows = None if rec is None else rec.get("rows")
            why = _footer_problem(file, rows, start, stop, id_column)
        if why is not None:
            check.problems.append(Problem(name, "damaged", why))
            continue
        if rec is None:  # schema 1: what the footer says
            import pyarrow.parquet as pq

            rec = {"rows": pq.read_metadata(file).num_rows, "bytes": size}
        check.good[k] = rec
    check.problems += foreign  # after the chunks, which are listed in chunk order
    return check


def repair_command(path: str | Path, settings: dict) -> str:
    """How to replay a run's untrusted chunks: the ``canasta simulate`` command that made it
    when the settings say so, else the same call."""
    kind, policies = settings.get("kind"), settings.get("policies")
    if kind not in ("hands", "games") or not isinstance(policies, list):
        return "rerun the same command (or call) that made it, with the same settings"
    argv = [
        "canasta",
        "simulate",
        "-n" if kind == "hands" else "--games",
        str(settings["n_items"]),
        "--policies",
        ",".join(map(str, policies)),
        "--seed",
        str(settings.get("seed")),
        "--chunk-size",
        str(settings["chunk_size"]),
        "--out",
        str(path),
    ]
    command = shlex.join(argv)
    from sim.ruleset import DEFAULT_RULESET

    if settings.get("ruleset") != _normalise(DEFAULT_RULESET.to_dict()):
        command += " --rules FILE.toml (the rules file it was made with)"
    return f"rerun the same command: {command}"


# -- writing a run ----------------------------------------------------------------------------


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


class _DirLock:
    """An exclusive ``flock`` on the run directory itself (no lock file): two writers would
    lose each other's chunk records. A no-op where ``fcntl`` or directory locks do not exist."""

    def __init__(self, path: Path):
        self.fd = None
        try:
            import fcntl

            self.fd = os.open(path, os.O_RDONLY)
        except (ImportError, OSError):  # pragma: no cover - e.g. Windows
            return
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.close()
            raise CanastaError(
                f"--out {path} is being written by another process; let it finish (or stop "
                "it) before rerunning"
            ) from None
        except OSError:  # pragma: no cover - a filesystem without flock
            pass

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


class RunStore:
    """A run directory opened for writing chunks (see the module docstring)."""

    def __init__(self, path: Path, meta: dict):
        self.path = path
        self.meta = meta
        s = meta["settings"]
        self.n_chunks = -(-s["n_items"] // s["chunk_size"])
        self.meta.setdefault("chunks", {})
        self.done: set[int] = set()  #: chunks trusted on disk (``open`` checks them)
        self._lock = None

    @classmethod
    def open(cls, path: str | Path, settings: dict) -> RunStore:
        """Create ``path`` for a run with ``settings``, or reopen it to resume the same run.

        Refuses (CanastaError) a directory holding another run, or other files. On resume,
        every chunk is checked against its record (size, sha256, footer): the chunks that are
        not trusted lose their record and are left for the run to replay.
        """
        path = Path(path)
        settings = _normalise({**settings, "schema_version": SCHEMA_VERSION})
        if path.exists() and not path.is_dir():
            raise CanastaError(f"--out {path} exists and is not a directory")
        if (path / META_NAME).exists():
            lock = _DirLock(path)
            try:
                meta = read_meta(path)
                old = dict(meta["settings"])
                if old.get("schema_version") == 1:  # upgraded below: the rest must agree
                    old["schema_version"] = SCHEMA_VERSION
                _refuse_if_different(path, old, settings)
                store = cls(path, meta)
                store._lock = lock
                store._clean_stale_temps()
                store._prepare_resume()
            except BaseException:
                lock.close()
                raise
            return store
        if path.exists() and any(not p.name.startswith(".") for p in path.iterdir()):
            raise CanastaError(
                f"--out {path} is not empty and holds no canasta run ({META_NAME} missing); "
                "choose a new or empty directory"
            )
        path.mkdir(parents=True, exist_ok=True)
        meta = {"settings": settings, "versions": _versions(), "complete": False, "chunks": {}}
        store = cls(path, meta)
        store._lock = _DirLock(path)
        store._write_meta()
        return store

    def close(self) -> None:
        """Make the renames durable and release the directory's lock. (Not after each chunk:
        a rename lost in a power cut only leaves a chunk to replay, as the checksums tell.)"""
        _fsync_dir(self.path)
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def chunk_path(self, k: int) -> Path:
        return self.path / chunk_name(k, self.n_chunks)

    def _prepare_resume(self) -> None:
        check = check_run(self.path, self.meta, checksums=True)
        foreign = check.of_kind("foreign")
        if foreign:
            more = f" (and {len(foreign) - 1} more)" if len(foreign) > 1 else ""
            raise CanastaError(
                f"--out {self.path} holds {foreign[0].file}{more}, which is no part of this run "
                "(pandas.read_parquet of the directory would read it): move it out of the "
                "directory, then rerun"
            )
        records = {}
        for k, rec in check.good.items():
            if "sha256" not in rec:  # a schema-1 chunk that passed the footer checks: adopt it
                rec = {**rec, "sha256": _sha256_file(self.chunk_path(k))}
            records[self.chunk_path(k).name] = rec
        self.done = set(check.good)
        before = (self.meta["chunks"], self.meta.get("complete"), self.meta["settings"])
        self.meta["chunks"] = records
        self.meta["settings"] = {**self.meta["settings"], "schema_version": SCHEMA_VERSION}
        self.meta["complete"] = len(records) == self.n_chunks
        if before != (self.meta["chunks"], self.meta["complete"], self.meta["settings"]):
            self._write_meta()

    def _write_meta(self) -> None:
        """Replace the metadata atomically; it says complete once every chunk is recorded."""
        self.meta["complete"] = len(self.meta["chunks"]) == self.n_chunks
        _atomic_write_bytes(self.path / META_NAME, _meta_text(self.meta).encode())

    def write_chunk(self, k: int, df: pd.DataFrame) -> Path:
        """Write chunk k whole (hidden temporary file, fsync, rename), then record it."""
        final = self.chunk_path(k)
        buf = io.BytesIO()
        df.to_parquet(buf, index=False)
        data = buf.getvalue()
        self.meta["chunks"].pop(final.name, None)
        _atomic_write_bytes(final, data)
        # a crash here leaves a whole chunk file that is not recorded: not trusted, replayed
        self.meta["chunks"][final.name] = {
            "rows": len(df),
            "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
        }
        self._write_meta()
        self.done.add(k)
        return final

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


# -- reading a run ----------------------------------------------------------------------------


def _damaged(path: Path, problems: list[Problem], repair: str) -> CanastaError:
    first = problems[0]
    what = "holds a foreign file" if first.kind == "foreign" else "is damaged"
    more = (
        f" (and {len(problems) - 1} more: canasta verify lists them)" if len(problems) > 1 else ""
    )
    return CanastaError(
        f"run {path} {what}: {first.file}: {first.detail}{more}; to repair it, {repair}"
    )


def iter_chunks(path: str | Path, columns: list[str] | None = None, partial: bool = False):
    """The trusted chunks of the run in ``path``, in id order, one ``pyarrow.Table`` at a time
    (only ``columns``); the checks and refusals of ``load``, which is this iterator
    concatenated. For readers that reduce a run chunk by chunk (``analysis.stream``)."""
    path = Path(path)
    meta = read_meta(path)
    check = check_run(path, meta, checksums=False, footers=False)  # sha256 checked as read
    recorded = meta.get("chunks", {})
    lost = [p for p in check.of_kind("missing") if p.file in recorded]  # written, then gone
    bad = check.of_kind("damaged") + lost + check.of_kind("foreign")
    if bad:
        raise _damaged(path, bad, check.repair())
    todo = check.of_kind("missing", "unrecorded")
    if todo and not partial:
        raise CanastaError(
            f"run {path} is unfinished: {len(todo)} of {check.n_chunks} chunks missing "
            f"({todo[0].file}...); to finish it, {check.repair()}; or load(..., partial=True)"
        )
    import pyarrow as pa
    import pyarrow.parquet as pq

    for k in sorted(check.good):
        rec = check.good[k]
        file = path / chunk_name(k, check.n_chunks)
        data = file.read_bytes()  # read once: hashed, then parsed from memory
        if "sha256" in rec and hashlib.sha256(data).hexdigest() != rec["sha256"]:
            why = Problem(file.name, "damaged", "its sha256 differs from the recorded one")
            raise _damaged(path, [why], repair_command(path, meta["settings"]))
        if columns is not None:  # the columns this run's files hold
            have = pq.read_schema(pa.BufferReader(data)).names
            cols = [c for c in columns if c in have]
        else:
            cols = None
        yield pq.read_table(pa.BufferReader(data), columns=cols)


def load(path: str | Path, columns: list[str] | None = None, partial: bool = False):
    """The whole run in ``path`` as one DataFrame sorted by its id column.

    Only trusted chunks are read: every chunk file is checked against its record (size, row
    count, sha256) as it is read. A damaged chunk or a foreign file is refused (CanastaError,
    one line naming the file and the repair); an unfinished run too (rerun the same command to
    finish it), unless ``partial``, which returns the trusted chunks.
    """
    import pyarrow as pa

    path = Path(path)
    meta = read_meta(path)
    parts = list(iter_chunks(path, columns, partial))
    if not parts:
        return pd.DataFrame()
    # one conversion of the whole table, as pandas.read_parquet does for the directory
    df = pa.concat_tables(parts, promote_options="default").to_pandas()
    id_column = meta["settings"].get("id_column")
    if id_column and id_column in df.columns and not df[id_column].is_monotonic_increasing:
        df = df.sort_values(id_column, kind="stable", ignore_index=True)
    # the run's settings and versions; not the chunk records (pandas copies attrs on each
    # operation, and they describe files, not rows)
    df.attrs["run"] = {k: v for k, v in meta.items() if k != "chunks"}
    return df
