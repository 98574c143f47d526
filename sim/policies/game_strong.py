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
``benchmarks/bench_game_bot.py derive`` (the file records the command, seeds, hands and rule)
and read only under the rules it was derived for (its target and OPEN-1 by score); under
others the policy plays strong.

Going out (OUT-2: the meld that leaves one card to discard) is strong's, unless ``play_on``
is 1: then, where going out surely ends the game lost (GAME-1: the opponents reach the target
above the team whatever the unseen hands hold, ``_going_out_loses``), it plays strong's
discard instead and goes on. Measured, it changes no game's result (docs/policies.md), so it
ships off.

Opening (OPEN-1..4) is strong's, which opens at the first turn it can (its ``open_risky`` is
on), unless ``open_wait`` is 1: then a team far behind (the opponents ahead by
``OPEN_WAIT_GAP`` points or more) waits, keeping its cards to build on, while the hand is
not late (strong's own test: the stock nearly out, or the opponents able to go out): at the
first meld of an opening from hand (not after taking the pile: PILE-2 makes that opening
due) it plays strong's discard instead. The reading is the club player's behind in the
game: a hand worth a few hundred points does not close a gap of thousands, so it builds
toward a bigger hand rather than opening at once.

A score does not change within a hand, so a hand is played in one style throughout: the
measured hand outcomes of a style are exactly those of the hands it will play.

Parameters: strong's (same names and shipped values), ``style``: 0 plays the table, ``k >= 1``
plays style ``k - 1`` at every score (measurement and tests; ``style=1`` is strong),
``play_on`` and ``open_wait`` (0 or 1 each). The evaluator's weights and the table follow
in the parameter array's tail.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import encoding as E
from sim._views import _copy_into, _sum_words, c_view
from sim.engine.views import _add_operation, ob_melds
from sim.errors import CanastaError
from sim.policies.builtin import _hand_is_late
from sim.policies.datafile import read_data
from sim.policies.strong import (
    EW_PHI,
    N_STRONG,
    _discard_order,
    _ev_cands,
    _ev_keeps,
    _ev_kinds,
    _ev_masked,
    _ev_phi,
    _evaluated_candidates,
    _risky_slot,
    strong_table,
    strong_weights,
)
from sim.policies.strong_features import K_DISCARD, K_PICKUP, K_START, N_FEATURES, score
from sim.scoring import HELD_SEVENS_ACES_PENALTY, score_team

__all__ = ["DATA_VERSION", "game_strong_decide", "load_data"]

DATA_FILE = "game_strong.json"  #: in the package ``sim.policies.data``
DATA_VERSION = 1  #: the data file's layout
STYLE_DOC = (
    "0: the style of the shipped table at the hand's scores (sim/policies/data/game_strong.json);"
    " k >= 1: style k - 1 at every score (1: strong's play)"
)
PLAY_ON_DOC = (
    "1: at the meld that would go out (OUT-2: leaving one card to discard), play on (strong's "
    "discard) when going out surely ends the game lost: the opponents reach the target "
    "(GAME-1) above the team whatever the hands hold; 0: go out whenever strong does"
)
PLAY_ON_DEFAULT = 0.0  #: ``play_on``'s shipped value
OPEN_WAIT_GAP = 2000  #: how far behind (the opponents' score less the team's) a team waits
OPEN_WAIT_DOC = (
    f"1: a team {OPEN_WAIT_GAP:,} points or more behind does not open (OPEN-1..4) from hand "
    "while the hand is not late: it discards as strong would instead; 0: open whenever strong "
    "does (at the first chance)"
)
OPEN_WAIT_DEFAULT = 0.0  #: ``open_wait``'s shipped value
CARD_MOST = int(E.KIND_VALUE.max())  #: CARD-3: a joker's 50, the most a held card costs
CARD_LEAST = int(E.KIND_VALUE.min())  #: CARD-3: 5, the least
G_STYLE = N_STRONG  #: the ``style`` parameter, after strong's named parameters
G_PLAY_ON = N_STRONG + 1  #: the ``play_on`` parameter
G_OPEN_WAIT = N_STRONG + 2  #: the ``open_wait`` parameter
G_WEIGHTS = N_STRONG + 3  #: the evaluator's weights start here (the tail)
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


def game_tail(data: dict | None = None) -> tuple[float, ...]:
    """The parameter array's tail after the named parameters: strong's evaluator weights, the
    table's header (target, OPEN-1 mode, low, step, n, styles), the styles' biases, the cells."""
    from sim.ruleset import Ruleset

    data = load_data(data)
    grid = data["grid"]
    mode = E.OPENING_MINIMUM_MODES.index(data.get("opening_minimum", Ruleset().opening_minimum))
    header = [data["target"], mode, grid["low"], grid["step"], grid["n"], len(data["styles"])]
    biases = [x for s in data["styles"] for x in (s["start_bias"], s["take_bias"])]
    cells = np.asarray(data["cells"], dtype=np.float64).ravel().tolist()
    return (*strong_weights().tolist(), *map(float, header), *map(float, biases), *cells)


def game_strong_table() -> tuple[tuple[str, float, str], ...]:
    """(name, default, meaning): strong's table (its shipped values), then ``style``,
    ``play_on`` and ``open_wait``."""
    return (
        *strong_table(),
        ("style", 0.0, STYLE_DOC),
        ("play_on", PLAY_ON_DEFAULT, PLAY_ON_DOC),
        ("open_wait", OPEN_WAIT_DEFAULT, OPEN_WAIT_DOC),
    )


def check_params(values: dict) -> None:
    """``style`` must name a style of the shipped table (0: the table itself); ``play_on`` and
    ``open_wait`` are 0 or 1."""
    for name in ("play_on", "open_wait"):
        if values[name] not in (0, 1):
            raise CanastaError(
                f"policy 'game_strong' parameter '{name}': 0 or 1, got {values[name]:g}"
            )
    n = len(load_data()["styles"])
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
    if kind == K_DISCARD and _risky_slot(obs, a) >= 0:
        return start_bias
    return 0.0


@njit(cache=True, _nrt=False)
def _table_points(obs, melds, team, went_out, rules, scratch):
    """The team's points for the hand (``sim.scoring.score_team``: SCORE-1..7, OUT-3) from
    what lies on the table (``melds``, own team first, and the observation's threes), its
    hands left out (the caller's)."""
    work = scratch[EW_PHI : EW_PHI + 2 * E.N_KINDS + E.N_SCORE_ITEMS]  # candidates are spent
    hands = c_view(work[: 2 * E.N_KINDS], (2, E.N_KINDS))
    hands[:] = 0
    out = work[2 * E.N_KINDS :]
    threes = obs[E.OB_THREES + 2 * team : E.OB_THREES + 2 * team + 2]
    score_team(melds[team], threes, hands, went_out, E.SPECIAL_NONE, rules, out)
    return out.sum()


@njit(cache=True, _nrt=False)
def _held_worst(cards):
    """The most a hand of ``cards`` unseen cards can cost its team (CARD-3's highest value
    each, and SCORE-4's 1,500 for three sevens, again for three aces)."""
    return CARD_MOST * cards + HELD_SEVENS_ACES_PENALTY * min(cards // 3, 2)


@njit(cache=True, _nrt=False)
def _going_out_loses(obs, a, rules, scratch):
    """Does the meld ``a`` that goes out (OUT-2) surely end the game lost (GAME-1)? The
    team's points at most: ``a`` and its table, going out's 100 (OUT-3), its partner's cards
    at CARD-3's lowest value; the opponents' at least: their table, less the most their
    hands can cost (``_held_worst``). Lost: the opponents reach the target and finish above
    the team whatever the hands hold."""
    masked = _ev_masked(scratch)
    _copy_into(masked, obs)
    melds = ob_melds(masked)
    op = E.ACTION_TABLE[a]
    _add_operation(melds[0], op[E.AC_SLOT], op[E.AC_NAT], op[E.AC_TWO], op[E.AC_JOKER], 1)
    sizes = E.OB_HAND_SIZES
    own = obs[E.OB_SCORES] + _table_points(obs, melds, 0, True, rules, scratch)
    own -= CARD_LEAST * obs[sizes + 2]
    opp = obs[E.OB_SCORES + 1] + _table_points(obs, melds, 1, False, rules, scratch)
    opp -= _held_worst(obs[sizes + 1]) + _held_worst(obs[sizes + 3])
    return opp >= rules[E.RS_TARGET] and opp > own


@njit(cache=True, _nrt=False)
def _play_on(obs, params, rules, scratch, a):
    """``a``, or strong's discard in its place when ``a`` is the meld that goes out (OUT-2:
    it leaves one card, to discard) and going out would end the game lost
    (``_going_out_loses``; parameter ``play_on``)."""
    if params[G_PLAY_ON] <= 0 or a < 0 or obs[E.OB_PHASE] != E.PH_PLAY:
        return a
    if E.ACTION_TABLE[a, E.AC_TYPE] != E.AT_MELD:
        return a
    held = _sum_words(obs, E.OB_HAND, E.N_KINDS)
    used = E.ACTION_TABLE[a, E.AC_NAT] + E.ACTION_TABLE[a, E.AC_TWO]
    if held - used - E.ACTION_TABLE[a, E.AC_JOKER] != 1:
        return a
    if not _going_out_loses(obs, a, rules, scratch):
        return a
    return _strong_discard(obs, params, scratch, a)


@njit(cache=True, _nrt=False)
def _strong_discard(obs, params, scratch, a):
    """strong's discard (the first of its order, DISCARD-*), or ``a`` when none is legal."""
    kinds = _ev_kinds(scratch)
    if _discard_order(obs, params, scratch, kinds, _ev_keeps(scratch), 1) < 1:
        return a
    return E.A_DISCARD + kinds[0]


@njit(cache=True, _nrt=False)
def _waits_to_open(obs, params, a):
    """Is ``a`` the first meld of the team's opening from hand (OPEN-1..4: unopened, nothing
    melded this turn, the pile not taken) by a team ``OPEN_WAIT_GAP`` or more behind, the
    hand not late (``_hand_is_late``), with ``open_wait`` on?"""
    if params[G_OPEN_WAIT] <= 0 or a < 0 or obs[E.OB_PHASE] != E.PH_PLAY:
        return False
    if E.ACTION_TABLE[a, E.AC_TYPE] != E.AT_MELD or obs[E.OB_OPENED] != 0:
        return False
    if obs[E.OB_OPENING_TURN] != 1 or obs[E.OB_MELDED] != 0 or obs[E.OB_TOOK_PILE] != 0:
        return False
    if obs[E.OB_SCORES + 1] - obs[E.OB_SCORES] < OPEN_WAIT_GAP:
        return False
    return not _hand_is_late(obs, params)


@njit(cache=True, _nrt=False)
def _adjusted(obs, params, rules, scratch, a):
    """strong's move ``a`` after the score-aware decisions outside the evaluator: waiting to
    open (``_waits_to_open``: strong's discard instead) and playing on (``_play_on``)."""
    if _waits_to_open(obs, params, a):
        return _strong_discard(obs, params, scratch, a)
    return _play_on(obs, params, rules, scratch, a)


@njit(cache=True, _nrt=False)  # compiled to POLICY_SIGNATURE when first played (registry)
def game_strong_decide(obs, params, rng, rules, scratch):
    """strong's decision (``sim.policies.strong.strong_decide``) with the evaluator's scores
    of starting a sevens/aces/wild meld and of taking the pile biased by the style of the
    hand's scores (``style_at``); style 0 is strong's play exactly."""
    a0, n, kind = _evaluated_candidates(obs, params, rng, rules, scratch, G_WEIGHTS)
    if n <= 1:
        return _adjusted(obs, params, rules, scratch, a0)
    cands = _ev_cands(scratch)
    phi = _ev_phi(scratch)
    style = style_at(params, rules, obs[E.OB_SCORES], obs[E.OB_SCORES + 1])
    start_bias, take_bias = _biases(params, style)
    weights = params[G_WEIGHTS : G_WEIGHTS + N_FEATURES]
    best = 0
    best_s = score(weights, phi[0]) + _bias(obs, kind, cands[0], 0, start_bias, take_bias)
    for c in range(1, n):
        s = score(weights, phi[c]) + _bias(obs, kind, cands[c], c, start_bias, take_bias)
        if s > best_s:
            best, best_s = c, s
    return _adjusted(obs, params, rules, scratch, cands[best])
