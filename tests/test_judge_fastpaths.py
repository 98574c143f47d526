"""TURN-1, SPECIAL-1..7, MELD-1..9, OPEN-1..5, OUT-1/2, DISCARD-1..3, PILE-1/2: each fast path
of the judge gives the answer of the validator it stands for (``action_reason``, the law), on every
decision of real hands and on positions built around every special hand:

- ``action_ok``, ``declare_ok``: the validator's yes or no without naming a refusal;
- ``quick_ok``: the engine's proof of the common cases from the counts, which must never accept
  what ``action_reason`` refuses and must carry most of the engine's checks of the heuristic;
- ``check_action`` with the policy's hint, and ``sim.legality.opening_path_count`` (one plan
  judged as a path of the opening search), against the search at every opening-turn decision,
  whatever the hint holds;
- the forced draw read from the state against ``forced_action``.
"""

import numpy as np
import pytest
from numba import njit

from sim import encoding as E
from sim.engine.fastpath import hint_completes
from sim.engine.judge import (
    action_ok,
    action_reason,
    check_action,
    declare_ok,
    meld_reason_obs,
    quick_ok,
)
from sim.engine.observe import bonus_owed
from sim.engine.views import ob_hand
from sim.legality import opening_path_count, opening_search
from sim.play import Hand as Game
from sim.play import SeatView
from sim.play.view import obs_fields
from sim.policies import get
from sim.policies.builtin import heuristic_decide
from tests.real_hands import RULE_IDS, RULES, games

PAIRS = [("random", "random"), ("heuristic", "heuristic"), ("special_chaser", "greedy")]


@njit
def _first_disagreement(obs, rules, tmp, tmp2):
    """(first action id where ``action_ok`` differs from ``action_reason == R_OK`` or -1,
    number of legal actions)."""
    n_ok = 0
    for a in range(E.N_ACTIONS):
        want = action_reason(obs, a, rules, tmp2) == E.R_OK
        if action_ok(obs, a, rules, tmp) != want:
            return a, n_ok
        n_ok += 1 if want else 0
    return -1, n_ok


def _tmps():
    return np.zeros(E.TMP_SIZE, dtype=np.int64), np.zeros(E.TMP_SIZE, dtype=np.int64)


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_turn_1_action_ok_equals_action_reason_on_every_action_of_real_hands(pair):
    """TURN-1 and the rules core: ``action_ok`` (no refusal named: no opening diagnosis, no
    nearest special hand) answers as ``action_reason(...) == R_OK`` for every action id at
    every decision of real hands."""
    tmp, tmp2 = _tmps()
    decisions = legal = 0
    for g, obs in games(pair, 53, range(3), None):
        bad, n_ok = _first_disagreement(obs, g.rules, tmp, tmp2)
        assert bad == -1, (pair, g.hand_id, g.turn, bad)
        decisions += 1
        legal += n_ok
    assert decisions >= 3 * 40 and legal > decisions, (decisions, legal)


def _special_hands():
    """Every special hand (SPECIAL-3..6), as counts per kind."""
    straight = np.zeros(E.N_KINDS, np.int64)
    straight[[E.JOKER, E.TWO, E.RED_THREE]] = 1
    straight[E.FIRST_NATURAL :] = 1
    pairs = np.zeros(E.N_KINDS, np.int64)
    pairs[E.FIRST_NATURAL : E.FIRST_NATURAL + 7] = 2
    tsa = np.zeros(E.N_KINDS, np.int64)
    tsa[[E.TWO, E.SEVEN, E.ACE, E.FOUR, E.FIVE, E.NINE, E.KING]] = 2
    garbage = np.zeros(E.N_KINDS, np.int64)
    garbage[[E.FIVE, E.EIGHT]] = 4
    garbage[[E.TEN, E.QUEEN]] = 3
    return [straight, pairs, tsa, garbage]


def _near_special_hands():
    """The special hands, each with one card swapped for any other kind (SPECIAL-2's three,
    near misses), and with a card added or taken away (SPECIAL-1: 14 cards)."""
    out = []
    for base in _special_hands():
        out.append(base)
        for i in range(E.N_KINDS):
            if base[i] == 0:
                continue
            less = base.copy()
            less[i] -= 1
            out.append(less)  # 13 cards
            for j in range(E.N_KINDS):
                if j != i:
                    swap = less.copy()
                    swap[j] += 1
                    out.append(swap)
        more = base.copy()
        more[E.FOUR] += 1
        out.append(more)  # 15 cards
    return out


def _unopened_play_position():
    """An observation in the play phase of a player whose team has not melded (seed 53)."""
    g = Game(seed=53, hand_id=0)
    for t in g.turns(("random", "random")):
        v = SeatView.from_observation(t.obs)
        if v.phase == E.PH_PLAY and v.opened[0] == 0 and v.melded == 0:
            return t.obs.copy(), g.rules.copy()
    raise AssertionError("no unopened play decision")


