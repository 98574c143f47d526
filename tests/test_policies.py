"""Policies: the shared harness every registered policy passes, the registry, strength, and the
heuristic's judgement rules on small scenario positions.

The harness (legal moves only, every hand ends, invariants after every action) runs over every
name in the registry, so a new policy's test is its registration.
"""

import numpy as np
import pandas as pd
import pytest
from numba import njit

import sim
from sim.api import play_hands
from sim.encoding import (
    A_DISCARD,
    A_DRAW,
    A_LAY_THREES,
    A_TAKE_PILE,
    AC_JOKER,
    AC_NAT,
    AC_SLOT,
    AC_TWO,
    AC_TYPE,
    ACTION_TABLE,
    AT_MELD,
    FIVE,
    JACK,
    JOKER,
    JOKERS,
    KING,
    MELD_ACTION,
    N_ACTIONS,
    N_KINDS,
    NATURALS,
    NINE,
    OB_HAND_SIZES,
    OB_KEPT,
    OB_MELDED,
    OB_OPEN_MIN,
    OB_OPENING_TURN,
    OB_PHASE,
    OB_PILE_KIND,
    OB_PILE_N,
    OB_PILE_TOP,
    OB_STOCK_N,
    OBS_SIZE,
    PH_DRAW,
    PH_PLAY,
    PH_THREES,
    QUEEN,
    R_OK,
    SCRATCH_LEGAL,
    SCRATCH_SIZE,
    SCRATCH_TMP,
    SEVEN,
    TEN,
    TMP_SIZE,
    TWO,
    TWOS,
    WILD_MELD,
)
from sim.engine.judge import action_reason, legal_actions
from sim.errors import CanastaError
from sim.play import SeatView
from sim.play.view import obs_fields
from sim.policies import get, names, parse, register, unregister
from sim.policies.registry import split_list
from sim.rng import run_key

BUILTINS = ("random", "greedy", "heuristic", "special_chaser")
#: search policies run the harness with small searches: the harness checks legality, not strength
HARNESS_SPECS = {  # cheap searches (the defaults search 24 x 2 positions per candidate)
    "expert": "expert:samples=2,rollouts=1,candidates=3",
    "expert_strong": "expert_strong:samples=2,rollouts=1,candidates=3",
    "expert_strong_v2": "expert_strong_v2:samples=2,rollouts=1,candidates=3",
}


@pytest.mark.parametrize("name", [HARNESS_SPECS.get(n, n) for n in names()])
def test_harness_every_policy_plays_legal_hands_with_invariants(name):
    """Legal moves only (no proposal replaced), hands end (END-1), invariants hold (debug)."""
    n = 60 if name == "random" else 150
    for other, seed in ((name, 1), ("heuristic", 2), ("random", 3)):
        for pair in ((name, other), (other, name)):
            df = play_hands(run_key(seed), 0, n, pair, debug=True)
            assert (df.policy_errors == 0).all(), pair
            assert set(df.end_reason) <= {"out", "special", "stock"}
            assert (df.turns < 400).all()


def test_builtins_registered_with_docs_and_parameters():
    assert set(BUILTINS) <= set(names())
    h = get("heuristic")
    assert "sevens_threshold" in h.param_names and h.doc
    assert get("special_chaser").param_names[: len(h.param_names)] == h.param_names


def test_registry_rejects_duplicates_unknowns_and_negatives():
    with pytest.raises(CanastaError, match="already registered"):
        register("greedy", get("greedy").decide)
    with pytest.raises(CanastaError, match="unknown policy 'nope'"):
        parse("nope")
    with pytest.raises(CanastaError, match="no parameter 'bogus'"):
        parse("heuristic:bogus=1")
    with pytest.raises(CanastaError, match="must be >= 0"):
        parse("heuristic:sevens_threshold=-1")
    with pytest.raises(CanastaError, match="expected a number"):
        parse("heuristic:sevens_threshold=many")


