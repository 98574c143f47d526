"""Special hands (SPECIAL-3..9, the list in force): dealt odds (ODDS-1) and hands made in
play, with intervals.

* :func:`dealt_odds` — the exact ODDS-1 probabilities (``sim.odds.exact_odds``) beside a Monte
  Carlo estimate over real deals (``sim.sampler``), each with its Wilson interval, and whether
  the exact value lies inside it.
* :func:`special_frequency` — how often each special hand is declared per team-hand, by policy.
* :func:`special_by_turn` — the cumulative curve: share of team-hands with a declaration by turn t.
* :func:`chasing_gain` / :func:`paired_gain` — what a policy (e.g. ``special_chaser``) gains or
  loses in points per hand against a baseline policy (e.g. ``heuristic``) on the same deals,
  seats and opponents: a paired difference.

Every table carries ``estimate, ci_low, ci_high, n`` and an ``interval`` statement.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from analysis import intervals as iv
from analysis.schema import require, team_view
from sim.encoding import SPECIAL_NAMES
from sim.errors import CanastaError

__all__ = ["dealt_odds", "special_by_turn", "special_frequency"]

HANDS = (*SPECIAL_NAMES[1:], "any")  #: the ODDS-1 events of the default list, in table order


def _sampled_counts(sampled) -> dict[str, tuple[int, int]]:
    """hits and deals per hand from the sampler's output (a DataFrame or a mapping)."""
    if isinstance(sampled, pd.DataFrame):
        frame = sampled.set_index("hand") if "hand" in sampled.columns else sampled
        return {h: (int(r["hits"]), int(r["deals"])) for h, r in frame.iterrows()}
    if hasattr(sampled, "hits") and hasattr(sampled, "deals"):  # sim.sampler.SampledOdds
        return {h: (int(k), int(sampled.deals)) for h, k in sampled.hits.items()}
    if isinstance(sampled, Mapping):
        out = {}
        for h, r in sampled.items():
            get = r.get if isinstance(r, Mapping) else lambda k, r=r: getattr(r, k)
            out[h] = (int(get("hits")), int(get("deals")))
        return out
    raise CanastaError(f"cannot read sampled odds of type {type(sampled).__name__}")


def dealt_odds(
    n_deals: int | None = None,
    seed: int = 0,
    n_jobs: int = 1,
    ruleset=None,
    sampled=None,
    exact: Mapping | None = None,
    confidence: float = iv.CONFIDENCE,
    rel_error: float | None = None,
    max_deals: int | None = None,
) -> pd.DataFrame:
    """ODDS-1 table: one row per special hand of the list in force (in list order) and 'any'.

    Columns ``hand, exact, one_in, hits, deals, estimate, ci_low, ci_high, n, exact_inside,
    interval``. ``exact`` defaults to ``sim.odds.exact_odds(ruleset)``; the Monte Carlo part
    comes from ``sampled`` (hits/deals per hand) or, when ``n_deals`` is given, from
    ``sim.sampling.sample_dealt_odds`` (``rel_error``/``max_deals`` passed on); the interval
    is computed here, from hits and deals, like every other interval of ``analysis``.
    """
    if exact is None:
        from sim.odds import exact_odds

        exact = exact_odds(ruleset)
    if sampled is None and n_deals is not None:
        from sim.sampling import sample_dealt_odds

        sampled = sample_dealt_odds(
            n_deals,
            seed=seed,
            n_jobs=n_jobs,
            ruleset=ruleset,
            rel_error=rel_error,
            max_deals=max_deals,
        )
    rows = []
    counts = _sampled_counts(sampled) if sampled is not None else {}
    for h in [*(n for n in exact if n != "any"), "any"]:
        p = float(exact[h])
        row = {"hand": h, "exact": p, "one_in": 1.0 / p if p > 0 else float("inf")}
        if h in counts:
            k, n = counts[h]
            e = iv.proportion(k, n, confidence)
            row |= {"hits": k, "deals": n, "estimate": e.estimate, "ci_low": e.ci_low}
            row |= {"ci_high": e.ci_high, "n": n, "exact_inside": e.ci_low <= p <= e.ci_high}
        rows.append(row)
    out = pd.DataFrame(rows)
    iv.label(out, iv.statement(iv.WILSON, confidence))
    out.attrs["model"] = _odds_model(ruleset)
    return out


def _odds_model(ruleset=None) -> str:
    """ODDS-1's model statement for the special-hand list in force."""
    from sim.odds import model_statement

    return model_statement(ruleset)


