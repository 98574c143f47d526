"""Decision experiments in game terms: each arm scored by the chance of winning the game.

A decision experiment (``analysis.decisions``) plays both arms of a decision on the same deals
and keeps, per position, the used deals' outcomes (the team's points, the opponents', and a
hand that wins the game, SPECIAL-10). Read through the equity table (``analysis.equity``) from
the game scores, each deal's outcome becomes the team's chance of winning the game after the
hand (``analysis.equity.after_hand``; the next hand is opened by the other team, DEAL-1), and
a position's effect in game terms is the mean paired difference of those chances, A − B, over
its deals: the same unit, intervals and Holm correction as the points tables
(``analysis.decision_tables``), only the outcome differs.

**By score region, without replaying.** The policies read the scores only through the opening
minimum (OPEN-1), so a hand played with the two teams in opening tiers (a, b) would have been
played the same at every pair of scores in those tiers: its outcomes can be read through the
table at each of them. :func:`by_score` does so on a grid of score pairs (``LEVELS`` for each
team), using at each pair only the positions whose hands were played in its tiers (under
OPEN-1 by hand number the tiers do not depend on the scores: every position counts
everywhere). A region the experiment did not play in (its positions' scores: the spec's
``positions.scores``, ``canasta experiment --scores``) has no rows and no verdict. The cells'
p-values (Student's t over sampled hands, as the points tables) are adjusted together by Holm's
step-down method across every cell of every experiment asked: the cells share positions, so
their tests are positively dependent and Holm (valid under any dependence) is conservative.

The intervals carry the sampling error of the deals; the equity table's own error (at most
±0.33 percentage points at a cell for the default table, docs/equity.md) is left out: both
arms read the same table, so most of it cancels in the difference.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import intervals as iv
from analysis import multiple
from analysis.decision_tables import ALPHA, CORRECTION, MIN_HANDS, tables, verdicts
from analysis.experiment_set import experiments_of, resolve
from sim.errors import CanastaError

__all__ = ["LEVELS", "by_score", "chances", "game_tables", "score_changes"]

#: the game scores of :func:`by_score`'s grid, for each team (those below the target are used)
LEVELS = (-1000, 0, 1000, 2000, 2990, 3000, 4000, 4990, 5000, 6000, 7000, 7500, 8000, 8300)


def tier_scores(rules=None) -> tuple[int, ...]:
    """One score in each opening tier (OPEN-1: 0 and each threshold): positions given these
    in turn (``positions.scores``) cover every region of the grid."""
    from sim.legality.opening import OPEN_THRESHOLDS

    return (0, *OPEN_THRESHOLDS)


def _tier(scores, rules) -> np.ndarray:
    """OPEN-1: each score's opening tier (all 0 under OPEN-1 by hand number)."""
    from sim.legality.opening import OPEN_THRESHOLDS

    s = np.asarray(scores, dtype=np.int64)
    if rules.opening_minimum == "hand":
        return np.zeros_like(s)
    return sum((s >= x).astype(np.int64) for x in OPEN_THRESHOLDS)


def _played_in(part: pd.DataFrame, own: int, opp: int, rules) -> np.ndarray:
    """The rows of one experiment whose hands were played in the opening tiers of ``own``
    and ``opp`` (OPEN-1). A team that had opened at every position of the experiment (going
    out needs canastas) plays no opening minimum in those hands, so its tier is not asked:
    the positions of every tier count, and every cell still reads the same kind of position."""
    keep = np.ones(len(part), dtype=bool)
    for col, opened, s in (("score_own", "opened", own), ("score_opp", "opp_opened", opp)):
        if (part[opened].to_numpy() == 1).all():
            continue
        keep &= _tier(part[col].to_numpy(), rules) == _tier(s, rules)
    return keep


def _bare(raw: pd.DataFrame) -> pd.DataFrame:
    """``raw`` without its attrs (a shallow copy): pandas deep-copies attrs into every frame
    it derives, and the rows' attrs hold every sampled hand's summary."""
    out = raw.copy(deep=False)
    out.attrs = {}
    return out


