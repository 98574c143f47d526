"""How the choices of one decision are compared (``analysis.advise``): the race's rule, the
best choice by a measure, paired differences from it, ranks and the decision confidence.

Every function takes, per choice, its per-deal samples of one measure (points for the team,
or the team's chance of winning the game after the hand): choice ``c``'s sample ``i`` comes
from deal ``i``, the same unseen cards and stock order for every choice (paired). A choice
that left the race has fewer samples: the first ``n_c`` deals.

**Decision confidence** (``confidence``): the chance, given the paired samples, that a choice
is the best by the measure, estimated by a paired Poisson bootstrap: each of ``REPLICATES``
replicates weighs deal ``i`` by a Poisson(1) count, the same weight for every choice (so the
deals' common luck cancels, as in a paired difference), each choice's mean is its weighted
mean over the deals it played, and a choice's confidence is the share of replicates in which
its mean is the highest (ties split). Only the choices the race kept to its end share it: one
that left the race did so with its 95% interval wholly below the then best's and its paired
difference excluding 0, and gets 0. The replicates' weights come from the advice's seed, so
the answer repeats.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import intervals as iv
from sim import encoding as E
from sim.errors import CanastaError

__all__: list[str] = []

REPLICATES = 1000  #: paired bootstrap replicates behind a decision confidence


def race_keep(alive: list[int], x: list[np.ndarray]) -> list[int]:
    """The choices kept in the race: all but those whose 95% interval lies wholly below the
    best's and whose paired difference from the best (same deals) excludes 0."""
    means = {c: float(x[c].mean()) for c in alive}
    best = max(alive, key=lambda c: (means[c], -c))
    eb = iv.mean(x[best])
    keep = []
    for c in alive:
        if c == best:
            keep.append(c)
            continue
        e = iv.mean(x[c])
        d = iv.paired_difference(x[c], x[best][: len(x[c])])
        if e.ci_high < eb.ci_low and d.ci_high < 0:
            continue  # NaN bounds (too few deals) compare False: kept
        keep.append(c)
    return keep


def best_of(x: list[np.ndarray]) -> int:
    """The best choice by the measure: the highest mean among the choices played on the most
    deals (those the race kept to its end; a dropped choice's mean rests on fewer deals)."""
    top = max(len(s) for s in x)
    return max((i for i in range(len(x)) if len(x[i]) == top), key=lambda i: (x[i].mean(), -i))


def ranks(x: list[np.ndarray], best: int) -> list[int]:
    """Each choice's rank by the measure: 1 ``best``, then the others the race kept to its
    end by mean, then those it left (on fewer deals) by mean: a choice that left the race
    ranks below every choice that stayed."""
    top = max(len(s) for s in x)
    key = lambda i: (i != best, len(x[i]) < top, -float(x[i].mean()), i)  # noqa: E731
    out = [0] * len(x)
    for r, i in enumerate(sorted(range(len(x)), key=key), 1):
        out[i] = r
    return out


def versus_best(x: list[np.ndarray], best: int) -> list[iv.Estimate]:
    """Each choice's paired difference from ``best`` over the deals both played."""
    out = []
    for s in x:
        m = min(len(s), len(x[best]))
        out.append(iv.paired_difference(s[:m], x[best][:m]))
    return out


def confidence(x: list[np.ndarray], seed: int, replicates: int = REPLICATES) -> np.ndarray:
    """Each choice's decision confidence (module docstring): float[n_choices], summing to 1.
    Only the choices the race kept to its end (the most deals) share it: a choice that left
    the race did so with its 95% interval wholly below the best's, and gets 0."""
    top = max(len(s) for s in x)
    kept = [c for c in range(len(x)) if len(x[c]) == top]
    out = np.zeros(len(x))
    if len(kept) == 1:
        out[kept[0]] = 1.0
        return out
    vals = np.column_stack([x[c] for c in kept])
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0xC0F1]))
    w = rng.poisson(1.0, (replicates, top)).astype(np.float64)
    total = w.sum(axis=1, keepdims=True)
    w = w[total[:, 0] > 0]  # a replicate weighing no deal at all says nothing
    means = (w @ vals) / w.sum(axis=1, keepdims=True)
    scale = max(1.0, float(np.abs(vals).max()))
    hi = means.max(axis=1, keepdims=True)
    tied = means >= hi - 1e-9 * scale  # the same samples on every deal: one best, shared
    out[kept] = (tied / tied.sum(axis=1, keepdims=True)).mean(axis=0)
    return out


def compare(x: list[np.ndarray], seed: int) -> dict:
    """Everything the advice reports of one measure: ``best``, ``rank`` (per choice),
    ``estimate`` (per choice, its mean with interval), ``diff`` (paired, from the best),
    ``confidence`` (per choice)."""
    best = best_of(x)
    return {
        "best": best,
        "rank": ranks(x, best),
        "estimate": [iv.mean(s) for s in x],
        "diff": versus_best(x, best),
        "confidence": confidence(x, seed),
    }


def game_fields(g: dict, i: int) -> dict[str, float]:
    """Choice ``i``'s fields by the chance of winning the game (``Choice.game``) from
    :func:`compare`'s answer ``g``."""
    from analysis.equity import chance_fields

    return {
        **chance_fields(g["estimate"][i], g["diff"][i]),
        "rank": float(g["rank"][i]),
        "best": float(i == g["best"]),
        "confidence": float(g["confidence"][i]),
    }


class GameChance:
    """The fixed team's chance of winning the game after each deal's hand (GAME-1,
    SPECIAL-10), read through an equity table from the position's scores; the hand's first
    player is the seat ``turn`` turns before the fixed one (DEAL-1) and the next hand is
    opened by the other team."""

    def __init__(self, table, rules, pos):
        if table.target != rules.target:
            raise CanastaError(
                f"the equity table is for target {table.target:,}, the rules' is {rules.target:,}"
            )
        if max(pos.scores) >= table.target:
            raise CanastaError(
                f"scores {pos.scores[0]},{pos.scores[1]}: at or above the target "
                f"{table.target:,} the game is over (GAME-1)"
            )
        self.table, self.scores, self.team = table, pos.scores, pos.team
        self.wins = {h.name for h in rules.catalogue if h.wins_game}  # SPECIAL-10
        first = (pos.seat - pos.turn) % E.N_PLAYERS
        self.next_first = 1 - first % E.N_TEAMS

    def of(self, rec: pd.DataFrame) -> np.ndarray:
        from analysis.equity import after_hand

        rec = rec.sort_values("hand_id", kind="stable")
        special = rec["special_hand"].isin(self.wins).to_numpy()
        winner = np.where(special, rec["special_team"].to_numpy(), -1)
        w = after_hand(
            self.table, self.scores, self.next_first, rec["score_team0"], rec["score_team1"], winner
        )
        return w if self.team == 0 else 1 - w
