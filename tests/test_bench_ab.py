"""benchmarks/bench_ab.py, the A/B speed harness: each side imports its own tree and is warmed
before any timed call. Fake trees with a tiny ``sim`` stand in for the project's, so nothing
is compiled or timed here."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_ab.py"

# A stand-in for sim.api.play_hands: it writes one line a call to calls.log beside its tree,
# and answers with a stand-in of the frame's two score columns, which the worker digests.
FAKE_API = """
from pathlib import Path

import numpy as np

LOG = Path(__file__).resolve().parents[1] / "calls.log"


class Frame:
    def __init__(self, n):
        self.scores = np.arange(2 * n).reshape(n, 2) + MARK

    def __len__(self):
        return len(self.scores)

    def __getitem__(self, columns):
        return self

    def to_numpy(self, dtype):
        return self.scores.astype(dtype)


def play_hands(key, start, stop, pair):
    with LOG.open("a") as f:
        f.write(f"{stop - start}\\n")
    return Frame(stop - start)
"""


def _bench():
    spec = importlib.util.spec_from_file_location("bench_ab", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fake_tree(root: Path, mark: int) -> Path:
    (root / "sim").mkdir(parents=True)
    (root / "sim" / "__init__.py").write_text("")
    (root / "sim" / "rng.py").write_text("def run_key(seed):\n    return seed\n")
    (root / "sim" / "api.py").write_text(f"MARK = {mark}\n" + FAKE_API)
    return root


def _calls(tree: Path) -> list[int]:
    log = tree / "calls.log"
    return [int(x) for x in log.read_text().split()] if log.exists() else []


def test_each_side_imports_its_own_tree_and_is_warmed_before_timing(tmp_path):
    ab = _bench()
    trees = {"base": _fake_tree(tmp_path / "a", 0), "head": _fake_tree(tmp_path / "b", 7)}
    workers = {
        n: ab.Worker(n, t, "hands", ["heuristic", "heuristic"], 5, sys.executable)
        for n, t in trees.items()
    }
    try:
        for n, w in workers.items():
            # its sim is the tree's, whatever the venv's editable install points at
            assert Path(w.imports["sim"]).resolve().is_relative_to(trees[n])
            assert w.imports["outside"] == []
            # the warm-up: one call at the timed size made before the worker said ready
            assert _calls(trees[n]) == [5]
        got = ab.interleave(workers, 3)
    finally:
        for w in workers.values():
            w.close()
    for n, t in trees.items():
        assert _calls(t) == [5, 5, 5, 5]  # the warm-up, then the three timed calls
        assert all(r["units"] == 5 and r["cpu"] >= 0 for r in got[n])
    # each side answered with its own tree's code (the marks differ, so do the digests)
    assert got["base"][0]["digest"] != got["head"][0]["digest"]


def test_a_tree_without_its_own_sim_is_refused(tmp_path):
    """A tree lacking ``sim`` would import another checkout's (the venv's editable install, or
    nothing): the harness stops with one line naming the side."""
    ab = _bench()
    bare = tmp_path / "bare"
    bare.mkdir()
    with pytest.raises(ab.ABError, match="base"):
        ab.Worker("base", bare.resolve(), "hands", ["heuristic", "heuristic"], 5, sys.executable)


def test_a_commit_is_unpacked_once_into_a_tree_of_its_own(tmp_path):
    ab = _bench()
    repo = _fake_tree(tmp_path / "repo", 3)
    run = {"cwd": repo, "check": True, "capture_output": True}
    subprocess.run(["git", "init", "-q"], **run)
    subprocess.run(["git", "add", "sim"], **run)
    who = ["-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run(["git", *who, "commit", "-qm", "fake"], **run)
    work = tmp_path / "work"
    tree = ab.tree_of("HEAD", work, repo=repo)
    sha = subprocess.run(["git", "rev-parse", "HEAD"], text=True, **run).stdout.strip()
    assert tree.parent == work.resolve() and (tree / ".ab-commit").read_text().strip() == sha
    assert (tree / "sim" / "api.py").read_text() == (repo / "sim" / "api.py").read_text()
    (tree / "sim" / "__pycache__").mkdir()  # a warm cache stays where it is
    assert ab.tree_of("HEAD", work, repo=repo) == tree
    assert (tree / "sim" / "__pycache__").is_dir()
    with pytest.raises(ab.ABError, match="no-such-ref"):
        ab.tree_of("no-such-ref", work, repo=repo)


def test_bad_sizes_are_one_line(capsys):
    ab = _bench()
    assert ab.main(["--base", ".", "--size", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("bench_ab: --size") and "\n" not in err


def test_the_split_into_a_fixed_cost_and_a_cost_a_hand():
    ab = _bench()
    rows = [{"size": n, "cpu": {"base": 0.002 + n / 30_000}} for n in (300, 3000, 20_000)]
    fixed_ms, rate = ab.fixed_and_marginal(rows, "base")
    assert fixed_ms == pytest.approx(2.0) and rate == pytest.approx(30_000)
    assert json.dumps(rows)  # rows stay plain data (printed with --json)
