"""Distilling the search into ``strong``'s evaluator: expert iteration.

Each iteration plays hands of the current ``strong`` against a pool of opponents (the
heuristic, strong's base without the evaluator, and the current strong itself, a third of
the hands each) and, at a share of its decisions where it lists candidate moves
(``sim.policies.strong.strong_candidates``: the draw with a takeable pile, the discard, the
start of a sevens/aces/wild meld), values every candidate with a determinized search whose
rollouts play each team as it plays: the current strong for its own team, that hand's opponent
for the other (``sim.policies.strong_train``). A search that modelled every player as strong
would teach it to exploit strong alone; against the pool it learns what holds against each.
The evaluator's weights are then fitted to all the data so far (DAgger: the new policy's own
positions join the old ones) by ridge regression of the candidates' value advantages: for a
decision with candidates ``0..n-1`` (0 the base move) and search values ``v_c``,
``w @ (phi_c - phi_0)`` is fitted to ``v_c - v_0``. The next iteration plays and searches with
the new weights, so its targets are the values under better play.

Everything is deterministic from the seed: iteration ``i``'s hands are ``run_key((seed, i))``,
its labels ``run_key((seed, i, 1))``; the split into chunks and jobs changes no number
(tested). A finished iteration's rows are kept in the checkpoint folder, so an interrupted
run goes on from the next one.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.errors import CanastaError

__all__ = [
    "advantages",
    "choices",
    "distill",
    "fit",
    "frozen_row",
    "label",
    "pool",
    "validate",
    "validate_v2",
    "with_evaluator",
]

SAMPLES = 24  #: the teacher's determinizations per decision (expert's default)
ROLLOUTS = 2  #: its stock orders per determinization
RIDGE = 1.0  #: ridge penalty, in units of one decision's squared feature difference
CHUNK = 25  #: hands per work item (a few seconds each)


@dataclass
class Labels:
    """Labelled candidates: features ``x[row]``, search value ``v[row]`` (mean hand margin of
    the deciding team, points), integer columns ``meta[row]`` (``ROW_COLUMNS``)."""

    x: np.ndarray
    v: np.ndarray
    meta: np.ndarray
    seconds: float = 0.0  #: wall time of the labelling (kept with the rows in a checkpoint)

    @property
    def decisions(self) -> int:
        from sim.policies.strong_train import R_CANDIDATE

        return int((self.meta[:, R_CANDIDATE] == 0).sum())

    @staticmethod
    def concat(parts: list[Labels], width: int | None = None) -> Labels:
        """The rows of ``parts`` in turn (none: an empty set of ``width`` features, strong's
        by default)."""
        from sim.policies.strong_features import N_FEATURES
        from sim.policies.strong_train import N_ROW_COLUMNS

        if not parts:
            return Labels(
                np.zeros((0, width or N_FEATURES)),
                np.zeros(0),
                np.zeros((0, N_ROW_COLUMNS), np.int64),
            )
        return Labels(
            np.concatenate([p.x for p in parts]),
            np.concatenate([p.v for p in parts]),
            np.concatenate([p.meta for p in parts]),
        )

    def save(self, path: Path) -> None:
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(tmp, x=self.x, v=self.v, meta=self.meta, seconds=self.seconds)
        os.replace(tmp, path)

    @staticmethod
    def load(path: Path) -> Labels:
        with np.load(path) as z:
            seconds = float(z["seconds"]) if "seconds" in z else 0.0
            return Labels(z["x"], z["v"], z["meta"], seconds)


def pool(policy: np.ndarray) -> np.ndarray:
    """The opponents of a distillation round, rows of strong parameter arrays: the heuristic
    (strong's kernel at its neutral values), the base (``policy`` with the evaluator off) and
    ``policy`` itself; hand ``h`` meets row ``h % 3``. For strong_v2's evaluator
    (``evaluator=2``) the second row is the frozen reference ``strong_2026_12`` instead (its
    weights, the tail padded with zeros): the policy must hold against what it replaces."""
    from sim.policies.strong import NEUTRAL, S_EVALUATOR
    from sim.policies.strong_v2_features import EVALUATOR_V2

    policy = np.asarray(policy, dtype=np.float64)
    heuristic = np.zeros_like(policy)
    heuristic[: len(NEUTRAL)] = list(NEUTRAL.values())
    if policy[S_EVALUATOR] >= EVALUATOR_V2:
        base = frozen_row(len(policy))
    else:
        base = policy.copy()
        base[S_EVALUATOR] = 0.0
    return np.ascontiguousarray(np.vstack([heuristic, base, policy]))


def frozen_row(length: int) -> np.ndarray:
    """The frozen reference ``strong_2026_12`` as a strong parameter array of ``length``
    (its named parameters and evaluator weights, then zeros)."""
    from sim.policies.strong import FROZEN_FILE, NEUTRAL, load_data, strong_weights

    params = load_data(source=FROZEN_FILE)["parameters"]
    row = np.zeros(length)
    named = [float(params[n]) for n in NEUTRAL]
    weights = strong_weights(FROZEN_FILE)
    row[: len(named)] = named
    row[len(named) : len(named) + len(weights)] = weights
    return row


def _width(policy) -> int:
    """The features a row of ``policy``'s decisions holds: strong_v2's when its evaluator is 2,
    else strong's (``policy`` None: strong's)."""
    from sim.policies.strong import S_EVALUATOR
    from sim.policies.strong_features import N_FEATURES
    from sim.policies.strong_v2_features import EVALUATOR_V2, N_FEATURES_V2

    if policy is not None and policy[S_EVALUATOR] >= EVALUATOR_V2:
        return N_FEATURES_V2
    return N_FEATURES


def label_chunk(key, label_key, start, stop, policy, opponents, p_label, samples, rollouts):
    """The labelled rows of hands ``start..stop-1`` (one process)."""
    from sim.policies.strong_train import (
        N_ROW_COLUMNS,
        ROWS_PER_HAND,
        ROWS_PER_HAND_V2,
        label_hands_kernel,
    )
    from sim.ruleset import Ruleset

    rules = np.ascontiguousarray(Ruleset().to_array())
    width = _width(policy)
    room = (stop - start) * (ROWS_PER_HAND_V2 if width != _width(None) else ROWS_PER_HAND)
    x = np.zeros((room, width))
    v = np.zeros(room)
    meta = np.zeros((room, N_ROW_COLUMNS), dtype=np.int64)
    rows = label_hands_kernel(
        key,
        label_key,
        start,
        stop,
        policy,
        opponents,
        int(samples),
        int(rollouts),
        rules,
        float(p_label),
        x,
        v,
        meta,
    )
    if rows < 0:  # pragma: no cover (ROWS_PER_HAND is ten times a hand's decisions)
        raise CanastaError(f"hands {start}..{stop - 1}: more labelled rows than room")
    return Labels(x[:rows].copy(), v[:rows].copy(), meta[:rows].copy())


def label(
    policy: np.ndarray,
    hands: int,
    seed,
    p_label: float,
    n_jobs: int = 1,
    samples: int = SAMPLES,
    rollouts: int = ROLLOUTS,
    chunk: int = CHUNK,
    progress: Callable[[int], None] | None = None,
) -> Labels:
    """Rows of ``hands`` hands of strong ``policy`` (its full parameter array, weights
    included) against the ``pool`` of opponents, labelled by a search whose rollouts play each
    team as it plays; the same for any ``n_jobs`` or ``chunk``. ``seed``: a seed or a tuple of
    ints (hands ``run_key(seed)``, labels ``run_key((*seed, 1))``). ``progress(hands_done)``
    after each chunk."""
    from sim.rng import run_key

    seq = tuple(seed) if isinstance(seed, tuple | list) else (int(seed),)
    key = run_key(np.random.SeedSequence(list(seq)))
    label_key = run_key(np.random.SeedSequence([*seq, 1]))
    policy = np.ascontiguousarray(policy, dtype=np.float64)
    opponents = pool(policy)
    args = (opponents, p_label, samples, rollouts)
    spans = [(s, min(s + chunk, hands)) for s in range(0, hands, chunk)]
    if n_jobs == 1:
        parts = []
        for a, b in spans:
            parts.append(label_chunk(key, label_key, a, b, policy, *args))
            if progress is not None:
                progress(b - a)
        return Labels.concat(parts)
    from joblib import Parallel, delayed

    out = Parallel(n_jobs=n_jobs, return_as="generator")(
        delayed(label_chunk)(key, label_key, a, b, policy, *args) for a, b in spans
    )
    parts = []
    for (a, b), part in zip(spans, out, strict=True):
        parts.append(part)
        if progress is not None:
            progress(b - a)
    return Labels.concat(parts)


def advantages(data: Labels):
    """Per candidate other than a decision's first: (``phi_c - phi_0``, ``v_c - v_0``, the
    decision's kind). Rows of a decision are consecutive, candidate 0 first."""
    from sim.policies.strong_train import R_CANDIDATE, R_KIND

    c = data.meta[:, R_CANDIDATE]
    first = np.flatnonzero(c == 0)
    owner = np.repeat(first, np.diff(np.append(first, len(c))))  # each row's first row
    rest = c > 0
    dx = data.x[rest] - data.x[owner[rest]]
    dy = data.v[rest] - data.v[owner[rest]]
    return dx, dy, data.meta[rest, R_KIND]


