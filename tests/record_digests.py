"""Fixed-seed records of every built-in policy pairing, reduced to digests.

Refactoring and speed work must not change a single record: the test
``tests/test_records_unchanged.py`` replays these runs and compares their digests with the ones
stored in ``tests/data/record_digests.json``. When a change is *meant* to change decisions (a
rule fix, a new heuristic), rerun this module as a script to store the new digests, and show the
duplicate-deal comparison in the commit message:

    python -m tests.record_digests --write
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np

DIGESTS = Path(__file__).with_name("data") / "record_digests.json"
FAST = ("random", "greedy", "heuristic", "special_chaser")
HANDS = 120  # per ordered pairing: 16 pairings, a few seconds once compiled
EXPERT = "expert:samples=2,rollouts=1,candidates=2"
EXPERT_STRONG = "expert_strong:samples=2,rollouts=1,candidates=2"


def digest(df) -> str:
    """sha256 of a record table: column names, dtypes and every value, in row order."""
    h = hashlib.sha256()
    for name in df.columns:
        col = df[name].to_numpy()
        h.update(f"{name}:{col.dtype}".encode())
        if col.dtype == object:
            h.update("\x1f".join(map(str, col)).encode())
        else:
            h.update(np.ascontiguousarray(col).tobytes())
    return h.hexdigest()


def runs():
    """(name, thunk) for every fixed-seed run the digests cover."""
    import sim
    from sim.api import play_position, simulate_games
    from sim.cards import parse_cards

    for a, b in itertools.product(FAST, FAST):
        yield f"hands {a} vs {b}", lambda a=a, b=b: sim.simulate(HANDS, policies=(a, b), seed=11)
    yield (
        "hands expert vs heuristic",
        lambda: sim.simulate(4, policies=(EXPERT, "heuristic"), seed=5),
    )
    for pair in (("strong", "heuristic"), ("strong", "strong")):  # strong's evaluator included
        yield (
            f"hands {pair[0]} vs {pair[1]}",
            lambda pair=pair: sim.simulate(HANDS, policies=pair, seed=11),
        )
    yield (
        "hands expert_strong vs strong",
        lambda: sim.simulate(4, policies=(EXPERT_STRONG, "strong"), seed=5),
    )
    yield (
        "games heuristic vs greedy",
        lambda: simulate_games(3, policies=("heuristic", "greedy"), seed=7),
    )
    opener = SimpleNamespace(
        hand=parse_cards("7H 7S 7D 7C AS AD AC AH KS KD KH JK QS"),
        seat=0,
        turn=0,
        scores=(0, 0),
        melds={},
        pile_top=-1,
    )
    for choice in ("policy", "meld_sevens", "hold_sevens"):
        yield (
            f"position opener {choice}",
            lambda c=choice: play_position(
                60, opener, choice=c, seed=3, policies=("heuristic", "heuristic")
            ),
        )


def compute() -> dict[str, str]:
    return {name: digest(run()) for name, run in runs()}


if __name__ == "__main__":  # pragma: no cover
    found = compute()
    if "--write" in sys.argv:
        DIGESTS.parent.mkdir(exist_ok=True)
        DIGESTS.write_text(json.dumps(found, indent=1) + "\n")
    print(json.dumps(found, indent=1))
