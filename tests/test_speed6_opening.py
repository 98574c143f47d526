"""OPEN-1..4 (issue 12, ninth pass): the heuristic's ``_safe_opening`` answers -2 (no safe
opening) without searching when ``opening_count_bound`` shows that no opening from the whole
hand reaches the minimum. It must answer, and leave the opening memo, as its searches do
(``_safe_opening_search``), at every play decision of an opening turn of real hands."""

import numpy as np
import pytest

from sim import encoding as E
from sim.policies import get
from sim.policies.builtin import _safe_opening, _safe_opening_search
from sim.policies.common import OM_VALID
from tests.test_speed3_opening_ops import RULES, _games


@pytest.mark.parametrize("rules", RULES, ids=["tournament", "wilds3", "long"])
@pytest.mark.parametrize("name", ["heuristic", "strong"])
def test_open_1_4_safe_opening_bound_answers_as_the_searches(rules, name):
    """OPEN-1..4: the same step (or -1, -2) and the same memo state after the call, from
    the memo the hand's earlier decisions left (a copy for each path)."""
    params = get(name).param_array()
    shortcut = 0
    compared = 0
    for g, obs in _games((name, "heuristic"), 31, range(40), rules):
        if obs[E.OB_PHASE] != E.PH_PLAY or obs[E.OB_OPENING_TURN] != 1:
            continue
        if g.current_player % 2 != 0:
            continue  # the other team's policy
        a, b = g._scratch.copy(), g._scratch.copy()
        want = _safe_opening_search(obs, params, g.rules, a)
        got = _safe_opening(obs, params, g.rules, b)
        assert got == want and b[OM_VALID] == a[OM_VALID]
        if b[OM_VALID] == 1:
            assert np.array_equal(a[E.SCRATCH_MEMO :], b[E.SCRATCH_MEMO :])
        compared += 1
        shortcut += want == -2
    assert compared > 300 and shortcut > 100, (compared, shortcut)
