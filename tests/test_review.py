"""``canasta review`` and ``analysis.review``: the decisions a record holds, the cost of each
move, the tags, the error rate, the luck of the draws, the page.

Sizes are tiny (4 deals a choice): the tests check structure, exact bookkeeping and the
formulas on made-up rows, never a strategy's value.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from analysis import review as R
from sim import encoding as E

POLICIES = ("heuristic", "heuristic")


@pytest.fixture(scope="module")
def hand():
    """One bot hand (heuristic against heuristic, seed 3) and its record."""
    from sim.play.game import GameDriver
    from sim.play.record import from_games

    driver = GameDriver(seed=3).play(POLICIES)
    g = driver.hands[0]
    return g, from_games([g], players=list(POLICIES) * 2, kind="hand")


# ---------------------------------------------------------------------------------------
# Formulas on made-up rows
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cost", "low", "want"),
    [
        (0.004, 0.001, ""),
        (0.012, 0.002, "doubtful"),
        (0.03, 0.01, "error"),
        (0.08, 0.02, "blunder"),
        (0.08, -0.01, ""),  # the interval reaches 0: within the noise, no tag
        (math.nan, math.nan, ""),
    ],
)
def test_tags_by_cost_in_game_chance(cost, low, want):
    assert R.tag(cost, low) == want


def test_summary_error_rate_and_luck():
    """The error rate is 1,000 x the mean game chance lost over the decisions with a choice
    (a forced one and one without a game chance are left out); the luck sums per seat; the
    luck-adjusted result is the points less the luck."""
    d = pd.DataFrame(
        {
            "seat": [0, 0, 0, 0, 2],
            "choices": [3, 5, 1, 4, 2],
            "cost_game": [0.0, 0.03, 0.0, math.nan, 0.01],
            "cost_points": [0.0, 120.0, 0.0, 40.0, 10.0],
            "tag": ["", "error", "", "", ""],
        }
    )
    lk = pd.DataFrame(
        {
            "seat": [0, 0, 2],
            "luck_points": [50.0, -20.0, 5.0],
            "luck_game": [0.01, 0.0, 0.002],
            "se_points": [30.0, 40.0, 10.0],
            "se_game": [0.01, 0.01, 0.01],
        }
    )
    rev = R.Review(d, lk, {"points": {0: 900, 2: 900}})
    s = R.summary(rev).set_index("seat")
    assert s.loc[0, "rated"] == 2
    assert s.loc[0, "error_rate"] == pytest.approx(1000 * (0.0 + 0.03) / 2)
    assert s.loc[0, "rate_low"] < s.loc[0, "error_rate"] < s.loc[0, "rate_high"]
    assert s.loc[0, "error"] == 1 and s.loc[0, "blunder"] == 0
    assert s.loc[0, "luck_points"] == pytest.approx(30.0)
    assert s.loc[0, "luck_adjusted_points"] == pytest.approx(870.0)
    assert s.loc[0, "luck_points_se"] == pytest.approx(50.0)  # independent draws: in quadrature
    assert s.loc[2, "error_rate"] == pytest.approx(10.0)
    assert math.isnan(s.loc[2, "rate_low"])  # one decision: no interval


def test_cost_is_remeasured_on_fresh_deals_each_choice_alone():
    """The cost is the chosen best minus the move made on fresh deals (another seed), each
    played alone (no race to stop it early) on the same deals: the first run's count of deals
    for the next; the interval the unpaired one; negative when the move did better there."""
    from analysis.advise import Advice, Choice

    means = {"B": 130.0, "M": 100.0, "G": 90.0}
    seen = []

    def fake(pos, **kw):
        seen.append(kw)
        (label,) = kw["only"]
        m = means[label]
        game = {"win": m / 1000, "ci_low": m / 1000 - 0.01, "ci_high": m / 1000 + 0.01}
        n = 24 if kw["budget"] else kw["n"]  # a budget stops the first run at 24 deals
        return Advice("play", [Choice(label, [], None, m, m - 6, m + 6, 0, 0, 0, n, game=game)])

    def choice(label):
        return Choice(label, [], None, 0, 0, 0, 0, 0, 0, 8)

    made, best, gbest = choice("M"), choice("B"), choice("G")
    ask = {"pos": None, "drawn": None, "n": 64, "seed": 7, "ruleset": None, "policies": None}
    runs = R._fresh(made, [best, gbest], ask | {"advise": fake, "budget": 1.0, "equity": None})
    assert [k["only"] for k in seen] == [["B"], ["G"], ["M"]]
    assert all(k["seed"] == 7 for k in seen) and seen[0]["budget"] == 1.0
    assert [k["n"] for k in seen] == [64, 24, 24] and seen[1]["budget"] is None
    cost, lo, hi = R._cost(runs, made, best, "points")
    assert cost == pytest.approx(30.0) and hi - cost == pytest.approx(6 * 2**0.5)
    cost, lo, hi = R._cost(runs, made, gbest, "game")
    assert cost == pytest.approx(-0.01) and lo < cost < hi  # the move did better
    assert R._cost(runs, made, made, "points") == (0.0, 0.0, 0.0)
    assert R._fresh(made, [made, None], ask | {"advise": fake}) == {}


# ---------------------------------------------------------------------------------------
# The decisions of a record
# ---------------------------------------------------------------------------------------
def test_decisions_are_every_draw_and_the_play_after_a_stock_draw(hand):
    """Seat 0's items: one per action it took at the draw step (forced when the pile could
    not be taken, PILE-1/2), and one per stock draw for the play step right after it, with
    the card drawn; move numbers are the record's (1-based)."""
    from canasta.review import decisions
    from sim.play.record import redeal

    g, _ = hand
    items = decisions([g], [0])
    h = redeal(g)
    draws, stock = [], []
    for i, a in enumerate(g.actions):
        if h.current_player == 0 and h.phase == E.PHASE_NAMES[E.PH_DRAW]:
            draws.append(i + 1)
            if a == E.A_DRAW:
                stock.append(i + 2)
        h.apply(a)
    assert [d.move for d in items if d.drawn is None] == draws
    assert [d.move for d in items if d.drawn is not None] == stock
    assert all(d.seat == 0 and d.hand == 1 for d in items)
    assert all(not d.forced for d in items if d.drawn is not None)
    for d in items:
        assert d.actions == tuple(g.actions[d.move - 1 :])


