"""The whole table by name (``sim.play.table.TableView``) and a hand met at a what-if
position (``sim.play.position``): the state's fields read where the layout puts them, a
position's deal stepped through the one turn loop, and the draws' counts beside the records
(``sim.api.play_script_counts``)."""

import numpy as np
import pytest

from analysis.whatif import position
from sim import encoding as E
from sim.errors import CanastaError
from sim.play import Hand
from sim.play.position import NO_ACTION, PositionDeals, PositionHand, plans, script_rows
from sim.play.table import TableView, table_hands, table_melds

HAND = "AS AH AD JK 2C KS KH KD 7H 7S 9C 9D 5S"  # can open with aces and kings once KC comes
OPEN_POS = {"hand": HAND, "turn": 4, "pile_top": "8D"}


def test_table_view_reads_every_field_where_the_layout_puts_it():
    """Every field of STATE_FIELDS, at each step of a played hand: a one-number field is the
    int at its offset, a wider one the words from its offset, shaped; views are read-only and
    follow the state."""
    offsets, _ = E.layout(E.STATE_FIELDS)
    h = Hand(seed=5, hand_id=2)
    t = TableView.of(h)
    for n, _ in enumerate(h.turns(("heuristic", "random"))):
        for name, width in E.STATE_FIELDS:
            got = getattr(t, name)
            at = offsets[name]
            if width == 1:
                assert got == int(h.state[at]), name
            else:
                assert np.array_equal(np.ravel(got), h.state[at : at + width]), name
        pile, stock = offsets["pile"], offsets["stock"]
        assert np.array_equal(t.pile_kinds, h.state[pile : pile + t.pile_n])
        assert np.array_equal(t.stock_cards, h.state[stock : stock + t.stock_n])
        assert t.hands.shape == (E.N_PLAYERS, E.N_KINDS)
        assert t.melds.shape == (E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS)
        assert np.array_equal(table_hands(h.state), t.hands)
        assert np.array_equal(table_melds(h.state), t.melds)
        if n > 40:
            break
    assert h.turn > 3
    with pytest.raises(ValueError, match="read-only"):
        t.hands[0, 0] = 1
    with pytest.raises(AttributeError, match="no field"):
        t.nosuch  # noqa: B018
    with pytest.raises(ValueError, match="numbers"):
        TableView(np.zeros(3, dtype=np.int64))


def test_a_writable_table_view_writes_a_scenario_into_the_state_by_name():
    """``TableView.writable`` (building scenarios): a wide field's view writes into the state
    at the field's offset, a one-number field is assigned; the plain view stays read-only."""
    offsets, _ = E.layout(E.STATE_FIELDS)
    h = Hand(seed=5, hand_id=2)
    before = h.state.copy()
    w = TableView.writable(h.state)
    w.hands[1] = 0
    w.melds[1, E.QUEEN] = (3, 1, 0)
    w.stock_n = 5
    hand1 = offsets["hands"] + E.N_KINDS
    assert not h.state[hand1 : hand1 + E.N_KINDS].any()
    at = offsets["melds"] + (E.N_KINDS + E.QUEEN) * E.N_MELD_COLS
    assert h.state[at : at + 3].tolist() == [3, 1, 0]
    assert h.state[offsets["stock_n"]] == 5 and TableView.of(h).stock_n == 5
    changed = np.flatnonzero(h.state != before)
    assert set(changed) <= {offsets["stock_n"], at, at + 1, *range(hand1, hand1 + E.N_KINDS)}
    with pytest.raises(AttributeError, match="read-only"):
        TableView.of(h).stock_n = 4
    with pytest.raises(AttributeError, match="no field"):
        w.nosuch = 1
    with pytest.raises(ValueError, match="writable numpy"):
        TableView.writable(h.state.tolist())


def test_a_positions_deal_is_a_hand_at_the_fixed_seats_decision():
    """Deal i of a position is the same state each time it is asked (paired deals), the fixed
    seat to act at the draw (DEAL-4: threes laid), or at the play step after a given draw; it
    has no deal to replay."""
    pos = position(**OPEN_POS)
    deals = PositionDeals(pos, seed=3)
    a, b, c = deals.hand(7), deals.hand(7), deals.hand(8)
    assert np.array_equal(a.state, b.state) and not np.array_equal(a.state, c.state)
    assert a.current_player == pos.seat and a.phase == "draw"
    assert sorted(np.flatnonzero(a.view().hand)) == sorted(
        np.flatnonzero(np.bincount(E.CARD_KIND[pos.hand], minlength=E.N_KINDS))
    )
    kc = int(np.flatnonzero(E.CARD_KIND == E.KING)[3])
    play = PositionDeals(pos, drawn=kc, seed=3).hand(0)
    assert play.phase == "play" and play.view().hand[E.KING] == 4  # KS KH KD and the king drawn
    with pytest.raises(CanastaError, match="no deal"):
        play.redeal()
    with pytest.raises(CanastaError, match="no deal"):
        play.record()