def fit(data: Labels, ridge: float = RIDGE) -> np.ndarray:
    """Ridge regression of the candidates' advantages on their feature differences: the
    evaluator's weights (``FEATURE_TABLE`` order). ``ridge`` is scaled by the number of
    decisions' worth of rows, so it means the same for any amount of data."""
    dx, dy, _ = advantages(data)
    if len(dy) == 0:
        raise CanastaError("no labelled decision with two candidates to fit")
    a = dx.T @ dx + ridge * np.eye(dx.shape[1])
    return np.linalg.solve(a, dx.T @ dy)


def choices(weights: np.ndarray, data: Labels) -> np.ndarray:
    """For each decision (its first row's index), the candidate the evaluator plays: the
    highest score, ties to the first (as ``strong_decide``)."""
    from sim.policies.strong_train import R_CANDIDATE

    c = data.meta[:, R_CANDIDATE]
    first = np.flatnonzero(c == 0)
    s = data.x @ weights
    ends = np.append(first[1:], len(c))
    return np.array([a + int(np.argmax(s[a:b])) for a, b in zip(first, ends, strict=True)])


def offline_gain(weights: np.ndarray, data: Labels) -> dict:
    """What the evaluator's choices are worth by the search's values of held-out decisions:
    mean (chosen minus the base move) per decision, with its standard error, the share of
    decisions where it leaves the base move, by kind and in all."""
    from sim.policies.strong_features import DECISION_KINDS
    from sim.policies.strong_train import R_CANDIDATE, R_KIND
    from sim.policies.strong_v2_features import DECISION_KINDS_V2, N_FEATURES_V2

    kinds = DECISION_KINDS_V2 if data.x.shape[1] == N_FEATURES_V2 else DECISION_KINDS
    first = np.flatnonzero(data.meta[:, R_CANDIDATE] == 0)
    pick = choices(weights, data)
    gain = data.v[pick] - data.v[first]
    kind = data.meta[first, R_KIND]
    out = {}
    for k, name in [(None, "all"), *enumerate(kinds)]:
        m = np.ones(len(first), bool) if k is None else kind == k
        g = gain[m]
        out[name] = {
            "decisions": int(m.sum()),
            "gain": float(g.mean()) if len(g) else 0.0,
            "se": float(g.std(ddof=1) / np.sqrt(len(g))) if len(g) > 1 else 0.0,
            "changed": float((pick[m] != first[m]).mean()) if len(g) else 0.0,
        }
    return out


