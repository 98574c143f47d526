"""Parallel defaults: ``--jobs`` defaults to every core in report, simulate, compare,
odds and whatif; chunks are sized so every job gets work; results never depend on either."""

from __future__ import annotations

import os

import pytest

from canasta import build_parser
from sim.jobs import chunk_size_for, default_jobs, effective_jobs

COMMANDS = {
    "report": ["report"],
    "simulate": ["simulate", "-n", "10"],
    "compare": ["compare", "greedy", "random"],
    "odds": ["odds"],
    "whatif": ["whatif"],
}


def test_default_jobs_is_every_core():
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert default_jobs() == cores >= 1
    assert effective_jobs(-1) == cores and effective_jobs(3) == 3


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_cli_jobs_default_every_core(command):
    """Each parallel command's --jobs defaults to every core, and its help says so."""
    parser = build_parser()
    assert parser.parse_args(COMMANDS[command]).jobs == default_jobs()
    sub = parser._subparsers._group_actions[0].choices[command]
    jobs = next(a for a in sub._actions if "--jobs" in a.option_strings)
    assert f"every core: {default_jobs()}" in jobs.help


@pytest.mark.parametrize("n", [2, 99, 2_000, 20_000, 200_000, 10_000_000])
@pytest.mark.parametrize("jobs", [1, 2, 3, 8])
def test_chunk_size_gives_every_job_work(n, jobs):
    """Within [100, 10,000] items a chunk; whenever there are enough items (100 a chunk), at
    least one chunk per job, and 4 per job while chunks stay under the 10,000 cap."""
    c = chunk_size_for(n, jobs)
    assert 1 <= c <= 10_000 and (c >= 100 or n < 100)
    chunks = -(-n // c)
    if n >= 100 * jobs:
        assert chunks >= jobs
    if 100 * 4 * jobs <= n <= 10_000 * 4 * jobs:
        assert chunks >= 4 * jobs
    assert chunk_size_for(2_000, 2) == 250  # 2,000 expert deals: 8 chunks, not 1


def test_compare_same_result_whatever_jobs_and_chunks():
    """A duplicate comparison with the default jobs (its chunks sized from them) equals the
    one-job comparison in one piece: same deals, same summary."""
    pytest.importorskip("numba")
    from analysis.compare import duplicate

    one = duplicate("greedy", "random", 240, seed=9, n_jobs=1).summary
    default = duplicate("greedy", "random", 240, seed=9, n_jobs=max(2, default_jobs())).summary
    assert default == one


def test_compare_passes_chunks_only_with_several_jobs():
    """resolve_simulate hands chunk_size_for(n, jobs) to the engine (analysis.backend.Engine)
    only with several jobs; a plain function gets no runner options at all."""
    from analysis.backend import RecordsEngine
    from analysis.compare import resolve_simulate

    fake = RecordsEngine(lambda n, policies, seed, ruleset: None)
    resolve_simulate(fake)(2_000, ("a", "b"), n_jobs=1)
    resolve_simulate(fake)(2_000, ("a", "b"), n_jobs=2)
    assert [c[5] for c in fake.calls] == [None, 250]
    seen = []
    resolve_simulate(lambda n, policies, seed=0, n_jobs=1, **opts: seen.append(opts))(
        2_000, ("a", "b"), n_jobs=2
    )
    assert seen == [{}]
