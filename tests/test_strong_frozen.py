"""The frozen reference ``strong_2026_12``: strong as shipped in December 2026, reading a frozen
copy of that data file, so strength figures keep one yardstick while ``strong`` is retrained."""

import hashlib
from importlib import resources

import numpy as np

import sim
from sim.policies import get, parse
from sim.policies.strong import DATA_FILE, FROZEN_FILE, load_data

#: sha256 of the frozen data file: it is never retrained or reformatted
FROZEN_SHA256 = "e8ab8bb5d60d2654373dd33047f532837bdd0af62770aa54b004971bdf9d65f4"


def test_frozen_data_file_is_unchanged():
    raw = resources.files("sim.policies.data").joinpath(FROZEN_FILE).read_bytes()
    assert hashlib.sha256(raw).hexdigest() == FROZEN_SHA256


def test_frozen_reference_plays_the_frozen_file():
    """Its defaults and evaluator weights are the frozen file's, not the live file's."""
    frozen = load_data(source=FROZEN_FILE)
    spec = get("strong_2026_12")
    assert spec.param_names == get("strong").param_names
    assert dict(spec.params) == frozen["parameters"]
    _, arr, _ = parse("strong_2026_12")
    n = len(spec.param_names)
    assert list(arr[n:]) == frozen["evaluator"]["weights"]
    assert spec.function is get("strong").function  # the one kernel, another parameter vector


def test_frozen_reference_records_equal_todays_strong():
    """On fixed seeds (both seats, and against the heuristic from either side) every record
    column of strong_2026_12 equals strong's while strong.json is the file it froze (today):
    the frozen copy and its registration change no decision."""
    live = load_data(source=DATA_FILE)
    frozen = load_data(source=FROZEN_FILE)
    assert live["parameters"] == frozen["parameters"]
    assert live["evaluator"] == frozen["evaluator"]
    for pair, seed in (
        (("strong_2026_12", "strong_2026_12"), 11),
        (("strong_2026_12", "heuristic"), 12),
        (("heuristic", "strong_2026_12"), 13),
    ):
        a = sim.simulate(60, policies=pair, seed=seed)
        twin = tuple("strong" if p == "strong_2026_12" else p for p in pair)
        b = sim.simulate(60, policies=twin, seed=seed)
        assert list(a.columns) == list(b.columns)
        for col in a.columns:
            if col.startswith("policy_team"):  # the label, the only column meant to differ
                continue
            assert np.array_equal(a[col].to_numpy(), b[col].to_numpy()), (pair, col)
        assert (a["score_team0"] != a["score_team1"]).any()  # real hands were played
