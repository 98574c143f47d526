"""The one place the built-in policies are registered (loaded by ``sim.policies`` on first use).

Registered ``lazy``: each is compiled (or loaded from numba's cache) when first played, so a
first run compiles only the policies it plays.

Each policy: its name, compiled decide function, parameter table (name, default, meaning) and a
line of description; the registry's documentation lists the parameters from the table.
"""

from __future__ import annotations

import functools

from sim.engine.contract import (
    PEEK_KINDS,
    PEEK_NEXT,
    PEEK_NEXT_WHEN,
    PEEK_OTHERS,
    PEEK_WHEN,
    mark_builtin,
    mark_peeking,
)
from sim.policies.builtin import (
    CHASER_PARAMS,
    CHASER_TABLE,
    greedy_decide,
    heuristic_decide,
    random_decide,
    special_chaser_decide,
)
from sim.policies.expert import (
    EXPERT_PARAMS,
    EXPERT_TABLE,
    check_params,
    check_params_unweighted,
    expert_decide,
    expert_strong_table,
)
from sim.policies.game_strong import check_params as check_game_params
from sim.policies.game_strong import game_strong_decide, game_strong_table, game_tail
from sim.policies.heuristic_params import HEURISTIC_PARAMS, HEURISTIC_TABLE, param_docs
from sim.policies.registry import register
from sim.policies.strong import (
    FROZEN_FILE,
    peek_kinds_strong_decide,
    peek_next_strong_decide,
    peek_next_when_strong_decide,
    peek_others_strong_decide,
    peek_when_strong_decide,
    peeking_strong_decide,
    strong_decide,
    strong_table,
    strong_weights,
)
from sim.policies.strong_v2 import V2_FILE, v2_table, v2_weights

__all__: list[str] = []  # registers the built-ins on import; no names of its own

_register = functools.partial(register, lazy=True)  # compiled when first played
#: the peeking reference's values beyond strong's: it reads what it sees
PEEKING_DEFAULTS = {"memory_weight": 1.0}

# the built-ins' proposals are legal (tests/test_trusted_builtins.py plays each with the judge
# on): production runs apply them unjudged, a user's policy is judged always
for _decide in (
    random_decide,
    greedy_decide,
    heuristic_decide,
    special_chaser_decide,
    expert_decide,
    strong_decide,
    peeking_strong_decide,
    game_strong_decide,
):
    mark_builtin(_decide)
mark_peeking(peeking_strong_decide)
# the narrower peeking scopes, bounds of the memory's worth: marked here, registered only by
# the benchmark that measures them (benchmarks/bench_memory.py)
for _decide, _scope in (
    (peek_kinds_strong_decide, PEEK_KINDS),
    (peek_when_strong_decide, PEEK_WHEN),
    (peek_next_strong_decide, PEEK_NEXT),
    (peek_others_strong_decide, PEEK_OTHERS),
    (peek_next_when_strong_decide, PEEK_NEXT_WHEN),
):
    mark_builtin(_decide)
    mark_peeking(_decide, _scope)

