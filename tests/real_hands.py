"""Real hands for the tests that check a shortcut against the law at every decision: the rule
variants they run under and the decisions of fixed-seed hands."""

from sim import encoding as E
from sim.play import Hand as Game

__all__ = ["RULES", "RULE_IDS", "decisions", "games"]

#: the tournament rules and two variants (MELD-4 with 3 wilds, MELD-2's long meld going out)
RULES = [
    None,
    {"max_wilds_mixed": 3},
    {"allow_long_meld_going_out": True, "rule_of_five": False},
]
RULE_IDS = ["tournament", "wilds3", "long"]


def games(pair, seed, hand_ids, rules, hand_number=None):
    """(game, observation) at every policy decision of the hands, the policies then acting;
    ``hand_number(hand_id)``: the hand's number in its game (OPEN-1; default 1)."""
    for hand_id in hand_ids:
        number = 1 if hand_number is None else hand_number(hand_id)
        g = Game(seed=seed, hand_id=hand_id, rules=rules, hand_number=number)
        for obs in decisions(g):
            yield g, obs
            g.apply(g.policy_action(pair[g.current_player % 2]))


def decisions(g):
    """The observation at each decision of ``g`` the rules leave to a player, the forced steps
    taken by the hand's turn loop (``Hand.turns`` with no policy: each decision ends it); the
    caller applies an action before asking for the next. The policy is asked after the caller
    has looked, on the hand's own generator and scratch, as the engine asks it."""
    nobody = (None,) * E.N_PLAYERS
    while True:
        met = list(g.turns(nobody))  # the forced steps taken; the last, a decision, left open
        if g.is_over:
            return
        yield met[-1].obs
