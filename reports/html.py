"""Render the report: one self-contained HTML file (inline CSS, figures as base64 PNG).

What the page says (sections, table columns, captions, the Methods facts) is in
``reports.content``; how it looks is in ``reports/templates`` (jinja2: ``report.html.j2``,
``methods.html.j2``, ``report.css``). This module numbers tables and figures in order of
appearance, so the "what the numbers say" sentences at the top can cite them by number, formats
every table cell from an analysis table through ``reports.fmt``, and embeds the tables (and each
sentence's cited cells) as JSON (``<script type="application/json" id="report-data">``) for
checking.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass

import pandas as pd

from reports import content
from reports.columns import COLUMNS, TABLE_COLUMNS
from reports.content import SECTIONS, command

__all__ = ["Report", "assemble", "command", "write"]


@functools.cache
def environment():
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("reports", "templates"),
        autoescape=True,  # every value is text; the one exception is marked |safe
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render_rows(key: str, df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Headers and formatted cells of a table (also used by the tests)."""
    cols = COLUMNS[TABLE_COLUMNS[key]]
    return [c.header for c in cols], [[c.cell(r) for c in cols] for _, r in df.iterrows()]


def _table(key: str, df: pd.DataFrame, number: int, caption: str) -> dict:
    """A table block for the template: cells paired with their alignment."""
    left = [c.left for c in COLUMNS[TABLE_COLUMNS[key]]]
    heads, rows = render_rows(key, df)
    interval = df.attrs.get("interval") or (
        df["interval"].iloc[0] if "interval" in df.columns and len(df) else ""
    )
    return {
        "kind": "table",
        "key": key,
        "number": number,
        "caption": caption,
        "interval": str(interval) if interval else "",
        "heads": list(zip(heads, left, strict=True)),
        "rows": [list(zip(row, left, strict=True)) for row in rows],
    }


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


def data_json(tables: dict[str, pd.DataFrame], sentences, advice=()) -> str:
    """The tables (full float precision), the sentences' cited cells and the advice items as
    JSON, safe inside a <script> element."""
    data = {
        "advice": [{"text": a["text"], "detail": a["detail"], "table": a["table"]} for a in advice],
        "tables": {k: _plain(v.to_dict(orient="split")) for k, v in tables.items()},
        "sentences": [
            {"text": s.text, "cites": list(s.cites), "cells": [list(c) for c in s.cells]}
            for s in sentences
        ],
    }
    return json.dumps(data, allow_nan=False).replace("</", "<\\/")


# ---------------------------------------------------------------------------------------
# Assembly
# ---------------------------------------------------------------------------------------
@dataclass
class Report:
    html: str
    figures: dict  #: figure key -> matplotlib Figure (for --figures DIR)
    sentences: list
    advice: list  #: the Advice items: {"text", "table", "number"}


def advice_items(results, nums) -> list[dict]:
    """The advice, one item per decision (``analysis.decisions.advice``), with its table's
    number."""
    from analysis.decisions import advice

    items = [
        {
            "text": r.text,
            "detail": r.detail,
            "table": r.table,
            "number": nums.tables[r.table],
            "verdicts": list(r.verdicts),
        }
        for r in advice(results.tables)
        if r.table in nums.tables
    ]
    return sorted(items, key=lambda a: _value(results.tables[a["table"]], a["verdicts"]))


def _value(table, verdicts) -> tuple[int, float]:
    """The advice's order, most valuable first: a confirmed direction (by the size of its
    effect over all positions), then a lead (an interval clear of zero), then the rest."""
    head = table[table["grouping"] == "all"].iloc[0]
    size = abs(float(head["estimate"])) if head["estimate"] == head["estimate"] else 0.0
    if any(verdicts):
        return 0, -size
    lead = head["ci_low"] > 0 or head["ci_high"] < 0
    return (1 if lead else 2), -size


class _Numbers:
    """Numbers tables and figures in order of appearance."""

    def __init__(self):
        self.tables: dict[str, int] = {}
        self.figures: dict[str, int] = {}

    def table(self, key):
        return self.tables.setdefault(key, len(self.tables) + 1)

    def figure(self, key):
        return self.figures.setdefault(key, len(self.figures) + 1)


def _figures(results, cols) -> dict:
    from analysis.schema import team_view
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
        "game_chance": F.game_chance(t.get("game_chance")),
        "scores": F.scores(team_view(results.records) if len(results.records) else None, cols),
    }
    return {k: v for k, v in figs.items() if v is not None}


def _blocks(results, layout, figs, nums) -> list[dict]:
    """The sections between "what the numbers say" and Methods, as template blocks."""
    from reports import figures as F

    body = []
    for sec, name in SECTIONS:
        if sec not in layout:  # advice, say and methods have their own templates
            continue
        blocks = []
        for kind, key, text in layout[sec]:
            if kind == "text":
                blocks.append({"kind": "text", "text": text})
            elif kind == "table":
                if key in results.tables:
                    blocks.append(_table(key, results.tables[key], nums.tables[key], text))
                elif key in results.notes:
                    blocks.append({"kind": "missing", "text": results.notes[key]})
            elif key in figs:
                uri = F.data_uri(figs[key])
                n = nums.figures[key]
                blocks.append(
                    {"kind": "figure", "key": key, "uri": uri, "number": n, "caption": text}
                )
        body.append({"key": sec, "name": name, "blocks": blocks})
    return body


def assemble(results) -> Report:
    """The whole report from the build's results."""
    from reports import figures as F
    from reports.narrative import sentences

    policies = list(results.settings.policies) if not results.settings.from_dirs else []
    for r in results.runs:
        policies += [p for p in r.policies if p not in policies]
    figs = _figures(results, F.colours(policies))
    layout = content.layout(results)
    nums = _Numbers()
    for blocks in layout.values():  # number in order of appearance
        for kind, key, _ in blocks:
            if kind == "table" and key in results.tables:
                nums.table(key)
            elif kind == "figure" and key in figs:
                nums.figure(key)
    said = sentences(results.tables, tuple(policies))
    advice = advice_items(results, nums)
    page = (
        environment()
        .get_template("report.html.j2")
        .render(
            title=content.title(results),
            subtitle=content.subtitle(results),
            measured="Measured under " + content.ruleset_label(results) + ".",
            sections=SECTIONS,
            names=dict(SECTIONS),
            advice=advice,
            advice_intro=content.ADVICE_INTRO.format_map(content.caption_numbers(results)),
            advice_missing=content.ADVICE_MISSING,
            say_intro=content.SAY_INTRO,
            said=[
                {"text": s.text, "refs": [(k, nums.tables[k]) for k in s.cites if k in nums.tables]}
                for s in said
            ],
            body=_blocks(results, layout, figs, nums),
            m=content.methods(results),
            data=data_json(results.tables, said, advice),
        )
    )
    return Report(page, figs, said, advice)


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
