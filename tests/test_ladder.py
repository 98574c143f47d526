"""The strength ladder: the shipped file, its checks, the ranking, the report."""

from __future__ import annotations

import copy

import pytest

from sim.errors import CanastaError
from sim.policies import names
from sim.policies.ladder import check_ladder, load_ladder, ranking
from sim.policies.registry import STRENGTH_ORDER


def test_shipped_ladder_covers_the_fast_policies_with_intervals():
    data = load_ladder()
    fast = {"random", "greedy", "heuristic", "special_chaser", "strong", "strong_v2"}
    assert fast <= set(data["policies"]) <= set(names())
    n = len(data["policies"])
    assert len(data["pairs"]) == n * (n - 1) // 2  # a full round robin
    for r in data["pairs"]:
        assert r["ci_low"] < r["mean_diff"] < r["ci_high"] and r["deals"] == data["deals"]
    assert {r["policy"] for r in data["ranking"]} == set(data["policies"])


def test_ladder_ranking_agrees_with_the_strength_order():
    """STRENGTH_ORDER (the fast policy advice and the report play) is the ladder's order."""
    order = [r["policy"] for r in load_ladder()["ranking"]]
    ranked = [p for p in order if p in STRENGTH_ORDER]
    assert ranked == list(STRENGTH_ORDER)


def test_ranking_is_the_mean_margin_over_the_others():
    pairs = [
        {"a": "x", "b": "y", "mean_diff": 100.0},
        {"a": "x", "b": "z", "mean_diff": 300.0},
        {"a": "y", "b": "z", "mean_diff": -50.0},
    ]
    got = dict(ranking(pairs, ["x", "y", "z"]))
    assert got == {"x": 200.0, "y": -75.0, "z": -125.0}
    assert [p for p, _ in ranking(pairs, ["x", "y", "z"])] == ["x", "y", "z"]


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(version=99), "version 99"),
        (lambda d: d.pop("pairs"), "missing 'pairs'"),
        (lambda d: d["pairs"][0].pop("ci_low"), "lacks ci_low"),
    ],
)
def test_a_bad_ladder_file_is_refused_by_name(change, message):
    data = copy.deepcopy(load_ladder())
    change(data)
    with pytest.raises(CanastaError, match=message):
        check_ladder(data)


def test_report_methods_show_the_ladder():
    from reports.content import ladder

    m = ladder()
    data = load_ladder()
    assert [a for a, _ in m["rows"]] == data["policies"]
    r = data["pairs"][0]
    i, j = data["policies"].index(r["a"]), data["policies"].index(r["b"])
    assert m["rows"][i][1][j].startswith(("+", "−", "±"))
    assert m["rows"][i][1][i] == ""  # no policy plays itself
    assert len(m["search"]) == len(data["search"])