def test_special_1_to_7_declare_ok_equals_action_reason_around_every_special_hand():
    """SPECIAL-1..7: ``declare_ok`` (which looks for a refused hand's nearest special hand
    never) answers as ``action_reason(A_DECLARE) == R_OK`` on each special hand and its
    one-card neighbours, after a stock draw or not, melded or not, specials on or off."""
    base, rules = _unopened_play_position()
    off = rules.copy()
    off[E.RS_SPECIAL_HANDS] = E.SPECIAL_HANDS_MODES.index("none")
    tmp, tmp2 = _tmps()
    accepted = refused = 0
    for counts in _near_special_hands():
        for drew in (0, 1):
            for melded in (0, 1):
                for r in (rules, off):
                    obs = base.copy()
                    obs_fields(obs).hand[:] = counts
                    obs[E.OB_HAND_SIZES] = counts.sum()
                    obs[E.OB_DREW_STOCK] = drew
                    obs[E.OB_MELDED] = melded
                    want = action_reason(obs, E.A_DECLARE, r, tmp2) == E.R_OK
                    assert declare_ok(obs, r, tmp) == want, (counts, drew, melded)
                    assert action_ok(obs, E.A_DECLARE, r, tmp) == want
                    accepted += want
                    refused += not want
    assert accepted >= 4 and refused > accepted, (accepted, refused)


@njit
def _split_dependence(obs, rules, tmp):
    """(slot, nat, two, joker) of the first natural-slot operation whose verdict without the
    opening search (``meld_reason_obs(..., opening=False) == R_OK``) differs from that of
    another split of the same number of wild cards, else (-1, ...); and the number of
    operations compared."""
    hand = ob_hand(obs)
    compared = 0
    for slot in range(E.FIRST_NATURAL, E.N_KINDS):
        for nat in range(min(hand[slot], E.CANASTA) + 1):
            seen = np.full(E.MAX_OP_WILDS + 1, -1, dtype=np.int64)
            for two in range(min(hand[E.TWO], E.MAX_OP_WILDS) + 1):
                for joker in range(min(hand[E.JOKER], E.MAX_OP_WILDS - two) + 1):
                    ok = meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, False) == 0
                    w = two + joker
                    if seen[w] >= 0 and seen[w] != ok:
                        return (slot, nat, two, joker), compared
                    seen[w] = ok
                    compared += 1
    return (-1, -1, -1, -1), compared


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_meld_1_9_out_2_verdict_without_opening_sees_only_the_number_of_wilds(pair):
    """MELD-1..9, OUT-2 (what ``legal_actions`` judges once per number of wild cards): on a
    natural slot, every split of w wild cards into twos and jokers gets the same verdict of
    the rules other than OPEN-1..4, at every play decision of real hands."""
    tmp, _ = _tmps()
    compared = 0
    for g, obs in games(pair, 59, range(4), None):
        if obs[E.OB_PHASE] == E.PH_PLAY:
            where, n = _split_dependence(obs, g.rules, tmp)
            assert where[0] == -1, (pair, g.hand_id, g.turn, where)
            compared += n
    assert compared >= 2_000, compared


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_pile_1_2_forced_draw_read_from_the_state_equals_forced_action(pair):
    """PILE-1/2: ``forced_action_state`` (the engine's test before it observes) equals
    ``forced_action`` of the observation at every step of real hands, forced or not."""
    from sim.engine.play import forced_action_state

    forced = steps = 0
    for hand_id in range(4):
        g = Game(seed=67, hand_id=hand_id)
        for t in g.turns(pair):  # its forced steps are forced_action's
            a = t.action if t.forced else -1
            assert forced_action_state(g.state) == a, (pair, hand_id, g.turn)
            steps += 1
            forced += t.forced
    assert steps > 4 * 60 and 0 < forced < steps, (steps, forced)


@njit(cache=True)
def _quick_against_full(obs, rules, tmp):
    """(actions quick_ok accepts, of those the ones action_reason refuses), over the table
    and a few ids outside it."""
    accepted = wrong = 0
    for a in range(-2, E.N_ACTIONS + 2):
        if quick_ok(obs, a, rules):
            accepted += 1
            if action_reason(obs, a, rules, tmp) != E.R_OK:
                wrong += 1
    return accepted, wrong


@njit(cache=True)
def _quick(obs, a, rules):
    return quick_ok(obs, a, rules)


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
@pytest.mark.parametrize(
    "pair",
    [("heuristic", "heuristic"), ("random", "greedy"), ("special_chaser", "random")],
)
def test_turn_1_discard_meld_out_2_quick_ok_accepts_only_legal_actions(rules, pair):
    """At every decision, every action quick_ok accepts is one action_reason accepts."""
    tmp = np.zeros(E.TMP_SIZE, dtype=np.int64)
    decisions = accepted = 0
    kinds = set()
    for g, obs in games(pair, 31, range(25), rules):
        n, wrong = _quick_against_full(obs, g.rules, tmp)
        assert wrong == 0, (pair, g.hand_id, obs.tolist())
        decisions += 1
        accepted += n
        kinds.add((int(obs[E.OB_PHASE]), int(obs[E.OB_OPENING_TURN]), int(obs[E.OB_PILE_N] == 0)))
    # real hands reach every phase, opening turns and an empty pile (DISCARD-3)
    assert decisions > 1000 and accepted > 2 * decisions, (decisions, accepted)
    assert len(kinds) >= 5, kinds


