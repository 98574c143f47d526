"""Per-hand records: the kernel's int64 rows as a pandas DataFrame (schema: docs/records.md)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.encoding import END_NAMES, RECORD_COLUMNS, SPECIAL_NAMES

POLICY_COLUMNS = ("policy_team0", "policy_team1")  #: labels the DataFrame adds after hand_id
#: the DataFrame's columns, in order: the kernel's row (``RECORD_COLUMNS``) with the labels
FRAME_COLUMNS = (RECORD_COLUMNS[0], *POLICY_COLUMNS, *RECORD_COLUMNS[1:])


def records_frame(rows: np.ndarray, policy_team0: str, policy_team1: str) -> pd.DataFrame:
    """DataFrame of record rows: codes named (end_reason, special_hand), policies added."""
    df = pd.DataFrame(rows, columns=list(RECORD_COLUMNS))
    df.insert(1, POLICY_COLUMNS[0], policy_team0)
    df.insert(2, POLICY_COLUMNS[1], policy_team1)
    df["end_reason"] = np.asarray(END_NAMES, dtype=object)[df["end_reason"].to_numpy()]
    df["special_hand"] = np.asarray(SPECIAL_NAMES, dtype=object)[df["special_hand"].to_numpy()]
    return df
