"""The review of a played game (``analysis.review``) as a small self-contained HTML page: the
players' error rates and luck, the chance of winning the game through it, and every decision.
The words and layout are in ``reports/templates/review.html.j2``."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

__all__ = ["chance_figure", "render", "write_html"]

TAG_COLOURS = {"": "#4477aa", "doubtful": "#ccbb44", "error": "#ee7733", "blunder": "#cc3311"}


def chance_figure(rev):
    """The reviewed seats' teams' chance of winning the game after each decision (the move
    made, through the equity table), by the record's move number; tagged moves coloured.
    None without game chances."""
    from reports.figures import legend_below, new

    d = rev.decisions
    if not len(d) or d["win"].isna().all():
        return None
    fig, (ax,) = new(3.2)
    for seat, part in d[d["win"].notna()].groupby("seat"):
        ax.plot(part["move"], 100 * part["win"], lw=1, label=f"P{seat}'s team")
        for t, colour in TAG_COLOURS.items():
            pts = part[part["tag"] == t]
            if t and len(pts):
                ax.scatter(pts["move"], 100 * pts["win"], color=colour, s=18, zorder=3, label=t)
    for move in d.groupby("hand")["move"].min().iloc[1:]:
        ax.axvline(move - 0.5, color="k", lw=0.4, alpha=0.5)
    ax.set_ylim(0, 100)
    ax.set_xlabel("move (canasta replay's numbers); lines: a new hand")
    ax.set_ylabel("chance of winning the game, %")
    legend_below(fig, ax)
    return fig


def _cell(v, spec: str = "") -> str:
    if isinstance(v, float) and math.isnan(v):
        return ""
    return format(v, spec)


def render(rev) -> str:
    """The page as text."""
    from analysis.review import summary
    from reports.figures import svg_text
    from reports.html import environment

    fig = chance_figure(rev)
    rows = []
    for r in rev.decisions.to_dict(orient="records"):
        rows.append(
            {
                "move": r["move"],
                "hand": r["hand"],
                "seat": r["seat"],
                "decision": r["decision"],
                "made": r["made"] or "(outside the listed plans)",
                "best": r["best"],
                "confidence": _cell(r["best_confidence"], ".0%"),
                "cost_points": _cell(r["cost_points"], "+.0f"),
                "cost_game": _cell(100 * r["cost_game"], "+.2f"),
                "tag": r["tag"],
            }
        )
    players = []
    for s in summary(rev).to_dict(orient="records"):
        players.append(
            {
                "seat": s["seat"],
                "decisions": s["decisions"],
                "rate": _cell(s["error_rate"], ".1f"),
                "interval": ""
                if np.isnan(s["rate_low"])
                else f"{s['rate_low']:.1f} to {s['rate_high']:.1f}",
                "tags": f"{s['doubtful']} / {s['error']} / {s['blunder']}",
                "luck_points": f"{s['luck_points']:+.0f} (SE {s['luck_points_se']:.0f})",
                "luck_game": ""
                if math.isnan(s["luck_game"])
                else f"{100 * s['luck_game']:+.2f} (SE {100 * s['luck_game_se']:.2f})",
                "points": _cell(s.get("points", math.nan), "+,"),
                "adjusted": _cell(s.get("luck_adjusted_points", math.nan), "+,.0f"),
            }
        )
    return (
        environment()
        .get_template("review.html.j2")
        .render(
            meta=rev.meta,
            players=players,
            rows=rows,
            figure=svg_text(fig) if fig is not None else "",
            tags=rev.meta["tags"],
        )
    )


def write_html(rev, path) -> Path:
    """Write the page to ``path``."""
    path = Path(path)
    path.write_text(render(rev), encoding="utf-8")
    return path
