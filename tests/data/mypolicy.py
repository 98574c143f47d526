"""A user policy for ``canasta ... --load`` (tests/test_human.py): registers ``mypolicy``,
which plays the last legal action of the table (the pile when it may, the largest meld
operation of the highest rank, else the highest discard)."""

from numba import njit

from sim.engine.judge import legal_actions
from sim.engine.views import scratch_legal, scratch_tmp
from sim.policies import register


@njit(cache=True)
def last_legal(obs, params, rng, rules, scratch):
    legal = scratch_legal(scratch)
    n = legal_actions(obs, rules, legal, scratch_tmp(scratch))
    return legal[n - 1]


register("mypolicy", last_legal, doc="the last legal action (a --load test)", replace=True)
