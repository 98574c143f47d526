"""The advice pool's workers end with their server: a server stopped in any way (here: its
process ends without shutting the pool down) leaves no idle worker process behind."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")

ROOT = Path(__file__).resolve().parents[1]

SERVER = textwrap.dedent(
    """
    import multiprocessing, os
    from concurrent.futures import ProcessPoolExecutor
    from canasta.web.pool import _start_worker

    ex = ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker
    )
    print(ex.submit(os.getpid).result(), flush=True)
    os._exit(0)  # gone without shutting the pool down, as a killed server would be
    """
)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"  # a zombie has ended; only its parent's wait is missing


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc (Linux)")
def test_a_worker_ends_once_its_server_has_gone():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", SERVER], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr
    pid = int(out.stdout.split()[0])
    deadline = time.monotonic() + 20  # the worker looks for its parent every second
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    alive = _alive(pid)
    if alive:
        os.kill(pid, 9)
    assert not alive, "the worker outlived its server"
