"""The library's front door, above the engine: policy names in, record tables out.

The engine (``sim.engine``) takes compiled policies (decide functions and float64 parameter
arrays) and the ruleset as an array, and returns record arrays. This module, at the runner's
level, does what sits between a user and those arrays, once for every kind of run:

- resolve policy names (``sim.policies.registry``) to decide functions, parameters and labels;
- the chunk functions the runner calls, ``play_hands``, ``play_games``, ``position_hands`` and
  ``script_hands``
  (``work(key, start, stop) -> DataFrame``; module-level, so ``functools.partial`` of them
  pickles: workers resolve the names again in their own process);
- the runs ``simulate``, ``simulate_games``, ``play_position`` and ``play_script`` (forced
  scripts of action ids, for ``analysis.advise``), which share one helper (``_run``): check the
  run, then play in process or hand the chunks to ``sim.runner``; ``play_script_counts``
  (``play_script`` in this process with each play-out's centred draw counts, for
  ``analysis.luck``);
- for callers above ``sim`` that need the engine's array level (the only door to it from
  ``analysis``, ``reports`` and ``canasta``): ``Players`` and ``play_hands_arrays`` (compiled
  policies in, record rows out), the memory a record row takes (``ROW_BYTES``,
  ``GAME_ROW_BYTES``: the commands' in-memory checks) and the frame's policy columns
  (``POLICY_COLUMNS``).

The public names are re-exported by ``sim`` (``sim.simulate``, ``sim.play_position``...).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from sim.encoding import GAME_RECORD_COLUMNS, RECORD_COLUMNS, RECORD_WIDTH
from sim.engine.frames import POLICY_COLUMNS, records_frame
from sim.engine.hands import (
    GAME_ROW_BYTES,
    ROW_BYTES,
    Players,
    play_games_arrays,
    play_hands_arrays,
)
from sim.errors import CanastaError
from sim.limits import MAX_GAMES, MAX_HANDS, check_run
from sim.ruleset import as_ruleset

__all__ = [
    "GAME_ROW_BYTES",
    "POLICY_COLUMNS",
    "ROW_BYTES",
    "Players",
    "play_games",
    "play_hands",
    "play_hands_arrays",
    "play_position",
    "play_script",
    "play_script_counts",
    "policy_pair",
    "position_hands",
    "position_outcomes",
    "resolve_policies",
    "simulate",
    "simulate_games",
]

POSITION_ROW_BYTES = 8 * RECORD_WIDTH + 72  #: a record row in memory, with labels and applied


def resolve_policies(policies: Sequence) -> list:
    """[(spec, params, label)] for the two teams' policies: a list of one or two specs
    (``"heuristic:sevens_threshold=4"`` or ``(name, {param: value})``) or one comma list."""
    from sim.policies.registry import resolve

    return [resolve(p) for p in policy_pair(policies)]


def policy_pair(
    policies: Sequence, refusal: str = "expected two policies (team 0, team 1), got {n}"
) -> list:
    """The two teams' policy specs from one or two specs or one comma list (one plays both
    teams); more or fewer raise ``refusal`` (``{n}``: how many were given)."""
    from sim.policies.registry import split_list

    if isinstance(policies, str):
        policies = split_list(policies)
    policies = list(policies)
    if len(policies) == 1:
        policies = policies * 2
    if len(policies) != 2:
        raise CanastaError(refusal.format(n=len(policies)))
    return policies


def compile_policies(policies: Sequence, params: Sequence[np.ndarray] | None = None):
    """``(decides, params, labels)`` of the two teams, what the engine takes; ``params``
    (one float64 array per team) overrides the specs' parameters."""
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
    return [r[0].decide for r in resolved], arrays, [r[2] for r in resolved]


def compiled_players(policies: Sequence, rules, params: Sequence[np.ndarray] | None = None):
    """The engine's ``Players`` (the compiled policies, their parameters, the ruleset as an
    array) and the policies' labels."""
    decides, arrays, labels = compile_policies(policies, params)
    return Players(decides, arrays, rules_array(rules)), labels


