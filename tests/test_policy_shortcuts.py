"""OPEN-1..4, MELD-1..9, OUT-1/2: the built-in policies' shortcuts give the answer of the full
search or check they skip, at every decision of real hands (the wild-card cap per rank,
``meld_wilds_cap``, is checked against the law in tests/test_shortcuts.py):

- ``largest_meld`` without wild cards when the call with wild cards found nothing (OUT-1);
- ``largest_natural_meld`` (the opened player's natural melds judged from the counts) against
  ``largest_meld`` without the shortcut;
- the heuristic's ``safe_opening`` answering from ``opening_count_bound`` against its searches.
"""

import numpy as np
import pytest

from sim import encoding as E
from sim.engine.views import ob_melds
from sim.legality import out_reason
from sim.policies import get
from sim.policies.builtin import risky_start_mask, safe_opening, safe_opening_search
from sim.policies.common import (
    FULL_CHECK,
    OM_VALID,
    largest_meld,
    largest_natural_meld,
)
from tests.real_hands import RULE_IDS, RULES, games


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_out_1_largest_meld_without_wilds_is_none_when_with_wilds_is_none(rules):
    """OUT-1, MELD-1..9: at every play decision of heuristic hands where the team may go out,
    ``largest_meld`` with wild cards returning -1 implies -1 without them (and the heuristic's
    skip mask is the same for both calls)."""
    params = get("heuristic").param_array()
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    compared = 0
    for g, obs in games(("heuristic", "heuristic"), 47, range(80), rules):
        if obs[E.OB_PHASE] == E.PH_PLAY and out_reason(ob_melds(obs), 0) == E.R_OK:
            mask = risky_start_mask(obs, params)
            if largest_meld(obs, g.rules, scratch, True, mask) < 0:
                assert largest_meld(obs, g.rules, scratch, False, mask) < 0
                compared += 1
    assert compared > 50


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
@pytest.mark.parametrize("pair", [("heuristic", "heuristic"), ("random", "greedy")])
def test_meld_1_9_opened_largest_meld_equals_the_full_check(rules, pair):
    """MELD-1/2/4/9, OUT-2: the same operation (or -1) as the full check, at every decision
    (the draw and threes phases too, where both must find none)."""
    params = get("heuristic").param_array()
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    compared = found = deferred = natural = 0
    for g, obs in games(pair, 29, range(40), rules):
        if obs[E.OB_OPENING_TURN] == 1:
            continue
        for wilds in (False, True):
            for mask in (0, int(risky_start_mask(obs, params)), (1 << E.N_KINDS) - 1):
                want = largest_meld(obs, g.rules, scratch, wilds, mask, False)
                if not wilds:
                    got = largest_natural_meld(obs, g.rules, scratch, mask)
                    assert got in (want, FULL_CHECK), (got, want)
                    deferred += got == FULL_CHECK
                    natural += 1
                assert largest_meld(obs, g.rules, scratch, wilds, mask) == want
                compared += 1
                found += want >= 0
    assert compared > 2000 and found > 400, (compared, found)
    # the shortcut answers most calls itself (small hands, as random's, defer more often)
    assert deferred < 0.25 * natural, (deferred, natural)


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
@pytest.mark.parametrize("name", ["heuristic", "strong"])
def test_open_1_4_safe_opening_bound_answers_as_the_searches(rules, name):
    """OPEN-1..4: the same step (or -1, -2) and the same memo state after the call, from
    the memo the hand's earlier decisions left (a copy for each path)."""
    params = get(name).param_array()
    shortcut = 0
    compared = 0
    for g, obs in games((name, "heuristic"), 31, range(40), rules):
        if obs[E.OB_PHASE] != E.PH_PLAY or obs[E.OB_OPENING_TURN] != 1:
            continue
        if g.current_player % 2 != 0:
            continue  # the other team's policy
        a, b = g._scratch.copy(), g._scratch.copy()
        want = safe_opening_search(obs, params, g.rules, a)
        got = safe_opening(obs, params, g.rules, b)
        assert got == want and b[OM_VALID] == a[OM_VALID]
        if b[OM_VALID] == 1:
            assert np.array_equal(a[E.SCRATCH_MEMO :], b[E.SCRATCH_MEMO :])
        compared += 1
        shortcut += want == -2
    assert compared > 300 and shortcut > 100, (compared, shortcut)
