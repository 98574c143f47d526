"""The report's figures (matplotlib, Agg canvas; no pyplot state, no display needed).

Each function takes analysis tables and returns a ``Figure`` (or ``None`` when its table is
missing). Every figure draws its intervals, labels its axes with units and states its sample
size; sizes fit an A4/Letter text width (7.2 in) and read at 100% in a browser.
"""

from __future__ import annotations

import base64
import io

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from reports import fmt

__all__ = [
    "comparison",
    "dealt_odds",
    "equity_heatmap",
    "game_chance",
    "penalties",
    "scores",
    "special_by_turn",
]

WIDTH = 7.2  #: inches: an A4/Letter text width
DPI = 120  #: PNG resolution embedded in the HTML
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2")
HAND_LABELS = {
    "straight": "Straight",
    "pairs": "Pairs",
    "pairs_twos_sevens_aces": "Pairs 2-7-A",
    "garbage": "Garbage",
    "any": "Any special hand",
}


def new(height: float, ncols: int = 1, sharey: bool = False) -> tuple[Figure, list]:
    fig = Figure(figsize=(WIDTH, height), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, ncols, sharey=sharey, squeeze=False)[0]
    for ax in axes:
        ax.grid(True, alpha=0.3, linewidth=0.6)
        ax.tick_params(labelsize=8)
    return fig, list(axes)


