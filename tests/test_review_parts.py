"""``analysis.review``'s parts the faces build on: the same rows in any number of processes,
a review back from its JSON, a game's review combined from its hands', and where an error
rate stands in the reference band. Tiny sizes (4 deals a choice, no time budget): the tests
check bookkeeping, never a strategy's value."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from analysis import review as R

POLICIES = ("heuristic", "heuristic")


@pytest.fixture(scope="module")
def two_hands():
    """Two finished bot hands of one game (seed 4, target 2,500) and seat 0's decisions."""
    from canasta._seat_review import match_move
    from canasta.review import decisions
    from sim.game import GameDriver

    d = GameDriver(seed=4, rules={"target": 2500}).play(POLICIES)
    assert len(d.hands) == 2
    items = [decisions([h], [0]) for h in d.hands]
    return d.hands, items, match_move


def _review(items, match, **kw):
    from analysis.equity import synthetic_table
    from sim.ruleset import Ruleset

    eq, rules = synthetic_table(target=2500), Ruleset(target=2500)
    return R.review(items, match, equity=eq, ruleset=rules, n=4, budget=None, seed=9, **kw)


def test_the_same_rows_in_two_processes(two_hands):
    """Without a time budget decision k's seeds are fixed: two jobs give one job's rows."""
    _, items, match = two_hands
    some = items[0][:6]
    one = _review(some, match)
    two = _review(some, match, n_jobs=2)
    pd.testing.assert_frame_equal(one.decisions, two.decisions)
    pd.testing.assert_frame_equal(one.luck, two.luck)
    assert len(one.decisions) == sum(not d.forced for d in some) and "turn" in one.decisions


def test_json_round_trip_and_a_games_review_from_its_hands(two_hands):
    """A review comes back from its JSON (NaN as null and back); the game's review is the
    hands' rows in order, their points summed, its summary over every decision."""
    hands, items, match = two_hands
    revs = []
    for h, its in zip(hands, items, strict=True):
        rev = _review(its[:5], match)
        rev.meta["points"] = {0: int(h.scores()[0]["total"])}
        revs.append(R.Review.from_json(json.loads(json.dumps(rev.to_json()))))
        assert revs[-1].to_json() == rev.to_json()
    game = R.combine(revs)
    assert len(game.decisions) == sum(len(r.decisions) for r in revs)
    assert game.meta["points"] == {0: sum(int(h.scores()[0]["total"]) for h in hands)}
    s = R.summary(game).iloc[0]
    assert s["decisions"] == len(game.decisions)
    assert s["luck_adjusted_points"] == pytest.approx(s["points"] - s["luck_points"])
    with pytest.raises(ValueError):
        R.combine([])
    # a hand without a stock draw: its luck rows empty, still read back and summed
    none = R.Review(revs[0].decisions, revs[0].luck.iloc[:0], {"points": {0: 5}})
    back = R.Review.from_json(json.loads(json.dumps(none.to_json())))
    assert list(back.luck.columns) == R.LUCK_COLUMNS
    assert R.summary(back).iloc[0]["draws"] == 0


BAND = {
    "bots": {"strong": {"rate": 4.0}, "heuristic": {"rate": 9.0}, "random": {"rate": 60.0}},
    "on": "strong",
}


@pytest.mark.parametrize(
    ("rate", "want"),
    [
        (2.0, "at or below strong (4.0)"),
        (6.5, "between strong (4.0) and heuristic (9.0)"),
        (30.0, "between heuristic (9.0) and random (60.0)"),
        (80.0, "at or above random (60.0)"),
        (math.nan, ""),
    ],
)
def test_where_a_rate_stands_in_the_band(rate, want):
    assert R.standing(rate, BAND).startswith(want)
    assert R.standing(rate, {}) == ""


def test_the_band_file_read_or_absent(tmp_path):
    """A band is read only when it was measured with the yardstick asked for (the policy
    playing on): a rate judged by one bot's rollouts is never placed among rates judged by
    another's."""
    path = tmp_path / "band.json"
    assert R.reference_band(path, on="strong") == {}  # none shipped
    path.write_text(json.dumps(BAND))
    assert R.reference_band(path, on="strong") == BAND
    assert R.reference_band(path, on="strong_v2") == {}
    path.write_text(json.dumps({k: v for k, v in BAND.items() if k != "on"}))
    assert R.reference_band(path, on="strong") == {}  # a band that does not name its yardstick
    path.write_text("[1, 2]")
    assert R.reference_band(path, on="strong") == {}


def test_a_decision_the_advice_refuses_is_skipped_and_counted(two_hands):
    """A position the advice refuses (here every play step: a fake advice) gives no row and
    no luck; the review goes on with the others and counts what it skipped."""
    from analysis.advise import advise
    from sim.errors import CanastaError

    _, items, match = two_hands
    some = items[0][:8]

    def picky(pos, drawn=None, **kw):
        if drawn is not None:
            raise CanastaError("the hand ends before the fixed player can play (END-1)")
        return advise(pos, drawn=drawn, **kw)

    rev = _review(some, match, advise=picky)
    plays = sum(d.drawn is not None for d in some)
    assert plays > 0 and rev.meta["skipped"] == plays
    assert set(rev.decisions["decision"]) == {"draw"} and len(rev.luck) == 0


def test_the_shipped_band_is_read_and_places_a_rate():
    """analysis/review_band.json (the band measured by benchmarks/bench_review_band.py) is the
    default band, measured with the advice's own policy playing on (so a player's rate and the
    band share a yardstick): the issue's four bots (the strongest fast one is strong_v2), every
    bot's interval holds its rate, and a rate between the two lowest reads so."""
    from sim.policies import strongest_fast

    band = R.reference_band()
    assert band["on"] == strongest_fast()
    assert set(band["bots"]) >= {"random", "heuristic", "strong", "strong_v2"}
    assert band["ruleset"] and "bench_review_band.py" in band["command"]
    for v in band["bots"].values():
        assert v["low"] <= v["rate"] <= v["high"] and v["games"] >= 100
    (lo, best), (hi, _) = sorted((v["rate"], k) for k, v in band["bots"].items())[:2]
    assert R.standing((lo + hi) / 2, band).startswith(f"between {best} (")


def test_a_review_is_placed_only_in_a_band_judged_the_same_way(two_hands):
    """band_for: the shipped band for the default list with the advice's own policy playing
    on; none for another list (the target differs), two different policies or another single
    one. The text review places each seat's rate in the band it is given, and in none without."""
    from canasta.review import format_text
    from sim.policies import strongest_fast
    from sim.ruleset import Ruleset

    shipped = R.reference_band()
    assert R.band_for() == shipped == R.band_for(Ruleset(), strongest_fast())
    assert R.band_for(Ruleset(target=2500)) == {}
    assert R.band_for(None, "strong_v2,strong") == {}
    assert R.band_for(None, ["heuristic"]) == {}
    _, items, match = two_hands
    rev = _review(items[0][:6], match)
    rate = float(R.summary(rev).iloc[0]["error_rate"])
    placed = format_text(rev, BAND)
    assert ("stands " + R.standing(rate, BAND)) in placed and "strong playing on" in placed
    assert "stands" not in format_text(rev)
