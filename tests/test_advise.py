"""``canasta advise`` and ``analysis.advise``: paired deals, racing, choices, JSON, bad input.

Sizes are tiny (a few deals a choice): the tests check structure and exact equalities
(pairing, determinism, legality), never a strategy's value.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from analysis import advise as adv
from analysis.whatif import position
from canasta import main
from sim import encoding as E
from sim.errors import CanastaError

# an unopened hand that can open with aces and kings (OPEN-1: 125) once KC is drawn
HAND = "AS AH AD JK 2C KS KH KD 7H 7S 9C 9D 5S"
OPEN_POS = {"hand": HAND, "turn": 4, "pile_top": "8D"}
# a team that has melded (MELD-5: no wild on a new meld of fewer than 5 naturals)
MELDED_POS = {
    "hand": "7H 7S 7D KS KH 4C 5D 9S 9H JD QC 2C",
    "turn": 8,
    "pile_top": "8D",
    "melds": {0: ["QS QD QH", "AS AH AD 2D"]},
}
# two canastas on the table (OUT-1): melding the nines and discarding 4C goes out (OUT-2)
OUT_POS = {
    "hand": "9S 9H 4C",
    "turn": 20,
    "pile_top": "8D",
    "melds": {0: ["KS KH KD KC KS KH KD", "QS QH QD QC QS QH QD"]},
}
POLICIES = ("heuristic", "heuristic")


def _advise(spec, **kw):
    kw.setdefault("policies", POLICIES)
    return adv.advise(position(**spec), **kw)


# ---------------------------------------------------------------------------------------
# Paired deals
# ---------------------------------------------------------------------------------------
def test_paired_seeding_same_deal_for_every_script():
    """Two copies of one script on the same deal play identically (the deal and the play-out
    depend only on (seed, hand)); a run of hands 3..4 repeats hands 3..4 of a run 0..4."""
    from sim.api import play_script

    pos = position(**OPEN_POS)
    scripts = np.array([[E.A_DRAW], [E.A_DRAW]], dtype=np.int64)
    rec = play_script(5, pos, scripts, seed=7, policies=POLICIES)
    a = rec[rec["script"] == 0].reset_index(drop=True)
    b = rec[rec["script"] == 1].reset_index(drop=True)
    assert a.drop(columns="script").equals(b.drop(columns="script"))
    assert a["score_team0"].nunique() > 1  # the deals differ from hand to hand
    tail = play_script(2, pos, scripts[:1], seed=7, policies=POLICIES, first=3)
    assert tail["hand_id"].tolist() == [3, 4]
    assert (
        tail.drop(columns="script")
        .reset_index(drop=True)
        .equals(a.drop(columns="script").iloc[3:].reset_index(drop=True))
    )


def test_drawn_card_is_the_card_drawn():
    """With ``drawn``, the fixed player's draw takes that card in every deal (the stock's top):
    forcing the draw then discarding the drawn kind is legal in every deal (applied)."""
    from sim.api import play_script
    from sim.cards import parse_cards

    pos = position(**OPEN_POS)
    kc = int(parse_cards("KC")[0])
    # K is held 3 times before the draw: discarding a fourth K is legal only if KC came in
    script = np.array([[E.A_DRAW, E.A_DISCARD + E.KING]], dtype=np.int64)
    rec = play_script(6, pos, script, drawn=kc, seed=1, policies=POLICIES)
    assert rec["applied"].all()


# ---------------------------------------------------------------------------------------
# Racing
# ---------------------------------------------------------------------------------------
def test_racing_keeps_a_choice_whose_interval_overlaps_the_best():
    """A choice whose paired difference from the best excludes 0 but whose own interval
    overlaps the best's stays in the race; one wholly below with such a difference leaves."""
    rng = np.random.default_rng(0)
    base = rng.normal(0, 100, 64)
    best = base + 10.0
    close = base + 9.0 + rng.normal(0, 0.5, 64)  # paired diff ~ -1 +- 0.1: excludes 0
    far = rng.normal(-500, 10, 64)
    x = [best, close, far]
    eb, ec = adv.iv.mean(best), adv.iv.mean(close)
    d = adv.iv.paired_difference(close, best)
    assert d.ci_high < 0 and ec.ci_high > eb.ci_low  # the case the rule protects
    assert adv._race([0, 1, 2], x) == [0, 1]