def rules_array(rules) -> np.ndarray:
    """The ruleset as the kernels' array, a fresh copy (kernels may write their own)."""
    return _ruleset_array(as_ruleset(rules)).copy()


@functools.lru_cache(maxsize=64)
def _ruleset_array(ruleset) -> np.ndarray:
    """``Ruleset.to_array()`` once for each ruleset (frozen, compared by value; encoding the
    special-hand list cost ~25 us at every chunk)."""
    return np.ascontiguousarray(ruleset.to_array())


def _names(rules) -> tuple[str, ...]:
    """Record names of the special codes under ``rules`` (SPECIAL-7..9, the list in force)."""
    return _special_names(as_ruleset(rules))


@functools.lru_cache(maxsize=64)
def _special_names(ruleset) -> tuple[str, ...]:
    """``Ruleset.special_names`` once for each ruleset (frozen, compared by value)."""
    return ruleset.special_names


# ---------------------------------------------------------------------------------------
# Chunk functions (sim.runner): hands start..stop-1 of the run keyed ``key``
# ---------------------------------------------------------------------------------------
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
    players, labels = compiled_players(policies, rules, params)
    out = play_hands_arrays(key, start, stop, players, debug)
    return records_frame(out, *labels, special_names=_names(rules))


def play_games(
    key: np.ndarray,
    start: int,
    stop: int,
    policies: Sequence = ("heuristic", "random"),
    rules=None,
    debug: bool = False,
    setup: np.ndarray | None = None,
) -> pd.DataFrame:
    """Play whole games ``start..stop-1`` (GAME-1) of the run keyed ``key``: one row per game
    (game_id, policy_team0, policy_team1, hands, score_team0, score_team1, winner,
    policy_errors); ``winner`` is the team that won (-1 only if a game hit the hand cap or
    ``setup``'s most hands). ``setup``: where each game starts (``sim.engine.hands.game_setup``;
    default 0 to 0, game ``g``'s first player ``g % 4``)."""
    players, labels = compiled_players(policies, rules)
    out = play_games_arrays(key, start, stop, players, debug, setup)
    df = pd.DataFrame(out, columns=list(GAME_RECORD_COLUMNS))
    df.insert(1, "policy_team0", labels[0])
    df.insert(2, "policy_team1", labels[1])
    return df


def position_hands(
    key: np.ndarray,
    start: int,
    stop: int,
    arrays: tuple,
    policies: Sequence = ("heuristic", "heuristic"),
    rules=None,
    frame: bool = True,
):
    """Hands ``start..stop-1`` from a checked position (``arrays``: the template, pos and unseen of
    ``sim.engine.position.position_arrays``): records of the ``sim.simulate`` schema plus
    ``applied``; ``frame=False``: only the team scores (int64[n, 2],
    ``score_team0``/``score_team1``) and ``applied`` (bool[n]) as arrays, without the records
    frame."""
    from sim.engine.position import play_position_arrays

    players, labels = compiled_players(policies, rules)
    out, applied = play_position_arrays(key, start, stop, players, arrays)
    if not frame:
        return np.ascontiguousarray(out[:, list(_SCORE_AT)]), np.asarray(applied, dtype=bool)
    df = records_frame(out, *labels, special_names=_names(rules))
    df["applied"] = applied
    return df


_SCORE_AT = tuple(RECORD_COLUMNS.index(f"score_team{t}") for t in range(2))


