"""The ``game_strong`` policy: strong that plays for the game (GAME-1), not for the hand's points.

Where the score matters, a team should not always make the play worth most points: far behind
it needs the +2,500 of a sevens or aces canasta (SCORE-2) and can afford the -2,500 of one left
unfinished; far ahead, or one hand from the target, the same gamble can lose a game that was
won. ``game_strong`` is ``strong`` (``sim.policies.strong``: the same base move, the same
candidate moves and learned evaluator) with a *style* chosen by the scores at the start of the
hand (``OB_SCORES``, own team first). A style is a pair of biases, in the evaluator's unit
(points), added to its score of two kinds of candidate:

- ``start_bias``: starting a sevens, aces or wild meld (MELD-6/7/8; SCORE-2/3 complete, the
  penalties unfinished): positive is bolder, negative holds;
- ``take_bias``: taking the pile (PILE-1/2) rather than drawing: positive takes more piles.

Style 0 is no bias: exactly strong's play (a test checks every decision). The style of each
score region comes from a small table shipped in ``sim/policies/data/game_strong.json``: for
each cell of own score x opponents' score (``step`` points wide), a style chosen by the
chance of winning the game after the hand, its measured hands read through the equity table
(``analysis.equity``: strong against strong, so one step of policy improvement over strong).
The shipped table plays, in each pair of OPEN-1 tiers (own x opponents'), the style whose
gain pooled over the pair's cells is highest. The table is derived by
``analysis.game_styles.derive_table`` (the file records the command, seeds, hands and rule)
and read only under the rules it was derived for (its target and OPEN-1 by score); under
others the policy plays strong.

Going out (OUT-2) and opening (OPEN-1..4) are strong's: the score-aware variants measured
(playing on where going out surely loses the game; waiting to open far behind) gained
nothing or lost, and were removed (docs/policies.md).

A score does not change within a hand, so a hand is played in one style throughout: the
measured hand outcomes of a style are exactly those of the hands it will play.

Parameters: strong's (same names and shipped values), ``style``: 0 plays the table, ``k >= 1``
plays style ``k - 1`` at every score (measurement and tests; ``style=1`` is strong). The
evaluator's weights and the table follow in the parameter array's tail. The shipped table is
read from its file once (``shipped_data``).
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from sim import encoding as E
from sim.errors import CanastaError
from sim.policies.datafile import read_data
from sim.policies.strong import (
    N_STRONG,
    ev_cands,
    ev_phi,
    evaluated_candidates,
    risky_slot,
    strong_table,
    strong_weights,
)
from sim.policies.strong_features import K_DISCARD, K_PICKUP, K_START, N_FEATURES, score

__all__ = ["DATA_VERSION", "game_strong_decide", "load_data", "shipped_data"]

DATA_FILE = "game_strong.json"  #: in the package ``sim.policies.data``
DATA_VERSION = 1  #: the data file's layout
STYLE_DOC = (
    "0: the style of the shipped table at the hand's scores (sim/policies/data/game_strong.json);"
    " k >= 1: style k - 1 at every score (1: strong's play)"
)
G_STYLE = N_STRONG  #: the ``style`` parameter, after strong's named parameters
G_WEIGHTS = N_STRONG + 1  #: the evaluator's weights start here (the tail)
G_TABLE = G_WEIGHTS + N_FEATURES  #: the table's header starts here
#: the table's header words, then the styles' biases (start, take), then the cells
_H_TARGET, _H_OPENING, _H_LOW, _H_STEP, _H_N, _H_STYLES = range(6)
_HEADER = 6


def load_data(data: dict | None = None, source: str = DATA_FILE) -> dict:
    """The shipped table (``sim/policies/data/game_strong.json``), or ``data`` (named
    ``source`` in errors), checked: its version, styles, grid and cells."""
    data = read_data(data, DATA_FILE, DATA_VERSION, source)
    styles = data.get("styles")
    if not styles or styles[0].get("start_bias") != 0 or styles[0].get("take_bias") != 0:
        raise CanastaError(f"{source}: style 0 must be strong's play (no bias)")
    grid = data.get("grid", {})
    n = int(grid.get("n", 0))
    cells = np.asarray(data.get("cells", []), dtype=np.int64)
    if n < 1 or cells.shape != (n, n) or cells.min() < 0 or cells.max() >= len(styles):
        raise CanastaError(f"{source}: expected {n} x {n} cells naming styles 0..{len(styles) - 1}")
    if int(grid.get("step", 0)) < 5:
        raise CanastaError(f"{source}: the grid's step must be at least 5 points")
    return data


@functools.cache
def shipped_data() -> dict:
    """The shipped table, read and checked once (``load_data``); callers do not change it."""
    return load_data()


def game_tail(data: dict | None = None) -> tuple[float, ...]:
    """The parameter array's tail after the named parameters: strong's evaluator weights, the
    table's header (target, OPEN-1 mode, low, step, n, styles), the styles' biases, the cells
    of ``data`` (checked by ``load_data``; default the shipped table)."""
    from sim.ruleset import Ruleset

    data = shipped_data() if data is None else load_data(data)
    grid = data["grid"]
    mode = E.OPENING_MINIMUM_MODES.index(data.get("opening_minimum", Ruleset().opening_minimum))
    header = [data["target"], mode, grid["low"], grid["step"], grid["n"], len(data["styles"])]
    biases = [x for s in data["styles"] for x in (s["start_bias"], s["take_bias"])]
    cells = np.asarray(data["cells"], dtype=np.float64).ravel().tolist()
    return (*strong_weights().tolist(), *map(float, header), *map(float, biases), *cells)


def game_strong_table() -> tuple[tuple[str, float, str], ...]:
    """(name, default, meaning): strong's table (its shipped values), then ``style``."""
    return (*strong_table(), ("style", 0.0, STYLE_DOC))


