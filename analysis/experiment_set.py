"""The decision experiments under test: the report's specs and looking them up.

The report's experiments are the spec files of the ``experiments`` package
(``analysis.specs.builtin``), by number: ``EXPERIMENTS``, and ``BY_KEY`` by table key.
:func:`resolve` turns keys or specs into specs; :func:`experiments_of` reads which experiments
rows of ``analysis.decisions.run_experiments`` hold. ``FEATURES`` are the features each row
carries (what a player can count, ``analysis.specs.FEATURES``); ``STRONG`` stands for the
strongest fast policy in an arm.
"""

from __future__ import annotations

import pandas as pd

from analysis import specs

__all__ = ["EXPERIMENTS", "FEATURES", "Grouping", "resolve"]

STRONG = specs.STRONGEST  #: placeholder in an arm: the strongest fast policy of the registry
Grouping = specs.GroupingSpec
Experiment = specs.ExperimentSpec
EXPERIMENTS: tuple[Experiment, ...] = specs.builtin()
BY_KEY = {e.key: e for e in EXPERIMENTS}


def resolve(experiments) -> list[Experiment]:
    """Experiments by key (the report's, ``BY_KEY``) or as specs (``analysis.specs``)."""
    out = []
    for e in experiments:
        if isinstance(e, Experiment):
            out.append(e)
        elif e in BY_KEY:
            out.append(BY_KEY[e])
        else:
            raise specs.SpecError(f"unknown experiment {e!r}: choose from {', '.join(BY_KEY)}")
    keys = [e.key for e in out]
    if len(set(keys)) != len(keys):
        raise specs.SpecError(f"experiments: a key is repeated ({', '.join(keys)})")
    return out


def experiments_of(raw: pd.DataFrame) -> list[Experiment]:
    """The experiments of :func:`run_experiments` rows, in the order they were run."""
    known = raw.attrs.get("specs") or {}
    out = []
    for key in dict.fromkeys(raw["experiment"]) if len(raw) else ():
        exp = known.get(key) or BY_KEY.get(key)
        if exp is None:
            raise specs.SpecError(f"rows of experiment {key!r}, whose spec is unknown")
        out.append(exp)
    return out


FEATURES = (
    "turn",
    "stock",
    "pile",
    "sevens",
    "aces",
    "wilds",
    "opened",
    "special_distance",
    "hand_size",
    "opp_opened",
    "canastas",
    "opp_canastas",
    "sevens_pile",
    "aces_pile",
    "sevens_gone",
    "aces_gone",
    "natural_triple",
    "natural_six",
    "margin",
    "min_meld",
    "distinct_ranks",
    "can_open_now",
    "points_in_hand",
    "turn_card_drawn",
    "other_team_opened",
)
#: the true-state features (``analysis.specs.TRUE_STATE``): a row's value is that of its
#: replayed deals (-1: the row is not split by one)
HIDDEN = tuple(specs.TRUE_STATE)