def _check(raw: pd.DataFrame, table, rules) -> None:
    if "outcomes" not in raw.columns:
        raise CanastaError(
            "these decision rows keep no deal outcomes (analysis.decisions.run_experiments "
            "keeps them): they cannot be read in game terms"
        )
    if table.target != rules.target:
        raise CanastaError(
            f"the equity table is for target {table.target:,}, the rules' is {rules.target:,}"
        )


def _team_chance(table, team, first_team, own, opp, pts) -> np.ndarray:
    """The team's chance of winning the game after each deal: ``pts`` int[k, 3] (the team's
    points, the opponents', ±1 a game-winning hand by the team/the opponents), from scores
    ``own``/``opp`` (arrays or numbers), per deal's team and first team of its hand."""
    from analysis.equity import after_hand

    out = np.empty(len(pts))
    own = np.broadcast_to(np.asarray(own, dtype=np.int64), (len(pts),))
    opp = np.broadcast_to(np.asarray(opp, dtype=np.int64), (len(pts),))
    for t in (0, 1):
        for f in (0, 1):
            m = (team == t) & (first_team == f)
            if not m.any():
                continue
            p = pts[m]
            won = p[:, 2]
            winner = np.where(won == 1, t, np.where(won == -1, 1 - t, -1))
            if t == 0:
                s, d0, d1 = (own[m], opp[m]), p[:, 0], p[:, 1]
            else:
                s, d0, d1 = (opp[m], own[m]), p[:, 1], p[:, 0]
            w = after_hand(table, s, 1 - f, d0, d1, winner)  # DEAL-1: the other team next
            out[m] = w if t == 0 else 1 - w
    return out


def _row_means(rows: pd.DataFrame, table, own=None, opp=None) -> pd.DataFrame:
    """Per row: each arm's mean chance (``net_a``, ``net_b``) and their paired mean
    difference (``diff``) over the row's deals, at the row's own scores (``own``/``opp``
    None) or at the given ones."""
    outs = list(rows["outcomes"])
    lens = np.array([o.shape[1] for o in outs], dtype=np.int64)
    res = pd.DataFrame({"diff": np.nan, "net_a": np.nan, "net_b": np.nan}, index=rows.index)
    if not lens.sum():
        return res
    cat = np.concatenate(outs, axis=1).astype(np.int64)  # [arm, deal, 3]
    which = np.repeat(np.arange(len(rows)), lens)
    team = rows["team"].to_numpy()[which]
    first = rows["first_team"].to_numpy()[which]
    s_own = rows["score_own"].to_numpy()[which] if own is None else own
    s_opp = rows["score_opp"].to_numpy()[which] if opp is None else opp
    a = _team_chance(table, team, first, s_own, s_opp, cat[0])
    b = _team_chance(table, team, first, s_own, s_opp, cat[1])
    n = np.maximum(lens, 1)
    k = len(rows)
    with np.errstate(invalid="ignore"):
        res["net_a"] = np.where(lens > 0, np.bincount(which, a, k) / n, np.nan)
        res["net_b"] = np.where(lens > 0, np.bincount(which, b, k) / n, np.nan)
        res["diff"] = np.where(lens > 0, np.bincount(which, a - b, k) / n, np.nan)
    return res


