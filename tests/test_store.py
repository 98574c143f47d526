"""The Parquet run store: one atomic file per chunk, metadata, resume, refusal, interruption."""

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import sim
from sim.errors import CanastaError
from sim.rng import run_key
from sim.runner import run_chunks
from sim.sampler import dealt_records
from sim.store import META_NAME, RunStore, check_run, load, read_meta

ROOT = Path(__file__).resolve().parents[1]
N, CHUNK = 5_000, 700
META = {"kind": "dealt_records", "ruleset": sim.DEFAULT_RULESET.to_dict()}


def _work(key, start, stop):
    return dealt_records(key, start, stop)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _chunk(out: Path, k: int) -> Path:
    return out / f"chunk-{k:06d}.parquet"


def _forget(out: Path, k: int) -> None:
    """Delete chunk k and its record: what a run interrupted before writing it looks like."""
    meta = read_meta(out)
    del meta["chunks"][_chunk(out, k).name]
    (out / META_NAME).write_text(json.dumps(meta))
    _chunk(out, k).unlink()


def _counting_rerun(out: Path) -> list[int]:
    """Rerun the same run into ``out``; the chunks it computed."""
    calls = []

    def counting(key, start, stop):
        calls.append(start // CHUNK)
        return dealt_records(key, start, stop)

    run_chunks(counting, N, seed=3, chunk_size=CHUNK, out=out, meta=META, id_column="deal_id")
    return sorted(calls)


def _slow_work(key, start, stop, pause):
    """A chunk function slow enough to be interrupted mid-run (used by a subprocess)."""
    time.sleep(pause)
    return dealt_records(key, start, stop)


def _run(out, **kw):
    args = {"seed": 3, "chunk_size": CHUNK, "out": out, "meta": META, "id_column": "deal_id"}
    return run_chunks(_work, N, **{**args, **kw})


@pytest.fixture(scope="module")
def reference():
    return run_chunks(_work, N, seed=3, chunk_size=N, id_column="deal_id")


def test_out_dir_holds_one_parquet_per_chunk_and_reads_back(tmp_path, reference):
    out = _run(tmp_path / "run")
    names = sorted(p.name for p in out.iterdir())
    assert names == [META_NAME] + [f"chunk-{k:06d}.parquet" for k in range(8)]
    meta = read_meta(out)
    s = meta["settings"]
    assert (s["seed"], s["chunk_size"], s["n_items"], s["kind"]) == (3, CHUNK, N, "dealt_records")
    assert s["ruleset"] == sim.DEFAULT_RULESET.to_dict() and s["schema_version"] == 2
    assert {"numpy", "numba", "pandas", "pyarrow", "canasta-sim"} <= set(meta["versions"])
    assert meta["complete"] is True
    # every chunk recorded as written: rows, bytes and the sha256 of the file's bytes
    assert sorted(meta["chunks"]) == names[1:]
    for k, name in enumerate(names[1:]):
        rec, data = meta["chunks"][name], (out / name).read_bytes()
        assert rec == {"rows": min(CHUNK, N - k * CHUNK), "bytes": len(data), "sha256": _sha(data)}
    assert check_run(out).intact
    # pandas reads the directory as one table: the metadata file is not mistaken for data
    raw = pd.read_parquet(out).sort_values("deal_id", ignore_index=True)
    pd.testing.assert_frame_equal(raw, reference, check_exact=True)
    pd.testing.assert_frame_equal(sim.load(out), reference, check_exact=True)


def test_rerun_resumes_only_missing_chunks(tmp_path, reference):
    out = _run(tmp_path / "run")
    for k in (0, 3, 7):
        (out / f"chunk-{k:06d}.parquet").unlink()
    before = {p.name: p.stat().st_mtime_ns for p in out.glob("chunk-*")}
    calls = []

    def counting(key, start, stop):
        calls.append(start)
        return dealt_records(key, start, stop)

    run_chunks(counting, N, seed=3, chunk_size=CHUNK, out=out, meta=META, id_column="deal_id")
    assert sorted(calls) == [0, 3 * CHUNK, 7 * CHUNK]
    assert all(out.joinpath(n).stat().st_mtime_ns == t for n, t in before.items())
    df = load(out)
    assert df["deal_id"].is_unique and len(df) == N
    pd.testing.assert_frame_equal(df, reference, check_exact=True)


def test_temp_and_stale_files_are_invisible_and_cleaned(tmp_path, reference):
    out = _run(tmp_path / "run")
    _forget(out, 2)  # as if the run had been interrupted before chunk 2
    stale = out / ".chunk-000002.parquet.999999999.tmp"  # a writer killed mid-write
    stale.write_bytes(b"PAR1 half a file")
    pd.testing.assert_frame_equal(
        pd.read_parquet(out).sort_values("deal_id", ignore_index=True),
        reference[~reference.deal_id.between(2 * CHUNK, 3 * CHUNK - 1)].reset_index(drop=True),
    )
    with pytest.raises(CanastaError, match="unfinished: 1 of 8 chunks missing"):
        load(out)
    assert len(load(out, partial=True)) == N - CHUNK
    _run(out)
    assert not stale.exists()
    pd.testing.assert_frame_equal(load(out), reference, check_exact=True)


@pytest.mark.parametrize(
    ("change", "setting"),
    [
        ({"seed": 4}, "seed"),
        ({"chunk_size": 500}, "chunk_size"),
        ({"meta": {**META, "ruleset": {**META["ruleset"], "target": 5000}}}, "ruleset"),
        ({"meta": {**META, "policies": ["greedy", "random"]}}, "policies"),
        ({"meta": {**META, "kind": "played_hands"}}, "kind"),
    ],
)
def test_other_settings_are_refused_naming_the_difference(tmp_path, change, setting):
    out = tmp_path / "run"
    _run(out, chunk_size=N)  # one chunk: quick
    kw = {"chunk_size": N, **change}
    with pytest.raises(CanastaError, match=rf"different settings: {setting} was"):
        _run(out, **kw)
    with pytest.raises(CanastaError, match="n_items was 5000, this run has 4000"):
        run_chunks(_work, 4000, seed=3, chunk_size=N, out=out, meta=META, id_column="deal_id")
    assert sorted(p.name for p in out.iterdir()) == [META_NAME, "chunk-000000.parquet"]


def test_a_directory_of_other_files_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(CanastaError, match="not empty and holds no canasta run"):
        _run(tmp_path)
    with pytest.raises(CanastaError, match="not a canasta run directory"):
        load(tmp_path)


def _start_slow_run(out: Path, pause: float) -> subprocess.Popen:
    code = (
        "import functools, sys; sys.path.insert(0, sys.argv[1]);"
        "from tests import test_store as t; from sim.runner import run_chunks;"
        f"run_chunks(functools.partial(t._slow_work, pause={pause}), {N}, seed=3,"
        f" chunk_size={CHUNK}, out=sys.argv[2], meta=t.META, id_column='deal_id')"
    )
    return subprocess.Popen(
        [sys.executable, "-c", code, str(ROOT), str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _wait_for_chunks(out: Path, n: int, proc: subprocess.Popen, limit: float = 60.0) -> None:
    t0 = time.monotonic()
    while len(list(out.glob("chunk-*.parquet"))) < n:
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() - t0 < limit, "the run wrote no chunk in time"
        time.sleep(0.05)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_interrupted_run_keeps_finished_chunks_and_resumes(tmp_path, reference, sig):
    """kill -9 or Ctrl-C mid-run: finished chunks stay readable; rerunning completes the run
    with no duplicate or missing ids."""
    out = tmp_path / "run"
    proc = _start_slow_run(out, pause=0.4)
    try:
        _wait_for_chunks(out, 2, proc)
        os.kill(proc.pid, sig)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    kept = sorted(out.glob("chunk-*.parquet"))
    assert 2 <= len(kept) < 8
    for p in kept:
        k = int(p.stem.split("-")[1])
        part = pd.read_parquet(p)
        assert part["deal_id"].tolist() == list(range(k * CHUNK, min((k + 1) * CHUNK, N)))
    assert json.loads((out / META_NAME).read_text())["complete"] is False
    _run(out)
    df = load(out)
    assert df["deal_id"].is_unique and len(df) == N
    pd.testing.assert_frame_equal(df, reference, check_exact=True)


def _flip_a_byte(p: Path) -> None:
    data = bytearray(p.read_bytes())
    data[len(data) // 2] ^= 0xFF  # in the data pages, far from the footer: same size
    p.write_bytes(bytes(data))


def _another_runs_chunk(p: Path) -> None:
    """The same chunk of a run with another seed: a valid file, the same ids and row count."""
    k = int(p.stem.split("-")[1])
    dealt_records(run_key(99), k * CHUNK, min((k + 1) * CHUNK, N)).to_parquet(p, index=False)


DAMAGES = {
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
    "a byte flipped": _flip_a_byte,
    "another run's chunk": _another_runs_chunk,
    "deleted": Path.unlink,
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_chunk_is_refused_then_replayed_exactly(tmp_path, reference, damage):
    """A finished run with one chunk damaged: load refuses in one line naming the chunk and the
    repair; the rerun replays that chunk alone and the rows are those of the undamaged run."""
    out = _run(tmp_path / "run")
    DAMAGES[damage](_chunk(out, 3))
    kind = "missing" if damage == "deleted" else "damaged"
    problems = check_run(out).problems
    assert [(p.file, p.kind) for p in problems] == [("chunk-000003.parquet", kind)]
    for partial in (False, True):  # damage is never served, not even as a partial run
        with pytest.raises(CanastaError) as exc:
            load(out, partial=partial)
        msg = str(exc.value)
        assert "\n" not in msg and "is damaged: chunk-000003.parquet" in msg
        assert "rerun the same command (or call)" in msg
    before = {k: _chunk(out, k).stat().st_mtime_ns for k in range(8) if k != 3}
    assert _counting_rerun(out) == [3]
    assert all(_chunk(out, k).stat().st_mtime_ns == t for k, t in before.items())
    assert check_run(out).intact and read_meta(out)["complete"] is True
    pd.testing.assert_frame_equal(load(out), reference, check_exact=True)


def test_foreign_files_are_named_never_read_never_deleted(tmp_path, reference):
    out = _run(tmp_path / "run")
    reference.head(10).to_parquet(out / "other.parquet")
    shutil.copy(_chunk(out, 0), _chunk(out, 8))  # a chunk name beyond the run's 8 chunks
    (out / "sub").mkdir()
    (out / ".hidden").write_text("x")  # names pyarrow skips are not data: not judged
    (out / "_notes").write_text("x")
    problems = check_run(out).problems
    assert [(p.file, p.kind) for p in problems] == [
        ("chunk-000008.parquet", "foreign"),
        ("other.parquet", "foreign"),
        ("sub", "foreign"),
    ]
    with pytest.raises(
        CanastaError,
        match=r"holds a foreign file: chunk-000008.parquet: .*"
        r"\(and 2 more.*move the foreign files out of",
    ):
        load(out)
    with pytest.raises(CanastaError, match=r"holds chunk-000008.parquet \(and 2 more\), which "):
        _run(out)
    assert (out / "other.parquet").is_file() and _chunk(out, 8).is_file()
    (out / "other.parquet").unlink()
    _chunk(out, 8).unlink()
    (out / "sub").rmdir()
    assert check_run(out).intact
    pd.testing.assert_frame_equal(load(out), reference, check_exact=True)


def _child(code: str, out: Path) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter with this repo first on the path and ``out`` as
    ``OUT`` (a Path)."""
    prelude = (
        "import os, resource, signal, sys; sys.path.insert(0, sys.argv[1]);"
        "from pathlib import Path; OUT = Path(sys.argv[2]);"
        "from sim.rng import run_key; from tests import test_store as t;"
    )
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-c", prelude + code, str(ROOT), str(out)],
        capture_output=True,
        timeout=300,
        env=env,
    )


LIMIT = 8_000  #: bytes: more than the metadata of this run, less than any of its chunk files


def test_a_kill_inside_a_chunk_write_leaves_no_partial_chunk_in_view(tmp_path, reference):
    """Item 15: the writer is killed *inside* the write of chunk 3, after exactly LIMIT bytes of
    it reached the disk, whatever the writer's code: the kernel kills a process with SIGXFSZ
    when it writes past its file size limit. Then the visible files are whole, chunk 3 is not
    trusted, and the rerun gives the exact rows (a writer that writes in place fails this)."""
    out = _run(tmp_path / "run")
    assert (
        (out / META_NAME).stat().st_size
        < LIMIT
        < min(p.stat().st_size for p in out.glob("chunk-*"))
    )
    for k in range(3, 8):
        _chunk(out, k).unlink()
    proc = _child(
        "t._work(run_key(3), 0, 1);"  # the kernel is compiled or cached before the limit
        "signal.signal(signal.SIGXFSZ, signal.SIG_DFL);"  # Python ignores it by default
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({LIMIT}, resource.RLIM_INFINITY));"
        "t._run(OUT)",
        out,
    )
    assert proc.returncode == -signal.SIGXFSZ, proc.stderr.decode()
    cut = [p.name for p in out.iterdir() if p.stat().st_size == LIMIT]
    assert len(cut) == 1, "the writer was not killed inside a write"
    # what pandas sees of the directory is whole chunks only
    seen = pd.read_parquet(out).sort_values("deal_id", ignore_index=True)
    pd.testing.assert_frame_equal(seen, reference.head(3 * CHUNK), check_exact=True)
    check = check_run(out)
    assert sorted(check.good) == [0, 1, 2]
    assert [p.kind for p in check.problems] == ["missing"] * 5
    with pytest.raises(CanastaError, match="unfinished: 5 of 8 chunks missing"):
        load(out)
    assert _counting_rerun(out) == [3, 4, 5, 6, 7]
    assert sorted(p.name for p in out.iterdir()) == [META_NAME] + [
        _chunk(out, k).name for k in range(8)
    ]
    pd.testing.assert_frame_equal(load(out), reference, check_exact=True)


def test_a_chunk_on_disk_but_not_recorded_is_never_trusted(tmp_path, reference):
    """A crash between a chunk's rename and the metadata update leaves a whole chunk file that
    is not recorded: it is replayed, never trusted (here it is even replaced by another run's
    chunk with the same ids before the rerun)."""
    proc = _child(
        "import sim.store as st; write = st._atomic_write_bytes\n"
        "def crash_after_rename(path, data):\n"
        "    write(path, data)\n"
        "    if path.name == 'chunk-000003.parquet': os.kill(os.getpid(), signal.SIGKILL)\n"
        "st._atomic_write_bytes = crash_after_rename; t._run(OUT)",
        tmp_path / "run",
    )
    out = tmp_path / "run"
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    assert pd.read_parquet(_chunk(out, 3))["deal_id"].tolist() == list(range(3 * CHUNK, 4 * CHUNK))
    check = check_run(out)
    assert sorted(check.good) == [0, 1, 2]
    assert [(p.file, p.kind) for p in check.problems[:2]] == [
        ("chunk-000003.parquet", "unrecorded"),
        ("chunk-000004.parquet", "missing"),
    ]
    with pytest.raises(CanastaError, match=r"unfinished: 5 of 8 chunks missing \(chunk-000003"):
        load(out)
    _another_runs_chunk(_chunk(out, 3))
    assert _counting_rerun(out) == [3, 4, 5, 6, 7]
    pd.testing.assert_frame_equal(load(out), reference, check_exact=True)


def test_a_schema_1_run_is_checked_by_its_footers_and_upgraded_by_a_rerun(tmp_path, reference):
    """Runs written before checksums: loadable when their footers agree (rows, id range); a
    rerun adopts the chunks that pass, recording their checksums, and replays the others."""
    out = _run(tmp_path / "run")
    meta = read_meta(out)
    old = {**meta, "settings": {**meta["settings"], "schema_version": 1}}
    del old["chunks"]
    (out / META_NAME).write_text(json.dumps(old))
    pd.testing.assert_frame_equal(load(out), reference, check_exact=True)
    shutil.copy(_chunk(out, 0), _chunk(out, 1))  # the right row count, the wrong ids
    DAMAGES["truncated"](_chunk(out, 5))
    check = check_run(out)
    assert check.schema_version == 1 and sorted(check.good) == [0, 2, 3, 4, 6, 7]
    assert [(p.file, p.kind) for p in check.problems] == [
        ("chunk-000001.parquet", "damaged"),
        ("chunk-000005.parquet", "damaged"),
    ]
    assert "ids 0..699, expected 700..1399" in check.problems[0].detail
    with pytest.raises(CanastaError, match=r"is damaged: chunk-000001\.parquet: ids 0\.\.699"):
        load(out)
    assert _counting_rerun(out) == [1, 5]
    meta = read_meta(out)
    assert meta["settings"]["schema_version"] == 2 and len(meta["chunks"]) == 8
    assert check_run(out).intact
    pd.testing.assert_frame_equal(load(out), reference, check_exact=True)


def test_a_second_writer_is_refused_while_one_writes(tmp_path):
    """Two writers would lose each other's chunk records: the directory is locked."""
    out = _run(tmp_path / "run", chunk_size=N)
    settings = {**META, "seed": 3, "chunk_size": N, "n_items": N, "id_column": "deal_id"}
    store = RunStore.open(out, settings)
    try:
        with pytest.raises(CanastaError, match="being written by another process"):
            _run(out, chunk_size=N)
    finally:
        store.close()
    _run(out, chunk_size=N)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "_canasta_run.json is damaged"),
        ("[]", "is damaged: it holds no settings"),
        ('{"settings": {"schema_version": 2, "n_items": "5", "chunk_size": 5}}', "n_items is '5'"),
        (
            '{"settings": {"schema_version": 2, "n_items": 5, "chunk_size": 5}, "chunks": [1]}',
            "chunk records are not a mapping",
        ),
        ('{"settings": {"schema_version": 9, "n_items": 5, "chunk_size": 5}}', "newer canasta"),
    ],
)
def test_unreadable_metadata_is_one_clear_error(tmp_path, text, message):
    (tmp_path / META_NAME).write_text(text)
    for action in (load, check_run, _run):
        with pytest.raises(CanastaError, match=message):
            action(tmp_path)


def test_a_failing_chunk_function_leaves_the_run_resumable(tmp_path, reference):
    """An error mid-run keeps the recorded chunks and releases the directory's lock."""

    def failing(key, start, stop):
        if start >= 4 * CHUNK:
            raise RuntimeError("boom")
        return dealt_records(key, start, stop)

    out = tmp_path / "run"
    with pytest.raises(RuntimeError, match="boom"):
        run_chunks(failing, N, seed=3, chunk_size=CHUNK, out=out, meta=META, id_column="deal_id")
    assert sorted(check_run(out).good) == [0, 1, 2, 3]
    assert _counting_rerun(out) == [4, 5, 6, 7]
    pd.testing.assert_frame_equal(load(out), reference, check_exact=True)
