"""A review of a played game, decision by decision: what each decision cost, and the luck.

The face (``canasta review``, ``canasta.review``) walks a record and hands over, for each
decision of the seats reviewed, a :class:`Decision`: the position as that seat saw it
(``analysis.whatif.Position``), the card drawn (the play step after a stock draw), and the
actions the seat then took. For each one ``analysis.advise.advise`` ranks every choice over
paired deals, and the review reads:

- **the cost** of the move made: the best choice's result minus the move's, paired, in points
  for the team (against the best by points) and in the team's chance of winning the game after
  the hand (against the best by that chance, through the equity table from the hand's scores).
  The best is chosen on the advice's deals but the cost is measured again on **fresh deals**
  (seed shifted by :data:`FRESH_SEED`, each of the two choices played alone on the same deals,
  so that no race stops early): on its own deals the choice that came out best is favoured by
  their noise (the best of many noisy means), which would make every move look costlier than
  it is. On fresh deals the cost is unbiased, so one decision's cost may come out below 0 (the
  move did better there); its interval is the unpaired one (wider than the paired);
- **a tag** by the cost in game chance, given only when the cost's 95% interval lies wholly
  above 0 (a gap within the sampling noise is no error): ``doubtful`` from
  :data:`TAGS` ``["doubtful"]`` (1 percentage point of the game), ``error`` from 2.5, ``blunder``
  from 5;
- **the luck of each stock draw**: the value of the play step after the card that came (the
  choice the seat's policy makes there) minus the value of drawing before the card was seen
  (the "draw" choice at the draw step, the same policy playing the turn on): the card's share
  of the result, zero on average over the cards that could have come (both values are the
  policy's, so skill does not enter). A pickup of the pile carries no luck: the pile's cards
  were all seen when discarded.

Per seat (:func:`summary`): the **error rate**, 1,000 × the mean chance of the game lost per
decision (thousandths of a game per decision; 0 is perfect play by the advice's own measure),
over the decisions with more than one choice whose move was matched; its 95% normal interval;
the tags counted; the luck summed (points and game chance), and the **luck-adjusted result**:
the team's points over the hands reviewed minus the luck of the reviewed seats' draws.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from analysis import intervals as iv
from sim.errors import CanastaError
from sim.stats import CONFIDENCE, z_value

__all__ = [
    "LUCK_COLUMNS",
    "TAGS",
    "Decision",
    "Review",
    "band_for",
    "combine",
    "reference_band",
    "review",
    "standing",
    "summary",
    "tag",
]

#: cost in the chance of winning the game (a share, 0.01 = 1 percentage point) from which a
#: move is tagged; the highest threshold reached names it
TAGS = {"doubtful": 0.01, "error": 0.025, "blunder": 0.05}
RATE_SCALE = 1000.0  #: the error rate's unit: thousandths of a game lost per decision
FRESH_SEED = 1_000_003  #: the re-measure's seeds: the selection's plus this (fresh deals)
#: what a decision the advice refuses gives (no row, no luck): counted in ``meta["skipped"]``
SKIPPED = ("skipped", None, None, False)
#: the columns of a review's luck rows (one per stock draw)
LUCK_COLUMNS = [
    *("hand", "move", "turn", "seat", "card"),
    *("luck_points", "luck_game", "se_points", "se_game"),
]


@dataclass(frozen=True)
class Decision:
    """One decision to review (built by the face from a record)."""

    hand: int  #: the hand's number in the record (1-based)
    move: int  #: the record's move number (``canasta replay``'s numbers)
    seat: int
    position: object  #: an ``analysis.whatif.Position`` as the seat saw it
    drawn: str | None  #: the card drawn (the play step), None at the draw step
    actions: tuple[int, ...]  #: the actions the seat took from this decision on (its turn)
    forced: bool = False  #: no choice here (a draw the rules force): reviewed for luck only


@dataclass
class Review:
    """The rows of a review (one per decision) and the luck rows (one per stock draw)."""

    decisions: pd.DataFrame
    luck: pd.DataFrame
    meta: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        def rows(df):
            return [
                {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()}
                for r in df.to_dict(orient="records")
            ]

        return {
            "meta": self.meta,
            "decisions": rows(self.decisions),
            "luck": rows(self.luck),
            "players": rows(summary(self)),
        }

    @classmethod
    def from_json(cls, d: dict) -> Review:
        """A review back from :meth:`to_json` (the players' summary is derived again)."""
        meta = dict(d.get("meta", {}))
        if "points" in meta:  # JSON keys are strings
            meta["points"] = {int(k): v for k, v in meta["points"].items()}
        frames = []
        for key in ("decisions", "luck"):
            f = pd.DataFrame(d.get(key, []))
            if key == "luck" and f.empty:
                f = pd.DataFrame(columns=LUCK_COLUMNS)  # no draw: the columns still named
            for c in f.columns:
                if (
                    f[c].dtype == object
                    and f[c].map(lambda v: v is None or isinstance(v, float)).all()
                ):
                    f[c] = f[c].astype(np.float64)  # a column of nulls and numbers: NaN again
            frames.append(f)
        return cls(frames[0], frames[1], meta)


def combine(reviews: Sequence[Review]) -> Review:
    """The reviews of several hands of one game as one (a game's review from its hands'):
    the rows in order, each seat's points summed over the hands (``meta["points"]``)."""
    reviews = list(reviews)
    if not reviews:
        raise ValueError("combine: no review to combine")
    points: dict[int, int] = {}
    for r in reviews:
        for s, v in r.meta.get("points", {}).items():
            points[int(s)] = points.get(int(s), 0) + int(v)
    parts = [r.decisions for r in reviews if len(r.decisions)]
    luck = [r.luck for r in reviews if len(r.luck)]
    skipped = sum(int(r.meta.get("skipped", 0)) for r in reviews)
    meta = dict(reviews[0].meta) | {"points": points, "hands": len(reviews), "skipped": skipped}
    return Review(
        pd.concat(parts, ignore_index=True) if parts else reviews[0].decisions,
        pd.concat(luck, ignore_index=True) if luck else reviews[0].luck,
        meta,
    )


BAND_FILE = Path(__file__).with_name("review_band.json")  #: the reference band, when shipped


def reference_band(path=None, *, on: str | None = None) -> dict:
    """The reference band (docs/advise.md): each bot's error rate on its own games, as
    ``{"bots": {name: {"rate", "low", "high", "games"}}, "ruleset", "on", "command"}`` from
    ``path`` (default :data:`BAND_FILE`); ``{}`` when none is shipped, or when it was measured
    with another policy playing on than ``on`` (default ``sim.policies.strongest_fast()``, the
    advice's own): a rate is only placed among rates judged by the same yardstick."""
    import json

    from sim.policies import strongest_fast

    path = BAND_FILE if path is None else Path(path)
    try:
        band = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not (isinstance(band, dict) and isinstance(band.get("bots"), dict)):
        return {}
    return band if band.get("on") == (on or strongest_fast()) else {}


def band_for(ruleset=None, policies: str | Sequence[str] | None = None) -> dict:
    """The reference band a review under ``ruleset`` with ``policies`` playing on (None: the
    advice's default) is placed in: :func:`reference_band` when the band was measured under
    the same ruleset (the default list, which the band's games play) and the same single
    policy playing on, else ``{}`` (a rate judged another way is not placed among its rates)."""
    from sim.ruleset import Ruleset, as_ruleset

    if ruleset is not None and as_ruleset(ruleset).to_dict() != Ruleset().to_dict():
        return {}
    if isinstance(policies, str):
        policies = policies.split(",")
    names = set(policies or ())
    if len(names) > 1:
        return {}
    return reference_band(on=names.pop() if names else None)


def standing(rate: float, band: dict) -> str:
    """Where an error ``rate`` stands in ``band`` (:func:`reference_band`): the bots whose
    rate it is nearest, in words ("between strong (4.1) and heuristic (9.0)"); '' without a
    band or a rate."""
    bots = sorted(
        ((float(v["rate"]), k) for k, v in band.get("bots", {}).items() if "rate" in v),
    )
    if not bots or math.isnan(rate):
        return ""
    words = [f"{k} ({r:.1f})" for r, k in bots]
    if rate <= bots[0][0]:
        return f"at or below {words[0]}, the best of the reference bots"
    if rate >= bots[-1][0]:
        return f"at or above {words[-1]}, the weakest of the reference bots"
    i = next(i for i, (r, _) in enumerate(bots) if r >= rate)
    return f"between {words[i - 1]} and {words[i]}"


def tag(cost: float, cost_low: float) -> str:
    """The tag of a move that cost ``cost`` of the game's chance (interval's low end
    ``cost_low``): '' unless the interval lies wholly above 0, else the highest of
    :data:`TAGS` reached."""
    if math.isnan(cost) or not cost_low > 0:
        return ""
    out = ""
    for name, threshold in TAGS.items():
        if cost >= threshold:
            out = name
    return out


def review(
    decisions: Iterable[Decision],
    match: Callable,
    *,
    equity=None,
    ruleset=None,
    n: int = 64,
    budget: float | None = 1.0,
    seed: int = 0,
    policies: Sequence[str] | None = None,
    advise: Callable | None = None,
    fresh_budget: float | None = None,
    n_jobs: int = 1,
) -> Review:
    """Review ``decisions`` (module docstring). ``match(actions, advice)``: the ``Choice`` of
    ``advice`` that ``actions`` made, or None (the face's matcher of moves to plans).
    ``equity``: the equity table (game chances; None: points only). ``n``, ``budget``: deals
    per choice and seconds per decision for the advice; decision ``k`` is advised with seed
    ``seed + k``. ``fresh_budget``: seconds for each re-measure on fresh deals (None: all
    ``n`` deals). ``advise``: the function to ask (default ``analysis.advise.advise``).
    ``n_jobs``: decisions advised in that many processes at once (``match`` and ``advise``
    must then be picklable); with ``budget`` and ``fresh_budget`` None the rows are the same
    for any number."""
    from sim.jobs import effective_jobs

    items = list(decisions)
    ask = {"equity": equity, "ruleset": ruleset, "n": n, "budget": budget, "seed": seed}
    ask |= {"policies": policies, "advise": advise, "fresh_budget": fresh_budget}
    jobs = min(effective_jobs(n_jobs), max(1, len(items)))
    if jobs == 1:
        done = [_decision(k, d, match, ask) for k, d in enumerate(items)]
    else:
        from joblib import Parallel, delayed

        # a few runs of decisions a job (the equity table is sent once a run, not a decision)
        size = max(1, math.ceil(len(items) / (4 * jobs)))
        runs = [range(i, min(i + size, len(items))) for i in range(0, len(items), size)]
        parts = Parallel(n_jobs=jobs, backend="loky")(
            delayed(_decisions)(run, [items[k] for k in run], match, ask) for run in runs
        )
        done = [x for part in parts for x in part]
    rows, luck = [], []
    draw_value: dict[tuple, tuple] = {}  # (hand, seat) -> the draw's value, by game chance?
    # a SKIPPED decision is told by its row's type: from another process it is a copy
    skipped = sum(isinstance(x[0], str) for x in done)
    for d, (row, draw, pick, game) in zip(items, done, strict=True):
        if isinstance(row, str):
            continue
        if d.drawn is None:
            if draw is not None:
                draw_value[(d.hand, d.seat)] = (draw, game)
        else:
            before = draw_value.pop((d.hand, d.seat), None)
            if before is not None and pick is not None:
                luck.append(_luck_row(d, before[0], pick, game and before[1]))
        if row is not None:
            rows.append(row)
    return Review(
        pd.DataFrame(rows),
        pd.DataFrame(luck, columns=LUCK_COLUMNS),
        {"n": n, "budget": budget, "seed": seed, "tags": dict(TAGS), "rate_scale": RATE_SCALE}
        | {"skipped": skipped},
    )


def _decisions(ks: Sequence[int], ds: Sequence[Decision], match: Callable, ask: dict) -> list:
    """:func:`_decision` of each of ``ds`` (the ``ks``-th), in one process."""
    return [_decision(k, d, match, ask) for k, d in zip(ks, ds, strict=True)]


def _decision(k: int, d: Decision, match: Callable, ask: dict) -> tuple:
    """Decision ``d`` (the ``k``-th) advised: ``(row or None for a forced one, the "draw"
    choice at a draw step, the policy's pick at a play step, by game chance?)``."""
    advise = ask["advise"]
    if advise is None:
        from analysis.advise import advise
    pos = d.position
    eq = ask["equity"]
    if eq is not None and max(pos.scores) >= eq.target:
        eq = None  # a tie at the target plays on (GAME-1): off the table, by points
    try:
        adv = advise(
            pos,
            drawn=d.drawn,
            n=ask["n"],
            budget=ask["budget"],
            seed=ask["seed"] + k,
            ruleset=ask["ruleset"],
            policies=ask["policies"],
            **({} if eq is None else {"equity": eq}),
        )
    except CanastaError:  # a position the advice refuses (e.g. the hand ends first, END-1)
        return SKIPPED
    game = eq is not None
    draw = next((c for c in adv.choices if c.label == "draw"), None) if d.drawn is None else None
    pick = next((c for c in adv.choices if c.policy_pick), None) if d.drawn is not None else None
    if d.forced:
        return None, draw, pick, game
    made = match(d.actions, adv)
    best = adv.choices[0]
    gbest = next((c for c in adv.choices if c.game.get("best")), None) if game else None
    row = {
        "hand": d.hand,
        "move": d.move,
        "turn": int(pos.turn),
        "seat": d.seat,
        "team": d.seat % 2,
        "decision": adv.decision,
        "scores": f"{pos.scores[0]},{pos.scores[1]}",
        "choices": len(adv.choices),
        "made": made.label if made is not None else "",
        "best": (gbest or best).label,
        "best_points": best.label,
        "best_confidence": (gbest.game["confidence"] if gbest else best.confidence),
        "cost_points": math.nan,
        "cost_points_low": math.nan,
        "cost_points_high": math.nan,
        "cost_game": math.nan,
        "cost_game_low": math.nan,
        "cost_game_high": math.nan,
        "win": math.nan,
        "tag": "",
    }
    if made is not None:
        # the cost on fresh deals: the selection's own deals favour the choice that
        # came out best on them (the best of many noisy means), so the move made and the
        # chosen best are played again on deals the selection did not see
        fresh = {"pos": pos, "drawn": d.drawn, "n": ask["n"], "seed": ask["seed"] + k + FRESH_SEED}
        fresh |= {"ruleset": ask["ruleset"], "policies": ask["policies"], "advise": advise}
        fresh |= {"budget": ask["fresh_budget"], "equity": eq}
        runs = _fresh(made, [best, gbest], fresh)
        c, lo, hi = _cost(runs, made, best, "points")
        row["cost_points"], row["cost_points_low"], row["cost_points_high"] = c, lo, hi
        if game:
            c, lo, hi = _cost(runs, made, gbest, "game")
            row["cost_game"], row["cost_game_low"], row["cost_game_high"] = c, lo, hi
            row["win"] = made.game["win"]
            row["tag"] = tag(row["cost_game"], row["cost_game_low"])
    return row, draw, pick, game


def _se(low: float, high: float) -> float:
    return (high - low) / (2 * z_value(CONFIDENCE))


def _luck_row(d: Decision, draw, pick, game: bool) -> dict:
    """The luck of the card drawn before decision ``d``: the policy's plan after it (``pick``)
    minus drawing unseen (``draw``), with the standard error of that difference (the two
    advice runs' errors, their deals taken as independent)."""
    se_p = math.hypot(_se(pick.ci_low, pick.ci_high), _se(draw.ci_low, draw.ci_high))
    row = {"hand": d.hand, "move": d.move, "turn": int(d.position.turn), "seat": d.seat}
    row["card"] = d.drawn
    row |= {"luck_points": pick.mean - draw.mean, "se_points": se_p}
    row |= {"luck_game": math.nan, "se_game": math.nan}
    if game:
        g, h = pick.game, draw.game
        row["luck_game"] = g["win"] - h["win"]
        row["se_game"] = math.hypot(_se(g["ci_low"], g["ci_high"]), _se(h["ci_low"], h["ci_high"]))
    return row


def _fresh(made, bests, ask: dict) -> dict:
    """``made`` and each of ``bests`` (None: skipped) played again on fresh deals, each alone:
    the label -> its ``Choice``. Alone, so that no race stops a run early (two choices in one
    race stop once one leaves it, after as few as 8 deals, and a mean read where a race
    stopped is inflated); on the same deals (deal ``i`` from the seed and ``i``, the first
    run's count of them for the others, its ``budget`` deciding it)."""
    want = [c.label for c in bests if c is not None and c.label != made.label]
    if not want:
        return {}
    out: dict = {}
    n, budget = ask["n"], ask.get("budget")
    for label in dict.fromkeys([*want, made.label]):
        adv = ask["advise"](
            ask["pos"],
            drawn=ask["drawn"],
            n=n,
            budget=budget,
            seed=ask["seed"],
            ruleset=ask["ruleset"],
            policies=ask["policies"],
            only=[label],
            **({} if ask.get("equity") is None else {"equity": ask["equity"]}),
        )
        out[label] = adv.choices[0]
        n, budget = out[label].n, None  # the others on the same deals as the first
    return out


def _cost(runs: dict, made, best, measure: str) -> tuple[float, float, float]:
    """The cost (``best`` minus ``made`` on the fresh deals of ``runs``, :func:`_fresh`) by
    ``measure`` ("points", or "game": the chance of winning the game), with its 95% interval.
    Both ran on the same deals, so the difference of the means is the mean of the paired
    differences; its interval is the unpaired one (the runs give no deal's value), wider."""
    if best is None or made.label == best.label:
        return 0.0, 0.0, 0.0
    m, b = runs[made.label], runs[best.label]
    if measure == "points":
        d = b.mean - m.mean
        h = math.hypot(b.ci_high - b.mean, m.ci_high - m.mean)
    else:
        d = b.game["win"] - m.game["win"]
        h = math.hypot(b.game["ci_high"] - b.game["win"], m.game["ci_high"] - m.game["win"])
    return d, d - h, d + h


def summary(rev: Review) -> pd.DataFrame:
    """Per seat reviewed: decisions, the error rate (1,000 × mean game chance lost per
    decision with a choice, its 95% normal interval), tags, the luck (points, game chance)
    and the team's points with and without it (``points`` filled by the face: the team's
    points over the hands reviewed, in ``rev.meta["points"][seat]``)."""
    d, lk = rev.decisions, rev.luck
    out = []
    seats = sorted(set(d["seat"]) | set(lk["seat"])) if len(d) or len(lk) else []
    for s in seats:
        mine = d[d["seat"] == s] if len(d) else d
        rated = mine[(mine["choices"] > 1) & mine["cost_game"].notna()] if len(mine) else mine
        costs = rated["cost_game"].to_numpy(dtype=np.float64) if len(rated) else np.zeros(0)
        e = iv.mean(costs * RATE_SCALE) if costs.size >= 2 else None
        luck = lk[lk["seat"] == s]
        row = {
            "seat": int(s),
            "team": int(s) % 2,
            "decisions": len(mine),
            "rated": int(costs.size),
            "error_rate": float(costs.mean() * RATE_SCALE) if costs.size else math.nan,
            "rate_low": e.ci_low if e else math.nan,
            "rate_high": e.ci_high if e else math.nan,
            "points_lost": float(mine["cost_points"].sum()) if len(mine) else 0.0,
            **{t: int((mine["tag"] == t).sum()) if len(mine) else 0 for t in TAGS},
            "draws": len(luck),
            "luck_points": float(luck["luck_points"].sum()),
            "luck_game": float(luck["luck_game"].sum(min_count=1)),
            # the sums' standard errors: the draws' own estimates, independent
            "luck_points_se": float(np.sqrt((luck["se_points"] ** 2).sum())),
            "luck_game_se": float(np.sqrt((luck["se_game"] ** 2).sum(min_count=1))),
        }
        pts = rev.meta.get("points", {}).get(int(s))
        if pts is not None:
            row["points"] = pts
            row["luck_adjusted_points"] = pts - row["luck_points"]
        out.append(row)
    return pd.DataFrame(out)