def test_finish_turn_plays_a_plan_or_a_policy_to_the_end_of_the_seats_turn():
    """A plan of the play step (``plans``: each legal, ending in a discard or going out)
    played by ``finish_turn`` ends the seat's turn with the plan's actions applied in order;
    a step the rules refuse (MELD-1: two kings alone) returns False; the heuristic's own turn
    ends the turn too, and the hand it forked from is left as it was."""
    pos = position(**OPEN_POS)
    kc = int(np.flatnonzero(E.CARD_KIND == E.KING)[3])
    hand = PositionDeals(pos, drawn=kc, seed=1).hand(0)
    before = hand.state.copy()
    found = plans(hand)
    assert found and all(
        E.ACTION_TABLE[p[-1], E.AC_TYPE] in (E.AT_DISCARD, E.AT_DECLARE) for p in found
    )
    for plan in found[:25]:
        trial = hand.fork()
        assert trial.finish_turn(script=plan)
        assert trial.actions[: len(plan)] == list(plan)
        assert trial.is_over or trial.current_player != pos.seat or trial.turn != hand.turn
    bad = hand.fork()
    two_kings = int(E.MELD_ACTION[E.KING, 2, 0, 0])
    assert two_kings >= 0 and not bad.finish_turn(script=[two_kings])
    from sim.policies.registry import resolve

    spec, params, _ = resolve("heuristic")
    mine = hand.fork()
    assert mine.finish_turn(policy=(spec, params))
    assert mine.actions and (mine.is_over or mine.current_player != pos.seat)
    assert np.array_equal(hand.state, before) and hand.actions == []
    stop = hand.fork()  # a script shorter than the turn stops at the seat's next decision
    assert stop.finish_turn(script=found[-1][:1]) and stop.current_player == pos.seat


def test_script_rows_pads_with_no_action():
    rows = script_rows([(1, 2, 3), (4,), ()])
    assert rows.tolist() == [[1, 2, 3], [4, NO_ACTION, NO_ACTION], [NO_ACTION] * 3]
    assert script_rows([]).shape == (0, 1)


def test_position_hand_from_a_dealt_hands_state_steps_as_the_hand():
    """A PositionHand met at a dealt hand's state takes the same legal actions and, played on
    with the same policies from the same (zero) generator, the same actions."""
    h = Hand(seed=2, hand_id=1)
    for n, _ in enumerate(h.turns(("heuristic", "heuristic"))):
        if n == 30:
            break
    p = PositionHand(h.state, h.ruleset)
    assert p.legal_actions() == h.legal_actions() and p.view().seat == h.current_player
    q = PositionHand(h.state, h.ruleset)
    p.play(("heuristic", "greedy"))
    q.play(("heuristic", "greedy"))
    assert p.is_over and p.actions == q.actions and p.scores() == q.scores()


def test_play_script_counts_gives_play_scripts_records_and_centred_counts():
    """``play_script_counts`` plays the deals ``play_script`` plays (the same rows), and each
    row's counts hold one per card a side drew less the stock's share: every kind's centred
    count sums over a row to the draws minus the draws (zero) per side."""
    from sim.api import play_script, play_script_counts

    pos = position(**OPEN_POS)
    scripts = script_rows([(E.A_DRAW,), (E.A_TAKE_PILE,)])
    pols = ("heuristic", "heuristic")
    df, counts = play_script_counts(6, pos, scripts, seed=4, policies=pols, first=2)
    ref = play_script(6, pos, scripts, seed=4, policies=pols, first=2)
    cols = [c for c in ref.columns if c in df.columns]
    assert len(df) == len(ref) == 12 and df[cols].reset_index(drop=True).equals(
        ref[cols].reset_index(drop=True)
    )
    assert counts.shape == (12, E.N_TEAMS, E.N_KINDS)
    assert np.allclose(counts.sum(axis=2), 0.0, atol=1e-9)  # centred: each draw adds 1 - 1
    assert np.abs(counts).sum() > 0
    with pytest.raises(CanastaError, match="first"):
        play_script_counts(2, pos, scripts, first=-1)
