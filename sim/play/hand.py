"""The step API: one hand (or a game) played action by action from Python.

    g = Game(seed=7)
    while not g.is_over:
        acts = g.legal_actions()            # sorted action ids
        g.apply(acts[0])                    # or g.apply(g.policy_action("heuristic"))
    g.scores()                              # {team: {item: points}, ...}

Legal actions come from the same compiled kernel the engine validates with
(``sim.engine.judge.legal_actions``), from the acting player's observation alone. A hand is
recorded as JSON (deck order, first player, scores, ruleset, action ids) and
``Game.replay(record)`` rebuilds the identical state.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from sim import encoding as E
from sim.errors import CanastaError, RuleViolation
from sim.ruleset import Ruleset, as_ruleset

__all__ = ["Game", "describe_action"]

LOG_EVENTS = 4096  #: transcript events kept per hand (a hand has a few hundred)
RECORD_FORMAT = "canasta-sim hand 1"  #: format tag of a replay record
RECORD_FORMAT_V1 = "canasta-sim record"  #: sim.record's format, read here for its first hand


def describe_action(a: int) -> str:
    """Human-readable text of an action id, e.g. 'meld 7: 3 naturals' or 'discard K'."""
    if not 0 <= a < E.N_ACTIONS:
        raise CanastaError(f"no action {a}: ids run 0..{E.N_ACTIONS - 1}")
    kind, slot, nat, two, joker = (int(x) for x in E.ACTION_TABLE[a])
    if kind == E.AT_DRAW:
        return "draw from the stock"
    if kind == E.AT_TAKE_PILE:
        return "take the discard pile"
    if kind == E.AT_LAY_THREES:
        return "lay down all threes"
    if kind == E.AT_KEEP_THREE:
        return f"keep one {E.KIND_NAMES[slot]} toward a Straight, lay down the rest"
    if kind == E.AT_DECLARE:
        return "declare a special hand"
    if kind == E.AT_DISCARD:
        return f"discard {E.KIND_NAMES[slot]}"
    parts = []
    if nat:
        parts.append(f"{nat}x{E.KIND_NAMES[slot]}")
    if two:
        parts.append(f"{two}x2")
    if joker:
        parts.append(f"{joker}xJK")
    target = "wild meld" if slot == E.WILD_MELD else f"meld {E.KIND_NAMES[slot]}"
    return f"{target}: {' '.join(parts)}"


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
    """The first hand of a ``sim.record`` record in ``record()``'s form (ids of the actions;
    ``sim.record.replay`` reads every hand, moves as text, and checks them)."""
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


#: the transcript's line for each event other than an action and the end (``{card}``: the
#: event's card, ``{kind}``: its kind, ``{n}``: its count)
_EVENT_TEXT = {
    E.EV_DRAW: "{who}: draws {card}",
    E.EV_REPLACE: "{who}:   replacement card {card}",
    E.EV_BONUS: "{who}:   bonus card {card} (OPEN-5)",
    E.EV_LAY_THREE: "{who}: lays down a {kind} (DEAL-4)",
    E.EV_PILE_JOINS: "{who}:   the rest of the pile ({n} cards) joins the hand",
}


class Game:
    """One hand of four players, stepped from Python (team 0 = seats 0 and 2)."""

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
        from sim.engine.play import _new_deck
        from sim.engine.state import _deal_hand
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
            _new_deck(self.rng, d)
        else:
            d = _deck(deck)
        self.deck = d
        self.first_player = self.hand_id % E.N_PLAYERS if first_player is None else first_player
        self.state = np.zeros(E.STATE_SIZE, dtype=np.int64)
        self.log = np.zeros(1 + LOG_EVENTS * E.EVENT_WIDTH, dtype=np.int64)
        self._obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
        self._scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
        self.actions: list[int] = []
        _deal_hand(
            self.state, d, self.first_player, *self.start_scores, hand_number, self.rules, self.log
        )

    # --- the state --------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return int(self.state[E.ST_PLAYER])

    @property
    def phase(self) -> str:
        return E.PHASE_NAMES[int(self.state[E.ST_PHASE])]

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
        apply_action(self.state, int(action), self.rules, self.log)
        self.actions.append(int(action))

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
        reference sees the other hands as in the engine's runs (``_peek_hands``)."""
        from sim.engine.contract import is_peeking, peek_scope

        if obs is None:
            obs = self.observation()
        if is_peeking(spec.function):
            from sim.engine.play import _peek_hands

            obs = obs.copy()
            _peek_hands(self.state, self.current_player, obs, peek_scope(spec.function))
        return int(spec.decide(obs, params, self.rng, self.rules, self._scratch))

    def play(self, policies: Sequence[str] = ("heuristic", "heuristic"), limit: int = 100000):
        """Play to the end of the hand with one policy per team."""
        from sim.api import resolve_policies
        from sim.engine.judge import forced_action

        policies = [r[2] for r in resolve_policies(policies)]  # unknown names: refused now
        for _ in range(limit):
            if self.is_over:
                return
            a = int(forced_action(self.observation()))  # as the engine: no choice, no policy
            if a < 0:
                a = self.policy_action(policies[self.current_player % E.N_TEAMS])
            self.apply(a)
        raise RuntimeError("hand did not end")  # pragma: no cover

    # --- the end ----------------------------------------------------------------------
    def score_items(self) -> np.ndarray:
        """int64[2, N_SCORE_ITEMS] itemised hand score (zeros until the hand is over)."""
        from sim.engine.state import _score_hand

        items = np.zeros((E.N_TEAMS, E.N_SCORE_ITEMS), dtype=np.int64)
        if self.is_over:
            _score_hand(self.state, self.rules, items)
        return items

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
    def replay(cls, record: dict[str, Any] | str) -> Game:
        """Rebuild a hand from ``record()`` (or its JSON) by replaying its actions."""
        if isinstance(record, str):
            try:
                record = json.loads(record)
            except json.JSONDecodeError as exc:
                raise CanastaError(f"bad hand record: not JSON ({exc})") from None
        if isinstance(record, dict) and record.get("format") == RECORD_FORMAT_V1:
            record = _first_hand(record)  # sim.record's format: its first hand
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

    # --- transcript -------------------------------------------------------------------
    def events(self) -> list[tuple[str, int, int, int]]:
        from sim.encoding import EVENT_NAMES

        n = int(self.log[0])
        ev = self.log[1 : 1 + n * E.EVENT_WIDTH].reshape(n, E.EVENT_WIDTH)
        return [(EVENT_NAMES[e], int(p), int(a), int(b)) for e, p, a, b in ev]

    def transcript(self) -> list[str]:
        """Readable lines: draws, pickups, melds, discards, threes, the end."""
        from sim.cards import format_card

        lines = []
        n = int(self.log[0])
        ev = self.log[1 : 1 + n * E.EVENT_WIDTH].reshape(n, E.EVENT_WIDTH)
        for e, p, a, b in ev:
            who = f"P{p} (team {p % E.N_TEAMS})"
            if e == E.EV_ACTION:
                kind = E.ACTION_TABLE[a, E.AC_TYPE]
                if kind == E.AT_DRAW:
                    continue  # the draw event itself names the card
                text = describe_action(int(a))
                if kind == E.AT_TAKE_PILE:
                    top = E.KIND_NAMES[b]
                    text += f" (PILE-1: the pair of {top} and the top {top} are melded)"
                lines.append(f"{who}: {text}")
            elif e == E.EV_END:
                lines.append(f"-- hand over: {E.END_NAMES[a]} (END-1)")
            elif e in _EVENT_TEXT:
                text = _EVENT_TEXT[e]
                card = format_card(int(b)) if "{card}" in text else ""
                kind = E.KIND_NAMES[a] if "{kind}" in text else ""
                lines.append(text.format(who=who, card=card, kind=kind, n=a))
        return lines
