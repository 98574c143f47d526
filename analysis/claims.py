"""Published strategy claims of Modern American Canasta and their verdicts from the decisions.

A claim is data (:class:`Claim`): what players, teachers and strategy writers say, its source,
how the project tests it, and — where a decision experiment of ``analysis.decisions`` measures
it — which experiment, which grouping and situations, and which arm the claim favours.
:func:`verdicts` reads the Holm-adjusted rows of those tables (``analysis.decisions.tables``:
one correction across every row of every table, so the claims share the report's error control)
and gives each claim one verdict:

* **supported**: at least one of the claim's rows favours the arm the claim advises (adjusted
  p ≤ alpha) and none favours the other;
* **contradicted**: at least one favours the other arm and none the claim's;
* **mixed**: rows favour each arm (the claim holds in some situations only);
* **no clear difference**: rows were tested and none is significant;
* **not measured**: no experiment measures it yet (``needs`` says what is missing), or its table
  is absent from the run.

The effect is the hand-weighted mean of the claim's rows, signed so that a positive value is a
gain for following the claim, with its 95% normal interval (``analysis.decisions`` pools the
same way).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["CLAIMS", "Claim", "verdicts"]


@dataclass(frozen=True)
class Claim:
    id: str
    claim: str
    source: str
    test: str  #: how the claim is tested, in words
    experiment: str = ""  #: key of the decision experiment measuring it ("" if none yet)
    grouping: str = "all"  #: grouping key of that experiment's table
    situations: tuple[str, ...] = ()  #: the rows' labels (empty: every row of the grouping)
    favours: int = 1  #: +1 the claim advises arm A (``do``), −1 arm B (``dont``)
    needs: str = ""  #: what is missing to measure it, when ``experiment`` is empty


_SUE = "Sue Silberstein's tips, Canasta Junction blog, 2025-01-17"
_DISCARD = "a forced discard of a chosen rank at the discard step (sim.api.play_script arms)"

CLAIMS: tuple[Claim, ...] = (
    Claim("A", "Never discard the fifth ace or fifth seven (it gives the opponents the pile)",
          _SUE, "discard a 7 (or A) vs the best other discard, by that rank's count in the pile",
          needs=_DISCARD + " and the pile's count of the rank as a feature"),
    Claim("B", "After the turn card, holding two canastas, discard a 7 rather than meld a "
          "triple, unless several 7s are in the pile", f"{_SUE}, tip 1",
          "late in the stock, two canastas, a pair of 7s and a meldable triple",
          needs=_DISCARD),
    Claim("C", "Late in the hand, get rid of your 7s and aces",
          "rummyroyal.com strategy tips", "as A, late in the stock", needs=_DISCARD),
    Claim("D", "Start a wild-card canasta only with five or more wilds (community vote 15–5 "
          "against melding four)", "Canasta Junction, 'Wild Cards Wisdom', 2025-03-06; "
          "Modern American Canasta Facebook group",
          "start a wild meld vs hold, by wilds held", "wild", "wilds_held", ("3 wilds",), -1),
    Claim("E", "Usually in favour of melding four wilds at the start of a hand",
          "a Palm Beach teacher, canastagal.blogspot.com, 2015-11",
          "start a wild meld vs hold, before the team has opened", "wild", "opened",
          ("not opened",), 1),
    Claim("F", "Start no sevens or aces meld after opening unless it can be finished",
          "martingull/barbu's Modern American bot",
          "start a sevens (aces) meld now vs hold, all positions", "sevens", "all", (), -1),
    Claim("G", "The team that takes the first big pile dominates the hand",
          "Korppi's canasta strategy guide; Katz, The Book of Card Games",
          "share of hands won by the team of the first pickup, by pile size",
          needs="the first pickup (team, pile size) recorded per played hand"),
    Claim("H", "Don't deplete your hand early (against: 'hoarding is the rookie blunder')",
          "Katz; visualfoodie.com", "after opening, meld a triple now vs hold it one round",
          needs="an arm that drops one meld operation from the turn as played"),
    Claim("I", "Close a canasta as soon as you can", "canasta-palace.com, lesson 1",
          "close a mixed canasta now (spend a wild) vs keep the meld natural",
          needs="an arm that drops the closing wild from the turn as played"),
    Claim("J", "When ahead, milk the hand; when behind, end it fast", "Card Games For Dummies",
          "go out now vs play on, by the game-score margin",
          needs="the game-score margin as a grouping of the go-out experiment"),
    Claim("K", "A special hand is the way out of a hand with points but no clean triple",
          "canastagal.blogspot.com, 2015-11", "chase the special hand vs play normally",
          "special", "all", (), 1),
    Claim("L", "Keep a three for the Straight", "(no source gives a number)",
          "keep the three vs lay it, by distinct ranks held",
          needs="a what-if position holding a three and a keep-or-lay choice (DEAL-5)"),
)  # fmt: skip


def _pooled(rows: pd.DataFrame) -> tuple[float, float, float]:
    from analysis import intervals as iv

    w = rows["hands"].to_numpy(dtype=np.float64)
    w = w / w.sum()
    est = float(np.sum(w * rows["estimate"]))
    se = float(np.sqrt(np.sum((w * rows["se"]) ** 2)))
    z = iv.z_value(iv.CONFIDENCE)
    return est, est - z * se, est + z * se


def verdicts(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per claim: its source, experiment, verdict, and effect of following it (net
    points a hand) with its 95% interval; read from ``analysis.decisions.tables`` output."""
    rows = []
    for c in CLAIMS:
        row = {"id": c.id, "claim": c.claim, "source": c.source, "test": c.test,
               "experiment": c.experiment, "verdict": "not measured", "effect": np.nan,
               "ci_low": np.nan, "ci_high": np.nan, "hands": 0, "note": c.needs}  # fmt: skip
        t = tables.get(f"decision_{c.experiment}") if c.experiment else None
        if c.experiment and t is None:
            row["note"] = "its experiment was not run or found no position"
        if t is not None:
            part = t[(t["grouping"] == c.grouping) & (t["hands"] > 0)]
            if c.situations:
                part = part[part["situation"].isin(c.situations)]
            if len(part):
                v = part["verdict"].to_numpy() * c.favours
                if (v > 0).any() and (v < 0).any():
                    verdict = "mixed"
                elif (v > 0).any():
                    verdict = "supported"
                elif (v < 0).any():
                    verdict = "contradicted"
                else:
                    verdict = "no clear difference"
                est, lo, hi = _pooled(part)
                lo, hi = sorted((c.favours * lo, c.favours * hi))
                row |= {"verdict": verdict, "effect": c.favours * est, "ci_low": lo,
                        "ci_high": hi, "hands": int(part["hands"].sum()), "note": ""}  # fmt: skip
        rows.append(row)
    return pd.DataFrame(rows)
