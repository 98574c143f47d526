"""How many parallel jobs, and how big a chunk, when the user does not say.

Light on purpose (no numpy, no engine): the command line reads :func:`default_jobs` to print
its ``--help``. Neither choice changes any result: a run's rows depend only on (seed, item
index), never on the number of jobs or the chunk size (``sim.runner``).
"""

from __future__ import annotations

import math
import os

__all__ = ["DEFAULT_CHUNK_SIZE", "chunk_size_for", "default_jobs", "jobs_help"]

DEFAULT_CHUNK_SIZE = 10_000  #: the runner's default chunk (a few seconds of heuristic hands)
DEFAULT_CHUNK_MAX = DEFAULT_CHUNK_SIZE  #: chunks sized by the jobs are no larger
DEFAULT_CHUNK_MIN = 100  #: below this the per-chunk overhead (a task, a DataFrame) shows
CHUNKS_PER_JOB = 4  #: chunks each job gets, so a slow chunk does not leave a core idle


def default_jobs() -> int:
    """Every core this process may run on (its CPU affinity where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # macOS, Windows: no affinity call
        return max(1, os.cpu_count() or 1)


def effective_jobs(n_jobs: int) -> int:
    """joblib's convention made a count: -1 every core, -2 all but one..."""
    if n_jobs < 0:
        return max(1, default_jobs() + 1 + n_jobs)
    return max(1, n_jobs)


def chunk_size_for(
    n_items: int,
    n_jobs: int,
    per_job: int = CHUNKS_PER_JOB,
    minimum: int = DEFAULT_CHUNK_MIN,
    maximum: int = DEFAULT_CHUNK_MAX,
) -> int:
    """Items per chunk so that every job gets work: about ``per_job`` chunks per job, at least
    ``minimum`` and at most ``maximum`` items (2,000 expert deals on 2 jobs: 8 chunks of 250,
    not one chunk of 2,000 on one worker while the other idles)."""
    jobs = effective_jobs(n_jobs)
    size = math.ceil(max(1, n_items) / (jobs * per_job))
    return max(1, min(maximum, max(minimum, size)))


def jobs_help(extra: str = "") -> str:
    """The ``--jobs`` help line of every command that runs in parallel."""
    return (
        f"parallel jobs{extra} (default every core: {default_jobs()}); the results are the same "
        "for any number"
    )
