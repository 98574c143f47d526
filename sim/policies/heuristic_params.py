"""The heuristic kernel's parameters (``sim.policies.builtin``): their table (name, default,
meaning), the defaults by name, and the kernels' index of each in a params array (``H_*``).

The heuristic, special_chaser (which appends its own), strong and the expert (which add their
own after these) all read their base play from this one vector; the last four entries are the
ones strong tunes beyond the heuristic's classic choices, at defaults that are the heuristic's
play.
"""

from __future__ import annotations

__all__ = [
    "plays_with_memory",
]

#: the heuristic's parameters: (name, default, meaning), in registry order. The names are part
#: of the API (analysis notebooks and reports sweep them as ``heuristic:sevens_threshold=5``);
#: the defaults, the registry's documentation and the kernels' indices (H_*) derive from it.
HEURISTIC_TABLE = (
    (
        "sevens_threshold",
        5.0,
        "start a natural sevens meld (from hand, the pile or the opening) only holding at "
        "least this many sevens (SCORE-2: +2,500 complete, -2,500 not)",
    ),
    (
        "aces_threshold",
        5.0,
        "the same for a natural aces meld (an aces meld that takes wilds in the opening, "
        "MELD-7, is safe and not limited)",
    ),
    (
        "wild_meld_threshold",
        5.0,
        "start a wild meld only holding at least this many wild cards (SCORE-3: +2,000..3,000 "
        "complete, -2,000 not)",
    ),
    (
        "pile_min",
        2.0,
        "once opened, take the pile only when it holds at least this many cards",
    ),
    (
        "safe_weight",
        1.0,
        "weight of the risk that a discard lets the next player take the pile",
    ),
    (
        "late_stock",
        10.0,
        "from this many stock cards down the hand is late: shed a third seven/ace (SCORE-4), "
        "put wild cards on any meld, discard high cards first",
    ),
    (
        "complete_with_wilds",
        1.0,
        "1: before late, wild cards join natural melds only to finish a canasta; 0: whenever legal",
    ),
    (
        "risky_min_stock",
        0.0,
        "start sevens, aces or wild melds only with at least this many stock cards left (time "
        "to finish them); 0: no such condition (measured best with thresholds of 5: holding "
        "five sevens costs SCORE-4's 1,500 while two more finish the meld)",
    ),
    (
        "live_min",
        7.0,
        "start sevens/aces only if at least this many of the rank are held or unseen (not in "
        "the pile or the opponents' melds); 7 = no more than one copy gone",
    ),
    (
        "open_risky",
        0.0,
        "1: when no opening without a risky meld reaches the OPEN-1 minimum, open with one "
        "anyway; 0: wait for a safe opening",
    ),
    (
        "opp_out_late",
        1.0,
        "1: an opponent team that could go out now (OUT-1) makes the hand late",
    ),
    (
        "feed_weight",
        0.0,
        "extra discard risk for a rank the opponents have a meld of (they may hold a pair of "
        "it, PILE-1); 0 by default: measured, 1 loses ~95 points a hand on duplicate deals "
        "(the pile is always frozen, and the copies unseen already weigh the pair's chance)",
    ),
    (
        "dump_weight",
        1.0,
        "late in the hand, weight of a card's value when choosing a discard",
    ),
    (
        "shed_stock",
        60.0,
        "from this many stock cards down (or when the hand is late), discard a third seven or "
        "ace whose meld it would not start, rather than risk SCORE-4's 1,500",
    ),
    (
        "new_meld_min",
        2.0,
        "once opened and not late, start a new natural meld from hand only holding at least "
        "this many of the rank (MELD-1/4; 2: whenever legal); a pair held back keeps the pile "
        "takeable (PILE-1)",
    ),
    ("pair_keep", 10.0, "discard choice: value of each further copy of a rank held"),
    ("meld_keep", 25.0, "discard choice: value of a rank the team has an unfinished meld of"),
    (
        "early_dump",
        0.2,
        "discard choice before the hand is late: weight of a card's value (the late weight is "
        "dump_weight)",
    ),
    (
        "memory_weight",
        0.0,
        "discard choice: weight of the certain risk of discarding a rank the next player is "
        "known to hold a pair of (the public card memory, OB_KNOWN: taken with the pile and not "
        "shown since; PILE-1 lets it take the pile); 0: memory not read (the classic play)",
    ),
)
HEURISTIC_PARAMS = {name: default for name, default, _ in HEURISTIC_TABLE}  #: name -> default
#: index of each parameter in the params array, in the table's order (checked below)
(
    H_SEVENS_THRESHOLD,
    H_ACES_THRESHOLD,
    H_WILD_MELD_THRESHOLD,
    H_PILE_MIN,
    H_SAFE_WEIGHT,
    H_LATE_STOCK,
    H_COMPLETE_WITH_WILDS,
    H_RISKY_MIN_STOCK,
    H_LIVE_MIN,
    H_OPEN_RISKY,
    H_OPP_OUT_LATE,
    H_FEED_WEIGHT,
    H_DUMP_WEIGHT,
    H_SHED_STOCK,
    H_NEW_MELD_MIN,
    H_PAIR_KEEP,
    H_MELD_KEEP,
    H_EARLY_DUMP,
    H_MEMORY_WEIGHT,
) = range(len(HEURISTIC_TABLE))
assert all(globals()["H_" + name.upper()] == i for i, (name, _, _) in enumerate(HEURISTIC_TABLE))


def param_docs(table) -> str:
    """'name (default): meaning' lines of a parameter table, for the registry's documentation."""
    return "\n".join(f"  {name} ({default:g}): {doc}" for name, default, doc in table)


def plays_with_memory(policy: str) -> bool | None:
    """Does the policy spec (``strong:memory_weight=1``) play with the public card memory: a
    ``memory_weight`` (the heuristic kernel's discard) or ``memory`` (the expert's deals) above
    0, or a peeking reference? None for a name the registry does not know (loaded runs)."""
    from sim.engine.contract import is_peeking
    from sim.errors import CanastaError
    from sim.policies.registry import parse

    try:
        spec, params, _ = parse(policy)
    except CanastaError:
        return None
    if is_peeking(spec.function):
        return True
    values = dict(zip(spec.param_names, params.tolist(), strict=False))
    return values.get("memory_weight", 0.0) > 0 or values.get("memory", 0.0) > 0
