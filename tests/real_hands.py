"""Real hands for the tests that check a shortcut against the law at every decision: the rule
variants they run under and the decisions of fixed-seed hands."""

from sim.engine.judge import forced_action
from sim.play import Hand as Game

__all__ = ["RULES", "RULE_IDS", "games"]

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
        while not g.is_over:
            obs = g.observation()
            a = int(forced_action(obs))
            if a < 0:
                yield g, obs
                a = g.policy_action(pair[g.current_player % 2])
            g.apply(a)