# ---------------------------------------------------------------------------------------
# A whole hand reviewed
# ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def reviewed(hand):
    from analysis.equity import synthetic_table
    from canasta.review import decisions, match

    g, _ = hand
    items = decisions([g], [0])
    rev = R.review(
        items, match, equity=synthetic_table(), n=4, budget=None, seed=5, policies=POLICIES
    )
    return items, rev


def test_review_rows(reviewed):
    """A row per decision with a choice; the move made found among the plans; costs are
    minus the paired differences, never below 0 against the best by the same measure; a
    luck row per stock draw whose draw step and play step were both advised."""
    items, rev = reviewed
    d = rev.decisions
    assert len(d) == sum(not i.forced for i in items)
    assert (d["made"] != "").mean() > 0.8  # the canonical plans cover most moves
    full = d[d["cost_game"].notna()]
    assert len(full) > 0 and (full["cost_game_low"] <= full["cost_game"]).all()
    made_best = d[d["made"] == d["best_points"]]
    assert (made_best["cost_points"] == 0).all()  # the best move made costs nothing
    assert set(d["tag"]) <= {"", *R.TAGS}
    assert len(rev.luck) == sum(i.drawn is not None for i in items)
    assert rev.luck["luck_points"].notna().all()
    assert ((rev.luck["luck_game"] >= -1) & (rev.luck["luck_game"] <= 1)).all()


def test_review_json_and_page(reviewed, tmp_path):
    from reports.review import write_html

    _, rev = reviewed
    rev.meta.update({"record": "hand.json", "ruleset": "tournament"})
    text = json.dumps(rev.to_json())  # plain JSON: NaN written as null
    back = json.loads(text)
    assert len(back["decisions"]) == len(rev.decisions)
    assert back["players"][0]["seat"] == 0
    page = write_html(rev, tmp_path / "r.html").read_text()
    assert "<svg" in page and 'id="decisions"' in page and 'id="players"' in page
    assert page.count("<tr class=") == len(rev.decisions)


def test_cli_review_json_and_bad_seat(hand, tmp_path, capsys):
    from canasta import main
    from sim.play.record import dumps

    _, rec = hand
    path = tmp_path / "hand.json"
    path.write_text(dumps(rec))
    assert main(["review", str(path), "--seat", "5", "--no-game"]) == 2
    assert "--seat 5" in capsys.readouterr().err
    assert main(["review", str(path), "--html", str(tmp_path / "no" / "r.html")]) == 2
    assert "--html" in capsys.readouterr().err  # refused before any work
    argv = ["review", str(path), "--seat", "1", "-n", "2", "--no-game", "--format", "json"]
    assert main([*argv, "--policies", "heuristic,heuristic", "--jobs", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {r["seat"] for r in out["decisions"]} == {1}
    assert all(r["cost_game"] is None for r in out["decisions"])
    assert np.isfinite(out["players"][0]["luck_points"])
