"""The reference band: each bot's error rate on its own games (``canasta review``'s measure).

For each bot, ``--games`` games to the target (8,500) with the bot in every seat
(``GameDriver``; the tournament list). Reviewing every decision of a game costs too much, so
each game's decisions (every draw where the pile could be taken and every play step right
after a stock draw, all four seats: ``played_decisions``) are put in a seeded random order
and reviewed one by one with the review's own machinery (``analysis.review.review``, ``-n``
deals a choice and no wall-clock budget) until ``-k`` of them are **rated** (more than one
choice, the move found among the plans: the decisions the review's error rate counts). Every
seat plays on with ``--on``, whose equity table reads the game chance, for every bot alike so
that the rows compare. Its default is ``strongest_fast()``, the policy the review's advice
plays on, so that a player's rate and the band are judged by the same yardstick; the band
file names it (``"on"``), and the review places a rate only in a band measured with its own
(``analysis.review.reference_band``). A game's error rate is
the mean cost in the chance of winning the game of its ``k`` rated decisions, x 1,000
(thousandths of a game a decision), an unbiased estimate of the rate over all its rated
decisions; the bot's rate is the mean over games, with a 95% interval from the spread of the
games' rates (so it holds the variance between games and the sampling within them).

``random`` never reaches the target: its hands score about -2,000 a team, and within two or
three hands its totals are thousands apart, where no move changes the chance of winning the
game (its review reads a cost of exactly 0 there, which would rank it above the heuristic).
So its band is measured on the **first hand** of each of its games (scores 0-0, the game
open), the hand every review starts with (``--first-hand-only``). Every other bot's games are
reviewed whole.

Resumable: each reviewed decision is one line of ``--out``. Run from the repository root::

    nice -n 5 python benchmarks/bench_review_band.py --games 100 -k 12 --out runs/band.jsonl
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import time
from pathlib import Path

import numpy as np

#: every bot the band has measured; a bot's place here seeds its games' order of decisions, so
#: a bot is only ever added at the end
BOTS = ("random", "heuristic", "strong", "game_strong", "strong_v2")
#: the bots measured by default: the issue's four (random, heuristic, strong, the strongest
#: fast bot)
DEFAULT_BOTS = ("random", "heuristic", "strong", "strong_v2")


def review_game(bot: str, b_i: int, g: int, a, eq, rows) -> None:
    """Review game ``g`` of ``bot`` until ``a.k`` decisions are rated (module docstring)."""
    from played_decisions import game_decisions, kind, match, play_game

    from analysis.review import review
    from sim.errors import CanastaError

    first = bot in a.first_hand_only.split(",")
    hands = play_game(bot, a.seed, g, low=eq.low, hands=1 if first else 0)
    ds = [d for d in game_decisions(hands) if not d.forced]
    order = np.random.default_rng([a.seed, b_i, g]).permutation(len(ds))
    rated = 0
    for j, i in enumerate(order):
        if rated >= a.k:
            break
        d = ds[i]
        if not rows.done(bot, g, d.move):
            row = {"bot": bot, "game": g, "move": d.move, "seat": d.seat, "kind": kind(d)}
            row["on"] = a.on
            row |= {"hands": len(hands), "pool": len(ds), "kept_three": _holds_three(d)}
            t = time.process_time()
            try:
                seed = ((a.seed * 10 + b_i) * 1000 + g) * 1000 + j
                r = review([d], match, equity=eq, n=a.n, budget=None, seed=seed, policies=a.on)
                x = r.decisions.iloc[0]
                row |= {"choices": int(x["choices"]), "made": x["made"], "tag": x["tag"]}
                for c in ("cost_game", "cost_game_low", "cost_game_high", "cost_points"):
                    row[c] = None if math.isnan(x[c]) else float(x[c])
            except CanastaError as exc:  # a position the advice refuses (the reason kept)
                row |= {"choices": 0, "refused": str(exc)}
            row["cpu"] = round(time.process_time() - t, 3)
            rows.add(row)
            print(json.dumps(row), flush=True)
        r = rows.get(bot, g, d.move)
        rated += _rated(r)


def _holds_three(d) -> bool:
    """The decision's hand holds a three: the one kept toward a Straight (DEAL-5)."""
    from sim import encoding as E

    kinds = E.CARD_KIND[np.asarray(d.position.hand, dtype=np.int64)]
    return bool(np.isin(kinds, (E.RED_THREE, E.BLACK_THREE)).any())