def test_racing_never_drops_an_overlapping_choice_random():
    """On random score samples, every choice ``_race`` drops has a 95% interval wholly below
    the best's (no overlap) and a paired difference below 0."""
    rng = np.random.default_rng(1)
    for _ in range(200):
        k = int(rng.integers(2, 6))
        m = int(rng.integers(2, 40))
        common = rng.normal(0, rng.uniform(1, 300), m)
        x = [common + rng.normal(rng.uniform(-200, 200), rng.uniform(0, 200), m) for _ in range(k)]
        kept = adv._race(list(range(k)), x)
        b = max(range(k), key=lambda c: (x[c].mean(), -c))
        assert b in kept
        eb = adv.iv.mean(x[b])
        for c in set(range(k)) - set(kept):
            assert adv.iv.mean(x[c]).ci_high < eb.ci_low
            assert adv.iv.paired_difference(x[c], x[b]).ci_high < 0


def test_racing_spends_deals_on_close_choices():
    """Under the race the best choice gets the full ``n`` deals and a choice played on fewer
    lies wholly below the best on the deals it had (checked from the answer itself)."""
    a = _advise(MELDED_POS, drawn="9C", n=64)
    best = a.choices[0]
    assert best.n == 64 and best.diff_from_best == 0
    assert max(c.n for c in a.choices) == 64
    for c in a.choices[1:]:
        assert c.n <= best.n
        assert c.mean <= best.mean or c.n < best.n


# ---------------------------------------------------------------------------------------
# Choices: distinct, legal, labelled
# ---------------------------------------------------------------------------------------
def _decision(spec, drawn):
    from sim.cards import parse_cards
    from sim.engine.script import decision_state, script_arrays
    from sim.rng import run_key
    from sim.ruleset import as_ruleset

    pos = position(**spec)
    rules = as_ruleset(None)
    ra = np.ascontiguousarray(rules.to_array())
    taken = np.zeros(E.N_CARDS, dtype=np.bool_)
    taken[pos.hand] = True
    d = int(parse_cards(drawn, taken)[0])
    template, arr, unseen = script_arrays(pos, d, rules)
    return decision_state(template, arr, unseen, d, ra, run_key(0)), ra


@pytest.mark.parametrize("spec,drawn", [(OPEN_POS, "KC"), (MELDED_POS, "9C"), (OUT_POS, "9D")])
def test_plans_are_distinct_and_legal(spec, drawn):
    """Every plan is legal step by step by the engine's validator (MELD-1..9, OPEN-1..4,
    DISCARD-1..3, OUT-1/2), ends the turn, and no two plans leave the same table, hand and
    discard; the plans without a meld are exactly the legal discards (one per kind)."""
    from sim.engine.judge import action_reason, legal_actions
    from sim.engine.observe import observe
    from sim.engine.script import plans
    from sim.engine.state import apply_action
    from sim.engine.views import scratch_tmp

    st, ra = _decision(spec, drawn)
    found = plans(st, ra)
    assert found
    obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    tmp = scratch_tmp(scratch)
    log = np.zeros(1, dtype=np.int64)
    ends = set()
    for script in found:
        s = st.copy()
        for a in script:
            observe(s, 0, obs)
            assert action_reason(obs, a, ra, tmp) == E.R_OK, script
            before = s.copy()
            apply_action(s, a, ra, log)
        assert s[E.ST_PLAYER] != 0 or s[E.ST_PHASE] == E.PH_OVER  # the turn ended
        ends.add((before.tobytes(), script[-1]))
    assert len(ends) == len(found)
    observe(st, 0, obs)
    legal = scratch[E.SCRATCH_LEGAL : E.SCRATCH_LEGAL + E.N_ACTIONS]
    n = legal_actions(obs, ra, legal, tmp)
    discards = {int(a) for a in legal[:n] if E.ACTION_TABLE[a, E.AC_TYPE] == E.AT_DISCARD}
    assert {s[0] for s in found if len(s) == 1 and s[0] != E.A_DECLARE} == discards


