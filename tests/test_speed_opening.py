"""Issue 12, third speed pass: the opening search that visits only the states it reaches, in
tables from a work area (``opening_search``, OPEN-1..4 with MELD-1..9, OUT-1/2, PILE-1),
gives the count AND the plan of the search as it stood before (kept below, verbatim, as the
oracle) on random positions, under every ``relax`` mask, and on every opening-turn decision
of real hands; the pile check with a work area (``pile_reason_work``, PILE-1/2) answers as
before too."""

import numpy as np
import pytest
from numba import njit

from sim import encoding as E
from sim.engine.game import Game
from sim.engine.judge import forced_action
from sim.engine.views import ob_aside_total, ob_hand, ob_melds, ob_pending
from sim.legality import (
    PILE_MELD_LIMIT,
    RELAX_LEAVE,
    RELAX_OPEN_2,
    RELAX_OPEN_4,
    is_dead,
    leave_reason,
    meld_size,
    opening_search,
    opening_search_alloc,
    pile_reason_work,
)
from sim.legality.search import (
    _B,
    _C,
    _F,
    _L,
    _NO,
    _SUB,
    _VALUE,
    _decode,
    _encode,
    _wild_points,
)
from tests.test_legality import _pending_from, random_hand, random_rules

assert (_B, _C, _F, _L) == (2, 3, 2, 3)  # the state layout the copy below was written for


