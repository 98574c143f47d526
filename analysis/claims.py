"""Published strategy claims of Modern American Canasta and their verdicts from the decisions.

A claim is data (:class:`Claim`): what players, teachers and strategy writers say, its source,
how the project tests it, and the rows that measure it (:class:`Part`: a decision table of
``analysis.decisions`` — or, for G, the first-pickup table of ``analysis.numbers`` — a
grouping, its situations, and which arm the claim favours there; a claim with a condition,
"discard a 7 unless several are in the pile", has a part per side of it).
:func:`verdicts` reads the Holm-adjusted rows of those tables (``analysis.decisions.tables``:
one correction across every row of every table, so the claims share the report's error control)
and gives each claim one verdict:

* **supported**: at least one of the claim's rows favours the arm the claim advises (adjusted
  p ≤ alpha) and none favours the other;
* **contradicted**: at least one favours the other arm and none the claim's;
* **mixed**: rows favour each arm (the claim holds in some situations only);
* **no clear difference**: rows were tested and none is significant;
* **not tested (N hands)**: its rows hold N sampled hands but none has enough to be tested
  (``analysis.decision_tables.MIN_HANDS``): never a verdict, and no effect is quoted;
* **not measured**: no experiment measures it yet (``needs`` says what is missing), or its table
  is absent from the run.

The effect is the hand-weighted mean of the claim's rows, signed so that a positive value is a
gain for following the claim, with its 95% normal interval (``analysis.decisions`` pools the
same way); for G it is the share of hands won by the first-pickup team. Where a claim names a
threshold (the fifth seven, five wilds) the row also says where the fitted effect changes sign
and with what interval (``analysis.decisions.threshold``).

Claim J ("when ahead, milk the hand; when behind, end it fast") is about the game, so it is
also measured in game terms across the whole score grid (:func:`claim_j_by_score`): the going-
out experiment's deals read through the equity table at every pair of scores
(``analysis.decisions_game.by_score``), each cell's verdict Holm-adjusted across all the cells.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.decision_tables import not_tested
from analysis.specs import STRONGEST, played_by

__all__ = ["J_EXPERIMENT", "Claim", "claim_j_by_score", "verdicts"]


@dataclass(frozen=True)
class Part:
    """Rows of one table that a claim speaks to, and the arm it favours there."""

    table: str  #: ``decision_<key>`` or ``first_pickup``
    grouping: str = "all"
    situations: tuple[str, ...] = ()  #: the rows' labels (empty: every row of the grouping)
    favours: int = 1  #: +1 the claim advises arm A (``do``; G: the first-pickup team wins), −1 B


@dataclass(frozen=True)
class Claim:
    id: str
    claim: str
    source: str
    test: str  #: how the claim is tested, in words
    parts: tuple[Part, ...] = ()  #: the rows measuring it (empty: not measured)
    needs: str = ""  #: what is missing to measure it, when ``parts`` is empty
    threshold: tuple[str, str] = ()  #: (experiment, grouping) of a claimed sign change
    unit: str = "net points a hand"

    @property
    def experiment(self) -> str:
        return ", ".join(dict.fromkeys(p.table.removeprefix("decision_") for p in self.parts))


def _d(key: str, grouping: str = "all", situations: tuple[str, ...] = (), favours: int = 1):
    return Part(f"decision_{key}", grouping, situations, favours)


_SUE = "Sue Silberstein's tips, Canasta Junction blog, 2025-01-17"
_FIXED = (
    "the turn scripted: draw, then the discard, no meld that turn (both arms); 'another "
    "card': the natural 4–K but 7 held fewest times"
)

CLAIMS: tuple[Claim, ...] = (
    Claim(
        "A",
        "Never discard the fifth ace or fifth seven (it gives the opponents the pile)",
        _SUE,
        "discard a 7 (or A) vs another card, by that rank's count in the pile; " + _FIXED,
        (
            _d("discard_seven", "sevens_pile", ("4+",), -1),
            _d("discard_ace", "aces_pile", ("4+",), -1),
        ),
        threshold=("discard_seven", "sevens_pile"),
    ),
    Claim(
        "B",
        "After the turn card, holding two canastas, discard a 7 rather than meld a "
        "triple, unless several 7s are in the pile",
        f"{_SUE}, tip 1",
        "two canastas, 2+ sevens and a natural triple, 40 or fewer cards in the stock: "
        "draw and discard a 7 vs draw and meld the triple (then the policy plays on)",
        (
            _d("seven_or_triple", "sevens_pile", ("0–1",), 1),
            _d("seven_or_triple", "sevens_pile", ("2+",), -1),
        ),
    ),
    Claim(
        "C",
        "Late in the hand, get rid of your 7s and aces",
        "rummyroyal.com strategy tips",
        "as A, 20 or fewer cards left in the stock",
        (_d("discard_seven", "stock", ("0–20",), 1), _d("discard_ace", "stock", ("0–20",), 1)),
    ),
    Claim(
        "D",
        "Start a wild-card canasta only with five or more wilds (community vote 15–5 "
        "against melding four)",
        "Canasta Junction, 'Wild Cards Wisdom', 2025-03-06; Modern American Canasta Facebook group",
        "start a wild meld vs hold, by wilds held 3 / 4 / 5 / 6+ (also early/late, opened)",
        (
            _d("wild", "wilds_held", ("3 wilds", "4 wilds"), -1),
            _d("wild", "wilds_held", ("5 wilds", "6+ wilds"), 1),
        ),
        threshold=("wild", "wilds_held"),
    ),
    Claim(
        "E",
        "Usually in favour of melding four wilds at the start of a hand",
        "a Palm Beach teacher, canastagal.blogspot.com, 2015-11",
        "start a wild meld vs hold, before the team has opened and with 4 wilds",
        (_d("wild", "opened", ("not opened",), 1), _d("wild", "wilds_held", ("4 wilds",), 1)),
    ),
    Claim(
        "F",
        "Start no sevens or aces meld after opening unless it can be finished",
        "martingull/barbu's Modern American bot",
        "start a sevens (aces) meld now vs hold, after opening; also by cards of the rank "
        "gone (pile and opponents' melds)",
        (_d("sevens", "opened", ("opened",), -1), _d("aces", "opened", ("opened",), -1)),
    ),
    Claim(
        "G",
        "The team that takes the first big pile dominates the hand",
        "Korppi's canasta strategy guide; Katz, The Book of Card Games",
        "share of hands won by the team of the first pickup, by pile size (11+: big)",
        (Part("first_pickup", "pile_size", ("11+",), 1),),
        unit="share of hands won by the first-pickup team",
    ),
    Claim(
        "H",
        "Don't deplete your hand early (against: 'hoarding is the rookie blunder')",
        "Katz; visualfoodie.com",
        "after opening, with a natural triple: draw, meld it and discard vs draw and discard "
        "(holding it a round), by hand size and the opponents' canastas",
        (_d("meld_triple", "all", (), -1),),
    ),
    Claim(
        "I",
        "Close a canasta as soon as you can",
        "canasta-palace.com, lesson 1",
        "a meld of six naturals and a wild held: draw, close it with the wild and discard vs "
        "draw and discard (keep it natural)",
        (_d("close_mixed", "all", (), 1),),
    ),
    Claim(
        "J",
        "When ahead, milk the hand; when behind, end it fast",
        "Card Games For Dummies",
        "go out now vs play on, the positions given game scores (each team at 0, 4,000 or "
        "6,000: every pair of opening tiers); also by canastas, pile size and the "
        "opponents' opening; in game terms across the whole score grid (Game score)",
        (
            _d("go_out_margin", "margin", ("ahead",), -1),
            _d("go_out_margin", "margin", ("behind",), 1),
        ),
    ),
    Claim(
        "K",
        "A special hand is the way out of a hand with points but no clean triple",
        "canastagal.blogspot.com, 2015-11",
        "the team chases the special hand vs plays normally (the strongest fast policy in "
        "both, the chase forced on or off), by natural triple held and opening minimum "
        "(125/155/180)",
        (_d("special_minimum", "natural_triple", ("no natural triple",), 1),),
    ),
    Claim(
        "L",
        "Keep a three for the Straight",
        "(no source gives a number)",
        "a seat's first turn with a three dealt, its team not melded (generated deals): "
        "keep the three vs lay it, the team chasing the nearest special hand in both arms, "
        "by distinct ranks held (of the 13 a Straight needs)",
        (_d("keep_three", "distinct_ranks", (), 1),),
    ),
    Claim(
        "M",
        "Open from hand as soon as you can rather than wait to open with the pile",
        "a strategy writer's question, re-run of the report (2026-12)",
        "the hand alone can open at the turn start: draw from the stock and make the best "
        "legal opening from the hand now vs the team (player and partner) opening from hand "
        "only once the pile holds 10 or the turn card is drawn, taking the pile to open "
        "whenever the strongest fast policy does, by pile size × the other team opened",
        (_d("open_or_wait", "pile_by_other_team", (), 1),),
    ),
    Claim(
        "N",
        "Two cards block: holding three sevens, discard one (the partnership needs "
        "only two of the eight)",
        "a strategy writer's question, re-run of the report (2026-12)",
        "three sevens held, no sevens meld: draw and discard a seven vs draw and discard "
        "another card, by the partner's sevens in each deal (not seen by the player); also "
        "the value of knowing the partner's count",
        (_d("two_cards_block", "partner_sevens", (), 1),),
    ),
    Claim(
        "O",
        "F's exception: start a sevens meld when it can be finished (six or more "
        "sevens held, none gone)",
        "martingull/barbu's Modern American bot (F's 'unless')",
        "after opening, 5+ sevens held and no sevens meld: start a sevens meld vs hold, by "
        "sevens held × sevens gone (pile and opponents' melds): the row with 6+ held and "
        "none gone (the 5-held rows are in its table)",
        (_d("sevens_finish", "held_by_gone", ("6+ held · none gone",), 1),),
    ),
)


def _pooled(rows: pd.DataFrame) -> tuple[float, float, float]:
    """The hand-weighted mean of a claim's rows and its 95% normal interval. The situations of
    one grouping hold different positions (independent: their errors add in quadrature), but
    two groupings of one table read the same positions (the rows 'not opened' and '4 wilds'
    overlap): their errors add linearly, the bound for full correlation, so the interval is
    never narrower than the data allow. Different tables are independent."""
    from analysis import intervals as iv

    w = rows["hands"].to_numpy(dtype=np.float64)
    w = w / w.sum()
    est = float(np.sum(w * rows["estimate"]))
    ws = pd.Series(w * rows["se"].to_numpy(dtype=np.float64), index=rows.index)
    by_grouping = (ws**2).groupby([rows["_table"], rows["_grouping"]]).sum() ** 0.5
    by_table = by_grouping.groupby(level=0).sum()
    se = float(np.sqrt((by_table**2).sum()))
    z = iv.z_value(iv.CONFIDENCE)
    return est, est - z * se, est + z * se


def _tested(tables: dict, experiment: str, grouping: str) -> bool:
    """Does a row of ``grouping`` in ``experiment``'s table have a verdict (adjusted p <=
    alpha)? A sign change is reported only then."""
    t = tables.get(f"decision_{experiment}")
    return t is not None and bool((t[t["grouping"] == grouping]["verdict"] != 0).any())


def _differs(c: Claim) -> str:
    """What differs between the arms of the claim's experiments (their specs say it)."""
    from analysis.experiment_set import BY_KEY

    if c.id == "G":
        who = played_by(STRONGEST)
        return f"nothing is forced: hands of {who} against itself, grouped by the first pickup"
    keys = dict.fromkeys(p.table.removeprefix("decision_") for p in c.parts)
    return "; ".join(dict.fromkeys(BY_KEY[k].differs for k in keys if k in BY_KEY))


