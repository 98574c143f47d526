"""Keep numba's on-disk cache of every kernel in ``sim`` in step with the package's sources.

numba invalidates a cached function only when *its own* source file changes. The kernels of
``sim`` inline kernels and constants of other files (``scoring`` and ``sampler`` call
``special``, the engine calls ``legality``, ``scoring``, ``rng``, all read ``encoding``), so an
edit to ``special.py`` would leave them stale. So before any compiled module of ``sim`` is
imported (``sim/__init__.py`` calls :func:`ensure_fresh_cache`), one SHA-256 digest of every
source of the package is compared with the one stored beside the cache; when they differ, every
cache file of the package (``*.nbi``/``*.nbc``) is dropped, and numba compiles afresh once.

Where the cache is, as numba decides (``numba.core.caching``, in this order):

* ``NUMBA_CACHE_DIR`` set: ``$NUMBA_CACHE_DIR/<dir>_<sha1 of the source dir's absolute path>``
  for each source dir; the stamp is in the one of ``sim/`` itself. The guard reads the
  variable from the environment (as numba does at import); a ``.numba_config.yaml`` setting it
  is not seen, so clear that directory yourself after changing sources.
* otherwise ``__pycache__`` beside each source file, stamp ``sim/__pycache__/numba-sources.sha256``;
* ``__pycache__`` not writable (a read-only install): numba's user-wide cache
  (``$XDG_CACHE_HOME/numba`` or ``~/.cache/numba``; ``~/Library/Caches/numba`` on macOS;
  ``%LOCALAPPDATA%\\numba\\Cache`` on Windows), same layout as ``NUMBA_CACHE_DIR``.

The command line is its own package (``canasta/``), outside ``sim``; ``sim/__main__.py`` (a
one-line pointer to it) holds no kernel and no compiled code imports it
(tests/test_numba_cache.py checks both), so it is left out of the digest. Never raises: when
nothing can be written, numba's own per-file check is all that is left.

``fewer_collections`` runs Python's garbage collector less often while numba compiles (the
chunk kernel's compile, ``sim.engine.play.ready_kernel``; the policies', ``sim.warm``).
``compile_once`` compiles a kernel to its one signature and closes it to compiling, under one
lock, so threads that ask at once (a web server's hint during its warm-up) all get it.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import sys
import threading
from pathlib import Path

SIM = Path(__file__).resolve().parent
STAMP = "numba-sources.sha256"
__all__ = ["compile_once", "digest", "sources"]

FACES = ("__main__.py",)  #: top-level entries of sim/ left out of the digest


def sources(root: Path = SIM) -> list[Path]:
    """Every .py file of the package except ``FACES``, in a fixed order."""
    out = []
    for f in root.rglob("*.py"):
        rel = f.relative_to(root).parts
        if rel[0] not in FACES and "__pycache__" not in rel:
            out.append(f)
    return sorted(out, key=lambda f: f.relative_to(root).as_posix())


def digest(root: Path = SIM) -> str:
    h = hashlib.sha256()
    for f in sources(root):
        h.update(f.relative_to(root).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()


def _subpath(source_dir: Path) -> str:
    """numba's directory name for a source dir under a cache root
    (``_CacheLocator.get_suitable_cache_subpath``)."""
    path = os.path.abspath(source_dir)
    return f"{os.path.basename(path)}_{hashlib.sha1(path.encode()).hexdigest()}"


def _user_wide_root() -> Path:
    """numba's user-wide cache root (appdirs ``user_cache_dir('numba')``)."""
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "numba"
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA", str(Path.home() / "AppData" / "Local"))
        return Path(local) / "numba" / "Cache"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "numba"


def cache_dirs(root: Path = SIM, base: Path | None = None) -> list[Path]:
    """The cache dir of each source dir of the package: its ``__pycache__`` (``base`` None) or
    its numba subdirectory of the cache root ``base``; the first is ``sim/``'s own."""
    dirs = sorted({f.parent for f in sources(root)} | {root})
    dirs.remove(root)
    dirs.insert(0, root)
    return [d / "__pycache__" if base is None else base / _subpath(d) for d in dirs]


def _refresh(dirs: list[Path], want: str) -> bool:
    """Drop the cache files in ``dirs`` unless ``dirs[0]`` holds the stamp ``want``; then
    write it. False when the stamp cannot be written (read-only)."""
    stamp = dirs[0] / STAMP
    try:
        if stamp.read_text().strip() == want:
            return True
    except OSError:
        pass  # no stamp yet
    try:
        for d in dirs:
            for f in d.glob("*.nb[ic]"):
                f.unlink(missing_ok=True)
        stamp.parent.mkdir(parents=True, exist_ok=True)
        tmp = stamp.with_name(f"{STAMP}.{os.getpid()}.tmp")
        tmp.write_text(want)
        tmp.replace(stamp)  # atomic: a concurrent import reads the old stamp or the new one
    except OSError:
        return False
    return True


def ensure_fresh_cache(root: Path | None = None) -> None:
    """Drop every stale cache file of the package (see the module docstring); never raises."""
    root = SIM if root is None else Path(root)
    try:
        want = digest(root)
    except OSError:
        return
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:  # numba then uses this directory only
        _refresh(cache_dirs(root, Path(user)), want)
    elif not _refresh(cache_dirs(root), want):  # read-only install: numba's user-wide cache
        _refresh(cache_dirs(root, _user_wide_root()), want)


#: the young generation's threshold while compiling (Python's default is 700 objects)
COMPILE_GC_THRESHOLD = 20_000


@contextlib.contextmanager
def fewer_collections():
    """Python's cyclic garbage collector run less often while numba compiles: a compile makes
    millions of short-lived objects (its IR, types, LLVM values) and, with the default
    threshold, a first run spent ~8% of its compile CPU in ~3,000 collections (a slower
    cold start; ~25 MB more memory at the peak). Restored afterwards; what is compiled is
    the same."""
    old = gc.get_threshold()
    gc.set_threshold(max(COMPILE_GC_THRESHOLD, old[0]), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


#: held while a kernel is compiled once and closed to compiling (:func:`compile_once`)
COMPILE_LOCK = threading.RLock()


def compile_once(dispatcher, args: tuple) -> None:
    """``dispatcher`` compiled to ``args`` and then closed to further compiling, as an eager
    ``@njit(sig)`` would be, once whatever the threads: without the lock a second thread that
    checked before the first had finished compiled again after the first had closed it, and
    numba refused ("compilation disabled"; a web hint during the warm-up failed that way)."""
    if args in dispatcher.signatures:
        return
    with COMPILE_LOCK:
        if args not in dispatcher.signatures:
            with fewer_collections():
                dispatcher.compile(args)
            dispatcher.disable_compile()
