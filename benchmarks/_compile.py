"""First-call compile time, measured where no on-disk numba cache can hide it."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def compile_seconds(snippet: str) -> float:
    """Run ``snippet`` (which prints the seconds of its first call) in a fresh interpreter with
    an empty NUMBA_CACHE_DIR, and return what it printed."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
        out = subprocess.run(
            [sys.executable, "-c", snippet], env=env, capture_output=True, text=True
        )
        out.check_returncode()
        return float(out.stdout.strip())