@dataclass
class DistillResult:
    weights: np.ndarray
    history: list[dict] = field(default_factory=list)
    settings: dict = field(default_factory=dict)


def distill(
    base: np.ndarray,
    seed: int = 0,
    iterations: int = 3,
    hands: int = 2000,
    p_label: float = 1.0,
    n_jobs: int = 1,
    ridge: float = RIDGE,
    samples: int = SAMPLES,
    rollouts: int = ROLLOUTS,
    checkpoint: str | Path | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    evaluator: int = 1,
    round_done: Callable[[int, np.ndarray], None] | None = None,
) -> DistillResult:
    """Expert iteration from ``base`` (strong's named parameters, evaluator switched on by the
    caller's array; its weights are replaced): see the module. ``checkpoint``: a folder where
    each finished iteration's rows and weights are kept; a rerun with the same settings goes
    on from the next iteration. ``progress(stage, done, total)``. ``evaluator``: 1 fits
    strong's (from zero weights), 2 strong_v2's (every legal discard and opening now or
    waiting, from the frozen reference's weights; its pool holds ``strong_2026_12``).
    ``round_done(iteration, policy)`` after each fit, with the policy's full array."""
    from sim.policies.strong import N_STRONG, S_EVALUATOR
    from sim.policies.strong_features import N_FEATURES
    from sim.policies.strong_v2_features import N_FEATURES_V2

    start = time.time()
    named = np.asarray(base, dtype=np.float64)[:N_STRONG].copy()
    named[S_EVALUATOR] = float(evaluator)
    if evaluator == 2:  # strong_v2: from the frozen reference's weights, the extras at zero
        weights = frozen_row(N_STRONG + N_FEATURES_V2)[N_STRONG:]
    else:
        weights = np.zeros(N_FEATURES)
    settings = {
        "seed": seed,
        "iterations": iterations,
        "hands": hands,
        "p_label": p_label,
        "ridge": ridge,
        "samples": samples,
        "rollouts": rollouts,
        **({"evaluator": evaluator} if evaluator != 1 else {}),
    }
    folder = Path(checkpoint) if checkpoint is not None else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        key = {k: v for k, v in settings.items() if k != "iterations"}  # a longer run goes on
        _check_settings(folder, key | {"base": named.tolist()})
    parts: list[Labels] = []
    history: list[dict] = []
    for it in range(iterations):
        policy = np.concatenate([named, weights])
        rows_file = folder / f"iteration{it}.npz" if folder is not None else None
        if rows_file is not None and rows_file.exists():
            data = Labels.load(rows_file)
        else:

            def step(done, it=it):
                if progress is not None:
                    progress(f"iteration {it + 1}/{iterations}", done, hands)

            t0 = time.time()
            data = label(
                policy, hands, (seed, it), p_label, n_jobs, samples, rollouts, progress=step
            )
            data.seconds = round(time.time() - t0, 1)
            if rows_file is not None:
                data.save(rows_file)
        held_out = offline_gain(weights, data) if it > 0 else None
        parts.append(data)
        weights = fit(Labels.concat(parts), ridge)
        if round_done is not None:
            round_done(it, np.concatenate([named, weights]))
        row = {
            "iteration": it,
            "decisions": data.decisions,
            "rows": len(data.v),
            "label_seconds": data.seconds,
            "previous_weights_on_new_data": held_out,
        }
        history.append(row)
    settings["wall_seconds"] = round(time.time() - start, 1)  # of this run (a resumed one: less)
    return DistillResult(weights, history, settings)


