"""Build the strategy report: run (or load) the simulations, call the analysis functions.

No simulation logic and no statistics live here: the runs come from the engine
(an ``analysis.backend.Engine``: by default ``SimEngine``, ``sim.simulate``) or from run directories
(``sim.load``), the dealt odds from ``analysis.special.dealt_odds``, and every table from an
``analysis`` function. This module only decides *which* runs the report needs and keeps each
analysis table with the settings that made it, for the figures, the HTML and the narrative.

The runs: for every pair (A, B) of the chosen policies, ``hands`` deals played twice with the
same seed, A as team 0 then B as team 0 (a duplicate pair, ``analysis.compare``). Pair k uses
seed ``seed + k``, so different pairs play different deals and a policy's team-hands from two
pairs are independent. The per-policy sections (special hands, meld risk, scores) read all runs
together (hand ids offset per run so they stay unique).

Memory stays flat in the number of hands: the engine writes each run chunk by chunk
into a temporary run directory (``out=``, the runner's streaming), and each chunk, read back with
only the columns the tables need, feeds ``analysis.stream.Tally`` (per-group integer sums) and
is dropped; a run keeps only a few compact columns per hand (``COMPACT_COLUMNS``: the duplicate
comparison pairs deals, the score figure draws every team-hand). ``--from DIR`` reads its run
directories the same way. A fake engine (tests) writes its runs as run directories too
(``analysis.backend.RecordsEngine``): there is one report path.
"""

from __future__ import annotations

import datetime as _dt
import itertools
import json
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import metadata as _md

import numpy as np
import pandas as pd

from reports.defaults import (
    DEFAULT_DEALS,
    DEFAULT_DECISION_DEALS,
    DEFAULT_EQUITY_HANDS,
    DEFAULT_EQUITY_RESOLUTION,
    DEFAULT_GAMES,
    DEFAULT_HANDS,
    DEFAULT_POSITIONS,
    default_policies,
)
from sim.errors import CanastaError
from sim.jobs import chunk_size_for

__all__ = ["Run", "Settings", "build", "comparison", "game_tables", "plan"]


