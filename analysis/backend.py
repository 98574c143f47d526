"""The engine the report and the comparisons run on: one object, injected, which tests fake.

:class:`Engine` is the protocol: what ``reports.build`` and ``analysis.compare`` ask of the
engine, with every argument named, so a reader sees which function runs and a fake states what
it stands in for. :class:`SimEngine` is the real one (``sim.simulate``, the dealt-odds
sampler, the decision experiments, whole games). :class:`RecordsEngine` is the base of fakes:
hands from a function of ``(n, policies, seed, ruleset)``, written to a run directory chunk by
chunk as the runner writes one (``sim.store.RunStore``), so a fake report takes the same
streamed path as the engine's (there is no in-memory report path).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol, runtime_checkable

import pandas as pd

__all__ = ["Engine", "RecordsEngine", "SimEngine", "as_engine"]


@runtime_checkable
class Engine(Protocol):
    """What the report and the comparisons need from the engine."""

    #: where the hands come from, as the report's Methods name it
    source: str

    def simulate(
        self,
        n: int,
        policies: tuple[str, str],
        *,
        seed: int,
        n_jobs: int,
        ruleset,
        chunk_size: int | None = None,
        out: str | None = None,
        progress: bool = False,
    ):
        """``n`` hands of ``policies``: the records (DataFrame), or with ``out`` the path of
        the run directory written there; the rows do not depend on ``n_jobs``/``chunk_size``."""

    def sample_odds(
        self, n_deals: int, *, seed: int, n_jobs: int, ruleset, progress: bool = False
    ) -> dict | None:
        """Dealt special hands: ``{hand: {"hits", "deals"}}`` over ``n_deals`` sampled deals
        (None: this engine has no sampler; the report shows the exact odds only)."""

    def decide(
        self,
        positions: int,
        deals: int,
        *,
        seed: int,
        ruleset,
        progress: Callable[[str], None] | None = None,
        n_jobs: int = 1,
    ) -> pd.DataFrame:
        """The decision experiments' rows (``analysis.decisions.run_experiments``)."""

    def games(
        self, n: int, policies: tuple[str, str], *, seed: int, ruleset, n_jobs: int
    ) -> pd.DataFrame | None:
        """``n`` whole games (a ``hands`` column; None: not available)."""

    def equity(self, *, ruleset, n: int, resolution: int, n_jobs: int):
        """The equity table of ``ruleset`` (``analysis.equity.equity_table``: the strongest
        fast policy against itself, seed 0, read from the cache or built and cached): ``n``
        hands per pair of opening minima, a ``resolution``-point grid (None: not available)."""


class SimEngine:
    """The engine of this package."""

    source = "sim.simulate"

    def simulate(
        self, n, policies, *, seed, n_jobs, ruleset, chunk_size=None, out=None, progress=False
    ):
        import sim

        opts = {} if chunk_size is None else {"chunk_size": chunk_size}
        if out is not None:
            opts["out"] = str(out)
        if progress or out is not None:  # the runner draws a bar only when asked
            opts["progress"] = bool(progress)
        if ruleset is not None:
            opts["ruleset"] = ruleset
        return sim.simulate(n, policies=tuple(policies), seed=seed, n_jobs=n_jobs, **opts)

    def sample_odds(self, n_deals, *, seed, n_jobs, ruleset, progress=False):
        from sim.sampling import sample_dealt_odds

        got = sample_dealt_odds(
            n_deals, seed=seed, n_jobs=n_jobs, ruleset=ruleset, progress=progress
        )
        return got.rows() if hasattr(got, "rows") else got

    def decide(self, positions, deals, *, seed, ruleset, progress=None, n_jobs=1):
        from analysis.decisions import run_experiments

        return run_experiments(
            positions, deals, seed=seed, ruleset=ruleset, progress=progress, n_jobs=n_jobs
        )

    def games(self, n, policies, *, seed, ruleset, n_jobs):
        import sim

        return sim.simulate_games(
            n, policies=tuple(policies), seed=seed, ruleset=ruleset, n_jobs=n_jobs
        )

    def equity(self, *, ruleset, n, resolution, n_jobs):
        from analysis.equity import equity_table

        return equity_table(ruleset, None, n=n, seed=0, n_jobs=n_jobs, resolution=resolution)


