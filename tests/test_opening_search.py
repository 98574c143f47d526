"""OPEN-1..4, PILE-1/2: the opening search that visits only the states it reaches, in tables
from a work area (``opening_search``, OPEN-1..4 with MELD-1..9, OUT-1/2, PILE-1), gives the
count of the brute-force twin (``tests/twins/legality_twin.py``, every way to meld the hand
tried) and a playable plan of that count, on random positions, under every ``relax`` mask, and
at every opening-turn decision of real hands; the pile check with a work area
(``pile_reason_work``, PILE-1/2) answers as the twin does."""

import numpy as np
import pytest

from sim import encoding as E
from sim.engine.views import ob_aside_total, ob_hand, ob_melds, ob_pending
from sim.legality import (
    RELAX_LEAVE,
    RELAX_OPEN_2,
    RELAX_OPEN_4,
    opening_search,
    opening_search_alloc,
    pile_reason_work,
)
from tests.real_hands import games
from tests.test_legality import check_plan, random_hand, random_position, random_rules
from tests.twins import legality_twin as twin


def _twin(hand, pending, melds, pile_kind, extra, rules, bonus=False, relax=0):
    """The twin's count with the rules a ``relax`` mask lifts not judged."""
    return twin.opening_search_twin(
        hand,
        pending,
        melds,
        pile_kind,
        extra,
        rules,
        bonus,
        open_2=not relax & RELAX_OPEN_2,
        open_4=not relax & RELAX_OPEN_4,
        leave=not relax & RELAX_LEAVE,
    )


def _plan_counts(pending, plan, count):
    """A relaxed search's plan adds up to its count and uses only the cards it names."""
    assert twin.opening_count((pending + plan).tolist()) == count
    assert (plan >= 0).all()


def _random_position(rng, case):
    """Larger positions than the brute-force test's: more kinds and cards, more wild cards."""
    return random_position(rng, case, kinds=(2, 7), wild_every=2, cards=(3, 16), extra=(4, 2))


def test_open_1_4_search_work_gives_the_count_of_the_twin_and_a_playable_plan():
    """OPEN-1..4, MELD-1..9, OUT-1/2: 500 random positions (pending melds, a pile pickup,
    dead ranks, many wild cards), each fifth under every ``relax`` mask: the twin's count, the
    same plan with a shared work area and with the allocating wrapper, and a playable plan."""
    rng = np.random.default_rng(29)
    work = np.zeros(E.SEARCH_WORK_SIZE, dtype=np.int64)
    plan_b, plan_c = (np.zeros((E.N_KINDS, 3), dtype=np.int64) for _ in range(2))
    found = 0
    for case in range(500):
        hand, pending, melds, pk, extra, rules, bonus = _random_position(rng, case)
        for relax in range(8) if case % 5 == 0 else (0,):
            args = (hand, pending, melds, pk, extra, rules)
            want = _twin(*args, bonus, relax)
            got = opening_search(*args, plan_b, bonus, relax, work)
            got2 = opening_search_alloc(*args, plan_c, bonus, relax)
            assert got == want == got2, (case, relax, hand.tolist(), pending.tolist(), pk)
            assert (plan_c == plan_b).all(), (case, relax)
            if got >= 0:
                found += 1
                if relax:
                    _plan_counts(pending, plan_b, got)
                else:
                    check_plan(hand, pending, pk, plan_b, got, rules)
    assert found > 100, found  # openings were found (and plans checked)


def test_open_1_4_search_with_every_wild_card_of_the_deck_fits_the_work_area():
    """OPEN-1..4: a hand holding all 12 wild cards (the most states) searches in the work
    area and gives the twin's count; an undersized work area is replaced."""
    hand = np.zeros(E.N_KINDS, dtype=np.int64)
    hand[E.JOKER], hand[E.TWO] = 4, 8
    hand[[E.KING, E.ACE, E.EIGHT]] = (3, 2, 5)
    pending = np.zeros((E.N_KINDS, 3), dtype=np.int64)
    melds = np.zeros((2, E.N_KINDS, 3), dtype=np.int64)
    rules = random_rules(np.random.default_rng(1))
    p2, p3 = (np.zeros((E.N_KINDS, 3), dtype=np.int64) for _ in range(2))
    want = _twin(hand, pending, melds, -1, 0, rules)
    big = np.zeros(E.SEARCH_WORK_SIZE, dtype=np.int64)
    small = np.zeros(10, dtype=np.int64)
    assert opening_search(hand, pending, melds, -1, 0, rules, p2, False, 0, big) == want > 0
    assert opening_search(hand, pending, melds, -1, 0, rules, p3, False, 0, small) == want
    assert (p3 == p2).all()
    check_plan(hand, pending, -1, p2, want, rules)


def test_pile_1_2_pile_reason_work_answers_as_the_twin_on_random_positions():
    """PILE-1/2 (and OPEN-1 through a pickup): 3,000 random hands, piles and tables, opened or
    not, with a work area reused throughout (stale words from the previous call)."""
    rng = np.random.default_rng(31)
    work = np.zeros(E.SEARCH_WORK_SIZE, dtype=np.int64)
    codes = set()
    for case in range(3_000):
        hand, _, melds, _, _, rules, _ = _random_position(rng, case)
        pile = random_hand(rng, int(rng.integers(1, 12)), list(range(E.N_KINDS)))
        top = int(rng.choice([k for k in range(E.N_KINDS) if pile[k] > 0]))
        if rng.random() < 0.2:
            melds[0, top, 0] = int(rng.integers(3, 6))
        opened = bool(rng.random() < 0.4)
        mc = int(rng.choice([50, 90, 125, 155, 180]))
        args = (hand, melds, 0, pile, top, opened, mc, rules)
        want = twin.pile_twin(*args)
        assert pile_reason_work(*args, work) == want, (case, hand.tolist(), pile.tolist(), top)
        codes.add(int(want))
    assert {E.R_OK, E.R_PILE_CANNOT_OPEN, E.R_PILE_NO_PAIR} <= codes, codes


@pytest.mark.parametrize("pair", [("random", "random"), ("heuristic", "greedy")], ids="-".join)
def test_open_1_4_search_as_the_twin_at_every_opening_turn_decision_of_real_hands(pair):
    """OPEN-1..4 at every play decision of an opening turn of real hands (seed 61): the
    position's search (what the engine and the policies run) gives the twin's count and a
    playable plan."""
    work = np.zeros(E.SEARCH_WORK_SIZE, dtype=np.int64)
    plan = np.zeros((E.N_KINDS, 3), dtype=np.int64)
    compared = 0
    for g, obs in games(pair, 61, range(6), None):
        if obs[E.OB_PHASE] == E.PH_PLAY and obs[E.OB_OPENING_TURN] == 1:
            hand, pending, melds = ob_hand(obs), ob_pending(obs), ob_melds(obs)
            pk = int(obs[E.OB_PILE_KIND])
            args = (hand, pending, melds, pk, int(ob_aside_total(obs)))
            for bonus in (False, True):
                want = _twin(*args, g.rules, bonus)
                assert opening_search(*args, g.rules, plan, bonus, 0, work) == want
                if want >= 0:
                    check_plan(hand, pending, pk, plan, want, g.rules)
                compared += 1
    assert compared >= 50, compared