# The search as it was before issue 12's third pass (sim/legality.py at 1227ea4): full
# tables allocated per call, every state scanned. Kept only as the oracle.
@njit
def _best_opening_before(hand, pending, melds, pile_kind, extra, rules, plan, bonus=False, relax=0):
    """OPEN-1..4 with MELD-1..9 and OUT-1/2: the largest count an initial meld can reach.

    ``hand``: cards still in hand (the pile's top card not included); ``pending[slot, col]``:
    melds already made from hand this turn (the pickup pair included); ``melds``: the table
    (ranks dead by MELD-9 cannot be melded and stay in hand); ``pile_kind``: kind of
    the pile's top card being melded this turn, or -1; ``extra``: cards that join the hand once
    the opening stands (the rest of a taken pile). Fills ``plan[slot, col]`` with the further
    cards to meld and returns the count (points from hand, pending included), or -1 if no valid
    opening exists. A valid opening holds a natural meld of 3+ from hand (OPEN-2), no mixed
    canasta (OPEN-4), and leaves a card to discard and a card to hold, or goes out legally
    (OUT-1/2); ``bonus``: the player is owed bonus cards (OPEN-5), so the card to discard is
    enough (OUT-2). ``relax``: ``RELAX_*`` bits, for ``opening_refusal`` only.
    Exact: a dynamic programme over the natural ranks, wild cards placed jokers first.
    """
    maxw = rules[E.RS_MAX_WILDS_MIXED]
    jokers = hand[E.JOKER]
    wilds = hand[E.JOKER] + hand[E.TWO]
    threes = hand[E.RED_THREE] + hand[E.BLACK_THREE]
    n_states = (wilds + 1) * _SUB
    n_layers = E.N_KINDS - E.FIRST_NATURAL
    dp = np.full((n_layers + 1, n_states), _NO, dtype=np.int64)
    # back pointers (naturals a, wilds x, previous state s) packed in one word; written with
    # every state reached, so only those are read and the array needs no clearing (speed)
    back = np.empty((n_layers + 1, n_states), dtype=np.int64)
    dp[0, 0] = 0  # p=0 wilds placed, no natural meld, 0 naturals left, 0 canastas, not bad
    for i in range(n_layers):
        kind = E.FIRST_NATURAL + i
        c = hand[kind]
        base_n = pending[kind, E.NATURALS]
        base_w = pending[kind, E.TWOS] + pending[kind, E.JOKERS]
        top = 1 if kind == pile_kind else 0
        dead = is_dead(melds, kind)  # MELD-9: a dead rank stays in hand
        for s in range(n_states):
            if dp[i, s] == _NO:
                continue
            p, f, left, cc, bad = _decode(s)
            for a in range(1 if dead else c + 1):
                n = base_n + a
                big_n = n + top
                if top == 1 and n < 2:
                    continue  # PILE-1: the pair comes from hand
                for x in range(1 if dead else min(maxw, wilds - p) + 1):
                    w = base_w + x
                    size = big_n + w
                    if size == 0:
                        pass  # no meld of this rank
                    elif size < E.MIN_MELD:
                        continue  # MELD-1
                    elif w > 0:
                        if big_n < 2 or w > maxw or kind == E.SEVEN:
                            continue  # MELD-4, MELD-6 (aces may take wilds: MELD-7)
                        if size > E.CANASTA or (size == E.CANASTA and not relax & RELAX_OPEN_4):
                            continue  # MELD-2, OPEN-4
                    elif size > E.CANASTA:
                        continue  # MELD-2
                    nf = 1 if (f == 1 or (n >= E.MIN_MELD and w == 0)) else 0  # OPEN-2
                    ncc = min(cc + (1 if size >= E.CANASTA else 0), _C - 1)
                    unfinished = 0 < size < E.CANASTA
                    nbad = bad
                    if unfinished and (kind == E.SEVEN or (kind == E.ACE and w == 0)):
                        nbad = 1
                    nleft = min(left + c - a, _L - 1)
                    ns = _encode(p + x, nf, nleft, ncc, nbad)
                    value = dp[i, s] + n * _VALUE[kind]
                    if value > dp[i + 1, ns]:
                        dp[i + 1, ns] = value
                        back[i + 1, ns] = (s << 16) | (x << 8) | a  # a, x < 256
    # Combine with the wild meld (MELD-8) and judge what is left in hand (OUT-1/2).
    base_wm = pending[E.WILD_MELD, E.TWOS] + pending[E.WILD_MELD, E.JOKERS]
    pending_wilds = 0
    for slot in range(E.N_KINDS):
        pending_wilds += (
            pending[slot, E.TWOS] * _VALUE[E.TWO] + pending[slot, E.JOKERS] * _VALUE[E.JOKER]
        )
    best, best_s, best_q = _NO, -1, 0
    for s in range(n_states):
        if dp[n_layers, s] == _NO:
            continue
        p, f, left, cc, bad = _decode(s)
        if f == 0 and not relax & RELAX_OPEN_2:
            continue  # OPEN-2
        for q in range(wilds - p + 1):
            wm = base_wm + q
            if 0 < wm < E.MIN_MELD or wm > E.CANASTA:
                continue  # MELD-1, MELD-2
            if p > 0 and 0 < base_wm < E.CANASTA and wm < E.CANASTA:
                continue  # MELD-8: wilds elsewhere only once the started wild meld is done
            left_total = left + (wilds - p - q) + extra
            if relax & RELAX_LEAVE:
                pass
            elif left_total == 0:
                continue  # OUT-2: nothing left to discard
            elif left_total == 1 and threes == 0 and not bonus:
                # OUT-2: no card to hold, so discarding the last card goes out: OUT-1
                total_cc = cc + (1 if wm >= E.CANASTA else 0)
                if total_cc < 2 or bad == 1 or 0 < wm < E.CANASTA:
                    continue
            value = dp[n_layers, s] + pending_wilds + _wild_points(p + q, jokers)
            if value > best:
                best, best_s, best_q = value, s, q
    for slot in range(E.N_KINDS):
        for col in range(E.N_MELD_COLS):
            plan[slot, col] = 0
    if best == _NO:
        return -1
    # Rebuild the plan; jokers go to natural melds first, the rest to the wild meld.
    jokers_left = jokers
    s = best_s
    for i in range(n_layers, 0, -1):
        kind = E.FIRST_NATURAL + i - 1
        a, x = back[i, s] & 255, (back[i, s] >> 8) & 255
        plan[kind, E.NATURALS] = a
        j = min(x, jokers_left)
        plan[kind, E.JOKERS] = j
        plan[kind, E.TWOS] = x - j
        jokers_left -= j
        s = back[i, s] >> 16
    j = min(best_q, jokers_left)
    plan[E.WILD_MELD, E.JOKERS] = j
    plan[E.WILD_MELD, E.TWOS] = best_q - j
    return best


