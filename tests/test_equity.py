"""The equity table (analysis.equity): the solver against an obvious twin on small synthetic
games (GAME-1's end and tie rule, SPECIAL-10, OPEN-1's tiers), and the measured table's
properties (symmetry, monotonicity within an opening tier, the cache)."""

import numpy as np
import pytest

from analysis import equity as Q
from analysis._equity_grid import Grid, solve_layers, tie_values
from analysis.equity_numbers import TRUTH_STATES

TIERS = (60, 160)  # small opening thresholds so that a small grid crosses both


def _synthetic(seed, mirrored, by_hand=False, specials=True):
    """Outcomes of a toy game: a few atoms per pair of tiers (multiples of 10 points), some
    negative for both teams, some ties, some game-winning hands."""
    rng = np.random.default_rng(seed)
    pairs = [(a, a) for a in range(3)] if by_hand else [(a, b) for a in range(3) for b in range(3)]
    samples = {}
    for a, b in pairs:
        for t in (0,) if mirrored else (0, 1):
            k = 40
            d = rng.integers(-12, 30, size=(k, 2)) * 10
            d[:4, 1] = d[:4, 0]  # exact ties
            win = np.full(k, -1)
            if specials:
                win[rng.integers(0, k, 2)] = rng.integers(0, 2, 2)  # SPECIAL-10
            samples[(a, b, t)] = np.column_stack([d, win]).astype(np.int64)
    return Q.Outcomes(samples, by_hand, 0, mirrored=mirrored)


