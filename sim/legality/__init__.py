"""The rules core: compiled rule checks for melds, the opening, the pile, discards and going out.

Each kernel judges one rule family on plain int64 arrays (layouts in ``sim.encoding``) and
returns a reason code: ``R_OK`` when legal, otherwise the code of the rule that refuses
(``sim.encoding.explain`` turns it into "MELD-6: ..."). The engine, the command line and the
tests all use these kernels; a shortcut elsewhere that restates a rule must agree with them.
``tests/twins/legality_twin.py`` is the slow, obvious twin they are checked against. One module
per phase:

- ``melds``: MELD-1..10, the meld table's helpers, ``meld_reason`` and its shortcuts on the
  counts (``meld_counts_refused``, ``meld_wilds_cap``);
- ``opening``: OPEN-1..4, the minimum, the opening's check, why one cannot be made;
- ``search``: the opening search, the largest count an initial meld can reach, with its plan;
- ``pile``: PILE-1/2 and the rules core's work area;
- ``discard``: DISCARD-1..3;
- ``out``: OUT-1/2;
- ``cards``: the Python layer, a meld given as cards.

The rules core imports nothing above it (``sim.encoding``, ``sim._views`` only:
tests/test_layers.py). Every public name of the phase modules is importable from here.
"""

from __future__ import annotations

from sim.legality.cards import (
    judge_meld,
    meld_slot,
)
from sim.legality.discard import (
    discard_reason,
    restricted_on_empty,
)
from sim.legality.melds import (
    RULE_OF_FIVE_NATURALS,
    canastas,
    is_dead,
    meld_counts_refused,
    meld_reason,
    meld_size,
    meld_wilds,
    meld_wilds_cap,
    team_canastas,
    wild_meld_incomplete,
)
from sim.legality.opening import (
    OPEN_MINIMUMS,
    OPEN_THRESHOLDS,
    from_hand_count,
    opening_count_bound,
    opening_meld_reason,
    opening_min,
    opening_min_by,
    opening_min_state,
    opening_reason,
    opening_refusal,
    opening_search_bounded,
    opening_search_bounded_alloc,
)
from sim.legality.out import (
    leave_reason,
    out_reason,
)
from sim.legality.pile import (
    PILE_MELD_LIMIT,
    SEARCH_WORK_FIELDS,
    pile_reason,
    pile_reason_work,
)
from sim.legality.search import (
    RELAX_LEAVE,
    RELAX_OPEN_2,
    RELAX_OPEN_4,
    SEARCH_TABLE_WORDS,
    opening_op_counts,
    opening_path_count,
    opening_search,
    opening_search_alloc,
    search_words,
)

__all__ = [
    "OPEN_MINIMUMS",
    "OPEN_THRESHOLDS",
    "canastas",
    "is_dead",
    "judge_meld",
    "meld_reason",
    "meld_wilds",
    "opening_count_bound",
    "opening_min",
    "opening_path_count",
    "opening_search",
    "opening_search_alloc",
]