def test_play_choices_labels_and_application():
    """Labels are distinct and name the cards melded and discarded (taken from the hand);
    every choice of the play step is made in every deal (applied = 1)."""
    a = _advise(OPEN_POS, drawn="KC", n=4)
    assert a.decision == "play"
    labels = [c.label for c in a.choices]
    assert len(set(labels)) == len(labels) > 5
    hand = set(HAND.split()) | {"KC"}
    for c in a.choices:
        assert c.rates["applied"] == 1.0
        assert c.discard in hand
        assert c.label.endswith(f"discard {c.discard}")
        for m in c.melds:
            assert set(m) <= hand and " ".join(m) in c.label
    assert any(c.melds for c in a.choices)  # OPEN-1: aces and kings open (125)


def test_going_out_is_labelled():
    """OUT-1/2: with two canastas melding the nines and discarding the last card goes out."""
    a = _advise(OUT_POS, drawn="9D", n=4)
    out = [c for c in a.choices if "go out" in c.label]
    assert [c.label for c in out] == ["meld 9S 9H 9D, go out discarding 4C"]
    assert out[0].rates["went_out"] == 1.0


def test_special_hand_is_offered():
    """SPECIAL-1/4: seven natural pairs after a stock draw may be declared (the hand ends)."""
    spec = {"hand": "KS KH QS QH JS JH 10S 10H 9S 9H 8S 8H 6S", "turn": 4, "pile_top": "5D"}
    a = _advise(spec, drawn="6H", n=4)
    labels = [c.label for c in a.choices]
    assert "declare a special hand (pairs)" in labels
    (c,) = [c for c in a.choices if c.label.startswith("declare")]
    assert c.melds == [] and c.discard is None and c.rates["applied"] == 1.0


def test_draw_decision_offers_take_pile_when_allowed():
    """PILE-1: a natural pair of the top card's rank lets the pile be taken (here it also
    opens); without a pair only the draw is offered (PILE-1 refuses)."""
    spec = dict(OPEN_POS, pile_top="KC")
    a = _advise(spec, n=4)
    assert a.decision == "draw"
    assert sorted(c.label for c in a.choices) == ["draw", "take the pile"]
    b = _advise(dict(OPEN_POS, pile_top="8D"), n=4)
    assert [c.label for c in b.choices] == ["draw"]


def test_json_round_trip_and_keys():
    """``to_json`` has the issue's keys, survives json, and ``from_json`` gives it back."""
    a = _advise(MELDED_POS, drawn="9C", n=4)
    d = json.loads(json.dumps(a.to_json()))
    assert set(d) >= {"decision", "choices"}
    need = {"label", "melds", "discard", "mean", "ci_low", "ci_high", "diff_from_best", "n"}
    for c in d["choices"]:
        assert set(c) >= need
    assert adv.Advice.from_json(d) == a
    t = a.table()
    assert list(t["label"]) == [c.label for c in a.choices]
    assert (t["mean"].iloc[0] >= t["mean"]).all()  # best first


def test_same_answer_for_any_jobs():
    """Same seed, same answer whatever ``n_jobs`` (each deal depends only on (seed, i))."""
    a = _advise(MELDED_POS, drawn="9C", n=8, seed=3)
    b = _advise(MELDED_POS, drawn="9C", n=8, seed=3, n_jobs=2)
    assert a == b


def test_budget_caps_the_time():
    """A tiny budget still plays the first round of every choice and stops there."""
    a = _advise(MELDED_POS, drawn="9C", n=10_000, budget=1e-6)
    assert {c.n for c in a.choices} == {adv.FIRST_ROUND}


