"""Range checks of the integers a user gives, shared by the Python API and the command line.

Every integer a user types (a seed, a hand number, counts, scores, a turn, sizes) is checked
here before it reaches a compiled kernel, where a value beyond int64 would raise numba's
OverflowError and a huge count would hang or exhaust memory. The API functions
(``sim.simulate``, ``Game``, ``play_position``, ``analysis.whatif``, ``analysis.compare``,
``sim.sampler``...) call the ``check_*`` functions, which raise ``CanastaError`` naming the
parameter and its allowed range. Each command of the command line checks its flags with the
same functions and limits before any work, naming the flag
(``canasta: error: --seed -1: must be an integer in 0..9,223,372,036,854,775,807``).

The limits (docs/architecture.md, "Input limits"):

- seeds: ``0..MAX_SEED`` (int64; ``numpy.random.SeedSequence`` objects pass as they are);
- hand numbers: ``0..MAX_HAND_ID``: ``sim.rng.seed_hand`` takes an int64 index and gives every
  index its own generator (index * an odd constant is a bijection mod 2**64);
- hands, games or deals in one run: ``MAX_HANDS`` / ``MAX_GAMES`` / ``MAX_DEALS``, sized so that
  a run at the limit is still finishable on a cluster (about 5,000 played hands, 500 games and
  15 million sampled deals per second per core: some 600 core-hours, 600 core-hours and 20
  core-hours) and its ids fit the seeding (game ``g`` seeds hands ``g * 1024 + k``);
- chunks in one run: ``MAX_CHUNKS`` (the runner lists the chunks up front);
- a run kept in memory (no ``out``) must fit this machine's memory (``check_in_memory``);
- team scores: ``-MAX_SCORE..MAX_SCORE``, far beyond any game (the target is 8,500) and far
  from int64 overflow when a hand's points are added;
- turns ``0..MAX_TURNS - 2``, seats ``0..3``, card counts ``0..108``, jobs ``-1`` or
  ``1..MAX_JOBS``, policy parameters ``0..MAX_PARAM`` (``sim.policies.registry``).
"""

from __future__ import annotations

import operator
import os
import re

import numpy as np

from sim.encoding import GAME_HAND_STRIDE, MAX_TURNS, N_CARDS, N_PLAYERS, N_TEAMS
from sim.errors import CanastaError
from sim.jobs import DEFAULT_CHUNK_SIZE

__all__ = [
    "MAX_DEALS",
    "MAX_GAMES",
    "MAX_HANDS",
    "MAX_SCORE",
    "MAX_SEED",
    "check_cards",
    "check_chunks",
    "check_count",
    "check_hand_id",
    "check_hand_number",
    "check_in_memory",
    "check_int",
    "check_jobs",
    "check_out_dir",
    "check_run",
    "check_score",
    "check_scores",
    "check_seat",
    "check_seed",
    "check_turn",
    "nesting",
    "parse_ints",
    "parse_scores",
    "shown",
]

INT64_MAX = 2**63 - 1
MAX_SEED = INT64_MAX  #: largest integer seed
MAX_HAND_ID = INT64_MAX  #: largest hand number (seed_hand's int64 index)
MAX_HANDS = 10**10  #: hands in one run (simulate, compare, whatif per choice)
MAX_GAMES = 10**9  #: whole games in one run (each seeds up to GAME_HAND_STRIDE hand ids)
MAX_DEALS = 10**12  #: deals of the ODDS-1 sampler in one run
MAX_CHUNKS = 10**6  #: chunks (tasks) of one run
MAX_SCORE = 10**9  #: largest cumulative team score, either sign
MAX_TURN = MAX_TURNS - 2  #: last turn a position may start at (the engine caps hands there)
MAX_JOBS = 1024  #: parallel jobs (-1 = every core)
MAX_PARAM = 10**9  #: largest policy parameter (kernels may cast counts to int64)
MAX_SHOWN = 40  #: characters of a value an error message quotes (a longer one is cut)
assert MAX_GAMES * GAME_HAND_STRIDE < MAX_HAND_ID


