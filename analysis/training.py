"""Training ``strong``: black-box tuning of its parameters (the heuristic's and its
own, ``sim.policies.strong``) on duplicate deals against a pool of opponents.

The objective of a parameter vector is its mean duplicate margin (points per hand, own team
minus the other's, every deal played with the seats swapped as in ``analysis.compare``)
against each opponent of a pool, averaged over the pool. The pool is the heuristic (strong's
kernel at its neutral values, which plays exactly as the heuristic) and the optimizer's
current mean (the previous generation's policy), so the search does not specialise against
one fixed opponent. Every candidate of a generation plays the same
deals (common random numbers: one run key per generation), so their differences are paired
and the ranking's noise small; a new generation deals new cards, so nothing is tuned to one
set of deals.

The optimizer is a diagonal cross-entropy / evolution strategy, written here (no extra
dependency): parameters scaled to [0, 1] by ``BOUNDS``, antithetic Gaussian samples around the
mean, the mean moved to the log-weighted average of the better half, each coordinate's
step size smoothed toward the spread of that half (a floor keeps it searching). It is
deterministic from the seed: the samples come from ``numpy.random.default_rng((seed, gen))``
and the deals from ``sim.rng.run_key`` of a seed derived the same way; the split of the work
over jobs does not change any number. At the end the final mean is measured on fresh deals
against the heuristic (``validation``) and recorded beside the parameters.
"""

from __future__ import annotations

import datetime
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.errors import CanastaError

__all__ = [
    "BOUNDS",
    "POPSIZE",
    "data_file",
    "deal_margins",
    "heuristic_defaults",
    "margins",
    "param_names",
    "train",
]

#: the search range of each heuristic parameter (name -> (low, high)); all are >= 0 (registry)
BOUNDS = {
    "sevens_threshold": (2.0, 8.0),
    "aces_threshold": (2.0, 8.0),
    "wild_meld_threshold": (2.0, 8.0),
    "pile_min": (0.0, 12.0),
    "safe_weight": (0.0, 4.0),
    "late_stock": (0.0, 40.0),
    "complete_with_wilds": (0.0, 1.0),
    "risky_min_stock": (0.0, 40.0),
    "live_min": (0.0, 8.0),
    "open_risky": (0.0, 1.0),
    "opp_out_late": (0.0, 1.0),
    "feed_weight": (0.0, 3.0),
    "dump_weight": (0.0, 4.0),
    "shed_stock": (0.0, 108.0),
    "new_meld_min": (2.0, 7.0),
    "pair_keep": (0.0, 40.0),
    "meld_keep": (0.0, 100.0),
    "early_dump": (0.0, 2.0),
}
POPSIZE = 10  #: candidates per generation (even: antithetic pairs)
SIGMA0 = 0.15  #: first step size, in units of each parameter's range
SIGMA_MIN = 0.02  #: floor of the step size (the objective is noisy: keep exploring)
SMOOTH = 0.3  #: weight of the better half's spread in each generation's new step size
VALIDATION = -1  #: the "generation" whose deals measure the final parameters


def deal_seed(seed: int, gen: int) -> np.random.SeedSequence:
    """The deals of generation ``gen`` (``VALIDATION``: the final measurement) of a training
    run: a seed sequence of (seed, gen), so no two generations share deals."""
    return np.random.SeedSequence([seed, gen + 1])


def param_names() -> tuple[str, ...]:
    """strong's tuned parameters in registry order (the heuristic's, then its own; not the
    evaluator's switch, which the distillation stage sets, ``analysis.distill``)."""
    from sim.policies.strong import TUNED_NAMES

    assert set(TUNED_NAMES) == set(BOUNDS)  # a new parameter needs its range here
    return TUNED_NAMES


def _scale():
    names = param_names()
    lo = np.array([BOUNDS[n][0] for n in names])
    hi = np.array([BOUNDS[n][1] for n in names])
    return lo, hi


def to_unit(params: np.ndarray) -> np.ndarray:
    lo, hi = _scale()
    return np.clip((np.asarray(params, float) - lo) / (hi - lo), 0.0, 1.0)


def from_unit(x: np.ndarray) -> np.ndarray:
    lo, hi = _scale()
    return np.round(lo + np.clip(x, 0.0, 1.0) * (hi - lo), 6)