def test_turn_1_discard_meld_quick_ok_carries_most_of_the_heuristic_checks():
    """The heuristic's own choices: most (measured ~80%: draws, threes, discards and melds
    after the opening turn) are proved at once; the opening turn's melds never are."""
    params = get("heuristic").param_array()
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    rng = np.ones(4, dtype=np.uint64)
    quick = total = opening_melds = 0
    for g, obs in games(("heuristic", "heuristic"), 37, range(40), None):
        a = heuristic_decide(obs.copy(), params, rng, g.rules, scratch)
        q = _quick(obs, a, g.rules)
        total += 1
        quick += q
        if obs[E.OB_OPENING_TURN] == 1 and E.ACTION_TABLE[a, E.AC_TYPE] == E.AT_MELD:
            opening_melds += 1
            assert not q  # OPEN-1..4: check_action's plan or search judges these
    assert opening_melds > 0
    assert quick > 0.7 * total, (quick, total)


CELLS = E.N_KINDS * E.N_MELD_COLS


def _position(obs):
    v = SeatView.from_observation(obs)  # copies: the search may write its own
    hand, pending, melds = (np.array(x) for x in (v.hand, v.pending, v.melds))
    return hand, pending, melds, v.pile_kind, int(v.aside.sum())


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_open_1_4_path_count_is_the_search_count_of_its_plan_and_never_more(rules):
    """OPEN-1..4: the search's own plan is valued at the search's count; any other plan
    (the search's changed by one card in one cell, a hundred times a position) at no more
    than the search's count, or -1."""
    work = np.zeros(E.SEARCH_WORK_SIZE, dtype=np.int64)
    plan = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    gen = np.random.default_rng(5)
    positions = valued = 0
    for g, obs in games(("heuristic", "random"), 13, range(25), rules):
        if obs[E.OB_PHASE] != E.PH_PLAY or obs[E.OB_OPENING_TURN] != 1:
            continue
        hand, pending, melds, pk, extra = _position(obs)
        bonus = bool(bonus_owed(obs))
        best = opening_search(hand, pending, melds, pk, extra, g.rules, plan, bonus, 0, work)
        positions += 1
        if best >= 0:
            assert opening_path_count(hand, pending, melds, pk, extra, g.rules, plan, bonus) == best
            valued += 1
        for _ in range(100):
            other = plan.copy()
            other[gen.integers(E.N_KINDS), gen.integers(E.N_MELD_COLS)] += gen.choice((-1, 1))
            got = opening_path_count(hand, pending, melds, pk, extra, g.rules, other, bonus)
            assert got <= best and (got >= 0 or got == -1)
    assert positions > 100 and valued > 30, (positions, valued)


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_open_1_4_check_with_any_hint_equals_action_reason(rules):
    """OPEN-1..4: at every play decision of an opening turn, for every meld operation, the
    engine's check with a hint (the policy's plan, that plan with one cell changed, random
    words, with and without the cache) answers as ``action_reason``; the hint is used."""
    tmp = np.zeros(E.TMP_SIZE, dtype=np.int64)
    tmp2 = np.zeros(E.TMP_SIZE, dtype=np.int64)
    cache = np.zeros(E.PC_SIZE, dtype=np.int64)
    gen = np.random.default_rng(8)
    compared = used = 0
    turn = -1
    for g, obs in games(("heuristic", "heuristic"), 17, range(12), rules):
        if obs[E.OB_TURN] != turn:
            cache[E.PC_VALID] = 0  # as the engine's loop empties it between turns
            turn = obs[E.OB_TURN]
        if obs[E.OB_PHASE] != E.PH_PLAY or obs[E.OB_OPENING_TURN] != 1:
            continue
        own = g._scratch[E.SCRATCH_HINT : E.SCRATCH_HINT + CELLS].reshape(E.N_KINDS, -1)
        a = g.policy_action("heuristic")  # leaves its plan from this position in the hint words
        changed = own.copy()
        changed[gen.integers(E.N_KINDS), gen.integers(E.N_MELD_COLS)] += gen.choice((-1, 1))
        junk = gen.integers(-3, 4, size=own.shape)
        for hint in (own.copy(), changed, junk):
            for b in range(E.A_FIRST_MELD, E.N_ACTIONS):
                want = action_reason(obs, b, g.rules, tmp2)
                assert check_action(obs, b, g.rules, tmp, cache.copy(), hint) == want, b
                assert check_action(obs, b, g.rules, tmp, np.zeros_like(cache), hint) == want
                compared += 1
        if E.ACTION_TABLE[a, E.AC_TYPE] == E.AT_MELD:
            op = (E.ACTION_TABLE[a, c] for c in (E.AC_SLOT, E.AC_NAT, E.AC_TWO, E.AC_JOKER))
            used += hint_completes(obs, *op, g.rules, tmp2, own.copy())  # the policy's plan
        assert check_action(obs, a, g.rules, tmp, cache, own.copy()) == E.R_OK
    assert compared > 1000 and used > 10, (compared, used)
