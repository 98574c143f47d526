"""The strength ladder of the built-in policies, as shipped in
``sim/policies/data/ladder.json``.

Written by ``benchmarks/bench_ladder.py --write`` from a round robin of duplicate matches
(every pair on the same deals, both ways): each pair's margin (row policy's points per hand
minus the other's) with its 95% interval, the policies ranked by their mean margin over the
others, and matches of the search policies (``expert``, ``expert_strong``) measured beside it.
The report's Methods show it; ``load_ladder`` checks its layout.
"""

from __future__ import annotations

from sim.errors import CanastaError
from sim.policies.datafile import check_version, read_data

LADDER_FILE = "ladder.json"  #: in the package ``sim.policies.data``
LADDER_VERSION = 1  #: the layout this module reads
_PAIR_KEYS = ("a", "b", "deals", "seed", "mean_diff", "ci_low", "ci_high")


def check_ladder(data: dict) -> dict:
    """``data`` if it has the ladder's layout, else a ``CanastaError`` naming what is wrong."""
    check_version(data, LADDER_VERSION, LADDER_FILE)
    for key in ("command", "date", "policies", "pairs", "ranking", "search"):
        if key not in data:
            raise CanastaError(f"{LADDER_FILE}: missing {key!r}")
    for row in (*data["pairs"], *data["search"]):
        missing = [k for k in _PAIR_KEYS if k not in row]
        if missing:
            raise CanastaError(f"{LADDER_FILE}: a match lacks {', '.join(missing)}")
    return data


def load_ladder() -> dict:
    """The shipped ladder (see the module's documentation)."""
    return check_ladder(read_data(None, LADDER_FILE, LADDER_VERSION))


def ranking(pairs: list[dict], policies: list[str]) -> list[tuple[str, float]]:
    """Policies by their mean margin over the others (best first) from the round robin's
    ``pairs`` (each pair once, ``mean_diff`` = a minus b)."""
    total = {p: 0.0 for p in policies}
    count = {p: 0 for p in policies}
    for r in pairs:
        total[r["a"]] += r["mean_diff"]
        total[r["b"]] -= r["mean_diff"]
        count[r["a"]] += 1
        count[r["b"]] += 1
    score = {p: total[p] / count[p] for p in policies if count[p]}
    return sorted(score.items(), key=lambda kv: -kv[1])


__all__ = ["LADDER_VERSION", "check_ladder", "load_ladder", "ranking"]
