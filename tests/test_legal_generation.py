"""TURN-1, MELD-1..9, OPEN-1..5, OUT-1/2, DISCARD-1..3, PILE-1/2, SPECIAL-1..7: the
legal actions generated from the position (``judge.legal_actions``) are exactly the action
table filtered by the one validator (``judge.legal_actions_filter``, ``action_reason``): the
same ids in the same order at every decision of real hands of every built-in pairing (so the
random policy draws the same action and the records stay identical)."""

import numpy as np
import pytest

from sim.encoding import (
    A_FIRST_MELD,
    N_ACTIONS,
    SCRATCH_SIZE,
    SCRATCH_TMP,
    TMP_SIZE,
)
from sim.engine.judge import legal_actions, legal_actions_filter
from sim.play import Hand as Game
from sim.play import SeatView
from tests.helpers import plan_cache_walk
from tests.real_hands import games

PAIRS = [
    ("random", "random"),
    ("greedy", "random"),
    ("heuristic", "random"),
    ("special_chaser", "greedy"),
    ("heuristic", "heuristic"),
]


def _agree_on_hands(pair, seed, hand_ids):
    out1 = np.zeros(N_ACTIONS, dtype=np.int64)
    out2 = np.zeros(N_ACTIONS, dtype=np.int64)
    tmp = np.zeros(SCRATCH_SIZE, dtype=np.int64)[SCRATCH_TMP : SCRATCH_TMP + TMP_SIZE]
    decisions = opening_melds = 0
    for hand_id in hand_ids:
        g = Game(seed=seed, hand_id=hand_id)
        for t in g.turns(pair):
            if t.forced:
                continue
            n1 = legal_actions(t.obs, g.rules, out1, tmp)
            n2 = legal_actions_filter(t.obs, g.rules, out2, tmp)
            assert n1 == n2 and (out1[:n1] == out2[:n2]).all(), (pair, hand_id, g.turn)
            decisions += 1
            if (
                SeatView.from_observation(t.obs).opening_turn
                and n1
                and out1[n1 - 1] >= A_FIRST_MELD
            ):
                opening_melds += 1  # an opening turn with melds to judge (OPEN-1..4)
    return decisions, opening_melds


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: "-".join(p))
def test_turn_1_generated_legal_actions_equal_the_filtered_table(pair):
    decisions, opening_melds = _agree_on_hands(pair, seed=31, hand_ids=range(8))
    assert decisions >= 8 * 40, decisions  # whole hands were played and compared
    assert opening_melds >= 8, opening_melds  # opening turns with melds were among them


def _meld_reason_reference(obs, slot, nat, two, joker, rules):
    """The meld operation's judgement as ``validate.meld_reason_obs`` stated it before its
    count-based shortcut (OUT-2 always on a copied hand and the table after the operation), in
    Python over the rules core: the oracle of that OUT-2 shortcut."""
    from sim import encoding as E
    from sim.engine.observe import bonus_owed
    from sim.engine.views import add_operation, ob_hand, ob_melds, ob_pending, take_operation
    from sim.legality import (
        leave_reason,
        meld_reason,
        meld_size,
        opening_meld_reason,
        opening_refusal,
        opening_search_bounded_alloc,
        out_reason,
    )

    obs = obs.copy()
    hand = ob_hand(obs)
    if (slot != E.WILD_MELD and hand[slot] < nat) or hand[E.TWO] < two or hand[E.JOKER] < joker:
        return E.R_NOT_HELD
    melds = ob_melds(obs)
    total = obs[E.OB_HAND_SIZES] - nat - two - joker
    initial = obs[E.OB_OPENING_TURN] == 1
    r = meld_reason(melds, 0, slot, nat, two, joker, initial, total <= 1, rules)
    if r == E.R_OK and initial:
        r = opening_meld_reason(melds, 0, slot, nat, two, joker)
    if r != E.R_OK:
        return r
    bonus = bool(bonus_owed(obs))
    hand_after = hand.copy()
    take_operation(hand_after, slot, nat, two, joker)
    aside = SeatView.from_observation(obs).aside
    leave = hand_after + aside
    add_operation(melds[0], slot, nat, two, joker, 1)
    r = leave_reason(leave, melds, 0, bonus)
    if r == E.R_OK and bonus and total == 1 and meld_size(melds, 0, slot) > E.CANASTA:
        if out_reason(melds, 0) != E.R_OK:
            r = E.R_MELD_TOO_LONG
    add_operation(melds[0], slot, nat, two, joker, -1)
    if r != E.R_OK or not initial:
        return r
    pending = ob_pending(obs).copy()
    add_operation(pending, slot, nat, two, joker, 1)
    plan = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    extra = int(aside.sum())
    mc, pk = obs[E.OB_OPEN_MIN], obs[E.OB_PILE_KIND]
    if (
        opening_search_bounded_alloc(hand_after, pending, pk, extra, melds, rules, plan, mc, bonus)
        < mc
    ):
        return opening_refusal(hand_after, pending, melds, 0, pk, extra, rules, mc, bonus)
    return E.R_OK


@pytest.mark.parametrize("pair", [("random", "random"), ("heuristic", "greedy")], ids="-".join)
def test_meld_1_9_out_2_open_1_4_meld_checks_equal_the_reference(pair):
    """MELD-1..9, OUT-2, OPEN-1..4: ``action_reason`` of every meld operation the hand holds
    the cards for gives the reference statement's code (above) at every play decision."""
    from sim import encoding as E
    from sim.engine.judge import action_reason

    tmp = np.zeros(SCRATCH_SIZE, dtype=np.int64)[SCRATCH_TMP : SCRATCH_TMP + TMP_SIZE]
    checked = refused = 0
    for g, obs in games(pair, 47, range(4), None):
        if obs[E.OB_PHASE] != E.PH_PLAY:
            continue
        hand = SeatView.from_observation(obs).hand
        for b in range(A_FIRST_MELD, N_ACTIONS):
            slot, nat, two, joker = (int(x) for x in E.ACTION_TABLE[b, 1:5])
            held = slot == E.WILD_MELD or hand[slot] >= nat
            if not (held and hand[E.TWO] >= two and hand[E.JOKER] >= joker):
                continue
            want = _meld_reason_reference(obs, slot, nat, two, joker, g.rules)
            assert action_reason(obs, b, g.rules, tmp) == want, (g.hand_id, b)
            checked += 1
            refused += want != E.R_OK
    assert checked >= 1000 and 0 < refused < checked, (checked, refused)


def test_meld_8_wild_meld_started_in_an_opening_turn_is_judged_by_the_search():
    """MELD-8, OPEN-1: a position (random vs random, seed 11, hand 36) where the plan found
    from the position melds wild cards on a natural meld and three twos as the wild meld:
    starting the wild meld first leaves the rest of the plan illegal (wild cards may join
    other melds only once the wild meld is complete), so the plan shortcut must not accept
    it. The generator and the engine's check (``check_action``, every meld operation probed
    with the plan cache as the engine holds it) agree with ``action_reason`` on the hand."""
    decisions, _ = _agree_on_hands(("random", "random"), seed=11, hand_ids=[36])
    assert decisions > 40
    _, probed = plan_cache_walk(Game(seed=11, hand_id=36), "random")
    assert probed > 0