def _twin(out, target, low, r, thresholds):
    """The obvious value iteration: every cell, every outcome, GAME-1 read literally."""
    n = -(-(target - low) // r)
    scores = low + r * np.arange(n)
    tier = np.array([sum(s >= x for x in thresholds) for s in scores])

    def dist(a, b, t):
        if out.mirrored and t == 1:
            m = out.samples[(b, a, 0)][:, [1, 0, 2]].copy()
            m[:, 2] = np.where(m[:, 2] >= 0, 1 - m[:, 2], -1)
            return m
        return out.samples[(a, b, t)]

    at = 2 if not out.by_hand else None
    ta = sum(target >= x for x in thresholds) if at is not None else 2
    # an exact tie at the target: the next hand decides (its own tie plays on)
    tie = np.array([0.5, 0.5])
    for _ in range(200):
        new = tie.copy()
        for u in (0, 1):
            rows = dist(ta, ta, u)
            p = 1 / len(rows)
            v = 0.0
            for d0, d1, w in rows:
                if w >= 0:
                    v += p * (w == 0)
                elif d0 > d1:
                    v += p
                elif d0 == d1:
                    v += p * tie[1 - u]
            new[u] = v
        tie = new
    V = np.full((2, n, n), 0.5)
    for _ in range(400):
        new = np.zeros_like(V)
        for t in (0, 1):
            for i0 in range(n):
                for i1 in range(n):
                    a, b = (2, 2) if out.by_hand else (tier[i0], tier[i1])
                    rows = dist(a, b, t)
                    p = 1 / len(rows)
                    x0 = scores[i0] + rows[:, 0]
                    x1 = scores[i1] + rows[:, 1]
                    end = np.maximum(x0, x1) >= target
                    v = p * np.sum(rows[:, 2] == 0)
                    plain = rows[:, 2] < 0
                    v += p * np.sum(plain & end & (x0 > x1))
                    v += p * np.sum(plain & end & (x0 == x1)) * tie[1 - t]
                    go = plain & ~end
                    j0 = np.maximum((x0[go] - low) // r, 0)
                    j1 = np.maximum((x1[go] - low) // r, 0)
                    v += p * V[1 - t][j0, j1].sum()
                    new[t, i0, i1] = v
        if np.abs(new - V).max() < 1e-10:
            break
        V = new
    return V


@pytest.mark.parametrize("mirrored", [True, False])
def test_game_1_special_10_solver_agrees_with_the_obvious_twin(mirrored):
    """GAME-1 (end at the target, higher total wins, an exact tie plays on), SPECIAL-10 (a
    game-winning hand ends it) and OPEN-1's tiers (each pair its own outcomes), on a toy game
    whose scores fall as well as rise: the FFT/BiCGSTAB solution equals a literal value
    iteration to 1e-5 (single-precision FFTs)."""
    out = _synthetic(3, mirrored)
    target, low, r = 300, -200, 10
    grid = Grid(out, target, r, low, TIERS)
    values, report = solve_layers(grid, tie_values(out, target, TIERS), mirrored)
    twin = _twin(out, target, low, r, TIERS)
    assert report["max_abs_residual"] < 1e-5
    assert np.abs(values[0] - twin).max() < 1e-5


def test_open_1_by_hand_layers_are_one_hand_apart():
    """OPEN-1 by hand: hand 3 on is stationary; hand 2's table is one hand of tier-1 outcomes
    before it, hand 1's one hand of tier-0 outcomes before that (a direct sum checks it)."""
    out = _synthetic(5, True, by_hand=True, specials=False)
    target, low, r = 300, -200, 10
    grid = Grid(out, target, r, low, TIERS)
    vtie = tie_values(out, target, TIERS)
    values, _ = solve_layers(grid, vtie, True)
    n = grid.n
    i0, i1 = 20, 28  # scores 0 and 80
    rows = out.samples[(1, 1, 0)]
    v = 0.0
    for d0, d1, _w in rows:
        x0, x1 = low + r * i0 + d0, low + r * i1 + d1
        if max(x0, x1) >= target:
            v += (x0 > x1) + (x0 == x1) * vtie[2, 1]
        else:
            j0, j1 = max((x0 - low) // r, 0), max((x1 - low) // r, 0)
            v += values[2, 1, min(j0, n - 1), min(j1, n - 1)]
    assert values[1, 0, i0, i1] == pytest.approx(v / len(rows), abs=1e-5)


@pytest.fixture(scope="module")
def small_table(tmp_path_factory):
    """A measured table small enough for CI: 3,000 hands per pair of opening minima, a
    50-point grid (``canasta equity -n 3000 --seed 11 --resolution 50`` reads it)."""
    where = tmp_path_factory.mktemp("equity")
    return Q.equity_table(n=3000, seed=11, cache=where, resolution=50, n_jobs=2), where


def test_table_is_cached_and_read_back(small_table):
    import time

    from sim.policies import strongest_fast

    table, where = small_table
    assert table.path is not None and table.path.parent == where
    t = time.perf_counter()
    again = Q.equity_table(n=3000, seed=11, cache=where, resolution=50)
    assert time.perf_counter() - t < 1.0  # read, not recomputed
    assert again.value(1000, 2000) == table.value(1000, 2000)
    assert again.meta["policy_labels"] == [strongest_fast()] * 2  # the default: strong_v2


def test_mirror_symmetry_of_one_policy_against_itself(small_table):
    """One policy for both teams: team 0's chance from (a, b) with team 0 first is team 1's
    from (b, a) with team 1 first."""
    table, _ = small_table
    for a, b in [(0, 0), (2990, 3010), (-1500, 7000), (8450, 5000)]:
        x = table.value(a, b, first=0)["win_team0"]
        y = table.value(b, a, first=1)["win_team0"]
        assert x == pytest.approx(1 - y, abs=1e-6)


def test_open_1_chance_never_falls_as_own_score_rises_within_a_tier(small_table):
    """Within one opening tier (OPEN-1: below 3,000; 3,000-4,995; 5,000 on) a team's chance
    never falls as its own score rises, whatever the other's; allowed slack 1e-4 (the
    single-precision solve), far below the table's standard errors."""
    table, _ = small_table
    v = np.asarray(table.values[0], dtype=np.float64)
    scores = table.low + table.resolution * np.arange(v.shape[1])
    for lo, hi in [(-2000, 3000), (3000, 5000), (5000, table.target)]:
        rows = (scores >= lo) & (scores < hi)
        for t in (0, 1):
            steps = np.diff(v[t][rows], axis=0)  # team 0's score rising
            assert steps.min() > -1e-4


def test_paired_difference_from_the_replicates(small_table):
    """A difference of two cells (crossing 3,000) has the replicates' paired SE: zero for a
    cell against itself, and below the two cells' SEs added (they share the sampling
    error)."""
    table, _ = small_table
    same = table.difference((1000, 2000), (1000, 2000))
    assert same["difference"] == 0 and same["se"] == 0
    d = table.difference((2950, 2000), (3000, 2000))
    a, b = table.value(2950, 2000), table.value(3000, 2000)
    assert d["difference"] == pytest.approx(a["win_team0"] - b["win_team0"])
    assert 0 < d["se"] < a["se"] + b["se"]


def test_table_interval_and_frame(small_table, tmp_path):
    table, _ = small_table
    v = table.value(2990, 0)
    assert v["ci_low"] < v["win_team0"] < v["ci_high"] and v["se"] > 0
    assert "bootstrap" in v["interval"]
    df = table.frame(step=500)
    assert set(df["first"]) == {0, 1}
    assert df["win_team0"].between(0, 1).all() and (df["ci_low"] <= df["ci_high"]).all()
    from reports.figures import equity_heatmap

    fig = equity_heatmap(table, step=500)
    (image,) = fig.axes[0].get_images()
    assert image.get_array().shape == (len(set(df["score_team0"])),) * 2
    fig.savefig(tmp_path / "h.png")
    assert (tmp_path / "h.png").stat().st_size > 1000


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda t: t.value(8500, 0), "team 0 has already won"),
        (lambda t: t.value(0, 10**10), "score1"),
        (lambda t: t.frame(step=55), "multiple of 50"),
    ],
)
def test_bad_queries_name_the_problem(small_table, call, message):
    from sim.errors import CanastaError

    with pytest.raises(CanastaError, match=message):
        call(small_table[0])


def _cli(where, *args):
    from canasta import main

    return main(
        ["equity", *args, "-n", "3000", "--seed", "11", "--resolution", "50", "--cache", str(where)]
    )


def test_cli_equity_scores_table_and_json(small_table, capsys, tmp_path):
    import json

    import pandas as pd

    table, where = small_table
    assert _cli(where, "--scores", "2990,0") == 0
    out = capsys.readouterr().out
    want = table.value(2990, 0, first=0)
    assert f"team 0 plays first: {want['win_team0']:.4f}" in out and "bootstrap" in out
    assert _cli(where, "--scores=-500,8000", "--format", "json") == 0
    got = json.loads(capsys.readouterr().out)["values"]
    assert [v["first"] for v in got] == [0, 1]
    assert got[1]["win_team0"] == pytest.approx(table.value(-500, 8000, first=1)["win_team0"])
    for name in ("t.csv", "t.parquet"):
        assert _cli(where, "--table", str(tmp_path / name), "--step", "1000") == 0
        capsys.readouterr()
        read = pd.read_csv if name.endswith("csv") else pd.read_parquet
        df = read(tmp_path / name)
        assert len(df) == 2 * 11 * 11  # -2,000 to 8,000 by 1,000, both first teams
    assert (tmp_path / "t.png").stat().st_size > 1000


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scores", "8500,0"], "team 0 has already won"),
        (["--scores", "0,-2000000000"], "--scores[1] -2000000000"),
        (["--scores", "12"], "expected 2 comma-separated integers"),
        (["--scores", "1,x"], "expected 2 comma-separated integers"),
        (["--scores", "0,0", "--policies", "nosuch"], "unknown policy 'nosuch'"),
        (["--scores", "0,0", "--rules", "{tmp}/r.toml"], "'target': must be positive"),
        (["--scores", "0,0", "--rules", "{tmp}/big.toml"], "target 100,000"),
        (["--table", "{tmp}/t.txt"], ".csv or .parquet"),
        (["--table", "{tmp}/t.csv", "--step", "75"], "--step 75"),
        (["--scores", "0,0", "--resolution", "30"], "--resolution 30"),
        (["--scores", "0,0", "-n", "5"], "-n 5"),
    ],
)
def test_cli_equity_bad_input_is_one_line(capsys, tmp_path, args, message):
    """Scores out of range, a malformed --scores, an unknown policy, a ruleset without a
    usable target: one line naming the problem, exit 2, before any hand is played."""
    from canasta import main

    (tmp_path / "r.toml").write_text("target = 0\n")
    (tmp_path / "big.toml").write_text("target = 100000\n")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
    assert main(["equity", *argv, "--cache", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("canasta: error:") and message in err and "Traceback" not in err
    assert err.count("\n") == 1
    assert not (tmp_path / "c").exists()


def test_game_1_truth_solver_agrees_with_whole_games(small_table):
    """At the 24 start states of ``TRUTH_STATES`` the table's chance agrees with the share
    of whole games team 0 wins from there (``sim.simulate_games`` from the scores, GAME-1 to
    the end, 300 games a state, another seed) within 3 combined standard errors (the table's
    bootstrap SE and the games' binomial SE): a wrong rule in the solver (the tie, the tiers,
    the rotation) or a hand's outcome that depends on the scores beyond the two opening minima
    would show."""
    from sim import simulate_games
    from sim.policies import strongest_fast

    table, _ = small_table  # the strongest fast policy against itself
    m = 300
    for s0, s1, seat in TRUTH_STATES:
        v = table.value(s0, s1, first=seat % 2)
        df = simulate_games(m, [strongest_fast()], seed=99, scores=(s0, s1), first_player=seat)
        assert (df["winner"] >= 0).all()
        p = float((df["winner"] == 0).mean())
        se = np.sqrt(v["se"] ** 2 + max(p * (1 - p), 1 / m) / m)
        assert abs(p - v["win_team0"]) < 3 * se, (s0, s1, seat, p, v["win_team0"], se)


def test_game_1_special_10_after_hand_reads_the_end_then_the_table(small_table):
    """A game-winning hand (SPECIAL-10) wins whatever the scores; a team reaching the target
    ahead wins (GAME-1); an exact tie there takes the table's tie value; otherwise the table
    at the new scores, the next hand opened by ``next_first``."""
    table, _ = small_table
    got = Q.after_hand(
        table,
        (8000, 7000),
        1,
        [100, 600, 1000, -100, 0],
        [9000, 0, 2000, 300, 1600],
        [0, -1, -1, -1, -1],
    )
    assert got[0] == 1.0  # team 0's game-winning hand, though team 1 passed the target
    assert got[1] == 1.0  # 8,600 against 7,000
    assert got[2] == pytest.approx(table.meta["tie"][1])  # 9,000 each: another hand
    assert got[3] == pytest.approx(table.value(7900, 7300, first=1)["win_team0"])
    assert got[4] == 0.0  # 8,000 against 8,600


def test_advise_scores_choices_by_the_chance_to_win_the_game(small_table):
    """advise with an equity table: from 8,000 against 7,000 with two canastas on the table
    (OUT-1/2: melding the nines goes out) every choice leaves the team far ahead in the game;
    the same choices from 0 against 8,400 leave it far behind, and going out early is then
    worth less than its points. Each choice carries the chance with its interval and its
    paired difference from the best by it."""
    from analysis.advise import advise
    from analysis.whatif import position

    table, _ = small_table
    spec = {
        "hand": "9S 9H 4C",
        "turn": 20,
        "pile_top": "8D",
        "melds": {0: ["KS KH KD KC KS KH KD", "QS QH QD QC QS QH QD"]},
    }
    ahead = advise(position(**spec, scores=(8000, 7000)), drawn="9D", n=32, equity=table)
    behind = advise(position(**spec, scores=(0, 8400)), drawn="9D", n=32, equity=table)
    for a in (ahead, behind):
        assert all(c.game["ci_low"] <= c.game["win"] <= c.game["ci_high"] for c in a.choices)
        assert max(c.game["diff_from_best"] for c in a.choices) == 0
    assert min(c.game["win"] for c in ahead.choices) > 0.6
    assert max(c.game["win"] for c in behind.choices) < 0.45
    out = next(c for c in ahead.choices if "go out" in c.label)
    back = next(c for c in behind.choices if c.label == out.label)
    assert out.game["ci_low"] > back.game["ci_high"]
    assert ahead.to_json()["choices"][0]["game"] == ahead.choices[0].game


def test_cli_advise_game_prints_the_chance(small_table, capsys, monkeypatch):
    """canasta advise --game prints each choice's chance of winning the game (the table comes
    from analysis.equity.equity_table, replaced here by the small one)."""
    import analysis.equity
    from canasta import main

    table, _ = small_table
    monkeypatch.setattr(analysis.equity, "equity_table", lambda *a, **k: table)
    argv = [
        "advise",
        "--hand",
        "9S 9H 4C",
        "--turn",
        "20",
        "--pile-top",
        "8D",
        "--meld",
        "0:KS KH KD KC KS KH KD",
        "--meld",
        "0:QS QH QD QC QS QH QD",
        "--drawn",
        "9D",
        "-n",
        "8",
        "--scores",
        "8000,7000",
        "--game",
        "--jobs",
        "1",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "chance of winning the game after the hand from 8,000 to 7,000" in out
    assert out.count("     game  ") >= 2


def test_bicgstab_restarts_after_a_breakdown_and_solves():
    """A breakdown of BiCGSTAB: with ``A = diag(1, -1)`` and ``b = (1, 1)`` the first step
    divides by ``b . A b = 0`` (the unguarded method returns NaN). The guarded solver
    restarts with another shadow residual and returns the solution, ``(1, -1)``."""
    from analysis._equity_grid import bicgstab

    A, b = np.diag([1.0, -1.0]), np.array([1.0, 1.0])
    assert b @ (A @ b) == 0  # the first step's divisor
    x, _, res = bicgstab(lambda v: A @ v, b, np.zeros(2))
    assert res <= 1e-7 and np.allclose(x, [1.0, -1.0], atol=1e-12)


def test_bicgstab_that_cannot_progress_stops_with_a_finite_answer_and_its_residual():
    """A skew operator (``v . A v = 0`` for every v) gives BiCGSTAB no step at all: the
    solver stops with a finite ``x`` and reports the residual it reached, which is the true
    one (never a division by zero or a NaN)."""
    from analysis._equity_grid import bicgstab

    A, b = np.array([[0.0, 1.0], [-1.0, 0.0]]), np.array([1.0, 2.0])
    x, _, res = bicgstab(lambda v: A @ v, b, np.zeros(2))
    assert np.isfinite(x).all()
    assert res == pytest.approx(np.linalg.norm(b - A @ x) / np.linalg.norm(b))
    assert res > 0.5  # not solved, and not claimed to be


def test_bicgstab_agrees_with_a_dense_solve_within_its_tolerance():
    """On a well-posed non-symmetric system (the identity plus a random part of norm about
    0.6, like the equity grid's I - P) the solution is a dense solve's to within the
    relative residual asked (1e-7) times the condition number."""
    from analysis._equity_grid import bicgstab

    rng = np.random.default_rng(0)
    M = np.eye(200) + 0.3 * rng.normal(size=(200, 200)) / np.sqrt(200)
    b = rng.normal(size=200)
    x, it, res = bicgstab(lambda v: M @ v, b, np.zeros(200), tol=1e-7)
    exact = np.linalg.solve(M, b)
    assert res <= 1e-7 and it < 50
    bound = np.linalg.cond(M) * 1e-7 * np.linalg.norm(exact)
    assert np.linalg.norm(x - exact) <= bound