def legend_below(fig: Figure, ax, ncols: int = 3) -> None:
    """One legend below the plot area, so it never hides data."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        fig.legend(
            handles,
            labels,
            loc="outside lower center",
            ncols=min(ncols, len(labels)),
            fontsize=7.5,
            frameon=False,
        )


def _nice(step: float) -> float:
    """A round bin width (1, 2, 2.5 or 5 times a power of ten) at least ``step``."""
    p = 10 ** np.floor(np.log10(step))
    for m in (1, 2, 2.5, 5, 10):
        if m * p >= step:
            return float(m * p)
    return float(10 * p)


def colours(policies) -> dict[str, str]:
    """One colour per policy, stable across figures."""
    return {p: PALETTE[i % len(PALETTE)] for i, p in enumerate(policies)}


def png_bytes(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})  # no URL inside
    return buf.getvalue()


def svg_text(fig: Figure) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    return buf.getvalue()


def data_uri(fig: Figure) -> str:
    return "data:image/png;base64," + base64.b64encode(png_bytes(fig)).decode("ascii")


def _errbar(ax, x, est, low, high, **kw):
    est, low, high = (np.asarray(v, dtype=float) for v in (est, low, high))
    yerr = np.vstack([est - low, high - est])
    return ax.errorbar(x, est, yerr=yerr, capsize=3, linewidth=1.2, markersize=5, **kw)


def dealt_odds(t: pd.DataFrame | None) -> Figure | None:
    """ODDS-1: exact probability (×) beside the Monte Carlo estimate with its interval."""
    if t is None or not (t["exact"] > 0).any():
        return None
    fig, (ax,) = new(2.9)
    y = np.arange(len(t))[::-1].astype(float)
    labels = [HAND_LABELS.get(h, h) for h in t["hand"]]
    exact = t["exact"].to_numpy(float)
    xmin = float(exact[exact > 0].min()) / 4
    xmax = float(exact.max()) * 10
    ax.scatter(exact, y, marker="x", s=55, color="black", zorder=3, label="exact")
    if "estimate" in t.columns and t["estimate"].notna().any():
        mc = t["estimate"].notna().to_numpy()
        n = int(t.loc[mc, "n"].iloc[0])
        est = t.loc[mc, "estimate"].to_numpy(float)
        low = np.maximum(t.loc[mc, "ci_low"].to_numpy(float), xmin)  # log axis: clip at 0
        high = t.loc[mc, "ci_high"].to_numpy(float)
        ym = y[mc] - 0.2
        # a zero estimate cannot sit on a log axis: its interval runs from the axis edge
        centre = np.where(est > 0, est, low)
        ax.errorbar(
            centre,
            ym,
            xerr=np.vstack([centre - low, high - centre]),
            fmt="none",
            ecolor=PALETTE[0],
            capsize=3,
            linewidth=1.2,
        )
        ax.scatter(
            np.where(est > 0, est, np.nan),
            ym,
            color=PALETTE[0],
            s=22,
            zorder=3,
            label=f"Monte Carlo, {fmt.count(n)} deals, 95% Wilson interval",
        )
    ax.set_xscale("log")
    ax.set_xlim(xmin, xmax)
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_ylim(-0.7, len(t) - 0.3)
    ax.set_xlabel("probability per deal (log scale)", fontsize=9)
    for yi, p in zip(y, exact, strict=True):
        if p > 0:
            ax.annotate(
                f"exact {fmt.one_in(p)}",
                (p, yi),
                xytext=(7, 2),
                textcoords="offset points",
                fontsize=7.5,
                va="bottom",
            )
    legend_below(fig, ax)
    ax.set_title("Dealt special hands (ODDS-1): exact and Monte Carlo", fontsize=10)
    return fig


def special_by_turn(t: pd.DataFrame | None, freq: pd.DataFrame | None, cols) -> Figure | None:
    """Cumulative share of team-hands with a special hand declared by turn t, per policy."""
    if t is None or len(t) == 0:
        return None
    fig, (ax,) = new(3.0)
    for policy, g in t.groupby("policy", sort=False):
        n = int(g["n"].iloc[0])
        c = cols.get(policy, "grey")
        ax.step(
            g["turn"],
            100 * g["estimate"],
            where="post",
            color=c,
            label=f"{policy} (n = {fmt.count(n)} team-hands)",
        )
        ax.fill_between(
            g["turn"],
            100 * g["ci_low"],
            100 * g["ci_high"],
            step="post",
            color=c,
            alpha=0.2,
            linewidth=0,
        )
    ax.set_xlabel("turn of the hand (all four players' turns counted)", fontsize=9)
    ax.set_ylabel("team-hands with a special hand\ndeclared by then (%)", fontsize=9)
    ax.set_ylim(bottom=0)
    legend_below(fig, ax)
    ax.set_title("Special hands made during play, by turn (95% Wilson bands)", fontsize=10)
    return fig


def _dodge(k: int, i: int, width: float = 0.5) -> float:
    return 0.0 if k == 1 else (i - (k - 1) / 2) * width / (k - 1)


def meld_completion(
    tables: dict, cols, melds: tuple[str, ...] = ("sevens", "aces"), by: str = "turn"
) -> Figure | None:
    """Completion rate of the given melds by the turn they were started."""
    keys = [f"{m}_by_{by}" for m in melds]
    present = [(k, tables[k]) for k in keys if tables.get(k) is not None and len(tables[k])]
    if not present:
        return None
    fig, axes = new(3.1, ncols=len(present), sharey=True)
    for ax, (key, t) in zip(axes, present, strict=True):
        policies = list(dict.fromkeys(t["policy"]))
        cats = list(dict.fromkeys(t[by].astype(str)))
        for i, (policy, g) in enumerate(t.groupby("policy", sort=False)):
            x = np.array([cats.index(str(v)) for v in g[by]]) + _dodge(len(policies), i)
            _errbar(
                ax,
                x,
                100 * g["completion"],
                100 * g["completion_low"],
                100 * g["completion_high"],
                fmt="o",
                color=cols.get(policy, "grey"),
                label=policy,
            )
        ax.set_xticks(range(len(cats)), cats, rotation=45, fontsize=7)
        ax.set_title(
            f"{key.split('_')[0].capitalize()} melds (n = {fmt.count(t['n'].sum())})", fontsize=9
        )
        ax.set_xlabel("turn started (hand's turns)" if by == "turn" else f"{by}", fontsize=8)
        ax.set_ylim(-2, 102)
    legend_below(fig, axes[0])
    axes[0].set_ylabel("completed by the end of the hand (%)", fontsize=8)
    fig.suptitle(
        "Completion by turn started (95% Wilson intervals; n = melds started)", fontsize=10
    )
    return fig


def meld_points_by_held(tables: dict, cols) -> Figure | None:
    """Expected value of the meld's own bonus/penalty (SCORE-2) by the count held when started."""
    present = [(m, tables.get(f"{m}_by_held")) for m in ("sevens", "aces")]
    present = [(m, t) for m, t in present if t is not None and len(t)]
    if not present:
        return None
    fig, axes = new(3.0, ncols=len(present), sharey=True)
    for ax, (meld, t) in zip(axes, present, strict=True):
        policies = list(dict.fromkeys(t["policy"]))
        for i, (policy, g) in enumerate(t.groupby("policy", sort=False)):
            x = g["held"].to_numpy(float) + _dodge(len(policies), i, 0.4)
            _errbar(
                ax,
                x,
                g["meld_points"],
                g["meld_points_low"],
                g["meld_points_high"],
                fmt="o",
                color=cols.get(policy, "grey"),
                label=policy,
            )
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xlabel(f"{meld} held by the player who started the meld", fontsize=8)
        ax.set_title(
            f"{meld.capitalize()} (n = {fmt.count(t['n'].sum())} melds started)", fontsize=9
        )
        ax.xaxis.get_major_locator().set_params(integer=True)
    legend_below(fig, axes[0])
    axes[0].set_ylabel("expected meld points per meld started", fontsize=8)
    fig.suptitle(
        "Expected value of starting a sevens or aces meld (SCORE-2; 95% intervals)", fontsize=10
    )
    return fig