def _random_position(rng, case):
    kinds = [int(k) for k in rng.choice(E.N_KINDS, size=int(rng.integers(2, 7)), replace=False)]
    kinds += [E.JOKER, E.TWO] if case % 2 == 0 else []
    hand = random_hand(rng, int(rng.integers(3, 16)), kinds)
    rules = random_rules(rng)
    pairs = [k for k in E.NATURAL_KINDS if hand[k] >= 2]
    pile_kind = pairs[rng.integers(0, len(pairs))] if pairs and rng.random() < 0.3 else -1
    pending = _pending_from(rng, hand, pile_kind)
    extra = int(rng.integers(0, 4)) if pile_kind >= 0 else int(rng.integers(0, 2))
    melds = np.zeros((2, E.N_KINDS, 3), dtype=np.int64)
    if case % 4 == 1:
        live = [k for k in E.NATURAL_KINDS if k != pile_kind and pending[k].sum() == 0]
        melds[1, live[rng.integers(0, len(live))], 0] = 7  # MELD-9: a dead rank
    bonus = pile_kind < 0 and case % 5 == 2
    return hand, pending, melds, pile_kind, extra, rules, bonus


def test_open_1_4_search_work_gives_the_count_and_plan_of_the_search_before():
    """OPEN-1..4, MELD-1..9, OUT-1/2: 6,000 random positions (pending melds, a pile pickup,
    dead ranks, many wild cards), each under every ``relax`` mask: the same count and the
    same plan, with a shared work area and with the allocating wrapper."""
    rng = np.random.default_rng(29)
    work = np.zeros(E.SEARCH_WORK_SIZE, dtype=np.int64)
    plan_a, plan_b, plan_c = (np.zeros((E.N_KINDS, 3), dtype=np.int64) for _ in range(3))
    found = 0
    for case in range(6_000):
        hand, pending, melds, pk, extra, rules, bonus = _random_position(rng, case)
        for relax in range(8) if case % 10 == 0 else (0,):
            args = (hand, pending, melds, pk, extra, rules)
            want = _best_opening_before(*args, plan_a, bonus, relax)
            got = opening_search(*args, plan_b, bonus, relax, work)
            got2 = opening_search_alloc(*args, plan_c, bonus, relax)
            assert got == want == got2, (case, relax, hand.tolist(), pending.tolist(), pk)
            assert (plan_b == plan_a).all() and (plan_c == plan_a).all(), (case, relax)
            found += want >= 0
    assert found > 1_000, found  # openings were found (and plans compared)


def test_open_1_4_search_with_every_wild_card_of_the_deck_fits_the_work_area():
    """OPEN-1..4: a hand holding all 12 wild cards (the most states) searches in the work
    area and agrees with the search before; an undersized work area is replaced."""
    hand = np.zeros(E.N_KINDS, dtype=np.int64)
    hand[E.JOKER], hand[E.TWO] = 4, 8
    hand[[E.KING, E.ACE, E.EIGHT]] = (3, 2, 5)
    pending = np.zeros((E.N_KINDS, 3), dtype=np.int64)
    melds = np.zeros((2, E.N_KINDS, 3), dtype=np.int64)
    rules = random_rules(np.random.default_rng(1))
    p1, p2, p3 = (np.zeros((E.N_KINDS, 3), dtype=np.int64) for _ in range(3))
    want = _best_opening_before(hand, pending, melds, -1, 0, rules, p1, False, 0)
    big = np.zeros(E.SEARCH_WORK_SIZE, dtype=np.int64)
    small = np.zeros(10, dtype=np.int64)
    assert opening_search(hand, pending, melds, -1, 0, rules, p2, False, 0, big) == want > 0
    assert opening_search(hand, pending, melds, -1, 0, rules, p3, False, 0, small) == want
    assert (p2 == p1).all() and (p3 == p1).all()


