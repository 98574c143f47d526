"""Synthetic played-hand records with known generating probabilities (for tests and demos).

The rows follow the record schema (``analysis.schema``) but are not played: each quantity is
drawn from a stated distribution, so an analysis of them has a known right answer:

* a team with policy P declares a special hand with probability ``p_special[P]`` (only one team
  per hand; team 0 is drawn first), on a turn uniform in 1..``special_turns``;
* each team starts a sevens / aces meld with probability 0.6, holding h ~ uniform{3,4,5,6} of the
  rank, on a turn uniform in 0..39; it completes it with probability ``complete[m](h)``
  (``SEVENS_COMPLETE`` / ``ACES_COMPLETE``), whatever the turn or the stock;
* an aces meld is mixed (MELD-7) with probability 0.2; a wild meld is started with probability
  0.3 and completed with probability ``WILD_COMPLETE``;
* each team has ``Binomial(2, PENALTY_P)`` players paying each in-hand penalty (SCORE-4);
* the score items follow the rules' values for these events, plus ``skill[P]`` and normal noise.

Simplification: a hand that ends in a special hand is over before any meld is started, so both
teams' meld and penalty fields are empty in it (only the declaring team's award is non-zero).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from sim.catalogue import TOURNAMENT
from sim.encoding import N_TEAMS, SCORE_ITEMS, SPECIAL_NAMES
from sim.ruleset import Ruleset
from sim.scoring import (
    GOING_OUT,
    HELD_SEVENS_ACES_PENALTY,
    MIXED_CANASTA,
    SEVENS_ACES_CANASTA,
    WILD_CANASTA,
)

__all__ = []

START_P = 0.6  #: probability a team starts a sevens (and, apart, an aces) meld
HELD = (3, 4, 5, 6)  #: the counts held when starting, equally likely
SEVENS_COMPLETE = {3: 0.15, 4: 0.30, 5: 0.45, 6: 0.60}  #: completion probability by count held
ACES_COMPLETE = {3: 0.20, 4: 0.30, 5: 0.40, 6: 0.50}  #: the same for aces
WILD_START_P = 0.3  #: probability a team starts a wild meld
WILD_COMPLETE = 0.5  #: completion probability of a wild meld
MIXED_ACES_P = 0.2  #: probability an aces meld is mixed (MELD-7)
PENALTY_P = 0.05  #: probability each player pays each in-hand penalty
NATURAL_BONUS = SEVENS_ACES_CANASTA  #: SCORE-2 sevens/aces canasta and incomplete penalty
WILD_BONUS = WILD_PENALTY = WILD_CANASTA  #: SCORE-3 (the common case)
HAND_PENALTY = HELD_SEVENS_ACES_PENALTY  #: SCORE-4


def synthetic_records(
    n: int,
    seed: int = 0,
    policies: tuple[str, str] = ("heuristic", "random"),
    p_special: Mapping[str, float] | None = None,
    skill: Mapping[str, float] | None = None,
    special_turns: int = 12,
    noise: float = 300.0,
) -> pd.DataFrame:
    """``n`` rows of schema-shaped records drawn as the module docstring states."""
    rng = np.random.default_rng(seed)
    p_special = dict(p_special or {})
    skill = dict(skill or {})
    cols: dict[str, np.ndarray] = {
        "hand_id": np.arange(n, dtype=np.int64),
        "policy_team0": np.full(n, policies[0], dtype=object),
        "policy_team1": np.full(n, policies[1], dtype=object),
        "first_player": np.arange(n, dtype=np.int64) % 4,
    }
    declared = np.full(n, -1)
    for t in range(N_TEAMS):
        hit = (rng.random(n) < p_special.get(policies[t], 0.0)) & (declared < 0)
        declared[hit] = t
    special_code = rng.integers(1, len(SPECIAL_NAMES), size=n)
    special_turn = rng.integers(1, special_turns + 1, size=n)
    turns = np.where(declared >= 0, special_turn, rng.integers(40, 70, size=n))
    cols["turns"] = turns
    ended_out = rng.random(n) < 0.7
    cols["end_reason"] = np.where(declared >= 0, "special", np.where(ended_out, "out", "stock"))
    cols["out_team"] = np.where((declared < 0) & ended_out, rng.integers(0, 2, size=n), -1)
    cols["special_team"] = declared
    cols["special_hand"] = np.where(
        declared >= 0, np.asarray(SPECIAL_NAMES, dtype=object)[special_code], ""
    )
    awards = np.array([0, *(h.award for h in TOURNAMENT)], dtype=np.int64)  # SPECIAL-3..6
    awards[-1] = Ruleset().garbage_award  # SPECIAL-6 under the tournament rules
    for t in range(N_TEAMS):
        items = {k: np.zeros(n, dtype=np.int64) for k in SCORE_ITEMS}
        played = declared < 0
        for meld, table in (("sevens", SEVENS_COMPLETE), ("aces", ACES_COMPLETE)):
            started = played & (rng.random(n) < START_P)
            held = rng.choice(HELD, size=n)
            p = np.vectorize(table.get)(held)
            done = started & (rng.random(n) < p)
            turn = rng.integers(0, 40, size=n)
            cols[f"team{t}_{meld}_started_turn"] = np.where(started, turn, -1)
            cols[f"team{t}_{meld}_completed"] = done.astype(np.int64)
            cols[f"team{t}_{meld}_started_held"] = np.where(started, held, 0)
            cols[f"team{t}_{meld}_started_stock"] = np.where(started, np.maximum(0, 60 - turn), -1)
            if meld == "aces":
                mixed = started & (rng.random(n) < MIXED_ACES_P)
                cols[f"team{t}_aces_mixed"] = mixed.astype(np.int64)
                natural_done, natural_open = done & ~mixed, started & ~done & ~mixed
                items["canasta_bonus"] += NATURAL_BONUS * natural_done + MIXED_CANASTA * (
                    done & mixed
                )
                items["incomplete_melds"] -= NATURAL_BONUS * natural_open
            else:
                items["canasta_bonus"] += NATURAL_BONUS * done
                items["incomplete_melds"] -= NATURAL_BONUS * (started & ~done)
        wild = played & (rng.random(n) < WILD_START_P)
        wild_done = wild & (rng.random(n) < WILD_COMPLETE)
        wturn = rng.integers(0, 40, size=n)
        cols[f"team{t}_wild_started_turn"] = np.where(wild, wturn, -1)
        cols[f"team{t}_wild_completed"] = wild_done.astype(np.int64)
        cols[f"team{t}_wild_started_stock"] = np.where(wild, np.maximum(0, 60 - wturn), -1)
        items["canasta_bonus"] += WILD_BONUS * wild_done
        items["incomplete_melds"] -= WILD_PENALTY * (wild & ~wild_done)
        for meld in ("sevens", "aces"):
            pen = np.where(played, rng.binomial(2, PENALTY_P, size=n), 0)
            if meld == "aces":  # SCORE-4 Choice: no aces penalty for a mixed aces team
                pen = np.where(cols[f"team{t}_aces_mixed"] == 1, 0, pen)
            cols[f"team{t}_{meld}_penalty_players"] = pen
            items["hand_penalties"] -= HAND_PENALTY * pen
        base = np.round(rng.normal(skill.get(policies[t], 0.0), noise, size=n)).astype(np.int64)
        items["melded_cards"] += np.where(played, base, 0)
        items["going_out"] += GOING_OUT * (cols["out_team"] == t)
        items["special_hand"] += np.where(declared == t, awards[special_code], 0)
        for k in SCORE_ITEMS:
            cols[f"team{t}_{k}"] = items[k]
        cols[f"score_team{t}"] = sum(items.values())
    return pd.DataFrame(cols)