def shown(value) -> str:
    """``value`` as an error message quotes it: its repr, cut to about ``MAX_SHOWN``
    characters with its length said, so a 5,000-digit number or a 5,000-character name is
    not echoed whole (an integer too long for Python to print is described by its size)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        digits = int(value.bit_length() * 0.30103) + 1  # log10(2): within one digit
        return f"{'a negative' if value < 0 else 'an'} integer of about {digits:,} digits"
    text = repr(value)
    if len(text) <= MAX_SHOWN:
        return text
    return f"{text[: MAX_SHOWN - 8]}...{text[-5:]} ({len(text):,} characters)"


def _integer(name: str, value) -> int:
    """``value`` as an int if it is a whole number (int or numpy integer, not bool)."""
    if isinstance(value, bool | np.bool_):
        raise CanastaError(f"{name} {shown(value)}: must be an integer")
    try:
        return operator.index(value)
    except TypeError:
        raise CanastaError(f"{name} {shown(value)}: must be an integer") from None


def check_int(name: str, value, low: int, high: int) -> int:
    """``value`` as an int in ``low..high``, or CanastaError naming ``name``, the value and the
    range: 'NAME VALUE: must be an integer in LOW..HIGH'."""
    v = _integer(name, value)
    if not low <= v <= high:
        raise CanastaError(f"{name} {shown(v)}: must be an integer in {low:,}..{high:,}")
    return v


def check_seed(value, name: str = "seed"):
    """A seed: an int in 0..MAX_SEED, or a ``numpy.random.SeedSequence`` (kept as is)."""
    if isinstance(value, np.random.SeedSequence):
        return value
    return check_int(name, value, 0, MAX_SEED)


def check_hand_id(value, name: str = "hand_id") -> int:
    return check_int(name, value, 0, MAX_HAND_ID)


def check_count(name: str, value, high: int, low: int = 1) -> int:
    """A number of items (hands, games, deals) in ``low..high``."""
    return check_int(name, value, low, high)


def check_jobs(value, name: str = "n_jobs") -> int:
    """Parallel jobs: -1 (every core) or 1..MAX_JOBS."""
    v = _integer(name, value)
    if v != -1 and not 1 <= v <= MAX_JOBS:
        raise CanastaError(f"{name} {shown(v)}: must be -1 (every core) or 1..{MAX_JOBS:,}")
    return v


def check_chunks(n_items: int, chunk_size, name: str = "chunk_size") -> int:
    """A chunk size in 1..n_items (larger is the same as n_items) giving at most MAX_CHUNKS
    chunks."""
    c = check_int(name, chunk_size, 1, INT64_MAX)
    chunks = -(-n_items // c)
    if chunks > MAX_CHUNKS:
        least = -(-n_items // MAX_CHUNKS)
        raise CanastaError(
            f"{name} {c}: {n_items:,} items make {chunks:,} chunks, more than the limit of "
            f"{MAX_CHUNKS:,}: use a chunk size of at least {least:,}"
        )
    return c


def check_score(value, name: str = "score") -> int:
    return check_int(name, value, -MAX_SCORE, MAX_SCORE)


def check_scores(value, name: str = "scores") -> tuple[int, int]:
    """One cumulative score per team (OPEN-1), each in -MAX_SCORE..MAX_SCORE."""
    if isinstance(value, str) or not hasattr(value, "__len__"):
        raise CanastaError(f"{name} {shown(value)}: must be a pair of integers (team 0, team 1)")
    if len(value) != N_TEAMS:
        raise CanastaError(f"{name}: give {N_TEAMS} team scores, not {len(value)}")
    return tuple(check_score(s, f"{name}[{t}]") for t, s in enumerate(value))


def check_seat(value, name: str = "seat") -> int:
    return check_int(name, value, 0, N_PLAYERS - 1)


def check_turn(value, name: str = "turn") -> int:
    return check_int(name, value, 0, MAX_TURN)


def check_hand_number(value, name: str = "hand_number") -> int:
    """A hand's number in its game (OPEN-1): 1 .. the games' cap (GAME_HAND_STRIDE)."""
    return check_int(name, value, 1, GAME_HAND_STRIDE)


def check_cards(value, name: str) -> int:
    """A number of cards (a hand size, the pile, the stock): 0..108."""
    return check_int(name, value, 0, N_CARDS)


def nesting(text: bytes | str) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``text`` (JSON or TOML with its strings and
    comments already removed by the caller): a parser recurses once a level, so a file of
    thousands of nested arrays is refused on this count before it is parsed."""
    depth = top = 0
    chars = text if isinstance(text, str) else text.decode("latin-1")
    for ch in re.sub(r"[^\[\]{}]", "", chars):
        depth += 1 if ch in "[{" else -1
        top = max(top, depth)
    return top


