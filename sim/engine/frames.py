"""Per-hand records: the kernel's int64 rows as a pandas DataFrame (schema: docs/records.md)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.encoding import END_NAMES, RECORD_COLUMNS, SPECIAL_NAMES

__all__ = ["POLICY_COLUMNS", "records_frame"]

POLICY_COLUMNS = ("policy_team0", "policy_team1")  #: labels the DataFrame adds after hand_id
#: the DataFrame's columns, in order: the kernel's row (``RECORD_COLUMNS``) with the labels
FRAME_COLUMNS = (RECORD_COLUMNS[0], *POLICY_COLUMNS, *RECORD_COLUMNS[1:])


def records_frame(
    rows: np.ndarray, policy_team0: str, policy_team1: str, special_names=SPECIAL_NAMES
) -> pd.DataFrame:
    """DataFrame of record rows: codes named (end_reason, special_hand by ``special_names``,
    the list in force: ``Ruleset.special_names``), policies added."""
    # one constructor call: inserting the labels and names one by one cost ~1.7 ms for 64
    # rows (~1.1 ms now), which thousands of small runs feel
    rows = np.asarray(rows)
    n = rows.shape[0]
    cols = {name: rows[:, i] for i, name in enumerate(RECORD_COLUMNS)}
    # names as pandas' string type, the type the column-by-column assignment inferred
    # (``str`` in pandas 3, object before); as that assignment did, a label (one string for
    # every row) has the type even with no rows, and the names have it when there are rows
    text = pd.Series(["x"]).dtype
    arrow = _arrow_text(text)
    for name, names in (("end_reason", END_NAMES), ("special_hand", special_names)):
        if n > 0 and arrow:
            cols[name] = _arrow_names(text, names, cols[name])
        else:
            cols[name] = pd.Series(np.asarray(names, dtype=object)[cols[name]], copy=False).array
    for name, label in zip(POLICY_COLUMNS, (policy_team0, policy_team1), strict=True):
        if arrow:
            cols[name] = _arrow_names(text, (label,), np.zeros(n, dtype=np.int64))
        else:
            cols[name] = pd.array(np.full(n, label, dtype=object), dtype=text)
    return pd.DataFrame({name: cols[name] for name in FRAME_COLUMNS}, copy=False)


def _arrow_text(dtype) -> bool:
    """pandas' string type is stored by pyarrow (pandas 3's ``str``)."""
    return isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"


def _arrow_names(dtype, names, codes: np.ndarray):
    """``names[codes]`` as an array of the string type ``dtype``, built by pyarrow from the few
    names (converting a column of Python strings cost ~0.4 us a
    row, ~1% of a heuristic hand; the same values and types: tests/test_records_frames.py)."""
    import pyarrow as pa

    table = pa.array(list(names), type=pa.large_string())
    return dtype.__from_arrow__(table.take(pa.array(codes)))
