"""The advice's benchmarks (benchmarks/bench_review_band.py, bench_review_common.py,
bench_luck_zero.py and their sampler played_decisions.py): the bands' arithmetic, the
resumable rows, and the review's luck of a draw over strong's own hands at a small size
(bench_luck_zero)."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture
def bench(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))  # the benchmarks import their sampler by name
    import bench_luck_zero
    import bench_review_band
    import bench_review_common
    import played_decisions

    return argparse.Namespace(
        band=bench_review_band,
        common=bench_review_common,
        luck=bench_luck_zero,
        played=played_decisions,
    )


def _row(bot, game, move, cost, choices=3, made="discard 5S"):
    row = {"bot": bot, "game": game, "move": move, "choices": choices, "made": made}
    return row | {"cost_game": cost, "cost_points": 1000 * (cost or 0), "cpu": 0.1}


def test_band_is_the_mean_of_the_games_rates(bench):
    rows = []
    # game 0 rates 10 and 30 thousandths (mean 20); game 1 one decision of 50; game 2 none
    # rated: a single choice, a move outside the plans, a refusal and a missing cost
    for args in [
        ("strong", 0, 1, 0.010),
        ("strong", 0, 2, 0.030),
        ("strong", 1, 1, 0.050),
        ("strong", 2, 1, 0.0, 1),
        ("strong", 2, 2, 0.9, 4, ""),
        ("strong", 2, 3, None, 0),
        ("strong", 2, 4, None),
    ]:
        rows.append(_row(*args))
    rows[1]["kept_three"] = rows[4]["kept_three"] = True  # one rated, one outside the plans
    out = bench.band.band(rows, games=100)["strong"]
    rates = np.array([20.0, 50.0])
    assert out["games"] == 2 and out["rated"] == 3 and out["reviewed"] == 7
    assert out["unmatched"] == 1 and out["refused"] == 1
    assert out["kept_three"] == 2 and out["kept_three_rated"] == 1
    assert out["rate"] == pytest.approx(35.0)
    assert out["se"] == pytest.approx(rates.std(ddof=1) / math.sqrt(2))
    # games past --games are left out
    assert bench.band.band(rows, games=1)["strong"]["games"] == 1
    # read at k = 1: each game's first rated decision (the order they were reviewed in)
    one = bench.band.band(rows, games=100, k=1)["strong"]
    assert one["rated"] == 2 and one["rate"] == pytest.approx(30.0)
    assert one["reviewed"] == 6 and one["kept_three"] == 1


def test_a_hand_holding_its_kept_three_is_counted(bench):
    """DEAL-5: the band counts the reviewed decisions whose hand holds the three kept for a
    Straight (the advice refused them once); a hand without a three is not counted."""
    from types import SimpleNamespace

    from sim import encoding as E

    def decision(kinds):
        ids = [int(np.flatnonzero(E.CARD_KIND == k)[0]) for k in kinds]
        return SimpleNamespace(position=SimpleNamespace(hand=np.array(ids)))

    assert bench.band._holds_three(decision([E.RED_THREE, 5, 6]))
    assert bench.band._holds_three(decision([E.BLACK_THREE, 9]))
    assert not bench.band._holds_three(decision([4, 5, 6]))


def test_rows_resume_from_the_file(bench, tmp_path):
    path = tmp_path / "rows.jsonl"
    rows = bench.played.Rows(path, ("bot", "game"))
    rows.add({"bot": "strong", "game": 3, "x": 1.5})
    again = bench.played.Rows(path, ("bot", "game"))
    assert again.done("strong", 3) and not again.done("strong", 4)
    assert again.get("strong", 3)["x"] == 1.5


def _args(tmp_path, **kw):
    a = {"seed": 5601, "n": 16, "policy": "strong", "rules": None, "hands": 0}
    return argparse.Namespace(**(a | kw))


def test_luck_of_a_hand_is_seeded(bench, tmp_path):
    a = _args(tmp_path)
    one, two = bench.luck.luck_of_hand(3, a), bench.luck.luck_of_hand(3, a)
    one.pop("cpu"), two.pop("cpu")
    assert one == two and "luck" in one and one["draws"] > 0


@pytest.mark.slow
def test_the_reviews_luck_has_no_large_bias_over_strongs_hands(bench, tmp_path):
    # the review's luck of one random stock draw in each of 120 hands of strong against
    # itself (16 deals a choice): within 4.5 standard errors of 0 (about 200 points a draw at
    # this size: a sign error, or values read from mismatched plans, would be far larger).
    # The benchmark resolves a smaller bias over 1,500 hands (benchmarks/HISTORY.md).
    a = _args(tmp_path)
    x = np.array([r["luck"] for h in range(120) if "luck" in (r := bench.luck.luck_of_hand(h, a))])
    assert len(x) >= 110
    se = x.std(ddof=1) / math.sqrt(len(x))
    assert abs(x.mean()) < 4.5 * se, (x.mean(), se)


def _common(game, move, costs, choices=3):
    bots = {
        b: {"made": "discard 5S", "cost_game": c, "cost_points": 1000 * (c or 0)}
        for b, c in costs.items()
    }
    return {"game": game, "move": move, "choices": choices, "bots": bots}


def test_common_positions_pair_the_bots_by_game(bench):
    """bench_review_common: a decision counts only when every bot's cost is read there; a
    bot's rate is the mean over games of its games' means; a neighbouring pair's difference
    is paired by game, and Holm's correction keeps the family at 5%."""
    bots = ("weak", "strong")
    rows = [
        _common(0, 1, {"weak": 0.030, "strong": 0.010}),
        _common(0, 2, {"weak": 0.050, "strong": 0.010}),
        _common(0, 3, {"weak": 0.9, "strong": None}),  # one bot's cost missing: not rated
        _common(1, 1, {"weak": 0.020, "strong": 0.000}),
        _common(2, 1, {"weak": 0.040, "strong": 0.020}),
        _common(2, 2, {"weak": 0.040, "strong": 0.020}, choices=1),  # no choice: not rated
    ]
    s = bench.common.summary(rows, bots, games=100, k=12)
    assert s["games"] == 3 and s["rated"] == 4
    assert s["bots"]["weak"]["rate"] == pytest.approx(np.mean([40.0, 20.0, 40.0]))
    assert s["bots"]["strong"]["rate"] == pytest.approx(np.mean([10.0, 0.0, 20.0]))
    (pair,) = s["pairs"]
    d = np.array([30.0, 20.0, 20.0])
    assert pair["pair"] == ("weak", "strong") and pair["diff"] == pytest.approx(d.mean())
    assert pair["se"] == pytest.approx(d.std(ddof=1) / math.sqrt(3))
    assert pair["told_apart"]  # z about 8.7
    # k = 1: each game's first rated decision only
    assert bench.common.summary(rows, bots, games=100, k=1)["rated"] == 3
    # a single game gives no spread: never told apart
    one = bench.common.summary(rows, bots, games=1, k=12)
    assert one["games"] == 1 and not one["pairs"][0]["told_apart"]


def test_rows_name_the_policy_that_played_on(bench, tmp_path):
    """A file of rows measured with one policy playing on is refused to a run with another (a
    resumed run would mix two yardsticks); rows that predate the record are labelled so."""
    rows = bench.played.Rows(tmp_path / "rows.jsonl", ("game",))
    assert bench.played.policy_on(rows, "strong_v2") == "strong_v2"  # an empty file
    rows.add({"game": 0, "on": "strong_v2"})
    assert bench.played.policy_on(rows, "strong_v2") == "strong_v2"
    with pytest.raises(SystemExit, match="measured with strong_v2 playing on, not strong"):
        bench.played.policy_on(rows, "strong")
    rows.add({"game": 1})
    assert "older rows do not record it" in bench.played.policy_on(rows, "strong_v2")
