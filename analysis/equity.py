"""The chance of winning the game (GAME-1) from any pair of scores: the equity table.

How a table is made (docs/equity.md):

1. **Hand outcomes, measured.** For each pair of opening minima (OPEN-1: by the teams' scores,
   125 below 3,000, 155 to 4,995, 180 from 5,000; or by the hand's number in the game) ``n``
   hands are played from a start score of that pair (``sim.simulate_games`` stopped after one
   hand), the deal rotating so that either team plays first. A hand's outcome is the two
   teams' points and whether it was a hand that wins the game (SPECIAL-10). The policies never
   see the scores, so a hand's outcome depends on the scores only through the two minima.
   With the same policy for both teams the two mirror images of every hand are pooled.
2. **Solved over the score grid.** ``V[t][s0, s1]``, the chance that team 0 wins with team
   ``t`` to play first, satisfies ``V[t](s) = E[V[1 - t](s + outcome)]`` over the outcomes of
   the minima at ``s`` (the deal rotates, DEAL-1), with a team at or above the target having
   won if it is ahead (GAME-1; an exact tie there plays on: the next hand's higher scorer wins,
   the case of both teams falling back below the target after a tie is counted the same way),
   and a game-winning hand winning at once (SPECIAL-10). Scores do not only rise (a hand often
   costs both teams points), so this is a linear system, not a backward pass: it is solved by
   BiCGSTAB, each product with the hand's outcome distribution a 2-D FFT correlation per pair
   of minima, to a stated residual. Exact given the measured distributions up to the grid: a
   grid of ``resolution`` points (10) from ``low`` (-10,000; a score below is read as
   ``low``) to the target; an outcome between grid points is split between its two neighbours
   in proportion (unbiased in the mean), so values at scores on the grid carry that error only.
3. **Intervals.** The sampling error of the measured outcomes is carried by a Poisson
   bootstrap: each replicate reweights every measured hand by a Poisson(1) count and is solved
   again on a coarse grid (``BOOT_RESOLUTION`` points); the standard error of a cell is the
   replicates' standard deviation at the coarse cell that holds it (same opening minima), and
   the interval is the estimate ± z·SE (95%).

A table is cached as files under :func:`cache_dir`, keyed by the ruleset, the policies (names
and parameters), the settings and ``VERSION``; a query reads the cached arrays memory-mapped.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd

from analysis._equity_grid import Grid, solve_layers, tie_values
from sim.errors import CanastaError
from sim.stats import CONFIDENCE, z_value

__all__ = [
    "BOOT_REPLICATES",
    "DEFAULT_N",
    "LOW",
    "RESOLUTION",
    "VERSION",
    "EquityTable",
    "Outcomes",
    "after_hand",
    "cache_dir",
    "cached_table",
    "chance_fields",
    "choice_chances",
    "equity_table",
    "measure_outcomes",
]

VERSION = 3  #: the method's version: part of every cache key (3: the tie value's SE)
DEFAULT_N = 40_000  #: hands measured per pair of opening minima
RESOLUTION = 10  #: points between grid scores
LOW = -10_000  #: the lowest score on the grid (a lower score is read as this one)
BOOT_RESOLUTION = 100  #: points between grid scores of the bootstrap replicates
BOOT_REPLICATES = 30  #: bootstrap replicates behind each standard error
ENV_CACHE = "CANASTA_EQUITY_CACHE"  #: a directory overriding the default cache location


def cache_dir() -> Path:
    """Where tables are cached: ``$CANASTA_EQUITY_CACHE``, else the user's cache directory
    (``$XDG_CACHE_HOME`` or ``~/.cache``; ``%LOCALAPPDATA%`` on Windows), ``canasta-sim/equity``."""
    if os.environ.get(ENV_CACHE):
        return Path(os.environ[ENV_CACHE])
    if os.name == "nt":  # pragma: no cover - Windows
        root = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    else:
        root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return root / "canasta-sim" / "equity"


def _tier_count() -> int:
    """OPEN-1: how many opening minima there are (by score or by hand number)."""
    from sim.legality.opening import OPEN_MINIMUMS

    return len(OPEN_MINIMUMS)


@dataclasses.dataclass
class Outcomes:
    """Measured hand outcomes: ``samples[(a, b, t)]`` int64[k, 3] rows (team 0's points, team
    1's points, the team whose hand won the game or -1: SPECIAL-10) of hands with opening-
    minimum tiers ``a`` (team 0) and ``b`` (team 1) and team ``t`` playing first. ``by_hand``:
    OPEN-1 by the hand's number (pairs ``(k, k)``: hand 1, 2, 3 and later)."""

    samples: dict
    by_hand: bool
    hands: int  #: hands played in all
    #: one policy for both teams: only team 0 first is kept, team 1 first is its mirror image
    mirrored: bool = False

    def pairs(self) -> list[tuple[int, int]]:
        return sorted({(a, b) for a, b, _ in self.samples})


def _child_seed(seed: int, i: int) -> int:
    return int(np.random.SeedSequence([seed, i]).generate_state(1, np.uint64)[0] >> np.uint64(2))


def measure_outcomes(
    rules=None, policies=None, n: int = DEFAULT_N, seed: int = 0, n_jobs=1, progress=None
):
    """Play ``n`` hands for each pair of opening minima (OPEN-1) under ``rules`` with
    ``policies`` (team 0, team 1; default the strongest fast policy against itself) and
    return their :class:`Outcomes`. The hands of pair ``i`` come from a seed derived from
    (``seed``, i), so a table depends on ``seed`` alone, never on ``n_jobs``. ``progress``:
    called ``progress(doing, step, of)`` after each pair (what a server shows)."""
    from sim.api import simulate_games
    from sim.legality.opening import OPEN_THRESHOLDS
    from sim.limits import MAX_SCORE
    from sim.ruleset import as_ruleset

    rs = as_ruleset(rules)
    pol = _policies(policies)
    # a target no hand reaches: the winner column then shows only a game-winning hand
    meas = dataclasses.replace(rs, target=MAX_SCORE)
    by_hand = rs.opening_minimum == "hand"
    starts = (0, *OPEN_THRESHOLDS)  # one score in each opening tier (OPEN-1)
    k = _tier_count()
    pairs = [(a, a) for a in range(k)] if by_hand else [(a, b) for a in range(k) for b in range(k)]
    raw = {}
    for i, (a, b) in enumerate(pairs):
        scores = (0, 0) if by_hand else (starts[a], starts[b])
        df = simulate_games(
            n,
            pol,
            seed=_child_seed(seed, i),
            ruleset=meas,
            scores=scores,
            hand_number=a + 1 if by_hand else 1,
            max_hands=1,
            n_jobs=n_jobs,
        )
        rows = np.column_stack(
            [df["score_team0"] - scores[0], df["score_team1"] - scores[1], df["winner"]]
        ).astype(np.int64)
        first = (df["game_id"].to_numpy() % 4) % 2  # DEAL-1: seat g % 4 opens hand 1 of game g
        for t in (0, 1):
            raw[(a, b, t)] = rows[first == t]
        if progress is not None:
            progress("measuring hands by pair of opening minima", i + 1, len(pairs))
    same = pol[0] == pol[1]
    if not same:
        return Outcomes(raw, by_hand, n * len(pairs))
    samples = {}
    for a, b in pairs:  # the mirror image of a hand of (b, a) with team 1 first is one of
        m = raw[(b, a, 1)][:, [1, 0, 2]].copy()  # (a, b) with team 0 first
        m[:, 2] = np.where(m[:, 2] >= 0, 1 - m[:, 2], -1)
        samples[(a, b, 0)] = np.concatenate([raw[(a, b, 0)], m])
    return Outcomes(samples, by_hand, n * len(pairs), mirrored=True)


def _policies(policies) -> tuple[str, str]:
    from sim.api import policy_pair, resolve_policies
    from sim.policies import strongest_fast

    if policies is None:
        policies = [strongest_fast()]
    pair = policy_pair(policies)
    labels = [r[2] for r in resolve_policies(pair)]  # unknown names: refused here
    return labels[0], labels[1]


def solve_outcomes(
    outcomes: Outcomes,
    target: int,
    resolution: int = RESOLUTION,
    low: int = LOW,
    weights=None,
    guess=None,
    workers: int = 1,
) -> tuple[np.ndarray, dict]:
    """Solve the equity grid for measured ``outcomes`` (weights per sample: a bootstrap
    replicate). Returns ``values`` float32[layers, 2, n, n] (``[layer, t, i0, i1]``: team 0's
    chance to win from scores ``low + resolution * i`` with team ``t`` to play first; layer
    ``k``: hand ``k + 1`` of the game under OPEN-1 by hand, the only layer otherwise) and the
    solver's report (iterations, residual). ``guess``: a table to start from (a coarser
    solve, or the point solution for a bootstrap replicate; float[2, n, n]). ``workers``:
    threads for the FFTs (the values do not depend on it)."""
    from sim.legality.opening import OPEN_THRESHOLDS

    grid = Grid(outcomes, target, resolution, low, OPEN_THRESHOLDS, weights, workers)
    vtie = tie_values(outcomes, target, OPEN_THRESHOLDS, weights)
    return solve_layers(grid, vtie, outcomes.mirrored, guess)


@dataclasses.dataclass
class EquityTable:
    """A solved, cached table. ``values[layer, t, i0, i1]`` and standard errors ``se`` on the
    bootstrap's coarse grid; ``meta``: how it was made (ruleset, policies, n, seed, timings,
    solver residuals)."""

    values: np.ndarray
    se: np.ndarray
    meta: dict
    path: Path | None = None
    #: the bootstrap replicates on the coarse grid, ``[replicate, layer, t, b0, b1]``
    replicates: np.ndarray | None = None

    @property
    def target(self) -> int:
        return int(self.meta["target"])

    @property
    def low(self) -> int:
        return int(self.meta["low"])

    @property
    def resolution(self) -> int:
        return int(self.meta["resolution"])

    def _index(self, score: int, name: str, step: int) -> int:
        if score >= self.target:
            raise CanastaError(
                f"{name} {score:,}: at or above the target {self.target:,} the game is over "
                "(GAME-1)"
            )
        return max(0, (score - self.low) // step)

    def value(self, score0: int, score1: int, first: int = 0, hand_number: int = 1) -> dict:
        """Team 0's chance to win from ``score0`` against ``score1`` with team ``first`` to
        play first: ``{"win_team0", "se", "ci_low", "ci_high", ...}``. A score off the grid
        reads the grid score below it in the same opening tier (scores are multiples of 5);
        below ``low`` reads ``low``."""
        from sim.finished import GAME_TIED, check_game_start, game_outcome
        from sim.limits import check_int, check_score

        s0, s1 = check_score(score0, "score0"), check_score(score1, "score1")
        check_game_start((s0, s1), self.target)  # GAME-1: no team has won yet
        first = check_int("first", first, 0, 1)
        layer = min(check_int("hand_number", hand_number, 1, 10**9), self.values.shape[0]) - 1
        if game_outcome(s0, s1, self.target) == GAME_TIED:  # GAME-1: another hand is played
            return self._tie(s0, first, layer)
        i0, i1 = (self._index(s, f"score{t}", self.resolution) for t, s in enumerate((s0, s1)))
        b0, b1 = (self._index(s, "score", int(self.meta["boot_resolution"])) for s in (s0, s1))
        p = float(self.values[layer, first, i0, i1])
        return self._answer(s0, s1, first, p, float(self.se[layer, first, b0, b1]))

    def _answer(self, s0: int, s1: int, first: int, p: float, se: float) -> dict:
        """:meth:`value`'s answer: team 0's chance ``p`` at scores (``s0``, ``s1``) with its
        bootstrap SE and normal interval (clipped to [0, 1])."""
        z = z_value(CONFIDENCE)
        return {
            "score_team0": s0,
            "score_team1": s1,
            "first": first,
            "win_team0": p,
            "se": se,
            "ci_low": max(0.0, p - z * se),
            "ci_high": min(1.0, p + z * se),
            "interval": f"{CONFIDENCE * 100:g}% normal interval, SE from "
            f"{self.meta['replicates']} Poisson-bootstrap replicates",
        }

    def _tie(self, score: int, first: int, layer: int) -> dict:
        """``value`` at an exact tie at or over the target: the next hand's higher scorer
        wins (GAME-1), the table's tie value with its bootstrap SE (``meta["tie"]``,
        ``meta["tie_se"]``: the last layer's, so from hand 3 on under OPEN-1 by hand)."""
        if layer != self.values.shape[0] - 1:
            raise CanastaError(
                f"scores {score},{score}: the table holds the value of a tie at the target "
                f"from hand {self.values.shape[0]} on (OPEN-1 by hand)"
            )
        p, se = float(self.meta["tie"][first]), float(self.meta["tie_se"][first])
        return self._answer(score, score, first, p, se)

    def difference(self, a: tuple, b: tuple, first: int = 0, hand_number: int = 1) -> dict:
        """Team 0's chance at scores ``a`` minus at ``b`` (pairs of scores), team ``first``
        to play first, with the paired standard error from the bootstrap replicates (the
        coarse cells holding ``a`` and ``b``)."""
        va = self.value(*a, first=first, hand_number=hand_number)
        vb = self.value(*b, first=first, hand_number=hand_number)
        r = int(self.meta["boot_resolution"])
        layer = min(hand_number, self.values.shape[0]) - 1
        ia = [self._index(s, "score", r) for s in a]
        ib = [self._index(s, "score", r) for s in b]
        reps = np.asarray(self.replicates[:, layer, first], dtype=np.float64)
        d = reps[:, ia[0], ia[1]] - reps[:, ib[0], ib[1]]
        se = float(np.std(d, ddof=1))
        z = z_value(CONFIDENCE)
        diff = va["win_team0"] - vb["win_team0"]
        return {"difference": diff, "se": se, "ci_low": diff - z * se, "ci_high": diff + z * se}

    def frame(self, step: int = 100, low: int | None = None, hand_number: int = 1) -> pd.DataFrame:
        """The table as rows (score_team0, score_team1, first, win_team0, se, ci_low, ci_high)
        every ``step`` points from ``low`` (default -2,000) to the last score below the target."""
        from sim.limits import check_int

        step = check_int("step", step, self.resolution, 10**6)
        if step % self.resolution:
            raise CanastaError(f"step {step}: must be a multiple of {self.resolution}")
        low = max(self.low, -2000 if low is None else low)
        scores = np.arange(low, self.target, step)
        i = (scores - self.low) // self.resolution
        b = (scores - self.low) // int(self.meta["boot_resolution"])
        layer = min(hand_number, self.values.shape[0]) - 1
        z = z_value(CONFIDENCE)
        parts = []
        for t in (0, 1):
            v = np.asarray(self.values[layer, t])[np.ix_(i, i)].astype(np.float64)
            s = np.asarray(self.se[layer, t])[np.ix_(b, b)].astype(np.float64)
            s0, s1 = np.meshgrid(scores, scores, indexing="ij")
            parts.append(
                pd.DataFrame(
                    {
                        "score_team0": s0.ravel(),
                        "score_team1": s1.ravel(),
                        "first": t,
                        "win_team0": v.ravel(),
                        "se": s.ravel(),
                        "ci_low": np.clip(v - z * s, 0, 1).ravel(),
                        "ci_high": np.clip(v + z * s, 0, 1).ravel(),
                    }
                )
            )
        return pd.concat(parts, ignore_index=True)


def synthetic_table(
    target: int = 8500, low: int = LOW, resolution: int = RESOLUTION, first_edge: float = 0.02
) -> EquityTable:
    """A made-up table of a known shape (tests and engine-free reports): team 0's chance a
    logistic in its lead, steeper near the target, plus ``first_edge`` for the team playing
    first; standard errors 0.001 and two replicates ±0.001 apart. Not a measurement."""
    s = low + resolution * np.arange(-(-(target - low) // resolution))
    s0, s1 = np.meshgrid(s, s, indexing="ij")
    lead = (s0 - s1) / 2500 + (np.maximum(s0, 0) - np.maximum(s1, 0)) / 6000
    base = 1 / (1 + np.exp(-lead))
    values = np.stack([np.clip(base + first_edge, 0, 1), np.clip(base - first_edge, 0, 1)])
    nb = -(-(target - low) // BOOT_RESOLUTION)
    coarse = values[:, :: BOOT_RESOLUTION // resolution, :: BOOT_RESOLUTION // resolution]
    reps = np.stack([coarse[None] - 0.001, coarse[None] + 0.001]).astype(np.float32)
    meta = {
        "target": target,
        "low": low,
        "resolution": resolution,
        "boot_resolution": BOOT_RESOLUTION,
        "tie": [0.5 + first_edge, 0.5 - first_edge],
        "tie_se": [0.001, 0.001],
        "replicates": 2,
        "ruleset_label": "a made-up table (not measured)",
        "policy_labels": ["synthetic", "synthetic"],
        "tiers": [3000, 5000],
        "hands": 0,
        "n": 0,
        "seed": 0,
    }
    se = np.full((1, 2, nb, nb), 0.001, dtype=np.float32)
    return EquityTable(values[None].astype(np.float32), se, meta, None, reps)


def after_hand(
    table: EquityTable, scores, next_first: int, d0, d1, winner, hand_number: int = 2
) -> np.ndarray:
    """Team 0's chance of winning the game after hands that scored ``d0``, ``d1`` (arrays)
    from ``scores``, the next hand played first by team ``next_first``: 1 or 0 when a hand
    won the game (``winner`` 0 or 1, SPECIAL-10; -1 none) or took a team to the target ahead
    (GAME-1), the table's tie value after an exact tie there, else the table at the new
    scores (``hand_number``: the next hand's number, OPEN-1 by hand)."""
    from sim.finished import GAME_ON, GAME_TIED, game_outcomes

    d0, d1, winner = (np.asarray(x, dtype=np.int64) for x in (d0, d1, winner))
    x0, x1 = scores[0] + d0, scores[1] + d1
    end = game_outcomes(x0, x1, table.target)  # GAME-1
    out = np.zeros(len(x0))
    won = winner >= 0
    out[won] = winner[won] == 0
    top = ~won & (end != GAME_ON)
    out[top] = (end[top] == 0) + (end[top] == GAME_TIED) * table.meta["tie"][next_first]
    rest = ~won & ~top
    n = table.values.shape[-1]
    i0 = np.clip((x0[rest] - table.low) // table.resolution, 0, n - 1)
    i1 = np.clip((x1[rest] - table.low) // table.resolution, 0, n - 1)
    layer = min(hand_number, table.values.shape[0]) - 1
    out[rest] = np.asarray(table.values[layer, next_first])[i0, i1]
    return out


def choice_chances(records: list, scores, first: int, team: int, table, rules) -> list[dict]:
    """For the choices of a decision (``analysis.advise``): per choice, the records of its
    deals (frames of ``sim.simulate``'s schema, the same deals for every choice), the fixed
    ``team``'s chance of winning the game after the hand, per deal through ``table`` from
    ``scores`` (the hand's first player ``first``; the next hand is opened by the other
    team, DEAL-1): mean with its 95% interval, and the paired difference from the choice best
    by it (``win``, ``ci_low``, ``ci_high``, ``diff_from_best``, ``diff_low``, ``diff_high``)."""
    from analysis import intervals as iv

    if table.target != rules.target:
        raise CanastaError(
            f"the equity table is for target {table.target:,}, the rules' is {rules.target:,}"
        )
    from sim.finished import check_game_start

    check_game_start(scores, table.target)  # GAME-1: a tie at or over the target plays on
    wins = {h.name for h in rules.catalogue if h.wins_game}  # SPECIAL-10
    nxt = 1 - first % 2
    chance = []
    for parts in records:
        rec = pd.concat(parts).sort_values("hand_id", kind="stable")
        special = rec["special_hand"].isin(wins).to_numpy()
        winner = np.where(special, rec["special_team"].to_numpy(), -1)
        w = after_hand(table, scores, nxt, rec["score_team0"], rec["score_team1"], winner)
        chance.append(w if team == 0 else 1 - w)
    top = max(len(c) for c in chance)
    full = [i for i in range(len(chance)) if len(chance[i]) == top]
    best = max(full, key=lambda i: (float(chance[i].mean()), -i))
    return [
        chance_fields(iv.mean(c), iv.paired_difference(c, chance[best][: len(c)])) for c in chance
    ]


def chance_fields(e, d) -> dict[str, float]:
    """A choice's fields by the chance of winning the game: its estimate ``e`` and its paired
    difference ``d`` from the best choice (both ``analysis.intervals.Estimate``)."""
    return {
        "win": e.estimate,
        "ci_low": e.ci_low,
        "ci_high": e.ci_high,
        "diff_from_best": d.estimate,
        "diff_low": d.ci_low,
        "diff_high": d.ci_high,
    }


def _key(rs, pol, n, seed, resolution, low, replicates) -> tuple[str, dict]:
    from sim.policies.registry import resolve

    spec = {
        "version": VERSION,
        "ruleset": rs.to_dict(),
        "policies": [[r[2], r[1].tolist()] for r in (resolve(p) for p in pol)],
        "n": n,
        "seed": seed,
        "resolution": resolution,
        "low": low,
        "boot_resolution": BOOT_RESOLUTION,
        "replicates": replicates,
    }
    text = json.dumps(spec, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20], spec


def load(path) -> EquityTable:
    """A cached table from its directory (arrays memory-mapped)."""
    path = Path(path)
    meta = json.loads((path / "meta.json").read_text())
    values = np.load(path / "values.npy", mmap_mode="r")
    se = np.load(path / "se.npy", mmap_mode="r")
    reps = np.load(path / "replicates.npy", mmap_mode="r")
    return EquityTable(values, se, meta, path, reps)


def cached_table(
    rules=None,
    policies=None,
    n: int = DEFAULT_N,
    seed: int = 0,
    cache=None,
    resolution: int = RESOLUTION,
    low: int = LOW,
    replicates: int = BOOT_REPLICATES,
) -> EquityTable | None:
    """The table :func:`equity_table` would return with these arguments if it is already in
    the cache (``cache`` a directory, default :func:`cache_dir`), else None: never builds."""
    from sim.ruleset import as_ruleset

    key, _ = _key(as_ruleset(rules), _policies(policies), n, seed, resolution, low, replicates)
    where = (Path(cache) if cache is not None else cache_dir()) / key
    return load(where) if (where / "meta.json").exists() else None


def equity_table(
    rules=None,
    policies=None,
    n: int = DEFAULT_N,
    seed: int = 0,
    n_jobs: int = 1,
    cache=None,
    refresh: bool = False,
    resolution: int = RESOLUTION,
    low: int = LOW,
    replicates: int = BOOT_REPLICATES,
    progress=None,
) -> EquityTable:
    """The equity table of ``rules`` and ``policies`` (default: the strongest fast policy
    against itself): read from the cache (``cache`` a directory, default :func:`cache_dir`;
    ``False``: not cached), else measured, solved and cached. ``n`` hands per pair of opening
    minima; ``replicates`` bootstrap replicates for the standard errors. ``progress``: called
    ``progress(doing, step, of)`` as a build goes (the web table shows it); the table does not
    depend on it."""
    import time

    from sim.limits import check_int, check_jobs, check_seed
    from sim.ruleset import as_ruleset

    rs = as_ruleset(rules)
    pol = _policies(policies)
    n = check_int("n", n, 100, 10**8)
    seed = check_seed(seed)
    check_jobs(n_jobs)
    resolution = check_int("resolution", resolution, 5, 1000)
    low = check_int("low", low, -(10**6), -resolution)
    replicates = check_int("replicates", replicates, 2, 1000)
    if (low % BOOT_RESOLUTION) or (BOOT_RESOLUTION % resolution):
        raise CanastaError(
            f"low {low:,} and resolution {resolution}: low must be a multiple of "
            f"{BOOT_RESOLUTION} and the resolution divide it"
        )
    span = (rs.target - low) // resolution
    if span > 4000:
        raise CanastaError(
            f"target {rs.target:,}: the equity grid runs from {low:,} to the target in steps "
            f"of {resolution}, at most 4,000 steps; this target needs {span:,}"
        )
    key, spec = _key(rs, pol, n, seed, resolution, low, replicates)
    where = None
    if cache is not False:
        where = Path(cache) if cache is not None else cache_dir()
        where = where / key
        if not refresh and (where / "meta.json").exists():
            return load(where)
    from sim.legality.opening import OPEN_THRESHOLDS

    t0 = time.perf_counter()
    out = measure_outcomes(rs, pol, n, seed, n_jobs, progress)
    t1 = time.perf_counter()
    if progress is not None:
        progress("solving the grid", 1, 1)
    workers = (os.cpu_count() or 1) if n_jobs == -1 else n_jobs
    coarse, _ = solve_outcomes(out, rs.target, BOOT_RESOLUTION, low, workers=workers)
    idx = np.arange((rs.target - low + resolution - 1) // resolution) * resolution
    idx = idx // BOOT_RESOLUTION  # each fine cell's coarse cell (the same opening tiers)
    guess = coarse[-1][:, idx][:, :, idx]
    values, report = solve_outcomes(out, rs.target, resolution, low, guess=guess, workers=workers)
    from analysis._equity_grid import tie_values

    tie = tie_values(out, rs.target, OPEN_THRESHOLDS)[-1]  # GAME-1: a tie at the target
    t2 = time.perf_counter()
    # each replicate starts from the point solution on its grid: a few iterations away
    reps, ties = _bootstrap(
        out, rs.target, low, replicates, seed, n_jobs, guess=coarse[-1], progress=progress
    )
    se = np.std(reps, axis=0, ddof=1).astype(np.float32)
    t3 = time.perf_counter()

    meta = {
        **spec,
        "target": rs.target,
        "ruleset_label": rs.label,
        "policy_labels": list(pol),
        "by_hand": out.by_hand,
        "tiers": [] if out.by_hand else list(OPEN_THRESHOLDS),
        "hands": out.hands,
        "tie": [float(x) for x in tie],
        "tie_se": [float(x) for x in np.std(ties, axis=0, ddof=1)],
        "solver": report,
        "seconds": {"measure": t1 - t0, "solve": t2 - t1, "bootstrap": t3 - t2},
    }
    table = EquityTable(values, se, meta, None, reps.astype(np.float32))
    if where is not None:
        _save(table, where)
        return load(where)
    return table


def _replicates(
    outcomes: Outcomes, target: int, low: int, seeds, guess=None, progress=None
) -> list:
    """Bootstrap replicates on the coarse grid, one per seed: every measured hand reweighted
    by a Poisson(1) count; each solve starts from ``guess`` (the point solution). Each is a
    pair: the grid's values and the tie values at the target (the last layer's, GAME-1)."""
    from analysis._equity_grid import tie_values
    from sim.legality.opening import OPEN_THRESHOLDS

    reps = []
    for i, s in enumerate(seeds):
        if progress is not None:
            progress("bootstrap replicates for the intervals", i + 1, len(seeds))
        rng = np.random.default_rng(s)
        w = {k: rng.poisson(1.0, len(v)).astype(np.float64) for k, v in outcomes.samples.items()}
        v, _ = solve_outcomes(outcomes, target, BOOT_RESOLUTION, low, weights=w, guess=guess)
        tie = tie_values(outcomes, target, OPEN_THRESHOLDS, w)[-1]
        reps.append((v.astype(np.float64), np.asarray(tie, dtype=np.float64)))
    return reps


def _bootstrap(
    outcomes: Outcomes,
    target: int,
    low: int,
    replicates: int,
    seed,
    n_jobs=1,
    guess=None,
    progress=None,
):
    """The bootstrap replicates on the coarse grid, float64[replicates, layers, 2, nb, nb],
    and their tie values at the target, float64[replicates, 2].
    Replicate i's weights come from a child of (``seed``, i): the same for any ``n_jobs``.
    ``guess``: the point solution on the coarse grid, where each replicate's solve starts."""
    seeds = np.random.SeedSequence([seed, 47]).spawn(replicates)
    if n_jobs == 1:
        reps = _replicates(outcomes, target, low, seeds, guess, progress)
    else:
        from joblib import Parallel, delayed

        jobs = (os.cpu_count() or 1) if n_jobs == -1 else n_jobs
        jobs = max(1, min(replicates, jobs))
        parts = Parallel(n_jobs=jobs)(
            delayed(_replicates)(outcomes, target, low, seeds[i::jobs], guess) for i in range(jobs)
        )
        order = [i for j in range(jobs) for i in range(j, replicates, jobs)]
        flat = [r for part in parts for r in part]
        reps = [flat[order.index(i)] for i in range(replicates)]
    return np.stack([r[0] for r in reps]), np.stack([r[1] for r in reps])


def _save(table: EquityTable, where: Path) -> None:
    """Write atomically: a temporary directory renamed into place."""
    import shutil
    import tempfile

    where.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=where.parent, prefix=".tmp-"))
    np.save(tmp / "values.npy", np.ascontiguousarray(table.values, dtype=np.float32))
    np.save(tmp / "se.npy", np.ascontiguousarray(table.se, dtype=np.float32))
    np.save(tmp / "replicates.npy", np.ascontiguousarray(table.replicates, dtype=np.float32))
    (tmp / "meta.json").write_text(json.dumps(table.meta, indent=1, default=str))
    if where.exists():
        shutil.rmtree(where)
    os.replace(tmp, where)
