"""The ``strong`` policy (issue 13): the heuristic's kernel with learned parameters.

``strong`` decides exactly as ``heuristic`` does (``sim.policies.builtin.heuristic_decide``:
observation in, action out) but with its own parameter vector, learned by black-box
optimisation on duplicate deals against a pool of opponents (``analysis.training``,
``canasta train``). The learned values ship in ``sim/policies/data/strong.json`` beside the
training settings, seed, command and measured margin; they are the registry's defaults, and
each is overridable like the heuristic's (``strong:sevens_threshold=6``).

Running ``strong`` needs nothing beyond the engine: the data file is read with ``json``.
"""

from __future__ import annotations

import json
from importlib import resources

from numba import njit

from sim.engine.contract import POLICY_SIGNATURE
from sim.errors import CanastaError
from sim.policies.builtin import HEURISTIC_TABLE, heuristic_decide

DATA_FILE = "strong.json"  #: in the package ``sim.policies.data``
DATA_VERSION = 1  #: the layout of the data file this module reads


def load_data() -> dict:
    """The shipped parameters and their training record (``sim/policies/data/strong.json``)."""
    text = resources.files("sim.policies.data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    if data.get("version") != DATA_VERSION:
        raise CanastaError(
            f"{DATA_FILE}: version {data.get('version')!r}, this build reads {DATA_VERSION}"
        )
    params = data.get("parameters", {})
    names = [n for n, _, _ in HEURISTIC_TABLE]
    if sorted(params) != sorted(names):
        raise CanastaError(f"{DATA_FILE}: expected the parameters {', '.join(names)}")
    return data


def strong_table() -> tuple[tuple[str, float, str], ...]:
    """(name, learned default, meaning) in the heuristic's order: the heuristic's table with
    the shipped values as defaults."""
    params = load_data()["parameters"]
    return tuple((n, float(params[n]), doc) for n, _, doc in HEURISTIC_TABLE)


@njit(POLICY_SIGNATURE, cache=True)
def strong_decide(obs, params, rng, rules, scratch):
    """The heuristic's decisions with strong's parameters (same layout as HEURISTIC_TABLE)."""
    return heuristic_decide(obs, params, rng, rules, scratch)