def check_params(values: dict) -> None:
    """``style`` must name a style of the shipped table (0: the table itself)."""
    n = len(shipped_data()["styles"])
    style = values["style"]
    if style != int(style) or style > n:
        raise CanastaError(
            f"policy 'game_strong' parameter 'style': 0 (the table) or a style 1..{n}, "
            f"got {style:g}"
        )


@njit(cache=True, _nrt=False)
def style_at(params, rules, own, opp):
    """The style played at scores ``own`` (the player's team) and ``opp``: the forced style
    (parameter ``style`` >= 1), else the table's cell holding the scores (below the grid's
    lowest score: its first cell), else 0 (strong) under rules the table was not derived for
    (another target, GAME-1, or OPEN-1 by the hand's number)."""
    forced = params[G_STYLE]
    if forced >= 1:
        return np.int64(forced) - 1
    h = G_TABLE
    if params.shape[0] <= h + _HEADER:
        return np.int64(0)
    if rules[E.RS_TARGET] != params[h + _H_TARGET]:
        return np.int64(0)
    if rules[E.RS_OPENING_MINIMUM] != params[h + _H_OPENING]:
        return np.int64(0)
    low, step, n = params[h + _H_LOW], params[h + _H_STEP], np.int64(params[h + _H_N])
    i = min(max(np.int64((own - low) // step), 0), n - 1)
    j = min(max(np.int64((opp - low) // step), 0), n - 1)
    cells = h + _HEADER + 2 * np.int64(params[h + _H_STYLES])
    return np.int64(params[cells + i * n + j])


@njit(cache=True, _nrt=False)
def _biases(params, style):
    """(start_bias, take_bias) of ``style``."""
    b = G_TABLE + _HEADER + 2 * style
    if style <= 0 or params.shape[0] <= b + 1:
        return 0.0, 0.0
    return params[b], params[b + 1]


@njit(cache=True, _nrt=False)
def _bias(obs, kind, a, c, start_bias, take_bias):
    """The style's bias of candidate ``c`` (move ``a``) of a decision of ``kind``: taking the
    pile (PILE-1) gets ``take_bias``; starting a sevens, aces or wild meld (MELD-6/7/8: at a
    discard, a start candidate; at a start, the start itself) gets ``start_bias``."""
    if kind == K_PICKUP:
        return take_bias if a == E.A_TAKE_PILE else 0.0
    if kind == K_START:
        return start_bias if c == 0 else 0.0
    if kind == K_DISCARD and risky_slot(obs, a) >= 0:
        return start_bias
    return 0.0


@njit(cache=True, _nrt=False)  # compiled to POLICY_SIGNATURE when first played (registry)
def game_strong_decide(obs, params, rng, rules, scratch):
    """strong's decision (``sim.policies.strong.strong_decide``) with the evaluator's scores
    of starting a sevens/aces/wild meld and of taking the pile biased by the style of the
    hand's scores (``style_at``); style 0 is strong's play exactly."""
    a0, n, kind = evaluated_candidates(obs, params, rng, rules, scratch, G_WEIGHTS)
    if n <= 1:
        return a0
    cands = ev_cands(scratch)
    phi = ev_phi(scratch)
    style = style_at(params, rules, obs[E.OB_SCORES], obs[E.OB_SCORES + 1])
    start_bias, take_bias = _biases(params, style)
    weights = params[G_WEIGHTS : G_WEIGHTS + N_FEATURES]
    best = 0
    best_s = score(weights, phi[0]) + _bias(obs, kind, cands[0], 0, start_bias, take_bias)
    for c in range(1, n):
        s = score(weights, phi[c]) + _bias(obs, kind, cands[c], c, start_bias, take_bias)
        if s > best_s:
            best, best_s = c, s
    return cands[best]
