"""A what-if position is a whole hand's state: it carries its hand number (OPEN-1 under
``opening_minimum = "hand"``) and the ruleset's opening variants (OPEN-1, OPEN-2), through
``sim.play_position`` and ``analysis.advise`` alike."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from analysis import advise as adv
from analysis.whatif import position
from sim import encoding as E
from sim.api import play_position
from sim.cards import parse_cards
from sim.engine.observe import observe
from sim.engine.position import deal_position, position_arrays
from sim.errors import CanastaError
from sim.rng import run_key, seed_hand
from sim.ruleset import as_ruleset

#: 7777 AAAA KKK Q 5: melds of 130 (OPEN-1: enough for 125, not for 155 or 180)
OPENER = "7H 7S 7D 7C AS AD AC AH KS KD KH QS 5D"
#: three twos and two jokers: a wild meld of 160 opens only under opening_natural = false
WILD = "2C 2D 2H JK JK 5S 6D 8H 9C 10S QH 4C 4D"
BY_HAND = {"opening_minimum": "hand"}
WILD_OPEN = {"opening_natural": False}


def _pos(hand=OPENER, **kw):
    base = dict(seat=0, turn=0, scores=(0, 0), melds={}, pile_top=-1)
    return SimpleNamespace(hand=parse_cards(hand), **(base | kw))


def _open_min(pos, rules) -> int:
    """The opening minimum the fixed player sees after the deal around ``pos``."""
    arr = np.ascontiguousarray(as_ruleset(rules).to_array())
    template, ps, unseen = position_arrays(pos, "policy", rules)
    st = np.zeros(E.STATE_SIZE, dtype=np.int64)
    rng = np.zeros(4, dtype=np.uint64)
    seed_hand(run_key(0), 0, rng)
    deal_position(st, template, ps, unseen, rng, np.zeros(1, dtype=np.int64), arr)
    obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    observe(st, 0, obs)
    assert obs[E.OB_HAND_NUMBER] == pos.hand_number
    return int(obs[E.OB_OPEN_MIN])


@pytest.mark.parametrize(
    "rules, scores, hand_number, minimum",
    [
        (BY_HAND, (6000, 6000), 1, 125),  # the audit's case: 125, not 180
        (BY_HAND, (6000, 6000), 2, 155),
        (BY_HAND, (0, 0), 3, 180),
        (None, (6000, 6000), 1, 180),  # by score, whatever the hand's number
        (None, (3000, 0), 2, 155),
        (None, (0, 0), 7, 125),
    ],
)
def test_open_1_position_minimum_by_hand_number_or_score(rules, scores, hand_number, minimum):
    """OPEN-1: a position's opening minimum follows the ruleset's variant: by the hand's
    number in its game (125, 155, then 180) or by the team's score."""
    pos = _pos(scores=scores, hand_number=hand_number)
    assert _open_min(pos, rules) == minimum


def test_open_2_position_carries_the_wild_opening_variant():
    """OPEN-2: the position's state says which opening the ruleset allows (the players and
    the legal actions read it there)."""
    for rules, wild in ((WILD_OPEN, 1), (None, 0)):
        template, _, _ = position_arrays(_pos(WILD), "policy", rules)
        assert template[E.ST_OPEN_WILD] == wild
        assert template[E.ST_OPEN_BY] == as_ruleset(rules).to_array()[E.RS_OPENING_MINIMUM]


@pytest.mark.parametrize(
    "rules, scores, hand_number, opens",
    [
        (BY_HAND, (6000, 6000), 1, True),
        (BY_HAND, (6000, 6000), 2, False),
        (None, (6000, 6000), 1, False),
        (None, (0, 0), 1, True),
    ],
)
def test_open_1_play_position_uses_the_positions_minimum(rules, scores, hand_number, opens):
    """OPEN-1 through ``sim.play_position``: forcing the sevens down in the first turn is made
    (applied) in every deal when the 130 points held open (minimum 125); with a minimum of 155
    or 180 only a lucky draw (a joker, a two, a king: at most 16 of the 95 unseen cards,
    rate <= 0.17) lets the opening complete, so in 40 deals the rate stays under 0.5 (more
    than 5 standard errors above 0.17)."""
    df = play_position(
        40, _pos(scores=scores, hand_number=hand_number), "meld_sevens", seed=1, ruleset=rules
    )
    if opens:
        assert df["applied"].all()
    else:
        assert df["applied"].mean() < 0.5


def test_open_2_play_position_under_the_wild_opening_plays_out():
    """OPEN-2 variant through ``sim.play_position``: a wild meld opens (the engine used to
    stop with invariant 'stuck' here) in every deal; under the natural opening only a drawn
    four (6 of the 95 unseen cards, rate 0.06) gives the natural meld it needs, so in 30 deals
    the rate stays under 0.5 (over 10 standard errors above 0.06)."""
    wild = play_position(30, _pos(WILD), seed=2, ruleset=WILD_OPEN)
    assert len(wild) == 30 and (wild["team0_wild_started_turn"] == 0).all()
    natural = play_position(30, _pos(WILD), seed=2)
    assert (natural["team0_wild_started_turn"] == 0).mean() < 0.5


def _melds_offered(hand, drawn, rules, **kw) -> bool:
    pos = position(hand, scores=kw.pop("scores", (0, 0)), **kw)
    a = adv.advise(pos, drawn=drawn, n=4, policies=("heuristic", "heuristic"), ruleset=rules)
    return any(c.melds for c in a.choices)


def test_open_1_advise_offers_the_opening_by_hand_number():
    """OPEN-1 through ``analysis.advise``: at 6,000/6,000 under the hand-number variant, hand
    1 (125) offers the opening melds; hand 2 (155) and the score bands (180) offer none."""
    assert _melds_offered(OPENER, "9C", BY_HAND, scores=(6000, 6000), hand_number=1)
    assert not _melds_offered(OPENER, "9C", BY_HAND, scores=(6000, 6000), hand_number=2)
    assert not _melds_offered(OPENER, "9C", None, scores=(6000, 6000))


def test_open_2_advise_under_the_wild_opening():
    """OPEN-2 variant through ``analysis.advise``: the wild meld is offered as an opening (no
    'stuck'), and not under the natural opening."""
    assert _melds_offered(WILD, "KS", WILD_OPEN)
    assert not _melds_offered(WILD, "KS", None)


def test_open_1_hand_number_checked():
    """A hand number is 1 or more: 0 is refused in one line naming it."""
    with pytest.raises(CanastaError, match="hand_number"):
        position(OPENER, hand_number=0)
    with pytest.raises(CanastaError, match="hand_number"):
        position_arrays(_pos(hand_number=-3), "policy")


def test_open_1_hint_position_carries_the_hands_number():
    """OPEN-1: the position a hint asks advice on (``canasta._human.position_for``, used by
    the terminal and the web table) is of the hand's own number in its game."""
    from canasta._human import position_for
    from sim.play import Hand as Game

    for number in (1, 2, 5):
        g = Game(seed=4, hand_id=number, rules=BY_HAND, hand_number=number)
        while g.phase != "draw":  # threes laid (DEAL-4) first: a forced step's only action
            g.apply(g.legal_actions()[0])
        pos, drawn = position_for(g, g.current_player)
        assert pos.hand_number == number and drawn is None