# ---------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "spec,kw,match",
    [
        (dict(OPEN_POS, hand=HAND.rsplit(" ", 1)[0]), {}, "DEAL-1"),  # 12 cards, unopened
        (dict(OPEN_POS, hand="KS KS " + HAND.rsplit(" ", 2)[0]), {"drawn": "KS"}, "CARD-1"),
        (OPEN_POS, {"drawn": "3H"}, "DEAL-4"),
        (OPEN_POS, {"drawn": "KC KD"}, "exactly one"),
        (OPEN_POS, {"budget": -1}, "budget"),
        (OPEN_POS, {"n": 1}, "n"),
        (OPEN_POS, {"policies": "nosuch"}, "unknown policy"),
        (dict(OPEN_POS, hand_sizes=(12, 13, 13, 13)), {}, "hand sizes"),
    ],
)
def test_bad_input_is_refused(spec, kw, match):
    with pytest.raises(CanastaError, match=match):
        _advise(spec, **kw)


BASE = ["advise", "--hand", HAND, "--turn", "4", "--pile-top", "8D", "-n", "2"]


@pytest.mark.parametrize(
    "extra",
    [
        ["--drawn", "AS", "--hand", "AS AS " + " ".join(HAND.split()[1:-1])],
        ["--drawn", "ZZ"],
        ["--drawn", "3D"],
        ["--hand", "7H 7H 7H"],
        ["--hand", HAND.rsplit(" ", 1)[0]],
        ["--budget", "nan"],
        ["--budget", "0"],
        ["--policies", "nosuch"],
        ["--meld", "0:7H 7S"],
    ],
)
def test_cli_bad_input_one_line_exit_2(extra, capsys):
    code = main([*BASE, *extra])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("canasta: error: ") and err.count("\n") == 1, err


def test_cli_table_and_json(capsys):
    args = [*BASE, "--drawn", "KC", "--policies", "heuristic,heuristic", "--jobs", "1"]
    assert main([*args, "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["decision"] == "play" and d["choices"][0]["diff_from_best"] == 0
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("play decision at seat 0") and d["choices"][0]["label"] in out


@pytest.mark.parametrize("spec,drawn", [(OPEN_POS, "KC"), (MELDED_POS, "9C"), (OUT_POS, "9D")])
def test_policy_pick_is_the_policys_own_turn(spec, drawn):
    """The choice marked ``policy_pick`` ends the turn as the seat's policy does when it plays
    the same position itself (the heuristic asked through the hand's one turn loop)."""
    from sim.play.position import PositionDeals
    from sim.policies.registry import resolve

    a = _advise(spec, drawn=drawn, n=4)
    picked = [c for c in a.choices if c.policy_pick]
    assert len(picked) == 1
    pos = position(**spec)
    hand = PositionDeals(pos, adv._check(pos, drawn)).hand(0)
    spec_h, params, _ = resolve("heuristic")
    mine = hand.fork()
    assert mine.finish_turn(policy=(spec_h, params))
    held = [*np.asarray(pos.hand).tolist(), adv._check(pos, drawn)]
    melds = hand.view(pos.seat).melds[0].sum(axis=1)
    table = frozenset(int(k) for k in np.flatnonzero(melds))
    scripts = {c[1]: c[0] for c in adv._play_choices(hand, held, table)}
    end = hand.fork()
    assert end.finish_turn(script=scripts[picked[0].label][1:])
    assert adv._turn_end(end, pos.seat) == adv._turn_end(mine, pos.seat)
    assert end.current_player != pos.seat or end.is_over  # the turn ended


def test_policy_pick_at_the_draw():
    """At the draw the marked choice is the policy's action (the heuristic takes a pile that
    opens for it, PILE-1)."""
    a = _advise(dict(OPEN_POS, pile_top="KC"), n=4)
    assert sum(c.policy_pick for c in a.choices) == 1
