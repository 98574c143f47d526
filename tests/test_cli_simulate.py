"""``canasta simulate``: played hands through the runner, Parquet out, resume, refusals."""

import pandas as pd
import pytest

import sim
from canasta import main
from sim.store import META_NAME, read_meta

N = 60


@pytest.fixture(scope="module")
def reference():
    return sim.simulate(N, policies=("greedy", "random"), seed=4)


def test_simulate_out_dir_same_rows_for_any_jobs_and_chunks(tmp_path, capsys, reference):
    out = tmp_path / "run"
    argv = ["simulate", "-n", str(N), "--policies", "greedy,random", "--seed", "4"]
    assert main([*argv, "--chunk-size", "25", "--out", str(out), "--quiet"]) == 0
    assert str(out) in capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == [
        META_NAME,
        "chunk-000000.parquet",
        "chunk-000001.parquet",
        "chunk-000002.parquet",
    ]
    s = read_meta(out)["settings"]
    assert (s["seed"], s["n_items"], s["chunk_size"], s["policies"]) == (
        4,
        N,
        25,
        ["greedy", "random"],
    )
    df = sim.load(out)
    assert df["hand_id"].tolist() == list(range(N))
    pd.testing.assert_frame_equal(df, reference, check_exact=True)
    # two jobs, another chunk size, in memory: the same hands
    got = sim.simulate(N, policies=("greedy", "random"), seed=4, n_jobs=2, chunk_size=7)
    pd.testing.assert_frame_equal(got, reference, check_exact=True)
    # resume of a finished run is a no-op; other settings are refused with one line
    assert main([*argv, "--chunk-size", "25", "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    assert main([*argv[:-1], "5", "--chunk-size", "25", "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("canasta: error:") and "seed was 4, this run has 5" in err


def test_simulate_summary_without_out(capsys):
    assert main(["simulate", "-n", "20", "--seed", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "20 hands played" in out and "points per hand" in out and "95%" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-n", "0"], "-n 0: must be an integer in 1..10,000,000,000"),
        (["--games", "0"], "--games 0: must be an integer in 1..1,000,000,000"),
        (["-n", "5", "--chunk-size", "0"], "chunk-size"),
        # a count no run could finish, beyond int64 or beyond memory: refused at once
        (["-n", "99999999999999999999999"], "-n 99999999999999999999999: must be an integer"),
        (["-n", "10000000000"], "--out DIR"),
        (["-n", "10000000000", "--out", "x", "--chunk-size", "10"], "at least 10,000"),
        (["-n", "5", "--jobs", "0"], "jobs"),
        (["-n", "5", "--backend", "dask"], "scheduler"),
        (["-n", "5", "--scheduler", "tcp://127.0.0.1:1"], "--backend dask"),
        (["-n", "5", "--policies", "nosuch,random"], "unknown policy"),
        (["-n", "5", "--seed", "-1"], "seed"),
    ],
)
def test_simulate_bad_input_is_one_line(capsys, args, message):
    assert main(["simulate", *args, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("canasta: error:") and message in err and "Traceback" not in err


def test_simulate_games_one_row_per_game_through_the_runner(tmp_path, capsys):
    """--games N: whole games to the target (GAME-1), one row per game, resumable like hands."""
    from sim.api import play_games
    from sim.rng import run_key

    out = tmp_path / "games"
    argv = ["simulate", "--games", "6", "--policies", "heuristic,greedy", "--seed", "2"]
    assert main([*argv, "--chunk-size", "4", "--out", str(out), "--quiet"]) == 0
    df = sim.load(out)
    assert df["game_id"].tolist() == list(range(6))
    assert {"winner", "hands", "score_team0", "score_team1"} <= set(df.columns)
    direct = play_games(run_key(2), 0, 6, ("heuristic", "greedy"))
    pd.testing.assert_frame_equal(df, direct, check_exact=True)
    assert read_meta(out)["settings"]["kind"] == "games"
    assert main([*argv, "--quiet"]) == 0
    assert "6 games played" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:  # one or the other: argparse's usage error
        main(["simulate", "-n", "3", "--games", "3"])
    assert exc.value.code == 2
