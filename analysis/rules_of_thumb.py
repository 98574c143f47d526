"""Rules of thumb and the Advice, in words, from the decision tables.

:func:`rule_of_thumb`: one sentence per experiment and grouping, generated from the table's
rows (direction from the adjusted verdicts, numbers from the intervals). :func:`advice`: one
rule per decision (the report's Advice), the situations where the verdict flips added.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.decision_tables import not_tested
from analysis.decision_tables import pooled as _pooled
from analysis.experiment_set import EXPERIMENTS, Experiment, Grouping, resolve

__all__ = ["Rule", "advice", "rules_of_thumb", "worth_text"]


@dataclass(frozen=True)
class Rule:
    text: str  #: the rule itself, with the pooled estimate and interval it rests on
    detail: str  #: every situation's estimate and interval, in words
    table: str  #: the table key it is read from
    experiment: str
    grouping: str
    verdicts: tuple[int, ...]  #: the situations' verdicts, in order


def _pts(x: float) -> str:
    return f"{x:+,.0f}".replace("-", "−")


def _tested(rows: pd.DataFrame) -> np.ndarray:
    """The rows that were tested (an adjusted p-value: ``MIN_HANDS`` hands or more)."""
    return np.isfinite(rows["p_adj"].to_numpy(dtype=np.float64))


def _ci(r) -> str:
    if not np.isfinite(r["p_adj"]):
        return f"[{not_tested(r['hands'])}]"
    if not (np.isfinite(r["ci_low"]) and np.isfinite(r["ci_high"])):
        return f"[no interval: {int(r['hands'])} hand]"
    lo, hi = (f"{v:,.0f}".replace("-", "−") for v in (r["ci_low"], r["ci_high"]))
    return f"[{lo}, {hi}]"


def rule_of_thumb(exp: Experiment, grouping: Grouping, table: pd.DataFrame) -> Rule:
    """One sentence from the rows of ``grouping`` in ``exp``'s table: which arm to choose in
    which situations (decided by the adjusted verdicts), with the estimates and intervals."""
    rows = table[table["grouping"] == grouping.key].reset_index(drop=True)
    rows = rows[rows["hands"] > 0].reset_index(drop=True)
    v = tuple(int(x) for x in rows["verdict"])
    tested = _tested(rows)
    unit = "net points a hand"

    def where(r) -> str:
        return grouping.phrase.format(label=r["situation"], low=r["low"])

    def clause(r) -> str:
        return f"{where(r)}: {_pts(r['estimate'])} {_ci(r)}"

    detail = "; ".join(clause(r) for _, r in rows.iterrows())
    head = f"{exp.do_ing[0].upper()}{exp.do_ing[1:]} minus {exp.dont_ing}"
    detail = f"({head}, {unit}, 95% intervals — {detail}.)" if len(rows) else ""
    cap = exp.do[0].upper() + exp.do[1:]
    dont_cap = exp.dont[0].upper() + exp.dont[1:]
    plus = [i for i, x in enumerate(v) if x > 0]
    minus = [i for i, x in enumerate(v) if x < 0]
    if not tested.any():
        text = f"{cap} or {exp.dont}: {not_tested(rows['hands'].sum())}. {detail}"
    elif not plus and not minus:
        leads = _leads(rows[tested], exp, where)
        text = f"{cap} or {exp.dont}: no clear difference in any situation tested{leads}. {detail}"
    elif minus and plus and grouping.until and max(minus) < min(plus):
        cut = rows.iloc[min(plus)]
        est, lo, hi = _pooled(rows.iloc[: min(plus)])
        text = (
            f"{dont_cap} {grouping.until.format(low=cut['low'], label=cut['situation'])}; "
            f"then {exp.do}. Before that, {exp.do_ing} costs {_pts(-est)[1:]} {unit} "
            f"[{_fmt(-hi)}, {_fmt(-lo)}]. {detail}"
        )
    elif minus and plus and grouping.until and max(plus) < min(minus):
        cut = rows.iloc[min(minus)]
        text = (
            f"{cap} {grouping.until.format(low=cut['low'], label=cut['situation'])}; "
            f"from then on, {exp.dont}. {detail}"
        )
    elif not (plus and minus):  # one arm favoured, where any
        side = plus or minus
        conds = _conds(rows, side, where, int(tested.sum()))
        est, lo, hi = _pooled(rows.iloc[side])
        rest = "; elsewhere no clear difference" if len(side) < tested.sum() else ""
        if not tested.all():
            rest += "; " + ", ".join(where(r) for _, r in rows[~tested].iterrows())
            rest += f": {not_tested(rows.loc[~tested, 'hands'].sum())}"
        if plus:
            said = f"{cap} rather than {exp.dont} ({conds}): it gains {_pts(est)} {unit} "
            said += f"[{_fmt(lo)}, {_fmt(hi)}]"
        else:
            said = f"{dont_cap} rather than {exp.do} ({conds}): {exp.do_ing} costs "
            said += f"{_fmt(-est)} {unit} [{_fmt(-hi)}, {_fmt(-lo)}]"
        text = f"{said}{rest}. {detail}"
    else:
        a = ", ".join(where(rows.iloc[i]) for i in plus)
        b = ", ".join(where(rows.iloc[i]) for i in minus)
        text = f"It depends: {exp.do} {a}; {exp.dont} {b}. {detail}"
    return Rule(text.replace(detail, "").strip(), detail, exp.table, exp.key, grouping.key, v)


def _leads(rows: pd.DataFrame, exp: Experiment, where) -> str:
    """Situations whose interval is clear of zero though no verdict was reached: leads."""
    out = []
    for _, r in rows.iterrows():
        if r["ci_low"] > 0 or r["ci_high"] < 0:
            out.append(f"{exp.do if r['ci_low'] > 0 else exp.dont} {where(r)}")
    return f" (leads, not confirmed: {'; '.join(out)})" if out else ""


def _conds(rows: pd.DataFrame, idx: list[int], where, tested: int) -> str:
    """The situations ``idx`` in words, or 'in every situation tested' when they are all
    ``tested`` ones."""
    if len(idx) == tested:
        return "in every situation tested"
    return ", ".join(where(rows.iloc[i]) for i in idx)


def _fmt(x: float) -> str:
    return f"{x:,.0f}".replace("-", "−")


def worth_text(w: dict, unit: str = "net points a hand", digits: int = 0) -> str:
    """What a piece of hidden information is worth (``decision_tables.information_worth``)
    in words: the best rule using it minus the best without, both named, with its interval."""

    def f(x: float, sign: str = "") -> str:
        return f"{x:{sign},.{digits}f}".replace("-", "−")

    return (
        f"What {w['label']} is worth, the best rule that uses it ({w['with']}) minus the best "
        f"that does not ({w['without']}): {f(w['estimate'], '+')} {unit} "
        f"[{f(w['ci_low'])}, {f(w['ci_high'])}] ({w['interval']})"
    )


def rules_of_thumb(tabs: dict[str, pd.DataFrame], experiments=None) -> list[Rule]:
    """One rule per experiment and grouping whose table is present, in ``experiments`` order
    (default ``EXPERIMENTS``)."""
    out = []
    for exp in EXPERIMENTS if experiments is None else resolve(experiments):
        t = tabs.get(exp.table)
        if t is None:
            continue
        out += [rule_of_thumb(exp, g, t) for g in exp.groupings]
    return out


def advice(tabs: dict[str, pd.DataFrame], experiments=None) -> list[Rule]:
    """One rule per decision (the report's Advice): the choice over all positions with its
    effect and interval, and the situations, of any grouping, where the verdict flips; a
    grouping whose verdicts change sign once along an ordered feature gives the rule its
    threshold ("hold your sevens until you hold 5"). The groupings' detail stays in the table."""
    out = []
    groups: dict[str, list[Experiment]] = {}
    for e in EXPERIMENTS if experiments is None else resolve(experiments):
        if e.table in tabs:
            groups.setdefault(e.decision or e.key, []).append(e)
    for same in groups.values():
        exp, t = same[0], tabs[same[0].table]
        per = [rule_of_thumb(exp, g, t) for g in exp.groupings]
        cut = [
            r
            for r in per
            if r.text.split(" ")[0] != "It"
            and " until " in r.text
            and len(set(r.verdicts) - {0}) == 2
        ]
        head = t[t["grouping"] == "all"].iloc[0]
        v = int(head["verdict"])
        verdicts_all = tuple(int(x) for x in t["verdict"])
        n = int(head["positions"])
        overall = f"{_pts(head['estimate'])} {_ci(head)} over all {n:,} positions"
        if cut:
            text = cut[0].text
        elif not np.isfinite(head["p_adj"]):
            text = f"{exp.do[0].upper()}{exp.do[1:]} or {exp.dont}: {not_tested(head['hands'])}"
            if head["hands"] > 0:
                text += (
                    f" ({exp.do_ing} minus {exp.dont_ing}: {_pts(head['estimate'])} over all "
                    f"{n:,} positions)"
                )
        elif v > 0:
            text = (
                f"{exp.do[0].upper()}{exp.do[1:]} rather than {exp.dont}: it gains "
                f"{_pts(head['estimate'])[1:]} net points a hand {_ci(head)} over all "
                f"{n:,} positions"
            )
        elif v < 0:
            text = (
                f"{exp.dont[0].upper()}{exp.dont[1:]} rather than {exp.do}: "
                f"{exp.do_ing} costs {_fmt(-head['estimate'])} net points a hand "
                f"[{_fmt(-head['ci_high'])}, {_fmt(-head['ci_low'])}] over all {n:,} "
                "positions"
            )
        elif head["ci_low"] > 0 or head["ci_high"] < 0:  # a lead the correction leaves open
            arm = exp.do if head["ci_low"] > 0 else exp.dont
            text = (
                f"A lead, not confirmed: {arm} ({exp.do_ing} minus {exp.dont_ing}: "
                f"{overall}; the interval is clear of zero, but not after allowing for the "
                "many situations tested)"
            )
        else:
            text = (
                f"{exp.do[0].upper()}{exp.do[1:]} or {exp.dont}: no clear difference "
                f"({exp.do_ing} minus {exp.dont_ing}: {overall})"
            )
        said, against = [], []
        for other in same if not cut else same[1:]:
            ot = tabs[other.table]
            orows = ot[~ot["grouping"].isin(("all", "information")) & (ot["hands"] > 0)]
            flips = orows[(orows["verdict"] != 0) & (orows["verdict"] != v)]
            by_key = {g.key: g for g in other.groupings}
            for _, r in flips.iterrows():
                g = by_key[r["grouping"]]
                arm = other.do if r["verdict"] > 0 else other.dont
                where = g.phrase.format(label=r["situation"], low=r["low"])
                said.append(f"{arm} {where} ({_pts(r['estimate'])} {_ci(r)})")
            # leads the other way (an exception the correction does not confirm) are said too
            side = np.where(orows["ci_low"] > 0, 1, np.where(orows["ci_high"] < 0, -1, 0))
            other_way = (orows["verdict"] == 0) & (side != 0) & (side != v) & (v != 0)
            other_way &= _tested(orows)
            for _, r in orows[other_way.to_numpy()].iterrows():
                g = by_key[r["grouping"]]
                arm = other.do if r["ci_low"] > 0 else other.dont
                where = g.phrase.format(label=r["situation"], low=r["low"])
                against.append(f"{arm} {where} ({_pts(r['estimate'])} {_ci(r)})")
        if said:
            lead = "but" if v == 0 and not cut else "it flips:"
            text = text.rstrip(".") + f"; {lead} " + "; ".join(dict.fromkeys(said))
        if against:
            text = text.rstrip(".") + "; a lead the other way, not confirmed: "
            text += "; ".join(dict.fromkeys(against))
        for other in same:  # what a piece of hidden information is worth, where measured
            ot = tabs[other.table]
            for _, r in ot[(ot["grouping"] == "information") & (ot["hands"] > 0)].iterrows():
                worth = f"{r['situation'][0].upper()}{r['situation'][1:]}: {_pts(r['estimate'])}"
                text = text.rstrip(".") + f". {worth} net points a hand {_ci(r)}"
            if ot.attrs.get("information_worth"):
                text = text.rstrip(".") + ". " + worth_text(ot.attrs["information_worth"])
        detail = ""  # the situations are the table's rows (the item cites it)
        out.append(Rule(text.rstrip(".") + ".", detail, exp.table, exp.key, "all", verdicts_all))
    return out
