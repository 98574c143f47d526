"""The heuristic's parameters, one deciding scenario each.

For every parameter of ``heuristic`` (sim.policies.builtin.HEURISTIC_PARAMS, the registry's
list) a small position, built by hand like tests/test_policies.py does, where changing that
parameter alone changes the decision, in the direction its documentation states. A parameter
read in the wrong place (the late-game check reading the player's own team instead of the
opponents, a threshold compared the wrong way, a weight ignored) fails its scenario.
"""

from __future__ import annotations

import numpy as np

from sim.encoding import (
    A_DISCARD,
    A_DRAW,
    A_TAKE_PILE,
    ACE,
    FIVE,
    JACK,
    JOKER,
    KING,
    MELD_ACTION,
    NINE,
    PH_DRAW,
    QUEEN,
    SCRATCH_SIZE,
    SEVEN,
    TEN,
    TWO,
    WILD_MELD,
)
from sim.play.view import obs_fields
from sim.policies import get, parse
from sim.policies.builtin import HEURISTIC_PARAMS, safe_discard
from sim.ruleset import as_ruleset
from tests.test_policies import decide, play_turn, position, slots_melded

#: two canastas (OUT-1: the team owning them may go out)
CANASTAS = {QUEEN: (7, 0, 0), JACK: (5, 1, 1)}


def spec(**params) -> str:
    """'heuristic:k=v,...' with the given parameters (the others at their defaults)."""
    if not params:
        return "heuristic"
    return "heuristic:" + ",".join(f"{k}={v:g}" for k, v in params.items())


def melds_in_turn(obs, **params) -> set[int]:
    melds, _ = play_turn(obs, spec(**params))
    return slots_melded(melds)


def test_every_heuristic_parameter_has_a_deciding_scenario():
    """The registry's parameter list and this file agree: each parameter has a test named
    test_param_<name> below (a new parameter needs its scenario)."""
    assert get("heuristic").param_names == tuple(HEURISTIC_PARAMS)
    have = {
        n.removeprefix("test_param_").split("__")[0]
        for n in globals()
        if n.startswith("test_param_")
    }
    assert have == set(HEURISTIC_PARAMS)


# ---------------------------------------------------------------------------------------
# Starting the risky melds (SCORE-2/3): thresholds, stock, live copies, opening
# ---------------------------------------------------------------------------------------
def test_param_sevens_threshold__three_sevens_start_a_meld_only_below_it():
    """SCORE-2/MELD-6: holding three sevens, the heuristic starts a sevens meld with
    sevens_threshold=3 and not at the default 5."""
    hand = {SEVEN: 3, KING: 1, NINE: 1, FIVE: 1}
    assert SEVEN not in melds_in_turn(position(hand, pile=(TEN,)))
    assert SEVEN in melds_in_turn(position(hand, pile=(TEN,)), sevens_threshold=3)
    assert SEVEN not in melds_in_turn(position(hand, pile=(TEN,)), sevens_threshold=4)


def test_param_aces_threshold__three_aces_start_a_meld_only_below_it():
    """SCORE-2: holding three aces, a natural aces meld is started with aces_threshold=3,
    not at the default 5 (sevens_threshold does not govern aces)."""
    hand = {ACE: 3, KING: 1, NINE: 1, FIVE: 1}
    assert ACE not in melds_in_turn(position(hand, pile=(TEN,)), sevens_threshold=0)
    assert ACE in melds_in_turn(position(hand, pile=(TEN,)), aces_threshold=3)


def test_param_wild_meld_threshold__three_wilds_start_a_wild_meld_only_below_it():
    """SCORE-3/MELD-8: three wild cards start a wild meld with wild_meld_threshold=3, not at
    the default 5."""
    hand = {TWO: 2, JOKER: 1, KING: 1, NINE: 1, FIVE: 1}
    assert WILD_MELD not in melds_in_turn(position(hand, pile=(TEN,)))
    assert WILD_MELD in melds_in_turn(position(hand, pile=(TEN,)), wild_meld_threshold=3)


