"""Array-level Python entry points of the engine: compiled policies in, record arrays out.

The engine never sees a policy name: callers pass each team's compiled ``decide`` function
(``sim.engine.contract``) and its float64 parameter array, and the ruleset as
``Ruleset.to_array()``. Resolving names, running through the runner and building DataFrames is
the job of the layer above (``sim.api``: ``sim.simulate``, ``sim.play_hands``...).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from sim.encoding import GAME_HAND_STRIDE, GAME_RECORD_WIDTH, INVARIANT_NAMES, RECORD_WIDTH
from sim.engine.contract import engine_mode
from sim.limits import MAX_HAND_ID, check_id_range

__all__ = ["GAME_ROW_BYTES", "ROW_BYTES", "Players", "play_hands_arrays"]

ROW_BYTES = 8 * RECORD_WIDTH + 64  #: a record row in memory: int64 columns, policy labels
GAME_ROW_BYTES = 8 * GAME_RECORD_WIDTH + 64


class Players(NamedTuple):
    """What every kernel of play is given besides the hands' ids: each team's compiled
    ``decide`` (``sim.engine.contract``), its float64 parameter array, and the ruleset as an
    array (``Ruleset.to_array()``)."""

    decides: Sequence
    params: Sequence[np.ndarray]
    rules: np.ndarray


class EngineInvariantError(RuntimeError):
    """A debug-mode invariant broke: a bug in the engine or the rules core, never user input."""


def check_range(start, stop, unit: str, high: int = MAX_HAND_ID) -> tuple[int, int]:
    """A chunk's ids ``start..stop-1``, checked (``sim.limits.check_id_range``)."""
    return check_id_range(start, stop, unit, high, ROW_BYTES)


def call_kernel(
    kernel, key, start: int, stop: int, players: Players, inputs: tuple, outputs: tuple
) -> None:
    """Call an engine kernel the way they all are called: ``kernel(key, start, stop, decide0,
    decide1, params0, params1, rules, *inputs, *outputs, status)`` (``players``' parts), arrays
    made contiguous,
    and raise ``EngineInvariantError`` if it reports a broken invariant (debug mode). Every
    kernel reports ``status = (hand or game id, turn or hand)``."""
    from sim.engine.play import ready_kernel

    decides, params, rules_arr = players
    status = np.zeros(2, dtype=np.int64)
    code = ready_kernel(kernel)(
        np.ascontiguousarray(key, dtype=np.uint64),
        start,
        stop,
        decides[0],
        decides[1],
        np.ascontiguousarray(params[0], dtype=np.float64),
        np.ascontiguousarray(params[1], dtype=np.float64),
        np.ascontiguousarray(rules_arr, dtype=np.int64),
        *inputs,
        *outputs,
        status,
    )
    if code != 0:
        name = INVARIANT_NAMES[code] if code < len(INVARIANT_NAMES) else str(code)
        where = f"hand or game {status[0]}, turn or hand {status[1]}"
        raise EngineInvariantError(f"invariant '{name}' broken in {where}")


def play_hands_arrays(
    key: np.ndarray, start: int, stop: int, players: Players, debug: bool = False
) -> np.ndarray:
    """Play hands ``start..stop-1`` of the run keyed ``key`` (``sim.rng.run_key``): hand ``i``
    is dealt and played from ``seed_hand(key, i)`` alone, so the rows never depend on chunking.
    ``debug`` checks the invariants after every action and judges every proposal; without it
    the built-ins' proposals are applied unjudged (``sim.engine.contract.engine_mode``).
    Returns ``int64[n, RECORD_WIDTH]`` (columns ``RECORD_COLUMNS``, docs/records.md)."""
    from sim.engine.play import play_hands_kernel

    start, stop = check_range(start, stop, "hand")
    out = np.zeros((stop - start, RECORD_WIDTH), dtype=np.int64)
    mode = (engine_mode(players.decides, debug),)
    call_kernel(play_hands_kernel, key, start, stop, players, mode, (out,))
    return out


def game_setup(
    scores: Sequence[int] = (0, 0),
    first_player: int | None = None,
    hand_number: int = 1,
    max_hands: int | None = None,
    target: int | None = None,
) -> np.ndarray:
    """The games kernel's ``setup`` words (``sim.engine.play.GS_*``), checked: the teams'
    start scores (given ``target``, scores at which neither team has won:
    ``sim.finished.check_game_start``, GAME-1),
    the first hand's first player (None: game ``g``'s first player is ``g % 4``, DEAL-1),
    that hand's number in the game (OPEN-1 by hand) and the most hands to play (None: to the
    end, capped at ``GAME_HAND_STRIDE``)."""
    from sim.engine.play import GAME_SETUP_WIDTH, GS_FIRST_PLAYER, GS_HAND_NUMBER, GS_MAX_HANDS
    from sim.finished import check_game_start
    from sim.limits import check_int, check_scores, check_seat

    s0, s1 = check_scores(scores) if target is None else check_game_start(scores, target)
    setup = np.zeros(GAME_SETUP_WIDTH, dtype=np.int64)
    setup[0], setup[1] = s0, s1
    if first_player is not None:
        setup[GS_FIRST_PLAYER] = check_seat(first_player, "first_player")
    else:
        setup[GS_FIRST_PLAYER] = -1
    setup[GS_HAND_NUMBER] = check_int("hand_number", hand_number, 1, MAX_HAND_ID // 2)
    if max_hands is not None:
        setup[GS_MAX_HANDS] = check_int("max_hands", max_hands, 1, GAME_HAND_STRIDE)
    return setup


def play_games_arrays(
    key: np.ndarray,
    start: int,
    stop: int,
    players: Players,
    debug: bool = False,
    setup: np.ndarray | None = None,
) -> np.ndarray:
    """Play whole games ``start..stop-1`` (GAME-1) of the run keyed ``key``, each from
    ``setup`` (:func:`game_setup`; default: 0 to 0, the deal rotating with the game's id);
    returns ``int64[n, GAME_RECORD_WIDTH]`` (columns ``GAME_RECORD_COLUMNS``)."""
    from sim.engine.play import play_games_kernel

    start, stop = check_range(start, stop, "game", MAX_HAND_ID // GAME_HAND_STRIDE)
    if setup is None:
        setup = game_setup()
    out = np.zeros((stop - start, GAME_RECORD_WIDTH), dtype=np.int64)
    setup = np.ascontiguousarray(setup, dtype=np.int64)
    inputs = (engine_mode(players.decides, debug), setup)
    call_kernel(play_games_kernel, key, start, stop, players, inputs, (out,))
    return out
