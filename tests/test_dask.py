"""The Dask backend runs the same chunks as the local one, with identical results."""

import functools

import pandas as pd
import pytest

from sim.runner import run_chunks
from sim.sampler import dealt_records
from sim.sampling import sample_dealt_odds
from sim.store import load

distributed = pytest.importorskip("distributed")

N, CHUNK = 4_000, 600
WORK = functools.partial(dealt_records, ruleset=None)


@pytest.fixture(scope="module")
def scheduler():
    """A small local cluster: 2 worker processes, 1 thread each."""
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        host="127.0.0.1",
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def test_dask_backend_gives_the_local_rows(scheduler, tmp_path):
    local = run_chunks(WORK, N, seed=12, chunk_size=CHUNK, id_column="deal_id")
    remote = run_chunks(
        WORK,
        N,
        seed=12,
        chunk_size=CHUNK,
        backend="dask",
        scheduler=scheduler,
        id_column="deal_id",
    )
    pd.testing.assert_frame_equal(remote, local, check_exact=True)
    out = run_chunks(
        WORK,
        N,
        seed=12,
        chunk_size=CHUNK,
        backend="dask",
        scheduler=scheduler,
        out=tmp_path / "run",
        meta={"kind": "dealt_records"},
        id_column="deal_id",
    )
    pd.testing.assert_frame_equal(load(out), local, check_exact=True)


def test_dask_backend_gives_the_local_odds_counts(scheduler):
    local = sample_dealt_odds(3_000_000, seed=4, chunk_size=1 << 19)
    remote = sample_dealt_odds(
        3_000_000, seed=4, chunk_size=1 << 19, backend="dask", scheduler=scheduler
    )
    assert remote.hits == local.hits and remote.deals == local.deals


def test_dask_backend_accepts_a_client(scheduler):
    local = run_chunks(WORK, 1_000, seed=1, chunk_size=300, id_column="deal_id")
    with distributed.Client(scheduler) as client:
        remote = run_chunks(
            WORK,
            1_000,
            seed=1,
            chunk_size=300,
            backend="dask",
            scheduler=client,
            id_column="deal_id",
        )
        assert client.status == "running"  # a Client passed in is left open
    pd.testing.assert_frame_equal(remote, local, check_exact=True)