def test_param_risky_min_stock__no_risky_start_with_too_little_stock():
    """SCORE-2: with sevens_threshold=3 the three sevens are melded with 8 stock cards left,
    but not when risky_min_stock=10 asks for more time to finish the meld."""
    hand = {SEVEN: 3, KING: 1, NINE: 1, FIVE: 1}
    obs = position(hand, stock=8, pile=(TEN,))
    assert SEVEN in melds_in_turn(obs.copy(), sevens_threshold=3)
    assert SEVEN not in melds_in_turn(obs.copy(), sevens_threshold=3, risky_min_stock=10)
    assert SEVEN in melds_in_turn(obs.copy(), sevens_threshold=3, risky_min_stock=8)


def test_param_live_min__no_sevens_start_with_copies_gone():
    """SCORE-2: two sevens lie in the pile, so only 6 of the 8 are live (held or unseen): the
    sevens meld is not started at the default live_min=7, and is with live_min=6."""
    hand = {SEVEN: 3, KING: 1, NINE: 1, FIVE: 1}
    pile = (SEVEN, SEVEN, TEN)
    assert SEVEN not in melds_in_turn(position(hand, pile=pile), sevens_threshold=3)
    assert SEVEN in melds_in_turn(position(hand, pile=pile), sevens_threshold=3, live_min=6)
    # the opponents' sevens meld takes copies out of play the same way (OPEN, PILE aside)
    opp = {SEVEN: (2, 0, 0)}
    obs = position(hand, opp=opp, pile=(TEN,))
    assert SEVEN not in melds_in_turn(obs.copy(), sevens_threshold=3)
    assert SEVEN in melds_in_turn(obs.copy(), sevens_threshold=3, live_min=6)


def test_param_open_risky__opens_with_sevens_only_when_allowed():
    """OPEN-1 with SCORE-2: 125 is reached only by melding the three sevens; the heuristic
    waits by default (open_risky=0) and opens with the sevens when open_risky=1."""
    hand = {SEVEN: 3, KING: 4, QUEEN: 2, JOKER: 1, FIVE: 2, NINE: 1}
    melds, a = play_turn(position(hand, pile=(TEN,), opened=(0, 0)))
    assert melds == [] and A_DISCARD <= a
    assert SEVEN in melds_in_turn(position(hand, pile=(TEN,), opened=(0, 0)), open_risky=1)


# ---------------------------------------------------------------------------------------
# The pile (PILE-1/2)
# ---------------------------------------------------------------------------------------
def test_param_pile_min__a_small_pile_is_left_below_it():
    """PILE-1: once opened, holding a pair of kings with a king on a pile of 2 cards, the
    heuristic takes the pile at the default pile_min=2 and draws with pile_min=3."""
    obs = position({KING: 2, NINE: 1, FIVE: 1}, pile=(FIVE, KING), phase=PH_DRAW)
    assert decide(obs) == A_TAKE_PILE
    assert decide(obs, spec(pile_min=3)) == A_DRAW
    big = position({KING: 2, NINE: 1, FIVE: 1}, pile=(FIVE, TEN, KING), phase=PH_DRAW)
    assert decide(big, spec(pile_min=3)) == A_TAKE_PILE


# ---------------------------------------------------------------------------------------
# Discards (PILE-1 risk, SCORE-4/5 late in the hand)
# ---------------------------------------------------------------------------------------
#: a king and a five, singles; the opponents meld fives so fewer fives are unseen (less risk
#: that the next player pairs a discarded five, PILE-1); the nines are a pair it keeps
SINGLES = {KING: 1, FIVE: 1, NINE: 2}
OPP_FIVES = {FIVE: (3, 0, 0)}


def _discard(obs, **params):
    a = decide(obs, spec(**params))
    assert A_DISCARD <= a < A_DISCARD + 15, a
    return a - A_DISCARD


def test_param_safe_weight__the_riskier_single_is_kept():
    """PILE-1: the king has 7 copies unseen, the five 4: discarding the king is likelier to
    feed the pile. With the default safe_weight=1 the five goes; with safe_weight=0 only the
    card values count (SCORE-5) and the king goes."""
    obs = position(SINGLES, opp=OPP_FIVES, pile=(TEN,), stock=40)
    assert _discard(obs) == FIVE
    assert _discard(obs, safe_weight=0) == KING
    assert _discard(obs, safe_weight=3) == FIVE


