"""Decision experiments in game terms (analysis.decisions_game): each arm's deals read through
the equity table (GAME-1, SPECIAL-10, DEAL-1's rotation), by score region within the opening
tiers played (OPEN-1), and ``canasta experiment --scores/--game``."""

import numpy as np
import pandas as pd
import pytest

from analysis import decisions_game as G
from analysis.equity import EquityTable

TARGET, LOW, RES = 8500, -10_000, 10


def _table(first_edge: float = 0.02) -> EquityTable:
    """A made-up table: team 0's chance rises with its lead (a logistic in the difference),
    more so near the target, plus ``first_edge`` for the team playing first."""
    s = LOW + RES * np.arange((TARGET - LOW) // RES)
    s0, s1 = np.meshgrid(s, s, indexing="ij")
    lead = (s0 - s1) / 2500 + (np.maximum(s0, 0) - np.maximum(s1, 0)) / 6000
    base = 1 / (1 + np.exp(-lead))
    values = np.stack([np.clip(base + first_edge, 0, 1), np.clip(base - first_edge, 0, 1)])
    nb = (TARGET - LOW) // 100
    meta = {
        "target": TARGET,
        "low": LOW,
        "resolution": RES,
        "boot_resolution": 100,
        "tie": [0.55, 0.45],
        "replicates": 2,
        "ruleset_label": "the tournament ruleset",
        "policy_labels": ["strong", "strong"],
    }
    zeros = np.zeros((1, 2, nb, nb), dtype=np.float32)
    return EquityTable(values[None].astype(np.float32), zeros, meta, None, np.stack([zeros] * 2))


def _slow_chance(table, team, first_team, own, opp, d_own, d_opp, won):
    """GAME-1 and SPECIAL-10 read literally for one deal: the team's chance afterwards."""
    if won:
        return 1.0 if won == 1 else 0.0
    x = [0, 0]
    x[team], x[1 - team] = own + d_own, opp + d_opp
    nxt = 1 - first_team  # DEAL-1: the other team plays first in the next hand
    if max(x) >= table.target:
        p0 = 1.0 if x[0] > x[1] else 0.0 if x[0] < x[1] else table.meta["tie"][nxt]
    else:
        i0, i1 = ((max(v, table.low) - table.low) // table.resolution for v in x)
        p0 = float(table.values[0, nxt, i0, i1])
    return p0 if team == 0 else 1 - p0


def _raw(seed=0, n_pos=30, deals=12, scores=((0, 0),), effect=0, opened=None):
    """Rows shaped like run_experiments' (go_out_margin), with deal outcomes: arm A scores
    ``effect`` points more than arm B on average; a few game-winning hands (SPECIAL-10)."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n_pos):
        own, opp = scores[i % len(scores)]
        b = np.column_stack([rng.integers(-30, 200, (deals, 2)) * 10, np.zeros(deals, int)])
        a = b.copy()
        a[:, 0] += effect + rng.integers(-20, 20, deals) * 10
        a[rng.random(deals) < 0.05, 2] = 1
        b[rng.random(deals) < 0.05, 2] = -1
        rows.append(
            {
                "experiment": "go_out_margin",
                "hand": i // 2,
                "seat": i % 4,
                "position": i,
                "opened": int(i % 3 > 0) if opened is None else opened,
                "opp_opened": i % 2,
                "margin": own - opp,
                "team": i % 2,
                "first_team": (i // 3) % 2,
                "score_own": own,
                "score_opp": opp,
                "diff": float(((a[:, 0] - a[:, 1]) - (b[:, 0] - b[:, 1])).mean()),
                "net_a": float((a[:, 0] - a[:, 1]).mean()),
                "net_b": float((b[:, 0] - b[:, 1]).mean()),
                "deals": deals,
                "applied": 1.0,
                "split": False,
                "outcomes": np.stack([a, b]).astype(np.int32),
            }
        )
    return pd.DataFrame(rows)


def test_game_1_special_10_deal_1_chances_agree_with_a_literal_reading():
    """Each arm's mean chance and the paired difference per row equal a literal per-deal
    reading of GAME-1 (the target, ties), SPECIAL-10 (a game-winning hand) and DEAL-1 (the
    other team opens the next hand), at the rows' own scores and at given ones."""
    table = _table()
    raw = _raw(scores=((0, 0), (8300, 8200), (-500, 2000)))
    for scores in (None, (1000, 2500)):
        got = G.chances(raw, table, scores=scores)
        for _, r in got.iterrows():
            own, opp = (r["score_own"], r["score_opp"]) if scores is None else scores
            arms = []
            for arm in r["outcomes"]:
                arms.append(
                    [_slow_chance(table, r["team"], r["first_team"], own, opp, *d) for d in arm]
                )
            assert r["net_a"] == pytest.approx(np.mean(arms[0]), abs=1e-6)
            assert r["net_b"] == pytest.approx(np.mean(arms[1]), abs=1e-6)
            assert r["diff"] == pytest.approx(np.mean(arms[0]) - np.mean(arms[1]), abs=1e-6)
            assert r["points_diff"] == raw.loc[r.name, "diff"]  # the points kept beside
    # at given scores only the rows played in the same opening tiers (OPEN-1) are kept
    assert set(G.chances(raw, table, scores=(1000, 2500))["score_own"]) == {0, -500}


def test_open_1_by_score_reads_only_the_tiers_played():
    """OPEN-1: positions played at (0, 0) give verdicts at every pair of scores below 3,000
    and none elsewhere; the cells' p-values are Holm-adjusted together."""
    table = _table()
    cells = G.by_score(_raw(effect=400), table)
    low = (cells["score_own"] < 3000) & (cells["score_opp"] < 3000)
    assert (cells.loc[low, "hands"] > 0).all()
    assert (cells.loc[~low, "hands"] == 0).all()
    assert np.isnan(cells.loc[~low, "p_adj"]).all()
    tested = cells[np.isfinite(cells["p_adj"])]
    assert (tested["p_adj"] >= tested["p"] - 1e-12).all()
    assert "across 25 cells" in cells.attrs["correction"]


def test_open_1_a_team_opened_at_every_position_plays_no_minimum():
    """OPEN-1: where the team had opened at every position (as when going out), its own
    tier is not asked: the positions count at all of its scores, the opponents' tier still
    is; the values there read the table at those scores."""
    table = _table()
    cells = G.by_score(_raw(effect=400, opened=1), table)
    low_opp = cells["score_opp"] < 3000
    assert (cells.loc[low_opp, "hands"] == 15).all()
    assert (cells.loc[~low_opp, "hands"] == 0).all()
    at = cells.set_index(["score_own", "score_opp"])["estimate"]
    assert at[(8000, 0)] != at[(0, 0)]


def test_a_clear_gain_in_points_is_a_clear_gain_in_chance():
    """Arm A scores 400 points more a hand on average (noise about 140 a deal, 15 hands of
    two positions): in game terms it is better at every tested cell; with no gain (the
    same outcomes in both arms) the cells show no clear difference."""
    table = _table()
    good = G.by_score(_raw(effect=400), table)
    tested = good[good["hands"] > 0]
    assert (tested["verdict"] == 1).all() and (tested["estimate"] > 0).all()
    assert (G.score_changes(good)["kind"] == "same").all()
    raw = _raw(effect=0)
    raw["outcomes"] = [np.stack([o[1], o[1]]) for o in raw["outcomes"]]
    none = G.by_score(raw, table)
    assert (none.loc[none["hands"] > 0, "estimate"].abs() < 1e-12).all()
    assert (none["verdict"] == 0).all()


def test_score_changes_names_a_reversal():
    """A verdict that favours A in some cells and B in others is a reversal."""
    cells = pd.DataFrame(
        {
            "experiment": ["x"] * 4,
            "p_adj": [0.01, 0.01, 0.5, np.nan],
            "verdict": [1, -1, 0, 0],
            "estimate": [0.02, -0.03, 0.001, np.nan],
            "ci_low": [0.01, -0.05, -0.01, np.nan],
            "ci_high": [0.03, -0.01, 0.01, np.nan],
            "score_own": [0, 8000, 0, 0],
            "score_opp": [0, 5000, 1000, 2000],
        }
    )
    got = G.score_changes(cells).iloc[0]
    assert (got["kind"], got["favour_a"], got["favour_b"], got["neither"]) == ("reverses", 1, 1, 1)
    assert (got["b_own"], got["b_opp"], got["b_est"]) == (8000, 5000, -0.03)


def test_game_terms_refuse_rows_without_outcomes_and_another_target():
    from sim.errors import CanastaError
    from sim.ruleset import Ruleset

    table = _table()
    with pytest.raises(CanastaError, match="no deal outcomes"):
        G.chances(_raw().drop(columns="outcomes"), table)
    with pytest.raises(CanastaError, match="target 8,500, the rules' is 5,000"):
        G.chances(_raw(), table, Ruleset(target=5000))
    with pytest.raises(CanastaError, match="GAME-1"):
        G.chances(_raw(), table, scores=(8500, 0))


@pytest.mark.parametrize(
    "bad, says",
    [("1000", "--scores"), ("a,b", "--scores"), ("9000,0", "target 8,500")],
)
def test_cli_experiment_scores_bad_input_one_line_exit_2(bad, says, capsys, tmp_path):
    from canasta import main

    spec = "experiments/go_out_margin.toml"
    code = main(["experiment", spec, "--scores", bad, "--positions", "2", "--deals", "2"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and says in err[0]


def test_run_experiments_keeps_each_arms_deals_beside_its_points():
    """The deals a row keeps are the ones its points come from: each arm's mean net points
    over them equal the row's net_a, net_b and diff (the go-out experiment, real play)."""
    from analysis.decisions import run_experiments

    raw = run_experiments(6, 4, seed=3, experiments=["go_out_margin"])
    used = raw[raw["deals"] > 0]
    assert len(used)
    for _, r in used.iterrows():
        o = r["outcomes"].astype(np.int64)
        assert o.shape == (2, r["deals"], 3)
        net = o[:, :, 0] - o[:, :, 1]
        assert net[0].mean() == pytest.approx(r["net_a"])
        assert net[1].mean() == pytest.approx(r["net_b"])
        assert (net[0] - net[1]).mean() == pytest.approx(r["diff"])
        assert not o[:, :, 2].any()  # SPECIAL-10: no tournament hand wins the game
    # DEAL-1: the hand's first seat is the seat at turn 0 of the position's hand
    assert set(raw["first_team"]) <= {0, 1}
    assert (raw["score_own"] - raw["score_opp"] == raw["margin"]).all()


def test_cli_experiment_scores_prints_game_terms(monkeypatch, capsys):
    """``canasta experiment --scores A,B``: the points table, then the game-terms table and
    the verdicts by score in the opening tiers played."""
    import analysis.equity as Q
    from canasta import main

    monkeypatch.setattr(Q, "equity_table", lambda *a, **k: _table())
    code = main(
        [
            "experiment",
            "experiments/go_out_margin.toml",
            "--scores",
            "8000,5000",
            "--positions",
            "6",
            "--deals",
            "4",
            "--jobs",
            "1",
            "--quiet",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "in game terms" in out and "scores 8000,5000" in out
    assert "by score" in out and "8,000" in out


def test_claim_j_across_the_grid_reads_milking_per_cell():
    """Claim J in game terms: per cell, milking (playing on, arm B) minus going out; going
    out 400 points better a hand everywhere: milking hurts in every tested cell, so the claim
    (milk when ahead) is contradicted where ahead and supported where behind: mixed."""
    from analysis.claims import claim_j_by_score

    cells = G.by_score(_raw(effect=400, opened=1), _table(), experiments=["go_out_margin"])
    grid, summary = claim_j_by_score(cells)
    tested = grid[grid["verdict"] != ""]
    assert (tested["verdict"] == "hurts").all() and (tested["milking"] < 0).all()
    assert summary["verdict"] == "mixed" and summary["hurts"] == len(tested)
    assert set(grid["region"]) == {"ahead", "behind", "level"}
    assert (grid.loc[grid["region"] == "level", "claim"] == "").all()


def test_information_rows_in_game_terms_are_chances_of_the_informed_arm():
    """An ``[information]`` table read in game terms: the informed arm (arm A where the
    partner holds 2+ sevens, else arm B) minus each fixed arm, in chances of winning the game
    read literally per deal (GAME-1, DEAL-1), not the points rows carried over."""
    from analysis.decisions import synthetic_raw

    table = _table()
    raw = synthetic_raw({"two_cards_block": lambda f: 300.0}, positions=24, deals=10)
    raw = raw[raw["experiment"] == "two_cards_block"].reset_index(drop=True)
    info = G.experiments_of(raw)[0].information
    per = {"info_a": [], "info_b": []}
    for _, r in raw.iterrows():
        arms = [
            np.array(
                [
                    _slow_chance(
                        table, r["team"], r["first_team"], r["score_own"], r["score_opp"], *d
                    )
                    for d in arm
                ]
            )
            for arm in r["outcomes"]
        ]
        informed = arms[0] if info.low <= r[info.knows] <= info.high else arms[1]
        per["info_a"].append((informed - arms[0]).mean())
        per["info_b"].append((informed - arms[1]).mean())
    t = G.game_tables(raw, table)["decision_two_cards_block"]
    rows = t[t["grouping"] == "information"]
    assert len(rows) == 2
    for (_, r), col in zip(rows.iterrows(), ("info_a", "info_b"), strict=True):
        # one row a hand here, each with the same deals: the mean over hands is the plain mean
        assert r["estimate"] == pytest.approx(np.mean(per[col]), abs=1e-6)
        assert abs(r["estimate"]) < 1 and r["ci_high"] - r["ci_low"] < 2


def test_no_clear_cell_is_no_verdict_at_any_score_not_the_same_everywhere():
    """Arm A scores arm B's points ± up to 50 (no effect): no score cell is clear either way
    (Holm at 5% over the cells, seed fixed), so the Game score
    table says there is no verdict at any score, never that one 'stays the same wherever
    tested'; a clear gain everywhere still reads the same wherever tested."""
    from reports.columns import COLUMNS

    rng = np.random.default_rng(5)
    raw = _raw(effect=0)
    noise = [rng.integers(-5, 6, o.shape[1]) * 10 for o in raw["outcomes"]]
    raw["outcomes"] = [
        np.stack([o[1] + np.column_stack([z, 0 * z, 0 * z]), o[1]])
        for o, z in zip(raw["outcomes"], noise, strict=True)
    ]
    none = G.score_changes(G.by_score(raw, _table()))
    good = G.score_changes(G.by_score(_raw(effect=400), _table()))
    assert none["kind"].tolist() == ["none"] and good["kind"].tolist() == ["same"]
    verdict = next(c for c in COLUMNS["game_decisions"] if c.header == "verdict by score")
    assert verdict.cell(none.iloc[0]) == "no clear verdict at any score"
    assert verdict.cell(good.iloc[0]) == "the same wherever tested"
    raw["outcomes"] = [np.stack([o[1], o[1]]) for o in raw["outcomes"]]  # nothing to test
    same = G.score_changes(G.by_score(raw, _table())).iloc[0]
    assert same["kind"] == "untested" and verdict.cell(same) == "not tested"
