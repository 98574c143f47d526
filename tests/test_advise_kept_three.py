"""DEAL-4/5 in the advice: a hand at the draw or the play step may hold one three, the one kept
toward a Straight while its team has not melded. The advice plays on from such a position
(the three kept, nothing asked at the turn's start) and refuses, in one line, a hand that
could not hold its threes at the draw."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.advise import advise
from analysis.whatif import position
from sim import encoding as E
from sim.engine.script import decision_state, script_arrays
from sim.errors import CanastaError
from sim.rng import run_key
from sim.ruleset import as_ruleset

#: turn 5, nobody melded, a red three kept (the tournament list has the Straight)
KEPT = dict(hand="3H 4C 5D 6S 8H 9C TD JS QH KC AD 7C 7D", turn=5, pile_top="9S")


@pytest.mark.parametrize("rules", [None, "cla"])
def test_a_kept_three_is_marked_kept_and_the_turn_goes_on_deal5(rules):
    """DEAL-5: the template marks the three kept, so the turn's start lays nothing and asks
    nothing (no keep-or-lay decision): after the draw the player is at the play step holding
    the three and the drawn card."""
    rs = as_ruleset(rules)
    from sim.cards import parse_cards

    pos = position(**KEPT)
    taken = np.zeros(E.N_CARDS, dtype=np.bool_)
    taken[pos.hand] = True
    drawn = int(parse_cards("KD", taken)[0])
    template, arr, unseen = script_arrays(pos, drawn, rs)
    assert template[E.ST_KEPT + 0] == E.RED_THREE
    ra = np.ascontiguousarray(rs.to_array())
    st = decision_state(template, arr, unseen, drawn, ra, run_key(1))
    assert st[E.ST_PHASE] == E.PH_PLAY and st[E.ST_PLAYER] == 0
    assert st[E.ST_HANDS + E.RED_THREE] == 1
    assert st[E.ST_THREES : E.ST_THREES + 2].sum() == 0  # team 0 laid no three
    assert st[E.ST_HANDS : E.ST_HANDS + E.N_KINDS].sum() == 14


@pytest.mark.parametrize("drawn", [None, "KD"])
def test_the_advice_plays_on_from_a_kept_three_deal5(drawn):
    """The draw and the play step are advised (was refused: 'threes are laid at the start of
    the turn'), every choice played on every deal."""
    adv = advise(position(**KEPT), drawn=drawn, n=8, seed=3, ruleset="cla")
    assert len(adv.choices) >= (2 if drawn else 1)  # the pile (a lone 9) cannot be taken
    assert all(c.n == 8 and c.rates["applied"] == 1.0 for c in adv.choices)


@pytest.mark.parametrize(
    "spec,message",
    [
        (dict(KEPT, hand="3H 3S 5D 6S 8H 9C TD JS QH KC AD 7C 7D"), "DEAL-4: the hand holds 2"),
        (dict(KEPT, melds={0: "KH KS KD"}), "DEAL-5: the hand holds a three though its team"),
    ],
)
def test_a_hand_that_cannot_hold_its_threes_is_refused_in_one_line_deal4(spec, message):
    with pytest.raises(CanastaError, match=message) as exc:
        script_arrays(position(**spec), -1, as_ruleset(None))
    assert "\n" not in str(exc.value)


def test_a_three_without_a_straight_in_force_is_refused_deal5():
    """A list with no hand holding a three offers no keep, so no three is held at the draw."""
    from sim.ruleset import Ruleset

    rs = Ruleset(special_hands="none")
    assert rs.to_array()[E.RS_CAT_MIN_KINDS3] > E.SPECIAL_HAND_SIZE
    with pytest.raises(CanastaError, match="no Straight to keep it for"):
        script_arrays(position(**KEPT), -1, rs)