def test_param_late_stock__late_in_the_hand_high_cards_go():
    """SCORE-5: with 8 stock cards left the hand is late at the default late_stock=10 and the
    king (10 points) is shed; with late_stock=5 it is not late and the safer five goes."""
    obs = position(SINGLES, opp=OPP_FIVES, pile=(TEN,), stock=8)
    assert _discard(obs) == KING
    assert _discard(obs, late_stock=5) == FIVE
    assert _discard(position(SINGLES, opp=OPP_FIVES, pile=(TEN,), stock=12)) == FIVE


def test_param_dump_weight__late_card_value_weight():
    """SCORE-5: late in the hand (stock 8), the king is shed at the default dump_weight=1;
    with dump_weight=0 the card values stop counting and the safer five goes."""
    obs = position(SINGLES, opp=OPP_FIVES, pile=(TEN,), stock=8)
    assert _discard(obs) == KING
    assert _discard(obs, dump_weight=0) == FIVE


def test_param_early_dump__early_card_value_weight():
    """SCORE-5: early in the hand (stock 40) a card's value weighs early_dump=0.2 by default,
    and the safer five goes; at early_dump=1 the king's 10 points outweigh its risk and it
    goes (the late weight, dump_weight, does not govern early discards)."""
    obs = position(SINGLES, opp=OPP_FIVES, pile=(TEN,), stock=40)
    assert _discard(obs) == FIVE
    assert _discard(obs, early_dump=1) == KING
    assert _discard(obs, early_dump=0) == FIVE
    assert _discard(obs, dump_weight=5) == FIVE


def test_param_pair_keep__a_pair_is_kept_by_its_weight():
    """PILE-1: a pair of kings against a single five, early: at the default pair_keep=10 the
    king's second copy keeps the pair and the five goes; at pair_keep=0 the king, riskier to
    keep less, and worth more (SCORE-5), goes."""
    obs = position({KING: 2, FIVE: 1}, pile=(TEN,), stock=40)
    assert _discard(obs) == FIVE
    assert _discard(obs, pair_keep=0) == KING
    assert _discard(obs, pair_keep=5) == FIVE


def test_param_meld_keep__a_rank_the_team_melds_is_kept_by_its_weight():
    """MELD-2: a single king of the team's unfinished kings meld against a single five: the
    kernel's discard choice (``safe_discard``; in play the king would join the meld first)
    keeps the king at the default meld_keep=25 and sheds it at meld_keep=0."""

    def discard(**params):
        spec = "heuristic:" + ",".join(f"{k}={v:g}" for k, v in params.items())
        _, values, _ = parse(spec if params else "heuristic")
        obs = position({KING: 1, FIVE: 1, NINE: 2}, own={KING: (3, 0, 0)}, pile=(TEN,))
        scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
        return int(safe_discard(obs, values, as_ruleset(None).to_array(), scratch)) - A_DISCARD

    assert discard() == FIVE
    assert discard(meld_keep=0) == KING


def test_param_new_meld_min__a_new_natural_meld_is_held_back_below_it():
    """MELD-1/PILE-1: once opened and early, three kings are melded at the default
    new_meld_min=2 and held back (a pair to take the pile with) at new_meld_min=4; late in
    the hand (stock 5, late_stock 10) they are melded whatever the parameter."""
    hand = {KING: 3, NINE: 1, FIVE: 1}
    assert KING in melds_in_turn(position(hand, pile=(TEN,), stock=40))
    assert KING not in melds_in_turn(position(hand, pile=(TEN,), stock=40), new_meld_min=4)
    assert KING in melds_in_turn(position(hand, pile=(TEN,), stock=40), new_meld_min=3)
    assert KING in melds_in_turn(position(hand, pile=(TEN,), stock=5), new_meld_min=4)