def _untested(rows: pd.DataFrame, c: Claim) -> str:
    """The claim's rows left untested (no adjusted p-value), in words with their hands."""
    return "; ".join(
        f"{r['situation']}: {not_tested(r['hands'])}"
        if r["_grouping"] == "all" or c.id == "G"
        else f"{r['_grouping']} {r['situation']}: {not_tested(r['hands'])}"
        for _, r in rows.iterrows()
    )


def verdicts(tables: dict[str, pd.DataFrame], thresholds=()) -> pd.DataFrame:
    """One row per claim: its source, experiment, verdict, and effect of following it with its
    95% interval, and the sampled hands of the rows it rests on (summed over its rows);
    read from ``analysis.decisions.tables`` output. Only tested rows (an adjusted p-value)
    give the verdict, the effect and the hands; the rest are named in ``untested``, and a
    claim with no tested row says "not tested (N hands)" with no effect. ``thresholds``
    (``analysis.decisions.thresholds``) give a claimed sign change in words."""
    from analysis.decision_tables import describe_threshold
    from analysis.experiment_set import BY_KEY

    found = {(t.experiment, t.grouping): t for t in thresholds}
    rows = []
    for c in CLAIMS:
        row = {
            "id": c.id,
            "claim": c.claim,
            "source": c.source,
            "test": c.test,
            "experiment": c.experiment,
            "verdict": "not measured",
            "effect": np.nan,
            "ci_low": np.nan,
            "ci_high": np.nan,
            "hands": 0,
            "note": c.needs,
            "unit": c.unit,
            "threshold": "",
            "differs": _differs(c),
            "untested": "",
        }
        if c.threshold in found and _tested(tables, *c.threshold):  # no sign change of noise
            row["threshold"] = describe_threshold(found[c.threshold], BY_KEY[c.threshold[0]])
        signed, rows_of = [], []
        missing = [p.table for p in c.parts if p.table not in tables]
        for p in c.parts:
            t = tables.get(p.table)
            if t is None:
                continue
            part = t[t["grouping"] == p.grouping]  # rows with no hands: untested, named
            if p.situations:
                part = part[part["situation"].isin(p.situations)]
            if len(part):
                signed.append(part["verdict"].to_numpy() * p.favours)
                est = part["estimate"] - (0.5 if p.table == "first_pickup" else 0)
                rows_of.append(
                    part.assign(estimate=est * p.favours, _table=p.table, _grouping=p.grouping)
                )
        if c.parts and missing and not signed:
            row["note"] = "its experiment was not run or found no position"
        if signed:
            every = pd.concat(rows_of, ignore_index=True)
            tested = np.isfinite(every["p_adj"].to_numpy(dtype=np.float64))
            row |= {"note": "", "untested": _untested(every[~tested], c)}
            if not tested.any():  # no row to test: neither a verdict nor an effect to quote
                hands = int(every["hands"].sum())
                row |= {"verdict": not_tested(hands), "hands": hands}
                rows.append(row)
                continue
            v = np.concatenate(signed)[tested]
            if (v > 0).any() and (v < 0).any():
                verdict = "mixed"
            elif (v > 0).any():
                verdict = "supported"
            elif (v < 0).any():
                verdict = "contradicted"
            else:
                verdict = "no clear difference"
            est, lo, hi = _pooled(every[tested])
            if c.id == "G":  # a share: back on its own scale
                est, lo, hi = est + 0.5, lo + 0.5, hi + 0.5
            row |= {
                "verdict": verdict,
                "effect": est,
                "ci_low": lo,
                "ci_high": hi,
                "hands": int(every.loc[tested, "hands"].sum()),
            }
        rows.append(row)
    return pd.DataFrame(rows)


