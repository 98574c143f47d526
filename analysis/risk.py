"""Seven, ace and wild meld risk (SCORE-2, SCORE-3, SCORE-4, MELD-6..8) from played hands.

For a team that started a meld of sevens, of natural aces or of wild cards:

* **completion** — the share of started melds completed by the end of the hand (Wilson
  interval, one team-hand is one trial);
* **points** — the team's expected score for the hand given that it started the meld then
  (mean of ``score`` with its normal interval), and, for sevens and natural aces, the expected
  value of the meld's own bonus or penalty, ``2500·(2c − 1)`` (SCORE-2: +2,500 completed,
  −2,500 not), whose interval follows from the completion interval because it is monotone;

by the turn it was started (binned), by how many of the rank the starting player held, and by
the stock left. Mixed aces (MELD-7: an aces meld that took wilds in the initial meld is an
ordinary mixed meld, no bonus, no penalty) are kept apart: :func:`mixed_aces`.
:func:`penalties` gives how often each in-hand penalty (SCORE-4) is paid and what it costs.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from analysis import intervals as iv
from analysis.schema import MELD_KINDS, require, team_columns, team_view
from sim.errors import CanastaError
from sim.scoring import HELD_SEVENS_ACES_PENALTY, SEVENS_ACES_CANASTA

__all__ = ["meld_risk", "mixed_aces", "penalties", "started"]

#: SCORE-2 bonus of a natural sevens/aces canasta = its penalty
NATURAL_MELD_POINTS = SEVENS_ACES_CANASTA
HAND_PENALTY = HELD_SEVENS_ACES_PENALTY  #: SCORE-4 per player and rank
TURN_BINS = (0, 4, 8, 12, 16, 20, 30, 40, 60)  #: default edges of the started-turn bins
STOCK_BINS = (0, 10, 20, 30, 40, 50, 60, 80)  #: default edges of the stock-left bins
BY_COLUMN = {"turn": "started_turn", "held": "started_held", "stock": "started_stock"}


def _bins(values: pd.Series, edges: Sequence[int]) -> pd.Series:
    """Half-open integer bins [a, b) labelled 'a-(b-1)', the last one 'a+' (open-ended)."""
    edges = list(edges)
    labels = [f"{a}-{b - 1}" if b - 1 > a else f"{a}" for a, b in itertools.pairwise(edges)]
    labels[-1] = f"{edges[-2]}+"
    cut_edges = [*edges[:-1], np.inf]
    return pd.cut(values, cut_edges, right=False, labels=labels)


def started(records: pd.DataFrame, meld: str, view: pd.DataFrame | None = None) -> pd.DataFrame:
    """Team-hands in which the team started a ``meld`` ('sevens', 'aces' natural only, 'wild');
    ``view``, if given, is ``team_view(records)`` already made (it is not modified)."""
    if meld not in MELD_KINDS:
        raise CanastaError(f"unknown meld {meld!r}: choose from {', '.join(MELD_KINDS)}")
    need = [f"{meld}_started_turn", f"{meld}_completed"] + (
        ["aces_mixed"] if meld == "aces" else []
    )
    require(records, team_columns(need), f"{meld} meld risk")
    if view is None:
        view = team_view(records)
    view = view[view[f"{meld}_started_turn"] >= 0]
    if meld == "aces":
        view = view[view["aces_mixed"] == 0]  # MELD-7: mixed aces reported apart
    view = view.copy()
    view["started_turn"] = view[f"{meld}_started_turn"]
    view["completed"] = view[f"{meld}_completed"].astype(bool)
    for extra in ("held", "stock"):
        col = f"{meld}_started_{extra}"
        if col in view.columns:
            view[f"started_{extra}"] = view[col]
    return view


def grouped_starts(
    records: pd.DataFrame,
    meld: str,
    by: str,
    bins: Sequence[int] | None = None,
    view: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """:func:`started` with the group column ``by`` added: the turn or stock bin when the meld
    was started, or the count of its rank held then (shared by ``analysis.stream``, which
    passes the ``view`` it has made once for all its tables)."""
    if by == "held" and meld == "wild":
        raise CanastaError("a wild meld has no rank held: group it by turn or stock")
    col = BY_COLUMN[by]
    view = started(records, meld, view)
    if col not in view.columns:
        raise CanastaError(
            f"records lack column(s) team0_{meld}_{col}, team1_{meld}_{col} needed for "
            f"{meld} meld risk by {by}"
        )
    if by == "held":
        view[by] = view[col]
    else:
        view[by] = _bins(view[col], bins or (TURN_BINS if by == "turn" else STOCK_BINS))
    return view


def completion_columns(comp: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The group keys, ``n``, ``completed`` and the Wilson ``completion`` columns of a
    proportion table of completed melds (shared by ``analysis.stream``)."""
    return comp[keys].assign(
        n=comp["n"], completed=comp["successes"], **iv.interval_columns(comp, "completion")
    )


