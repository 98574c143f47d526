"""Cold start: a first run on an empty cache compiles the chunk kernel in a second
process (``sim.warm``) and gives the records of a run compiled in one process."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import sim
from sim import warm
from sim.engine.play import play_hands_kernel
from sim.policies.builtin import heuristic_decide

ROOT = Path(__file__).resolve().parents[1]

_FIRST_RUN = """
import json, subprocess, sys
from sim import warm
if {fail!r}:  # the second process fails at once: this process must compile the kernel itself
    real = subprocess.Popen
    subprocess.Popen = lambda args, **kw: real([sys.executable, "-c", "raise SystemExit(3)"], **kw)
used = warm.warm_start("sim.engine.play:play_hands_kernel", ["heuristic", "random"])
import sim
df = sim.simulate(12, policies=("heuristic", "random"), seed=17)
print(json.dumps({{"used": used, "rows": df.to_json()}}))
"""


def _first_run(tmp_path, fail: bool) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    env[warm.ENV] = "1"
    out = subprocess.run(
        [sys.executable, "-c", _FIRST_RUN.format(fail=fail)],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_enabled_follows_the_environment(monkeypatch):
    monkeypatch.setenv(warm.ENV, "0")
    assert not warm.enabled()
    monkeypatch.setenv(warm.ENV, "1")
    monkeypatch.setattr(warm, "_cores", lambda: 1)
    assert not warm.enabled()  # one core: nothing to gain
    monkeypatch.setattr(warm, "_cores", lambda: 2)
    assert warm.enabled()


def test_the_second_process_imports_these_sources(monkeypatch):
    """Whatever the caller's PYTHONPATH, the second process finds this ``sim`` first."""
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    env = warm._child_env()
    out = subprocess.run(
        [sys.executable, "-c", "import sim; print(sim.__file__)"],
        env=env,
        capture_output=True,
        text=True,
        cwd="/",
    )
    assert Path(out.stdout.strip()).resolve() == Path(sim.__file__).resolve()
    assert env["PYTHONPATH"].endswith(os.pathsep + "/elsewhere")


def test_cached_tells_a_cached_dispatcher_from_others():
    sim.simulate(1, policies=("heuristic", "heuristic"))  # both are in the cache now
    assert warm.cached(play_hands_kernel) is True
    assert warm.cached(heuristic_decide) is True
    assert warm.cached(lambda obs: 0) is None  # a Python function: no cache to ask


def test_warm_cache_loads_nothing(monkeypatch):
    """With every piece in the cache, ``warm_start`` starts no process and compiles nothing."""
    sim.simulate(1, policies=("heuristic", "heuristic"))
    started = []
    monkeypatch.setattr(warm.subprocess, "Popen", lambda *a, **k: started.append(a))
    assert warm.warm_start("sim.engine.play:play_hands_kernel", ["heuristic"]) is False
    assert started == []


def test_compiled_here_starts_nothing_even_without_a_cache(monkeypatch):
    """A cache that cannot be written never fills: what this process compiled already is not
    compiled again in a second process at every run."""
    sim.simulate(1, policies=("heuristic", "heuristic"))
    monkeypatch.setattr(warm, "cached", lambda d: False)
    started = []
    monkeypatch.setattr(warm.subprocess, "Popen", lambda *a, **k: started.append(a))
    assert warm.warm_start("sim.engine.play:play_hands_kernel", ["heuristic"]) is False
    assert started == []


@pytest.mark.slow
def test_second_process_compiles_the_kernel_and_records_are_unchanged(tmp_path):
    """A first run in a fresh process on an empty cache: the kernel is compiled by the second
    process, and the records equal those of this process (compiled in one process)."""
    if not warm.enabled():
        pytest.skip("one core: the second process is not used")
    got = _first_run(tmp_path, fail=False)
    assert got["used"] is True
    want = sim.simulate(12, policies=("heuristic", "random"), seed=17)
    assert json.loads(got["rows"]) == json.loads(want.to_json())


@pytest.mark.slow
def test_a_failed_second_process_falls_back_to_compiling_here(tmp_path):
    got = _first_run(tmp_path, fail=True)
    assert got["used"] is False
    want = sim.simulate(12, policies=("heuristic", "random"), seed=17)
    assert json.loads(got["rows"]) == json.loads(want.to_json())
