"""DEAL-4 in a position: the threes laid face up are out of play. A Position holds them
(``threes``: each team's red and black), the engine's template counts them for the hand's end
and never deals them, and the seat's view (``canasta._hint.position_for``) fills them from the
table, so the advice's stock holds no three that the real stock cannot."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.whatif import position
from sim import encoding as E
from sim.engine.position import PS_STOCK_N, position_arrays
from sim.errors import CanastaError

HAND = "4C 5D 6S 8H 9C TD JS QH KC AD 7C 7D KS"


def _threes(unseen):
    kinds = E.CARD_KIND[unseen]
    return int(np.sum(kinds == E.RED_THREE)), int(np.sum(kinds == E.BLACK_THREE))


def test_laid_threes_are_counted_and_never_dealt_deal4():
    """The template holds each team's laid threes; the unseen cards lose as many; the stock is
    smaller by them (the sizes add up to 108 with the threes out of play)."""
    plain = position_arrays(position(HAND, turn=6), "policy")
    laid = position_arrays(position(HAND, turn=6, threes=[[2, 1], [1, 0]]), "policy")
    t0, _, u0 = plain
    t1, p1, u1 = laid
    assert _threes(u0) == (4, 4) and _threes(u1) == (1, 3)
    assert list(t1[E.ST_THREES : E.ST_THREES + 4]) == [2, 1, 1, 0]
    assert list(t0[E.ST_THREES : E.ST_THREES + 4]) == [0, 0, 0, 0]
    assert u0.size - u1.size == 4
    assert plain[1][PS_STOCK_N] - p1[PS_STOCK_N] == 4


@pytest.mark.parametrize(
    "threes,message",
    [
        ([[3, 0], [2, 0]], "CARD-1: 5 red threes laid"),
        ([[1, 0]], r"threes: give each team's threes laid as two counts"),
        ([[-1, 0], [0, 0]], "threes: counts of threes laid are 0 or more"),
    ],
)
def test_impossible_laid_threes_are_refused_in_one_line(threes, message):
    with pytest.raises(CanastaError, match=message) as exc:
        position_arrays(position(HAND, turn=6, threes=threes), "policy")
    assert "\n" not in str(exc.value)


def test_a_kept_three_and_the_laid_ones_share_the_four_copies_card1():
    with pytest.raises(CanastaError, match="CARD-1: 4 red threes laid and 1 fixed"):
        position_arrays(position("3H " + HAND[3:], turn=6, threes=[[2, 0], [2, 0]]), "policy")


def test_the_seats_view_fills_the_threes_laid_from_the_table():
    """position_for reads each team's laid threes (absolute teams) from the table; the advice
    then plays from it."""
    from analysis.advise import advise
    from canasta._hint import position_for
    from canasta._seat import hands_before
    from sim.game import GameDriver
    from sim.play.table import TableView

    hand = GameDriver(seed=5601, game_id=0).deal()
    hand.play(("strong", "strong"))
    found = None
    for _i, seat, _a, h in hands_before(hand):
        t = TableView(h.state)
        if t.phase == E.PH_DRAW and seat == t.player and t.threes.sum() > 0:
            found = (h, seat, t.threes.copy())
            break
    assert found is not None
    h, seat, table_threes = found
    pos, drawn = position_for(h, seat)
    assert drawn is None
    assert np.array_equal(np.asarray(pos.threes, dtype=np.int64), table_threes)
    adv = advise(pos, n=4, seed=1)
    assert adv.choices and all(c.n == 4 for c in adv.choices)


def _flags(argv):
    import argparse

    from canasta import flags

    p = argparse.ArgumentParser()
    flags.add_position(p)
    return flags.parse_position(p.parse_args(["--hand", HAND, "--turn", "6", *argv]))


def test_the_position_flags_name_the_threes_laid_deal4():
    """``--threes TEAM:RED,BLACK`` (canasta advise, canasta whatif), once a team; none given:
    none laid."""
    pos = _flags(["--threes", "1:0,2", "--threes", "0:1,1"])
    assert np.asarray(pos.threes, dtype=np.int64).tolist() == [[1, 1], [0, 2]]
    assert _flags([]).threes is None
    t, _, _ = position_arrays(pos, "policy")
    assert list(t[E.ST_THREES : E.ST_THREES + 4]) == [1, 1, 0, 2]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--threes", "2:1,1"], "expected TEAM:RED,BLACK with TEAM 0 or 1"),
        (["--threes", "0:x"], "expected 2 comma-separated integers"),
        (["--threes", "0:1,1", "--threes", "0:1,0"], "team 0's threes given twice"),
        (["--threes", "0:-1,0"], r"--threes \(red\) -1"),
    ],
)
def test_bad_threes_flags_are_one_line(argv, message):
    with pytest.raises(CanastaError, match=message) as exc:
        _flags(argv)
    assert "\n" not in str(exc.value)
