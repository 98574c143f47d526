"""ODDS-1 sampling runs (runner level): ``sample_dealt_odds`` splits the deals of
``sim.sampler``'s kernels into chunks for ``sim.runner.parallel_map`` and adds up the hits.

The sampler itself (``sim/sampler.py``) is rules core and imports nothing above it; this module
is its runner-level entry point.
"""

from __future__ import annotations

import numpy as np

from sim.errors import CanastaError
from sim.sampler import (
    BLOCK,
    DEFAULT_CHUNK,
    KERNELS,
    N_SPECIAL,
    SampledOdds,
    count_hits,
    named_hits,
    next_target,
    planned_deals,
    rules_array,
)

__all__ = ["sample_dealt_odds"]


def _hits_task(key, start, stop, rules, kernel):
    return stop - start, count_hits(key, start, stop, rules, kernel)


def sample_dealt_odds(
    n_deals: int = 1_000_000,
    seed: int = 0,
    n_jobs: int = 1,
    ruleset=None,
    rel_error: float | None = None,
    max_deals: int | None = None,
    kernel: str = "fast",
    chunk_size: int = DEFAULT_CHUNK,
    backend: str = "loky",
    scheduler=None,
    progress: bool | None = False,
) -> SampledOdds:
    """Estimate ODDS-1 by sampling ``n_deals`` real deals (deal i depends on (seed, i) only).

    ``rel_error=R`` keeps sampling in rounds after the first ``n_deals`` until every hand whose
    exact odds are not 0 has a relative standard error ``sqrt(p(1-p)/n)/p <= R``, or the
    ``max_deals`` cap is reached. Rounds extend the same deal sequence, so the result equals one
    run of the final size. Any ``n_jobs``/``chunk_size``/backend gives the same counts.
    """
    import time

    from sim.limits import MAX_DEALS, check_chunks, check_count, check_jobs, check_seed
    from sim.odds import exact_odds
    from sim.rng import run_key
    from sim.runner import Progress, parallel_map

    # every number is checked before any work (sim.limits)
    n_deals = check_count("n_deals", n_deals, MAX_DEALS)
    seed = check_seed(seed)
    check_jobs(n_jobs)
    if max_deals is not None:
        max_deals = check_count("max_deals", max_deals, MAX_DEALS)
        n_deals = min(n_deals, max_deals)
    if rel_error is not None and not (
        isinstance(rel_error, int | float) and not isinstance(rel_error, bool) and 0 < rel_error < 1
    ):
        raise CanastaError(f"rel_error must lie strictly between 0 and 1, got {rel_error!r}")
    if kernel not in KERNELS:
        raise CanastaError(f"unknown sampler kernel {kernel!r}; known: {', '.join(KERNELS)}")
    rules = rules_array(ruleset)
    exact = exact_odds(ruleset)
    most = n_deals  # the deals the run may reach, for the chunk count
    if rel_error is not None:
        need = planned_deals(exact, rel_error)
        if max_deals is None and need > MAX_DEALS:
            raise CanastaError(
                f"rel_error {rel_error:g} needs about {need:,.3g} deals, beyond the limit of "
                f"{MAX_DEALS:,}: ask for a larger relative error or cap it with max_deals"
            )
        most = min(max_deals or MAX_DEALS, max(n_deals, 2 * int(need) + BLOCK))
    chunk_size = check_chunks(most, chunk_size)
    key = run_key(seed)
    hits = np.zeros(N_SPECIAL, dtype=np.int64)
    done, target, rounds = 0, n_deals, 0
    t0 = time.perf_counter()
    with Progress(target, "deals", progress) as bar:
        while True:
            rounds += 1
            tasks = [
                (key, s, min(s + chunk_size, target), rules, kernel)
                for s in range(done, target, chunk_size)
            ]
            for n, h in parallel_map(_hits_task, tasks, n_jobs, backend, scheduler, False):
                hits += h
                bar.update(n)
            done = target
            nxt = next_target(hits, done, exact, rel_error, max_deals)
            if nxt <= done:
                break
            bar.add_total(nxt - done)
            target = nxt
    named = named_hits(hits, exact)
    return SampledOdds(done, seed, kernel, named, exact, rounds, time.perf_counter() - t0)
