"""The end of a game by its totals has one rule (GAME-1, ``sim.finished.game_outcome``), and
every reader of it agrees on every pair of scores of a grid around the target, the edges
included (one point below it, at it, one point over, exact ties at and over it):

- ``game_outcome`` against the rule read literally (a team at or over the target with the
  higher total wins; an exact tie there plays another hand), and its array form
  ``game_outcomes`` against it, broadcast;
- the game driver (``sim.GameDriver``: a hand scored into the totals, then the end decided)
  and the equity solver (``analysis._equity_grid.Grid``'s terminal cells, and
  ``analysis.equity.after_hand``): won by team 0, won by team 1, or another hand.
"""

from __future__ import annotations

import numpy as np
import pytest

import sim
from analysis import equity as Q
from analysis._equity_grid import Grid
from sim.finished import GAME_ON, GAME_TIED, game_outcome, game_outcomes, game_winner

T = 8500  #: the default target (GAME-1)
#: a grid of scores: far below, one step either side of the target, at it, past it
SCORES = np.array([-5000, 0, T - 10, T - 5, T - 1, T, T + 1, T + 5, T + 10, T + 2000])


def _literal(s0: int, s1: int, target: int) -> int:
    """GAME-1 as RULES.md words it."""
    if max(s0, s1) < target:
        return GAME_ON
    if s0 == s1:
        return GAME_TIED
    return 0 if s0 > s1 else 1


def test_game_1_outcome_and_its_array_form_read_the_rule_on_every_pair():
    pairs = [(int(a), int(b)) for a in SCORES for b in SCORES]
    for a, b in pairs:
        assert game_outcome(a, b, T) == _literal(a, b, T), (a, b)
        won = _literal(a, b, T)
        assert game_winner(a, b, T) == (won if won in (0, 1) else -1), (a, b)
    got = game_outcomes(SCORES[:, None], SCORES[None, :], T)
    assert got.shape == (SCORES.size, SCORES.size) and got.dtype == np.int64
    assert got.ravel().tolist() == [_literal(a, b, T) for a, b in pairs]
    assert game_outcomes(T, SCORES, T).tolist() == [_literal(T, int(b), T) for b in SCORES]


@pytest.fixture(scope="module")
def hand():
    """A finished hand in which both teams scored more than 25 points (so that every grid
    pair is reached from a start below the target), and its points."""
    for seed in range(40):
        d = sim.GameDriver(seed=seed)
        h = d.deal()
        h.play(("heuristic", "heuristic"))
        pts = h.score_items().sum(axis=1)
        if pts.min() > 25 and pts[0] != pts[1] and h.end_reason == "out":
            return h, (int(pts[0]), int(pts[1]))
    raise AssertionError("no hand with both teams above 25 points in 40 seeds")


def _driver(hand, s0: int, s1: int):
    """The driver's end after ``hand`` from the start that brings its totals to (s0, s1)."""
    h, (d0, d1) = hand
    d = sim.GameDriver(seed=0, scores=(s0 - d0, s1 - d1))
    d.end_hand(h)
    assert d.totals == [s0, s1]
    return d


def test_game_1_the_driver_and_the_solvers_terminal_cells_agree_on_every_pair(hand):
    """The grid's extended cells (5-point steps, reaching past the target) against the
    driver: a cell the solver counts won by team 0, won by team 1, or valued as another hand
    (below the target, or an exact tie at or over it) is one the driver ends the same way."""
    rows = np.array([[-20, 30, -1], [40, -10, -1], [0, 0, -1], [15, 15, -1]], dtype=np.int64)
    out = Q.Outcomes({(a, b, 0): rows for a in range(3) for b in range(3)}, False, 0, True)
    low, r = T - 100, 5
    grid = Grid(out, T, r, low, (3000, 5000))
    cells = low + r * (np.arange(grid.N) - grid.m_lo)
    _, (d0, d1) = hand
    reach = (cells >= -5000) & (cells < T + min(d0, d1))  # a start below the target
    idx = np.flatnonzero(reach)
    assert cells[idx].min() < T - r and cells[idx].max() > T + r  # both sides, the edge too
    lost = grid.term & (grid.term_win == 0) & ~grid.term_tie
    seen = set()
    for i in idx:
        for j in idx:
            d = _driver(hand, int(cells[i]), int(cells[j]))
            if d.is_over:
                assert d.ended_by == "GAME-1"
                assert grid.term[i, j] and not grid.term_tie[i, j]
                assert (grid.term_win[i, j] == 1) == (d.winner == 0)
                assert lost[i, j] == (d.winner == 1)
                seen.add(d.winner)
            else:
                assert d.winner == -1 and grid.term_win[i, j] == 0 and not lost[i, j]
                assert grid.term_tie[i, j] == (cells[i] == cells[j] >= T)
                seen.add("tie" if grid.term_tie[i, j] else "on")
    assert seen == {0, 1, "tie", "on"}


def test_game_1_the_driver_and_after_hand_agree_on_every_pair(hand):
    """``after_hand`` (the solver's reading of a hand's end in advice and the game bot's
    table) from the starts that the same hand brings to each grid pair: 1 where the driver
    says team 0 won, 0 where team 1 did, the table's tie value at an exact tie at or over
    the target, the table at the new scores otherwise."""
    _, (d0, d1) = hand
    table = Q.synthetic_table(target=T)
    tie = table.meta["tie"][1]
    for s0 in SCORES:
        for s1 in SCORES:
            if max(s0 - d0, s1 - d1) >= T:
                continue  # no legal start reaches the pair with this hand
            d = _driver(hand, int(s0), int(s1))
            got = Q.after_hand(table, (s0 - d0, s1 - d1), 1, [d0], [d1], [-1])[0]
            if d.is_over:
                assert got == (1.0 if d.winner == 0 else 0.0), (s0, s1)
            elif s0 == s1 >= T:
                assert got == pytest.approx(tie), (s0, s1)
            else:
                assert max(s0, s1) < T
                i0, i1 = ((max(s, table.low) - table.low) // table.resolution for s in (s0, s1))
                assert got == pytest.approx(float(table.values[0, 1, i0, i1])), (s0, s1)
