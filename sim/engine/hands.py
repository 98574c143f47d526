"""Python entry points of the engine: ``play_hands`` (the runner's chunk function)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from sim.encoding import GAME_HAND_STRIDE, GAME_RECORD_WIDTH, RECORD_WIDTH
from sim.errors import CanastaError
from sim.ruleset import as_ruleset
from sim.validate import MAX_GAMES, MAX_HAND_ID, MAX_HANDS, check_id_range, check_run

ROW_BYTES = 8 * RECORD_WIDTH + 64  #: a record row in memory: int64 columns, policy labels
GAME_ROW_BYTES = 8 * GAME_RECORD_WIDTH + 64


class EngineInvariantError(RuntimeError):
    """A debug-mode invariant broke: a bug in the engine or the rules core, never user input."""


def resolve_policies(policies: Sequence) -> list:
    """[(spec, params, label)] for the two teams' policies."""
    from sim.policies.registry import resolve

    if isinstance(policies, str):
        from sim.policies.registry import split_list

        policies = split_list(policies)
    policies = list(policies)
    if len(policies) == 1:
        policies = policies * 2
    if len(policies) != 2:
        raise CanastaError(f"expected two policies (team 0, team 1), got {len(policies)}")
    return [resolve(p) for p in policies]


def check_range(start, stop, unit: str, high: int = MAX_HAND_ID) -> tuple[int, int]:
    """A chunk's ids ``start..stop-1``, checked (``sim.validate.check_id_range``)."""
    return check_id_range(start, stop, unit, high, ROW_BYTES)


def play_hands(
    key: np.ndarray,
    start: int,
    stop: int,
    policies: Sequence = ("heuristic", "random"),
    params: Sequence[np.ndarray] | None = None,
    rules=None,
    debug: bool = False,
) -> pd.DataFrame:
    """Play hands ``start..stop-1`` of the run keyed ``key`` (``sim.rng.run_key``): hand ``i`` is
    dealt and played from ``seed_hand(key, i)`` alone, so the rows never depend on chunking.

    ``policies``: two policy specs (``"heuristic:sevens_threshold=4"``) for team 0 and team 1;
    ``params``: optional float64 arrays overriding the specs' parameters. ``debug`` checks the
    invariants after every action. Returns one row per hand (docs/records.md).
    """
    from sim.engine.play import play_hands_kernel
    from sim.engine.records import records_frame

    start, stop = check_range(start, stop, "hand")
    resolved = resolve_policies(policies)
    arrays = [np.ascontiguousarray(r[1], dtype=np.float64) for r in resolved]
    if params is not None:
        if isinstance(params, str) or len(params) != 2:
            raise CanastaError("params: give one parameter array per team")
        given = [np.asarray(p) for p in params]
        for t, (g, a) in enumerate(zip(given, arrays, strict=True)):
            # kernels index the array unchecked: its length must be the policy's
            if g.shape != a.shape or not np.issubdtype(g.dtype, np.number):
                raise CanastaError(f"params[{t}]: expected {a.size} numbers ({resolved[t][2]})")
        arrays = [np.ascontiguousarray(g, dtype=np.float64) for g in given]
    rules_arr = np.ascontiguousarray(as_ruleset(rules).to_array())
    key = np.ascontiguousarray(key, dtype=np.uint64)
    out = np.zeros((stop - start, RECORD_WIDTH), dtype=np.int64)
    status = np.zeros(2, dtype=np.int64)
    code = play_hands_kernel(
        key,
        start,
        stop,
        resolved[0][0].decide,
        resolved[1][0].decide,
        arrays[0],
        arrays[1],
        rules_arr,
        int(bool(debug)),
        out,
        status,
    )
    if code != 0:
        from sim.encoding import INVARIANT_NAMES

        name = INVARIANT_NAMES[code] if code < len(INVARIANT_NAMES) else str(code)
        raise EngineInvariantError(
            f"invariant '{name}' broken in hand {status[0]} at turn {status[1]}"
        )
    return records_frame(out, resolved[0][2], resolved[1][2])