def write_run(
    out, records: pd.DataFrame, chunk_size: int | None, seed: int, policies, ruleset=None
) -> Path:
    """``records`` as a run directory at ``out`` (``sim.store``: chunk files and metadata, as
    ``canasta simulate --out`` writes them), in chunks of ``chunk_size`` hands."""
    from sim.ruleset import as_ruleset
    from sim.store import RunStore

    n = len(records)
    size = max(1, int(chunk_size or n or 1))
    settings = {
        "kind": "hands",
        "n_items": max(n, 1),
        "chunk_size": size,
        "seed": seed,
        "policies": list(policies),
        "ruleset": as_ruleset(ruleset).to_dict(),
        "id_column": "hand_id",
    }
    store = RunStore.open(out, settings)
    try:
        for k, start in enumerate(range(0, max(n, 1), size)):
            store.write_chunk(k, records.iloc[start : start + size].reset_index(drop=True))
    finally:
        store.close()
    return Path(out)


class RecordsEngine:
    """A fake engine from functions (tests, examples): ``records(n, policies, seed, ruleset)``
    makes the hands (written to ``out`` like the runner when asked), ``odds`` the dealt-odds
    rows, ``decide`` the decision rows, ``games`` whole games, ``equity(n, ruleset,
    resolution)`` an equity table; a missing one is not available (None), and ``decide``
    then refuses."""

    def __init__(
        self,
        records: Callable,
        odds: Callable | None = None,
        decide: Callable | None = None,
        games: Callable | None = None,
        source: str = "test records",
        equity: Callable | None = None,
    ):
        self._records, self._odds, self._decide, self._games = records, odds, decide, games
        self._equity = equity
        self.source = source
        self.calls: list[tuple] = []  #: (what, arguments) of every call, for tests to read

    def simulate(
        self, n, policies, *, seed, n_jobs, ruleset, chunk_size=None, out=None, progress=False
    ):
        self.calls.append(("simulate", n, tuple(policies), seed, n_jobs, chunk_size))
        rec = self._records(n, tuple(policies), seed, ruleset)
        if out is None:
            return rec
        return write_run(out, rec, chunk_size, seed, policies, ruleset)

    def sample_odds(self, n_deals, *, seed, n_jobs, ruleset, progress=False):
        self.calls.append(("sample_odds", n_deals, seed, n_jobs))
        return None if self._odds is None else self._odds(n_deals, seed, ruleset)

    def decide(self, positions, deals, *, seed, ruleset, progress=None, n_jobs=1):
        from sim.errors import CanastaError

        self.calls.append(("decide", positions, deals, seed, n_jobs))
        if self._decide is None:
            raise CanastaError(f"{self.source}: no decision experiments")
        return self._decide(positions, deals, seed, ruleset)

    def games(self, n, policies, *, seed, ruleset, n_jobs):
        self.calls.append(("games", n, tuple(policies), seed, n_jobs))
        return None if self._games is None else self._games(n, tuple(policies), seed, ruleset)

    def equity(self, *, ruleset, n, resolution, n_jobs):
        self.calls.append(("equity", n, resolution, n_jobs))
        return None if self._equity is None else self._equity(n, ruleset, resolution)


def as_engine(engine: Engine | None, what: str = "engine") -> Engine:
    """``engine``, or the package's :class:`SimEngine` when None; anything else is refused."""
    from sim.errors import CanastaError

    if engine is None:
        return SimEngine()
    if not isinstance(engine, Engine):
        raise CanastaError(
            f"{what}: {engine!r} is not an engine (analysis.backend.Engine: "
            "simulate, sample_odds, decide, games, equity and source)"
        )
    return engine
