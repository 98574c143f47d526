"""MELD-1..9, OUT-2 (issue 12, ninth pass): ``largest_meld`` without wild cards outside the
opening turn is answered by ``_largest_natural_meld``, which judges each candidate from the
counts, the cards held counted once; it must return what ``largest_meld`` without the
shortcut (every candidate through the full check) returns, or ``FULL_CHECK`` (a candidate
that would leave a card or none: ``largest_meld`` then judges in full), and that for a
minority, at every decision of real hands, for the skip mask the heuristic passes, none and
all (and ``largest_meld`` with wild cards what it returns without the shortcut)."""

import numpy as np
import pytest

from sim import encoding as E
from sim.policies import get
from sim.policies.builtin import _risky_start_mask
from sim.policies.common import (
    FULL_CHECK,
    _largest_natural_meld,
    largest_meld,
)
from tests.test_speed3_opening_ops import RULES, _games


@pytest.mark.parametrize("rules", RULES, ids=["tournament", "wilds3", "long"])
@pytest.mark.parametrize("pair", [("heuristic", "heuristic"), ("random", "greedy")])
def test_meld_1_9_opened_largest_meld_equals_the_full_check(rules, pair):
    """MELD-1/2/4/9, OUT-2: the same operation (or -1) as the full check, at every decision
    (the draw and threes phases too, where both must find none)."""
    params = get("heuristic").param_array()
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    compared = found = deferred = natural = 0
    for g, obs in _games(pair, 29, range(40), rules):
        if obs[E.OB_OPENING_TURN] == 1:
            continue
        for wilds in (False, True):
            for mask in (0, int(_risky_start_mask(obs, params)), (1 << E.N_KINDS) - 1):
                want = largest_meld(obs, g.rules, scratch, wilds, mask, False)
                if not wilds:
                    got = _largest_natural_meld(obs, g.rules, scratch, mask)
                    assert got in (want, FULL_CHECK), (got, want)
                    deferred += got == FULL_CHECK
                    natural += 1
                assert largest_meld(obs, g.rules, scratch, wilds, mask) == want
                compared += 1
                found += want >= 0
    assert compared > 2000 and found > 400, (compared, found)
    # the shortcut answers most calls itself (small hands, as random's, defer more often)
    assert deferred < 0.25 * natural, (deferred, natural)