def heuristic_defaults() -> np.ndarray:
    """strong's neutral parameters: the heuristic's defaults, with which it plays exactly as
    the heuristic (tests/test_strong.py)."""
    from sim.policies.strong import NEUTRAL

    return np.array([NEUTRAL[n] for n in param_names()], dtype=np.float64)


def deal_margins(a: np.ndarray, b: np.ndarray, seed, deals: int) -> np.ndarray:
    """Per deal ``0..deals-1`` of ``seed`` (an int or a SeedSequence), the duplicate margin of
    ``a`` over ``b`` (parameter vectors of strong's kernel), points a hand: each deal played
    twice, seats swapped, the two margins averaged."""
    from sim.api import Players, play_hands_arrays
    from sim.encoding import RC_SCORE0, RC_SCORE1
    from sim.policies.strong import strong_decide
    from sim.rng import run_key
    from sim.ruleset import Ruleset

    key = run_key(seed)
    rules = np.ascontiguousarray(Ruleset().to_array())
    decides = [strong_decide, strong_decide]
    a, b = np.ascontiguousarray(a, np.float64), np.ascontiguousarray(b, np.float64)
    ab = play_hands_arrays(key, 0, deals, Players(decides, [a, b], rules))
    ba = play_hands_arrays(key, 0, deals, Players(decides, [b, a], rules))
    return ((ab[:, RC_SCORE0] - ab[:, RC_SCORE1]) + (ba[:, RC_SCORE1] - ba[:, RC_SCORE0])) / 2.0


def margins(
    candidates: list[np.ndarray], opponents: list[np.ndarray], seed: int, deals: int
) -> np.ndarray:
    """Mean duplicate margin (points per hand) of each candidate against each opponent, all
    parameter vectors of strong's kernel, on deals ``0..deals-1`` of ``seed`` (an int or a
    SeedSequence): ``[cand, opp]``.
    One process; ``margins_parallel`` splits the candidates over jobs."""
    out = np.zeros((len(candidates), len(opponents)))
    for i, c in enumerate(candidates):
        for j, o in enumerate(opponents):
            out[i, j] = deal_margins(c, o, seed, deals).mean()
    return out


def margins_parallel(candidates, opponents, seed, deals, n_jobs) -> np.ndarray:
    """``margins`` with the candidates split over ``n_jobs`` joblib workers (same numbers)."""
    if n_jobs == 1 or len(candidates) == 1:
        return margins(candidates, opponents, seed, deals)
    from joblib import Parallel, delayed

    parts = [list(p) for p in np.array_split(np.arange(len(candidates)), n_jobs) if len(p)]
    rows = Parallel(n_jobs=len(parts))(
        delayed(margins)([candidates[k] for k in p], opponents, seed, deals) for p in parts
    )
    return np.vstack(rows)


@dataclass
class TrainResult:
    parameters: dict[str, float]
    history: list[dict]
    validation: dict
    settings: dict


