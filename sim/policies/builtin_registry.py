"""Registers the built-in policies (imported lazily by the registry)."""

from __future__ import annotations

from sim.policies import builtin
from sim.policies.registry import register

register("random", builtin.random_decide, {}, "uniform over the legal actions")
register(
    "greedy",
    builtin.greedy_decide,
    {},
    "melds all it can as soon as it can, takes the pile whenever legal",
)
register(
    "heuristic",
    builtin.heuristic_decide,
    builtin.HEURISTIC_PARAMS,
    "a sensible club player; sevens, aces, wild meld, pile and discard choices are parameters:\n"
    + builtin.param_docs(builtin.HEURISTIC_PARAMS),
)
register(
    "special_chaser",
    builtin.special_chaser_decide,
    builtin.CHASER_PARAMS,
    "heuristic, but while unopened keeps a three and discards toward Straight/Pairs/Garbage:\n"
    + builtin.param_docs(builtin.CHASER_PARAMS),
)

from sim.policies.expert import register_expert  # noqa: E402  (issue 7: search policy)

register_expert()
