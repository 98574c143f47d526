"""One hand, the one owner in Python: dealt, stepped, remembered, replayed.

    h = Hand(seed=7)
    for turn in h.turns(("heuristic", "strong")):  # the one turn loop
        ...                                          # turn.seat, .obs, .action, .forced
    h.history                                        # [(seat, action), ...]
    h.view(0).hand                                   # what seat 0 sees, by name (SeatView)
    h.scores()                                       # {team: {item: points}, ...}

or by hand: ``h.legal_actions()`` (sorted ids), ``h.apply(a)``. Legal actions come from the
same compiled kernel the engine validates with (``sim.engine.judge.legal_actions``), from the
acting player's observation alone. A hand is recorded as JSON (deck order, first player,
scores, ruleset, action ids) and ``Hand.replay(record)`` rebuilds the identical state;
``Hand.steps()`` walks the hand again from its deal, one action at a time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from sim import encoding as E
from sim.errors import CanastaError, RuleViolation
from sim.play.events import Event, HandEvent
from sim.play.view import SeatView
from sim.play.words import describe_action
from sim.ruleset import Ruleset, as_ruleset

__all__ = ["Hand", "Turn", "describe_action", "seat_policies"]

LOG_EVENTS = 4096  #: transcript events kept per hand (a hand has a few hundred)
RECORD_FORMAT = "canasta-sim hand 1"  #: format tag of a replay record
RECORD_FORMAT_V1 = "canasta-sim record"  #: sim.play.record's format, read here for its first hand


def _deck(deck) -> np.ndarray:
    """A given deck order: each of the 108 card ids once."""
    bad = CanastaError(f"a deck must list each of the {E.N_CARDS} card ids 0..{E.N_CARDS - 1} once")
    if isinstance(deck, str | bytes) or not hasattr(deck, "__len__"):
        raise bad
    items = list(deck)
    if len(items) != E.N_CARDS or any(
        isinstance(c, bool | np.bool_) or not isinstance(c, int | np.integer) for c in items
    ):
        raise bad
    if sorted(int(c) for c in items) != list(range(E.N_CARDS)):
        raise bad
    return np.array(items, dtype=np.int64)


def _first_hand(record: dict) -> dict:
    """The first hand of a ``sim.play.record`` record in ``record()``'s form (ids of the actions;
    ``sim.play.record.replay`` reads every hand, moves as text, and checks them)."""
    hands = record.get("hands")
    if not isinstance(hands, list) or not hands or not isinstance(hands[0], dict):
        raise CanastaError("bad hand record: 'hands' must be a non-empty list of hands")
    h = hands[0]
    actions = h.get("actions")
    if isinstance(actions, list):
        actions = [a.get("id") if isinstance(a, dict) else a for a in actions]
    return {
        "format": RECORD_FORMAT,
        "seed": record.get("seed"),
        "ruleset": record.get("ruleset"),
        **{k: h[k] for k in ("hand_id", "first_player", "scores", "deck") if k in h},
        "actions": actions,
    }


_RECORD_KEYS = ("hand_id", "first_player", "scores", "ruleset", "deck", "actions")


class Turn(NamedTuple):
    """One step of the turn loop (``Hand.turns``): the seat to act, its observation, the action
    it takes (None: a seat without a policy decides, outside the loop) and whether the rules
    left no choice (``forced``: the engine asks no policy then)."""

    seat: int
    obs: np.ndarray
    action: int | None
    forced: bool


def seat_policies(policies: Sequence) -> tuple:
    """Each seat's policy resolved once (``sim.policies.registry.resolve``): ``(spec, params)``
    per seat, or None for a seat without one. ``policies``: two (team 0, team 1; one plays
    both when alone, or one comma list) or four (per seat; None for a seat someone else
    decides); each a spec string, ``(name, {param: value})`` or an already resolved
    ``(PolicySpec, params)``. An unknown name is refused here, before the hand is played."""
    from sim.policies.registry import PolicySpec, resolve

    if isinstance(policies, str) or len(policies) not in (1, 2, E.N_PLAYERS):
        from sim.api import policy_pair

        policies = policy_pair(policies)
    policies = list(policies)
    if len(policies) == 1:
        policies = policies * 2

    def one(p):
        if p is None:
            return None
        if isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], PolicySpec):
            return p
        spec, params, _ = resolve(p)
        return spec, params

    per = [one(p) for p in policies]
    return tuple(per[s % len(per)] for s in range(E.N_PLAYERS))


class Hand:
    """One hand of four players, stepped from Python (team 0 = seats 0 and 2); it keeps its
    history of (seat, action) (``history``; ``actions`` and ``seats`` the two columns). A
    hand is one deal played out; the game of hands is ``sim.play.GameDriver``'s."""

    def __init__(
        self,
        seed: int = 0,
        hand_id: int = 0,
        rules: Ruleset | dict | str | None = None,
        first_player: int | None = None,
        scores: Sequence[int] = (0, 0),
        deck: Sequence[int] | None = None,
        hand_number: int = 1,
    ):
        from sim.engine.play import new_deck
        from sim.engine.state import deal_hand
        from sim.limits import check_hand_id, check_scores, check_seat, check_seed
        from sim.rng import run_key, seed_hand

        # every number is checked before it reaches a kernel (sim.limits)
        seed = check_seed(seed)
        self.hand_id = check_hand_id(hand_id)
        if first_player is not None:
            first_player = check_seat(first_player, "first_player")
        self.start_scores = check_scores(scores)
        if isinstance(hand_number, bool) or not isinstance(hand_number, int) or hand_number < 1:
            raise CanastaError(
                f"hand_number: expected a whole number 1 or more, got {hand_number!r}"
            )
        #: OPEN-1 the hand's number in its game (a hand played on its own is hand 1)
        self.hand_number = hand_number
        self.ruleset = as_ruleset(rules)
        self.rules = np.ascontiguousarray(self.ruleset.to_array())
        self.seed = seed
        self.rng = np.zeros(4, dtype=np.uint64)
        seed_hand(run_key(seed), self.hand_id, self.rng)
        if deck is None:
            d = np.zeros(E.N_CARDS, dtype=np.int64)
            new_deck(self.rng, d)
        else:
            d = _deck(deck)
        self.deck = d
        self.first_player = self.hand_id % E.N_PLAYERS if first_player is None else first_player
        self._fresh(np.zeros(E.STATE_SIZE, dtype=np.int64))
        deal_hand(
            self.state, d, self.first_player, *self.start_scores, hand_number, self.rules, self.log
        )

    def _fresh(self, state: np.ndarray) -> None:
        """The hand's working arrays and an empty history, at ``state`` (every constructor of a
        hand, this one's and a subclass's, sets them here, so none is left out)."""
        self.state = state
        self.log = np.zeros(1 + LOG_EVENTS * E.EVENT_WIDTH, dtype=np.int64)
        self._obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
        self._scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
        self.actions: list[int] = []  #: the actions applied, in order
        self.seats: list[int] = []  #: the seat that took each of them

    # --- the state --------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return int(self.state[E.ST_PLAYER])

    @property
    def phase(self) -> str:
        return E.PHASE_NAMES[int(self.state[E.ST_PHASE])]

    @property
    def resume_phase(self) -> str:
        """DEAL-5: the phase a threes step goes on with (``draw`` at a turn's start)."""
        return E.PHASE_NAMES[int(self.state[E.ST_RESUME])]

    @property
    def is_over(self) -> bool:
        return int(self.state[E.ST_PHASE]) == E.PH_OVER

    @property
    def turn(self) -> int:
        return int(self.state[E.ST_TURN])

    def observation(self, player: int | None = None) -> np.ndarray:
        """What ``player`` (default: the current player) sees (layout OBS_FIELDS)."""
        from sim.engine.observe import observe

        p = self.current_player if player is None else int(player)
        if not 0 <= p < E.N_PLAYERS:
            raise CanastaError(f"bad player {player}: seats are 0..3")
        obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
        observe(self.state, p, obs)
        return obs

    def _tmp(self) -> np.ndarray:
        return self._scratch[E.SCRATCH_TMP : E.SCRATCH_TMP + E.TMP_SIZE]

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids of the current player (empty once the hand is over)."""
        from sim.engine.judge import legal_actions

        if self.is_over:
            return []
        out = np.zeros(E.N_ACTIONS, dtype=np.int64)
        obs = self.observation()
        n = legal_actions(obs, self.rules, out, self._tmp())
        return out[:n].tolist()

    def legal_actions_described(self) -> list[tuple[int, str]]:
        return [(a, describe_action(a)) for a in self.legal_actions()]

    def reason(self, action: int) -> int:
        """R_OK or the reason code refusing ``action`` for the current player."""
        from sim.encoding import R_BAD_ACTION
        from sim.engine.judge import action_reason

        if self.is_over:
            from sim.encoding import R_WRONG_PHASE

            return R_WRONG_PHASE
        if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
            return R_BAD_ACTION
        if not 0 <= action < E.N_ACTIONS:  # before the kernel: a huge id would overflow int64
            return R_BAD_ACTION
        return int(action_reason(self.observation(), int(action), self.rules, self._tmp()))

    def apply(self, action: int) -> None:
        """Apply a legal action; an illegal one raises RuleViolation naming the rule."""
        from sim.engine.state import apply_action

        code = self.reason(action)
        if code != E.R_OK:
            ok_id = isinstance(action, int | np.integer) and 0 <= action < E.N_ACTIONS
            raise RuleViolation(code, describe_action(int(action)) if ok_id else repr(action))
        seat = self.current_player
        apply_action(self.state, int(action), self.rules, self.log)
        self.actions.append(int(action))
        self.seats.append(seat)

    @property
    def history(self) -> list[tuple[int, int]]:
        """(seat, action) of every action so far, in order."""
        return list(zip(self.seats, self.actions, strict=True))

    def view(self, seat: int | None = None) -> SeatView:
        """What ``seat`` (default: the current player) sees, by name (``SeatView``)."""
        return SeatView.from_observation(self.observation(seat))

    def policy_action(self, policy: str, params: np.ndarray | None = None) -> int:
        """The action the named policy (spec string) would take now, from this game's rng."""
        from sim.policies.registry import parse

        spec, p, _ = parse(policy)
        if params is not None:
            given = np.asarray(params)
            if given.shape != p.shape or not np.issubdtype(given.dtype, np.number):
                raise CanastaError(
                    f"params of {policy!r}: expected {p.size} numbers (the policy's parameters)"
                )
            p = np.ascontiguousarray(given, dtype=np.float64)
        return self.decide(spec, p)

    def decide(self, spec, params: np.ndarray, obs: np.ndarray | None = None) -> int:
        """The action of a policy resolved once (``sim.policies.registry.parse``: its spec and
        parameter array), from this game's rng; ``obs``: the current player's observation when
        the caller has made it already (a loop that also asks ``forced_action``). A peeking
        reference sees the other hands as in the engine's runs (``peek_hands``)."""
        from sim.engine.contract import is_peeking, peek_scope

        if obs is None:
            obs = self.observation()
        if is_peeking(spec.function):
            from sim.engine.play import peek_hands

            obs = obs.copy()
            peek_hands(self.state, self.current_player, obs, peek_scope(spec.function))
        return int(spec.decide(obs, params, self.rng, self.rules, self._scratch))

    def turns(
        self, policies: Sequence = ("heuristic", "heuristic"), forced_for_all: bool = True
    ) -> Iterator[Turn]:
        """The one turn loop: yields a :class:`Turn` for each action before it is applied (the
        hand as the seat meets it) and applies it when resumed, to the end of the hand.

        ``policies``: as :func:`seat_policies` takes them, resolved once. A step the rules
        force (``sim.engine.judge.forced_action``) is taken without asking a policy, as the
        engine does. A seat without a policy ends the loop at its decision, yielded with
        ``action`` None (its chooser applies it; then start the loop again); with
        ``forced_for_all`` False, at its forced steps too."""
        return self._turns(seat_policies(policies), forced_for_all)

    def _turns(self, seats: tuple, forced_for_all: bool) -> Iterator[Turn]:
        from sim.engine.judge import forced_action

        while not self.is_over:
            seat = self.current_player
            obs = self.observation()
            a = int(forced_action(obs))
            chosen = seats[seat]
            if chosen is None and (a < 0 or not forced_for_all):
                yield Turn(seat, obs, None, a >= 0)
                return
            forced = a >= 0
            if not forced:
                a = self.decide(chosen[0], chosen[1], obs)
            yield Turn(seat, obs, a, forced)
            self.apply(a)

    def play(self, policies: Sequence[str] = ("heuristic", "heuristic"), limit: int = 100000):
        """Play to the end of the hand with one policy per team (or per seat), through
        :meth:`turns`."""
        loop = self.turns(policies)  # unknown names: refused now, before any action
        for n, _ in enumerate(loop):
            if n >= limit:  # pragma: no cover - a hand ends in a few hundred actions
                raise RuntimeError("hand did not end")

    # --- the end ----------------------------------------------------------------------
    def score_items(self) -> np.ndarray:
        """int64[2, N_SCORE_ITEMS] itemised hand score (zeros until the hand is over)."""
        from sim.engine.state import score_hand

        items = np.zeros((E.N_TEAMS, E.N_SCORE_ITEMS), dtype=np.int64)
        if self.is_over:
            score_hand(self.state, self.rules, items)
        return items

    def record_row(self) -> np.ndarray:
        """The finished hand as the engine's record row (int64, layout ``RECORD_COLUMNS``:
        the row ``sim.simulate`` writes for it, before the frame names its codes)."""
        from sim.engine.play import write_record_row

        if not self.is_over:
            raise CanastaError("the hand is not over: no record row yet")
        row = np.zeros(E.RECORD_WIDTH, dtype=np.int64)
        write_record_row(self.state, self.hand_id, self.score_items(), row)
        return row

    def scores(self) -> dict[int, dict[str, int]]:
        items = self.score_items()
        out = {}
        for t in range(E.N_TEAMS):
            d = {name: int(items[t, i]) for i, name in enumerate(E.SCORE_ITEMS)}
            d["total"] = int(items[t].sum())
            out[t] = d
        return out

    @property
    def end_reason(self) -> str:
        return E.END_NAMES[int(self.state[E.ST_END_REASON])]

    @property
    def out_team(self) -> int:
        return int(self.state[E.ST_OUT_TEAM])

    @property
    def special_hand(self) -> tuple[str, int]:
        names = self.ruleset.special_names  # SPECIAL-7..9: the list in force
        return names[int(self.state[E.ST_SPECIAL])], int(self.state[E.ST_SPECIAL_TEAM])

    # --- records and replay -----------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """A replayable record of the hand so far (JSON-serialisable)."""
        rec = {
            "format": RECORD_FORMAT,
            "seed": self.seed if isinstance(self.seed, int) else None,
            "hand_id": self.hand_id,
            "first_player": self.first_player,
            "scores": list(self.start_scores),
            "ruleset": self.ruleset.to_dict(),
            "deck": self.deck.tolist(),
            "actions": list(self.actions),
        }
        if self.hand_number != 1:  # OPEN-1: a later hand of a game (absent: hand 1)
            rec["hand_number"] = self.hand_number
        return rec

    def to_json(self) -> str:
        return json.dumps(self.record())

    @classmethod
    def replay(cls, record: dict[str, Any] | str) -> Hand:
        """Rebuild a hand from ``record()`` (or its JSON) by replaying its actions."""
        if isinstance(record, str):
            try:
                record = json.loads(record)
            except json.JSONDecodeError as exc:
                raise CanastaError(f"bad hand record: not JSON ({exc})") from None
        if isinstance(record, dict) and record.get("format") == RECORD_FORMAT_V1:
            record = _first_hand(record)  # sim.play.record's format: its first hand
        if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
            raise CanastaError(f"bad hand record: expected format {RECORD_FORMAT!r}")
        missing = [k for k in _RECORD_KEYS if k not in record]
        if missing:
            raise CanastaError(f"bad hand record: missing key {missing[0]!r}")
        actions = record["actions"]
        if not isinstance(actions, list) or any(
            isinstance(a, bool) or not isinstance(a, int) for a in actions
        ):
            raise CanastaError("bad hand record: 'actions' must be a list of action ids")
        try:
            g = cls(
                seed=record.get("seed") or 0,
                hand_id=record["hand_id"],
                rules=record["ruleset"],
                first_player=record["first_player"],
                scores=record["scores"],
                deck=record["deck"],
                hand_number=record.get("hand_number", 1),
            )
        except RuleViolation:
            raise
        except CanastaError as exc:
            raise CanastaError(f"bad hand record: {exc}") from None
        for i, a in enumerate(actions):
            try:
                g.apply(a)
            except RuleViolation as exc:
                what = describe_action(a) if 0 <= a < E.N_ACTIONS else str(a)
                raise RuleViolation(exc.code, f"bad hand record: action {i + 1}, {what}") from None
        return g

    def redeal(self) -> Hand:
        """A new hand of the same deal (seed, hand, ruleset, first player, scores, deck,
        hand number), before any action: where a replay or an undo starts."""
        return type(self)(
            seed=self.seed,
            hand_id=self.hand_id,
            rules=self.ruleset,
            first_player=self.first_player,
            scores=self.start_scores,
            deck=self.deck.tolist(),
            hand_number=self.hand_number,
        )

    def steps(self, upto: int | None = None) -> Iterator[tuple[int, int, Hand]]:
        """The one replay of a hand: ``(seat, action, hand)`` after each of its actions (the
        first ``upto``), the hand dealt again and stepped (the same object each time, advanced:
        copy it to keep a position)."""
        h = self.redeal()
        for seat, a in self.history[:upto]:
            h.apply(a)
            yield seat, a, h

    # --- transcript -------------------------------------------------------------------
    def events(self) -> list[HandEvent]:
        """Every event logged so far, typed (``sim.play.events``)."""
        n = int(self.log[0])
        ev = self.log[1 : 1 + n * E.EVENT_WIDTH].reshape(n, E.EVENT_WIDTH)
        kinds = list(Event)
        return [HandEvent(kinds[e], int(p), int(a), int(b)) for e, p, a, b in ev.tolist()]

    def seat_events(self, seat: int | None) -> list[HandEvent]:
        """The events ``seat`` is told (``sim.play.words.seat_events``: the others' cards
        hidden, their threes steps untold, DEAL-5); None: every event."""
        from sim.play.words import seat_events

        return [ev for _, ev in seat_events(self.events(), seat)]

    def transcript(self) -> list[str]:
        """Readable lines of the whole hand, every card shown: draws, pickups, melds, discards,
        threes, the end (``sim.play.words.transcript_lines``)."""
        from sim.play.words import transcript_lines

        return transcript_lines(self.events())
