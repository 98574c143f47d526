"""OPEN-1..4, MELD-1..9, OUT-1/2: the built-in policies' memo of the
opening search (``sim.policies.common.opening_search_memo``) answers a search from the position one
meld operation of the last search's plan leaves with that plan's count and its rest, instead
of searching again. Checked against the search it stands in for, kept as the oracle
(``opening_search`` on fresh tables): at every play decision of an opening turn of real
hands, under the tournament rules and two variants, for the heuristic's (and greedy's)
openings, which take the plan's operations one by one, and random's, which meld anything; and
the heuristic's decisions with the memo against its decisions from an empty memo."""

import numpy as np
import pytest

from sim import encoding as E
from sim.engine.observe import bonus_owed
from sim.engine.views import ob_hand, ob_melds, ob_pending
from sim.legality import is_dead, opening_search
from sim.play import Hand as Game
from sim.play import SeatView
from sim.policies import get
from sim.policies.builtin import heuristic_decide
from sim.policies.common import memo_rest, opening_search_memo, work_plan
from tests.real_hands import RULE_IDS, RULES, games


def _opening_turn(obs):
    return obs[E.OB_PHASE] == E.PH_PLAY and obs[E.OB_OPENING_TURN] == 1


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
@pytest.mark.parametrize(
    "pair", [("heuristic", "greedy"), ("random", "random")], ids=["plans", "random"]
)
def test_open_1_4_memo_equals_the_search(rules, pair):
    """OPEN-1..4 with MELD-1..9, OUT-1/2: at every play decision of an opening turn, the
    memo's answer (count, and plan when the count reaches the minimum) for the search from the
    whole hand and the turn's melds equals ``opening_search``'s on fresh tables, whether
    the memo answered (counted: it must, often, for plans taken step by step) or searched."""
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    work = np.zeros(E.SEARCH_WORK_SIZE, dtype=np.int64)
    plan = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    probe = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    positions = answered = 0
    hands = range(60) if pair[0] == "heuristic" else range(15)
    for g, obs in games(pair, 41, hands, rules):
        if not _opening_turn(obs):
            continue
        hand, pending, melds = ob_hand(obs), ob_pending(obs), ob_melds(obs)
        pk, bonus, mc = obs[E.OB_PILE_KIND], bool(bonus_owed(obs)), obs[E.OB_OPEN_MIN]
        extra = int(SeatView.from_observation(obs).aside.sum())
        dead = sum(1 << k for k in range(E.FIRST_NATURAL, E.N_KINDS) if is_dead(melds, k))
        maxw = g.rules[E.RS_MAX_WILDS_MIXED]
        hit = scratch[E.SCRATCH_MEMO] == 1 and memo_rest(
            hand, pending, extra, pk, mc, bonus, maxw, dead, probe, scratch.copy()
        )
        got = opening_search_memo(hand, pending, pk, extra, melds, g.rules, mc, bonus, scratch)
        want = opening_search(hand, pending, melds, pk, extra, g.rules, plan, bonus, 0, work)
        positions += 1
        answered += hit
        if want >= mc:
            assert got == want
            np.testing.assert_array_equal(work_plan(scratch), plan)
        else:
            assert got < mc and not hit
    assert positions > 100
    if pair[0] == "heuristic":
        assert answered > positions // 10  # the memo is exercised, not only the search


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_open_1_4_heuristic_decides_the_same_with_an_empty_memo(rules):
    """OPEN-1..4: at every play decision of an opening turn of heuristic hands (the memo
    carried along in the game's scratch), the heuristic's action equals its action from a
    scratch with an empty memo (every search done in full)."""
    params = get("heuristic").param_array()
    rng = np.ones(4, dtype=np.uint64)
    compared = 0
    for hand_id in range(120):
        g = Game(seed=43, hand_id=hand_id, rules=rules)
        # the hand's turn loop asks the heuristic on the hand's scratch: the memo carried on
        for t in g.turns(("heuristic", "heuristic")):
            if not t.forced and _opening_turn(t.obs):
                fresh = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
                assert t.action == heuristic_decide(t.obs, params, rng, g.rules, fresh)
                compared += 1
    assert compared > 300