def test_param_opp_out_late__opponents_able_to_go_out_make_the_hand_late():
    """OUT-1: with 40 stock cards the hand is late only if the opponents could go out. The
    opponents hold two canastas: at the default opp_out_late=1 the hand is late and the king
    is shed (SCORE-5); with opp_out_late=0 the safer five goes. When it is the player's OWN
    team that could go out, the hand is not late (the check reads the opponents' melds)."""
    opp = {**CANASTAS, **OPP_FIVES}
    obs = position(SINGLES, opp=opp, pile=(TEN,), stock=40)
    assert _discard(obs) == KING
    assert _discard(obs, opp_out_late=0) == FIVE
    own = position(SINGLES, own=CANASTAS, opp=OPP_FIVES, pile=(TEN,), stock=40)
    assert _discard(own) == FIVE
    assert _discard(own, opp_out_late=0) == FIVE


def test_param_feed_weight__a_rank_the_opponents_meld_is_riskier():
    """PILE-1: between two singles, the nine (the opponents meld nines, so fewer are unseen)
    is discarded by default; with feed_weight=1 the opponents' meld rank counts as riskier
    and the ten goes."""
    obs = position({NINE: 1, TEN: 1, FIVE: 2}, opp={NINE: (3, 0, 0)}, pile=(KING,))
    assert _discard(obs) == NINE
    assert _discard(obs, feed_weight=1) == TEN


def test_param_memory_weight__a_rank_the_next_player_is_known_to_pair_is_kept():
    """PILE-1 with the public card memory: the next player took a pile with two kings in it
    (OB_KNOWN). By default the memory is not read and the king, a single, is discarded as a
    high card early; with memory_weight=1 the king would surely let the next player take the
    pile, and the five goes instead."""
    obs = position({KING: 1, FIVE: 1, NINE: 2}, pile=(TEN,), stock=40)
    known = obs_fields(obs).known
    known[1, KING] = 2  # relative seat 1: the next player
    base = _discard(obs, safe_weight=0)
    assert base == KING
    assert _discard(obs, safe_weight=0, memory_weight=1) == FIVE
    # a pair known in the partner's hand is no risk of this kind
    known[1, KING] = 0
    known[2, KING] = 2
    assert _discard(obs, safe_weight=0, memory_weight=1) == KING


def test_param_shed_stock__a_third_seven_is_shed_from_this_stock_down():
    """SCORE-4: holding three sevens it will not meld (sevens_threshold 5), with 30 stock
    cards left, the heuristic discards a seven at the default shed_stock=60, and keeps them
    (discarding the king) with shed_stock=20."""
    obs = position({SEVEN: 3, KING: 1, NINE: 1}, pile=(TEN, FIVE), stock=30)
    assert _discard(obs) == SEVEN
    assert _discard(obs, shed_stock=20) != SEVEN
    assert _discard(obs, shed_stock=30) == SEVEN


# ---------------------------------------------------------------------------------------
# Wild cards on natural melds (MELD-4/5)
# ---------------------------------------------------------------------------------------
def test_param_complete_with_wilds__a_two_joins_kings_only_to_finish_a_canasta():
    """MELD-4/5: the team's kings hold 5 naturals and the player one two, one short of a
    canasta. At the default complete_with_wilds=1 (and early in the hand) the two is kept;
    with complete_with_wilds=0 it joins the kings."""
    own = {KING: (5, 0, 0)}
    hand = {TWO: 1, NINE: 1, FIVE: 1, TEN: 1}
    melds, _ = play_turn(position(hand, own=own, pile=(QUEEN,), stock=40))
    assert melds == []
    melds, _ = play_turn(
        position(hand, own=own, pile=(QUEEN,), stock=40), spec(complete_with_wilds=0)
    )
    assert melds == [MELD_ACTION[KING, 0, 1, 0]]
    # two twos finish the canasta: melded whatever the parameter
    hand2 = {TWO: 2, NINE: 1, FIVE: 1, TEN: 1}
    melds, _ = play_turn(position(hand2, own=own, pile=(QUEEN,), stock=40))
    assert melds == [MELD_ACTION[KING, 0, 2, 0]]