J_EXPERIMENT = "go_out_margin"  #: the experiment claim J reads (arm A: go out, B: play on)


def claim_j_by_score(cells: pd.DataFrame) -> tuple[pd.DataFrame, dict]:
    """Claim J across the score grid, from ``analysis.decisions_game.by_score`` rows of
    :data:`J_EXPERIMENT` (the Holm correction across its cells: pass only its rows to
    ``by_score`` for J's own family). Per cell: the gain in the chance of winning the game of
    milking the hand (playing on, arm B) over going out, with its interval, ``milking``
    ('helps', 'hurts', 'no clear difference' after the correction; '' untested) and what the
    claim says there (milk when ahead, end it when behind, nothing when level). The summary:
    the claim's verdict over the cells where it says something (as :func:`verdicts`), and the
    cells where milking helps or hurts."""
    from analysis.decisions_game import cell_fields

    part = cells[cells["experiment"] == J_EXPERIMENT]
    if part.empty:
        raise ValueError(f"no cells of {J_EXPERIMENT} (analysis.decisions_game.by_score)")
    tested = np.isfinite(part["p_adj"].to_numpy())
    margin = part["score_own"] - part["score_opp"]
    says = np.sign(margin.to_numpy())  # +1 ahead: milk (arm B); -1 behind: go out (arm A)
    v = part["verdict"].to_numpy()  # +1: going out better; -1: playing on better
    out = pd.DataFrame(
        {
            "score_own": part["score_own"],
            "score_opp": part["score_opp"],
            "region": np.where(says > 0, "ahead", np.where(says < 0, "behind", "level")),
            "hands": part["hands"],
            "milking": -part["estimate"],
            "ci_low": -part["ci_high"],
            "ci_high": -part["ci_low"],
            "p_adj": part["p_adj"],
            "verdict": np.where(
                ~tested,
                "",
                np.where(v < 0, "helps", np.where(v > 0, "hurts", "no clear difference")),
            ),
            "claim": np.where(says > 0, "milk", np.where(says < 0, "end it", "")),
        }
    ).reset_index(drop=True)
    follows = (-v * says)[tested & (says != 0)]  # +1: the cell favours what the claim advises
    if not len(follows):
        verdict = "not measured"
    elif (follows > 0).any() and (follows < 0).any():
        verdict = "mixed"
    elif (follows > 0).any():
        verdict = "supported"
    elif (follows < 0).any():
        verdict = "contradicted"
    else:
        verdict = "no clear difference"
    regions = []
    for name in ("ahead", "behind", "level"):
        r = out[(out["region"] == name) & (out["verdict"] != "")]
        row = {
            "region": name,
            "claim": {"ahead": "milk the hand", "behind": "end it fast", "level": "(says nothing)"}[
                name
            ],
            "cells": len(r),
            "helps": int((r["verdict"] == "helps").sum()),
            "hurts": int((r["verdict"] == "hurts").sum()),
        }
        row["neither"] = row["cells"] - row["helps"] - row["hurts"]
        for what, pick in (("best", r["milking"].idxmax), ("worst", r["milking"].idxmin)):
            if len(r):
                row |= cell_fields(what, r.loc[pick()], "milking")
        regions.append(row)
    summary = {
        "regions": pd.DataFrame(regions),
        "verdict": verdict,
        "cells": int(tested.sum()),
        "helps": int((out["verdict"] == "helps").sum()),
        "hurts": int((out["verdict"] == "hurts").sum()),
        "correction": cells.attrs.get("correction", ""),
        "interval": cells.attrs.get("interval", ""),
    }
    return out, summary
