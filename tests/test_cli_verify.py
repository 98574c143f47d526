"""``canasta verify DIR`` and the repair of a damaged ``canasta simulate --out`` run: a run
directory never lies about its data."""

import json
import shlex
import shutil

import pandas as pd
import pytest

import sim
from canasta import main
from sim.store import META_NAME, read_meta, repair_command

N, CHUNK, SEED = 300, 100, 4
ARGV = ["simulate", "-n", str(N), "--policies", "greedy,random", "--seed", str(SEED)]
ARGV += ["--chunk-size", str(CHUNK)]


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished, undamaged run (copied by each test that damages it) and its rows."""
    out = tmp_path_factory.mktemp("verify") / "run"
    assert main([*ARGV, "--out", str(out), "--quiet"]) == 0
    return out, sim.load(out)


def _copy(finished, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(finished[0], out)
    return out


def _verify(capsys, *argv):
    code = main(["verify", *map(str, argv)])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_an_intact_run_verifies_clean(finished, capsys):
    out, rows = finished
    code, text, err = _verify(capsys, out)
    assert (code, err) == (0, "")
    assert text == f"ok: {out}: 3 of 3 chunks intact, 300 hands (schema 2, sha256 checked)\n"
    code, text, _ = _verify(capsys, out, "--format", "json")
    rep = json.loads(text)
    assert code == 0 and rep["intact"] is True and rep["problems"] == [] and rep["repair"] is None
    assert (rep["n_chunks"], rep["intact_chunks"], rep["rows"]) == (3, 3, N) == (3, 3, len(rows))
    # the rows are those of the same hands played in memory
    direct = sim.simulate(N, policies=("greedy", "random"), seed=SEED)
    pd.testing.assert_frame_equal(rows, direct, check_exact=True)


def test_a_truncated_chunk_is_found_named_and_replayed_by_the_same_command(
    finished, tmp_path, capsys
):
    """The issue's case: truncate one chunk of a finished run. verify says which (exit 1),
    sim.load refuses in one line with the repair command, and that command replays exactly
    the damaged chunk: the rows are those of the undamaged run."""
    out = _copy(finished, tmp_path)
    chunk = out / "chunk-000001.parquet"
    chunk.write_bytes(chunk.read_bytes()[:2000])
    code, text, _ = _verify(capsys, out)
    lines = text.splitlines()
    assert code == 1 and len(lines) == 2
    assert lines[0].startswith("damaged: chunk-000001.parquet: 2000 bytes,")
    command = shlex.join(["canasta", *ARGV, "--out", str(out)])
    assert lines[1].startswith(f"not intact: {out}: 2 of 3 chunks intact, 200 hands")
    assert lines[1].endswith(f"to repair it, rerun the same command: {command}")
    with pytest.raises(sim.CanastaError) as exc:
        sim.load(out)
    msg = str(exc.value)
    assert "\n" not in msg and f"run {out} is damaged: chunk-000001.parquet" in msg
    assert msg.endswith(f"rerun the same command: {command}")
    kept = {p.name: p.stat().st_mtime_ns for p in out.glob("chunk-*") if p != chunk}
    argv = shlex.split(msg.split("rerun the same command: ")[1])
    assert argv[0] == "canasta" and main([*argv[1:], "--quiet"]) == 0
    assert {n: (out / n).stat().st_mtime_ns for n in kept} == kept  # only chunk 1 replayed
    assert _verify(capsys, out)[0] == 0
    pd.testing.assert_frame_equal(sim.load(out), finished[1], check_exact=True)


def test_missing_unrecorded_and_foreign_files_are_listed_one_per_line(finished, tmp_path, capsys):
    out = _copy(finished, tmp_path)
    (out / "chunk-000000.parquet").unlink()
    meta = read_meta(out)
    del meta["chunks"]["chunk-000002.parquet"]  # a write interrupted before its record
    (out / META_NAME).write_text(json.dumps(meta))
    (out / "notes.txt").write_text("mine")
    code, text, _ = _verify(capsys, out)
    assert code == 1
    assert [line.split(": ")[:2] for line in text.splitlines()[:3]] == [
        ["missing", "chunk-000000.parquet"],
        ["unrecorded", "chunk-000002.parquet"],
        ["foreign", "notes.txt"],
    ]
    assert f"move the foreign files out of {out}, then rerun the same command" in text
    rep = json.loads(_verify(capsys, out, "--format", "json")[1])
    assert [(p["kind"], p["file"]) for p in rep["problems"]] == [
        ("missing", "chunk-000000.parquet"),
        ("unrecorded", "chunk-000002.parquet"),
        ("foreign", "notes.txt"),
    ]
    # the rerun never deletes a file it did not write: it refuses, naming it
    assert main([*ARGV, "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds notes.txt, which is no part of this run" in err
    (out / "notes.txt").unlink()
    assert main([*ARGV, "--out", str(out), "--quiet"]) == 0
    assert _verify(capsys, out)[0] == 0
    pd.testing.assert_frame_equal(sim.load(out), finished[1], check_exact=True)


def test_a_schema_1_run_verifies_by_its_footers(finished, tmp_path, capsys):
    out = _copy(finished, tmp_path)
    meta = read_meta(out)
    del meta["chunks"]
    meta["settings"]["schema_version"] = 1
    (out / META_NAME).write_text(json.dumps(meta))
    code, text, _ = _verify(capsys, out)
    assert code == 0 and "schema 1: no checksums recorded, footers checked only" in text
    assert main([*ARGV, "--out", str(out), "--quiet"]) == 0  # upgrades it: checksums recorded
    capsys.readouterr()
    assert _verify(capsys, out) == (
        0,
        f"ok: {out}: 3 of 3 chunks intact, 300 hands (schema 2, sha256 checked)\n",
        "",
    )


@pytest.mark.parametrize("what", ["missing", "empty", "file", "damaged metadata"])
def test_not_a_run_directory_is_exit_2_one_line(tmp_path, capsys, what):
    path = tmp_path / "x"
    if what == "empty":
        path.mkdir()
    elif what == "file":
        path.write_text("x")
    elif what == "damaged metadata":
        path.mkdir()
        (path / META_NAME).write_text('{"settings": ')
    code, text, err = _verify(capsys, path)
    assert (code, text) == (2, "") and err.count("\n") == 1
    assert err.startswith("canasta: error:") and "Traceback" not in err
    word = "is damaged" if what == "damaged metadata" else "is not a canasta run directory"
    assert word in err


def test_the_repair_command_is_built_from_the_settings(tmp_path):
    s = {"kind": "games", "policies": ["heuristic:sevens_threshold=4", "random"]}
    s.update(n_items=6, seed=2, chunk_size=4, ruleset=sim.DEFAULT_RULESET.to_dict())
    path = tmp_path / "my run"
    want = (
        "rerun the same command: canasta simulate --games 6 --policies "
        f"heuristic:sevens_threshold=4,random --seed 2 --chunk-size 4 --out '{path}'"
    )
    assert repair_command(path, s) == want
    other = {**s, "ruleset": {**s["ruleset"], "target": 5000}}
    assert repair_command(path, other).endswith(
        "--rules FILE.toml (the rules file it was made with)"
    )
    assert "(or call)" in repair_command(path, {**s, "kind": "position"})
