"""The Parquet run store: one atomic file per chunk, metadata, resume, refusal, interruption."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import sim
from sim.errors import CanastaError
from sim.runner import run_chunks
from sim.sampler import dealt_records
from sim.store import META_NAME, load, read_meta

ROOT = Path(__file__).resolve().parents[1]
N, CHUNK = 5_000, 700
META = {"kind": "dealt_records", "ruleset": sim.DEFAULT_RULESET.to_dict()}


def _work(key, start, stop):
    return dealt_records(key, start, stop)


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
    assert s["ruleset"] == sim.DEFAULT_RULESET.to_dict() and s["schema_version"] == 1
    assert {"numpy", "numba", "pandas", "pyarrow", "canasta-sim"} <= set(meta["versions"])
    assert meta["complete"] is True
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
    (out / "chunk-000002.parquet").unlink()
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