# ---------------------------------------------------------------------------------------
# Runs: one helper for the three kinds
# ---------------------------------------------------------------------------------------
def _run(
    n,
    what: str,
    high: int,
    seed,
    n_jobs,
    runner_options: dict,
    row_bytes: int,
    prepare: Callable[[int], tuple[Callable, dict]],
    unit: str = "hands",
    kernel: str = "sim.engine.play:play_hands_kernel",
    **runner_defaults,
):
    """Check the run (count, seed, jobs, chunks, memory or ``out``) before any work, then
    ``prepare(n) -> (work, meta)`` (names resolved, so unknown ones fail before playing) and
    play: in process for ``n_jobs=1`` without runner options, else through
    ``sim.runner.run_chunks`` with ``meta`` as the run's settings. On this machine's backend,
    a first run on an empty cache compiles the chunk ``kernel`` ("module:name") and the
    policies on two cores (``sim.warm``), before any worker starts."""
    from sim.rng import run_key
    from sim.warm import warm_start

    n, seed = check_run(n, what, high, seed, n_jobs, runner_options, row_bytes, unit)
    work, meta = prepare(n)
    if runner_options.get("backend", "loky") == "loky":
        warm_start(kernel, meta["policies"])
    if n_jobs == 1 and not runner_options:
        return work(run_key(seed), 0, n)
    from sim.runner import run_chunks

    runner_options.setdefault("meta", meta)
    for name, value in runner_defaults.items():
        runner_options.setdefault(name, value)
    return run_chunks(work, n, seed=seed, n_jobs=n_jobs, **runner_options)


def _labels_and_meta(kind: str, policies, rules, params: bool = True):
    """The policies' labels and the run's settings (``meta``) for ``sim.store``."""
    resolved = resolve_policies(policies)  # unknown names fail here, before any work
    specs = tuple(r[2] for r in resolved)
    meta = {"kind": kind, "policies": list(specs)}
    if params:  # a resume after a parameter change: refused
        meta["params"] = [r[1].tolist() for r in resolved]
    meta["ruleset"] = rules.to_dict()
    return specs, meta


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

    def prepare(n):
        rules = as_ruleset(ruleset)
        specs, meta = _labels_and_meta("hands", policies, rules)
        return functools.partial(play_hands, policies=specs, rules=rules, debug=debug), meta

    what = "n_hands (the number of hands)"
    return _run(n_hands, what, MAX_HANDS, seed, n_jobs, runner_options, ROW_BYTES, prepare)


def simulate_games(
    n_games: int,
    policies: Sequence = ("heuristic", "random"),
    seed: int = 0,
    ruleset=None,
    debug: bool = False,
    n_jobs: int = 1,
    scores: Sequence[int] = (0, 0),
    first_player: int | None = None,
    hand_number: int = 1,
    max_hands: int | None = None,
    **runner_options,
) -> pd.DataFrame:
    """Play ``n_games`` whole games (GAME-1) to the ruleset's target; one row per game.

    Every game starts from ``scores`` (team 0, team 1; scores at which neither team has won,
    GAME-1: a tie at or over the target plays on, ``sim.finished.check_game_start``) with seat
    ``first_player`` playing first in its first hand (None: game ``g``'s is ``g % 4``; the
    deal then rotates, DEAL-1); ``hand_number`` is that hand's number in the game (OPEN-1
    by hand) and ``max_hands`` stops a game after that many hands (winner -1 if undecided).
    The final scores in the rows include the start scores. ``n_jobs`` other than 1, or any
    option of ``sim.runner.run_chunks`` (``chunk_size``, ``backend``, ``out``...), goes
    through the scale-out runner (``id_column="game_id"``); game ``g`` depends only on
    (seed, g, the start), so the rows are the same either way."""
    from sim.engine.hands import game_setup

    def prepare(n):
        rules = as_ruleset(ruleset)
        setup = game_setup(scores, first_player, hand_number, max_hands, rules.target)
        specs, meta = _labels_and_meta("games", policies, rules)
        if setup.tolist() != game_setup().tolist():  # a run from the start keeps its settings
            meta["start"] = setup.tolist()
        work = functools.partial(play_games, policies=specs, rules=rules, debug=debug, setup=setup)
        return work, meta

    what = "n_games (the number of games)"
    return _run(
        n_games,
        what,
        MAX_GAMES,
        seed,
        n_jobs,
        runner_options,
        GAME_ROW_BYTES,
        prepare,
        unit="games",
        kernel="sim.engine.play:play_games_kernel",
        id_column="game_id",
    )