@dataclass(frozen=True)
class Settings:
    """What the user asked for (the CLI's options)."""

    hands: int = DEFAULT_HANDS
    deals: int = DEFAULT_DEALS
    policies: tuple[str, ...] = field(default_factory=default_policies)
    seed: int = 0
    jobs: int = 1  #: the CLI passes every core (sim.jobs.default_jobs); the tables are the same
    from_dirs: tuple[str, ...] = ()
    rules: str | None = None  #: TOML path of a house variant
    quiet: bool = False
    positions: int = DEFAULT_POSITIONS  #: per decision experiment; 0 leaves them out
    decision_deals: int = DEFAULT_DECISION_DEALS  #: paired deals per position and choice
    games: int = DEFAULT_GAMES  #: whole games for the First numbers; 0 leaves them out
    preview: bool = False  #: ``--quick``: the title says it is a preview
    #: the Game score section's equity table: hands per pair of opening minima (0 leaves the
    #: section out) and the grid's resolution in points
    equity_hands: int = DEFAULT_EQUITY_HANDS
    equity_resolution: int = DEFAULT_EQUITY_RESOLUTION

    def __post_init__(self):
        for name in ("hands", "deals", "positions", "decision_deals", "games"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 0:
                raise CanastaError(f"--{name} {v!r}: need a non-negative integer")
        if not self.from_dirs and self.hands < 2:
            raise CanastaError(f"--hands {self.hands}: need at least 2 deals per run")
        if self.positions and self.decision_deals < 2:
            raise CanastaError(f"--decision-deals {self.decision_deals}: need at least 2")
        if self.equity_hands and not 100 <= self.equity_hands <= 10**8:
            raise CanastaError(
                f"--equity-hands {self.equity_hands}: 0 (no Game score "
                "section) or 100 to 100,000,000"
            )
        if self.equity_resolution not in (5, 10, 20, 25, 50, 100):
            raise CanastaError(
                f"--equity-resolution {self.equity_resolution}: must divide "
                "100 (5, 10, 20, 25, 50 or 100)"
            )
        if self.jobs < 1:
            raise CanastaError(f"--jobs {self.jobs}: need at least 1")
        if self.seed < 0:
            raise CanastaError(f"--seed {self.seed}: need a non-negative integer")
        if not self.from_dirs:
            if not self.policies:
                raise CanastaError("--policies: give at least one policy name")
            if len(set(self.policies)) != len(self.policies):
                raise CanastaError(f"--policies {','.join(self.policies)}: a name is repeated")


@dataclass
class Run:
    """One simulation run: who sat where, with which seed, and its records."""

    policies: tuple[str, str]
    seed: int | None
    #: the run's records: every column on the in-memory path, ``COMPACT_COLUMNS`` when streamed
    records: pd.DataFrame = field(repr=False)
    source: str  #: 'simulated' or the run directory
    ruleset: dict | None = None  #: the ruleset stored with a loaded run


@dataclass
class Results:
    """Everything the report shows, computed once."""

    settings: Settings
    ruleset: object
    rules_text: str | None
    runs: list[Run]
    records: pd.DataFrame  #: all runs together, hand ids made unique
    tables: dict[str, pd.DataFrame]
    notes: dict[str, str]  #: table key -> why it is missing (e.g. records lack a column)
    meta: dict
    sampled: dict | None = None  #: dealt-odds hits and deals per hand, as sampled

    def table(self, key: str) -> pd.DataFrame | None:
        return self.tables.get(key)


def plan(policies: Sequence[str], seed: int) -> list[tuple[tuple[str, str], int]]:
    """The runs the report needs: each pair both ways with seed ``seed + k``; one policy alone
    plays itself."""
    if len(policies) == 1:
        return [((policies[0], policies[0]), seed)]
    out = []
    for k, (a, b) in enumerate(itertools.combinations(policies, 2)):
        out += [((a, b), seed + k), ((b, a), seed + k)]
    return out


def _progress(total: int, quiet: bool):
    from tqdm.auto import tqdm

    return tqdm(
        total=total,
        unit="hand",
        unit_scale=True,
        disable=quiet or not sys.stderr.isatty(),
        dynamic_ncols=True,
        leave=False,
    )


def _say(show: bool, text: str) -> None:
    if show:
        print(f"canasta report: {text}", file=sys.stderr, flush=True)


def _versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for pkg in ("canasta-sim", "numpy", "numba", "pandas", "matplotlib", "pyarrow", "joblib"):
        try:
            out[pkg] = _md.version(pkg)
        except _md.PackageNotFoundError:
            out[pkg] = "not installed"
    return out


def runs_ruleset(runs: Sequence[Run], asked):
    """The ruleset the loaded runs were played under; refuse a mix, or a --rules file that
    disagrees with them."""
    from sim.ruleset import as_ruleset

    found = {json.dumps(r.ruleset, sort_keys=True) for r in runs if r.ruleset is not None}
    if len(found) > 1:
        raise CanastaError("the run directories were played under different rulesets")
    if not found:
        return as_ruleset(asked)
    ruleset = as_ruleset(json.loads(found.pop()))
    if asked is not None and as_ruleset(asked) != ruleset:
        raise CanastaError(
            f"--rules {asked} differs from the ruleset the runs were played under; "
            "drop --rules or simulate again with it"
        )
    return ruleset


def combine(runs: Sequence[Run]) -> pd.DataFrame:
    """All runs as one table; hand ids offset per run (a deal id repeats across runs) and the
    run index kept in column ``run``."""
    parts, offset = [], 0
    for i, r in enumerate(runs):
        rec = r.records.copy()
        rec["deal_id"] = rec["hand_id"]
        rec["hand_id"] = rec["hand_id"].to_numpy() + offset
        rec["run"] = i
        offset = int(rec["hand_id"].max()) + 1 if len(rec) else offset
        parts.append(rec)
    return pd.concat(parts, ignore_index=True)


#: what a streamed run keeps per hand: the columns of ``analysis.schema.team_view`` (the score
#: figure) and of the duplicate comparison
COMPACT_COLUMNS = (
    "hand_id",
    "policy_team0",
    "policy_team1",
    "first_player",
    "turns",
    "end_reason",
    "out_team",
    "special_hand",
    "special_team",
    "score_team0",
    "score_team1",
)


def compact(parts: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """One run's chunks reduced to ``COMPACT_COLUMNS``: names as categories, small integers as
    int32 (about 30 bytes a hand instead of the record's several hundred)."""
    if not parts:
        return pd.DataFrame(columns=[c for c in COMPACT_COLUMNS])
    cols = [c for c in COMPACT_COLUMNS if c in parts[0].columns]
    rec = pd.concat([p[cols] for p in parts], ignore_index=True)
    for c in cols:
        kind = rec[c].dtype.kind if isinstance(rec[c].dtype, np.dtype) else None
        if kind in ("i", "u") and c != "hand_id":
            rec[c] = rec[c].astype(np.int32)
        elif kind not in ("i", "u", "f", "b"):
            rec[c] = rec[c].astype("category")
    return rec


def _pair_of(rec: pd.DataFrame, where: str) -> tuple[str, str] | None:
    if len(rec) == 0:
        return None
    if not {"policy_team0", "policy_team1"} <= set(rec.columns):
        raise CanastaError(f"run directory {where} holds no played hands (a dealt-odds run?)")
    pairs = rec[["policy_team0", "policy_team1"]].drop_duplicates()
    if len(pairs) != 1:
        raise CanastaError(f"run directory {where} mixes several policy pairs")
    return (str(pairs.iloc[0, 0]), str(pairs.iloc[0, 1]))


def stream_run(chunks, tally, where: str) -> tuple[pd.DataFrame, tuple[str, str] | None]:
    """Feed a run's chunks to ``tally``; its compact records and its policy pair."""
    kept, pair = [], None
    for chunk in chunks:
        p = _pair_of(chunk, where)
        if p is not None and pair is not None and p != pair:
            raise CanastaError(f"run directory {where} mixes several policy pairs")
        pair = pair or p
        tally.add(chunk)
        kept.append(compact([chunk]))
        del chunk
    return compact(kept), pair


def stream_dirs(dirs: Sequence[str], tally) -> list[Run]:
    """Runs from ``canasta simulate --out DIR`` directories, chunk by chunk: each directory's
    chunks, only the columns the report reads, fed to ``tally`` as they are read; each run's
    seed and ruleset from its metadata."""
    from analysis.stream import REPORT_COLUMNS, run_chunks_on_disk
    from sim.store import read_meta

    runs = []
    for d in dirs:
        settings = read_meta(d).get("settings", {})
        rec, pair = stream_run(run_chunks_on_disk(d, REPORT_COLUMNS), tally, str(d))
        if pair is None:
            raise CanastaError(f"run directory {d} holds no hands yet")
        seed = settings.get("seed")
        seed = None if seed is None else int(seed)
        runs.append(Run(pair, seed, rec, str(d), settings.get("ruleset")))
    return runs


def duplicate_pairs(runs: Sequence[Run]) -> list[tuple[Run, Run]]:
    """Runs that mirror each other (A-B and B-A, same seed, same number of deals)."""
    out, used = [], set()
    for i, r in enumerate(runs):
        if i in used or r.policies[0] == r.policies[1]:
            continue
        for j in range(i + 1, len(runs)):
            s = runs[j]
            if j in used or s.policies != r.policies[::-1] or s.seed != r.seed:
                continue
            if len(s.records) == len(r.records):
                out.append((r, s))
                used |= {i, j}
                break
    return out


def streamed_order() -> tuple[str, ...]:
    """The record tables in the order the in-memory path computes them."""
    melds = [f"{m}_by_{by}" for m in ("sevens", "aces") for by in ("turn", "held")]
    return (
        "special_frequency",
        "special_by_turn",
        *melds,
        "penalties",
        "mixed_aces",
        "wild_by_turn",
    )


def comparison(runs: Sequence[Run], tables: dict, notes: dict) -> None:
    """The duplicate comparison of every mirrored pair of runs, into ``tables`` (or a note)."""
    from analysis.compare import duplicate_from_records

    pairs = duplicate_pairs(runs)
    if pairs:
        rows = [
            duplicate_from_records(ab.records, ba.records, *ab.policies, seed=ab.seed).summary
            for ab, ba in pairs
        ]
        tables["comparison"] = pd.DataFrame(rows)
        tables["comparison"].attrs["interval"] = rows[0]["interval"]
    else:
        notes["comparison"] = (
            "no duplicate pair among the runs (a run A–B and its mirror B–A with the same seed)"
        )


def analyse(results_runs: list[Run], ruleset, sampled, settings: Settings, tally=None):
    """Every analysis table of the report from the runs and the dealt-odds sample.

    With ``tally`` (an ``analysis.stream.Tally`` fed with every run's records) the record tables
    come from its per-group sums and the runs need only ``COMPACT_COLUMNS``; without it they
    are computed from all the records in memory."""
    from analysis import intervals as iv
    from analysis import risk, special
    from analysis.schema import matchups, team_view

    if ruleset is None:  # the defaults (the tournament list, SPECIAL-3..6)
        from sim.ruleset import Ruleset

        ruleset = Ruleset()
    tables: dict[str, pd.DataFrame] = {}
    notes: dict[str, str] = {}

    def attempt(key, fn):
        try:
            tables[key] = fn()
        except CanastaError as exc:
            notes[key] = str(exc)

    attempt("dealt_odds", lambda: special.dealt_odds(sampled=sampled, ruleset=ruleset))
    records = combine(results_runs)
    if tally is not None:
        streamed, streamed_notes = tally.tables()
        tables |= streamed
        notes |= streamed_notes
        comparison(results_runs, tables, notes)
        order = ("dealt_odds", *streamed_order(), "comparison", "scores", "net", "end_reasons")
        return records, {k: tables[k] for k in order if k in tables}, notes
    names = ruleset.special_names[1:]  # SPECIAL-7..9: the hands of the list in force
    attempt("special_frequency", lambda: special.special_frequency(records, hands=names))
    attempt("special_by_turn", lambda: special.special_by_turn(records))
    for meld in ("sevens", "aces"):
        attempt(f"{meld}_by_turn", lambda m=meld: risk.meld_risk(records, m, by="turn"))
        attempt(f"{meld}_by_held", lambda m=meld: risk.meld_risk(records, m, by="held"))
    attempt("penalties", lambda: risk.penalties(records))
    attempt("mixed_aces", lambda: risk.mixed_aces(records))
    attempt("wild_by_turn", lambda: risk.meld_risk(records, "wild", by="turn"))

    comparison(results_runs, tables, notes)
    view = team_view(records)
    tables["scores"] = iv.mean_table(view, "score", by="policy")
    tables["net"] = iv.mean_table(view, "net", by="policy")
    ends = records.assign(matchup=matchups(records))
    parts = []
    for reason in sorted(ends["end_reason"].astype(str).unique()):
        t = iv.proportion_table(ends.assign(hit=ends["end_reason"] == reason), "hit", by="matchup")
        t.insert(1, "end_reason", reason)
        parts.append(t)
    tables["end_reasons"] = pd.concat(parts, ignore_index=True)
    return records, tables, notes


def _games(settings: Settings, engine, ruleset, policy, show: bool) -> pd.DataFrame | None:
    """Whole games to the target of the strongest fast policy against itself (hands a game)."""
    from sim.policies.registry import strongest_fast

    name = policy or strongest_fast()
    _say(show, f"first numbers: {settings.games:,} games of {name} against itself")
    return engine.games(
        settings.games, (name, name), seed=settings.seed, ruleset=ruleset, n_jobs=settings.jobs
    )


def _announce(show: bool, i: int, planned, pair, hands: int) -> None:
    _say(
        show,
        f"run {i}/{len(planned)}: {pair[0]} (team 0) vs "
        f"{pair[1]} (team 1), seed {planned[i - 1][1]}, {hands:,} hands",
    )


def _simulate_streamed(settings, planned, engine, ruleset, chunk, show, tally, runs) -> None:
    """Each run into a temporary run directory (the engine writes it chunk by chunk), read
    back chunk by chunk into ``tally`` and the run's compact records, then deleted."""
    import shutil
    import tempfile
    from pathlib import Path

    from analysis.stream import REPORT_COLUMNS, run_chunks_on_disk

    with tempfile.TemporaryDirectory(prefix="canasta-report-") as tmp:
        for i, (pair, seed) in enumerate(planned, start=1):
            _announce(show, i, planned, pair, settings.hands)
            out = Path(tmp) / f"run-{i}"
            path = engine.simulate(
                settings.hands,
                pair,
                seed=seed,
                n_jobs=settings.jobs,
                ruleset=ruleset,
                chunk_size=chunk,
                out=str(out),
                progress=show,
            )
            chunks = run_chunks_on_disk(path, REPORT_COLUMNS)
            rec, names = stream_run(chunks, tally, "simulated")
            shutil.rmtree(path, ignore_errors=True)
            # the names as the engine wrote them (parameters normalised)
            runs.append(Run(names or pair, seed, rec, "simulated"))


#: the Game score section's tables (``game_chance`` is drawn, not shown as a table)
GAME_TABLES = (
    "game_chance",
    "game_tiers",
    "game_points",
    "game_first",
    "game_decisions",
    "game_claim_j",
)
GAME_STEP = 250  #: points between the heat map's scores (rounded up to the grid's resolution)


def game_tables(table, decided, ruleset, tables: dict, notes: dict) -> None:
    """The Game score section's tables from an equity table (``analysis.equity``;
    None: the engine has none) and the decision experiments' rows (None: not run)."""
    from analysis import claims, decisions_game
    from analysis import equity_numbers as en

    if table is None:
        for key in GAME_TABLES:
            notes[key] = "this engine has no equity table"
        return
    step = -(-GAME_STEP // table.resolution) * table.resolution  # a multiple of the grid's
    chance = table.frame(step=step)
    tables["game_chance"] = chance[chance["first"] == 0].reset_index(drop=True)
    tables["game_chance"].attrs |= {
        "ruleset": table.meta.get("ruleset_label", ""),
        "tiers": list(table.meta.get("tiers", [])),
    }
    costs = en.tier_costs(table)
    if len(costs):
        tables["game_tiers"] = costs
    else:
        notes["game_tiers"] = "OPEN-1 by the hand's number: no opening tier changes with the score"
    tables["game_points"] = en.point_values(table)
    tables["game_first"] = en.first_advantage(table)
    if decided is None:
        for key in ("game_decisions", "game_claim_j"):
            notes[key] = "the decision experiments were not run (--positions 0)"
        return
    try:
        cells = decisions_game.by_score(decided, table, ruleset)
        tables["game_decisions"] = decisions_game.score_changes(cells)
    except CanastaError as exc:
        notes["game_decisions"] = str(exc)
        notes["game_claim_j"] = str(exc)
        return
    if claims.J_EXPERIMENT not in set(decided["experiment"]):
        notes["game_claim_j"] = f"the experiment {claims.J_EXPERIMENT} found no position"
        return
    j = decisions_game.by_score(decided, table, ruleset, experiments=[claims.J_EXPERIMENT])
    _, summary = claims.claim_j_by_score(j)
    tables["game_claim_j"] = summary.pop("regions")
    tables["game_claim_j"].attrs |= summary


def build(settings: Settings, engine=None) -> Results:
    """Run or load what the report needs and compute every table.

    ``engine`` (``analysis.backend.Engine``; default ``SimEngine``, the package's) plays the
    runs, samples the dealt odds, runs the decision experiments and whole games; tests inject
    a fake (``analysis.backend.RecordsEngine``), and the report names its source. Every run
    goes through a run directory and is read back chunk by chunk (flat memory, see the module
    docstring): one path for the engine, a fake and ``--from DIR``.
    """
    from analysis.backend import as_engine
    from analysis.stream import Tally
    from sim.ruleset import as_ruleset

    engine = as_engine(engine)
    started = time.perf_counter()
    ruleset = as_ruleset(settings.rules)
    rules_text = None
    if settings.rules is not None:
        from pathlib import Path

        path = Path(settings.rules)  # a preset's name has no file (sim.ruleset.as_ruleset)
        rules_text = path.read_text() if path.exists() else None

    tally = Tally()
    if settings.from_dirs:  # chunk by chunk, the needed columns only
        runs = stream_dirs(settings.from_dirs, tally)
        ruleset = runs_ruleset(runs, settings.rules)
        planned = []
    else:
        planned = plan(settings.policies, settings.seed)
        runs = []
    sources = {}
    sampled = None
    show = not settings.quiet and sys.stderr.isatty()
    if settings.deals > 0:
        _say(show, f"dealt odds: sampling {settings.deals:,} deals")
        t0 = time.perf_counter()
        sampled = engine.sample_odds(
            settings.deals, seed=settings.seed, n_jobs=settings.jobs, ruleset=ruleset, progress=show
        )
        if sampled is None:
            sources["dealt_odds"] = "exact only: this engine has no dealt-odds sampler"
        else:
            sources["dealt_odds_seconds"] = time.perf_counter() - t0
    if planned:
        # chunks small enough that every job gets work and the bar moves (1/20 of a run at
        # most), never more than the runner's default; the rows do not depend on them
        chunk = min(chunk_size_for(settings.hands, settings.jobs), max(1_000, settings.hands // 20))
        t0 = time.perf_counter()
        _simulate_streamed(settings, planned, engine, ruleset, chunk, show, tally, runs)
        sources["simulation_seconds"] = time.perf_counter() - t0
    decided = None
    if settings.positions > 0:
        t0 = time.perf_counter()
        decided = engine.decide(
            settings.positions,
            settings.decision_deals,
            seed=settings.seed,
            ruleset=ruleset,
            progress=(lambda text: _say(show, text)),
            n_jobs=settings.jobs,
        )
        sources["decisions_seconds"] = time.perf_counter() - t0
        sources["decisions"] = {
            k: v for k, v in decided.attrs.items() if k not in ("hands", "specs")
        }
    _say(show, "analysing and drawing")
    records, tables, notes = analyse(runs, ruleset, sampled, settings, tally)
    if decided is not None:
        from analysis import claims, decisions, numbers

        tables |= decisions.tables(decided)
        tables["claims"] = claims.verdicts(tables, decisions.thresholds(decided))
        for exp in decisions.EXPERIMENTS:
            if exp.table not in tables:
                notes[exp.table] = "no position where this decision arose in the sampled hands"
        hands = decided.attrs.get("hands")
        if hands:
            games = None
            if settings.games > 0:
                t0 = time.perf_counter()
                games = _games(settings, engine, ruleset, decided.attrs.get("policy"), show)
                sources["games_seconds"] = time.perf_counter() - t0
            tables["first_numbers"] = numbers.first_numbers(
                pd.DataFrame(hands), games, settings.seed
            )
            tables["first_numbers"].attrs["policy"] = decided.attrs.get("policy", "")
            tables["first_numbers"].attrs["hands"] = len(hands)
            tables["first_numbers"].attrs["games"] = 0 if games is None else len(games)
        else:
            notes["first_numbers"] = "the decision experiments' hands were not recorded"
    else:
        notes["claims"] = "the decision experiments were not run (--positions 0)"
        notes["first_numbers"] = "the decision experiments were not run (--positions 0)"
    if settings.equity_hands > 0:
        t0 = time.perf_counter()
        _say(show, "game score: the equity table (from the cache, or built once and cached)")
        table = engine.equity(
            ruleset=ruleset,
            n=settings.equity_hands,
            resolution=settings.equity_resolution,
            n_jobs=settings.jobs,
        )
        sources["equity_seconds"] = time.perf_counter() - t0
        game_tables(table, decided, ruleset, tables, notes)
    else:
        for key in GAME_TABLES:
            notes[key] = "the Game score section was left out (--equity-hands 0)"
    meta = {
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "versions": _versions(),
        "machine": f"{platform.system()} {platform.machine()}",
        "seconds": time.perf_counter() - started,
        "simulate": engine.source,
        **sources,
    }
    return Results(settings, ruleset, rules_text, runs, records, tables, notes, meta, sampled)
