"""The ``expert`` search policy and the search helpers of ``sim.engine.search``.

Small search sizes keep these fast; the strength result (2,000 duplicate deals) is in
benchmarks/README.md ("## Expert"), measured by benchmarks/bench_expert.py.
"""

import numpy as np
import pytest

import sim
from sim.encoding import (
    A_DRAW,
    BLACK_THREE,
    N_PLAYERS,
    N_SCORE_ITEMS,
    OB_PHASE,
    OB_SEAT,
    OBS_SIZE,
    PH_DRAW,
    RED_THREE,
    SCRATCH_SIZE,
    ST_STOCK_N,
    STATE_SIZE,
    TMP_SIZE,
)
from sim.engine.invariants import check_invariants
from sim.engine.observe import observe
from sim.engine.search import WORK_SIZE, determinize, rollout, seed_search
from sim.errors import CanastaError
from sim.play.table import TableView
from sim.policies import get, parse
from sim.policies.builtin import heuristic_decide
from sim.policies.expert import base_rollout, candidates, expert_decide
from sim.policies.strong import strong_decide
from sim.ruleset import as_ruleset
from tests.real_hands import games
from tests.test_policies import HARNESS_SPECS

SMALL = HARNESS_SPECS["expert"]  #: cheap search (the shared harness in test_policies runs it)
SMALL_STRONG = HARNESS_SPECS["expert_strong"]  #: the same over strong's rollouts
RULES = np.ascontiguousarray(as_ruleset(None).to_array())


def real_positions(seed: int, hands: int = 2):
    """(state, obs) at every decision of heuristic-played hands (copies), for search tests."""
    pair = ("heuristic", "heuristic")
    return [(g.state.copy(), obs.copy()) for g, obs in games(pair, seed, range(hands), None)]


def _unseen_total(st, seat):
    hands = TableView(st).hands
    return hands.sum() - hands[seat].sum()


def test_expert_registered_with_parameters():
    spec = get("expert")
    search = ("samples", "rollouts", "candidates", "margin", "rollout", "memory")
    search += ("infer", "infer_temperature", "infer_epsilon")
    assert spec.param_names[: len(search)] == search
    strong = get("strong").param_names  # the heuristic's, then strong's extras
    assert spec.param_names[len(search) :] == strong  # the base policy's, same order
    assert dict(spec.params)["memory"] == 1  # the search deals with the memory by default
    assert dict(spec.params)["infer"] == 0  # inference off until measured stronger
    assert dict(spec.params)["rollout"] == 0  # today's search: heuristic rollouts
    assert spec.doc
    es = get("expert_strong")
    assert es.param_names == spec.param_names
    assert es.decide is spec.decide  # one compiled kernel, the base policy a parameter
    assert dict(es.params)["rollout"] == 1
    assert dict(es.params)["memory"] == 1
    learned = dict(get("strong").params)
    assert {k: v for k, v in es.params if k in learned} == learned


@pytest.mark.parametrize("bad", ["2", "0.5", "3"])
def test_expert_rollout_must_name_a_base_policy(bad):
    """Bad input: rollout is 0 (heuristic) or 1 (strong); anything else is refused by name."""
    for name in ("expert", "expert_strong"):
        with pytest.raises(CanastaError, match="rollout"):
            parse(f"{name}:rollout={bad}")


def test_determinize_is_consistent_with_the_observation_card_1():
    """CARD-1: a determinization accounts for all 108 cards once (invariants hold), the
    player observes exactly what it observed (same hand, melds, pile, sizes...), and threes go
    to the stock while it has room (DEAL-4: hands hold no threes but a kept one)."""
    srng = np.zeros(4, dtype=np.uint64)
    srng[0] = 12345
    det = np.zeros(STATE_SIZE, dtype=np.int64)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    tmp = np.zeros(TMP_SIZE, dtype=np.int64)
    back = np.zeros(OBS_SIZE, dtype=np.int64)
    positions = real_positions(7)
    assert len(positions) > 50
    differs = 0
    for st, obs in positions:
        seat = obs[OB_SEAT]
        assert determinize(obs, det, srng, work)
        assert check_invariants(det, RULES, tmp) == 0
        observe(det, seat, back)
        np.testing.assert_array_equal(back, obs)
        threes_in_hands = 0
        for q in range(N_PLAYERS):
            if q != seat:
                row = TableView(det).hands[q]
                threes_in_hands += row[RED_THREE] + row[BLACK_THREE]
        if det[ST_STOCK_N] >= 8:
            assert threes_in_hands == 0
        differs += not np.array_equal(TableView(det).hands, TableView(st).hands)
    assert differs > len(positions) // 2  # the hidden cards are really drawn anew