def add_meld_points(out: pd.DataFrame, meld: str) -> None:
    """``meld_points`` and its bounds from the completion columns, for sevens and aces."""
    if meld != "wild":  # SCORE-2: +2500 completed, -2500 not: 2500 (2c - 1), monotone in c
        for s in ("", "_low", "_high"):
            out[f"meld_points{s}"] = NATURAL_MELD_POINTS * (2.0 * out[f"completion{s}"] - 1.0)


def meld_risk(
    records: pd.DataFrame,
    meld: str = "sevens",
    by: str = "turn",
    bins: Sequence[int] | None = None,
    by_policy: bool = True,
    confidence: float = iv.CONFIDENCE,
) -> pd.DataFrame:
    """Completion rate and expected points of starting a ``meld``, grouped ``by`` 'turn',
    'held' or 'stock' (and by policy).

    Columns: [policy], the group, ``n``, ``completed``, ``completion``/``completion_low``/
    ``completion_high`` (Wilson), ``points``/``points_low``/``points_high`` (team score, normal),
    for sevens and aces ``meld_points``/``meld_points_low``/``meld_points_high``, and
    ``interval`` stating both methods.
    """
    if by not in BY_COLUMN:
        raise CanastaError(f"unknown grouping {by!r}: choose turn, held or stock")
    view = grouped_starts(records, meld, by, bins)
    keys = ["policy", by] if by_policy else [by]
    comp = iv.proportion_table(view, "completed", by=keys, confidence=confidence)
    pts = iv.mean_table(view, "score", by=keys, confidence=confidence)
    out = completion_columns(comp, keys)
    pts = pts.set_index(keys)
    idx = pd.MultiIndex.from_frame(out[keys]) if len(keys) > 1 else out[keys[0]]
    for src, dst in (("estimate", "points"), ("ci_low", "points_low"), ("ci_high", "points_high")):
        out[dst] = pts[src].reindex(idx).to_numpy()
    add_meld_points(out, meld)
    iv.label(out, iv.statements({"completion": iv.WILSON, "points": iv.NORMAL}, confidence))
    out.attrs["meld"] = meld
    return out.reset_index(drop=True)


def mixed_aces(
    records: pd.DataFrame, by_policy: bool = True, confidence: float = iv.CONFIDENCE
) -> pd.DataFrame:
    """Aces melds that took wilds in the initial meld (MELD-7), apart: how often a team's
    aces meld is mixed, their completion rate and the team's points."""
    require(
        records, team_columns(["aces_started_turn", "aces_completed", "aces_mixed"]), "mixed aces"
    )
    view = team_view(records)
    view = view[view["aces_started_turn"] >= 0].copy()
    view["mixed"] = view["aces_mixed"].astype(bool)
    view["completed"] = view["aces_completed"].astype(bool)
    keys = ["policy"] if by_policy else None
    share = iv.proportion_table(view, "mixed", by=keys, confidence=confidence)
    mixed = view[view["mixed"]]
    comp = iv.proportion_table(mixed, "completed", by=keys, confidence=confidence)
    pts = iv.mean_table(mixed, "score", by=keys, confidence=confidence)
    out = pd.DataFrame(
        {
            "aces_started": share["n"],
            "mixed": share["successes"],
            **iv.interval_columns(share, "mixed_share"),
        }
    )
    if keys:
        out.insert(0, "policy", share["policy"])
        comp = comp.set_index("policy").reindex(out["policy"]).reset_index()
        pts = pts.set_index("policy").reindex(out["policy"]).reset_index()
    out = out.assign(**iv.interval_columns(comp, "completion"))
    out = out.assign(**iv.interval_columns(pts, "points"))
    return iv.label(out, iv.statements({"shares": iv.WILSON, "points": iv.NORMAL}, confidence))


def penalties(
    records: pd.DataFrame, by_policy: bool = True, confidence: float = iv.CONFIDENCE
) -> pd.DataFrame:
    """SCORE-4 in-hand penalties: for sevens and for aces, the share of team-hands in which at
    least one player of the team paid it (Wilson), and its cost in points per team-hand,
    ``-1500 × players paying`` (normal). One row per (policy, rank)."""
    require(
        records,
        team_columns(["sevens_penalty_players", "aces_penalty_players"]),
        "in-hand penalties",
    )
    view = team_view(records)
    keys = ["policy"] if by_policy else None
    parts = []
    for rank in ("sevens", "aces"):
        v = view.assign(
            paid=view[f"{rank}_penalty_players"] > 0,
            cost=-HAND_PENALTY * view[f"{rank}_penalty_players"],
        )
        freq = iv.proportion_table(v, "paid", by=keys, confidence=confidence)
        cost = iv.mean_table(v, "cost", by=keys, confidence=confidence)
        part = pd.DataFrame(
            {
                "rank": rank,
                "n": freq["n"],
                "paid": freq["successes"],
                **iv.interval_columns(freq, "frequency"),
                **iv.interval_columns(cost, "cost"),
            }
        )
        if keys:
            part.insert(0, "policy", freq["policy"])
        parts.append(part)
    out = pd.concat(parts, ignore_index=True)
    return iv.label(out, iv.statements({"frequency": iv.WILSON, "cost": iv.NORMAL}, confidence))
