"""The error rate on common positions: every bot's choice in the same decisions, costed by one
advice, so that the bots differ only in the choice they make.

The reference band (``bench_review_band.py``) reviews each bot on its own games, as a player's
review is; its bots' positions differ with the bot, and its order is not the bots' strength.
Here the positions are held fixed: ``--games`` games of ``--source`` against itself (the
tournament list, ``played_decisions.play_game``, cut where the equity table ends), each game's
decisions (every draw where the pile could be taken and every play step right after a stock
draw, all four seats, as ``canasta review`` reads them) in a seeded random order. At each
decision every bot of ``--bots`` plays the seat's turn from the true state of the game (a copy
of the hand; the bot in every seat, the turn's actions kept), and its move is costed by the
review's own machinery (``analysis.review.review``: ``-n`` deals a choice, no wall-clock
budget, ``--on`` playing on with its equity table; the same seed for every bot, and the
advice computed once a decision and shared, so every bot's cost is read off the same paired
deals). A decision is **rated** when it has more than one choice and every bot's move is found
among the plans; each game's first ``-k`` rated decisions are kept.

A bot's rate is the mean cost, in thousandths of a game, over the rated decisions; a pair of
bots is compared by the mean over games of their per-game difference (the games independent,
the decisions within a game not), with Holm's correction over the neighbouring pairs (family
error rate ``--family``, 5% unless given).

Resumable: each decision is one line of ``--out``; ``--part I/P`` reviews every ``P``-th game
from game ``I`` (one process a part, each with its own ``--out``; ``--report-only`` reads them
all). Run from the repository root::

    nice -n 5 python benchmarks/bench_review_common.py --games 100 -k 12 --part 0/2 \\
        --out runs/common0.jsonl
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import itertools
import json
import math
import time

import numpy as np

BOTS = ("random", "heuristic", "strong", "strong_v2")


class SharedAdvice:
    """``analysis.advise.advise`` computed once per (position, drawn card, arguments) and
    shared by every bot's review of that decision (the same seeds give the same advice)."""

    def __init__(self):
        from analysis.advise import advise

        self.advise, self.cache = advise, {}

    def __call__(self, pos, drawn=None, **kw):
        def plain(v):
            return v if isinstance(v, int | float | str | type(None)) else id(v)

        key = (id(pos), drawn, tuple(sorted((k, plain(v)) for k, v in kw.items())))
        if key not in self.cache:
            self.cache[key] = self.advise(pos, drawn=drawn, **kw)
        return self.cache[key]


def decisions_with_states(hands):
    """``(Decision, hand before it)`` for each decision of ``hands`` (``canasta review``'s)."""
    from canasta._seat import hands_before
    from canasta.review import decisions

    out = []
    move = 0
    for k, g in enumerate(hands, 1):
        # the record's move numbers are 1-based
        want = {d.move - 1: d for d in decisions([g], [0, 1, 2, 3])}
        for i, _seat, _a, h in hands_before(g):
            if i in want:
                out.append(
                    (dataclasses.replace(want[i], hand=k, move=move + i + 1), copy.deepcopy(h))
                )
        move += len(g.actions)
    return out


def bot_actions(h, bot: str) -> tuple[int, ...]:
    """The actions ``bot`` takes from the state of ``h`` on (``bot`` in every seat, the hand
    played to its end on a copy; the matcher reads the seat's turn)."""
    fork = copy.deepcopy(h)
    start = len(fork.actions)
    fork.play((bot, bot))
    return tuple(int(x) for x in fork.actions[start:])


def review_game(g: int, a, eq, rows) -> None:
    """Game ``g``'s decisions in a seeded order until ``a.k`` are rated (module docstring)."""
    from played_decisions import kind, match, play_game

    from analysis.review import review
    from sim.errors import CanastaError

    bots = a.bots.split(",")
    hands = play_game(a.source, a.seed, g, low=eq.low)
    items = [(d, h) for d, h in decisions_with_states(hands) if not d.forced]
    order = np.random.default_rng([a.seed, 7, g]).permutation(len(items))
    rated = 0
    for j, i in enumerate(order):
        if rated >= a.k:
            break
        d, h = items[i]
        if not rows.done(g, d.move):
            row = {"game": g, "move": d.move, "seat": d.seat, "kind": kind(d), "bots": {}}
            row["on"] = a.on
            t = time.process_time()
            shared = SharedAdvice()
            seed = (a.seed * 1000 + g) * 1000 + j
            for bot in bots:
                mine = dataclasses.replace(d, actions=bot_actions(h, bot))
                try:
                    r = review(
                        [mine],
                        match,
                        equity=eq,
                        n=a.n,
                        budget=None,
                        seed=seed,
                        policies=a.on,
                        advise=shared,
                    )
                except CanastaError as exc:
                    row["refused"] = str(exc)
                    break
                x = r.decisions.iloc[0]
                row["choices"] = int(x["choices"])
                row["bots"][bot] = {
                    "made": x["made"],
                    "cost_game": None if math.isnan(x["cost_game"]) else float(x["cost_game"]),
                    "cost_points": None
                    if math.isnan(x["cost_points"])
                    else float(x["cost_points"]),
                }
            row["cpu"] = round(time.process_time() - t, 3)
            rows.add(row)
            print(json.dumps(row), flush=True)
        rated += _rated(rows.get(g, d.move), bots)