def _rated(r: dict) -> bool:
    """A decision the error rate counts: a choice, the move among the plans, a cost."""
    return r["choices"] > 1 and bool(r.get("made")) and r.get("cost_game") is not None


def _first_k(rows: list[dict], k: int) -> list[dict]:
    """Each game's rows up to and including its ``k``-th rated one, in the rows' order."""
    seen: dict[int, int] = {}
    out = []
    for r in rows:
        if seen.get(r["game"], 0) < k:
            out.append(r)
            seen[r["game"]] = seen.get(r["game"], 0) + _rated(r)
    return out


def band(rows: list[dict], games: int, k: int | None = None) -> dict:
    """Per bot: the mean of the games' error rates, its 95% interval (normal, from the games'
    spread), and the counts. With ``k``: each game's first ``k`` rated decisions in the order
    they were reviewed (the rows' order), so a run continued to a larger ``-k`` is read at a
    smaller one exactly as if it had stopped there."""
    out = {}
    for bot in dict.fromkeys(r["bot"] for r in rows):
        mine = [r for r in rows if r["bot"] == bot and r["game"] < games]
        if k is not None:
            mine = _first_k(mine, k)
        by_game: dict[int, list[float]] = {}
        for r in mine:
            if _rated(r):
                by_game.setdefault(r["game"], []).append(1000 * r["cost_game"])
        rates = np.array([np.mean(v) for v in by_game.values()])
        se = rates.std(ddof=1) / math.sqrt(len(rates)) if len(rates) > 1 else math.nan
        pts = [r["cost_points"] for r in mine if r["choices"] > 1 and r.get("made")]
        out[bot] = {
            "games": len(rates),
            "rated": sum(len(v) for v in by_game.values()),
            "reviewed": len(mine),
            "unmatched": sum(r["choices"] > 1 and not r.get("made") for r in mine),
            "refused": sum(r["choices"] == 0 for r in mine),
            "kept_three": sum(bool(r.get("kept_three")) for r in mine),
            "kept_three_rated": sum(
                bool(r.get("kept_three")) and r["choices"] > 1 and bool(r.get("made")) for r in mine
            ),
            "rate": float(rates.mean()) if len(rates) else math.nan,
            "se": se,
            "points": float(np.mean(pts)) if pts else math.nan,
            "points_se": float(np.std(pts, ddof=1) / math.sqrt(len(pts))) if len(pts) > 1 else 0,
            "cpu": sum(r["cpu"] for r in mine),
        }
    return out


