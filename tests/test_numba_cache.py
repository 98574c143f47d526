"""numba's on-disk cache stays in step with every source of ``sim`` (sim._numba_cache).

numba checks only a cached function's own file: ``sim.scoring.score_team`` inlines
``sim.special.special_award`` (SPECIAL-3: a straight is worth 3,000), so editing special.py
alone leaves the cached ``score_team`` stale. The guard hashes the package's sources as one and
drops every cache file on a change. The end-to-end test edits special.py in a copy of the
package and checks that a fresh process sees the edit, and that without the guard it would not.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from sim import _numba_cache as C

SIM = Path(C.__file__).resolve().parent

# SPECIAL-3 award through the kernel of another file (scoring inlines special.special_award)
SCRIPT = """
import numpy as np
from sim import encoding as E
from sim.ruleset import Ruleset
from sim.scoring import score_team

m = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
t = np.zeros(2, dtype=np.int64)
h = np.zeros((2, E.N_KINDS), dtype=np.int64)
out = np.zeros(E.N_SCORE_ITEMS, dtype=np.int64)
score_team(m, t, h, False, E.SPECIAL_STRAIGHT, Ruleset().to_array(), out)
print(int(out.sum()))
"""
AWARD_LINE = "    return rules[catalogue_row(code) + E.CH_AWARD]\n"


def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "pkg" / "sim"
    shutil.copytree(SIM, dst, ignore=shutil.ignore_patterns("__pycache__"))
    return dst


def _award(root: Path, **env) -> int:
    """The SPECIAL-3 award as the copy's compiled score_team computes it, in a new process."""
    environ = {**os.environ, "PYTHONPATH": str(root.parent), **env}
    environ.pop("NUMBA_DISABLE_JIT", None)
    if "NUMBA_CACHE_DIR" not in env:
        environ.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        env=environ,
        cwd=root.parent,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout.strip())


def _edit_award(root: Path, plus: int) -> None:
    special = root / "special.py"
    text = special.read_text()
    assert AWARD_LINE in text, "special_award changed: update this test's edit"
    special.write_text(text.replace(AWARD_LINE, AWARD_LINE[:-1] + f" + {plus}\n"))


def test_editing_an_inlined_kernel_is_not_served_stale(tmp_path):
    """SPECIAL-3 award read through scoring.score_team: after special.py changes, a new process
    computes the new value (the guard dropped the cache); with the guard switched off, numba's
    own check serves the stale value, so this test can fail."""
    root = _copy(tmp_path)
    assert _award(root) == 3000  # SPECIAL-3
    cached = {f.name for f in (root / "__pycache__").glob("scoring.*.nb[ic]")}
    assert any(n.endswith(".nbi") for n in cached), cached  # compiled and cached on disk
    stamp = (root / "__pycache__" / C.STAMP).read_text()
    assert stamp == C.digest(root)

    _edit_award(root, 1)
    assert _award(root) == 3001  # fresh: recompiled with the edited special_award
    assert (root / "__pycache__" / C.STAMP).read_text() == C.digest(root) != stamp

    # control: the same edit without the guard is served stale by numba's per-file check
    init = root / "__init__.py"
    init.write_text(init.read_text().replace("\nensure_fresh_cache()", "\npass"))
    (root / "special.py").write_text((root / "special.py").read_text().replace("+ 1", "+ 2"))
    assert _award(root) == 3001  # stale: the cached score_team still inlines "+ 1"


def test_numba_cache_dir_is_managed(tmp_path):
    """With NUMBA_CACHE_DIR the stamp and the dropped files are in numba's subdirectories of it
    (the layout of numba.core.caching, checked against numba itself)."""
    from numba.core.caching import _CacheLocator

    root = _copy(tmp_path)
    base = tmp_path / "numba-cache"
    dirs = C.cache_dirs(root, base)
    for f in C.sources(root):
        assert base / _CacheLocator.get_suitable_cache_subpath(str(f)) in dirs, f
    assert dirs[0] == base / _CacheLocator.get_suitable_cache_subpath(str(root / "special.py"))
    stale = [d / "kernel.f-1.py311.nbi" for d in dirs]
    for f in stale:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("x")
    env = {**os.environ, "PYTHONPATH": str(root.parent), "NUMBA_CACHE_DIR": str(base)}
    subprocess.run([sys.executable, "-c", "import sim"], env=env, cwd=root.parent, check=True)
    assert not any(f.exists() for f in stale)  # no stamp yet: dropped
    assert (dirs[0] / C.STAMP).read_text() == C.digest(root)
    assert not (root / "__pycache__" / C.STAMP).exists()  # the in-tree cache is not numba's


def test_cache_files_dropped_only_when_a_source_changes(tmp_path, monkeypatch):
    """Same sources: the cache files stay; any source of the package (here one below
    sim/engine) changed: every cache file of every source dir goes."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    root = _copy(tmp_path)
    files = [d / "x.f-1.py311.nbc" for d in C.cache_dirs(root)]
    for f in files:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("x")
    C.ensure_fresh_cache(root)
    assert not any(f.exists() for f in files)  # no stamp yet
    for f in files:
        f.write_text("x")
    C.ensure_fresh_cache(root)
    assert all(f.exists() for f in files)  # unchanged: kept
    judge = root / "engine" / "judge.py"
    judge.write_text(judge.read_text() + "\n# changed\n")
    C.ensure_fresh_cache(root)
    assert not any(f.exists() for f in files)


def test_digest_covers_every_source_but_the_faces(tmp_path):
    """Every .py file of sim counts, but ``sim/__main__.py`` (a pointer to ``canasta``)."""
    root = _copy(tmp_path)
    before = C.digest(root)
    counted = {f.relative_to(root).as_posix() for f in C.sources(root)}
    for f in sorted(root.rglob("*.py")):
        rel = f.relative_to(root).as_posix()
        text = f.read_bytes()
        f.write_bytes(text + b"\n# edit\n")
        assert (C.digest(root) != before) == (rel in counted), rel
        f.write_bytes(text)
    assert {r.split("/")[0] for r in counted} >= {"engine", "policies", "special.py"}
    assert "__main__.py" not in counted


def test_faces_hold_no_kernel_and_nothing_compiled_imports_them():
    """Why ``sim/__main__.py`` may be left out of the digest: no numba in it, no import of it
    from the rest of sim (the command line itself is ``canasta/``, outside sim)."""
    for face in C.FACES:
        for f in [SIM / face] if (SIM / face).is_file() else (SIM / face).rglob("*.py"):
            text = f.read_text()
            assert not re.search(r"^\s*(from numba|import numba)|@n?jit", text, re.M), f
    for f in C.sources(SIM):
        assert not re.search(
            r"^\s*(from sim\.__main__|import sim\.__main__)", f.read_text(), re.M
        ), f


def test_guard_imports_no_numba(tmp_path):
    """The guard runs on every ``import sim``; it hashes files and imports nothing heavy."""
    root = _copy(tmp_path)
    code = "import sys, sim; assert 'numba' not in sys.modules, 'numba imported'"
    env = {**os.environ, "PYTHONPATH": str(root.parent)}
    subprocess.run([sys.executable, "-c", code], env=env, cwd=root.parent, check=True)