_register("random", random_decide, {}, "uniform over the legal actions")
_register(
    "greedy",
    greedy_decide,
    {},
    "melds all it can as soon as it can, takes the pile whenever legal",
)
_register(
    "heuristic",
    heuristic_decide,
    HEURISTIC_PARAMS,
    "a sensible club player; sevens, aces, wild meld, pile and discard choices are parameters:\n"
    + param_docs(HEURISTIC_TABLE),
)
_register(
    "special_chaser",
    special_chaser_decide,
    CHASER_PARAMS,
    "heuristic, but while unopened keeps a three and discards toward Straight/Pairs/Garbage:\n"
    + param_docs(CHASER_TABLE),
)
_register(
    "expert",
    expert_decide,
    EXPERT_PARAMS,
    "determinized Monte Carlo search over heuristic rollouts at the draw, the discard and "
    "the start of sevens/aces/wild melds (samples x rollouts per candidate):\n"
    + param_docs(EXPERT_TABLE),
    check=check_params_unweighted,
)
_STRONG_TABLE = strong_table()
_WEIGHTS = tuple(strong_weights())  #: the evaluator's, after the named parameters
_register(
    "strong",
    strong_decide,
    {name: default for name, default, _ in _STRONG_TABLE},
    "the heuristic's kernel at tuned values of its parameters (among them new melds held "
    "back and the discard weights the heuristic leaves neutral), a learned evaluator of the "
    "candidate moves at the draw, the discard and the start of sevens/aces/wild melds, and "
    "under a list other than the tournament's the chase of its nearest special hand "
    "(chase_distance); parameters tuned and the evaluator distilled from "
    "search on duplicate deals (canasta train; values and training record in "
    "sim/policies/data/strong.json):\n" + param_docs(_STRONG_TABLE),
    tail=_WEIGHTS,
)
_FROZEN_TABLE = strong_table(FROZEN_FILE)
_register(
    "strong_2026_12",
    strong_decide,
    {name: default for name, default, _ in _FROZEN_TABLE},
    "the frozen reference: strong as shipped in December 2026 (its kernel reading a frozen "
    f"copy of that data file, sim/policies/data/{FROZEN_FILE}, never retrained), so that "
    "strength figures keep one fixed yardstick while strong moves on:\n"
    + param_docs(_FROZEN_TABLE),
    tail=tuple(strong_weights(FROZEN_FILE)),
)
_V2_TABLE = v2_table()
_V2_WEIGHTS = tuple(v2_weights())  #: strong_v2's evaluator, after its named parameters
_register(
    "strong_v2",
    strong_decide,
    {name: default for name, default, _ in _V2_TABLE},
    "strong's kernel at the frozen reference's parameters with a wider learned evaluator "
    "(evaluator=2): every legal discard, opening now or waiting, the draw and the start of "
    "sevens/aces/wild melds, scored by a linear model of what each move gives and breaks, "
    "distilled from search against a pool of opponents (canasta train --stage distill2; "
    f"weights and training record in sim/policies/data/{V2_FILE}):\n" + param_docs(_V2_TABLE),
    tail=_V2_WEIGHTS,
)
_EXPERT_STRONG_TABLE = expert_strong_table()
_register(
    "expert_strong",
    expert_decide,
    {name: default for name, default, _ in _EXPERT_STRONG_TABLE},
    "expert searching over strong's rollouts (expert with rollout=1): strong proposes the "
    "candidates, plays the other moves and all four seats of every rollout, with its learned "
    "values as defaults:\n" + param_docs(_EXPERT_STRONG_TABLE),
    check=check_params,
    tail=_WEIGHTS,
)
_EXPERT_V2_TABLE = expert_strong_table(_V2_TABLE)
_register(
    "expert_strong_v2",
    expert_decide,
    {name: default for name, default, _ in _EXPERT_V2_TABLE},
    "expert searching over strong_v2's rollouts (expert with rollout=1 and strong_v2's values "
    "and weights, evaluator=2): strong_v2 proposes the candidates, plays the other moves and "
    "all four seats of every rollout:\n" + param_docs(_EXPERT_V2_TABLE),
    check=check_params,
    tail=_V2_WEIGHTS,
)
_register(
    "peeking_strong",
    peeking_strong_decide,
    {name: PEEKING_DEFAULTS.get(name, default) for name, default, _ in _STRONG_TABLE},
    "a measuring reference, never a table's bot: strong that sees every hand (the engine fills "
    "the other seats' rows of its public card memory with their true hands) and reads them "
    "in its discard (memory_weight): the gap to strong bounds what hidden information is "
    "worth to strong's play:\n" + param_docs(_STRONG_TABLE),
    tail=_WEIGHTS,
    reference=True,
)
_GAME_TABLE = game_strong_table()
_register(
    "game_strong",
    game_strong_decide,
    {name: default for name, default, _ in _GAME_TABLE},
    "strong that plays for the game (GAME-1), not the hand's points: by the scores at the "
    "start of the hand, a style biases its evaluator's choice to start a sevens, aces or wild "
    "meld and to take the pile, from a table derived from the equity table and measured hands "
    "(analysis.game_styles.derive_table; sim/policies/data/game_strong.json); style 0 is "
    "strong's play:\n" + param_docs(_GAME_TABLE),
    check=check_game_params,
    tail=game_tail(),
)
