"""The keep-or-lay decision of a dealt three (DEAL-4/5) forced through the one hand loop's
intercept (``keep_three``/``lay_three``, ``sim.engine.intercept``), claim L's experiment
(``experiments/keep_three.toml``: a position generator) and its verdict in a small report."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.whatif import position
from sim import encoding as E
from sim.engine import intercept as ic
from sim.engine.observe import observe
from sim.engine.position import position_arrays
from sim.engine.script import decision_state
from sim.engine.state import apply_action
from sim.engine.views import scratch_tmp
from sim.errors import CanastaError
from sim.play.table import TableView
from sim.rng import run_key
from sim.ruleset import as_ruleset

#: a first turn holding a red three, its team not melded (DEAL-5 offers the keep)
HAND = "3H 4C 5D 6S 8H 9C TD JS QH KC AD 2S 7C"


def _at_threes(pos, hand_no: int = 0):
    """The state at the fixed player's keep-or-lay decision and its observation."""
    rules = np.ascontiguousarray(as_ruleset(None).to_array())
    template, arr, unseen = position_arrays(pos, "policy")
    st = decision_state(template, arr, unseen, -1, rules, run_key(4), hand_no)
    obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    observe(st, int(st[E.ST_PLAYER]), obs)
    return st, obs, rules


def _forced(obs, choice, proposed, rules):
    tmp = scratch_tmp(np.zeros(E.SCRATCH_SIZE, dtype=np.int64))
    a, ok = ic.forced_choice(obs, choice, proposed, False, rules, tmp)
    return int(a), int(ok)


def test_keep_three_keeps_it_in_hand_deal5():
    """DEAL-5: keep_three replaces the policy's lay by the keep; after it the three is still in
    hand, recorded as kept, and the turn goes on to the draw."""
    st, obs, rules = _at_threes(position(HAND))
    assert st[E.ST_PHASE] == E.PH_THREES
    a, ok = _forced(obs, ic.CH_KEEP_THREE, E.A_LAY_THREES, rules)
    assert (a, ok) == (E.A_KEEP_RED_THREE, 1)
    apply_action(st, a, rules, np.zeros(1, dtype=np.int64))
    t = TableView(st)
    assert t.hands[0, E.RED_THREE] == 1 and t.kept[0] == E.RED_THREE
    assert t.threes[0].sum() == 0
    assert st[E.ST_PHASE] == E.PH_DRAW


def test_lay_three_lays_it_deal4():
    """DEAL-4: lay_three replaces the policy's keep by the lay: the three is laid in front of
    the team and none is kept."""
    st, obs, rules = _at_threes(position(HAND))
    a, ok = _forced(obs, ic.CH_LAY_THREE, E.A_KEEP_RED_THREE, rules)
    assert (a, ok) == (E.A_LAY_THREES, 1)
    apply_action(st, a, rules, np.zeros(1, dtype=np.int64))
    t = TableView(st)
    assert t.threes[0, 0] >= 1 and t.kept[0] < 0  # team 0's red threes laid
    assert st[E.ST_PHASE] == E.PH_DRAW


def test_the_choices_leave_other_steps_to_the_policy():
    """Off the keep-or-lay decision both choices let the proposal stand, not applied."""
    st, obs, rules = _at_threes(position(HAND))
    apply_action(st, E.A_LAY_THREES, rules, np.zeros(1, dtype=np.int64))
    observe(st, 0, obs)
    for choice in (ic.CH_KEEP_THREE, ic.CH_LAY_THREE):
        assert _forced(obs, choice, E.A_DRAW, rules) == (E.A_DRAW, 0)


def test_the_hand_loop_obeys_the_choice_and_refuses_a_keep_once_melded():
    """Through the one hand loop: every deal makes the forced choice (applied), and the two
    choices play different hands; once the team has melded DEAL-5 offers no keep (the three
    is laid at once), so keep_three is never applied."""
    from sim.api import play_position

    pos = position(HAND)
    pol = ("strong", "strong")
    keep = play_position(12, pos, choice="keep_three", seed=2, policies=pol)
    lay = play_position(12, pos, choice="lay_three", seed=2, policies=pol)
    assert keep["applied"].all() and lay["applied"].all()
    assert not keep[["score_team0", "score_team1"]].equals(lay[["score_team0", "score_team1"]])
    melded = position("3H 4C 5D 6S 8H 9C TD", turn=4, melds={0: "KH KS KD"})
    out = play_position(6, melded, choice="keep_three", seed=2, policies=pol)
    assert not out["applied"].any()


def test_a_bad_choice_name_is_refused_in_one_line():
    with pytest.raises(CanastaError, match="unknown choice 'keep_3'") as exc:
        position_arrays(position(HAND), "keep_3")
    assert "\n" not in str(exc.value) and "keep_three" in str(exc.value)


def test_a_bad_generator_is_refused_in_one_line(tmp_path):
    from analysis import specs

    f = tmp_path / "x.toml"
    f.write_text((specs_text := _KEEP.read_text()).replace('"dealt_three"', '"dealt_four"'))
    assert "dealt_three" in specs_text
    with pytest.raises(specs.SpecError, match=r"positions\.generate") as exc:
        specs.load(f)
    assert "\n" not in str(exc.value)


def _keep_path():
    from importlib import resources

    return resources.files("experiments") / "keep_three.toml"


_KEEP = _keep_path()


def test_the_keep_three_spec_loads():
    from analysis import specs

    s = specs.load(_KEEP)
    assert s.generate == "dealt_three" and s.key == "keep_three"
    assert s.arms == (("keep_three_chase", "strong"), ("lay_three_chase", "strong"))  # same play
    assert s.conditioned == (0, 1)
    assert s in specs.builtin()


def test_generated_positions_hold_a_dealt_three_the_team_not_melded():
    """Every generated position is a first-round turn start holding a three, its team not
    melded; its distinct ranks are those of the hand; replayed, both choices are made."""
    from analysis.experiment_set import BY_KEY
    from analysis.positions import distinct_ranks, generate_positions

    exp = BY_KEY["keep_three"]
    snaps = generate_positions(exp, 12, seed=1, policy="strong")
    assert len(snaps) == 12
    for s in snaps:
        counts = np.bincount(E.CARD_KIND[s["position"].hand], minlength=E.N_KINDS)
        assert counts[E.RED_THREE] + counts[E.BLACK_THREE] >= 1
        assert s["turn"] < E.N_PLAYERS and s["opened"] == 0
        assert s["team"] not in s["position"].melds
        assert s["distinct_ranks"] == distinct_ranks(counts)
    again = generate_positions(exp, 12, seed=1, policy="strong")
    assert [s["hand"] for s in again] == [s["hand"] for s in snaps]


def test_claim_l_gets_a_verdict_in_a_small_report():
    """The decision experiments with claim L's: its table is in the Holm family and L gets a
    verdict (not 'not measured') with an interval and the hands it rests on."""
    from analysis import claims
    from analysis import decisions as D

    raw = D.run_experiments(
        positions=12, deals=4, seed=0, sample_hands=100, experiments=["keep_three", "special"]
    )
    tabs = D.tables(raw)
    t = tabs["decision_keep_three"]
    assert set(t["grouping"]) == {"all", "distinct_ranks"}
    n_rows = sum(len(x) for x in tabs.values())
    assert t.attrs["correction"].endswith(f"across {n_rows} situations")
    out = claims.verdicts(tabs).set_index("id")
    r = out.loc["L"]
    assert r["verdict"] in ("supported", "contradicted", "mixed", "no clear difference")
    assert r["hands"] > 0 and r["ci_low"] < r["effect"] < r["ci_high"]
