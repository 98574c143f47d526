"""Assemble the report: one self-contained HTML file (inline CSS, figures as base64 PNG).

The layout is a list of sections, each a list of blocks (a table key or a figure key); tables
and figures are numbered in order of appearance, so the "what the numbers say" sentences at the
top can cite them by number. Every table cell comes from an analysis table through the
formatters of ``reports.fmt``; the tables themselves (and each sentence's cited cells) are also
embedded as JSON (``<script type="application/json" id="report-data">``) for checking.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from reports import fmt
from reports.figures import HAND_LABELS

H = html.escape

CSS = """
body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: #222;
       max-width: 52rem; margin: 1.5rem auto; padding: 0 1rem; line-height: 1.45;
       font-size: 15px; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.25rem; border-bottom: 2px solid #1f77b4; padding-bottom: 0.15rem;
     margin-top: 2.2rem; }
h3 { font-size: 1.05rem; margin-top: 1.4rem; }
.sub { color: #555; margin-top: 0; }
nav ol { columns: 2; font-size: 0.95rem; }
table { border-collapse: collapse; margin: 0.6rem 0 0.3rem; font-size: 0.82rem; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: 0.22rem 0.4rem; text-align: right;
         vertical-align: top; }
td { white-space: nowrap; }
th { background: #f2f5f9; font-weight: 600; }
td.l, th.l { text-align: left; }
caption { caption-side: top; text-align: left; font-size: 0.85rem; color: #333;
          padding-bottom: 0.25rem; }
figure { margin: 1rem 0; page-break-inside: avoid; }
figure img { width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.85rem; color: #333; }
.say li { margin-bottom: 0.4rem; }
.cite { font-size: 0.8rem; color: #1f77b4; white-space: nowrap; }
.note { background: #fff7e0; border-left: 4px solid #e0a800; padding: 0.4rem 0.7rem;
        font-size: 0.9rem; }
pre { background: #f6f6f6; padding: 0.5rem; font-size: 0.8rem; overflow-x: auto; }
.tablewrap { overflow-x: auto; }
@media print { body { max-width: none; font-size: 11pt; } h2 { page-break-before: auto; }
               table { font-size: 8.5pt; } }
"""

SECTIONS = (
    ("say", "What the numbers say"),
    ("dealt", "Dealt special-hand odds"),
    ("play", "Special hands made during play"),
    ("risk", "Sevens and aces: meld risk and penalties"),
    ("wild", "Wild melds"),
    ("compare", "Policy comparison on duplicate deals"),
    ("scores", "Score distributions"),
    ("methods", "Methods"),
)


@dataclass
class Column:
    header: str
    cell: Callable[[pd.Series], str]
    left: bool = False


def _pct(header, est, lo, hi) -> list[Column]:
    """A proportion and its interval, two cells."""
    return [
        Column(header, lambda r: fmt.pct(r[est])),
        Column("95% CI", lambda r: fmt.pct_range(r[lo], r[hi])),
    ]


def _pts(header, est, lo, hi) -> list[Column]:
    """Points and their interval, two cells."""
    return [
        Column(header, lambda r: fmt.points(r[est])),
        Column("95% CI", lambda r: fmt.points_range(r[lo], r[hi])),
    ]


def _text(col) -> Callable[[pd.Series], str]:
    return lambda r: str(r[col])


def _hand(r) -> str:
    return HAND_LABELS.get(r["hand"], r["hand"])


def _mc(f) -> Callable[[pd.Series], str]:
    return lambda r: f(r) if "estimate" in r.index and pd.notna(r.get("estimate")) else "—"


def _ratio(k, n) -> Callable[[pd.Series], str]:
    return lambda r: f"{fmt.count(r[k])} / {fmt.count(r[n])}"


POLICY = Column("policy", _text("policy"), left=True)
COLUMNS: dict[str, list[Column]] = {
    "dealt_odds": [
        Column("hand", _hand, left=True),
        Column("exact odds", lambda r: fmt.one_in(r["exact"])),
        Column("exact probability", lambda r: fmt.pct(r["exact"])),
        Column(
            "Monte Carlo", _mc(lambda r: fmt.one_in(r["estimate"]) if r["hits"] else "none seen")
        ),
        Column("95% CI (1 in …)", _mc(lambda r: fmt.one_in_range(r["ci_low"], r["ci_high"]))),
        Column("hits", _mc(lambda r: fmt.count(r["hits"]))),
        Column("exact inside CI", _mc(lambda r: "yes" if r["exact_inside"] else "NO")),
    ],
    "special_frequency": [
        POLICY,
        Column(
            "special hand",
            lambda r: HAND_LABELS.get(r["special_hand"], r["special_hand"]),
            left=True,
        ),
        *_pct("share of team-hands", "estimate", "ci_low", "ci_high"),
        Column("odds", lambda r: fmt.one_in(r["estimate"]) if r["successes"] else "none seen"),
        Column("declared / n", _ratio("successes", "n")),
    ],
    "meld_turn": [
        POLICY,
        Column("turn started", _text("turn"), left=True),
        Column("n started", lambda r: fmt.count(r["n"])),
        *_pct("completed", "completion", "completion_low", "completion_high"),
        *_pts("team points in the hand", "points", "points_low", "points_high"),
    ],
    "meld_held": [
        POLICY,
        Column("held", _text("held")),
        Column("n started", lambda r: fmt.count(r["n"])),
        *_pct("completed", "completion", "completion_low", "completion_high"),
        # the team's points are in the by-turn tables; here the meld's own SCORE-2 value
        *_pts("meld bonus/penalty, expected", "meld_points", "meld_points_low", "meld_points_high"),
    ],
    "penalties": [
        POLICY,
        Column("rank", _text("rank"), left=True),
        *_pct("team-hands paying", "frequency", "frequency_low", "frequency_high"),
        Column("paid / n", _ratio("paid", "n")),
        *_pts("cost per team-hand", "cost", "cost_low", "cost_high"),
    ],
    "mixed_aces": [
        POLICY,
        Column("aces melds started", lambda r: fmt.count(r["aces_started"])),
        Column("mixed", lambda r: fmt.count(r["mixed"])),
        *_pct("mixed share", "mixed_share", "mixed_share_low", "mixed_share_high"),
        *_pct("mixed: completed", "completion", "completion_low", "completion_high"),
        *_pts("mixed: team points", "points", "points_low", "points_high"),
    ],
    "comparison": [
        Column("A", _text("policy_a"), left=True),
        Column("B", _text("policy_b"), left=True),
        Column("deals (×2)", lambda r: fmt.count(r["deals"])),
        *_pts("A − B points per hand", "mean_diff", "ci_low", "ci_high"),
        Column("A's win rate", lambda r: fmt.rate(r["win_rate_a"])),
        Column("95% CI", lambda r: fmt.rate_range(r["win_ci_low"], r["win_ci_high"])),
        Column("seed", _text("seed")),
    ],
    "scores": [
        POLICY,
        Column("team-hands", lambda r: fmt.count(r["n"])),
        *_pts("mean score per hand", "estimate", "ci_low", "ci_high"),
    ],
    "end_reasons": [
        Column("matchup", _text("matchup"), left=True),
        Column("hand ended by", _text("end_reason"), left=True),
        *_pct("share of hands", "estimate", "ci_low", "ci_high"),
        Column("hands / n", _ratio("successes", "n")),
    ],
}
COLUMNS["net"] = [
    POLICY,
    Column("team-hands", lambda r: fmt.count(r["n"])),
    *_pts("mean net score per hand (own − opponents')", "estimate", "ci_low", "ci_high"),
]
TABLE_COLUMNS = {  # table key -> column set
    "dealt_odds": "dealt_odds",
    "special_frequency": "special_frequency",
    "sevens_by_turn": "meld_turn",
    "aces_by_turn": "meld_turn",
    "wild_by_turn": "meld_turn",
    "sevens_by_held": "meld_held",
    "aces_by_held": "meld_held",
    "penalties": "penalties",
    "mixed_aces": "mixed_aces",
    "comparison": "comparison",
    "scores": "scores",
    "net": "net",
    "end_reasons": "end_reasons",
}


def render_rows(key: str, df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Headers and formatted cells of a table (also used by the tests)."""
    cols = COLUMNS[TABLE_COLUMNS[key]]
    return [c.header for c in cols], [[c.cell(r) for c in cols] for _, r in df.iterrows()]


def table_html(key: str, df: pd.DataFrame, number: int, caption: str) -> str:
    cols = COLUMNS[TABLE_COLUMNS[key]]
    heads, rows = render_rows(key, df)
    th = "".join(
        f'<th class="l">{H(h)}</th>' if c.left else f"<th>{H(h)}</th>"
        for h, c in zip(heads, cols, strict=True)
    )
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="l">{H(v)}</td>' if c.left else f"<td>{H(v)}</td>"
            for v, c in zip(row, cols, strict=True)
        )
        + "</tr>"
        for row in rows
    )
    interval = df.attrs.get("interval") or (
        df["interval"].iloc[0] if "interval" in df.columns and len(df) else ""
    )
    cap = f"<b>Table {number}.</b> {H(caption)}"
    if interval:
        cap += f" Intervals: {H(str(interval))}."
    return (
        f'<div class="tablewrap" id="table-{key}"><table><caption>{cap}</caption>'
        f"<thead><tr>{th}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def figure_html(key: str, uri: str, number: int, caption: str) -> str:
    return (
        f'<figure id="fig-{key}"><img src="{uri}" alt="Figure {number}: {H(caption)}">'
        f"<figcaption><b>Figure {number}.</b> {H(caption)}</figcaption></figure>"
    )


def note_html(text: str) -> str:
    return f'<p class="note">{H(text)}</p>'


def _plain(v):
    """A JSON-safe Python value: numpy scalars unwrapped, NaN and infinities as null."""
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v if isinstance(v, str | int | float | bool | type(None)) else str(v)


def data_json(tables: dict[str, pd.DataFrame], sentences) -> str:
    """The tables (full float precision) and the sentences' cited cells as JSON, safe inside a
    <script> element."""
    data = {
        "tables": {k: _plain(v.to_dict(orient="split")) for k, v in tables.items()},
        "sentences": [
            {"text": s.text, "cites": list(s.cites), "cells": [list(c) for c in s.cells]}
            for s in sentences
        ],
    }
    return json.dumps(data, allow_nan=False).replace("</", "<\\/")


def page(title: str, subtitle: str, body: str, data: str) -> str:
    nav = "".join(f'<li><a href="#{k}">{H(name)}</a></li>' for k, name in SECTIONS)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{H(title)}</title><style>{CSS}</style></head><body>"
        f'<h1>{H(title)}</h1><p class="sub">{H(subtitle)}</p>'
        f"<nav><ol>{nav}</ol></nav>{body}"
        f'<script type="application/json" id="report-data">{data}</script>'
        "</body></html>\n"
    )


# ---------------------------------------------------------------------------------------
# Assembly
# ---------------------------------------------------------------------------------------
@dataclass
class Report:
    html: str
    figures: dict  #: figure key -> matplotlib Figure (for --figures DIR)
    sentences: list


class _Numbers:
    """Numbers tables and figures in order of appearance."""

    def __init__(self):
        self.tables: dict[str, int] = {}
        self.figures: dict[str, int] = {}

    def table(self, key):
        return self.tables.setdefault(key, len(self.tables) + 1)

    def figure(self, key):
        return self.figures.setdefault(key, len(self.figures) + 1)


def _n_total(df, col="n") -> str:
    return fmt.count(int(df[col].sum())) if df is not None and col in df.columns else "0"


def _layout(results) -> dict[str, list[tuple[str, str, str]]]:
    """Section -> blocks (kind 'table'/'figure'/'text', key, caption or text)."""
    t = results.tables
    s = results.settings
    runs = results.runs
    hands = sum(len(r.records) for r in runs)
    d = t.get("dealt_odds")
    deals = (
        fmt.count(int(d["n"].dropna().iloc[0]))
        if d is not None and "n" in d.columns and d["n"].notna().any()
        else "0"
    )
    sf = t.get("special_frequency")
    team_hands = fmt.count(2 * hands)
    out = {
        "dealt": [
            (
                "text",
                "",
                "The odds that the player who plays first is dealt a special hand, "
                "under the ODDS-1 model (Methods). Exact values by counting; the Monte Carlo "
                f"estimate samples {deals} real deals.",
            ),
            (
                "table",
                "dealt_odds",
                f"Dealt special hands: exact odds beside the Monte Carlo "
                f"estimate over {deals} deals (seed {s.seed}).",
            ),
            (
                "figure",
                "dealt_odds",
                f"Exact probability (×) and Monte Carlo estimate (dot, "
                f"95% Wilson interval) per deal, log scale; n = {deals} deals.",
            ),
        ],
        "play": [
            (
                "table",
                "special_frequency",
                "Share of team-hands in which the team declared "
                f"each special hand, by policy (n = team-hands each policy played; "
                f"{team_hands} team-hands in all).",
            ),
            (
                "figure",
                "special_by_turn",
                "Cumulative share of team-hands with a special hand "
                "declared by each turn of the hand, by policy, with 95% Wilson bands; n = "
                + (
                    ", ".join(
                        f"{p} {fmt.count(n)}"
                        for p, n in sf[sf["special_hand"] == "any"][["policy", "n"]].itertuples(
                            index=False
                        )
                    )
                    if sf is not None
                    else "0"
                )
                + " team-hands.",
            ),
        ],
        "risk": [
            (
                "text",
                "",
                "A team 'starts' a meld of sevens or of natural aces when it first "
                "melds that rank; it is completed if it is a canasta at the end of the hand "
                "(SCORE-2: +2,500 completed, −2,500 incomplete). Aces melds that took wilds in the "
                "initial meld (MELD-7) are ordinary mixed melds and are reported apart.",
            ),
            (
                "table",
                "sevens_by_turn",
                "Sevens melds by the turn they were started "
                f"(n = {_n_total(t.get('sevens_by_turn'))} melds started).",
            ),
            (
                "table",
                "aces_by_turn",
                "Natural aces melds by the turn they were started "
                f"(n = {_n_total(t.get('aces_by_turn'))} melds started).",
            ),
            (
                "figure",
                "meld_completion",
                "Completion rate of sevens and natural aces melds by "
                "turn started, per policy (95% Wilson intervals; n per panel in its title, "
                "per policy and turn in the tables above).",
            ),
            (
                "table",
                "sevens_by_held",
                "Sevens melds by the number of sevens the starting "
                f"player held (n = {_n_total(t.get('sevens_by_held'))}).",
            ),
            (
                "table",
                "aces_by_held",
                "Natural aces melds by the number of aces the starting "
                f"player held (n = {_n_total(t.get('aces_by_held'))}).",
            ),
            (
                "figure",
                "meld_points",
                "Expected value of the meld's own bonus or penalty, "
                "2,500·(2c − 1) for completion rate c, by the count held (interval from the "
                "Wilson interval of c); n per panel in its title, per policy and count in the "
                "tables above.",
            ),
            (
                "table",
                "penalties",
                "In-hand penalties (SCORE-4): team-hands in which at least "
                "one player held 3+ sevens (or aces) at the end, and the cost per team-hand.",
            ),
            (
                "figure",
                "penalties",
                "Share of team-hands paying each in-hand penalty, by "
                "policy, with 95% Wilson intervals; n in the legend.",
            ),
            ("table", "mixed_aces", "Aces melds that took wilds in the initial meld (MELD-7)."),
        ],
        "wild": [
            (
                "table",
                "wild_by_turn",
                "Wild melds (MELD-8) by the turn they were started "
                f"(n = {_n_total(t.get('wild_by_turn'))} melds started; SCORE-3 bonus if "
                "completed, penalty if not).",
            ),
            (
                "figure",
                "wild_completion",
                "Completion rate of wild melds by turn started, per "
                "policy (95% Wilson intervals; n in the panel title, per policy and turn in the "
                "table above).",
            ),
        ],
        "compare": [
            (
                "text",
                "",
                "Each deal is played twice with the same cards: policy A as team 0 "
                "against B, then the policies swapped. Luck of the deal cancels in the per-deal "
                "difference; the interval is the normal interval of its mean over deals.",
            ),
            ("table", "comparison", "Duplicate-deal comparison of every pair of policies."),
            (
                "figure",
                "comparison",
                "A's points per hand minus B's, per pair, with 95% "
                "normal intervals over deals; n = deals per pair on the axis.",
            ),
        ],
        "scores": [
            (
                "table",
                "scores",
                f"Mean team score per hand by policy ({team_hands} team-hands in all).",
            ),
            ("table", "net", "Mean net score per hand (own minus opponents') by policy."),
            (
                "figure",
                "scores",
                "Distribution of a team's score per hand, by policy (share "
                "of team-hands per bin); n in the legend.",
            ),
            ("table", "end_reasons", "How hands end, by matchup (Wilson intervals; n = hands)."),
        ],
    }
    return out


def _figures(results, cols) -> dict:
    from analysis.records import team_view
    from reports import figures as F

    t = results.tables
    figs = {
        "dealt_odds": F.dealt_odds(t.get("dealt_odds")),
        "special_by_turn": F.special_by_turn(
            t.get("special_by_turn"), t.get("special_frequency"), cols
        ),
        "meld_completion": F.meld_completion(t, cols, ("sevens", "aces")),
        "meld_points": F.meld_points_by_held(t, cols),
        "penalties": F.penalties(t.get("penalties"), cols),
        "wild_completion": F.meld_completion(t, cols, ("wild",)),
        "comparison": F.comparison(t.get("comparison")),
        "scores": F.scores(team_view(results.records) if len(results.records) else None, cols),
    }
    return {k: v for k, v in figs.items() if v is not None}


def _methods(results) -> str:
    from sim.ruleset import DEFAULT_RULESET

    s = results.settings
    rs = results.ruleset
    default = DEFAULT_RULESET.to_dict()
    rows = "".join(
        f'<tr><td class="l">{H(k)}</td><td class="l">{H(str(v))}</td>'
        f'<td class="l">{H(str(default[k]))}</td>'
        f'<td class="l">{"<b>house variant</b>" if v != default[k] else "default"}</td></tr>'
        for k, v in rs.to_dict().items()
    )
    variants = [k for k, v in rs.to_dict().items() if v != default[k]]
    parts = [
        "<h3>Ruleset</h3>",
        "<p>Modern American Canasta as in the project's rulebook (docs/rules.md, rule IDs of "
        "RULES.md). "
        + (
            f"Ruleset file <code>{H(str(s.rules))}</code>; house variants: "
            f"<b>{H(', '.join(f'{k} = {rs.to_dict()[k]}' for k in variants) or 'none')}</b>."
            if s.rules
            else "Default ruleset (no --rules file): the tournament game."
        )
        + "</p>",
        '<div class="tablewrap"><table><thead><tr><th class="l">variant</th>'
        '<th class="l">value used</th><th class="l">default</th><th class="l"></th></tr>'
        f"</thead><tbody>{rows}</tbody></table></div>",
    ]
    if results.rules_text is not None:
        parts.append(f"<p>Contents of the ruleset file:</p><pre>{H(results.rules_text)}</pre>")
    run_rows = "".join(
        f'<tr><td class="l">{H(r.policies[0])}</td><td class="l">{H(r.policies[1])}</td>'
        f"<td>{H(str(r.seed))}</td><td>{fmt.count(len(r.records))}</td>"
        f'<td class="l">{H(r.source)}</td></tr>'
        for r in results.runs
    )
    source = results.meta.get("simulate", "sim.simulate")
    parts += [
        "<h3>Simulations, seeds and sample sizes</h3>",
        f"<p>Played hands from <code>{H(str(source))}</code>"
        + (" (run directories given with --from)" if s.from_dirs else "")
        + ". Every pair of policies plays the same deals twice, seats swapped (duplicate "
        "deals); pair k uses seed (run seed + k), so different pairs play different deals. "
        "A hand's deal depends only on its seed and hand index. The per-policy sections read "
        "every run together, one trial per team-hand (a team in a hand).</p>",
        '<div class="tablewrap"><table><thead><tr><th class="l">team 0</th>'
        '<th class="l">team 1</th><th>seed</th><th>hands</th><th class="l">source</th></tr>'
        f"</thead><tbody>{run_rows}</tbody></table></div>",
        (
            f"<p>Runs loaded from {len(s.from_dirs)} run directories (seeds as listed); "
            if s.from_dirs
            else f"<p>Run seed {s.seed}; hands per run {fmt.count(s.hands)}; "
        )
        + f"dealt-odds deals {fmt.count(s.deals)} (sampler seed {s.seed}); jobs {s.jobs}.</p>",
    ]
    d = results.tables.get("dealt_odds")
    model = d.attrs.get("model", "") if d is not None else ""
    if model:
        parts.append(f"<p>{H(model)}</p>")
    if "dealt_odds" in results.meta:
        parts.append(note_html(results.meta["dealt_odds"]))
    parts += [
        "<h3>Intervals</h3>",
        "<p>Every estimate is shown with its 95% interval and its sample size "
        "(analysis.intervals): a proportion of independent trials gets the Wilson score "
        "interval; a mean (points per hand, a paired difference over duplicate deals, a win "
        "rate over deals) gets the normal interval mean ± 1.96·SE. Odds are written '1 in N' "
        "with N = 1/p. A sentence in 'What the numbers say' calls a difference only when its "
        "interval excludes zero, or, for two policies' rates, when their two intervals do not "
        "overlap; otherwise it says there is no clear difference.</p>",
    ]
    if results.notes:
        items = "".join(f"<li><b>{H(k)}</b>: {H(v)}</li>" for k, v in sorted(results.notes.items()))
        parts.append(f"<h3>Tables not shown</h3><ul>{items}</ul>")
    v = results.meta["versions"]
    vers = ", ".join(f"{k} {x}" for k, x in v.items())
    m = results.meta
    timing = f"built in {m['seconds']:.1f} s"
    if "simulation_seconds" in m:
        timing += f" (simulation {m['simulation_seconds']:.1f} s"
        timing += (
            f", dealt-odds sampling {m['dealt_odds_seconds']:.1f} s)"
            if "dealt_odds_seconds" in m
            else ")"
        )
    parts += [
        "<h3>Software and date</h3>",
        f"<p>{H(vers)}. Machine: {H(m['machine'])}. Generated {H(m['date'])}, {H(timing)}.</p>",
        f"<p>To rebuild this report: <code>{H(command(s))}</code></p>",
    ]
    return "".join(parts)


def command(s) -> str:
    """The canasta command that rebuilds this report."""
    import shlex

    parts = ["canasta", "report"]
    if s.from_dirs:
        for d in s.from_dirs:
            parts += ["--from", d]
    else:
        parts += ["--hands", str(s.hands), "--policies", ",".join(s.policies)]
    parts += ["--deals", str(s.deals), "--seed", str(s.seed)]
    if s.rules:
        parts += ["--rules", str(s.rules)]
    return shlex.join(parts)


def assemble(results) -> Report:
    """The whole report from the build's results."""
    from reports import figures as F
    from reports.narrative import sentences

    policies = list(results.settings.policies) if not results.settings.from_dirs else []
    for r in results.runs:
        policies += [p for p in r.policies if p not in policies]
    cols = F.colours(policies)
    figs = _figures(results, cols)
    layout = _layout(results)
    nums = _Numbers()
    for blocks in layout.values():  # number in order of appearance
        for kind, key, _ in blocks:
            if kind == "table" and key in results.tables:
                nums.table(key)
            elif kind == "figure" and key in figs:
                nums.figure(key)
    order = tuple(policies)
    said = sentences(results.tables, order)
    items = []
    for snt in said:
        refs = ", ".join(
            f'<a href="#table-{k}">Table {nums.tables[k]}</a>'
            for k in snt.cites
            if k in nums.tables
        )
        items.append(f'<li>{H(snt.text)} <span class="cite">({refs})</span></li>')
    body = [
        '<section id="say"><h2>What the numbers say</h2>'
        "<p>Each sentence is generated from the tables of this run; the numbers are the cited "
        "tables' cells (all 95% intervals).</p>"
        f'<ul class="say">{"".join(items)}</ul></section>'
    ]
    for sec, name in SECTIONS[1:-1]:
        html_blocks = []
        for kind, key, text in layout[sec]:
            if kind == "text":
                html_blocks.append(f"<p>{H(text)}</p>")
            elif kind == "table":
                if key in results.tables:
                    html_blocks.append(table_html(key, results.tables[key], nums.tables[key], text))
                elif key in results.notes:
                    html_blocks.append(note_html(f"Not available: {results.notes[key]}"))
            elif key in figs:
                html_blocks.append(figure_html(key, F.data_uri(figs[key]), nums.figures[key], text))
        body.append(f'<section id="{sec}"><h2>{H(name)}</h2>{"".join(html_blocks)}</section>')
    body.append(f'<section id="methods"><h2>Methods</h2>{_methods(results)}</section>')
    s = results.settings
    hands = sum(len(r.records) for r in results.runs)
    variant = f", house rules {s.rules}" if s.rules else ""
    subtitle = (
        f"{fmt.count(hands)} simulated hands in {len(results.runs)} runs, "
        f"{fmt.count(s.deals)} sampled deals, seed {s.seed}{variant}; "
        f"generated {results.meta['date']}."
    )
    page_html = page(
        "Modern American Canasta: strategy report",
        subtitle,
        "".join(body),
        data_json(results.tables, said),
    )
    return Report(page_html, figs, said)


def write(report: Report, out, figures_dir=None) -> list:
    """Write the HTML file (and, with ``figures_dir``, each figure as PNG and SVG)."""
    from pathlib import Path

    from reports import figures as F

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(report.html, encoding="utf-8")
    tmp.replace(out)
    written = [out]
    if figures_dir is not None:
        d = Path(figures_dir)
        d.mkdir(parents=True, exist_ok=True)
        for i, (key, fig) in enumerate(report.figures.items(), start=1):
            png = d / f"figure{i:02d}_{key}.png"
            png.write_bytes(F.png_bytes(fig))
            svg = png.with_suffix(".svg")
            svg.write_text(F.svg_text(fig), encoding="utf-8")
            written += [png, svg]
    return written