def play_position(
    n: int,
    position,
    choice: str = "policy",
    seed: int = 0,
    policies: Sequence = ("heuristic", "heuristic"),
    n_jobs: int = 1,
    ruleset=None,
    **runner_options,
) -> pd.DataFrame:
    """Play ``n`` hands from ``position`` with ``choice`` forced (``CHOICES``); one record row
    per hand (the ``sim.simulate`` schema, docs/records.md) plus ``applied`` (the choice was
    made: the rules allowed it in that deal). Hand ``i``'s unseen cards depend only on
    (``seed``, i), never on the choice. ``n_jobs`` other than 1 or any option of
    ``sim.runner.run_chunks`` goes through the scale-out runner (the same rows)."""
    prepare = _position_prepare(position, choice, policies, ruleset, frame=True)
    return _position_run(n, seed, n_jobs, runner_options, prepare)


POSITION_KERNEL = "sim.engine.position:play_position_kernel"  #: compiled by a first run (warm)


def _position_run(
    n, seed, n_jobs, runner_options, prepare, row_bytes=POSITION_ROW_BYTES, kernel=None, **kw
):
    """``_run`` for ``n`` hands (at most ``MAX_HANDS``) from a position, made by ``prepare``;
    ``kernel``: the compiled kernel a first run warms (default the position's)."""
    kernel = kernel or POSITION_KERNEL
    return _run(
        n, "n", MAX_HANDS, seed, n_jobs, runner_options, row_bytes, prepare, kernel=kernel, **kw
    )


def _position_prepare(position, choice, policies, ruleset, frame: bool) -> Callable:
    """``_run``'s ``prepare`` for hands from ``position`` with ``choice`` forced:
    :func:`position_hands` (``frame``: records, or the scores' arrays)."""
    from sim.engine.position import position_arrays

    def arrays(rules):
        return position_arrays(position, choice, rules)

    return _from_position("position", arrays, position_hands, policies, ruleset, frame=frame)


def _from_position(kind: str, arrays: Callable, work: Callable, policies, ruleset, **options):
    """``_run``'s ``prepare`` for hands from a position: ``arrays(rules)`` checks it and makes
    its arrays (template, pos, unseen), the policies are resolved, and ``work`` is given them and
    ``options``; the run's metadata records the position."""

    def prepare(n):
        rules = as_ruleset(ruleset)
        made = arrays(rules)
        specs, meta = _labels_and_meta(kind, policies, rules, params=False)
        meta["position"] = {"template": made[0].tolist(), "pos": made[1].tolist()}
        bound = functools.partial(work, arrays=made, policies=specs, rules=rules, **options)
        return bound, meta

    return prepare


