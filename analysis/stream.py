"""The report's record tables from records that arrive chunk by chunk, in flat memory.

Every record table of the report is made of counts, sums and sums of squares of integers per
group (a policy, a started-turn bin, a matchup...), and those add up exactly across chunks. A
:class:`Tally` takes the records of any number of runs chunk by chunk (:meth:`Tally.add`),
keeps only those per-group sums (a few hundred rows whatever the number of hands) and turns
them into the tables (:meth:`Tally.tables`) that the in-memory functions give for all the
records at once:

===================  ==================================================================
table                the in-memory function it equals
===================  ==================================================================
special_frequency    ``special.special_frequency(records)``
special_by_turn      ``special.special_by_turn(records)``
{m}_by_turn/_held    ``risk.meld_risk(records, m, by=...)`` for sevens, aces (wild by turn)
penalties            ``risk.penalties(records)``
mixed_aces           ``risk.mixed_aces(records)``
scores, net          ``intervals.mean_table(team_view(records), 'score'|'net', by='policy')``
end_reasons          the report's share of hands per end reason and matchup
===================  ==================================================================

Counts are equal exactly, and so are means (a sum of integers is exact). A standard error
comes here from the exact integer moments ``(n·Σx² − (Σx)²) / (n(n−1))`` and in pandas from
its online variance: they agree to about 1e-15 relative (tests/test_report_memory.py checks
1e-12). Values must be integers (scores, turns, counts): they are in the record schema.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from analysis import intervals as iv
from analysis import risk
from analysis.schema import HAND_COLUMNS, matchups, require, team_columns, team_view
from analysis.special import HANDS
from sim.errors import CanastaError

__all__ = ["REPORT_COLUMNS", "Tally", "run_chunks_on_disk"]

#: the report's record tables, in the order :meth:`Tally.tables` returns them
TABLES = (
    "special_frequency",
    "special_by_turn",
    "sevens_by_turn",
    "sevens_by_held",
    "aces_by_turn",
    "aces_by_held",
    "penalties",
    "mixed_aces",
    "wild_by_turn",
    "scores",
    "net",
    "end_reasons",
)
MELD_TABLES = (
    ("sevens", "turn"),
    ("sevens", "held"),
    ("aces", "turn"),
    ("aces", "held"),
    ("wild", "turn"),
)
#: per-team fields the report's tables read (the rest of a record is not needed)
REPORT_TEAM_FIELDS = (
    "special_hand",
    *(f"{m}_{x}" for x in ("started_turn", "completed") for m in risk.MELD_KINDS),
    "aces_mixed",
    *(f"{r}_{x}" for x in ("penalty_players", "started_held") for r in ("sevens", "aces")),
)
#: every column the report's tables read; the rest of a record can be dropped as it arrives
REPORT_COLUMNS = (*HAND_COLUMNS, "special_team", *team_columns(REPORT_TEAM_FIELDS))


# ---------------------------------------------------------------------------------------
# Per-group sums of one chunk, and their combination
# ---------------------------------------------------------------------------------------
def _ints(values, what: str) -> np.ndarray:
    """Integer values as int64 (sums of them are exact); a non-integer is refused."""
    x = np.asarray(values)
    if x.dtype.kind in "iub":
        return x.astype(np.int64)
    x = x.astype(np.float64)
    if not np.all(np.isfinite(x)) or not np.array_equal(x, np.round(x)):
        raise CanastaError(f"{what}: a chunked tally needs integer values")
    return x.astype(np.int64)


def group_sums(
    frame: pd.DataFrame,
    keys: Sequence[str],
    counts: dict[str, object] | None = None,
    moments: dict[str, object] | None = None,
) -> pd.DataFrame:
    """Per group of ``keys``: ``n`` rows, the number of true values of each ``counts`` flag,
    and ``<name>_sum``/``<name>_sq`` (sum and sum of squares) of each integer ``moments``
    column. Add two such tables with :func:`add_sums`."""
    data = pd.DataFrame({k: frame[k] for k in keys}, index=frame.index)
    data["n"] = np.ones(len(frame), dtype=np.int64)
    for name, flag in (counts or {}).items():
        data[name] = np.asarray(flag, dtype=bool).astype(np.int64)
    for name, values in (moments or {}).items():
        x = _ints(values, name)
        data[f"{name}_sum"] = x
        data[f"{name}_sq"] = x * x
    out = data.groupby(list(keys), observed=True, sort=True).sum()
    return out.reset_index()


def add_sums(a: pd.DataFrame | None, b: pd.DataFrame) -> pd.DataFrame:
    """Two :func:`group_sums` tables (same keys) added group by group."""
    if a is None:
        return b
    keys = [c for c in a.columns if c not in _value_columns(a)]
    both = pd.concat([a, b], ignore_index=True)
    return both.groupby(keys, observed=True, sort=True).sum().reset_index()


def _value_columns(t: pd.DataFrame) -> list[str]:
    i = list(t.columns).index("n")
    return list(t.columns[i:])


def _moments(t: pd.DataFrame, name: str, n: str = "n"):
    """(estimate, se) arrays as ``intervals.mean_table`` makes them, from exact sums."""
    est, sd = [], []
    for k, s, q in zip(
        t[n].tolist(), t[f"{name}_sum"].tolist(), t[f"{name}_sq"].tolist(), strict=True
    ):
        k, s, q = int(k), int(s), int(q)
        est.append(s / k if k else math.nan)
        # exact integer numerator; Python's int / int rounds the exact quotient once
        sd.append(math.sqrt((k * q - s * s) / (k * (k - 1))) if k > 1 else math.nan)
    n_arr = t[n].to_numpy(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.asarray(sd, dtype=np.float64) / np.sqrt(n_arr)
    return np.asarray(est, dtype=np.float64), se


def _mean_columns(t: pd.DataFrame, name: str, confidence: float, n: str = "n"):
    est, se = _moments(t, name, n)
    half = iv.z_value(confidence) * se
    return est, se, est - half, est + half


# ---------------------------------------------------------------------------------------
# What each table keeps of a chunk
# ---------------------------------------------------------------------------------------
def _partials(records: pd.DataFrame) -> dict[str, dict[str, pd.DataFrame] | CanastaError]:
    """Each table's per-group sums of ``records`` (or the CanastaError the in-memory function
    raises on them: a missing column)."""
    out: dict[str, dict[str, pd.DataFrame] | CanastaError] = {}

    def attempt(key, fn):
        try:
            out[key] = fn()
        except CanastaError as exc:
            out[key] = exc

    view = None

    def the_view():
        nonlocal view
        if view is None:
            view = team_view(records)
        return view

    def special_frequency():
        require(records, ["team0_special_hand", "team1_special_hand"], "special-hand frequency")
        v = the_view()
        flags = {
            h: v["declared_special"] & (True if h == "any" else v["special_name"].eq(h))
            for h in HANDS
        }
        return {"": group_sums(v, ["policy"], counts=flags)}

    def special_by_turn():
        require(records, ["team0_special_hand", "team1_special_hand"], "the special-hand curve")
        v = the_view()
        declared = v[v["declared_special"].to_numpy(bool)]
        return {"n": group_sums(v, ["policy"]), "turns": group_sums(declared, ["policy", "turns"])}

    def meld(m, by):
        v = risk.grouped_starts(records, m, by, view=the_view())
        return {
            "": group_sums(
                v,
                ["policy", by],
                counts={"completed": v["completed"]},
                moments={"score": v["score"]},
            )
        }

    def penalties():
        require(
            records,
            team_columns(["sevens_penalty_players", "aces_penalty_players"]),
            "in-hand penalties",
        )
        v = the_view()
        counts, moments = {}, {}
        for rank in ("sevens", "aces"):
            players = v[f"{rank}_penalty_players"]
            counts[f"{rank}_paid"] = players > 0
            moments[f"{rank}_cost"] = -risk.HAND_PENALTY * _ints(players, "penalty players")
        return {"": group_sums(v, ["policy"], counts=counts, moments=moments)}

    def mixed_aces():
        require(
            records,
            team_columns(["aces_started_turn", "aces_completed", "aces_mixed"]),
            "mixed aces",
        )
        v = the_view()
        v = v[v["aces_started_turn"].to_numpy() >= 0]
        mixed = v["aces_mixed"].astype(bool).to_numpy()
        done = v["aces_completed"].astype(bool).to_numpy()
        score = np.where(mixed, _ints(v["score"], "score"), 0)  # sums over mixed melds only
        sums = group_sums(
            v,
            ["policy"],
            counts={"mixed": mixed, "mixed_completed": mixed & done},
            moments={"mixed_score": score},
        )
        return {"": sums}

    def scores():
        v = the_view()
        return {"": group_sums(v, ["policy"], moments={"score": v["score"], "net": v["net"]})}

    def end_reasons():
        matchup = matchups(records).to_numpy()
        frame = pd.DataFrame({"matchup": matchup, "end_reason": records["end_reason"].astype(str)})
        return {"": group_sums(frame, ["matchup", "end_reason"])}

    require(records, HAND_COLUMNS, "a team view")
    attempt("special_frequency", special_frequency)
    attempt("special_by_turn", special_by_turn)
    for m, by in MELD_TABLES:
        attempt(f"{m}_by_{by}", lambda m=m, by=by: meld(m, by))
    attempt("penalties", penalties)
    attempt("mixed_aces", mixed_aces)
    attempt("scores", scores)
    attempt("end_reasons", end_reasons)
    return out


# ---------------------------------------------------------------------------------------
# Tables from the sums, shaped like the in-memory functions' output
# ---------------------------------------------------------------------------------------
def _special_frequency(s, confidence):
    t = s[""]
    parts = []
    for h in HANDS:
        part = iv.from_counts(t[h], t["n"], confidence, policy=t["policy"])
        part.insert(1, "special_hand", h)
        parts.append(part)
    return pd.concat(parts, ignore_index=True).sort_values(
        ["policy", "special_hand"], kind="stable"
    )


def _special_by_turn(s, confidence):
    n, when = s["n"], s["turns"]
    max_turn = int(when["turns"].max()) if len(when) else 1
    turns = np.arange(1, max_turn + 1)
    parts = []
    for policy, size in zip(n["policy"].tolist(), n["n"].tolist(), strict=True):
        w = when[when["policy"] == policy]
        per_turn = np.zeros(max_turn + 1, dtype=np.int64)
        np.add.at(per_turn, w["turns"].to_numpy(np.int64), w["n"].to_numpy(np.int64))
        hits = np.cumsum(per_turn)[1:]
        parts.append(
            iv.from_counts(hits, np.full(turns.size, size), confidence, policy=policy, turn=turns)
        )
    return pd.concat(parts, ignore_index=True)


def _meld(s, meld, by, confidence):
    t = s[""]
    keys = ["policy", by]
    comp = iv.from_counts(t["completed"], t["n"], confidence, **{k: t[k] for k in keys})
    out = risk.completion_columns(comp, keys)
    out["points"], _, out["points_low"], out["points_high"] = _mean_columns(t, "score", confidence)
    risk.add_meld_points(out, meld)
    iv.label(out, iv.statements({"completion": iv.WILSON, "points": iv.NORMAL}, confidence))
    out.attrs["meld"] = meld
    return out.reset_index(drop=True)


def _penalties(s, confidence):
    t = s[""]
    parts = []
    for rank in ("sevens", "aces"):
        freq = iv.from_counts(t[f"{rank}_paid"], t["n"], confidence, policy=t["policy"])
        est, _, low, high = _mean_columns(t, f"{rank}_cost", confidence)
        part = pd.DataFrame(
            {
                "rank": rank,
                "n": freq["n"],
                "paid": freq["successes"],
                "frequency": freq["estimate"],
                "frequency_low": freq["ci_low"],
                "frequency_high": freq["ci_high"],
                "cost": est,
                "cost_low": low,
                "cost_high": high,
            }
        )
        part.insert(0, "policy", freq["policy"])
        parts.append(part)
    out = pd.concat(parts, ignore_index=True)
    methods = {"frequency": iv.WILSON, "cost": iv.NORMAL}
    iv.label(out, iv.statements(methods, confidence))
    return out


def _mixed_aces(s, confidence):
    t = s[""]
    share = iv.from_counts(t["mixed"], t["n"], confidence, policy=t["policy"])
    out = pd.DataFrame(
        {
            "aces_started": share["n"],
            "mixed": share["successes"],
            "mixed_share": share["estimate"],
            "mixed_share_low": share["ci_low"],
            "mixed_share_high": share["ci_high"],
        }
    )
    out.insert(0, "policy", share["policy"])
    none = t["mixed"].to_numpy() == 0  # no mixed meld: the in-memory table has no group, NaN
    p, low, high = iv.wilson_bounds(t["mixed_completed"], t["mixed"], confidence)
    out["completion"] = np.where(none, np.nan, p)
    out["completion_low"] = np.where(none, np.nan, low)
    out["completion_high"] = np.where(none, np.nan, high)
    est, _, lo, hi = _mean_columns(t, "mixed_score", confidence, n="mixed")
    out["points"], out["points_low"], out["points_high"] = est, lo, hi
    methods = {"shares": iv.WILSON, "points": iv.NORMAL}
    iv.label(out, iv.statements(methods, confidence))
    return out


def _mean_table(s, value, confidence):
    t = s[""]
    est, se, low, high = _mean_columns(t, value, confidence)
    out = pd.DataFrame({"policy": t["policy"], "n": t["n"], "estimate": est, "se": se})
    out["ci_low"], out["ci_high"] = low, high
    iv.label(out, iv.statement(iv.NORMAL, confidence))
    return out


def _end_reasons(s, confidence):
    t = s[""]
    total = t.groupby("matchup", sort=True)["n"].sum()
    parts = []
    for reason in sorted(t["end_reason"].unique()):
        hits = t[t["end_reason"] == reason].set_index("matchup")["n"]
        hits = hits.reindex(total.index, fill_value=0)
        part = iv.from_counts(
            hits.to_numpy(), total.to_numpy(), confidence, matchup=total.index.to_numpy()
        )
        part.insert(1, "end_reason", reason)
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


_FINISH: dict[str, Callable] = {
    "special_frequency": _special_frequency,
    "special_by_turn": _special_by_turn,
    "penalties": _penalties,
    "mixed_aces": _mixed_aces,
    "scores": lambda s, c: _mean_table(s, "score", c),
    "net": lambda s, c: _mean_table(s, "net", c),
    "end_reasons": _end_reasons,
    **{f"{m}_by_{by}": (lambda s, c, m=m, by=by: _meld(s, m, by, c)) for m, by in MELD_TABLES},
}


def _same_schema(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """The same columns in the same order with the same types (categories included)."""
    return a.columns.equals(b.columns) and a.dtypes.equals(b.dtypes)


class Tally:
    """Per-group sums of the report's record tables, fed chunk by chunk (see the module).

    ``add(records)`` takes any rows of any run (a chunk of a run, a whole run); the order and
    the cut into chunks do not matter. ``tables()`` gives ``(tables, notes)`` like the
    report's in-memory analysis: a table the records cannot give (a column missing) is left
    out and its note says why, in the in-memory function's words.

    Chunks smaller than ``buffer_rows`` are held until that many rows of the same columns and
    types have arrived, then summed together: a chunk's sums cost ~0.1 s whatever its size
    (pandas' fixed cost per group-by), and memory stays bounded by the buffer. The sums are
    exact, so buffering changes no table (tests/test_report_memory.py); ``buffer_rows=0``
    sums every chunk as it arrives.
    """

    def __init__(self, confidence: float = iv.CONFIDENCE, buffer_rows: int = 4096):
        if (
            isinstance(buffer_rows, bool)
            or not isinstance(buffer_rows, int | np.integer)
            or buffer_rows < 0
        ):
            raise CanastaError(f"buffer_rows must be a non-negative integer, got {buffer_rows!r}")
        self.confidence = confidence
        self.buffer_rows = int(buffer_rows)
        self.hands = 0
        self._sums: dict[str, dict[str, pd.DataFrame]] = {}
        self._notes: dict[str, str] = {}
        self._buffer: list[pd.DataFrame] = []
        self._buffered = 0

    def add(self, records: pd.DataFrame) -> None:
        if len(records) == 0:
            return
        self.hands += len(records)
        if self._buffer and not _same_schema(self._buffer[0], records):
            self._flush()  # concatenating other columns or types would change the tables
        self._buffer.append(records)
        self._buffered += len(records)
        if self._buffered >= self.buffer_rows:
            self._flush()

    def _flush(self) -> None:
        if not self._buffer:
            return
        chunks, self._buffer, self._buffered = self._buffer, [], 0
        records = chunks[0] if len(chunks) == 1 else pd.concat(chunks, ignore_index=True)
        self._sum(records)

    def _sum(self, records: pd.DataFrame) -> None:
        for key, part in _partials(records).items():
            if isinstance(part, CanastaError):
                self._notes.setdefault(key, str(part))
                continue
            mine = self._sums.setdefault(key, {})
            for name, t in part.items():
                mine[name] = add_sums(mine.get(name), t)

    def tables(self) -> tuple[dict[str, pd.DataFrame], dict[str, str]]:
        self._flush()
        tables, notes = {}, {}
        for key in TABLES:
            source = "scores" if key == "net" else key  # one tally gives both mean tables
            if source in self._notes:
                notes[key] = self._notes[source]
            elif source in self._sums:
                tables[key] = _FINISH[key](self._sums[source], self.confidence)
        return tables, notes


# ---------------------------------------------------------------------------------------
# A run directory chunk by chunk
# ---------------------------------------------------------------------------------------
def run_chunks_on_disk(path: str | Path, columns: Sequence[str] | None = None) -> Iterator:
    """The chunks of a run directory (``canasta simulate --out``), in id order, one
    DataFrame at a time with only ``columns`` (those the files hold); an unfinished run is
    refused like ``sim.load`` refuses it."""
    from sim.store import iter_chunks, read_meta

    meta = read_meta(path)
    id_column = meta["settings"].get("id_column")
    for table in iter_chunks(path, None if columns is None else list(columns)):
        df = table.to_pandas()
        if id_column and id_column in df.columns:
            df = df.sort_values(id_column, kind="stable", ignore_index=True)
        df.attrs["run"] = {k: v for k, v in meta.items() if k != "chunks"}
        yield df
