"""Rule kernels of sim.legality: one test per rule, and agreement with the Python twins."""

import numpy as np

from sim import encoding as E
from sim.cards import counts_of, parse_cards
from sim.legality import (
    canastas,
    discard_reason,
    from_hand_count,
    is_dead,
    judge_meld,
    leave_reason,
    meld_reason,
    opening_meld_reason,
    opening_min,
    opening_reason,
    opening_refusal,
    opening_search_alloc,
    out_reason,
    pile_reason,
)
from sim.ruleset import Ruleset
from tests.twins import legality_twin as twin

RULES = Ruleset().to_array()


def hand_of(text):
    return counts_of(parse_cards(text))


def position(**team_melds):
    """melds array from keyword specs like t0_7=(3, 0, 0) (team 0, sevens: 3 naturals)."""
    melds = np.zeros((E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    for key, value in team_melds.items():
        team, slot = key[1], key.split("_")[1]
        slot = E.WILD_MELD if slot == "W" else E.KIND_NAMES.index(slot)
        melds[int(team), slot] = value
    return melds


def meld(melds, slot, nat, two=0, joker=0, initial=False, going_out=False, rules=RULES, team=0):
    return meld_reason(melds, team, slot, nat, two, joker, initial, going_out, rules)


EMPTY = position()


# --- MELD -------------------------------------------------------------------------------
def test_meld_1_three_to_seven_of_one_rank():
    assert meld(EMPTY, E.KING, 3) == E.R_OK
    assert meld(EMPTY, E.KING, 2) == E.R_MELD_TOO_SMALL
    assert meld(EMPTY, E.KING, 0) == E.R_EMPTY_MELD
    assert meld(position(t0_K=(3, 0, 0)), E.KING, 1) == E.R_OK  # adding one card is fine
    assert meld(EMPTY, E.RED_THREE, 3) == E.R_THREE_MELDED  # DEAL-4
    assert meld(EMPTY, E.WILD_MELD, 3) == E.R_MELD_MIXED_RANKS


def test_meld_2_no_meld_over_seven_and_the_going_out_variant():
    six = position(t0_K=(6, 0, 0))
    assert meld(six, E.KING, 2) == E.R_MELD_TOO_LONG
    canasta = position(t0_Q=(5, 2, 0))
    assert meld(canasta, E.QUEEN, 0, 1, going_out=True) == E.R_DEAD_RANK
    long_rules = Ruleset(allow_long_meld_going_out=True, max_wilds_mixed=3).to_array()
    assert meld(canasta, E.QUEEN, 0, 1, going_out=True, rules=long_rules) == E.R_OK
    assert meld(canasta, E.QUEEN, 0, 1, going_out=False, rules=long_rules) == E.R_DEAD_RANK
    wild7 = position(t0_W=(0, 7, 0))
    assert meld(wild7, E.WILD_MELD, 0, 1) == E.R_MELD_TOO_LONG


def test_meld_3_one_meld_per_rank_per_team_both_teams_may_meld_it():
    both = position(t1_9=(4, 0, 0))
    assert meld(both, E.NINE, 3, team=0) == E.R_OK  # the other team's nines are not ours
    # a team's cards of a rank join its one meld: a 3-card addition is judged on the total
    assert meld(position(t0_9=(5, 0, 0)), E.NINE, 3) == E.R_MELD_TOO_LONG


def test_meld_4_mixed_needs_two_naturals_and_at_most_two_wilds():
    assert meld(EMPTY, E.EIGHT, 2, 1, initial=True) == E.R_OK
    assert meld(EMPTY, E.EIGHT, 2, 1, 1, initial=True) == E.R_OK
    assert meld(EMPTY, E.EIGHT, 1, 2, initial=True) == E.R_MIXED_TOO_FEW_NATURALS
    assert meld(EMPTY, E.EIGHT, 3, 2, 1, initial=True) == E.R_MIXED_TOO_MANY_WILDS
    classic = Ruleset(max_wilds_mixed=3).to_array()
    assert meld(EMPTY, E.EIGHT, 3, 2, 1, initial=True, rules=classic) == E.R_OK


def test_meld_5_rule_of_five_after_the_opening():
    four = position(t0_J=(4, 0, 0))
    assert meld(four, E.JACK, 0, 1) == E.R_RULE_OF_FIVE
    assert meld(four, E.JACK, 1, 1) == E.R_OK  # the natural joins first (docs/rules.md)
    assert meld(EMPTY, E.JACK, 2, 1) == E.R_RULE_OF_FIVE  # no new mixed meld after opening
    assert meld(EMPTY, E.JACK, 2, 1, initial=True) == E.R_OK
    off = Ruleset(rule_of_five=False).to_array()
    assert meld(four, E.JACK, 0, 1, rules=off) == E.R_OK
    assert meld(EMPTY, E.WILD_MELD, 0, 3) == E.R_OK  # wild melds are exempt


def test_meld_6_sevens_never_take_wilds():
    assert meld(EMPTY, E.SEVEN, 3, 1, initial=True) == E.R_SEVENS_WILD
    assert meld(position(t0_7=(6, 0, 0)), E.SEVEN, 0, 0, 1) == E.R_SEVENS_WILD


def test_meld_7_aces_take_wilds_only_in_the_initial_meld():
    assert meld(EMPTY, E.ACE, 2, 1, initial=True) == E.R_OK
    assert meld(position(t0_A=(5, 0, 0)), E.ACE, 0, 1) == E.R_ACES_WILD
    # an aces meld that took wilds in the opening is an ordinary mixed meld afterwards
    mixed = position(t0_A=(5, 1, 0))
    assert meld(mixed, E.ACE, 0, 1) == E.R_OK
    assert meld(position(t0_A=(2, 1, 0)), E.ACE, 0, 1) == E.R_RULE_OF_FIVE


def test_meld_8_wild_meld_and_no_wilds_elsewhere_while_it_is_incomplete():
    assert meld(EMPTY, E.WILD_MELD, 0, 2, 1) == E.R_OK
    assert meld(EMPTY, E.WILD_MELD, 0, 2) == E.R_MELD_TOO_SMALL
    started = position(t0_W=(0, 3, 0), t0_K=(5, 0, 0))
    assert meld(started, E.KING, 0, 1) == E.R_WILD_MELD_INCOMPLETE
    assert meld(started, E.WILD_MELD, 0, 1) == E.R_OK
    done = position(t0_W=(0, 5, 2), t0_K=(5, 0, 0))
    assert meld(done, E.KING, 0, 1) == E.R_OK


def test_meld_9_dead_rank_for_both_teams():
    dead = position(t1_K=(7, 0, 0), t0_K=(3, 0, 0))
    assert is_dead(dead, E.KING)
    assert meld(dead, E.KING, 1) == E.R_DEAD_RANK
    assert meld(dead, E.KING, 1, team=1) == E.R_DEAD_RANK
    assert not is_dead(position(t1_W=(0, 7, 0)), E.WILD_MELD)
    assert meld(position(t1_W=(0, 7, 0)), E.WILD_MELD, 0, 3) == E.R_OK  # wild is not a rank


def test_meld_10_canastas_are_seven_card_melds():
    melds = position(t0_K=(7, 0, 0), t0_Q=(5, 2, 0), t0_W=(0, 4, 3), t0_9=(6, 0, 0))
    assert canastas(melds, 0) == 3
    assert canastas(melds, 1) == 0


# --- OPEN -------------------------------------------------------------------------------
def test_open_1_minimum_by_team_score():
    assert [opening_min(RULES, s) for s in (-500, 0, 2995, 3000, 4995, 5000, 9000)] == [
        125,
        125,
        125,
        155,
        155,
        180,
        180,
    ]


def opening_check(from_hand_rows, pile_kind=-1, min_count=125, wild_ok=0):
    from_hand = np.zeros((E.N_KINDS, 3), dtype=np.int64)
    for slot, row in from_hand_rows.items():
        from_hand[slot] = row
    melds = np.zeros((2, E.N_KINDS, 3), dtype=np.int64)
    melds[0] = from_hand
    if pile_kind >= 0:
        melds[0, pile_kind, 0] += 1
    return opening_reason(from_hand, melds, 0, pile_kind, min_count, wild_ok)


def test_open_1_several_melds_add_up_to_the_minimum():
    rows = {E.KING: (3, 0, 0), E.QUEEN: (3, 0, 0), E.ACE: (2, 0, 1)}
    assert from_hand_count(np.array([rows.get(s, (0, 0, 0)) for s in range(15)])) == 150
    assert opening_check(rows) == E.R_OK
    assert opening_check(rows, min_count=155) == E.R_OPEN_MINIMUM


BY_HAND = Ruleset(opening_minimum="hand").to_array()
WILD_OPENING = Ruleset(opening_natural=False).to_array()


def test_open_1_variant_minimum_by_hand_number():
    """OPEN-1 variant opening_minimum = "hand": 125, 155, then 180 by the hand's number in the
    game, whatever the score; under the default the hand's number changes nothing."""
    for score in (-500, 0, 4000, 9000):
        assert [opening_min(BY_HAND, score, n) for n in (1, 2, 3, 4, 9)] == [
            125,
            155,
            180,
            180,
            180,
        ]
        assert {opening_min(RULES, score, n) for n in (1, 2, 3, 9)} == {opening_min(RULES, score)}
    assert opening_min(BY_HAND, 9000) == 125  # a hand on its own is hand 1 (docs/rules.md)


def test_open_1_variant_in_the_engine_state_and_observation():
    """OPEN-1 variant: the deal sets the hand's number (ST_HAND_NUMBER), the observation's
    minimum follows it for both teams; a record of a later hand replays as that hand."""
    from sim.play import Hand as Game

    for rules, number, scores, want in [
        ({"opening_minimum": "hand"}, 2, (6000, 0), (155, 155)),
        ({"opening_minimum": "hand"}, 1, (6000, 0), (125, 125)),
        ({"opening_minimum": "hand"}, 3, (0, 0), (180, 180)),
        (None, 3, (6000, 0), (180, 125)),  # the default: by score, the number is ignored
    ]:
        g = Game(seed=1, rules=rules, scores=scores, hand_number=number)
        assert g.state[E.ST_HAND_NUMBER] == number
        got = tuple(int(g.observation(p)[E.OB_OPEN_MIN]) for p in (0, 1))
        assert got == want, (rules, number, scores)
        again = Game.replay(g.to_json())
        assert int(again.observation(0)[E.OB_OPEN_MIN]) == want[0]


def test_open_2_variant_wild_opening():
    """OPEN-2 variant opening_natural = false: a wild meld of 3+ from hand stands in for the
    natural meld (three jokers, 150); a mixed meld alone still does not (its own sentence,
    naming OPEN-2); OPEN-1 and OPEN-4 still hold."""
    wild = {E.WILD_MELD: (0, 0, 3)}
    assert opening_check(wild) == E.R_OPEN_NO_NATURAL_MELD
    assert opening_check(wild, wild_ok=1) == E.R_OK
    assert opening_check({E.WILD_MELD: (0, 2, 1)}, wild_ok=1) == E.R_OPEN_MINIMUM  # 90 < 125
    mixed_only = {E.ACE: (2, 1, 1), E.KING: (2, 0, 1)}
    assert opening_check(mixed_only, wild_ok=1) == E.R_OPEN_NO_BASE_MELD
    assert E.explain(E.R_OPEN_NO_BASE_MELD).startswith("OPEN-2: ")
    mixed_canasta = {E.KING: (5, 2, 0), E.WILD_MELD: (0, 1, 2)}  # OPEN-4 still holds
    assert opening_check(mixed_canasta, wild_ok=1) == E.R_OPEN_MIXED_CANASTA


def test_open_2_variant_opening_search_and_bound():
    """OPEN-2 variant in the opening search, its cheap bound and the refusal: JK JK JK 2 + junk
    opens with the wild meld (170) only under the variant; A A JK K K 2 (no natural meld, no
    wild meld of 3 once the mixed melds take the wilds) is refused under OPEN-2 either way."""
    from sim.legality import opening_count_bound

    none = np.zeros((E.N_KINDS, 3), np.int64)
    plan = np.zeros((E.N_KINDS, 3), dtype=np.int64)
    hand = hand_of("JK JK JK 2C 9H 4C 8D")
    assert opening_search_alloc(hand, none, EMPTY, -1, 0, RULES, plan) == -1
    assert opening_count_bound(hand, none, EMPTY, RULES) == -1
    assert opening_search_alloc(hand, none, EMPTY, -1, 0, WILD_OPENING, plan) == 170
    assert plan[E.WILD_MELD, E.JOKERS] == 3 and plan[E.WILD_MELD, E.TWOS] == 1
    assert opening_count_bound(hand, none, EMPTY, WILD_OPENING) >= 170
    assert opening_refusal(hand, none, EMPTY, 0, -1, 0, WILD_OPENING, 125, False) == E.R_OK
    assert opening_refusal(hand, none, EMPTY, 0, -1, 0, RULES, 125, False) == (
        E.R_OPEN_NO_NATURAL_MELD
    )
    hand = hand_of("AH AS JK KH KD 2C 9H 4C")
    assert opening_search_alloc(hand, none, EMPTY, -1, 0, WILD_OPENING, plan) == -1
    assert opening_refusal(hand, none, EMPTY, 0, -1, 0, WILD_OPENING, 125, False) == (
        E.R_OPEN_NO_BASE_MELD
    )


def test_open_2_needs_a_natural_meld_of_three():
    assert opening_check({E.ACE: (2, 1, 1), E.KING: (2, 0, 1)}) == E.R_OPEN_NO_NATURAL_MELD
    assert opening_check({E.ACE: (2, 1, 1), E.KING: (3, 0, 0)}) == E.R_OK


def test_open_3_the_top_card_counts_for_nothing():
    # aces: the pair from hand (40) + the top ace (not counted); K K+JK 70; Q Q+JK 70 -> 180,
    # not 200; and the aces are not a natural meld of 3 from hand
    rows = {E.ACE: (2, 0, 0), E.KING: (2, 0, 1), E.QUEEN: (2, 0, 1)}
    assert opening_check(rows, pile_kind=E.ACE, min_count=200) == E.R_OPEN_MINIMUM
    assert opening_check(rows, pile_kind=E.ACE, min_count=150) == E.R_OPEN_NO_NATURAL_MELD


def test_open_4_no_mixed_canasta_in_the_opening():
    mixed = {E.KING: (5, 2, 0), E.QUEEN: (3, 0, 0), E.ACE: (3, 0, 0)}  # 180, natural queens
    assert opening_check(mixed) == E.R_OPEN_MIXED_CANASTA
    assert opening_check({E.KING: (7, 0, 0), E.ACE: (3, 0, 0)}) == E.R_OK  # 70 + 60


def test_open_4_one_meld_completing_a_mixed_canasta_in_the_opening():
    """OPEN-4 concerns one meld: five kings and two twos, five aces, a two and a joker (the
    aces may take wilds in the opening, MELD-7) are refused in the opening, by the kernel and by
    judge_meld (check-meld --initial); a natural canasta and a wild canasta are not."""
    assert opening_meld_reason(EMPTY, 0, E.KING, 5, 2, 0) == E.R_OPEN_MIXED_CANASTA
    assert opening_meld_reason(EMPTY, 0, E.ACE, 5, 1, 1) == E.R_OPEN_MIXED_CANASTA
    assert opening_meld_reason(position(t0_K=(5, 1, 0)), 0, E.KING, 0, 1, 0) == (
        E.R_OPEN_MIXED_CANASTA
    )  # the operation that completes it
    assert opening_meld_reason(position(t0_K=(5, 1, 0)), 0, E.KING, 1, 0, 0) == (
        E.R_OPEN_MIXED_CANASTA
    )  # a natural completing a meld that holds a wild
    assert opening_meld_reason(EMPTY, 0, E.KING, 5, 1, 0) == E.R_OK  # six cards
    assert opening_meld_reason(EMPTY, 0, E.KING, 7, 0, 0) == E.R_OK  # natural canasta
    assert opening_meld_reason(EMPTY, 0, E.WILD_MELD, 0, 4, 3) == E.R_OK  # wild: not mixed
    for text, initial, want in [
        ("KH KS KD KC KH 2C 2D", True, E.R_OPEN_MIXED_CANASTA),
        ("AS AH AD AC AS 2C JK", True, E.R_OPEN_MIXED_CANASTA),
        ("KH KS KD KC KH KS KD", True, E.R_OK),
        ("KH KS KD KC KH 2C", True, E.R_OK),
        ("2C 2D 2H 2S JK JK 2C", True, E.R_OK),
        ("KH KS KD KC KH 2C 2D", False, E.R_OK),  # after the opening OPEN-4 is no bar
    ]:
        assert judge_meld(hand_of(text), EMPTY, 0, initial, False, RULES) == want, text


def _refusal(text, pending=None, min_count=125, bonus=False, melds=EMPTY, pile_kind=-1):
    pending = np.zeros((E.N_KINDS, 3), np.int64) if pending is None else pending
    hand = hand_of(text)
    return opening_refusal(hand, pending, melds, 0, pile_kind, 0, RULES, min_count, bonus)


def test_open_2_refusal_named_when_the_count_is_there_but_no_clean_triple():
    """OPEN-2, not OPEN-1: K K+JK JK melded, then Q Q J J 2 2 2 8 5 4: about 180 meldable but
    no natural meld of three (the issue's hand)."""
    pending = np.zeros((E.N_KINDS, 3), np.int64)
    pending[E.KING] = (2, 0, 2)
    assert _refusal("QS QH JS JH 2C 2D 2S 8S 5S 4C", pending) == E.R_OPEN_NO_NATURAL_MELD
    assert _refusal("QS QH QD JS JH 2C 2D 2S 8S 5S 4C", pending) == E.R_OK


def test_open_4_refusal_named_when_only_a_mixed_canasta_reaches_the_count():
    """OPEN-4, not OPEN-1: five kings and a joker melded; the two left can only finish the
    kings as a mixed canasta (K 100 + 2 20 + Q 30 = 150), without it 130 - 30 ... < 125."""
    pending = np.zeros((E.N_KINDS, 3), np.int64)
    pending[E.KING] = (5, 0, 1)
    # K5+JK 100 + QQQ 30 = 130 is enough: legal
    assert _refusal("QS QH QD 2C 8S 5S", pending) == E.R_OK
    # K5+JK 100 + 777 15 = 115; the two can only go on the kings (7 cards, mixed): OPEN-4
    assert _refusal("7S 7H 7D 2C 8S 5S", pending) == E.R_OPEN_MIXED_CANASTA
    assert _refusal("7S 7H 7D 8S 5S", pending) == E.R_OPEN_MINIMUM  # nothing reaches 125


def test_out_1_out_2_refusal_named_when_the_opening_needs_every_card():
    """OUT-1/OUT-2, not OPEN-1: A A A K K K Q Q Q 5 5 5 make 135 but leave only the 9, and
    going out needs two canastas (OUT-1); with no 9 nothing is left to discard (OUT-2); owed
    bonus cards (OPEN-5) the one card to discard is enough (OUT-2 as written)."""
    text = "AS AH AD KS KH KD QS QH QD 5S 5H 5D"
    assert _refusal(text + " 9C") == E.R_OUT_CANASTAS
    assert _refusal(text) == E.R_MELD_LEAVES_NO_DISCARD
    assert _refusal(text + " 9C", bonus=True) == E.R_OK
    assert _refusal(text, bonus=True) == E.R_MELD_LEAVES_NO_DISCARD
    assert _refusal(text + " 9C 4C") == E.R_OK


def test_open_opening_search_finds_the_largest_count():
    """OPEN-1..4: K K K, Q Q+joker, 9 9+two, 5 5 5 = 155; the 4 is left to discard."""
    plan = np.zeros((E.N_KINDS, 3), dtype=np.int64)
    hand = hand_of("KH KS KD QH QS 2C JK 5H 5D 5S 9C 9D 4H 3H")
    got = opening_search_alloc(hand, np.zeros((E.N_KINDS, 3), np.int64), EMPTY, -1, 0, RULES, plan)
    assert got == 155
    assert plan[E.FOUR].sum() == 0 and plan.sum() == 12


def test_meld_9_opening_search_never_melds_a_dead_rank():
    """MELD-9 in the opening search: the other team's king canasta keeps our kings in hand."""
    plan = np.zeros((E.N_KINDS, 3), dtype=np.int64)
    hand = hand_of("KH KS KD QH QS 2C JK 5H 5D 5S 9C 9D 4H 3H")
    dead_kings = position(t1_K=(7, 0, 0))
    got = opening_search_alloc(
        hand, np.zeros((E.N_KINDS, 3), np.int64), dead_kings, -1, 0, RULES, plan
    )
    assert got == 125 and plan[E.KING].sum() == 0  # 155 less the three kings


def test_open_2_opening_search_is_refused_without_a_natural_meld():
    plan = np.zeros((E.N_KINDS, 3), dtype=np.int64)
    hand = hand_of("AH AS JK KH KD 2C 9H 4C")
    assert (
        opening_search_alloc(hand, np.zeros((E.N_KINDS, 3), np.int64), EMPTY, -1, 0, RULES, plan)
        == -1
    )


# --- PILE -------------------------------------------------------------------------------
def pile(hand_text, pile_text, top, melds=EMPTY, opened=True, min_count=125):
    pile_counts = hand_of(pile_text)
    return pile_reason(hand_of(hand_text), melds, 0, pile_counts, top, opened, min_count, RULES)


def test_pile_1_always_frozen_needs_a_natural_pair():
    assert pile("9H 9S 4C 5D", "KS 9D", E.NINE) == E.R_OK
    assert pile("9H 2S 4C 5D", "KS 9D", E.NINE) == E.R_PILE_NO_PAIR


def test_pile_2_when_the_pile_cannot_be_taken():
    assert pile("9H 9S 4C", "", E.NINE) == E.R_PILE_EMPTY
    assert pile("2H 2S 4C", "9S 2D", E.TWO) == E.R_PILE_TOP_WILD_OR_THREE
    dead = position(t1_9=(7, 0, 0))
    assert pile("9H 9S 4C", "KS 9D", E.NINE, melds=dead) == E.R_PILE_DEAD_RANK
    five = position(t0_9=(5, 0, 0))
    assert pile("9H 9S 4C", "KS 9D", E.NINE, melds=five) == E.R_PILE_MELD_FULL
    four = position(t0_9=(4, 0, 0))
    assert pile("9H 9S 4C", "KS 9D", E.NINE, melds=four) == E.R_OK
    # not opened: the hand must make the opening with the pickup meld
    assert pile("9H 9S 4C 5D", "KS 9D", E.NINE, opened=False) == E.R_PILE_CANNOT_OPEN
    rich = "9H 9S AH AS AD KH KS KD JK 2C 4C"
    assert pile(rich, "KC 9D", E.NINE, opened=False) == E.R_OK


def test_pile_2_the_opening_check_ignores_the_rest_of_the_pile():
    # the pile holds three aces, but only the cards held before the pickup count
    assert pile("9H 9S 4C 5D 6C", "AH AS AD 9D", E.NINE, opened=False) == E.R_PILE_CANNOT_OPEN


# --- DISCARD ----------------------------------------------------------------------------
def test_discard_1_threes_are_never_discarded():
    assert discard_reason(hand_of("3H 4C 5D"), E.RED_THREE, EMPTY, 3) == E.R_DISCARD_THREE
    assert discard_reason(hand_of("4C 5D"), E.SIX, EMPTY, 3) == E.R_NOT_HELD


def test_discard_2_wild_only_when_going_out_or_holding_only_wilds():
    assert discard_reason(hand_of("2C 5D"), E.TWO, EMPTY, 3) == E.R_DISCARD_WILD
    assert discard_reason(hand_of("2C JK"), E.TWO, EMPTY, 3) == E.R_OK
    assert discard_reason(hand_of("JK"), E.JOKER, EMPTY, 3) == E.R_OK
    assert discard_reason(hand_of("JK 3H"), E.JOKER, EMPTY, 3) == E.R_OK  # kept three ignored


def test_discard_3_empty_pile_restrictions():
    melds = position(t1_Q=(7, 0, 0))
    assert discard_reason(hand_of("7C 5D"), E.SEVEN, melds, 0) == E.R_DISCARD_EMPTY_PILE
    assert discard_reason(hand_of("AC 5D"), E.ACE, melds, 0) == E.R_DISCARD_EMPTY_PILE
    assert discard_reason(hand_of("QC 5D"), E.QUEEN, melds, 0) == E.R_DISCARD_EMPTY_PILE
    assert discard_reason(hand_of("QC 5D"), E.QUEEN, melds, 1) == E.R_OK
    assert discard_reason(hand_of("7C AD QC"), E.SEVEN, melds, 0) == E.R_OK  # no other choice
    assert discard_reason(hand_of("7C 2D"), E.SEVEN, melds, 0) == E.R_OK  # the two is not legal


# --- OUT --------------------------------------------------------------------------------
def test_out_1_two_canastas_and_no_unfinished_sevens_aces_or_wild_meld():
    two = dict(t0_K=(7, 0, 0), t0_Q=(5, 2, 0))
    assert out_reason(position(t0_K=(7, 0, 0)), 0) == E.R_OUT_CANASTAS
    assert out_reason(position(**two), 0) == E.R_OK
    assert out_reason(position(**two, t0_7=(4, 0, 0)), 0) == E.R_OUT_INCOMPLETE_SEVENS
    assert out_reason(position(**two, t0_A=(3, 0, 0)), 0) == E.R_OUT_INCOMPLETE_ACES
    assert out_reason(position(**two, t0_A=(3, 1, 0)), 0) == E.R_OK  # mixed aces: ordinary
    assert out_reason(position(**two, t0_W=(0, 3, 0)), 0) == E.R_OUT_INCOMPLETE_WILD


def test_out_2_a_meld_must_leave_a_card_to_discard():
    two = position(t0_K=(7, 0, 0), t0_Q=(5, 2, 0))
    assert leave_reason(hand_of(""), two, 0) == E.R_MELD_LEAVES_NO_DISCARD
    assert leave_reason(hand_of("3H"), two, 0) == E.R_MELD_LEAVES_NO_DISCARD
    assert leave_reason(hand_of("5C"), two, 0) == E.R_OK  # discarding it goes out
    assert leave_reason(hand_of("5C"), position(t0_K=(7, 0, 0)), 0) == E.R_OUT_CANASTAS
    assert leave_reason(hand_of("5C 6D"), EMPTY, 0) == E.R_OK


def test_out_2_a_card_to_discard_and_one_to_hold_unless_owed_bonus_cards():
    """OUT-2 as written: not going out, a player keeps a card to discard and a card to hold
    (a kept three may be the one held, never the one discarded); a player owed bonus cards
    (OPEN-5) needs only the card to discard, with or without a kept three."""
    one = position(t0_K=(7, 0, 0))
    assert leave_reason(hand_of("5C"), one, 0, False) == E.R_OUT_CANASTAS  # would go out
    assert leave_reason(hand_of("5C"), one, 0, True) == E.R_OK  # bonus cards follow
    assert leave_reason(hand_of("5C"), EMPTY, 0, True) == E.R_OK
    assert leave_reason(hand_of("5C 3H"), EMPTY, 0, False) == E.R_OK  # the three is held
    assert leave_reason(hand_of("5C 3H"), EMPTY, 0, True) == E.R_OK
    assert leave_reason(hand_of("3H"), EMPTY, 0, True) == E.R_MELD_LEAVES_NO_DISCARD
    assert leave_reason(hand_of(""), EMPTY, 0, True) == E.R_MELD_LEAVES_NO_DISCARD


# --- agreement with the twins -----------------------------------------------------------
def random_melds(rng):
    melds = np.zeros((2, E.N_KINDS, 3), dtype=np.int64)
    for team in range(2):
        for slot in [*E.NATURAL_KINDS, E.WILD_MELD]:
            if rng.random() < 0.35:
                if slot == E.WILD_MELD:
                    t = rng.integers(0, 6)
                    melds[team, slot] = (
                        0,
                        t,
                        rng.integers(3 - min(t, 3), 5) if t < 3 else rng.integers(0, min(4, 8 - t)),
                    )
                else:
                    n = rng.integers(2, 8)
                    w = rng.integers(0, min(3, 8 - n)) if slot != E.SEVEN else 0
                    two = rng.integers(0, w + 1)
                    melds[team, slot] = (n, two, w - two)
    return melds


def random_hand(rng, n_cards, kinds=None):
    kinds = list(range(E.N_KINDS)) if kinds is None else kinds
    hand = np.zeros(E.N_KINDS, dtype=np.int64)
    for _ in range(n_cards):
        k = kinds[rng.integers(0, len(kinds))]
        if hand[k] < E.KIND_COPIES[k]:
            hand[k] += 1
    return hand


def random_rules(rng):
    return Ruleset(
        max_wilds_mixed=int(rng.integers(1, 4)),
        rule_of_five=bool(rng.random() < 0.7),
        allow_long_meld_going_out=bool(rng.random() < 0.3),
    ).to_array()


def test_meld_reason_agrees_with_twin_on_random_cases():
    """MELD-1..9 kernel vs twin on 20,000 random positions and operations."""
    rng = np.random.default_rng(11)
    for _ in range(20_000):
        melds, rules = random_melds(rng), random_rules(rng)
        slot = int(rng.integers(0, E.N_KINDS))
        args = (int(rng.integers(0, 5)), int(rng.integers(0, 3)), int(rng.integers(0, 3)))
        flags = (bool(rng.random() < 0.4), bool(rng.random() < 0.3))
        team = int(rng.integers(0, 2))
        got = meld_reason(melds, team, slot, *args, *flags, rules)
        want = twin.meld_twin(melds, team, slot, *args, *flags, rules)
        assert got == want, (melds[team].tolist(), slot, args, flags, rules.tolist())


def test_discard_out_leave_agree_with_twins_on_random_cases():
    """DISCARD-1..3, OUT-1, OUT-2 kernels vs twins on 20,000 random cases."""
    rng = np.random.default_rng(12)
    for _ in range(20_000):
        melds = random_melds(rng)
        hand = random_hand(rng, int(rng.integers(0, 6)))
        kind, team = int(rng.integers(0, E.N_KINDS)), int(rng.integers(0, 2))
        pile_size = int(rng.integers(0, 2))
        assert discard_reason(hand, kind, melds, pile_size) == twin.discard_twin(
            hand, kind, melds, pile_size
        ), (hand.tolist(), kind, pile_size)
        assert out_reason(melds, team) == twin.out_twin(melds, team)
        bonus = bool(rng.random() < 0.3)
        assert leave_reason(hand, melds, team, bonus) == twin.leave_twin(hand, melds, team, bonus)


def _pending_from(rng, hand, pile_kind):
    pending = np.zeros((E.N_KINDS, 3), dtype=np.int64)
    if pile_kind >= 0:
        hand[pile_kind] -= 2
        pending[pile_kind, 0] = 2
    elif rng.random() < 0.3:
        big = [k for k in E.NATURAL_KINDS if hand[k] >= 3]
        if big:
            k = big[rng.integers(0, len(big))]
            hand[k] -= 3
            pending[k, 0] = 3
    if rng.random() < 0.1 and hand[E.TWO] + hand[E.JOKER] >= 3:
        t = min(3, int(hand[E.TWO]))
        pending[E.WILD_MELD] = (0, t, 3 - t)
        hand[E.TWO] -= t
        hand[E.JOKER] -= 3 - t
    return pending


def random_position(rng, case, kinds=(2, 6), wild_every=3, cards=(3, 12), extra=(3, 0)):
    """A random opening position for the search tests (ranges low, high): ``cards`` cards of
    ``kinds`` kinds, wild cards every ``wild_every``-th case, random rules, a pile sometimes
    taken (PILE-1; ``extra``: its rest's cards, else others, 0: none), a dead rank every fourth
    case (MELD-9), the bonus every fifth without a pile (OPEN-5)."""
    n_kinds = int(rng.integers(*kinds))
    held = [int(k) for k in rng.choice(E.N_KINDS, size=n_kinds, replace=False)]
    held += [E.JOKER, E.TWO] if case % wild_every == 0 else []
    hand = random_hand(rng, int(rng.integers(*cards)), held)
    rules = random_rules(rng)
    pairs = [k for k in E.NATURAL_KINDS if hand[k] >= 2]
    pile_kind = pairs[rng.integers(0, len(pairs))] if pairs and rng.random() < 0.3 else -1
    pending = _pending_from(rng, hand, pile_kind)
    if pile_kind >= 0:
        more = int(rng.integers(0, extra[0]))
    else:
        more = int(rng.integers(0, extra[1])) if extra[1] > 0 else 0
    melds = np.zeros((2, E.N_KINDS, 3), dtype=np.int64)
    if case % 4 == 1:
        live = [k for k in E.NATURAL_KINDS if k != pile_kind and pending[k].sum() == 0]
        melds[1, live[rng.integers(0, len(live))], 0] = 7
    bonus = pile_kind < 0 and case % 5 == 2
    return hand, pending, melds, pile_kind, more, rules, bonus


def test_opening_search_agrees_with_brute_force_twin():
    """OPEN-1..4 search vs exhaustive twin on 10,000 random small hands; the plan is valid."""
    rng = np.random.default_rng(13)
    plan = np.zeros((E.N_KINDS, 3), dtype=np.int64)
    for case in range(10_000):
        hand, pending, melds, pile_kind, extra, rules, bonus = random_position(rng, case)
        got = opening_search_alloc(hand, pending, melds, pile_kind, extra, rules, plan, bonus)
        want = twin.opening_search_twin(hand, pending, melds, pile_kind, extra, rules, bonus)
        assert got == want, (hand.tolist(), pending.tolist(), pile_kind, extra, rules.tolist())
        if got >= 0:
            check_plan(hand, pending, pile_kind, plan, got, rules)


OUT_FAMILY = {
    E.R_MELD_LEAVES_NO_DISCARD,
    E.R_OUT_CANASTAS,
    E.R_OUT_INCOMPLETE_SEVENS,
    E.R_OUT_INCOMPLETE_ACES,
    E.R_OUT_INCOMPLETE_WILD,
}


def test_open_1_2_4_out_refusal_names_the_rule_like_the_twin():
    """OPEN-1, OPEN-2, OPEN-4, OUT-1/2: opening_refusal names the same rule as a brute-force
    twin that relaxes one rule at a time, on 600 random unfinishable openings (a third of
    them with a started mixed meld of five naturals, where OPEN-4 can stand in the way)."""
    rng = np.random.default_rng(15)
    seen = set()
    checked = 0
    while checked < 600:
        kinds = [int(k) for k in rng.choice(E.N_KINDS, size=int(rng.integers(2, 6)), replace=False)]
        kinds += [E.JOKER, E.TWO] if rng.random() < 0.5 else []
        hand = random_hand(rng, int(rng.integers(3, 11)), kinds)
        rules = random_rules(rng)
        pending = _pending_from(rng, hand, -1)
        if rng.random() < 0.35:
            big = int(rng.choice([k for k in E.NATURAL_KINDS if k not in (E.SEVEN, E.ACE)]))
            pending[big] = (5, 0, 1)  # five naturals and a joker melded this turn
            hand[big] = 0
            hand[E.TWO] = max(hand[E.TWO], int(rng.integers(0, 3)))
            hand[E.SEVEN] = 3  # a natural meld that takes no wild (MELD-6)
        min_count = int(rng.choice([50, 90, 125]))
        bonus = bool(rng.random() < 0.3)
        got = opening_refusal(hand, pending, EMPTY, 0, -1, 0, rules, min_count, bonus)
        want = twin.opening_refusal_twin(hand, pending, EMPTY, -1, 0, rules, min_count, bonus)
        if want == "OUT":
            assert got in OUT_FAMILY, (hand.tolist(), pending.tolist(), min_count, bonus)
        else:
            assert got == want, (hand.tolist(), pending.tolist(), min_count, bonus)
        if got != E.R_OK:
            checked += 1
            seen.add(E.reason_rule(int(got)))
    assert seen >= {"OPEN-1", "OPEN-2", "OPEN-4", "OUT-1", "OUT-2"}


def check_plan(hand, pending, pile_kind, plan, count, rules):
    """The plan is playable: cards held, every meld legal as part of the opening."""
    used = plan[:, 0].copy()
    used[E.TWO] = plan[:, 1].sum()
    used[E.JOKER] = plan[:, 2].sum()
    used[E.WILD_MELD] = plan[:, 2].sum()
    assert plan[:, 1].sum() <= hand[E.TWO] and plan[:, 2].sum() <= hand[E.JOKER]
    for k in E.NATURAL_KINDS:
        assert plan[k, 0] <= hand[k]
    final = pending + plan
    melds = np.zeros((2, E.N_KINDS, 3), dtype=np.int64)
    melds[0] = final
    if pile_kind >= 0:
        melds[0, pile_kind, 0] += 1
    assert from_hand_count(final) == count
    assert opening_reason(final, melds, 0, pile_kind, count) == E.R_OK


def test_pile_reason_agrees_with_twin_on_random_cases():
    """PILE-1/2 kernel vs twin on 10,000 random cases (opened and not)."""
    rng = np.random.default_rng(14)
    for _ in range(10_000):
        melds = random_melds(rng)
        kinds = [int(k) for k in rng.choice(E.N_KINDS, size=5, replace=False)]
        hand = random_hand(rng, int(rng.integers(2, 11)), kinds)
        pile_counts = random_hand(rng, int(rng.integers(0, 4)))
        top = int(rng.choice(kinds))
        if pile_counts.sum() and pile_counts[top] == 0:
            pile_counts[top] = 1
        opened = bool(rng.random() < 0.5)
        min_count = int(rng.choice([50, 90, 125]))
        team = int(rng.integers(0, 2))
        got = pile_reason(hand, melds, team, pile_counts, top, opened, min_count, RULES)
        want = twin.pile_twin(hand, melds, team, pile_counts, top, opened, min_count, RULES)
        assert got == want, (hand.tolist(), pile_counts.tolist(), top, opened)
