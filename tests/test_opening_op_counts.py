"""OPEN-1..4, MELD-1..9, OUT-1/2: ``legality.opening_op_counts`` answers for every meld
operation of an opening turn at once (natural ranks and the wild meld) whether the opening
stays completable, and ``judge.legal_actions`` uses it. Checked against the law: the
opening search (``opening_search``) from the position each operation leaves, and the action
table filtered by ``action_reason`` (``legal_actions_filter``), on every decision of real hands,
random policies (the most opening-turn decisions with many candidate operations), under the
tournament rules and two variants (MELD-4 with 3 wilds, MELD-2's long meld going out)."""

import numpy as np
import pytest

from sim import encoding as E
from sim.engine.judge import legal_actions, legal_actions_filter
from sim.engine.observe import bonus_owed
from sim.engine.views import (
    add_operation,
    ob_aside_total,
    ob_hand,
    ob_melds,
    ob_pending,
    take_operation,
)
from sim.legality import is_dead, opening_op_counts, opening_search
from tests.real_hands import RULE_IDS, RULES, games


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_open_1_4_op_counts_equal_the_search_after_each_operation(rules):
    """OPEN-1..4 with MELD-1..9, OUT-1/2: at every play decision of an opening turn,
    ``opening_op_counts`` returns the search's count from the position, and for every live
    natural rank, naturals ``nat`` and wild cards ``w`` (split jokers first) its
    ``best_ax[rank, nat, w]`` is exactly the count the search finds from the position the
    operation leaves (the oracle ``meld_reason_obs`` runs), -1 for none alike (the cells
    an operation can ask: up to the rank's cards in hand and MELD-4's wild cards)."""
    work = np.zeros(E.SEARCH_WORK_SIZE, dtype=np.int64)
    work2 = np.zeros(E.SEARCH_WORK_SIZE, dtype=np.int64)
    ax = np.zeros(E.OP_AX_SHAPE, dtype=np.int64)
    wm_ax = np.zeros(E.CANASTA + 1, dtype=np.int64)
    plan = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    positions = compared = reached = wm_compared = wm_reached = 0
    for g, obs in games(("random", "random"), 23, range(10), rules):
        if obs[E.OB_PHASE] != E.PH_PLAY or obs[E.OB_OPENING_TURN] != 1:
            continue
        hand, pending, melds = ob_hand(obs), ob_pending(obs), ob_melds(obs)
        pk, bonus = obs[E.OB_PILE_KIND], bool(bonus_owed(obs))
        extra = int(ob_aside_total(obs))
        args = (melds, pk, extra, g.rules)
        best = opening_op_counts(hand, pending, *args, bonus, work, ax, wm_ax)
        assert best == opening_search(hand, pending, *args, plan, bonus, 0, work2)
        positions += 1
        wm = pending[E.WILD_MELD, E.TWOS] + pending[E.WILD_MELD, E.JOKERS]
        wilds, maxw = hand[E.TWO] + hand[E.JOKER], g.rules[E.RS_MAX_WILDS_MIXED]
        # the wild meld, started or not (legal_actions reads no cell when best < 0)
        for w in range(1, min(wilds, E.CANASTA) + 1 if best >= 0 else 1):
            joker = min(w, hand[E.JOKER])
            hand_after, pending_after = hand.copy(), pending.copy()
            take_operation(hand_after, E.WILD_MELD, 0, w - joker, joker)
            add_operation(pending_after, E.WILD_MELD, 0, w - joker, joker, 1)
            want = opening_search(hand_after, pending_after, *args, plan, bonus, 0, work2)
            assert wm_ax[w] == want, ("wild meld", w, wm_ax[w], want)
            wm_compared += 1
            wm_reached += want >= 0
        for kind in range(E.FIRST_NATURAL, E.N_KINDS):
            if is_dead(melds, kind):
                continue  # MELD-9 refuses every operation there (the search is not asked)
            for nat in range(hand[kind] + 1):
                for w in range(min(wilds, maxw) + 1):  # MELD-4: no more on a rank
                    if w > 0 and 0 < wm < E.CANASTA:
                        continue  # MELD-8: judged by the full search (legal_actions)
                    joker = min(w, hand[E.JOKER])
                    hand_after, pending_after = hand.copy(), pending.copy()
                    take_operation(hand_after, kind, nat, w - joker, joker)
                    add_operation(pending_after, kind, nat, w - joker, joker, 1)
                    want = opening_search(hand_after, pending_after, *args, plan, bonus, 0, work2)
                    assert ax[kind - E.FIRST_NATURAL, nat, w] == want, (kind, nat, w)
                    compared += 1
                    reached += want >= 0
    assert positions >= 100 and compared >= 2000, (positions, compared)
    assert 0 < reached < compared, (reached, compared)
    assert wm_compared >= 100 and 0 < wm_reached < wm_compared, (wm_compared, wm_reached)


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_turn_1_open_1_4_generated_legal_actions_equal_the_filter_random_hands(rules):
    """TURN-1, OPEN-1..4, MELD-1..9, OUT-1/2: ``legal_actions`` equals ``legal_actions_filter``
    at every decision of 12 random-vs-random hands (more opening-turn decisions, with more
    candidate operations, than the other pairings give)."""
    out1 = np.zeros(E.N_ACTIONS, dtype=np.int64)
    out2 = np.zeros(E.N_ACTIONS, dtype=np.int64)
    tmp = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)[E.SCRATCH_TMP : E.SCRATCH_TMP + E.TMP_SIZE]
    opening = 0
    for g, obs in games(("random", "random"), 29, range(12), rules):
        n1 = legal_actions(obs, g.rules, out1, tmp)
        n2 = legal_actions_filter(obs, g.rules, out2, tmp)
        assert n1 == n2 and (out1[:n1] == out2[:n2]).all(), (g.turn, out1[:n1], out2[:n2])
        if obs[E.OB_OPENING_TURN] == 1 and n1 and out1[n1 - 1] >= E.A_FIRST_MELD:
            opening += 1
    assert opening >= 40, opening
