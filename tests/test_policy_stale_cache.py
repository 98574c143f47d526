"""A user policy whose numba cache names a module since renamed still loads (POLICY contract).

numba checks a cached function against its own source file only: a policy file left unchanged
while a module it calls into moved keeps a cache that names the old module, and loading it
raised ``ModuleNotFoundError``. ``sim.policies.register`` now drops such a cache and compiles
afresh. Each step runs in a fresh interpreter, as a user's second session would."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from tests.helpers import numba_cache_dir

ROOT = Path(__file__).resolve().parents[1]

POLICY = """
from numba import njit
from helpers_pkg import first_legal
from sim.policies import register

@njit(cache=True)
def decide(obs, params, rng, rules, scratch):
    return first_legal(obs, rules, scratch)

register("stale_cache_policy", decide, replace=True)
"""

HELPER = """
from numba import njit
from sim.engine.judge import legal_actions
from sim.engine.views import scratch_legal, scratch_tmp

@njit(cache=True)
def first_legal(obs, rules, scratch):
    legal = scratch_legal(scratch)
    legal_actions(obs, rules, legal, scratch_tmp(scratch))
    return legal[0]
"""

RUN = """
import sys
sys.path.insert(0, sys.argv[1])
import user_policy  # registers it, compiling (or loading the cache)
import sim
df = sim.simulate(2, ("stale_cache_policy", "random"), seed=1, n_jobs=1)
print("hands", len(df))
"""


def _run(tmp: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", RUN, str(tmp)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_policy_loads_after_the_module_its_cache_names_is_renamed(tmp_path):
    pkg = tmp_path / "helpers_pkg"
    pkg.mkdir()
    (tmp_path / "user_policy.py").write_text(textwrap.dedent(POLICY))
    (pkg / "old_name.py").write_text(textwrap.dedent(HELPER))
    (pkg / "__init__.py").write_text("from helpers_pkg.old_name import first_legal\n")
    first = _run(tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    # cached where numba puts it (NUMBA_CACHE_DIR or __pycache__ beside the file)
    assert list(numba_cache_dir(tmp_path / "user_policy.py").glob("user_policy.decide-*.nbi"))

    old_cache = numba_cache_dir(pkg / "old_name.py")  # numba's locators need the file
    # the helper module moves; the policy file (and so its cache's stamp) is unchanged
    (pkg / "old_name.py").rename(pkg / "new_name.py")
    (pkg / "__init__.py").write_text("from helpers_pkg.new_name import first_legal\n")
    for where in {pkg / "__pycache__", old_cache}:
        for stale in where.glob("old_name*"):
            stale.unlink()
    second = _run(tmp_path)
    assert second.returncode == 0, second.stderr[-2000:]
    assert "No module named" not in second.stderr
    assert "hands 2" in second.stdout
