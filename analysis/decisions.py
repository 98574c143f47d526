"""Decision experiments: real positions, each choice played forward on the same deals.

The pipeline, a module per job:

1. **Positions** (``analysis.positions``): hands of the strongest fast policy against itself
   (``sim.policies.strongest_fast()``) stepped turn by turn; at the start of every turn the
   position the player faces is kept with the features the experiments condition on; an
   experiment's positions are drawn among them by its spec's filter, or made by a position
   generator from fresh deals (``positions.generate``).
2. **Choices, paired** (``analysis.arms``): each experiment (``EXPERIMENTS``, the spec files of
   the ``experiments`` package: ``analysis.experiment_set``) has two arms, played at each
   position on the same deals; the per-deal difference of the player's team's net points is
   paired.
3. **Situations, intervals** (``analysis.decision_tables``): a situation's estimate is the mean
   over sampled hands with the normal interval over hands, Student's t p-values, adjusted
   together across every row of every table by Holm's step-down method (family-wise error
   rate 5%); thresholds where an effect changes sign.
4. **Rules of thumb** (``analysis.rules_of_thumb``): one sentence per experiment and grouping,
   and one Advice item per decision.

This module runs them (:func:`run_experiments`), makes rows with known effects for tests and
engine-free reports (:func:`synthetic_raw`), and re-exports the names above, so callers import
``analysis.decisions`` alone.

Readings where the issue leaves room: "go out now or keep playing" compares the strongest
policy going out (as it did in the sampled hand) with ``stay_in`` (the going-out meld refused,
a discard instead), over the replayed deals where the policy again went out; "chase a special
hand" is the player's team playing ``special_chaser`` for the rest of the hand against the
team playing the strongest policy, from positions where the team has not opened and the hand
is 1–3 cards from a Straight, Pairs or Garbage (``special_chaser``'s own count).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from analysis.arms import hidden_values, play_arms, play_arms_task, position_seed, script_actions
from analysis.decision_tables import (
    ALPHA,
    CORRECTION,
    MIN_HANDS,
    TABLE_COLUMNS,
    Threshold,
    describe_threshold,
    p_values,
    pooled,
    tables,
    threshold,
    threshold_text,
    thresholds,
    verdicts,
)
from analysis.experiment_set import (
    BY_KEY,
    EXPERIMENTS,
    FEATURES,
    HIDDEN,
    STRONG,
    Experiment,
    Grouping,
    experiments_of,
    resolve,
)
from analysis.positions import (
    Snapshot,
    choose,
    generate_positions,
    hand_summary,
    sample_positions,
    scored,
    snapshot,
)
from analysis.rules_of_thumb import Rule, advice, rule_of_thumb, rules_of_thumb
from sim import encoding as E

__all__ = [
    "ALPHA",
    "BY_KEY",
    "CORRECTION",
    "EXPERIMENTS",
    "FEATURES",
    "MIN_HANDS",
    "STRONG",
    "TABLE_COLUMNS",
    "Experiment",
    "Grouping",
    "Rule",
    "Snapshot",
    "Threshold",
    "advice",
    "choose",
    "describe_threshold",
    "experiment_hands",
    "experiments_of",
    "generate_positions",
    "hand_summary",
    "hidden_values",
    "p_values",
    "play_arms",
    "pooled",
    "position_rows",
    "resolve",
    "rule_of_thumb",
    "rules_of_thumb",
    "run_experiments",
    "scored",
    "script_actions",
    "snapshot",
    "tables",
    "threshold",
    "threshold_text",
    "thresholds",
    "verdicts",
]


def run_experiments(
    positions: int,
    deals: int,
    seed: int = 0,
    ruleset=None,
    policy: str | None = None,
    sample_hands: int | None = None,
    experiments: Sequence[str] | None = None,
    play: Callable | None = None,
    progress: Callable[[str], None] | None = None,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Every experiment at up to ``positions`` positions, ``deals`` paired deals each: one
    row per (experiment, position) with its features, hand and mean paired difference.
    ``n_jobs``: the sampling of positions and the positions' arms in parallel
    (``sim.runner.parallel_map``); every hand and every position has its own seed, so the rows
    are the same for any number."""
    from sim.limits import check_count, check_seed
    from sim.policies.registry import strongest_fast
    from sim.runner import check_jobs, parallel_map

    positions = check_count("positions per experiment", positions, 100_000, low=1)
    deals = check_count("deals per position", deals, 1_000_000, low=2)
    seed = check_seed(seed)
    n_jobs = check_jobs(n_jobs)
    strong = policy or strongest_fast()
    chosen = resolve(experiments) if experiments else list(EXPERIMENTS)
    n_hands = sample_hands or max(100, 6 * positions)
    own = {e.key: experiment_hands(e, positions, sample_hands) for e in chosen}
    total = max([n_hands, *(own[e.key] for e in chosen if not e.generate)])
    if progress:
        progress(f"decision experiments: sampling positions from {total:,} hands of {strong}")
    summaries: list[dict] = []
    snaps = sample_positions(total, seed, strong, ruleset, n_jobs, summaries)
    # hand h is the same hand in any sample: an experiment that needs more hands reads the
    # longer one, every other the first n_hands, as it would have alone
    del summaries[n_hands:]
    rows = []
    for exp in chosen:
        pool = snaps if own[exp.key] == total else [s for s in snaps if s["hand"] < own[exp.key]]
        if exp.generate:  # fresh deals (a balanced draw: from four times as many)
            pool = generate_positions(
                exp, positions * (4 if exp.balance else 1), seed, strong, ruleset
            )
        picked = [scored(s, exp, i) for i, s in enumerate(choose(pool, exp, positions, seed))]
        if progress:
            progress(f"decision experiment {exp.key}: {len(picked)} positions × {deals} deals × 2")
        tasks = [
            (snap, exp, deals, position_seed(seed, exp, i), strong, ruleset, play)
            for i, snap in enumerate(picked)
        ]
        played = zip(picked, parallel_map(play_arms_task, tasks, n_jobs), strict=True)
        for i, (snap, r) in enumerate(played):
            base = {
                "experiment": exp.key,
                "hand": snap["hand"],
                "seat": snap["seat"],
                "position": i,
                **{f: snap[f] for f in FEATURES},
                **dict.fromkeys(HIDDEN, -1),
                **_game_keys(snap),
            }
            rows += position_rows(base, r, exp.hidden)
    cols = [
        "experiment",
        "hand",
        "seat",
        "position",
        *FEATURES,
        *HIDDEN,
        "diff",
        "net_a",
        "net_b",
        "deals",
        "offered",
        "applied",
        "split",
        "info_a",
        "info_b",
        *GAME_KEYS,
        "outcomes",
    ]
    out = pd.DataFrame(rows, columns=cols)
    out.attrs |= {
        "policy": strong,
        "deals": deals,
        "positions": positions,
        "seed": seed,
        "sample_hands": n_hands,
        "experiment_hands": own,
        "specs": {e.key: e for e in chosen},
        "hands": summaries,
    }
    return out


