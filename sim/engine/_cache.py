"""Moved to :mod:`sim._numba_cache` (every source of the package, every cache location), which
``sim/__init__.py`` runs. This shim keeps the old names for
``tests/test_engine.py::test_engine_cache_dropped_when_a_dependency_changes``; remove both
together (``tests/test_numba_cache.py`` covers the new guard).
"""

from __future__ import annotations

from sim import _numba_cache

_SIM = _numba_cache.SIM
_DEPENDENCIES = ("encoding.py", "legality.py", "special.py", "scoring.py", "rng.py")


def ensure_fresh_cache() -> None:
    _numba_cache.ensure_fresh_cache(_SIM)