@njit
def _pile_reason_before(hand, melds, team, pile_counts, top_kind, opened, min_count, rules):
    """PILE-1/2 as ``pile_reason`` stated it before (allocating, the search before)."""
    size = pile_counts.sum()
    if size == 0:
        return E.R_PILE_EMPTY
    if top_kind < E.FIRST_NATURAL:
        return E.R_PILE_TOP_WILD_OR_THREE
    if is_dead(melds, top_kind):
        return E.R_PILE_DEAD_RANK
    if meld_size(melds, team, top_kind) >= PILE_MELD_LIMIT:
        return E.R_PILE_MELD_FULL
    if hand[top_kind] < 2:
        return E.R_PILE_NO_PAIR
    rest = hand.copy()
    rest[top_kind] -= 2
    if not opened:
        pending = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
        pending[top_kind, E.NATURALS] = 2
        plan = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
        got = _best_opening_before(rest, pending, melds, top_kind, size - 1, rules, plan, False, 0)
        return E.R_PILE_CANNOT_OPEN if got < min_count else E.R_OK
    after = melds.copy()
    after[team, top_kind, E.NATURALS] += 3
    for kind in range(E.N_KINDS):
        rest[kind] += pile_counts[kind]
    rest[top_kind] -= 1
    return leave_reason(rest, after, team)


def test_pile_1_2_pile_reason_work_answers_as_before_on_random_positions():
    """PILE-1/2 (and OPEN-1 through a pickup): 6,000 random hands, piles and tables, opened or
    not, with a work area reused throughout (stale words from the previous call)."""
    rng = np.random.default_rng(31)
    work = np.zeros(E.SEARCH_WORK_SIZE, dtype=np.int64)
    codes = set()
    for case in range(6_000):
        hand, _, melds, _, _, rules, _ = _random_position(rng, case)
        pile = random_hand(rng, int(rng.integers(1, 12)), list(range(E.N_KINDS)))
        top = int(rng.choice([k for k in range(E.N_KINDS) if pile[k] > 0]))
        if rng.random() < 0.2:
            melds[0, top, 0] = int(rng.integers(3, 6))
        opened = bool(rng.random() < 0.4)
        mc = int(rng.choice([50, 90, 125, 155, 180]))
        args = (hand, melds, 0, pile, top, opened, mc, rules)
        want = _pile_reason_before(*args)
        assert pile_reason_work(*args, work) == want, (case, hand.tolist(), pile.tolist(), top)
        codes.add(int(want))
    assert {E.R_OK, E.R_PILE_CANNOT_OPEN, E.R_PILE_NO_PAIR} <= codes, codes


@pytest.mark.parametrize("pair", [("random", "random"), ("heuristic", "greedy")], ids="-".join)
def test_open_1_4_search_as_before_at_every_opening_turn_decision_of_real_hands(pair):
    """OPEN-1..4 at every play decision of an opening turn of real hands (seed 61): the
    position's search (what the engine and the policies run) gives the count and plan of
    the search before."""
    work = np.zeros(E.SEARCH_WORK_SIZE, dtype=np.int64)
    p1, p2 = (np.zeros((E.N_KINDS, 3), dtype=np.int64) for _ in range(2))
    compared = 0
    for hand_id in range(6):
        g = Game(seed=61, hand_id=hand_id)
        while not g.is_over:
            obs = g.observation()
            a = int(forced_action(obs))
            if a < 0:
                if obs[E.OB_PHASE] == E.PH_PLAY and obs[E.OB_OPENING_TURN] == 1:
                    hand, pending, melds = ob_hand(obs), ob_pending(obs), ob_melds(obs)
                    args = (hand, pending, melds, obs[E.OB_PILE_KIND], ob_aside_total(obs))
                    for bonus in (False, True):
                        want = _best_opening_before(*args, g.rules, p1, bonus, 0)
                        assert opening_search(*args, g.rules, p2, bonus, 0, work) == want
                        assert (p1 == p2).all()
                        compared += 1
                a = g.policy_action(pair[g.current_player % 2])
            g.apply(a)
    assert compared >= 50, compared