def experiment_hands(exp: Experiment, positions: int, sample_hands: int | None = None) -> int:
    """The sampled hands ``exp``'s positions are drawn from: ``sample_hands`` if given, else
    the run's default (6 a position, at least 100) or, for an experiment whose positions are
    rare, its spec's ``positions.hands_per_position`` (whichever is more)."""
    if sample_hands:
        return sample_hands
    return max(100, 6 * positions, exp.hands_per_position * positions)


def position_rows(base: dict, result: dict, hidden: str) -> list[dict]:
    """The rows of one position: ``base`` (its keys and features) with ``result``
    (``play_arms``'), or a row per value of the ``hidden`` feature the deals hold."""
    split = result.get("split")
    if split is None:
        return [{**base, **result, "split": False}]
    return [
        {**base, hidden: part["value"], **{k: v for k, v in part.items() if k != "value"}}
        | {"split": True}
        for part in split
    ]


#: what a row keeps to be read in game terms (``analysis.decisions_game``): the player's team,
#: the team that played first in the position's hand (DEAL-1), and the game scores the hand
#: was played at (the team's, the opponents'); ``outcomes`` holds each arm's used deals
GAME_KEYS = ("team", "first_team", "score_own", "score_opp")


def _game_keys(snap) -> dict:
    """The row's ``GAME_KEYS`` from a position (its scores as given by ``positions.scored``)."""
    cards = getattr(snap, "cards", None)
    scores = cards[2] if cards is not None else snap["position"].scores
    team = int(snap["team"])
    first = (int(snap["seat"]) - int(snap["turn"])) % E.N_PLAYERS  # the hand's first seat
    return {
        "team": team,
        "first_team": first % E.N_TEAMS,
        "score_own": int(scores[team]),
        "score_opp": int(scores[1 - team]),
    }


