"""Fair policy comparison with duplicate deals: paired differences with 95% intervals.

A hand's deal depends only on (seed, hand index) (``sim.rng``), so two runs with the same seed
deal the same cards. :func:`duplicate` plays every deal twice: A as team 0 against B as team 1,
then the policies swapped, so A's players sit in the other partnership's seats and hold the
cards B held (the seats rotate round the table by one). Luck of the deal cancels in the paired
difference; what remains is the policies.

Per deal d (two hands):

* ``diff_d`` = A's points per hand minus B's points per hand, averaged over the two hands;
  ``mean_diff`` is its mean over deals, with the normal interval of a mean;
* ``win_d`` = the share of the deal's two hands A's team won (a tie counts 1/2); ``win_rate_a``
  is its mean over deals. The two hands of a deal are not independent trials, so the interval
  is again the normal interval of a mean over deals (not a Wilson interval over hands).

:func:`round_robin` compares every pair of several policies; :func:`sweep` compares one
policy parameter's values against a fixed opponent, as a curve with intervals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analysis import intervals as iv
from analysis.schema import require
from sim.errors import CanastaError

__all__ = ["Comparison", "duplicate", "duplicate_from_records", "round_robin", "sweep"]

SUMMARY_KEYS = (
    "policy_a",
    "policy_b",
    "deals",
    "mean_diff",
    "ci_low",
    "ci_high",
    "se",
    "win_rate_a",
    "win_ci_low",
    "win_ci_high",
    "seed",
    "interval",
)


def resolve_simulate(simulate=None) -> Callable:
    """How a comparison plays its runs: ``run(n, policies, seed, n_jobs, ruleset)``.

    ``simulate`` is the engine (``analysis.backend.Engine``; None: ``SimEngine``, the package's),
    whose ``simulate`` takes the runner's ``chunk_size``: with several jobs it gets chunks sized
    so every job has work (``sim.jobs.chunk_size_for``: 2,000 slow deals are not one chunk on
    one worker); the rows do not depend on it. A plain function is called as
    ``simulate(n, policies=(A, B), seed=S, n_jobs=J[, ruleset=R])`` and nothing else (no
    runner options: it is not asked what it takes)."""
    from analysis.backend import Engine, as_engine

    if simulate is not None and not isinstance(simulate, Engine):
        if not callable(simulate):
            raise CanastaError(f"simulate: {simulate!r} is neither an engine nor a function")
        fn = simulate

        def call(n, policies, seed=0, n_jobs=1, ruleset=None):
            kw = {"seed": seed, "n_jobs": n_jobs}
            if ruleset is not None:
                kw["ruleset"] = ruleset
            return fn(n, policies=tuple(policies), **kw)

        return call
    engine = as_engine(simulate)

    def run(n, policies, seed=0, n_jobs=1, ruleset=None):
        chunk = None
        if n_jobs != 1:
            from sim.jobs import chunk_size_for

            chunk = chunk_size_for(n, n_jobs)
        return engine.simulate(
            n, tuple(policies), seed=seed, n_jobs=n_jobs, ruleset=ruleset, chunk_size=chunk
        )

    return run


def _win(diff: np.ndarray) -> np.ndarray:
    return np.where(diff > 0, 1.0, np.where(diff == 0, 0.5, 0.0))


@dataclass
class Comparison:
    """Result of a duplicate comparison: ``summary`` (JSON-ready) and ``per_deal`` table."""

    summary: dict
    per_deal: pd.DataFrame = field(repr=False)

    def __getitem__(self, key):
        return self.summary[key]


def duplicate_from_records(
    ab: pd.DataFrame,
    ba: pd.DataFrame,
    policy_a: str,
    policy_b: str,
    seed: int | None = None,
    confidence: float = iv.CONFIDENCE,
) -> Comparison:
    """Pair run ``ab`` (A as team 0) with run ``ba`` (B as team 0) on ``hand_id``."""
    cols = ["hand_id", "policy_team0", "policy_team1", "score_team0", "score_team1"]
    require(ab, cols, "a duplicate comparison")
    require(ba, cols, "a duplicate comparison")
    # the engine may spell a policy spec its own way: check the swap, not the spelling
    if ab["policy_team0"].nunique() > 1 or ab["policy_team1"].nunique() > 1:
        raise CanastaError("each run of a duplicate comparison must seat one policy per team")
    if not (
        set(ab["policy_team0"]) == set(ba["policy_team1"])
        and set(ab["policy_team1"]) == set(ba["policy_team0"])
    ):
        raise CanastaError(
            f"the second run must seat {policy_b} as team 0 and {policy_a} as team 1 "
            "(the first run's policies swapped)"
        )
    m = ab[cols].merge(ba[cols], on="hand_id", suffixes=("_ab", "_ba"), validate="one_to_one")
    if len(m) != len(ab) or len(m) != len(ba):
        raise CanastaError("the two runs of a duplicate comparison hold different deals")
    a1, b1 = m["score_team0_ab"].to_numpy(float), m["score_team1_ab"].to_numpy(float)
    b2, a2 = m["score_team0_ba"].to_numpy(float), m["score_team1_ba"].to_numpy(float)
    per_deal = pd.DataFrame(
        {
            "hand_id": m["hand_id"].to_numpy(),
            "a_points": (a1 + a2) / 2.0,
            "b_points": (b1 + b2) / 2.0,
            "win_a": (_win(a1 - b1) + _win(a2 - b2)) / 2.0,
        }
    )
    per_deal["diff"] = per_deal["a_points"] - per_deal["b_points"]
    d = iv.paired_difference(per_deal["a_points"], per_deal["b_points"], confidence)
    w = iv.mean(per_deal["win_a"], confidence)
    summary = {
        "policy_a": policy_a,
        "policy_b": policy_b,
        "deals": len(per_deal),
        "mean_diff": d.estimate,
        "ci_low": d.ci_low,
        "ci_high": d.ci_high,
        "se": d.se,
        "win_rate_a": w.estimate,
        "win_ci_low": w.ci_low,
        "win_ci_high": w.ci_high,
        "seed": seed,
        "interval": d.interval + " over deals (paired differences; win rate likewise)",
    }
    return Comparison(summary, per_deal)


def duplicate(
    policy_a: str,
    policy_b: str,
    n: int,
    seed: int = 0,
    n_jobs: int = 1,
    ruleset=None,
    simulate: Callable | None = None,
    confidence: float = iv.CONFIDENCE,
) -> Comparison:
    """Play ``n`` deals twice (A vs B, then B vs A, same seed) and pair them; see the module."""
    from sim.limits import MAX_HANDS, check_count, check_jobs, check_seed

    n = check_count("n (deals)", n, MAX_HANDS, low=2)
    seed = check_seed(seed)
    check_jobs(n_jobs)
    run = resolve_simulate(simulate)
    ab = run(n, policies=(policy_a, policy_b), seed=seed, n_jobs=n_jobs, ruleset=ruleset)
    ba = run(n, policies=(policy_b, policy_a), seed=seed, n_jobs=n_jobs, ruleset=ruleset)
    return duplicate_from_records(ab, ba, policy_a, policy_b, seed, confidence)


def round_robin(policies: Sequence[str], n: int, **options) -> pd.DataFrame:
    """Every pair of ``policies`` compared by :func:`duplicate` on the same deals
    (``options``: its ``seed``, ``n_jobs``, ``ruleset``, ``simulate`` and ``confidence``).

    One row per pair (a before b in the given order); ``round_robin_matrix`` pivots it.
    """
    if len(set(policies)) != len(policies) or len(policies) < 2:
        raise CanastaError("a round robin needs two or more distinct policies")
    rows = []
    for i, a in enumerate(policies):
        for b in policies[i + 1 :]:
            c = duplicate(a, b, n, **options)
            rows.append(c.summary)
    out = pd.DataFrame(rows)
    out.attrs["interval"] = rows[0]["interval"]
    return out


def round_robin_matrix(table: pd.DataFrame, value: str = "mean_diff") -> pd.DataFrame:
    """Square table: row policy minus column policy (antisymmetric for ``mean_diff``;
    ``1 - x`` mirrored for ``win_rate_a``)."""
    names = list(dict.fromkeys([*table["policy_a"], *table["policy_b"]]))
    mat = pd.DataFrame(np.nan, index=names, columns=names)
    for _, r in table.iterrows():
        mat.loc[r["policy_a"], r["policy_b"]] = r[value]
        mirror = 1.0 - r[value] if value == "win_rate_a" else -r[value]
        mat.loc[r["policy_b"], r["policy_a"]] = mirror
    return mat


def parameter_spec(policy: str, param: str, value) -> str:
    """A policy with one parameter set, in the engine's ``name:param=value`` notation."""
    return f"{policy}:{param}={value}"


def sweep(
    policy: str, param: str, values: Sequence, opponent: str, n: int, **options
) -> pd.DataFrame:
    """``policy`` with ``param`` set to each of ``values``, each compared against ``opponent``
    on the same deals (``options``: :func:`duplicate`'s): a curve of mean_diff (and win
    rate) with intervals."""
    rows = []
    for v in values:
        c = duplicate(parameter_spec(policy, param, v), opponent, n, **options)
        rows.append({"param": param, "value": v, **c.summary})
    out = pd.DataFrame(rows)
    out.attrs["interval"] = rows[0]["interval"] if rows else ""
    return out