def position_outcomes(
    n: int,
    position,
    choice: str = "policy",
    seed: int = 0,
    policies: Sequence = ("heuristic", "heuristic"),
    ruleset=None,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`play_position` in this process, as arrays, without the records frame: ``scores``
    int64[n, 2] (the two teams' hand scores, ``score_team0``/``score_team1``) and ``applied``
    bool[n], hand i in row i: the same hands (tests/test_decisions.py). For callers that play
    thousands of small runs (the decision experiments), where building a frame of ~60
    columns cost more than playing 64 hands."""
    prepare = _position_prepare(position, choice, policies, ruleset, frame=False)
    return _position_run(n, seed, 1, {}, prepare)


def script_hands(
    key: np.ndarray,
    start: int,
    stop: int,
    arrays: tuple,
    scripts: np.ndarray,
    drawn: int = -1,
    first: int = 0,
    policies: Sequence = ("heuristic", "heuristic"),
    rules=None,
) -> pd.DataFrame:
    """Hands ``first + start .. first + stop - 1`` from a checked position (``arrays``: the
    template, pos and unseen of ``sim.engine.script.script_arrays``), each played once per script:
    records of the ``sim.simulate`` schema plus ``script`` (the row of ``scripts``) and
    ``applied``."""
    from sim.engine.script import play_scripts_arrays

    players, labels = compiled_players(policies, rules)
    where = (first + start, first + stop)
    out, applied = play_scripts_arrays(key, *where, players, arrays, scripts, drawn)
    return _script_rows(out, labels, rules, np.atleast_2d(scripts).shape[0], applied)


def _script_rows(out, labels, rules, n_scripts: int, applied) -> pd.DataFrame:
    """The records of hands each played once per script, with ``script`` (the script's row,
    the scripts of a hand in order) and ``applied``."""
    df = records_frame(out, *labels, special_names=_names(rules))
    df["script"] = np.tile(np.arange(n_scripts, dtype=np.int64), len(df) // max(n_scripts, 1))
    df["applied"] = applied
    return df


def _script_args(scripts, first) -> tuple[np.ndarray, int]:
    """The scripts checked (``sim.engine.script.check_scripts``) and the first hand's number."""
    from sim.engine.script import check_scripts

    first = int(first)
    if first < 0:
        raise CanastaError("first: hands are numbered from 0")
    return check_scripts(scripts), first


def play_script(
    n: int,
    position,
    scripts,
    drawn: int = -1,
    seed: int = 0,
    policies: Sequence = ("heuristic", "heuristic"),
    n_jobs: int = 1,
    ruleset=None,
    first: int = 0,
    **runner_options,
) -> pd.DataFrame:
    """Play hands ``first .. first + n - 1`` from ``position`` once per script (rows of
    ``scripts``: action ids forced in order at the fixed seat's turn, padded with -1, see
    ``sim.engine.script``), the fixed player drawing card id ``drawn`` (-1: not fixed). One
    record row per (hand, script), plus ``script`` and ``applied`` (every step was made).
    Hand ``i``'s unseen cards depend only on (``seed``, i), never on the script or the jobs."""
    from sim.engine.script import script_arrays

    scripts, first = _script_args(scripts, first)

    def arrays(rules):
        return script_arrays(position, drawn, rules)

    options = {"scripts": scripts, "drawn": drawn, "first": first}
    prepare = _from_position("script", arrays, script_hands, policies, ruleset, **options)

    row_bytes = POSITION_ROW_BYTES * scripts.shape[0]
    kernel = "sim.engine.script:play_scripts_kernel"
    return _position_run(
        n, seed, n_jobs, runner_options, prepare, row_bytes, kernel, id_column=None
    )


def play_script_counts(
    n: int,
    position,
    scripts,
    drawn: int = -1,
    seed: int = 0,
    policies: Sequence = ("heuristic", "heuristic"),
    ruleset=None,
    first: int = 0,
) -> tuple[pd.DataFrame, np.ndarray]:
    """``play_script`` in this process (hands ``first .. first + n - 1``, the same deals and
    records, ``script`` and ``applied``), with each row's centred draw counts
    (``sim.engine.luck``): float64[rows, 2, N_KINDS], side 0 the fixed team's draws and 1 the
    other team's, one at each card drawn less the stock's share of its kind then (each term
    has mean zero: ``analysis.luck`` turns them into the points the draws' luck explains)."""
    from sim.engine.luck import play_scripts_luck_arrays
    from sim.engine.script import script_arrays
    from sim.limits import check_count
    from sim.rng import run_key

    n = check_count("n", n, MAX_HANDS, low=1)
    scripts, first = _script_args(scripts, first)
    arrays = script_arrays(position, drawn, ruleset)
    players, labels = compiled_players(policies, ruleset)
    out, applied, counts = play_scripts_luck_arrays(
        run_key(seed), first, first + n, players, arrays, scripts, drawn
    )
    return _script_rows(out, labels, ruleset, scripts.shape[0], applied), counts
