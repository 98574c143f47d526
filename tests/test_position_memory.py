"""What-if positions with the public card memory (``Position.known``): the cards known to be in
another seat's hand (taken with the pile, PILE-1, not shown since) go to that hand in every deal
and only the rest is dealt at random (CARD-1: every card once); a position without memory deals
as before; the memory is checked (CARD-1, DEAL-4, the hand sizes); ``advise`` and the hint's
``position_for`` deal with it."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from analysis import advise as adv
from analysis.whatif import position
from sim import encoding as E
from sim.cards import parse_cards
from sim.engine.invariants import check_invariants
from sim.engine.position import deal_position, position_arrays
from sim.errors import CanastaError
from sim.play import SeatView
from sim.play.table import TableView
from sim.rng import run_key, seed_hand
from sim.ruleset import as_ruleset

# seat 1 to play at turn 9; its team has a canasta of queens, a king on the pile
LATER = dict(
    hand="KH KH 7H 7S 7D 5S 6D",
    seat=1,
    turn=9,
    melds={1: ["QS QS QD QD QH QH QC"], 0: ["JS JD JH", "9S 9D 2C"]},
    pile_top="KS",
    pile="8H 8H",
)
#: the memory: seat 2 took a pile of tens and fours, seat 0 one with sixes and a joker
KNOWN = {2: "10S 10H 10D 4C 4D", 0: "6C 6H JK"}


def _counts(known) -> np.ndarray:
    out = np.zeros((E.N_PLAYERS, E.N_KINDS), dtype=np.int64)
    for q, cards in known.items():
        out[q] = np.bincount(E.CARD_KIND[parse_cards(cards)], minlength=E.N_KINDS)
    return out


def _deals(pos, n, seed=5):
    """The states of deals 0..n-1 around ``pos`` (``deal_position``, as the kernels deal)."""
    rules = np.ascontiguousarray(as_ruleset(None).to_array())
    template, arr, unseen = position_arrays(pos, "policy")
    key = run_key(seed)
    tmp = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)[E.SCRATCH_TMP : E.SCRATCH_TMP + E.TMP_SIZE]
    out = []
    for h in range(n):
        st = np.zeros(E.STATE_SIZE, dtype=np.int64)
        rng = np.zeros(4, dtype=np.uint64)
        seed_hand(key, h, rng)
        deal_position(st, template, arr, unseen.copy(), rng, np.zeros(1, dtype=np.int64), rules)
        assert check_invariants(st, rules, tmp) == E.INV_OK  # CARD-1: all 108 cards once
        out.append(st)
    return out


def _hands(st) -> np.ndarray:
    return TableView(st).hands


def test_known_cards_are_in_their_holders_hands_in_every_deal():
    """CARD-1 and the memory: over 400 deals, every known card is in its holder's hand, the
    state's memory (``ST_KNOWN``) is the position's, the hand sizes hold, and the rest is dealt
    at random (the holders' other cards vary from deal to deal)."""
    known = _counts(KNOWN)
    sizes = (11, 7, 13, 12)
    deals = _deals(position(**LATER, hand_sizes=sizes, known=KNOWN), 400)
    others = set()
    for st in deals:
        hands = _hands(st)
        assert (hands >= known).all()
        assert np.array_equal(hands.sum(axis=1), sizes)
        memory = TableView(st).known
        assert np.array_equal(memory, known)
        others.add(tuple(hands[2] - known[2]))
    assert len(others) > 300  # the 8 other cards of seat 2: dealt at random, nearly all differ


def test_without_memory_the_same_cards_are_dealt_at_random():
    """The contrast (so the test above can fail): without the memory, seat 2 holds all five
    known cards in almost no deal."""
    deals = _deals(position(**LATER, hand_sizes=(11, 7, 13, 12)), 400)
    known = _counts(KNOWN)
    held = sum(bool((_hands(st)[2] >= known[2]).all()) for st in deals)
    assert held < 20


def test_remaining_copies_of_a_known_kind_are_dealt_uniformly():
    """Only the rest is dealt at random: of the 8 tens, 3 known with seat 2 and none fixed,
    the other 5 are among the 77 unseen cards. The 6 random pile cards come first, from the 69
    that are not threes (DEAL-4), then the other 71 places uniformly, 10 of them seat 0's (13
    cards, 3 known): seat 0 holds 5 * (1 - 6/69) * 10/71 random tens on average. Checked over
    2000 deals within 5 standard errors (the sample's own)."""
    pos = position(**LATER, hand_sizes=(13, 7, 13, 12), known=KNOWN)
    _, _, unseen = position_arrays(pos, "policy")
    assert unseen.size == 77 and int(np.sum(E.IS_THREE[E.CARD_KIND[unseen]])) == 8
    n = 2000
    x = np.array([_hands(st)[0][E.TEN] for st in _deals(pos, n, seed=9)], dtype=float)
    mean = 5 * (1 - 6 / 69) * 10 / 71
    assert abs(x.mean() - mean) < 5 * x.std(ddof=1) / np.sqrt(n)


def test_no_memory_deals_exactly_as_before():
    """A position without memory, or with an empty one, gives the same arrays and deals."""
    spec = dict(LATER, hand_sizes=(11, 7, 13, 12))
    plain = position_arrays(position(**spec), "policy")
    empty = position_arrays(position(**spec, known={2: np.zeros(E.N_KINDS, int)}), "policy")
    for a, b in zip(plain, empty, strict=True):
        assert np.array_equal(a, b)
    a = _deals(position(**spec), 20)
    b = _deals(position(**spec, known={}), 20)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize(
    ("known", "needle"),
    [
        ({1: "4C"}, "fixed player"),  # the fixed seat's hand is given whole
        ({2: "10S 10H 10D 4C 4D 5C 5D 6S 6H 6D 8C 8D 9C 9H"}, "holds 13"),  # over its size
        ({2: "QC QC"}, "CARD-1"),  # only one queen unseen (7 melded)
        ({0: "JC JC", 2: "JC JS"}, "CARD-1"),  # 3 jacks melded, 2 in the hand: 3 unseen
        ({2: "3H"}, "DEAL-4"),  # threes are never taken with the pile
        ({5: "4C"}, "seat"),
    ],
)
def test_bad_memory_refused_by_name(known, needle):
    spec = dict(LATER, hand="KH KH 7H 7S 7D JC JC") if 0 in known else LATER
    with pytest.raises(CanastaError, match=needle):
        position_arrays(position(**spec, known=known), "policy")


def test_engine_checks_a_raw_memory():
    """The engine's own checks (a raw position, no analysis layer): shape, sign, own seat."""
    base = dict(
        hand=parse_cards("7H 7S 7D AS AD AC AH KS KD KH JK QS 5C"), seat=0, turn=4, scores=(0, 0)
    )
    good = np.zeros((E.N_PLAYERS, E.N_KINDS), dtype=np.int64)
    good[3, E.FIVE] = 2
    position_arrays(SimpleNamespace(**base, known=good), "policy")
    bad = [np.zeros((3, E.N_KINDS), int), -good, good + np.eye(4, E.N_KINDS, dtype=int)[0]]
    for known in bad:
        with pytest.raises(CanastaError, match="known"):
            position_arrays(SimpleNamespace(**base, known=known), "policy")


def test_advise_deals_with_memory_and_says_so():
    """``advise`` on a position with memory runs (draw and play steps) and says it used the
    memory; a drawn card of a kind the memory holds is still drawn (another copy is known)."""
    spec = dict(LATER, hand_sizes=(11, 7, 13, 12))
    pols = ("heuristic", "heuristic")
    a = adv.advise(position(**spec, known=KNOWN), n=4, policies=pols)
    assert a.memory and a.to_json()["memory"] is True
    assert adv.Advice.from_json(a.to_json()) == a
    b = adv.advise(position(**spec), n=4, policies=pols)
    assert not b.memory
    c = adv.advise(position(**spec, known=KNOWN), drawn="10C", n=4, policies=pols)
    assert c.memory and c.decision == "play"


def test_a_drawn_card_no_copy_of_which_is_left_is_refused():
    """CARD-1: every unseen queen is known in seat 2's hand, so none can be drawn."""
    spec = dict(LATER, hand_sizes=(11, 7, 13, 12))
    with pytest.raises(CanastaError, match="CARD-1"):
        adv.advise(position(**spec, known={2: "QC"}), drawn="QC", n=4)


def test_hint_position_carries_the_observed_memory():
    """``position_for`` fills the position's memory from the observation (``OB_KNOWN``) and
    the engine accepts it, at every decision of whole hands in which piles are taken; the
    hint's ``advise`` runs on the first such position and says it dealt with memory."""
    from canasta._human import Session, position_for
    from sim.play import Hand as Game

    seat = 0
    with_memory = 0
    advised = False
    for seed in range(6):
        s = Session(Game(seed=seed), seat, ["you"] + ["heuristic"] * 3, out=lambda _: None)
        s.run([])
        if int(s.game.observation(seat)[E.OB_PHASE]) == E.PH_THREES:
            s.command("lay")
        while not s.game.is_over:
            obs = s.game.observation(seat)
            phase = int(obs[E.OB_PHASE])
            if phase == E.PH_DRAW or (
                phase == E.PH_PLAY and obs[E.OB_DREW_STOCK] and not obs[E.OB_MELDED]
            ):
                pos, _drawn = position_for(s.game, seat)
                want = np.zeros((E.N_PLAYERS, E.N_KINDS), dtype=np.int64)
                seen = SeatView.from_observation(obs).known
                for i in range(1, E.N_PLAYERS):
                    want[(seat + i) % E.N_PLAYERS] = seen[i]
                got = np.zeros_like(want) if pos.known is None else pos.known
                assert np.array_equal(got, want)
                template, _, _ = position_arrays(pos, "policy")
                memory = TableView(template).known
                assert np.array_equal(memory, want)
                with_memory += bool(want.any())
                if want.any() and not advised:  # the hint's advice on it runs, with memory
                    a = adv.advise(pos, drawn=_drawn, n=4, policies=("heuristic", "heuristic"))
                    advised = a.memory and len(a.choices) > 0
            s.command("auto")
    assert with_memory >= 5 and advised


def test_a_drawn_copy_the_memory_took_is_stood_in_for():
    """CARD-1: five tens known with seat 2 take the highest ten ids, 10C of the first pack among
    them; drawing 10C (its lowest free copy) leaves another unseen ten in seat 2's hand in its
    place, so the deal still holds 8 tens: 5 known, the drawn one, 2 dealt at random."""
    from sim.engine.script import decision_state, script_arrays

    pos = position(**LATER, hand_sizes=(11, 7, 13, 12), known={2: "10S 10H 10D 10C 10S"})
    drawn = int(parse_cards("10C")[0])
    template, arr, unseen = script_arrays(pos, drawn)
    assert drawn not in set(unseen.tolist())
    assert int(np.sum(E.CARD_KIND[unseen] == E.TEN)) == 2
    rules = np.ascontiguousarray(as_ruleset(None).to_array())
    tmp = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)[E.SCRATCH_TMP : E.SCRATCH_TMP + E.TMP_SIZE]
    for h in range(20):
        st = decision_state(template, arr, unseen, drawn, rules, run_key(2), h)
        assert check_invariants(st, rules, tmp) == E.INV_OK
        assert _hands(st)[2][E.TEN] >= 5 and _hands(st)[1][E.TEN] >= 1  # drawn: in the hand
    a = adv.advise(pos, drawn="10C", n=4, policies=("heuristic", "heuristic"))
    assert a.memory and a.decision == "play"