def synthetic_raw(
    effects: dict[str, Callable[[dict], float]] | None = None,
    positions: int = 60,
    deals: int = 40,
    sd: float = 400.0,
    seed: int = 0,
    pickup_share: float | None = None,
) -> pd.DataFrame:
    """Rows shaped like :func:`run_experiments`' with a known effect per position
    (``effects[key](features)``, default 0) and normal noise of ``sd`` per deal; with
    ``pickup_share``, hand summaries too (:func:`synthetic_hands`)."""
    rng = np.random.default_rng(seed)
    # the deals' outcomes come from a generator of their own: the other draws stay as they were
    deal_rng = np.random.default_rng([seed, 47])
    effects = effects or {}
    rows = []
    for exp in EXPERIMENTS:
        for i in range(positions):
            f = {
                "turn": int(rng.integers(0, 40)),
                "stock": int(rng.integers(0, 56)),
                "pile": int(rng.integers(1, 20)),
                "sevens": int(rng.integers(3, 7)),
                "aces": int(rng.integers(3, 7)),
                "wilds": int(rng.integers(1, 6)),
                "opened": int(rng.integers(0, 2)),
                "special_distance": int(rng.integers(1, 4)),
                "hand_size": int(rng.integers(2, 16)),
                "opp_opened": int(rng.integers(0, 2)),
                "canastas": int(rng.integers(0, 4)),
                "opp_canastas": int(rng.integers(0, 4)),
                "sevens_pile": int(rng.integers(0, 6)),
                "aces_pile": int(rng.integers(0, 6)),
                "natural_triple": int(rng.integers(0, 2)),
                "natural_six": 1,
                "margin": int(rng.choice([-4000, 0, 4000])),
                "min_meld": int(rng.choice([125, 155, 180])),
            }
            f["wilds"] = 3 + i % 5 if exp.key == "wild" else f["wilds"]
            f["distinct_ranks"] = 7 + i % 6  # no draw: the other features' draws unchanged
            f["sevens_gone"] = f["sevens_pile"] + int(rng.integers(0, 2))
            f["aces_gone"] = f["aces_pile"] + int(rng.integers(0, 2))
            # the features added later: no draw, so the other rows stay as they were
            f["can_open_now"], f["points_in_hand"] = i % 2, 40 + (i * 37) % 300
            f["turn_card_drawn"], f["other_team_opened"] = int(f["stock"] < 9), f["opp_opened"]
            for h in HIDDEN:
                f[h] = i % 3 if h == exp.hidden else -1
            mu = effects.get(exp.key, lambda _f: 0.0)(f)
            d = rng.normal(mu, sd, deals)
            row = {
                "experiment": exp.key,
                "hand": i,
                "seat": i % 4,
                "position": i,
                **f,
                "diff": float(d.mean()),
                "net_a": float(d.mean()),
                "net_b": 0.0,
                "deals": deals,
                "offered": deals,
                "applied": 1.0,
                "split": bool(exp.hidden),
            }
            # each deal's outcome (GAME_KEYS, ``outcomes``): arm B's team scores around 0
            # against the opponents' 0 to 1,000, arm A that plus the deal's difference
            b = np.column_stack(
                [
                    np.round(deal_rng.normal(500, sd, deals), -1),
                    np.round(deal_rng.uniform(0, 1000, deals), -1),
                    np.zeros(deals),
                ]
            )
            a = b.copy()
            a[:, 0] += np.round(d)
            own, opp = max(f["margin"], 0), max(-f["margin"], 0)
            row |= {
                "team": i % 2,
                "first_team": (i // 2) % 2,
                "score_own": own,
                "score_opp": opp,
                "outcomes": np.stack([a, b]).astype(np.int32),
            }
            if exp.information is not None:  # informed: arm A where it knows to, else B
                knows = exp.information.low <= f[exp.hidden] <= exp.information.high
                row |= {
                    "info_a": 0.0 if knows else -row["diff"],
                    "info_b": row["diff"] if knows else 0.0,
                }
            rows.append(row)
    out = pd.DataFrame(rows)
    out.attrs |= {
        "policy": "synthetic",
        "deals": deals,
        "positions": positions,
        "seed": seed,
        "sample_hands": positions,
    }
    if pickup_share is not None:
        out.attrs["hands"] = synthetic_hands(4 * positions, pickup_share, seed)
    return out


def synthetic_hands(n: int, pickup_share: float = 0.5, seed: int = 0) -> list[dict]:
    """Hand summaries shaped like :func:`hand_summary`'s: the team of the first pickup wins the
    hand with probability ``pickup_share``; scores, canastas and penalties drawn at random."""
    rng = np.random.default_rng([seed, 77])
    out = []
    kinds = ("natural", "mixed", "sevens", "aces", "wild")
    for h in range(n):
        first = int(rng.integers(-1, 2))  # -1: nobody took the pile
        win, lose = int(rng.integers(500, 4000)), int(rng.integers(-500, 2000))
        wins = rng.random() < pickup_share
        winner = first if (first >= 0 and wins) else (1 - first if first >= 0 else 0)
        row = {
            "hand": h,
            "turns": int(rng.integers(10, 60)),
            "end_reason": "out",
            "out_team": winner,
            "special": "straight" if rng.random() < 0.01 else "",
            "special_team": -1,
            "first_take_team": first,
            "first_take_size": int(rng.integers(1, 25)) if first >= 0 else 0,
        }
        for t in range(E.N_TEAMS):
            for name in E.SCORE_ITEMS:
                row[f"team{t}_{name}"] = -int(rng.integers(0, 2)) * 100 if "pen" in name else 0
            row[f"team{t}_score"] = win if t == winner else min(lose, win - 1)
            for kind in kinds:
                row[f"team{t}_canasta_{kind}"] = int(rng.integers(0, 3))
        out.append(row)
    return out
