"""Compiled what-if positions (``sim.play_position``): the deal around a fixed position
accounts for every card once (CARD-1), depends only on (seed, hand) and not on the choice,
impossible positions are refused by name (CARD-1, MELD-6, DEAL-2, sizes), and positions with a
known answer (END-1: an empty stock ends the hand at the draw; PILE-1: no pair, no pickup)."""

from types import SimpleNamespace

import numpy as np
import pytest

from sim.api import play_position
from sim.cards import parse_cards
from sim.encoding import (
    INV_OK,
    OBS_SIZE,
    SCRATCH_SIZE,
    SCRATCH_TMP,
    ST_PILE_N,
    ST_STOCK_N,
    STATE_SIZE,
    TMP_SIZE,
)
from sim.engine.invariants import check_invariants
from sim.engine.position import PS_CHOICE, deal_position, position_arrays
from sim.errors import CanastaError
from sim.play.table import TableView
from sim.rng import run_key, seed_hand
from sim.ruleset import as_ruleset

OPENER = "7H 7S 7D 7C AS AD AC AH KS KD KH JK QS"  # 7777 AAAA KKK = 130 (OPEN-1)


def pos(hand=OPENER, **kw):
    base = dict(seat=0, turn=0, scores=(0, 0), melds={}, pile_top=-1)
    return SimpleNamespace(hand=parse_cards(hand), **(base | kw))


LATER = dict(  # seat 1 at turn 9, its team has a canasta of queens, a king on the pile
    seat=1,
    turn=9,
    melds={1: ["QS QS QD QD QH QH QC"], 0: ["JS JD JH", "9S 9D 2C"]},
    pile_top=int(parse_cards("KS KS")[1]),
    pile="8H 8H",
)


def test_card_1_deal_accounts_every_card_once_same_deal_for_every_choice():
    """CARD-1: after the deal around a position (melds, pile, random pile cards) the 108
    cards are all there once; the deal depends on (seed, hand) only, never on the choice."""
    rules = np.ascontiguousarray(as_ruleset(None).to_array())
    tmpl, p, unseen = position_arrays(pos("KH KH 7H 7S 7D 5S 6D", **LATER), "draw")
    key = run_key(3)
    states = []
    for choice in (0, 5, 6):
        q = p.copy()
        q[PS_CHOICE] = choice
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        rng = np.zeros(4, dtype=np.uint64)
        seed_hand(key, 17, rng)
        deal_position(st, tmpl, q, unseen.copy(), rng, np.zeros(1, dtype=np.int64), rules)
        tmp = np.zeros(SCRATCH_SIZE, dtype=np.int64)[SCRATCH_TMP : SCRATCH_TMP + TMP_SIZE]
        assert check_invariants(st, rules, tmp) == INV_OK
        states.append(st)
    assert all((s == states[0]).all() for s in states)
    st = states[0]
    assert st[ST_PILE_N] == 9  # one discard a turn: 2 fixed below, 6 random, the fixed top
    fixed = TableView(st).hands[1]
    assert fixed.sum() == 7  # the fixed hand, as given
    assert st[ST_STOCK_N] == 108 - 7 - 13 * 3 - 7 - 6 - 9
    assert OBS_SIZE > 0


def test_play_position_reproducible_and_runner_path_same_rows():
    a = play_position(60, pos(), "meld_sevens", seed=4)
    b = play_position(60, pos(), "meld_sevens", seed=4, chunk_size=7)  # the runner's path
    assert a.equals(b)
    assert not a.equals(play_position(60, pos(), "meld_sevens", seed=5))
    assert a.applied.all()  # MELD-1 / OPEN-1: 7777 can open with AAAA KKK in every deal
    assert (a.team0_sevens_started_turn == 0).all() and (a.team0_sevens_started_held >= 4).all()
    assert (a.first_player == 0).all()


def test_impossible_positions_refused_by_name():
    with pytest.raises(CanastaError, match="CARD-1"):
        play_position(2, SimpleNamespace(hand=np.array([5, 5, 6])), "policy")
    with pytest.raises(CanastaError, match="MELD-6"):
        play_position(2, pos(turn=3, melds={0: ["7H 7S 7D 2C"]}), "policy")
    with pytest.raises(CanastaError, match="DEAL-2"):
        play_position(2, pos(pile_top=int(parse_cards("9C")[0])), "policy")
    with pytest.raises(CanastaError, match="DEAL-4"):
        play_position(2, pos(turn=3, pile_top=int(parse_cards("3S")[0])), "policy")
    with pytest.raises(CanastaError, match="OPEN-1"):
        play_position(2, pos(melds={1: ["9C 9C 9D"]}), "policy")
    with pytest.raises(CanastaError, match="do not add up"):
        play_position(2, pos(turn=2, stock=40, pile_size=1), "policy")
    with pytest.raises(CanastaError, match="unknown choice"):
        play_position(2, pos(), "fold")


def test_end_1_empty_stock_draw_ends_the_hand_pile_1_no_pair_no_pickup():
    """Known answers. END-1: with an empty stock, drawing ends the hand at once (every deal,
    turns = 10). PILE-1: with one king and a king on the pile, take_pile is never made."""
    p = pos("KH KH 7H 7S 7D 5S 6D", **(LATER | {"stock": 0}))
    df = play_position(40, p, "draw", seed=1)
    assert df.applied.all() and (df.end_reason == "stock").all() and (df.turns == 10).all()
    q = pos("KH 7H 7S 7D 5S 6D 4C", **LATER)
    df = play_position(40, q, "take_pile", seed=1)
    assert not df.applied.any()
