"""Keep numba's on-disk cache of the engine and the policies in step with their sources.

numba invalidates a cached function only when *its own* source file changes, not when a kernel
it calls (``sim.legality``, ``sim.scoring``...) or a constant of ``sim.encoding`` does. The
engine inlines all of those, so before its modules are imported we compare a digest of every
source it depends on with the one stored beside the cache, and drop the engine's and policies'
cache files when they differ (they are then recompiled once). Only the default cache location
(``__pycache__`` beside the sources) is managed; with ``NUMBA_CACHE_DIR`` set, clear it yourself
after changing the sources.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_SIM = Path(__file__).resolve().parents[1]
_DEPENDENCIES = ("encoding.py", "legality.py", "special.py", "scoring.py", "rng.py")
_CACHED_DIRS = ("engine", "policies")
_STAMP = "engine-sources.sha256"


def _digest() -> str:
    h = hashlib.sha256()
    files = [_SIM / name for name in _DEPENDENCIES]
    for d in _CACHED_DIRS:
        files += sorted((_SIM / d).glob("*.py"))
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes() if f.exists() else b"")
    return h.hexdigest()


def ensure_fresh_cache() -> None:
    """Drop stale engine/policy cache files (see the module docstring); never raises."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    try:
        digest = _digest()
        stamp = _SIM / "engine" / "__pycache__" / _STAMP
        if stamp.exists() and stamp.read_text().strip() == digest:
            return
        for d in _CACHED_DIRS:
            for f in (_SIM / d / "__pycache__").glob("*.nb[ic]"):
                f.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass  # a read-only install: numba falls back to its own checks
