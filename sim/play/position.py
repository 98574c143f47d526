"""A hand met at a what-if position: the fixed seat's decision in each of the position's deals,
as a :class:`sim.play.Hand` that steps, loops its turns and names what each seat sees.

A what-if position (``analysis.whatif.Position``) fixes one seat's hand and the public table;
deal ``i`` (from the run's seed) gives the other hands, the stock and the pile's hidden cards,
the same deal whatever the choice later made (paired comparisons). ``PositionDeals`` hands out
those deals at the fixed seat's first decision:

    deals = PositionDeals(pos, drawn=card_id, ruleset=rules, seed=seed)
    h = deals.hand(3)                    # deal 3, the fixed seat to act (a PositionHand)
    plans(h)                             # the play step's whole-turn plans (action ids)
    h.fork().finish_turn(script=plan)    # the turn played with a plan, or a policy's turn

The kernels stay in the engine (``sim.engine.script``: the deal of a position with a drawn card,
the plans); this module is their one Python entry, above it as the rest of ``sim.play``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sim import encoding as E
from sim.engine.intercept import CHOICES, NO_ACTION
from sim.errors import CanastaError, RuleViolation
from sim.play.hand import Hand
from sim.play.table import TableView
from sim.ruleset import as_ruleset

__all__ = ["CHOICES", "NO_ACTION", "PositionDeals", "PositionHand", "plans", "script_rows"]


class PositionHand(Hand):
    """A hand met at a state, not dealt from a deck (a what-if position's deal, at the fixed
    seat's decision): it steps, loops its turns (``turns``) and names what a seat sees
    (``view``) as any ``Hand``; its history starts at that state, so it has no deal to replay
    or record (``redeal``, ``steps``, ``record`` refuse). ``rules``: the ruleset's array when
    the caller holds it already (``Ruleset.to_array()`` costs more than a hand here)."""

    def __init__(self, state: np.ndarray, ruleset=None, rules: np.ndarray | None = None):
        table = TableView(state)  # checks the state's size
        self.ruleset = as_ruleset(ruleset)
        self.rules = np.ascontiguousarray(self.ruleset.to_array() if rules is None else rules)
        self.seed = None
        self.hand_id = 0
        self.deck = None
        self.first_player = table.first_player
        self.start_scores = tuple(int(x) for x in table.scores)
        #: OPEN-1 the hand's number in its game, as the position's deal set it (0 reads 1)
        self.hand_number = max(1, int(table.open_rules[0]))
        # a policy drawing from the generator is deterministic here: the same answer at the
        # same state, whichever copy asks
        self.rng = np.zeros(4, dtype=np.uint64)
        self._fresh(np.array(state, dtype=np.int64))

    def fork(self) -> PositionHand:
        """A new hand met at this hand's state now (no history): a trial that leaves this one
        as it is."""
        return PositionHand(self.state, self.ruleset, self.rules)

    def finish_turn(self, script: Sequence[int] | None = None, policy=None) -> bool:
        """Play the current seat's turn to its end through the one turn loop: at each of the
        seat's decisions the next action of ``script`` (the script ended: stop there), or
        ``policy``'s (a resolved ``(spec, params)``); the rules' forced steps are taken as the
        engine takes them. False when the rules refuse a step (the hand is left there)."""
        seat, turn = self.current_player, self.turn
        steps = list(script or ())
        seats = tuple(policy if s == seat else None for s in range(E.N_PLAYERS))
        try:
            while not self.is_over:
                for t in self.turns(seats):
                    if t.seat != seat or self.turn != turn:
                        return True  # the turn is over (the next seat's step not taken)
                    if t.action is None:
                        break  # the seat's decision: the script's next step
                else:
                    return True  # the hand is over
                if not steps:
                    return True
                self.apply(steps.pop(0))
        except RuleViolation:
            return False
        return True

    def _no_deal(self, *_args, **_kw):
        raise CanastaError("a hand met at a position has no deal to replay or record")

    redeal = steps = record = to_json = _no_deal


class PositionDeals:
    """The deals of ``position`` (``analysis.whatif.Position``) at the fixed seat's first
    decision of its turn (threes laid, DEAL-4; a keep-or-lay decision, DEAL-5, left open), from
    ``seed``; with ``drawn`` (a card id, -1 none) after drawing that card from the stock: the
    play step. The position is checked here (a CanastaError naming the problem)."""

    def __init__(self, position, drawn: int = -1, ruleset=None, seed: int = 0):
        from sim.engine.script import script_arrays
        from sim.rng import run_key

        self.ruleset = as_ruleset(ruleset)
        self.rules = np.ascontiguousarray(self.ruleset.to_array())
        self.drawn = int(drawn)
        self.arrays = script_arrays(position, self.drawn, self.ruleset)
        self.key = run_key(seed)
        self.seat = int(getattr(position, "seat", 0))

    def hand(self, deal: int = 0) -> PositionHand:
        """Deal ``deal`` at the fixed seat's decision (as ``sim.api.play_script`` deals it)."""
        from sim.engine.script import decision_state

        st = decision_state(*self.arrays, self.drawn, self.rules, self.key, deal)
        return PositionHand(st, self.ruleset, self.rules)


def plans(hand: Hand, max_wilds: int = E.MAX_OP_WILDS) -> list[tuple[int, ...]]:
    """The distinct whole-turn plans of the play step of ``hand``'s current seat: action-id
    tuples of meld operations ending in a discard or a declared special hand, each step legal
    by the engine's validator (``sim.engine.script.plans``: MELD-*, OPEN-*, OUT-1/2,
    SPECIAL-1); ``max_wilds`` wild cards at most in one meld operation."""
    from sim.engine.script import plans as engine_plans

    return engine_plans(hand.state, hand.rules, max_wilds)


def script_rows(scripts: Sequence[Sequence[int]]) -> np.ndarray:
    """Scripts of several lengths as one int64[n, width] array, padded with ``NO_ACTION``
    (``sim.api.play_script``'s ``scripts``)."""
    width = max(1, *(len(s) for s in scripts)) if scripts else 1
    out = np.full((len(scripts), width), NO_ACTION, dtype=np.int64)
    for i, s in enumerate(scripts):
        out[i, : len(s)] = s
    return out