def test_parameters_settable_by_spec_and_cli_list():
    spec, params, label = parse("heuristic:sevens_threshold=7,pile_min=1")
    i = spec.param_names.index("sevens_threshold")
    assert params[i] == 7 and params[spec.param_names.index("pile_min")] == 1
    assert label == "heuristic:sevens_threshold=7,pile_min=1"
    assert split_list("heuristic:sevens_threshold=4,aces_threshold=5,random") == [
        "heuristic:sevens_threshold=4,aces_threshold=5",
        "random",
    ]
    df = sim.simulate(20, policies=("heuristic:sevens_threshold=9", "random"), seed=1)
    assert (df.policy_team0 == "heuristic:sevens_threshold=9").all()


def test_user_policy_registered_from_own_module_runs_by_name():
    """A user's policy: plain @njit code outside sim/, registered and run by name."""

    @njit
    def always_draw(obs, params, rng, rules, scratch):
        if obs[OB_PHASE] == PH_THREES:
            return A_LAY_THREES
        if obs[OB_PHASE] == PH_DRAW:
            return A_DRAW
        legal = scratch[SCRATCH_LEGAL : SCRATCH_LEGAL + N_ACTIONS]
        n = legal_actions(obs, rules, legal, scratch[SCRATCH_TMP : SCRATCH_TMP + TMP_SIZE])
        for i in range(n):  # the first legal discard
            if legal[i] >= A_DISCARD and legal[i] < A_DISCARD + N_KINDS:
                return legal[i]
        return legal[0]

    register("test_always_draw", always_draw, {"unused": 1.0}, "draws and discards")
    try:
        df = sim.simulate(30, policies=("test_always_draw", "heuristic"), seed=2, debug=True)
        assert (df.policy_errors == 0).all()
        assert (df.team0_opened == 0).all()  # it never melds
    finally:
        unregister("test_always_draw")


def test_illegal_proposals_are_counted_and_replaced():
    @njit
    def bad(obs, params, rng, rules, scratch):
        return N_ACTIONS + 5  # not an action

    register("test_bad", bad)
    try:
        df = sim.simulate(3, policies=("test_bad", "greedy"), seed=3, debug=True)
        assert (df.policy_errors > 0).all()
    finally:
        unregister("test_bad")


def test_lazy_registration_compiles_on_first_use():
    """Built-ins are registered lazy (compiled when first played, for a faster cold start): a
    lazy policy's function has no compiled signature until its ``decide`` is asked for; then it
    has the contract's, and it plays. An eager registration compiles at once."""
    from sim.engine.contract import POLICY_SIGNATURE

    def plain(obs, params, rng, rules, scratch):
        return A_DRAW if obs[OB_PHASE] == PH_DRAW else A_DISCARD + 4

    fn = njit(plain)
    spec = register("test_lazy", fn, lazy=True)
    try:
        assert POLICY_SIGNATURE.args not in fn.signatures  # nothing compiled yet
        assert spec.decide is fn and POLICY_SIGNATURE.args in fn.signatures
    finally:
        unregister("test_lazy")
    fn2 = njit(plain)
    register("test_eager", fn2)
    try:
        assert POLICY_SIGNATURE.args in fn2.signatures
    finally:
        unregister("test_eager")


def duplicate_difference(a: str, b: str, n: int, seed: int) -> np.ndarray:
    """Per deal: a's points minus b's with the same cards in the same seats (both seatings)."""
    ab = sim.simulate(n, policies=(a, b), seed=seed)
    ba = sim.simulate(n, policies=(b, a), seed=seed)
    return ((ab.score_team0 - ba.score_team0) + (ba.score_team1 - ab.score_team1)).to_numpy() / 2


@pytest.mark.slow
@pytest.mark.parametrize("weaker", ["greedy", "random"])
def test_heuristic_beats_weaker_policy_on_same_deals(weaker):
    """heuristic scores more per hand than greedy/random over 20,000 duplicate deals: the
    mean difference's 95% interval (normal, 1.96 standard errors) lies above zero."""
    d = duplicate_difference("heuristic", weaker, 20_000, seed=2024)
    se = d.std(ddof=1) / np.sqrt(len(d))
    assert d.mean() - 1.96 * se > 0, (d.mean(), se)


