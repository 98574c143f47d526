"""The hand in Python (``sim.play``): its history of (seat, action), the one turn loop, the
replay from its deal, what a seat sees by name (``SeatView``) and the typed events; TURN-1 (the
seat that acts), DEAL-1 (who plays first) and END-1 (the loop ends with the hand)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import sim
from sim import encoding as E
from sim.engine.judge import forced_action
from sim.engine.views import ob_hand, ob_melds
from sim.errors import CanastaError
from sim.play import Event, Hand, HandEvent, SeatView, Turn

PAIRS = [("heuristic", "heuristic"), ("random", "special_chaser"), ("strong", "greedy")]


def old_loop(h: Hand, policies) -> None:
    """The loop every face wrote before the turn loop (kept here as the oracle): the forced
    action, else the team's policy asked by name, then apply."""
    while not h.is_over:
        a = int(forced_action(h.observation()))
        if a < 0:
            a = h.policy_action(policies[h.current_player % E.N_TEAMS])
        h.apply(a)


@pytest.mark.parametrize("pair", PAIRS)
@pytest.mark.parametrize("seed", [1, 7])
def test_play_through_the_turn_loop_gives_the_same_hand(seed, pair):
    # the same seed, the same policies: the same actions, scores and rng as the old loop
    a, b = Hand(seed=seed, hand_id=3), Hand(seed=seed, hand_id=3)
    a.play(pair)
    old_loop(b, pair)
    assert a.actions == b.actions
    assert a.scores() == b.scores()
    assert np.array_equal(a.state, b.state)
    assert np.array_equal(a.rng, b.rng)


def test_history_names_the_seat_that_acted():
    # TURN-1: each action is the acting seat's; DEAL-1: the first is the first player's
    h = Hand(seed=5, hand_id=2)
    acted = []
    for t in h.turns(("heuristic", "random")):
        assert t.seat == h.current_player
        acted.append(t.seat)
    assert h.is_over
    assert h.history == list(zip(acted, h.actions, strict=True))
    assert h.seats[0] == h.first_player == 2
    assert len(set(h.seats)) == E.N_PLAYERS


def test_the_turn_loop_yields_before_applying():
    h = Hand(seed=3)
    for t in h.turns(("heuristic", "heuristic")):
        assert isinstance(t, Turn)
        assert np.array_equal(t.obs, h.observation())  # the hand as the seat meets it
        n = len(h.actions)
        assert t.forced == (int(forced_action(t.obs)) >= 0)
        assert h.reason(t.action) == E.R_OK
        if n > 30:
            break
    assert len(h.actions) == n  # broken off before the last action: not applied


def test_a_seat_without_a_policy_ends_the_loop_at_its_decision():
    h = Hand(seed=11, hand_id=1)
    policies = ["heuristic", "heuristic", None, "heuristic"]  # seat 2 decides outside
    decisions = 0
    while not h.is_over:
        last = None
        for t in h.turns(policies):
            last = t
        if last is None or last.action is not None:
            break
        assert last.seat == 2 and not last.forced  # forced steps of seat 2 were played
        h.apply(h.policy_action("heuristic"))
        decisions += 1
    assert h.is_over and decisions > 0
    ref = Hand(seed=11, hand_id=1)
    ref.play(("heuristic", "heuristic"))
    assert h.actions == ref.actions  # the same policy outside: the same hand


def test_forced_steps_can_stop_the_loop_too():
    h = Hand(seed=2)
    turns = list(h.turns([None] * 4, forced_for_all=False))
    assert len(turns) == 1 and turns[0].action is None and h.actions == []


def test_policies_are_resolved_once_and_refused_at_once():
    h = Hand(seed=1)
    with pytest.raises(CanastaError):
        h.turns(("heuristic", "no_such_bot"))  # before any action: nothing played
    assert h.actions == []


def test_steps_replay_the_hand_after_each_action():
    h = Hand(seed=9, hand_id=4)
    states = []
    for _ in h.turns(("strong", "heuristic")):
        states.append(h.state.copy())  # before each action
    states.append(h.state.copy())
    steps = list(h.steps())
    assert [(s, a) for s, a, _ in steps] == h.history
    for i, (_, _, r) in enumerate(h.steps()):
        assert np.array_equal(r.state, states[i + 1])
    assert steps[-1][2].scores() == h.scores()
    assert len(list(h.steps(upto=5))) == 5


def test_seat_view_reads_the_observation_by_name():
    h = Hand(seed=4)
    for n, _ in enumerate(h.turns(("heuristic", "heuristic"))):
        if n % 7:
            continue
        for seat in range(E.N_PLAYERS):
            obs = h.observation(seat)
            v = h.view(seat)
            assert isinstance(v, SeatView) and v.seat == seat
            assert np.array_equal(v.hand, ob_hand(obs))
            assert np.array_equal(v.melds, ob_melds(obs))
            assert v.hand.sum() == v.hand_sizes[0]
            assert v.phase_name == h.phase and v.turn == h.turn
            assert v.team_at(0) == seat % 2 and v.seat_at(2) == (seat + 2) % 4
    with pytest.raises(ValueError):
        h.view(0).hand[0] = 9  # read-only
    with pytest.raises(ValueError):
        SeatView.from_observation(np.zeros(3, dtype=np.int64))


def test_events_are_typed():
    assert tuple(e.value for e in Event) == E.EVENT_NAMES
    assert [e.code for e in Event] == list(range(len(E.EVENT_NAMES)))
    assert Event.DRAW == "draw" and Event.END.code == E.EV_END
    h = Hand(seed=6)
    h.play(("heuristic", "heuristic"))
    events = h.events()
    assert all(isinstance(e, HandEvent) and isinstance(e.kind, Event) for e in events)
    assert events[-1].kind is Event.END
    actions = [e.a for e in events if e.kind is Event.ACTION]
    assert actions == h.actions


def test_game_is_a_deprecated_name_of_hand():
    with pytest.warns(DeprecationWarning, match="sim.play.Hand"):
        from sim.step import Game
    assert Game is Hand
    with pytest.warns(DeprecationWarning):
        assert sim.Game is Hand
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sim.Hand is Hand  # the new name does not warn
        from sim.step import describe_action  # noqa: F401 (the shim's other names neither)
