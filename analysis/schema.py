"""The played-hand record schema (docs/records.md) as ``analysis`` reads it; the
schema itself is defined once, in ``sim.encoding`` (``RECORD_COLUMNS``) and
``sim.api.POLICY_COLUMNS`` (the DataFrame's columns), and the names here derive from it.

Records arrive one row per hand with per-team columns ``team0_<field>`` / ``team1_<field>``.
Most analyses are about *a team in a hand* (did it start sevens? what did it score?), so
:func:`team_view` reshapes the table to one row per (hand, team) with the prefix dropped and the
opponent's policy and score beside the team's own. Missing columns raise ``CanastaError`` naming
every column that an analysis needs and the records lack.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from sim.api import POLICY_COLUMNS
from sim.encoding import (
    END_NAMES,
    N_TEAMS,
    RECORD_HEADER,
    RISK_RECORD_ITEMS,
    TEAM_RECORD_ITEMS,
)
from sim.errors import CanastaError

__all__ = ["N_TEAMS", "matchups", "team_view"]

#: the per-hand columns every analysis reads: the engine's record header (``sim.encoding``,
#: the one definition of the schema) with the policy labels the DataFrame adds, less the
#: engine's bookkeeping (``special_team``, ``policy_errors``, ``decisions``), which
#: ``analysis`` uses when present and synthetic records may lack
HAND_COLUMNS = tuple(
    c
    for c in (RECORD_HEADER[0], *POLICY_COLUMNS, *RECORD_HEADER[1:])
    if c not in ("special_team", "policy_errors", "decisions")
)
END_REASONS = END_NAMES[1:]  #: values of ``end_reason`` (END_NONE never ends a hand)
MELD_KINDS = ("sevens", "aces", "wild")  #: the melds whose risk ``analysis.risk`` measures
#: per-team fields of the records (prefix ``team0_`` / ``team1_``), as the engine writes them
TEAM_FIELDS = TEAM_RECORD_ITEMS
#: per-team fields the risk tables also need (count of the rank held by the starting player
#: when the meld was started, and stock size then)
RISK_FIELDS = RISK_RECORD_ITEMS


def team_columns(fields: Iterable[str]) -> list[str]:
    """Both teams' column names for per-team ``fields``."""
    return [f"team{t}_{f}" for t in range(N_TEAMS) for f in fields]


def require(records: pd.DataFrame, columns: Iterable[str], purpose: str) -> None:
    """Raise CanastaError naming every column in ``columns`` that ``records`` lacks."""
    missing = [c for c in columns if c not in records.columns]
    if missing:
        raise CanastaError(f"records lack column(s) {', '.join(missing)} needed for {purpose}")


def matchups(records: pd.DataFrame) -> pd.Series:
    """Each hand's pair of policies as ``'A vs B'``, A the first name in order, whichever team
    played it (names compared as strings: names stored as categories cannot be ordered)."""
    p0, p1 = records["policy_team0"].astype(str), records["policy_team1"].astype(str)
    first = p0 <= p1
    return p0.where(first, p1) + " vs " + p1.where(first, p0)


def team_view(records: pd.DataFrame) -> pd.DataFrame:
    """One row per (hand, team): the team's fields without prefix, plus

    ``team``, ``policy``, ``opp_policy``, ``score``, ``opp_score``, ``net`` (score minus the
    opponents'), ``won`` (1, 0.5 for a tie, 0), ``went_out`` and ``declared_special`` (the team
    scored a special-hand award, SCORE-8).
    """
    require(records, HAND_COLUMNS, "a team view")
    fields = sorted(
        {c[6:] for c in records.columns if c.startswith("team0_")}
        & {c[6:] for c in records.columns if c.startswith("team1_")}
    )
    parts = []
    for t in range(N_TEAMS):
        o = 1 - t
        columns = {
            "hand_id": records["hand_id"].to_numpy(),
            "team": np.full(len(records), t, dtype=np.int64),
            "policy": records[f"policy_team{t}"].to_numpy(),
            "opp_policy": records[f"policy_team{o}"].to_numpy(),
            "first_player": records["first_player"].to_numpy(),
            "turns": records["turns"].to_numpy(),
            "end_reason": records["end_reason"].to_numpy(),
            "score": records[f"score_team{t}"].to_numpy(),
            "opp_score": records[f"score_team{o}"].to_numpy(),
            "went_out": (records["out_team"] == t).to_numpy(),
        }
        for f in fields:
            columns[f] = records[f"team{t}_{f}"].to_numpy()
        if "special_team" in records.columns:  # the engine names the declaring team
            columns["declared_special"] = (records["special_team"] == t).to_numpy()
        # one constructor call: ~60 column insertions one by one cost ~20 ms a view
        parts.append(pd.DataFrame(columns))
    view = pd.concat(parts, ignore_index=True)
    view["net"] = view["score"] - view["opp_score"]
    view["won"] = np.sign(view["net"]).map({1: 1.0, 0: 0.5, -1: 0.0}).astype(np.float64)
    if "special_hand" in view.columns:  # the SCORE-8 award item, per team
        if "declared_special" not in view.columns:
            view["declared_special"] = view["special_hand"] > 0
        view = view.rename(columns={"special_hand": "special_award"})
    elif "declared_special" not in view.columns:
        view["declared_special"] = False
    # rows are team 0's then team 1's, each in the records' order (hand ids may repeat
    # when several runs are concatenated, so align by position, not by id)
    name = np.tile(records["special_hand"].astype(str).to_numpy(), N_TEAMS)
    view["special_name"] = np.where(view["declared_special"], name, "")
    return view