def chances(raw: pd.DataFrame, table, rules=None, scores=None) -> pd.DataFrame:
    """The rows of ``raw`` (``analysis.decisions.run_experiments``) in game terms: ``diff``,
    ``net_a`` and ``net_b`` become the team's chance of winning the game after the hand (arm
    A minus arm B, each arm), read through ``table`` at the row's scores, or at ``scores``
    (the team's, the opponents') for the rows played in the same opening tiers (the others
    are dropped); the points stay as ``points_diff``, ``points_a``, ``points_b``."""
    from sim.ruleset import as_ruleset

    rules = as_ruleset(rules)
    _check(raw, table, rules)
    kept = {k: v for k, v in raw.attrs.items() if k != "hands"}
    raw = _bare(raw)
    rows = raw
    if scores is not None:
        from sim.finished import check_game_start

        # GAME-1: a tie at or over the target plays another hand
        own, opp = check_game_start(scores, table.target, teams=("your team", "the opponents"))
        keep = np.zeros(len(raw), dtype=bool)
        for key in dict.fromkeys(raw["experiment"]):
            mine = (raw["experiment"] == key).to_numpy()
            keep[mine] = _played_in(raw[mine], own, opp, rules)
        rows = raw[keep]
    else:
        own = opp = None
    means = _row_means(rows, table, own, opp)
    out = rows.assign(points_diff=rows["diff"], points_a=rows["net_a"], points_b=rows["net_b"])
    out[["diff", "net_a", "net_b"]] = means[["diff", "net_a", "net_b"]]
    if "info_a" in out.columns:
        out[["info_a", "info_b"]] = _informed(out, experiments_of(rows))
    out.attrs = kept
    out.attrs["game_scores"] = None if scores is None else (own, opp)
    return out


def _informed(rows: pd.DataFrame, experiments) -> np.ndarray:
    """float[rows, 2]: the information arm's chance minus arm A's and minus arm B's per row
    (``info_a``, ``info_b`` in game terms). A row of an information experiment holds the
    deals of one value of the told feature, so the informed arm plays A in all of them (the
    value in its range: 0 and ``diff``) or B in all (``−diff`` and 0); rows of another
    experiment, not split by the value, or of no deal (the choice never made: no ``diff``,
    as in points) have none."""
    out = np.full((len(rows), 2), np.nan)
    diff = rows["diff"].to_numpy(dtype=np.float64)
    for exp in experiments:
        info = exp.information
        if info is None:
            continue
        mine = (rows["experiment"] == exp.key).to_numpy() & rows["split"].astype(bool).to_numpy()
        mine &= np.isfinite(diff)
        value = rows[info.knows].to_numpy()
        knows = (value >= info.low) & (value <= info.high)
        out[mine, 0] = np.where(knows, 0.0, -diff)[mine]
        out[mine, 1] = np.where(knows, diff, 0.0)[mine]
    return out


def game_tables(raw: pd.DataFrame, table, rules=None, scores=None) -> dict[str, pd.DataFrame]:
    """The decision tables of ``raw`` (``analysis.decisions.tables``) in game terms
    (:func:`chances`): every estimate a difference of chances of winning the game (A − B),
    Holm across every row of every table."""
    g = chances(raw, table, rules, scores)
    out = tables(g, experiments=experiments_of(raw))
    where = "the positions' own scores" if scores is None else f"scores {scores[0]},{scores[1]}"
    for t in out.values():
        t.attrs["game"] = (
            f"the team's chance of winning the game after the hand, at {where} "
            f"({table.meta.get('ruleset_label', '')}; equity table of "
            f"{' vs '.join(table.meta.get('policy_labels', []))})"
        )
    return out


