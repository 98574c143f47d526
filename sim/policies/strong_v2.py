"""``strong_v2``: strong's kernel with its second evaluator (``evaluator=2``).

The same kernel as ``strong`` (``sim.policies.strong.strong_decide``: the heuristic's at
strong's learned parameter values) with a wider evaluator: every legal discard, opening now or
waiting, the draw and the start of a sevens/aces/wild meld, scored by a linear model over the
features of ``sim.policies.strong_v2_features`` (strong's 65 and two blocks more). Its named
parameters are the frozen reference's (``strong_2026_12``), so the two differ in the evaluator
alone; the weights are distilled from search against a pool of opponents (``analysis.distill``,
``canasta train --stage distill2``) and ship in ``sim/policies/data/strong_v2.json`` beside
their training record.
"""

from __future__ import annotations

import numpy as np

from sim.errors import CanastaError
from sim.policies.datafile import read_data
from sim.policies.strong import DATA_VERSION, EXTRA_TABLE, NEUTRAL, S_EVALUATOR
from sim.policies.strong_v2_features import EVALUATOR_V2, N_FEATURES_V2, check_layout_v2

__all__ = ["V2_FILE", "load_v2", "v2_table", "v2_weights"]

V2_FILE = "strong_v2.json"  #: in the package ``sim.policies.data``


def load_v2(data: dict | None = None, source: str = V2_FILE) -> dict:
    """strong_v2's data file (the package's ``source``, or ``data`` read elsewhere), checked:
    strong's named parameters with ``evaluator`` = 2 and ``N_FEATURES_V2`` weights in the v2
    layout."""
    data = read_data(data, source if data is None else V2_FILE, DATA_VERSION, source)
    given = dict(data.get("parameters", {}))
    if sorted(given) != sorted(NEUTRAL):
        raise CanastaError(f"{source}: expected the parameters {', '.join(NEUTRAL)}")
    if given["evaluator"] != EVALUATOR_V2:
        raise CanastaError(f"{source}: evaluator {given['evaluator']:g}, strong_v2 plays 2")
    evaluator = data.get("evaluator", {})
    check_layout_v2(evaluator.get("features", ()))
    if len(evaluator.get("weights", ())) != N_FEATURES_V2:
        raise CanastaError(f"{source}: expected {N_FEATURES_V2} evaluator weights")
    return data


def v2_weights(file: str = V2_FILE) -> np.ndarray:
    """The v2 evaluator's shipped weights (``FEATURE_TABLE_V2``'s order): the parameter
    array's tail after strong's named parameters."""
    return np.array(load_v2(source=file)["evaluator"]["weights"], dtype=np.float64)


def v2_table(file: str = V2_FILE) -> tuple[tuple[str, float, str], ...]:
    """(name, default, meaning) of strong_v2's named parameters: strong's table with the
    values of the data file."""
    from sim.policies.heuristic_params import HEURISTIC_TABLE

    params = load_v2(source=file)["parameters"]
    return tuple((n, float(params[n]), doc) for n, _, doc in (*HEURISTIC_TABLE, *EXTRA_TABLE))


assert S_EVALUATOR < len(NEUTRAL)
