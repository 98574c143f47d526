"""Per-hand records: the kernel's int64 rows as a pandas DataFrame (schema: docs/records.md)."""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pandas as pd

from sim.encoding import END_NAMES, RECORD_COLUMNS, SPECIAL_NAMES

__all__ = ["POLICY_COLUMNS", "records_frame"]

POLICY_COLUMNS = ("policy_team0", "policy_team1")  #: labels the DataFrame adds after hand_id
#: the DataFrame's columns, in order: the kernel's row (``RECORD_COLUMNS``) with the labels
FRAME_COLUMNS = (RECORD_COLUMNS[0], *POLICY_COLUMNS, *RECORD_COLUMNS[1:])
_CODED = ("end_reason", "special_hand")  #: the row's code columns the frame names
#: the row's numeric columns (every one but the codes) and where each sits in the frame
_NUMERIC = np.array([i for i, c in enumerate(RECORD_COLUMNS) if c not in _CODED], dtype=np.intp)
_NUMERIC_AT = np.array([FRAME_COLUMNS.index(RECORD_COLUMNS[i]) for i in _NUMERIC], dtype=np.intp)


def records_frame(
    rows: np.ndarray, policy_team0: str, policy_team1: str, special_names=SPECIAL_NAMES
) -> pd.DataFrame:
    """DataFrame of record rows: codes named (end_reason, special_hand by ``special_names``,
    the list in force: ``Ruleset.special_names``), policies added."""
    rows = np.asarray(rows)
    n = rows.shape[0]
    # names as pandas' string type, the type the column-by-column assignment inferred
    # (``str`` in pandas 3, object before); as that assignment did, a label (one string for
    # every row) has the type even with no rows, and the names have it when there are rows
    text = _text_dtype()
    arrow = _arrow_text(text)
    from_blocks = _from_blocks()
    if n > 0 and arrow and from_blocks is not None:
        # the frame laid out as blocks: the numeric columns one 2-D block, each text column
        # one array. The constructor from a dict of columns sanitized each of the 65 apart
        # (~0.45 ms a call, ~5% of a 300-hand chunk of the heuristic); the same values,
        # dtypes and order (tests/test_records_frames.py)
        blocks = [(rows.T[_NUMERIC], _NUMERIC_AT)]
        for name, names in zip(_CODED, (END_NAMES, special_names), strict=True):
            codes = rows[:, RECORD_COLUMNS.index(name)]
            blocks.append((_arrow_names(text, names, codes), _placement(name)))
        for name, label in zip(POLICY_COLUMNS, (policy_team0, policy_team1), strict=True):
            blocks.append((text.__from_arrow__(_label_column(label, n)), _placement(name)))
        return from_blocks(blocks, index=pd.RangeIndex(n), columns=_columns())
    # one constructor call: inserting the labels and names one by one cost ~1.7 ms for 64
    # rows (~1.1 ms now), which thousands of small runs feel
    cols = {name: rows[:, i] for i, name in enumerate(RECORD_COLUMNS)}
    for name, names in zip(_CODED, (END_NAMES, special_names), strict=True):
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


def _text_dtype():
    """The type pandas infers for a column of strings: by its option ``future.infer_string``
    (read through the public ``pandas.get_option``, its deprecation warning in pandas 3
    silenced), inferred once for each value of it (a Series made for it cost ~0.15 ms a
    records frame)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # pandas 3's Pandas4Warning
        try:
            option = bool(pd.get_option("future.infer_string"))
        except (KeyError, pd.errors.OptionError):  # a pandas without the option
            return pd.Series(["x"]).dtype
    return _text_dtype_under(option)


@functools.cache
def _text_dtype_under(option: bool):
    """``pd.Series(["x"]).dtype`` while the option is ``option``."""
    return pd.Series(["x"]).dtype


@functools.cache
def _from_blocks():
    """pandas' constructor of a frame from its blocks (``pandas.api.internals``, pandas 3), or
    None where this pandas has none."""
    try:
        from pandas.api.internals import create_dataframe_from_blocks
    except ImportError:
        return None
    return create_dataframe_from_blocks


@functools.cache
def _columns() -> pd.Index:
    """The frame's columns (``FRAME_COLUMNS``) as an index, made once (an index is immutable)."""
    return pd.Index(FRAME_COLUMNS)


@functools.cache
def _placement(name: str) -> np.ndarray:
    """The frame's position of column ``name``, as a block's placement."""
    return np.array([FRAME_COLUMNS.index(name)], dtype=np.intp)


def _arrow_text(dtype) -> bool:
    """pandas' string type is stored by pyarrow (pandas 3's ``str``)."""
    return isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"


def _arrow_names(dtype, names, codes: np.ndarray):
    """``names[codes]`` as an array of the string type ``dtype``, built by pyarrow from the few
    names (converting a column of Python strings cost ~0.4 us a
    row, ~1% of a heuristic hand; the same values and types: tests/test_records_frames.py)."""
    import pyarrow as pa

    return dtype.__from_arrow__(_name_table(tuple(names)).take(pa.array(codes)))


@functools.lru_cache(maxsize=8)
def _label_column(label: str, n: int):
    """The pyarrow array of ``n`` copies of ``label`` (immutable: made once for the chunks of
    a run, which share their size)."""
    import pyarrow as pa

    return _name_table((label,)).take(pa.array(np.zeros(n, dtype=np.int64)))


@functools.lru_cache(maxsize=64)
def _name_table(names: tuple[str, ...]):
    """The pyarrow array of ``names`` (immutable, so made once for each list of names)."""
    import pyarrow as pa

    return pa.array(list(names), type=pa.large_string())