def _check_settings(folder: Path, settings: dict) -> None:
    """A checkpoint folder belongs to one run's settings; another run's is refused."""
    path = folder / "settings.json"
    if path.exists():
        saved = json.loads(path.read_text(encoding="utf-8"))
        if saved != settings:
            raise CanastaError(
                f"checkpoint {folder} belongs to another run ({saved}); delete it or give "
                "other settings"
            )
    else:
        path.write_text(json.dumps(settings), encoding="utf-8")


def _margins_over(policy, second: np.ndarray, second_name: str, seed, deals, n_jobs) -> dict:
    """``policy``'s mean margin, points a hand, over the heuristic and over ``second`` on fresh
    duplicate deals (``analysis.training.deal_seed(seed, VALIDATION)``)."""
    from analysis.training import VALIDATION, deal_seed, heuristic_defaults, margins_parallel

    m = margins_parallel(
        [np.asarray(policy, np.float64)],
        [heuristic_defaults(), second],
        deal_seed(seed, VALIDATION),
        deals,
        n_jobs,
    )
    return {
        "deals": deals,
        "deal_seed": f"numpy SeedSequence([{seed}, 0])",
        "over_heuristic": round(float(m[0, 0]), 1),
        second_name: round(float(m[0, 1]), 1),
    }


def validate(policy: np.ndarray, seed: int, deals: int, n_jobs: int = 1) -> dict:
    """The distilled ``policy`` (strong's full array) on fresh duplicate deals: its mean
    margin, points a hand, over the heuristic and over its own base (the evaluator off)."""
    from sim.policies.strong import S_EVALUATOR

    base = np.array(policy, dtype=np.float64)
    base[S_EVALUATOR] = 0.0
    return _margins_over(policy, base, "over_base", seed, deals, n_jobs)


def validate_v2(policy: np.ndarray, seed: int, deals: int, n_jobs: int = 1) -> dict:
    """strong_v2 ``policy`` (its full array) on fresh duplicate deals (as ``validate``'s): its
    mean margin, points a hand, over the heuristic and over the frozen reference."""
    row = frozen_row(len(policy))
    return _margins_over(policy, row, "over_strong_2026_12", seed, deals, n_jobs)


def with_evaluator(
    data: dict, result: DistillResult, validation: dict, command: str, evaluator: int = 1
) -> dict:
    """A data file (``sim/policies/data/strong.json``'s layout) with the evaluator switched on
    (``evaluator``: 1 strong's, 2 strong_v2's) and its weights and distillation record added;
    the tuned parameters are kept."""
    from sim.policies.strong_features import FEATURE_NAMES
    from sim.policies.strong_v2_features import FEATURE_NAMES_V2

    out = json.loads(json.dumps(data))  # a deep copy
    out["parameters"]["evaluator"] = float(evaluator)
    out["evaluator"] = {
        "features": list(FEATURE_NAMES_V2 if evaluator == 2 else FEATURE_NAMES),
        "weights": [round(float(w), 6) for w in result.weights],
        "training": {
            **result.settings,
            "method": "expert iteration: search values of candidate moves, ridge regression "
            "of their advantages on feature differences (analysis.distill)",
            "command": command,
            "validation": validation,
            "history": result.history,
        },
    }
    return out