@pytest.mark.slow
def test_invariants_over_100000_hands_all_policies():
    """Invariants after every action (CARD-1 cards, MELD-* melds, pile), legal moves only and
    every hand ends, over 100,000 hands spread over every built-in pairing and many seeds."""
    pairs = [(a, b) for a in BUILTINS for b in BUILTINS]
    total = 0
    per_pair = 100_000 // len(pairs) + 1
    frames = []
    for i, pair in enumerate(pairs):
        n = per_pair if "random" not in pair else per_pair // 2
        df = play_hands(run_key(1000 + i), 0, n, pair, debug=True)
        frames.append(df[["policy_errors", "end_reason"]])
        total += n
    if total < 100_000:  # top up with the fast pairing
        df = play_hands(run_key(99), 0, 100_000 - total, ("heuristic", "greedy"), debug=True)
        frames.append(df[["policy_errors", "end_reason"]])
        total = 100_000
    allf = pd.concat(frames)
    assert len(allf) >= 100_000
    assert (allf.policy_errors == 0).all()
    assert set(allf.end_reason) <= {"out", "special", "stock"}


@pytest.mark.parametrize(
    "variant",
    [
        {"max_wilds_mixed": 3},
        {"max_wilds_mixed": 1},
        {"allow_long_meld_going_out": True},
        {"rule_of_five": False},
        {"special_hands": "none"},
    ],
)
def test_harness_under_rule_variants(variant):
    """MELD-2, MELD-4, MELD-5 and SPECIAL-7 variants: legal play and invariants hold."""
    for pair in (("heuristic", "greedy"), ("special_chaser", "random")):
        df = play_hands(run_key(7), 0, 150, pair, rules=variant, debug=True)
        assert (df.policy_errors == 0).all()
        assert set(df.end_reason) <= {"out", "special", "stock"}
        if variant.get("special_hands") == "none":
            assert (df.special_hand == "").all()


# ---------------------------------------------------------------------------------------
# The heuristic's judgement on small positions (observations built by hand)
# ---------------------------------------------------------------------------------------
def _rules():
    from sim.ruleset import as_ruleset

    return np.ascontiguousarray(as_ruleset(None).to_array())


def position(hand, own=None, opp=None, stock=40, pile=(), phase=PH_PLAY, opened=(1, 1)):
    """An observation: ``hand`` and ``pile`` as {kind: count} / kinds bottom first, melds as
    {slot: (naturals, twos, jokers)} for the player's team (``own``) and the opponents."""
    obs = np.zeros(OBS_SIZE, dtype=np.int64)
    f = obs_fields(obs)
    obs[OB_PHASE] = phase
    obs[OB_STOCK_N] = stock
    obs[OB_PILE_N] = len(pile)
    obs[OB_PILE_TOP] = pile[-1] if pile else -1
    obs[OB_PILE_KIND] = -1
    obs[OB_KEPT] = -1
    f.opened[:] = opened
    obs[OB_OPENING_TURN] = 1 - opened[0]
    obs[OB_OPEN_MIN] = 125
    for k, c in hand.items():
        f.hand[k] = c
    f.hand_sizes[:] = (sum(hand.values()), 11, 11, 11)
    for k in pile:
        f.pile_counts[k] += 1
    for t, melds in enumerate((own or {}, opp or {})):
        for slot, cols in melds.items():
            for c, n in enumerate(cols):
                f.melds[t, slot, c] = n
    return obs