def special_frequency(
    records: pd.DataFrame, confidence: float = iv.CONFIDENCE, hands=None
) -> pd.DataFrame:
    """Share of team-hands in which the team declared each special hand, by policy.

    One row per (policy, special_hand) with special_hand in ``hands`` (the names of the list
    in force, e.g. ``Ruleset.special_names[1:]``; default the tournament list's) and 'any';
    ``n`` is the number of team-hands the policy played; Wilson intervals.
    """
    require(records, ["team0_special_hand", "team1_special_hand"], "special-hand frequency")
    view = team_view(records)
    parts = []
    for h in HANDS if hands is None else (*hands, "any"):
        flag = view["declared_special"] & (True if h == "any" else view["special_name"].eq(h))
        t = iv.proportion_table(view.assign(hit=flag), "hit", by="policy", confidence=confidence)
        t.insert(1, "special_hand", h)
        parts.append(t)
    return pd.concat(parts, ignore_index=True).sort_values(
        ["policy", "special_hand"], kind="stable"
    )


def special_by_turn(
    records: pd.DataFrame,
    max_turn: int | None = None,
    confidence: float = iv.CONFIDENCE,
) -> pd.DataFrame:
    """Cumulative curve: share of team-hands with a special hand declared by turn t, by policy.

    ``turns`` counts the hand's turns (all players); a declaration ends the hand at once
    (SPECIAL-1), so its turn is the hand's last. Rows (policy, turn) for turn 1..max_turn.
    """
    require(records, ["team0_special_hand", "team1_special_hand"], "the special-hand curve")
    view = team_view(records)
    if max_turn is None:
        declared_turns = view.loc[view["declared_special"], "turns"]
        max_turn = int(declared_turns.max()) if len(declared_turns) else 1
    turns = np.arange(1, max_turn + 1)
    parts = []
    for policy, g in view.groupby("policy", sort=True):
        when = np.sort(g.loc[g["declared_special"], "turns"].to_numpy())
        hits = np.searchsorted(when, turns, side="right")
        parts.append(
            iv.from_counts(hits, np.full(turns.size, len(g)), confidence, policy=policy, turn=turns)
        )
    return pd.concat(parts, ignore_index=True)


def paired_gain(
    records_x: pd.DataFrame,
    records_y: pd.DataFrame,
    policy_x: str,
    policy_y: str,
    value: str = "score",
    confidence: float = iv.CONFIDENCE,
) -> pd.DataFrame:
    """Points per hand of policy_x minus policy_y on the same deals, seats and opponents.

    ``records_x`` and ``records_y`` are runs with the same seed (so the same deals) in which
    ``policy_x`` (resp. ``policy_y``) sits where the other sat; team-hands are paired on
    (hand_id, team). ``value`` is ``score`` (the team's own points) or ``net`` (minus the
    opponents'). One row, normal interval of the paired differences.
    """
    vx, vy = team_view(records_x), team_view(records_y)
    # a policy facing itself fills both seats of one run: count each seat of a deal once
    vx = vx[vx["policy"] == policy_x].drop_duplicates(["hand_id", "team"])
    vy = vy[vy["policy"] == policy_y].drop_duplicates(["hand_id", "team"])
    both = vx.merge(vy, on=["hand_id", "team"], suffixes=("_x", "_y"))
    if len(both) == 0:
        raise CanastaError(
            f"no team-hand pairs where {policy_x} and {policy_y} sat in the same seat"
        )
    if not (both["opp_policy_x"] == both["opp_policy_y"]).all():
        raise CanastaError("paired runs face different opponents in some hands")
    e = iv.paired_difference(both[f"{value}_x"], both[f"{value}_y"], confidence)
    return pd.DataFrame(
        [iv.estimate_row(e, policy_x=policy_x, policy_y=policy_y, value=value)]
    ).assign(opponent=", ".join(sorted(set(both["opp_policy_x"]))))


def chasing_gain(
    chaser: str = "special_chaser",
    baseline: str = "heuristic",
    opponent: str = "heuristic",
    n: int = 10_000,
    seed: int = 0,
    n_jobs: int = 1,
    ruleset=None,
    simulate=None,
) -> pd.DataFrame:
    """What chasing special hands costs or gains: ``chaser`` minus ``baseline`` points per hand.

    Both play the same ``n`` deals in both seats against ``opponent`` (four runs with one seed);
    rows for the team's own score and for the net score, with normal intervals.
    """
    from analysis.compare import resolve_simulate

    run = resolve_simulate(simulate)
    kw = {"seed": seed, "n_jobs": n_jobs, "ruleset": ruleset}
    rx = pd.concat(
        [run(n, policies=(chaser, opponent), **kw), run(n, policies=(opponent, chaser), **kw)]
    )
    ry = pd.concat(
        [run(n, policies=(baseline, opponent), **kw), run(n, policies=(opponent, baseline), **kw)]
    )
    return pd.concat(
        [paired_gain(rx, ry, chaser, baseline, v) for v in ("score", "net")], ignore_index=True
    )