def report(b: dict, a) -> str:
    lines = [
        f"ruleset: special hands tournament (target 8,500); review at {a.n} deals a choice "
        f"({a.on_label} plays on, its equity table), {a.k} rated decisions a game; error rate: "
        "thousandths of a game lost a decision, mean over games, 95% interval",
        f"{'bot':12s} {'games':>5s} {'rated':>6s} {'error rate':>24s} {'points a decision':>20s}"
        f" {'unmatched':>9s} {'refused':>7s} {'three':>5s} {'cpu s':>6s}",
    ]
    first = a.first_hand_only.split(",")
    for bot, s in b.items():
        h = 1.96 * s["se"]
        lines.append(
            f"{bot + ('*' if bot in first else ''):12s} {s['games']:5d} {s['rated']:6d} "
            f"{s['rate']:7.1f} "
            f"[{s['rate'] - h:6.1f}, {s['rate'] + h:6.1f}] {s['points']:9.1f} (SE "
            f"{s['points_se']:5.1f}) {s['unmatched']:9d} {s['refused']:7d} "
            f"{s['kept_three']:5d} {s['cpu']:6.0f}"
        )
    names = list(b)
    for x, y in itertools.pairwise(names):
        d = b[x]["rate"] - b[y]["rate"]
        se = math.hypot(b[x]["se"], b[y]["se"])
        z = d / se if se > 0 else math.nan
        lines.append(
            f"{x} - {y}: {d:+.1f} [{d - 1.96 * se:+.1f}, {d + 1.96 * se:+.1f}] (z {z:+.1f}): "
            + ("told apart" if abs(z) > 1.96 else "not told apart")
        )
    if any(bot in first for bot in b):
        lines.append("* the first hand of each game only (scores 0-0)")
    lines.append("three: reviewed decisions whose hand held a three kept for a Straight (DEAL-5)")
    return "\n".join(lines)


def main(argv=None) -> int:
    from analysis.equity import equity_table

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bots", default=",".join(DEFAULT_BOTS))
    p.add_argument(
        "--on",
        default=None,
        help="the policy playing on, and its equity table (default: the strongest fast one, "
        "as the review's advice plays on)",
    )
    p.add_argument("--games", type=int, default=100, help="games per bot")
    p.add_argument("-k", type=int, default=12, help="rated decisions reviewed a game")
    p.add_argument("-n", type=int, default=64, help="deals a choice (the review's default)")
    p.add_argument("--seed", type=int, default=56)
    p.add_argument("--out", default="runs/band.jsonl", help="the rows (resumable)")
    p.add_argument(
        "--first-hand-only", default="random", help="bots reviewed on their games' first hand"
    )
    p.add_argument("--report-only", action="store_true", help="summarise --out, review nothing")
    p.add_argument(
        "--band-file",
        help="also write the band as the review reads it (analysis/review_band.json's format)",
    )
    a = p.parse_args(argv)
    from played_decisions import Rows, policy_on

    from sim.policies import strongest_fast

    a.on = a.on or strongest_fast()
    rows = Rows(a.out, ("bot", "game", "move"))
    a.on_label = policy_on(rows, a.on)
    bots = a.bots.split(",")
    if not a.report_only:
        eq = equity_table(None, a.on)
        for g in range(a.games):  # the bots in turn, so a stopped run leaves all of them even
            for bot in bots:
                review_game(bot, BOTS.index(bot) if bot in BOTS else len(BOTS), g, a, eq, rows)
    b = band([r for r in rows.rows if r["bot"] in bots], a.games, a.k)
    print(report(b, a))
    if a.band_file:
        write_band(b, a)
    return 0


def write_band(b: dict, a) -> None:
    """The band as ``analysis.review.reference_band`` reads it: each bot's rate and 95% interval
    (thousandths of a game a decision), its games, the ruleset and the command that made it."""
    first = a.first_hand_only.split(",")
    # the bots in BOTS's order, whatever order their rows came in (two processes, say)
    b = {k: b[k] for k in sorted(b, key=lambda k: BOTS.index(k) if k in BOTS else len(BOTS))}
    bots = {
        bot: {
            "rate": round(s["rate"], 2),
            "low": round(s["rate"] - 1.96 * s["se"], 2),
            "high": round(s["rate"] + 1.96 * s["se"], 2),
            "games": s["games"],
            **({"first_hand_only": True} if bot in first else {}),
        }
        for bot, s in b.items()
    }
    out = {
        "bots": bots,
        "ruleset": "tournament",
        "on": a.on,
        "unit": "thousandths of a game lost a decision",
        "command": (
            f"benchmarks/bench_review_band.py --games {a.games} -k {a.k} -n {a.n} "
            f"--seed {a.seed} --bots {','.join(b)} --on {a.on}"
        ),
    }
    Path(a.band_file).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
