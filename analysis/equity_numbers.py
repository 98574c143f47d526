"""First numbers of the game score, read from an equity table (``analysis.equity``).

Each function returns a frame in percentage points of team 0's chance of winning the game,
each value with its paired bootstrap standard error and 95% interval (the table's replicates,
``EquityTable.difference``), and names the ruleset and policies the table was measured under
(``attrs``):

* :func:`tier_costs`: what crossing an opening tier's edge costs (OPEN-1: 2,990 against 3,010,
  4,990 against 5,010), the opponent's score fixed;
* :func:`point_values`: what 100 points are worth at each score;
* :func:`first_advantage`: the advantage of playing first at equal scores (DEAL-1).

:data:`TRUTH_STATES` are the start states at which the table is checked against whole games.
"""

from __future__ import annotations

import pandas as pd

from sim.stats import CONFIDENCE, z_value

__all__ = ["POINT_OPPONENTS", "TRUTH_STATES", "first_advantage", "point_values", "tier_costs"]

OPPONENTS = (0, 2000, 3000, 5000, 7000, 8000)  #: the opponent's scores of :func:`tier_costs`
POINT_SCORES = (-3000, 0, 2000, 4000, 6000, 7000, 8000, 8300)  #: :func:`point_values`' rows
POINT_OPPONENTS = (0, 3000, 5000, 8000)  #: :func:`point_values`' columns
FIRST_SCORES = (0, 3000, 5000, 8000, 8400)  #: :func:`first_advantage`'s equal scores
#: where the solver is checked against whole games (GAME-1): near 0, 3,000, 5,000 and 8,500
#: (OPEN-1's tiers), negative, far apart; (team 0, team 1, the seat that plays first), on a
#: 50-point grid, so that a table of 10 or 50 points holds them exactly
TRUTH_STATES = (
    (0, 0, 0),
    (0, 0, 1),
    (-50, 100, 0),
    (2950, 3000, 1),
    (3000, 2950, 0),
    (2950, 2950, 1),
    (3000, 3000, 0),
    (4950, 5000, 0),
    (5000, 4950, 1),
    (5000, 5000, 0),
    (8450, 8450, 1),
    (8450, 8000, 0),
    (8000, 8450, 1),
    (8200, 5000, 0),
    (-2000, 0, 1),
    (-5000, 3000, 0),
    (-1000, -1500, 1),
    (8000, -1000, 0),
    (0, 8000, 1),
    (-3000, 8400, 0),
    (6000, 2000, 1),
    (3500, 7000, 0),
    (-8000, -8000, 0),
    (7000, 7000, 1),
)


def _attrs(table) -> dict:
    m = table.meta
    return {
        "ruleset": m.get("ruleset_label", ""),
        "policies": " vs ".join(m.get("policy_labels", [])),
        "hands": int(m.get("hands", 0)),
        "interval": f"{CONFIDENCE * 100:g}% normal interval, paired SE from "
        f"{m.get('replicates', '?')} Poisson-bootstrap replicates of the measured hands",
    }


def _row(d: dict, **keys) -> dict:
    z = z_value(CONFIDENCE)
    pp = 100 * d["difference"]
    se = 100 * d["se"]
    return {**keys, "difference": pp, "se": se, "ci_low": pp - z * se, "ci_high": pp + z * se}


def _scores(values, table) -> list[int]:
    return [int(s) for s in values if s < table.target and s >= table.low]


def tier_costs(table, opponents=OPPONENTS) -> pd.DataFrame:
    """Team 0's chance just below each opening tier's edge minus just above it (one grid
    step either side: 2,990 against 3,010 on a 10-point grid), the opponent's score fixed,
    with team 0 to play first (``first0``, ``se0``, ``low0``, ``high0``) and team 1 first
    (``...1``): what crossing the edge costs (OPEN-1). Empty under OPEN-1 by hand number (no
    edges by score)."""
    step = table.resolution
    rows = []
    for edge in table.meta.get("tiers", []):
        for opp in _scores(opponents, table):
            row = {
                "edge": int(edge),
                "below": int(edge - step),
                "above": int(edge + step),
                "opponent": opp,
            }
            for first in (0, 1):
                d = _row(table.difference((edge - step, opp), (edge + step, opp), first=first))
                row |= {
                    f"first{first}": d["difference"],
                    f"se{first}": d["se"],
                    f"low{first}": d["ci_low"],
                    f"high{first}": d["ci_high"],
                }
            rows.append(row)
    cols = [
        "edge",
        "below",
        "above",
        "opponent",
        "first0",
        "se0",
        "low0",
        "high0",
        "first1",
        "se1",
        "low1",
        "high1",
    ]
    out = pd.DataFrame(rows, columns=cols)
    out.attrs |= _attrs(table)
    return out


def point_values(table, scores=POINT_SCORES, opponents=POINT_OPPONENTS, points: int = 100):
    """What ``points`` more are worth: team 0's chance at s + points minus at s, team 0 to
    play first; a row per score s, for each opponent's score o the columns ``d<o>`` and
    ``se<o>`` (percentage points)."""
    rows = []
    for s in _scores(scores, table):
        if s + points >= table.target:
            continue
        row = {"score": s}
        for opp in _scores(opponents, table):
            d = _row(table.difference((s + points, opp), (s, opp), first=0))
            row |= {f"d{opp}": d["difference"], f"se{opp}": d["se"]}
        rows.append(row)
    out = pd.DataFrame(rows)
    out.attrs |= _attrs(table) | {"points": points, "opponents": _scores(opponents, table)}
    return out


def first_advantage(table, scores=FIRST_SCORES) -> pd.DataFrame:
    """At equal scores, team 0's chance with team 0 to play first minus one half (the
    advantage of playing first: the teams are otherwise alike when one policy plays both),
    with the table's standard error at that cell."""
    z = z_value(CONFIDENCE)
    rows = []
    for s in _scores(scores, table):
        v = table.value(s, s, first=0)
        pp, se = 100 * (v["win_team0"] - 0.5), 100 * v["se"]
        rows.append(
            {"score": s, "difference": pp, "se": se, "ci_low": pp - z * se, "ci_high": pp + z * se}
        )
    out = pd.DataFrame(rows, columns=["score", "difference", "se", "ci_low", "ci_high"])
    out.attrs |= _attrs(table)
    return out