class _Deals:
    """One experiment's rows as arrays, for reading them at many pairs of scores: every
    deal's outcomes in one array, its row, and each row's hand (the unit of the interval)."""

    def __init__(self, part: pd.DataFrame):
        outs = list(part["outcomes"])
        self.lens = np.array([o.shape[1] for o in outs], dtype=np.int64)
        self.k = len(part)
        self.which = np.repeat(np.arange(self.k), self.lens)
        cat = [o for o in outs if o.shape[1]]
        self.cat = np.concatenate(cat, axis=1).astype(np.int64) if cat else np.zeros((2, 0, 3))
        self.team = part["team"].to_numpy()[self.which]
        self.first = part["first_team"].to_numpy()[self.which]
        self.hand, _ = pd.factorize(part["hand"])
        self.deals = part["deals"].to_numpy(dtype=np.float64)
        self.points = part["diff"].to_numpy(dtype=np.float64)
        self.split = bool(part["split"].astype(bool).any())
        self.part = part

    def played_in(self, own: int, opp: int, rules) -> np.ndarray:
        """:func:`_played_in`, its tiers read once per experiment."""
        if not hasattr(self, "_tiers"):
            p = self.part
            self._tiers = [
                (None if (p[o].to_numpy() == 1).all() else _tier(p[c].to_numpy(), rules))
                for c, o in (("score_own", "opened"), ("score_opp", "opp_opened"))
            ]
        keep = np.ones(self.k, dtype=bool)
        for tiers, s in zip(self._tiers, (own, opp), strict=True):
            if tiers is not None:
                keep &= tiers == _tier(s, rules)
        return keep

    def cell(self, table, keep: np.ndarray, own: int, opp: int, confidence: float) -> dict:
        """The mean over sampled hands of the hands' mean chance difference A − B at ``own``
        and ``opp`` (a hand is the unit, as in the points tables), over the rows ``keep``;
        and the points of the same rows."""
        rows = keep & (self.lens > 0)
        if not rows.any():
            return {"positions": 0, "hands": 0}
        d = rows[self.which]
        pts = self.cat[:, d]
        a = _team_chance(table, self.team[d], self.first[d], own, opp, pts[0])
        b = _team_chance(table, self.team[d], self.first[d], own, opp, pts[1])
        diff = np.bincount(self.which[d], a - b, self.k)[rows] / self.lens[rows]
        hand, points = self.hand[rows], self.points[rows]
        w = self.deals[rows] if self.split else np.ones(len(diff))
        # rows of one position split by a hidden feature: weighted by their deals
        n_h = np.bincount(hand, w)
        used = n_h > 0
        per = (np.bincount(hand, w * diff) / np.where(used, n_h, 1))[used]
        per_pts = (np.bincount(hand, w * points) / np.where(used, n_h, 1))[used]
        e = iv.mean(per, confidence)
        p = iv.mean(per_pts, confidence)
        return {
            "positions": int(rows.sum()),
            "hands": len(per),
            "estimate": e.estimate,
            "ci_low": e.ci_low,
            "ci_high": e.ci_high,
            "se": e.se,
            "points": p.estimate,
            "points_low": p.ci_low,
            "points_high": p.ci_high,
        }


def by_score(
    raw: pd.DataFrame,
    table,
    rules=None,
    levels=LEVELS,
    experiments=None,
    confidence: float = iv.CONFIDENCE,
    alpha: float = ALPHA,
) -> pd.DataFrame:
    """Each experiment's effect in game terms at every pair of ``levels`` (the team's score,
    the opponents'), from the hands played in that pair's opening tiers: one row per
    (experiment, cell) with the mean chance difference A − B over sampled hands, its
    interval, Student's t p-value and the Holm-adjusted one across every cell of every
    experiment, the verdict (+1 A, −1 B, 0 none), and the points effect of the same rows."""
    from sim.ruleset import as_ruleset

    rules = as_ruleset(rules)
    _check(raw, table, rules)
    chosen = experiments_of(raw) if experiments is None else resolve(experiments)
    raw = _bare(raw)
    levels = [int(x) for x in levels if int(x) < table.target]
    if not levels:
        raise CanastaError(f"levels: none below the target {table.target:,}")
    out = []
    for exp in chosen:
        part = raw[raw["experiment"] == exp.key]
        if part.empty:
            continue
        deals = _Deals(part)
        for own in levels:
            for opp in levels:
                keep = deals.played_in(own, opp, rules)
                cell = {"experiment": exp.key, "score_own": own, "score_opp": opp}
                cell |= deals.cell(table, keep, own, opp, confidence)
                out.append(cell)
    cols = [
        "experiment",
        "score_own",
        "score_opp",
        "positions",
        "hands",
        "estimate",
        "ci_low",
        "ci_high",
        "se",
        "points",
        "points_low",
        "points_high",
    ]
    df = pd.DataFrame(out).reindex(columns=cols)
    df[["positions", "hands"]] = df[["positions", "hands"]].fillna(0).astype(int)
    p = multiple.t_p(df["estimate"].fillna(0), df["se"].fillna(np.inf), df["hands"] - 1)
    p[(df["hands"].to_numpy() < MIN_HANDS) | ~np.isfinite(df["estimate"].to_numpy())] = np.nan
    df["p"] = p
    tested = np.isfinite(p)
    adj = np.full(len(df), np.nan)
    if tested.any():
        adj[tested] = multiple.adjust(p[tested], CORRECTION)
    df["p_adj"] = adj
    df["verdict"] = verdicts(df["estimate"].fillna(0), adj, alpha)
    by_key = {e.key: e for e in chosen}
    df["better"] = [
        {1: by_key[k].do, -1: by_key[k].dont}.get(int(v), "no clear difference")
        for k, v in zip(df["experiment"], df["verdict"], strict=True)
    ]
    df.attrs |= {
        "interval": f"{iv.statement(iv.NORMAL, confidence)} over sampled hands",
        "correction": f"{multiple.METHODS[CORRECTION]}, alpha {alpha:g}, across "
        f"{int(tested.sum())} cells (score pairs × experiments)",
        "ruleset": table.meta.get("ruleset_label", ""),
        "policies": " vs ".join(table.meta.get("policy_labels", [])),
    }
    return df