def penalties(t: pd.DataFrame | None, cols) -> Figure | None:
    """SCORE-4 in-hand penalties: share of team-hands paying, by policy and rank."""
    if t is None or len(t) == 0:
        return None
    fig, (ax,) = new(2.8)
    ranks = list(dict.fromkeys(t["rank"]))
    policies = list(dict.fromkeys(t["policy"]))
    width = 0.8 / max(1, len(policies))
    for i, policy in enumerate(policies):
        g = t[t["policy"] == policy].set_index("rank").reindex(ranks)
        x = np.arange(len(ranks)) + (i - (len(policies) - 1) / 2) * width
        f = 100 * g["frequency"].to_numpy(float)
        ax.bar(
            x,
            f,
            width=width * 0.9,
            color=cols.get(policy, "grey"),
            alpha=0.8,
            label=f"{policy} (n = {fmt.count(g['n'].iloc[0])} team-hands)",
        )
        _errbar(
            ax,
            x,
            f,
            100 * g["frequency_low"],
            100 * g["frequency_high"],
            fmt="none",
            ecolor="black",
        )
    ax.set_xticks(range(len(ranks)), [f"3+ {r} held at the end" for r in ranks], fontsize=8)
    ax.set_ylabel("team-hands paying (%)", fontsize=9)
    legend_below(fig, ax)
    ax.set_title("In-hand penalties (SCORE-4, 1,500 per player; 95% Wilson intervals)", fontsize=10)
    return fig


def comparison(t: pd.DataFrame | None) -> Figure | None:
    """Duplicate-deal comparison: A's points per hand minus B's, with its interval, per pair."""
    if t is None or len(t) == 0:
        return None
    fig, (ax,) = new(0.9 + 0.45 * len(t))
    y = np.arange(len(t))[::-1]
    est, low, high = (t[c].to_numpy(float) for c in ("mean_diff", "ci_low", "ci_high"))
    ax.errorbar(
        est, y, xerr=np.vstack([est - low, high - est]), fmt="o", color=PALETTE[0], capsize=3
    )
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(
        y,
        [
            f"{a} − {b}\n({fmt.count(n)} deals ×2)"
            for a, b, n in zip(t["policy_a"], t["policy_b"], t["deals"], strict=True)
        ],
        fontsize=7.5,
    )
    ax.set_xlabel(
        "points per hand, first policy minus second (same deals, seats swapped)", fontsize=9
    )
    ax.set_ylim(-0.6, len(t) - 0.4)
    ax.set_title(
        "Policy comparison on duplicate deals (95% normal intervals over deals)", fontsize=10
    )
    return fig


def scores(view: pd.DataFrame | None, cols) -> Figure | None:
    """Distribution of a team's score per hand, per policy (step histograms)."""
    if view is None or len(view) == 0:
        return None
    fig, (ax,) = new(3.0)
    lo, hi = np.percentile(view["score"], [0.5, 99.5])
    width = _nice(max(hi - lo, 1.0) / 60)
    bins = np.arange(np.floor(lo / width) * width, hi + width, width)
    lo, hi = bins[0], bins[-1] - 1e-9
    for policy, g in view.groupby("policy", sort=False):
        ax.hist(
            g["score"].clip(lo, hi),
            bins=bins,
            histtype="step",
            density=False,
            weights=np.full(len(g), 100.0 / len(g)),
            color=cols.get(policy, "grey"),
            linewidth=1.3,
            label=f"{policy} (n = {fmt.count(len(g))} team-hands)",
        )
    ax.set_xlabel(
        "team score in the hand (points; the extreme 1% clipped into the end bins)", fontsize=9
    )
    ax.set_ylabel(f"% of team-hands per {width:,g}-point bin", fontsize=9)
    legend_below(fig, ax)
    ax.set_title("Score per hand by policy", fontsize=10)
    return fig


def game_chance(t: pd.DataFrame | None) -> Figure | None:
    """The equity table as a heat map: team 0's chance of winning the game (GAME-1) by the two
    teams' scores, team 0 to play first; lines at the opening tiers' edges (OPEN-1)."""
    if t is None or len(t) == 0:
        return None
    grid = t.pivot(index="score_team0", columns="score_team1", values="win_team0")
    s0, s1 = grid.index.to_numpy(), grid.columns.to_numpy()
    step = float(s0[1] - s0[0]) if len(s0) > 1 else 1.0
    fig, (ax,) = new(5.6)
    ax.grid(False)
    im = ax.imshow(
        100 * grid.to_numpy(dtype=float),
        origin="lower",
        cmap="RdBu",
        vmin=0,
        vmax=100,
        aspect="auto",
        extent=(s1[0] - step / 2, s1[-1] + step / 2, s0[0] - step / 2, s0[-1] + step / 2),
    )
    for x in t.attrs.get("tiers", []):
        ax.axhline(x, color="black", linewidth=0.6)
        ax.axvline(x, color="black", linewidth=0.6)
    ax.set_xlabel("team 1's score", fontsize=9)
    ax.set_ylabel("team 0's score", fontsize=9)
    ax.set_title("Chance that team 0 wins the game, team 0 to play first", fontsize=10)
    fig.colorbar(im, ax=ax, label="percent")
    return fig


def equity_heatmap(table, step: int = 100) -> Figure:
    """``game_chance`` of an equity table (``analysis.equity.EquityTable``): its ``frame``
    every ``step`` points, team 0 to play first, lines at its opening tiers (OPEN-1)."""
    frame = table.frame(step=step)
    chance = frame[frame["first"] == 0].reset_index(drop=True)
    chance.attrs |= {
        "ruleset": table.meta.get("ruleset_label", ""),
        "tiers": list(table.meta.get("tiers", [])),
    }
    return game_chance(chance)