def decide(obs, spec="heuristic"):
    """The policy's action on ``obs``; it must be legal there."""
    policy, params, _ = parse(spec)
    rng = np.array([1, 2, 3, 4], dtype=np.uint64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    a = int(policy.decide(obs, params, rng, _rules(), scratch))
    tmp = np.zeros(TMP_SIZE, dtype=np.int64)
    assert action_reason(obs, a, _rules(), tmp) == R_OK, a
    return a


def apply_meld(obs, a):
    """Apply a meld operation to the observation as the engine would (hand, melds, pending)."""
    slot, nat, two, joker = (ACTION_TABLE[a, c] for c in (AC_SLOT, AC_NAT, AC_TWO, AC_JOKER))
    f = obs_fields(obs)
    if slot != WILD_MELD:
        f.hand[slot] -= nat
    f.hand[TWO] -= two
    f.hand[JOKER] -= joker
    obs[OB_HAND_SIZES] -= nat + two + joker
    for col, n in ((NATURALS, nat), (TWOS, two), (JOKERS, joker)):
        f.melds[0, slot, col] += n
        if obs[OB_OPENING_TURN] == 1:
            f.pending[slot, col] += n
    obs[OB_MELDED] = 1


def play_turn(obs, spec="heuristic", limit=20):
    """The policy's meld steps until it discards: (meld actions, the discard action)."""
    melds = []
    for _ in range(limit):
        a = decide(obs, spec)
        if ACTION_TABLE[a, AC_TYPE] != AT_MELD:
            return melds, a
        melds.append(a)
        apply_meld(obs, a)
    raise AssertionError("no discard")


def slots_melded(actions):
    return {int(ACTION_TABLE[a, AC_SLOT]) for a in actions}


def test_score_2_no_sevens_from_the_pile_with_two_sevens():
    """SCORE-2/PILE-1: with two sevens and a seven on top, the heuristic takes the pile (starting
    a sevens meld) only with enough sevens in reach (the pile's join the hand) and, if asked
    (``risky_min_stock``), enough stock left to finish it."""
    few = position({SEVEN: 2, KING: 1, FIVE: 3}, stock=40, pile=(KING, SEVEN), phase=PH_DRAW)
    assert decide(few) == A_DRAW
    rich = (SEVEN, SEVEN, KING, SEVEN)  # two sevens in hand, three in the pile: five in reach
    long_ = position({SEVEN: 2, KING: 1, FIVE: 3}, stock=40, pile=rich, phase=PH_DRAW)
    assert decide(long_) == A_TAKE_PILE
    assert decide(long_, "heuristic:sevens_threshold=6") == A_DRAW
    short = position({SEVEN: 2, KING: 1, FIVE: 3}, stock=6, pile=rich, phase=PH_DRAW)
    assert decide(short, "heuristic:risky_min_stock=10") == A_DRAW


def test_meld_6_sevens_started_from_hand_only_past_the_threshold():
    """MELD-6/SCORE-2: three sevens in hand are not melded under the default threshold, but are
    with ``sevens_threshold=3``; not with a short stock when ``risky_min_stock`` asks for more."""
    hand = {SEVEN: 3, KING: 1, NINE: 1, FIVE: 1}
    melds, _ = play_turn(position(hand, pile=(TEN,)))
    assert SEVEN not in slots_melded(melds)
    melds, _ = play_turn(position(hand, pile=(TEN,)), "heuristic:sevens_threshold=3")
    assert SEVEN in slots_melded(melds)
    short = "heuristic:sevens_threshold=3,risky_min_stock=10"
    melds, _ = play_turn(position(hand, stock=8, pile=(TEN,)), short)
    assert SEVEN not in slots_melded(melds)


def test_meld_8_wild_meld_started_only_with_enough_wild_cards():
    """MELD-8/SCORE-3: three wild cards do not start a wild meld (-2,000 if unfinished); five
    do (default ``wild_meld_threshold`` 5)."""
    few = position({TWO: 2, JOKER: 1, KING: 1, NINE: 1, FIVE: 1}, pile=(TEN,))
    melds, _ = play_turn(few)
    assert WILD_MELD not in slots_melded(melds)
    many = position({TWO: 3, JOKER: 2, KING: 1, NINE: 1, FIVE: 1}, pile=(TEN,))
    melds, _ = play_turn(many)
    assert WILD_MELD in slots_melded(melds)


def test_out_1_two_canastas_and_a_single_card_goes_out():
    """OUT-1/OUT-2: with two canastas and one card left, the heuristic discards it (goes out);
    with three kings and a five it melds the kings first, then discards the five."""
    canastas = {QUEEN: (7, 0, 0), JACK: (5, 1, 1), KING: (4, 0, 0)}
    melds, a = play_turn(position({FIVE: 1}, own=canastas, pile=(TEN,)))
    assert melds == [] and a == A_DISCARD + FIVE
    obs = position({KING: 3, FIVE: 1}, own=canastas, pile=(TEN,))
    melds, a = play_turn(obs)
    assert melds == [MELD_ACTION[KING, 3, 0, 0]] and a == A_DISCARD + FIVE
    assert obs[OB_HAND_SIZES] == 1  # the discard is the last card: the hand goes out


def test_out_1_no_new_wild_meld_that_would_block_going_out():
    """OUT-1: a team able to go out does not start a wild meld with three wilds (it could then
    not go out, and would pay 2,000 for it)."""
    canastas = {QUEEN: (7, 0, 0), JACK: (5, 1, 1)}
    obs = position({TWO: 2, JOKER: 1, FIVE: 1, NINE: 1}, own=canastas, pile=(TEN,))
    melds, _ = play_turn(obs)
    assert WILD_MELD not in slots_melded(melds)


def test_pile_1_discard_weighs_the_next_players_pair():
    """PILE-1: between two equal singles, the heuristic discards the one with fewer copies
    unseen (the next player less likely holds a pair of it): here the rank the opponents meld;
    with ``feed_weight=1`` their meld's rank counts as riskier and the other goes."""
    obs = position({NINE: 1, TEN: 1, FIVE: 2}, opp={NINE: (3, 0, 0)}, pile=(KING,))
    assert decide(obs) == A_DISCARD + NINE
    assert decide(obs, "heuristic:feed_weight=1") == A_DISCARD + TEN


def test_score_4_a_third_seven_is_shed():
    """SCORE-4: holding three sevens it will not meld, the heuristic discards one (three in hand
    at the end cost 1,500)."""
    obs = position({SEVEN: 3, KING: 1, NINE: 1}, pile=(TEN, FIVE), stock=30)
    assert decide(obs) == A_DISCARD + SEVEN


def test_open_1_opening_without_a_risky_sevens_meld():
    """OPEN-1..4 with SCORE-2: when an opening reaches the minimum without them, the heuristic
    opens without melding its three sevens; when only an opening with the sevens reaches it, it
    waits (discards without melding), unless ``open_risky=1``."""
    hand = {KING: 3, QUEEN: 3, JACK: 2, JOKER: 1, SEVEN: 3, FIVE: 1}
    obs = position(hand, pile=(TEN,), opened=(0, 0))
    melds, _ = play_turn(obs)
    assert melds and SEVEN not in slots_melded(melds)
    pending = SeatView.from_observation(obs).pending
    assert sum(pending[s, NATURALS] for s in (KING, QUEEN, JACK)) >= 8
    # 125 only with the sevens: kings 40, queens and the joker 70, sevens 15
    only_sevens = {SEVEN: 3, KING: 4, QUEEN: 2, JOKER: 1, FIVE: 2, NINE: 1}
    melds, _ = play_turn(position(only_sevens, pile=(TEN,), opened=(0, 0)))
    assert melds == []
    obs = position(only_sevens, pile=(TEN,), opened=(0, 0))
    melds, _ = play_turn(obs, "heuristic:open_risky=1")
    assert SEVEN in slots_melded(melds)


def test_end_1_heuristic_goes_out_more_than_the_stock_runs_out():
    """END-1/OUT-1 and SCORE-*: the heuristic plays like a club player. Against itself its hands
    end by going out more often than by the stock running out; against random it scores over
    1,000 points per hand (the brief's club standard). Tolerances: 5 standard errors (the share
    difference's SE from the multinomial, the mean's from the sample SD over 4,000 hands)."""
    n = 4000
    hh = sim.simulate(n, policies=("heuristic", "heuristic"), seed=5)
    out = (hh.end_reason == "out").to_numpy(float)
    stock = (hh.end_reason == "stock").to_numpy(float)
    d = out - stock
    assert d.mean() - 5 * d.std(ddof=1) / np.sqrt(n) > 0, d.mean()
    hr = sim.simulate(n, policies=("heuristic", "random"), seed=6)
    s = hr.score_team0.to_numpy(float)
    assert s.mean() - 5 * s.std(ddof=1) / np.sqrt(n) > 1000, s.mean()