def simulate(
    n_hands: int,
    policies: Sequence = ("heuristic", "random"),
    seed: int = 0,
    n_jobs: int = 1,
    ruleset=None,
    debug: bool = False,
    **runner_options,
) -> pd.DataFrame:
    """Play ``n_hands`` independent hands, team 0 with ``policies[0]``, team 1 with
    ``policies[1]``; one row per hand (schema: docs/records.md).

    Hand ``i`` is dealt from ``seed_hand(run_key(seed), i)`` and its first player is ``i % 4``,
    so two runs with the same seed and swapped policies play the same deals (duplicate
    comparison). ``n_jobs`` other than 1, or any option of ``sim.runner.run_chunks``
    (``chunk_size``, ``backend``, ``out``...), goes through the scale-out runner; policies
    registered in a notebook exist only in that process, so use them with ``n_jobs=1``.
    """
    import functools

    from sim.rng import run_key

    n_hands, seed = check_run(
        n_hands,
        "n_hands (the number of hands)",
        MAX_HANDS,
        seed,
        n_jobs,
        runner_options,
        ROW_BYTES,
        "hands",
    )
    resolved = resolve_policies(policies)  # unknown names fail here, before any work
    specs = tuple(r[2] for r in resolved)
    rules = as_ruleset(ruleset)
    if n_jobs == 1 and not runner_options:
        return play_hands(run_key(seed), 0, n_hands, specs, rules=rules, debug=debug)
    from sim.runner import run_chunks

    work = functools.partial(play_hands, policies=specs, rules=rules, debug=debug)
    meta = {
        "kind": "hands",
        "policies": list(specs),
        "params": [r[1].tolist() for r in resolved],  # a resume after a parameter change: refused
        "ruleset": rules.to_dict(),
    }
    runner_options.setdefault("meta", meta)
    return run_chunks(work, n_hands, seed=seed, n_jobs=n_jobs, **runner_options)


def play_games(
    key: np.ndarray,
    start: int,
    stop: int,
    policies: Sequence = ("heuristic", "random"),
    rules=None,
    debug: bool = False,
) -> pd.DataFrame:
    """Play whole games ``start..stop-1`` (GAME-1) of the run keyed ``key``: one row per game
    (game_id, policy_team0, policy_team1, hands, score_team0, score_team1, winner,
    policy_errors); ``winner`` is the team that won (-1 only if a game hit the hand cap)."""
    from sim.encoding import GAME_RECORD_COLUMNS, GAME_RECORD_WIDTH
    from sim.engine.play import play_games_kernel

    start, stop = check_range(start, stop, "game", MAX_HAND_ID // GAME_HAND_STRIDE)
    resolved = resolve_policies(policies)
    out = np.zeros((stop - start, GAME_RECORD_WIDTH), dtype=np.int64)
    status = np.zeros(2, dtype=np.int64)
    code = play_games_kernel(
        np.ascontiguousarray(key, dtype=np.uint64),
        start,
        stop,
        resolved[0][0].decide,
        resolved[1][0].decide,
        np.ascontiguousarray(resolved[0][1]),
        np.ascontiguousarray(resolved[1][1]),
        np.ascontiguousarray(as_ruleset(rules).to_array()),
        int(bool(debug)),
        out,
        status,
    )
    if code != 0:
        raise EngineInvariantError(f"invariant {code} broken in game {status[0]}, hand {status[1]}")
    df = pd.DataFrame(out, columns=list(GAME_RECORD_COLUMNS))
    df.insert(1, "policy_team0", resolved[0][2])
    df.insert(2, "policy_team1", resolved[1][2])
    return df


def simulate_games(
    n_games: int,
    policies: Sequence = ("heuristic", "random"),
    seed: int = 0,
    ruleset=None,
    debug: bool = False,
    n_jobs: int = 1,
    **runner_options,
) -> pd.DataFrame:
    """Play ``n_games`` whole games (GAME-1) to the ruleset's target; one row per game.

    ``n_jobs`` other than 1, or any option of ``sim.runner.run_chunks`` (``chunk_size``,
    ``backend``, ``out``...), goes through the scale-out runner (``id_column="game_id"``); game
    ``g`` depends only on (seed, g), so the rows are the same either way."""
    import functools

    from sim.rng import run_key

    n_games, seed = check_run(
        n_games,
        "n_games (the number of games)",
        MAX_GAMES,
        seed,
        n_jobs,
        runner_options,
        GAME_ROW_BYTES,
        "games",
    )
    resolved = resolve_policies(policies)  # unknown names fail here, before any work
    specs = tuple(r[2] for r in resolved)
    rules = as_ruleset(ruleset)
    if n_jobs == 1 and not runner_options:
        return play_games(run_key(seed), 0, n_games, specs, rules=rules, debug=debug)
    from sim.runner import run_chunks

    work = functools.partial(play_games, policies=specs, rules=rules, debug=debug)
    meta = {
        "kind": "games",
        "policies": list(specs),
        "params": [r[1].tolist() for r in resolved],
        "ruleset": rules.to_dict(),
    }
    runner_options.setdefault("meta", meta)
    runner_options.setdefault("id_column", "game_id")
    runner_options.setdefault("unit", "games")
    return run_chunks(work, n_games, seed=seed, n_jobs=n_jobs, **runner_options)
