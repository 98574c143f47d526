"""Fixed-seed records are identical before and after a restructuring or a speed change:
every built-in policy pairing, whole games and what-if positions, compared by
digest with ``tests/data/record_digests.json`` (how to renew them on purpose:
``tests/record_digests.py``)."""

import json

import pytest

from tests.record_digests import DIGESTS, digest, runs

STORED = json.loads(DIGESTS.read_text())


@pytest.mark.parametrize("name,run", list(runs()), ids=lambda x: x if isinstance(x, str) else "")
def test_fixed_seed_records_unchanged(name, run):
    assert name in STORED, f"no stored digest for {name!r}: renew tests/data/record_digests.json"
    assert digest(run()) == STORED[name], f"records of {name!r} changed"


def test_every_stored_run_is_replayed():
    assert sorted(STORED) == sorted(name for name, _ in runs())