def train(
    seed: int = 0,
    generations: int = 30,
    deals: int = 1000,
    n_jobs: int = 1,
    validation_deals: int = 2000,
    popsize: int = POPSIZE,
    progress: Callable[[dict], None] | None = None,
    checkpoint: str | Path | None = None,
) -> TrainResult:
    """Tune strong's parameters (see the module); deterministic from ``seed``.

    ``checkpoint``: a JSON file written after every generation (the optimizer's mean, spread
    and history). A run given an existing checkpoint of the same seed, deals and popsize goes
    on from its next generation, so an interrupted run loses no finished generation; every
    generation's samples and deals depend only on (seed, generation), so the result equals
    that of an uninterrupted run."""
    from sim.limits import MAX_HANDS, check_count, check_jobs, check_seed

    seed = check_seed(seed, "seed")
    generations = check_count("generations", generations, 10_000)
    deals = check_count("deals", deals, MAX_HANDS, low=2)
    validation_deals = check_count("validation deals", validation_deals, MAX_HANDS, low=2)
    n_jobs = check_jobs(n_jobs)
    if n_jobs < 0:
        import os

        n_jobs = os.cpu_count() or 1
    if popsize < 2 or popsize % 2:
        raise CanastaError(f"popsize: an even number of at least 2, got {popsize}")
    start = time.time()
    names = param_names()
    base = heuristic_defaults()
    mean = to_unit(base)
    sigma = np.full(len(names), SIGMA0)
    mu = popsize // 2
    w = np.log(mu + 0.5) - np.log(np.arange(1, mu + 1))
    w /= w.sum()
    history = []
    key = {"seed": seed, "deals": deals, "popsize": popsize, "names": list(names)}
    if checkpoint is not None:
        saved = _load_checkpoint(checkpoint, key)
        if saved is not None:
            mean, sigma, history = saved
            history = history[:generations]
    for gen in range(len(history), generations):
        rng = np.random.default_rng((seed, gen))
        z = rng.standard_normal((popsize // 2, len(names)))
        z = np.concatenate([z, -z])  # antithetic pairs: less noise in the mean's move
        xs = np.clip(mean + sigma * z, 0.0, 1.0)
        cands = [from_unit(x) for x in xs]
        pool = [base, from_unit(mean)]
        m = margins_parallel(cands, pool, deal_seed(seed, gen), deals, n_jobs)
        fit = m.mean(axis=1)
        order = np.argsort(-fit, kind="stable")
        elite = xs[order[:mu]]
        new_mean = w @ elite
        spread = np.sqrt(w @ (elite - mean) ** 2)
        sigma = np.maximum((1 - SMOOTH) * sigma + SMOOTH * spread, SIGMA_MIN)
        mean = new_mean
        row = {
            "generation": gen,
            "best": float(fit[order[0]]),
            "median": float(np.median(fit)),
            "best_vs_heuristic": float(m[order[0], 0]),
            "sigma": float(sigma.mean()),
        }
        history.append(row)
        if checkpoint is not None:
            _save_checkpoint(checkpoint, key, mean, sigma, history)
        if progress is not None:
            progress(row)
    final = from_unit(mean)
    v = margins_parallel([final], [base], deal_seed(seed, VALIDATION), validation_deals, n_jobs)
    validation = {
        "opponent": "heuristic",
        "deals": validation_deals,
        "deal_seed": f"numpy SeedSequence([{seed}, 0])",
        "mean_diff": round(float(v[0, 0]), 1),
    }
    settings = {
        "seed": seed,
        "generations": generations,
        "deals": deals,
        "popsize": popsize,
        "optimizer": "diagonal cross-entropy ES (analysis.training), antithetic samples",
        "pool": ["heuristic (defaults)", "the optimizer's current mean"],
        "jobs": n_jobs,
        "wall_seconds": round(time.time() - start, 1),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }
    params = {n: float(v) for n, v in zip(names, final, strict=True)}
    return TrainResult(params, history, validation, settings)


def _save_checkpoint(path, key: dict, mean, sigma, history) -> None:
    """Write the optimizer's state atomically (a crash mid-write leaves the previous one)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    state = key | {"mean": mean.tolist(), "sigma": sigma.tolist(), "history": history}
    tmp.write_text(json.dumps(state), encoding="utf-8")
    os.replace(tmp, path)


def _load_checkpoint(path, key: dict):
    """(mean, sigma, history) of a checkpoint of the same run, None if there is none; a
    checkpoint of another run (seed, deals, popsize, parameters) is refused, not overwritten."""
    path = Path(path)
    if not path.exists():
        return None
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
        mean = np.array(state["mean"], dtype=np.float64)
        sigma = np.array(state["sigma"], dtype=np.float64)
        history = list(state["history"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CanastaError(
            f"checkpoint {path}: unreadable ({exc}); delete it to start over"
        ) from None
    other = {k: state.get(k) for k in key}
    if other != key:
        raise CanastaError(
            f"checkpoint {path} belongs to another run ({other}, not {key}); delete it or "
            "give other settings"
        )
    return mean, sigma, history


def data_file(result: TrainResult, command: str) -> dict:
    """The content of ``sim/policies/data/strong.json`` for a tuning result: the evaluator
    switched off with zero weights (``analysis.distill.with_evaluator`` adds them)."""
    from sim.policies.strong import DATA_VERSION, LATER_NAMES, load_data
    from sim.policies.strong_features import FEATURE_NAMES

    shipped = load_data()["parameters"]
    chase = shipped["chase_distance"]  # set by measurement, not tuned
    later = {name: shipped[name] for name in LATER_NAMES}  # (memory_weight: the same)
    return {
        "version": DATA_VERSION,
        "parameters": result.parameters | {"evaluator": 0.0, "chase_distance": chase} | later,
        "evaluator": {"features": list(FEATURE_NAMES), "weights": [0.0] * len(FEATURE_NAMES)},
        "training": {
            **result.settings,
            "command": command,
            "validation": result.validation,
            "history": result.history,
        },
    }
