"""First numbers of the modern game: figures of played hands and games of strong play.

From the hands the decision experiments sample their positions from (``analysis.decisions``:
the strongest fast policy against itself, one :func:`analysis.decisions.hand_summary` a hand)
and from whole games to the target (``sim.simulate_games``):

- :func:`first_numbers`: one table, a row per figure — the hand score (a team's points in a
  hand: mean, quartiles), the share of team-hands paying each penalty, canastas of each kind
  made per team-hand, special hands made per 1,000 hands, hands per game and minutes per game
  (at ``MINUTES_PER_HAND`` minutes a hand of club play). Each row: estimate, 95% interval, n, the
  unit and how the interval was made.
- :func:`first_pickup`: claim G's statistic, the share of hands won (more points in the hand) by
  the team that took the pile first, by the pile's size then; each row tested against one half
  (normal test, p-value adjusted with the report's decisions, ``analysis.decisions.tables``).

The two teams of a hand are not independent, so a mean over team-hands takes its interval over
hands (the mean of the hand's two values); quartiles take theirs from resampling hands
(``REPS`` draws, fixed seed).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import intervals as iv
from analysis import multiple

__all__ = ["first_numbers", "first_pickup"]

MINUTES_PER_HAND = 16  #: club play, the issue's figure
REPS = 400  #: bootstrap draws for the quartiles' intervals
PILE_BINS = ((0, 5, "0–5"), (6, 10, "6–10"), (11, 999, "11+"))
KINDS = ("natural", "mixed", "sevens", "aces", "wild")
PENALTIES = (
    ("hand_penalties", "a sevens or aces hand penalty (SCORE-4)"),
    ("incomplete_melds", "an incomplete sevens or aces meld (SCORE-2)"),
    ("cards_in_hand", "cards left in hand (SCORE-5)"),
)
COLUMNS = ("group", "figure", "estimate", "ci_low", "ci_high", "n", "unit", "interval")


def _row(group, figure, e: iv.Estimate, unit: str, interval: str | None = None) -> dict:
    return {
        "group": group,
        "figure": figure,
        "estimate": e.estimate,
        "ci_low": e.ci_low,
        "ci_high": e.ci_high,
        "n": e.n,
        "unit": unit,
        "interval": interval or e.interval,
    }


def _team_mean(hands: pd.DataFrame, col: str) -> iv.Estimate:
    """Mean over team-hands, its interval over hands (the hand's two teams averaged)."""
    per_hand = (hands[f"team0_{col}"] + hands[f"team1_{col}"]) / 2
    e = iv.mean(per_hand)
    return iv.Estimate(e.estimate, e.ci_low, e.ci_high, 2 * len(hands), e.interval, e.se)


def _quartiles(hands: pd.DataFrame, seed: int) -> list[iv.Estimate]:
    both = np.stack([hands["team0_score"].to_numpy(), hands["team1_score"].to_numpy()], axis=1)
    qs = (0.25, 0.5, 0.75)
    est = np.quantile(both.ravel(), qs)
    rng = np.random.default_rng([seed, 34])
    draws = np.array(
        [np.quantile(both[rng.integers(0, len(both), len(both))].ravel(), qs) for _ in range(REPS)]
    )
    lo, hi = np.quantile(draws, [0.025, 0.975], axis=0)
    how = f"95% bootstrap interval over hands ({REPS} draws)"
    return [
        iv.Estimate(float(e), float(a), float(b), both.size, how)
        for e, a, b in zip(est, lo, hi, strict=True)
    ]


def first_numbers(
    hands: pd.DataFrame, games: pd.DataFrame | None = None, seed: int = 0
) -> pd.DataFrame:
    """The first-numbers table from hand summaries (and whole games, if given)."""
    rows = []
    n = len(hands)
    if n >= 2:
        rows.append(
            _row(
                "hand score",
                "mean points of a team in a hand",
                _team_mean(hands, "score"),
                "points",
            )
        )
        for name, e in zip(
            ("lower quartile", "median", "upper quartile"), _quartiles(hands, seed), strict=True
        ):
            rows.append(_row("hand score", f"{name} of a team's points", e, "points"))
        for col, what in PENALTIES:
            k = int((hands[f"team0_{col}"] < 0).sum() + (hands[f"team1_{col}"] < 0).sum())
            e = iv.proportion(k, 2 * n)
            rows.append(
                _row(
                    "penalties",
                    f"team-hands paying {what}",
                    e,
                    "share",
                    f"{e.interval} over team-hands (the two teams of a hand "
                    "are taken as independent)",
                )
            )
        for kind in KINDS:
            rows.append(
                _row(
                    "canastas",
                    f"{kind} canastas made per team-hand",
                    _team_mean(hands, f"canasta_{kind}"),
                    "canastas",
                )
            )
        from sim.encoding import SPECIAL_NAMES

        specials = hands["special"].astype(str)
        for name in (*[x for x in SPECIAL_NAMES if x], "any"):
            k = int((specials == name).sum()) if name != "any" else int((specials != "").sum())
            e = iv.proportion(k, n)
            e = iv.Estimate(1000 * e.estimate, 1000 * e.ci_low, 1000 * e.ci_high, n, e.interval)
            what = "any special hand" if name == "any" else name.replace("_", " ")
            rows.append(_row("special hands", f"{what} made per 1,000 hands", e, "per 1,000 hands"))
    if games is not None and len(games) >= 2:
        e = iv.mean(games["hands"])
        rows.append(_row("games", "hands per game to the target", e, "hands"))
        m = MINUTES_PER_HAND
        rows.append(
            _row(
                "games",
                f"minutes per game at {m} minutes a hand",
                iv.Estimate(m * e.estimate, m * e.ci_low, m * e.ci_high, e.n, e.interval),
                "minutes",
            )
        )
    return pd.DataFrame(rows, columns=list(COLUMNS))


def first_pickup(hands: pd.DataFrame) -> pd.DataFrame:
    """Claim G: the share of hands won by the team of the first pickup, all hands with a
    pickup and by the pile's size then, with the normal test against 1/2 (``p``; adjusted
    with the decision tables)."""
    took = hands[hands["first_take_team"] >= 0]
    t = took["first_take_team"].to_numpy()
    s0, s1 = took["team0_score"].to_numpy(), took["team1_score"].to_numpy()
    mine = np.where(t == 0, s0, s1)
    theirs = np.where(t == 0, s1, s0)
    won = (mine > theirs).astype(float) + 0.5 * (mine == theirs)
    size = took["first_take_size"].to_numpy()
    rows = []
    parts = [("all", "all hands with a pickup", np.ones(len(took), dtype=bool))]
    parts += [("pile_size", lab, (size >= lo) & (size <= hi)) for lo, hi, lab in PILE_BINS]
    for grouping, label, sel in parts:
        e = iv.mean(won[sel])
        rows.append(
            {
                "grouping": grouping,
                "situation": label,
                "hands": int(sel.sum()),
                "estimate": e.estimate,
                "ci_low": e.ci_low,
                "ci_high": e.ci_high,
                "se": e.se,
                "net": float(np.mean(mine[sel] - theirs[sel])) if sel.any() else np.nan,
            }
        )
    out = pd.DataFrame(rows)
    out["p"] = multiple.normal_p(out["estimate"] - 0.5, out["se"])
    out.loc[out["hands"] < 5, "p"] = np.nan
    out.attrs["interval"] = (
        f"{iv.statement(iv.NORMAL)} over hands (a tie counts 1/2); tested against 1/2"
    )
    return out
