"""The runner: chunks, seeding per item, identical rows for any jobs and chunk size."""

import functools

import numpy as np
import pandas as pd
import pytest

from sim.errors import CanastaError
from sim.runner import Progress, chunk_ranges, parallel_map, run_chunks
from sim.sampler import dealt_records

WORK = functools.partial(dealt_records, ruleset=None)


def _bad_ids(key, start, stop):
    return pd.DataFrame({"hand_id": np.arange(start, stop) + 1})


def test_chunk_ranges_cover_every_item_once():
    assert chunk_ranges(10, 4) == [(0, 0, 4), (1, 4, 8), (2, 8, 10)]
    assert chunk_ranges(8, 4) == [(0, 0, 4), (1, 4, 8)]
    assert chunk_ranges(3, 100) == [(0, 0, 3)]


def test_same_rows_for_any_jobs_and_chunk_size():
    """Every item's randomness derives from (seed, index): rows compared exactly."""
    n = 6_000
    ref = run_chunks(WORK, n, seed=7, chunk_size=n, id_column="deal_id")
    assert ref["deal_id"].tolist() == list(range(n))
    for chunk_size, n_jobs in ((777, 1), (1000, 2), (2_500, 2)):
        got = run_chunks(WORK, n, seed=7, chunk_size=chunk_size, n_jobs=n_jobs, id_column="deal_id")
        pd.testing.assert_frame_equal(got, ref, check_exact=True)
    other = run_chunks(WORK, n, seed=8, chunk_size=n, id_column="deal_id")
    assert not other.equals(ref)


def test_parallel_map_keeps_order_or_not():
    tasks = [(i,) for i in range(20)]
    assert list(parallel_map(abs, tasks)) == list(range(20))
    assert list(parallel_map(abs, tasks, n_jobs=2)) == list(range(20))
    assert sorted(parallel_map(abs, tasks, n_jobs=2, ordered=False)) == list(range(20))


def test_bad_runner_input_is_refused():
    for kwargs, word in (
        ({"n_items": 0}, "items"),
        ({"chunk_size": 0}, "chunk size"),
        ({"n_jobs": 0}, "jobs"),
        ({"backend": "spark"}, "backend"),
        ({"seed": -3}, "seed"),
        ({"backend": "dask", "scheduler": None}, "scheduler"),
    ):
        args = {"work": WORK, "n_items": 10, "id_column": "deal_id", **kwargs}
        with pytest.raises(CanastaError, match=word):
            run_chunks(**args)


def test_a_chunk_with_wrong_ids_is_a_bug_not_data():
    with pytest.raises(RuntimeError, match="one row per item"):
        run_chunks(_bad_ids, 10, chunk_size=5)


def test_no_progress_bar_when_stderr_is_not_a_terminal(capsys):
    run_chunks(WORK, 2_000, chunk_size=500, id_column="deal_id")
    assert capsys.readouterr().err == ""


def test_progress_bar_shows_items_rate_and_eta_when_enabled(capsys):
    with Progress(40, "hands", enabled=True, delay=0) as bar:
        bar.update(10)
        bar.add_total(10)
        bar.update(40)
    err = capsys.readouterr().err
    assert "50/50" in err and "hands/s" in err
    with Progress(40, "hands", enabled=False) as bar:
        bar.update(40)
    assert capsys.readouterr().err == ""


def test_a_missing_id_column_is_named():
    with pytest.raises(CanastaError, match="no id column 'hand_id'"):
        run_chunks(WORK, 10)
    assert len(run_chunks(WORK, 10, chunk_size=3, id_column=None)) == 10
