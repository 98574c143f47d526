"""OUT-1, MELD-1..9 (issue 12, sixth pass): when its team may go out (OUT-1) the heuristic asks
``largest_meld`` with wild cards first, and when that finds no legal operation it no longer
asks again without wild cards: every candidate of the call without wilds is one the call with
wilds judged and refused. Checked on every play decision of real hands where the shortcut is
taken, the call without wilds kept as the oracle."""

import numpy as np
import pytest

from sim import encoding as E
from sim.engine.views import ob_melds
from sim.legality import out_reason
from sim.policies import get
from sim.policies.builtin import _risky_start_mask
from sim.policies.common import largest_meld
from tests.test_speed3_opening_ops import RULES, _games


@pytest.mark.parametrize("rules", RULES, ids=["tournament", "wilds3", "long"])
def test_out_1_largest_meld_without_wilds_is_none_when_with_wilds_is_none(rules):
    """OUT-1, MELD-1..9: at every play decision of heuristic hands where the team may go out,
    ``largest_meld`` with wild cards returning -1 implies -1 without them (and the heuristic's
    skip mask is the same for both calls)."""
    params = get("heuristic").param_array()
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    compared = 0
    for g, obs in _games(("heuristic", "heuristic"), 47, range(80), rules):
        if obs[E.OB_PHASE] == E.PH_PLAY and out_reason(ob_melds(obs), 0) == E.R_OK:
            mask = _risky_start_mask(obs, params)
            if largest_meld(obs, g.rules, scratch, True, mask) < 0:
                assert largest_meld(obs, g.rules, scratch, False, mask) < 0
                compared += 1
    assert compared > 50