@pytest.mark.parametrize("spec", [SMALL, SMALL_STRONG])
def test_same_observation_different_hidden_cards_same_decisions(spec):
    """Uses only what its player could see: two positions with the same observation but other
    hidden cards (other hands and the stock dealt anew) give the same expert decision with the
    same generator, at every decision of two hands (searches included), for either base
    policy."""
    _, params, _ = parse(spec)
    srng = np.zeros(4, dtype=np.uint64)
    srng[0] = 99
    other = np.zeros(STATE_SIZE, dtype=np.int64)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    obs2 = np.zeros(OBS_SIZE, dtype=np.int64)
    cands = np.zeros(16, dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    searched = 0
    hidden_differ = 0
    for st, obs in real_positions(11):
        assert determinize(obs, other, srng, work)  # a different deal of the hidden cards
        observe(other, obs[OB_SEAT], obs2)
        np.testing.assert_array_equal(obs2, obs)
        hidden_differ += not np.array_equal(TableView(other).stock, TableView(st).stock)
        rng = np.array([1, 2, 3, 4], dtype=np.uint64)
        a = expert_decide(obs, params, rng.copy(), RULES, np.zeros(SCRATCH_SIZE, dtype=np.int64))
        b = expert_decide(obs2, params, rng.copy(), RULES, np.zeros(SCRATCH_SIZE, dtype=np.int64))
        assert a == b
        searched += candidates(obs, params, rng.copy(), RULES, scratch, cands) > 1
    assert searched > 10 and hidden_differ > 10


@pytest.mark.parametrize("base", ["heuristic", "strong"])
def test_direct_rollout_equals_engine_hand_loop(base):
    """The expert's rollout plays the same hand as the engine's loop
    (``sim.engine.search.rollout`` through ``play_hand`` with first-class policies), with the
    heuristic (rollout=0) or strong (rollout=1) for all."""
    _, hp, _ = parse(base)
    decide = heuristic_decide if base == "heuristic" else strong_decide
    strong = base == "strong"
    srng = np.zeros(4, dtype=np.uint64)
    srng[0] = 5
    det = np.zeros(STATE_SIZE, dtype=np.int64)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    items = np.zeros((2, N_SCORE_ITEMS), dtype=np.int64)
    obs = np.zeros(OBS_SIZE, dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    for _, o in real_positions(3, hands=1)[::10]:
        assert determinize(o, det, srng, work)
        team = o[OB_SEAT] % 2
        rng = np.zeros(4, dtype=np.uint64)
        a_st, b_st = det.copy(), det.copy()
        m1 = base_rollout(a_st, team, hp, hp, strong, rng.copy(), RULES, obs, scratch, items)
        m2 = rollout(
            b_st,
            team,
            decide,
            decide,
            hp,
            hp,
            rng.copy(),
            RULES,
            obs,
            scratch,
            items,
        )
        assert m1 == m2
        np.testing.assert_array_equal(a_st, b_st)


def test_expert_reproducible_from_the_seed():
    """Same seed, same records; the search draws only from the hand's generator."""
    a = sim.simulate(6, policies=(SMALL, "heuristic"), seed=4)
    b = sim.simulate(6, policies=(SMALL, "heuristic"), seed=4)
    assert a.equals(b)
    assert (a.policy_errors == 0).all()


@pytest.mark.parametrize("spec", [SMALL, SMALL_STRONG])
def test_expert_same_records_for_any_n_jobs(spec):
    """Records depend only on (seed, hand): serial and two jobs agree."""
    a = sim.simulate(8, policies=(spec, "heuristic"), seed=5)
    b = sim.simulate(8, policies=(spec, "heuristic"), seed=5, n_jobs=2, chunk_size=4)
    assert a.reset_index(drop=True).equals(b.reset_index(drop=True))


def test_expert_strong_searches_other_moves_than_expert():
    """rollout=1 really changes the base policy: over the positions of three hands the
    candidates proposed first (the base policy's choice) differ somewhere between expert and
    expert_strong, and equal strong's own choice at every position."""
    _, pe, _ = parse(SMALL)
    _, ps, _ = parse(SMALL_STRONG)
    _, sp, _ = parse("strong")
    assert _first_candidates_differ(ps, sp, pe) > 0


def _first_candidates_differ(params, base, other) -> int:
    """Over the positions of three hands: assert the search ``params``' first candidate is
    the base policy's own move (``base``, strong's kernel) at every play step, and count the
    positions where it differs from the search ``other``'s first candidate."""
    mine = np.zeros(16, dtype=np.int64)
    theirs = np.zeros(16, dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    differ = 0
    for _, obs in real_positions(17, hands=3):
        rng = np.zeros(4, dtype=np.uint64)
        candidates(obs, params, rng.copy(), RULES, scratch, mine)
        candidates(obs, other, rng.copy(), RULES, scratch, theirs)
        if obs[OB_PHASE] != PH_DRAW:
            assert mine[0] == strong_decide(obs, base, rng.copy(), RULES, scratch)
        differ += mine[0] != theirs[0]
    return differ


SMALL_V2 = HARNESS_SPECS["expert_strong_v2"]  #: the same over strong_v2's rollouts


def test_expert_strong_v2_plays_strong_v2_in_its_candidates_and_rollouts():
    """expert_strong_v2 is expert_strong's kernel with strong_v2's parameter array as its base
    (evaluator=2 and v2's weights: what the candidates, the other moves and every rollout
    play); its first candidate is strong_v2's own choice at every position, other than
    expert_strong's somewhere."""
    from sim.policies.expert import N_EXPERT_PARAMS

    spec, es = get("expert_strong_v2"), get("expert_strong")
    assert spec.decide is es.decide and spec.param_names == es.param_names
    _, pv, _ = parse(SMALL_V2)
    _, sv, _ = parse("strong_v2")
    np.testing.assert_array_equal(pv[N_EXPERT_PARAMS:], sv)  # the base: strong_v2 whole
    assert dict(spec.params)["rollout"] == 1 and dict(spec.params)["evaluator"] == 2
    _, ps, _ = parse(SMALL_STRONG)
    assert _first_candidates_differ(pv, sv, ps) > 0


def test_expert_strong_v2_that_never_overrides_plays_strong_v2_and_searching_differs():
    """With a margin no move can gain (1e9 points a hand) the search keeps its first
    candidate: strong_v2's own move at every position of three hands but the draw, where the
    first candidate is drawing (the expert's tie rule); at margin 0 its records (6 hands
    against the heuristic) differ from expert_strong's at the same search size."""
    _, never, _ = parse(f"{SMALL_V2},margin=1e9")
    _, sv, _ = parse("strong_v2")
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    searched = 0
    for _, obs in real_positions(17, hands=3):
        rng = np.zeros(4, dtype=np.uint64)
        got = expert_decide(obs, never, rng.copy(), RULES, scratch)
        if obs[OB_PHASE] == PH_DRAW:
            assert got == A_DRAW
        else:
            assert got == strong_decide(obs, sv, rng.copy(), RULES, scratch)
        searched += 1
    assert searched > 100
    cols = ["turns", "score_team0", "score_team1"]
    v2 = sim.simulate(6, policies=(SMALL_V2, "heuristic"), seed=5)[cols]
    over_strong = sim.simulate(6, policies=(SMALL_STRONG, "heuristic"), seed=5)[cols]
    assert not v2.equals(over_strong)


def test_search_seed_draws_once_from_the_hand_generator():
    rng = np.array([1, 2, 3, 4], dtype=np.uint64)
    a = np.zeros(4, dtype=np.uint64)
    b = np.zeros(4, dtype=np.uint64)
    r1 = rng.copy()
    seed_search(r1, a)
    r2 = rng.copy()
    seed_search(r2, b)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(r1, r2)
    assert not np.array_equal(r1, rng)


@pytest.mark.slow
def test_expert_beats_heuristic_on_duplicate_deals():
    """The expert is the stronger, in small: over 200 duplicate deals the default expert scores
    more per hand than the heuristic, the mean difference's 95% interval (1.96 standard errors)
    above zero."""
    from analysis.compare import duplicate

    s = duplicate("expert", "heuristic", 200, seed=77, n_jobs=1).summary
    assert s["ci_low"] > 0, s


def test_draw_decision_lists_both_candidates_when_pile_takeable():
    """PILE-1/2: at the draw the expert searches draw against take only when taking is legal."""
    _, params, _ = parse(SMALL)
    cands = np.zeros(16, dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    seen_two = False
    for _, obs in real_positions(13, hands=3):
        n = candidates(obs, params, np.zeros(4, dtype=np.uint64), RULES, scratch, cands)
        assert n >= 1
        if cands[0] == A_DRAW and n == 2:
            seen_two = True
    assert seen_two