def _rated(r: dict, bots) -> bool:
    """A decision every bot's cost is read at: a choice, every move among the plans."""
    if r.get("refused") or r.get("choices", 0) < 2:
        return False
    return all(
        b in r["bots"] and r["bots"][b]["made"] and r["bots"][b]["cost_game"] is not None
        for b in bots
    )


def summary(rows: list[dict], bots, games: int, k: int, family: float = 0.05) -> dict:
    """Per bot: the mean cost (thousandths of a game, and points) over each game's first ``k``
    rated decisions; per neighbouring pair (by rate): the mean over games of the per-game
    difference with its interval (``analysis.intervals``), its p-value and Holm-adjusted
    verdict at family error rate ``family`` (``analysis.multiple``)."""
    from analysis import intervals as iv
    from analysis import multiple

    by_game: dict[int, list[dict]] = {}
    for r in rows:
        if r["game"] < games and _rated(r, bots) and len(by_game.setdefault(r["game"], [])) < k:
            by_game[r["game"]].append(r)
    gs = sorted(g for g, v in by_game.items() if v)
    rate = {
        b: np.array([1000 * np.mean([r["bots"][b]["cost_game"] for r in by_game[g]]) for g in gs])
        for b in bots
    }
    pts = {b: [r["bots"][b]["cost_points"] for g in gs for r in by_game[g]] for b in bots}
    out = {"games": len(gs), "rated": sum(len(by_game[g]) for g in gs), "bots": {}, "pairs": []}
    for b in bots:
        e = iv.mean(rate[b])
        out["bots"][b] = {
            "rate": e.estimate,
            "se": e.se,
            "low": e.ci_low,
            "high": e.ci_high,
            "points": float(np.nanmean(np.array(pts[b], dtype=float))),
        }
    ranked = sorted(bots, key=lambda b: -out["bots"][b]["rate"])
    pairs = []
    for hi, lo in itertools.pairwise(ranked):
        e = iv.paired_difference(rate[hi], rate[lo])
        z = e.estimate / e.se if e.se > 0 else math.nan  # one game: no spread to judge by
        pair = {"pair": (hi, lo), "diff": e.estimate, "se": e.se, "z": z}
        pairs.append(pair | {"low": e.ci_low, "high": e.ci_high})
    p = multiple.normal_p([x["diff"] for x in pairs], [x["se"] for x in pairs])
    for x, p_i, held in zip(pairs, p, multiple.holm(p), strict=True):
        x |= {"p": float(p_i), "p_holm": float(held), "told_apart": bool(held <= family)}
    out["pairs"] = pairs
    return out


def report(s: dict, a) -> str:
    lines = [
        f"common positions: {s['games']} games of {a.source} against itself, {s['rated']} rated "
        f"decisions ({a.k} a game at most), every bot's move costed by one advice ({a.n} deals "
        f"a choice, {a.on} playing on, its equity table); error rate: thousandths of a game a "
        "decision, mean over the rated decisions; 95% intervals over games",
        f"{'bot':12s} {'error rate':>22s} {'points a decision':>18s}",
    ]
    for b, v in sorted(s["bots"].items(), key=lambda kv: -kv[1]["rate"]):
        lines.append(
            f"{b:12s} {v['rate']:6.2f} [{v['low']:6.2f}, {v['high']:6.2f}] {v['points']:18.1f}"
        )
    for p in s["pairs"]:
        hi, lo = p["pair"]
        verdict = "told apart" if p["told_apart"] else "not told apart"
        lines.append(
            f"{hi} - {lo}: {p['diff']:+.2f} [{p['low']:+.2f}, {p['high']:+.2f}] (paired over "
            f"games, z {p['z']:+.1f}, p {p['p']:.2g}): {verdict} (Holm, family {a.family:.3g})"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bots", default=",".join(BOTS))
    p.add_argument("--source", default="strong", help="the bot whose games give the positions")
    p.add_argument("--on", default=None, help="the policy playing on (default: strongest fast)")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("-k", type=int, default=12, help="rated decisions a game")
    p.add_argument("-n", type=int, default=64, help="deals a choice (the review's default)")
    p.add_argument("--seed", type=int, default=56)
    p.add_argument("--part", default="0/1", help="I/P: every P-th game from game I")
    p.add_argument("--out", action="append", default=None, help="the rows (resumable)")
    p.add_argument("--report-only", action="store_true", help="summarise --out, review nothing")
    p.add_argument(
        "--family",
        type=float,
        default=0.05,
        help="the family error rate of the neighbours' comparisons (Holm; default 0.05)",
    )
    a = p.parse_args(argv)
    from played_decisions import Rows, policy_on

    from analysis.equity import equity_table
    from sim.policies import strongest_fast

    a.on = a.on or strongest_fast()
    outs = a.out or ["runs/common.jsonl"]
    bots = a.bots.split(",")
    if not a.report_only:
        rows = Rows(outs[0], ("game", "move"))
        policy_on(rows, a.on)
        eq = equity_table(None, a.on)
        i, n = (int(x) for x in a.part.split("/"))
        for g in range(i, a.games, n):
            review_game(g, a, eq, rows)
    files = [Rows(o, ("game", "move")) for o in outs]
    a.on = " and ".join(dict.fromkeys(policy_on(f, a.on) for f in files))
    every = [r for f in files for r in f.rows]
    print(report(summary(every, bots, a.games, a.k, a.family), a))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