def cell_fields(prefix: str, cell: pd.Series, estimate: str) -> dict:
    """One score cell of a grid as the columns of a summary row: ``{prefix}_own``/``_opp``
    (its scores), ``_est`` (its ``estimate`` column) and ``_low``/``_high`` (its interval)."""
    return {
        f"{prefix}_own": int(cell["score_own"]),
        f"{prefix}_opp": int(cell["score_opp"]),
        f"{prefix}_est": cell[estimate],
        f"{prefix}_low": cell["ci_low"],
        f"{prefix}_high": cell["ci_high"],
    }


def score_changes(cells: pd.DataFrame) -> pd.DataFrame:
    """The experiments whose verdict changes with the score (:func:`by_score` rows): one row
    each with the cells tested and those favouring A, favouring B, or neither, ``kind``:
    'reverses' (some cells favour A, some B), 'depends' (some cells confirm an arm, others do
    not), 'same' (one arm confirmed wherever tested), 'none' (no cell clear either way: no
    verdict at any score, which is not a verdict that holds everywhere) or 'untested' (no
    cell with enough hands), and the cell of the largest confirmed
    effect each way (``a_own``, ``a_opp``, ``a_est``, ``a_low``, ``a_high``; ``b_...``)."""
    rows = []
    for key, part in cells.groupby("experiment", sort=False):
        tested = part[np.isfinite(part["p_adj"].to_numpy())]
        a, b = int((tested["verdict"] > 0).sum()), int((tested["verdict"] < 0).sum())
        none = len(tested) - a - b
        if a and b:
            kind = "reverses"
        elif a or b:
            kind = "depends" if none else "same"
        else:
            kind = "none" if none else "untested"
        row = {
            "experiment": key,
            "cells": len(tested),
            "favour_a": a,
            "favour_b": b,
            "neither": none,
            "kind": kind,
        }
        for arm, sign in (("a", 1), ("b", -1)):
            side = tested[tested["verdict"] == sign]
            if len(side):
                row |= cell_fields(arm, side.loc[(side["estimate"] * sign).idxmax()], "estimate")
        rows.append(row)
    cols = ["experiment", "cells", "favour_a", "favour_b", "neither", "kind"]
    cols += [f"{arm}_{x}" for arm in "ab" for x in ("own", "opp", "est", "low", "high")]
    out = pd.DataFrame(rows).reindex(columns=cols)
    out.attrs |= dict(cells.attrs)
    return out
