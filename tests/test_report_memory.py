"""Report memory: the report's tables built chunk by chunk (``analysis.stream.Tally``,
the streamed runs of ``reports.build``) equal those of the in-memory path that holds every
record: counts exactly, means and intervals within 1e-12 relative (a standard error comes from
exact integer moments on one side and pandas' online variance on the other).

The first tests need no engine (synthetic records of the issue-3 schema, ``analysis.synthetic``);
the last ones stream real runs of the engine and of ``canasta simulate --out`` directories.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis.stream import TABLES, Tally
from analysis.synthetic import synthetic_records
from reports.build import COMPACT_COLUMNS, GAME_TABLES, Run, Settings, analyse, build, plan
from sim.errors import CanastaError

POLICIES = ("heuristic", "special_chaser", "random")


def assert_tables_equal(got: dict, want: dict) -> None:
    assert list(got) == list(want)
    for key, w in want.items():
        g = got[key]
        for col in w.columns:  # counts (and every integer column) exactly
            if w[col].dtype.kind in "iub":
                assert g[col].tolist() == w[col].tolist(), (key, col)
        pd.testing.assert_frame_equal(g, w, check_exact=False, rtol=1e-12, atol=0.0, obj=key)
        assert g.attrs.get("interval") == w.attrs.get("interval"), key


def synthetic_runs(hands: int, seed: int = 3) -> list[Run]:
    skill = {"heuristic": 150.0, "special_chaser": 100.0, "random": -250.0}
    chase = {"special_chaser": 0.05, "heuristic": 0.01, "random": 0.005}  # some of every hand
    return [
        Run(pair, s, synthetic_records(hands, s, pair, p_special=chase, skill=skill), "test")
        for pair, s in plan(POLICIES, seed)
    ]


def streamed_tables(runs: list[Run], chunk: int, buffer_rows: int = 4096) -> tuple[dict, dict]:
    tally = Tally(buffer_rows=buffer_rows)
    for r in runs:
        for start in range(0, len(r.records), chunk):
            tally.add(r.records.iloc[start : start + chunk])
    return tally.tables()


@pytest.mark.parametrize(
    ("hands", "chunk", "buffer_rows"),
    [(400, 1, 4096), (400, 37, 4096), (400, 400, 4096), (400, 37, 0), (400, 400, 0), (60, 1, 0)],
)
def test_tally_equals_in_memory_tables(hands, chunk, buffer_rows):
    """Every record table (SPECIAL-3..6 frequency and curve, SCORE-2/SCORE-4/MELD-6..8 meld
    risk, SCORE-4 penalties, MELD-7 mixed aces, scores, net, end reasons) from 6 runs of
    synthetic hands cut in chunks of 1, 37 and 400 equals the in-memory analysis, with small
    chunks buffered (the default) and each chunk summed on its own (``buffer_rows=0``; one-row
    chunks on 60 hands a run: a chunk's sums cost ~0.1 s unbuffered)."""
    runs = synthetic_runs(hands)
    _, want, notes = analyse(runs, None, None, Settings(hands=hands, deals=0, policies=POLICIES))
    got, got_notes = streamed_tables(runs, chunk, buffer_rows)
    assert got_notes == notes == {}
    assert set(got) == set(TABLES)
    assert_tables_equal(got, {k: want[k] for k in got})
    assert got["special_frequency"]["successes"].sum() > 0  # the test sees special hands


def test_tally_buffer_keeps_schemas_apart():
    """Buffered chunks are summed together only when their columns and types agree: chunks
    that alternate between all columns, some columns missing, and policy names as categories
    give the tables and notes of a Tally that sums every chunk on its own."""
    runs = synthetic_runs(120)
    drop = ["team0_aces_mixed", "team1_aces_mixed"]
    chunks = []
    for r in runs:
        for i, start in enumerate(range(0, 120, 20)):
            c = r.records.iloc[start : start + 20]
            if i % 3 == 1:
                c = c.drop(columns=drop)
            elif i % 3 == 2:
                c = c.astype({"policy_team0": "category", "policy_team1": "category"})
            chunks.append(c)
    buffered, unbuffered = Tally(), Tally(buffer_rows=0)
    for c in chunks:
        buffered.add(c)
        unbuffered.add(c)
        assert buffered._buffered < buffered.buffer_rows  # the buffer stays bounded
    got, got_notes = buffered.tables()
    want, want_notes = unbuffered.tables()
    assert got_notes == want_notes and "mixed_aces" in got_notes
    assert_tables_equal(got, want)
    assert buffered.hands == unbuffered.hands == 6 * 120


@pytest.mark.parametrize("bad", [-1, 2.5, "4096", True])
def test_tally_refuses_a_bad_buffer(bad):
    with pytest.raises(CanastaError, match="buffer_rows"):
        Tally(buffer_rows=bad)


def test_tally_notes_equal_in_memory_notes():
    """A column the records lack: the streamed path leaves the same tables out with the same
    note as the in-memory functions."""
    runs = synthetic_runs(120)
    for r in runs:
        r.records = r.records.drop(
            columns=["team0_sevens_started_held", "team1_sevens_started_held", "team0_aces_mixed"]
        )
    _, want, notes = analyse(runs, None, None, Settings(hands=120, deals=0, policies=POLICIES))
    got, got_notes = streamed_tables(runs, 50)
    assert got_notes == {k: v for k, v in notes.items() if k != "comparison"}
    assert {"sevens_by_held", "mixed_aces", "aces_by_turn"} <= set(got_notes)
    assert_tables_equal(got, {k: want[k] for k in got})


def test_tally_memory_does_not_grow_with_hands():
    """What a Tally keeps is per group, not per hand: the same number of rows after 200 and
    after 2,000 hands of the same runs."""
    runs = synthetic_runs(2_000)

    def kept(n):
        tally = Tally(buffer_rows=0)  # every chunk summed as it arrives: nothing buffered
        for r in runs:
            tally.add(r.records.iloc[:n])
        return sum(len(t) for s in tally._sums.values() for t in s.values())

    small, big = kept(200), kept(2_000)
    assert big <= small * 1.5  # a few more bins/turns seen, never one row per hand
    assert big < 2_000


# ---------------------------------------------------------------------------------------
# The engine: a report streamed through temporary run directories, and --from DIR
# ---------------------------------------------------------------------------------------
def test_streamed_report_equals_in_memory_tables():
    """``build`` with the engine (temporary run directories, chunk by chunk, every job) gives
    the tables of the in-memory analysis of the same runs' whole records (``sim.simulate``,
    one job); a streamed run keeps only the compact columns."""
    sim = pytest.importorskip("sim")
    policies = ("greedy", "random")
    s = Settings(
        hands=300,
        deals=0,
        policies=policies,
        seed=5,
        jobs=2,
        quiet=True,
        positions=0,
        equity_hands=0,
    )
    got = build(s)
    whole = [
        Run(pair, seed, sim.simulate(300, policies=pair, seed=seed), "simulated")
        for pair, seed in plan(policies, 5)
    ]
    _, want, notes = analyse(whole, None, None, s)
    assert_tables_equal({k: got.tables[k] for k in want}, want)
    # positions=0: no decision experiments; equity_hands=0: no Game score section
    decision_notes = {"claims", "first_numbers", *GAME_TABLES}
    assert {k: v for k, v in got.notes.items() if k not in decision_notes} == notes
    for r in got.runs:
        assert set(r.records.columns) <= set(COMPACT_COLUMNS) and len(r.records) == 300
    assert len(got.records) == 600
    np.testing.assert_array_equal(
        got.records["score_team0"], pd.concat([r.records for r in whole])["score_team0"]
    )


def test_a_fake_engine_takes_the_streamed_path(tmp_path):
    """A fake engine (``RecordsEngine``) writes its runs as run directories, chunk by chunk, and
    the report reads them back like the engine's: the same tables as the in-memory analysis of
    its records."""
    from analysis.backend import RecordsEngine

    skill = {"heuristic": 150.0, "special_chaser": 100.0, "random": -250.0}

    def records(n, pair, seed, ruleset):
        return synthetic_records(n, seed, pair, skill=skill)

    fake = RecordsEngine(records)
    s = Settings(
        hands=250, deals=0, policies=POLICIES, seed=3, quiet=True, positions=0, equity_hands=0
    )
    got = build(s, fake)
    assert [c[0] for c in fake.calls] == ["simulate"] * 6
    assert all(c[5] is not None for c in fake.calls)  # a chunk size: the runs are streamed
    whole = [
        Run(pair, seed, synthetic_records(250, seed, pair, skill=skill), "test")
        for pair, seed in plan(POLICIES, 3)
    ]
    _, want, _ = analyse(whole, None, None, s)
    assert_tables_equal({k: got.tables[k] for k in want}, want)
    assert got.meta["simulate"] == "test records"


def test_from_dirs_streamed_equals_loaded(tmp_path):
    """``--from DIR`` read chunk by chunk (needed columns only) equals the in-memory analysis
    of ``sim.load`` of the whole directories."""
    sim = pytest.importorskip("sim")
    ab, ba = tmp_path / "ab", tmp_path / "ba"
    for out, pair in ((ab, ("greedy", "random")), (ba, ("random", "greedy"))):
        sim.simulate(120, policies=pair, seed=11, out=out, chunk_size=50, progress=False)
    s = Settings(from_dirs=(str(ab), str(ba)), deals=0, quiet=True, positions=0)
    got = build(s)
    whole = [
        Run(pair, 11, sim.load(d), str(d))
        for d, pair in ((ab, ("greedy", "random")), (ba, ("random", "greedy")))
    ]
    _, want, _ = analyse(whole, None, None, s)
    assert_tables_equal({k: got.tables[k] for k in want}, want)
    assert [r.policies for r in got.runs] == [r.policies for r in whole]
    assert [r.seed for r in got.runs] == [11, 11]