def parse_ints(text: str, name: str, count: int) -> tuple[int, ...]:
    """``count`` comma-separated integers from a command-line string, e.g. '0,120'."""
    parts = str(text).split(",")
    try:
        values = tuple(int(p) for p in parts)
    except ValueError:  # not a number, or over Python's 4,300 digits
        values = ()
    if len(values) != count:
        raise CanastaError(f"{name} {shown(text)}: expected {count} comma-separated integers")
    return values


def parse_scores(text: str, name: str = "--scores") -> tuple[int, int]:
    """Team scores 'T0,T1' from the command line, range-checked."""
    return check_scores(parse_ints(text, name, N_TEAMS), name)


def check_out_dir(path, name: str = "out") -> None:
    """A run directory to write: absent (it is created) or a directory, below directories
    only, so the run fails here rather than at its first chunk."""
    from pathlib import Path

    p = Path(path)
    if str(path) == "":
        raise CanastaError(f"{name} '': give a directory")
    if p.exists() and not p.is_dir():
        raise CanastaError(f"{name} {path}: exists and is not a directory")
    for parent in p.parents:
        if parent.exists():
            if not parent.is_dir():
                raise CanastaError(f"{name} {path}: {parent} is not a directory")
            break


def memory_bytes() -> int | None:
    """This machine's physical memory in bytes (None if unknown)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return None


def check_in_memory(
    n_rows: int, row_bytes: int, what: str, hint: str = ": write the run to disk with out=DIR"
) -> None:
    """Refuse at once a table of ``n_rows`` that could never fit this machine's memory (the
    run would fail at its end, or the machine would swap); ``hint`` ends the message."""
    total = memory_bytes()
    need = n_rows * row_bytes
    if total is not None and need > total:
        raise CanastaError(
            f"{n_rows:,} {what} kept in memory need about {need / 2**30:,.1f} GiB, more than "
            f"this machine's {total / 2**30:,.1f} GiB{hint}"
        )


def check_id_range(
    start, stop, unit: str, high: int = MAX_HAND_ID, row_bytes: int | None = None
) -> tuple[int, int]:
    """The ids ``start..stop-1`` of a chunk: whole numbers with 0 <= start <= stop <= high
    (``stop`` itself must fit int64), and, given ``row_bytes``, rows that fit in memory."""
    start = check_int(f"the first {unit} id (start)", start, 0, high)
    stop = check_int(f"the end of the {unit} ids (stop)", stop, start, high)
    if row_bytes is not None:
        check_in_memory(stop - start, row_bytes, f"{unit}s", ": use smaller chunks")
    return start, stop


def check_run(
    n,
    name: str,
    high: int,
    seed=0,
    n_jobs=1,
    runner_options: dict | None = None,
    row_bytes: int | None = None,
    unit: str = "hands",
):
    """Check a run before any work: ``n`` in 1..high, the seed, the jobs, at most MAX_CHUNKS
    chunks (``runner_options["chunk_size"]``, default the runner's) and, when the table is
    kept in memory (no ``runner_options["out"]``), rows of ``row_bytes`` that fit it.
    Returns ``(n, seed)``."""
    options = runner_options or {}
    n = check_count(name, n, high)
    seed = check_seed(seed)
    check_jobs(n_jobs)
    check_chunks(n, options.get("chunk_size", DEFAULT_CHUNK_SIZE))
    if options.get("out") is not None:
        check_out_dir(options["out"])
    elif row_bytes is not None:
        check_in_memory(n, row_bytes, unit)
    return n, seed
