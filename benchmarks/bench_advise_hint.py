"""Does the hint pick what a long run picks? (issue 56's target: >= 50% and <= 15 points)

Decisions are drawn from games that ``strong`` plays against itself (``GameDriver``), under
the tournament list and ``rules/cla.toml``: per ruleset and per kind (the draw and the play
step; the first round of turns and mid-hand, ``played_decisions.KINDS``) ``--per-kind``
decisions with a choice, at most ``--tries`` of a kind tried a game, each game's in a seeded
random order. A decision is what the hint sees there (``canasta._seat.position_for``: the
seat's view with the public card memory).

The budget is stated in **deals a choice**, not seconds: on a loaded machine a wall-clock
budget starves. The hint is the advice at its deal cap (``--hint-n``, default ``HINT_N``, the
cap every face shares), the most it plays within its budget (``HINT_BUDGET``, 2.5 s); the long
run has ``--factor`` times that. For each decision: the hint (seed 0) and the long run (seed 1);
``same`` when the hint's top choice is the long run's best, and the **cost** of following the
hint, points per hand for the team, by the long run (its paired difference from the long run's
best) and again on fresh deals (the two choices alone, ``factor x`` the hint's deals, seed 2; the
long run's own deals favour the choice that came out best on them). Points, not the chance of
winning the game: the target is in points. Every seat plays on with the advice's default
policy, as in the hint (``sim.policies.strongest_fast()``, recorded in each row as ``"on"``; a
file of rows recorded with another is refused; ``strong`` in the earlier HISTORY runs).

Resumable: each finished decision is one line of ``--out``; a run with the same arguments
skips what that file holds. Run from the repository root::

    nice -n 5 python benchmarks/bench_advise_hint.py --per-kind 8 --out runs/hint.jsonl

``--probe`` times the hint as the faces run it instead (its seconds' budget, the same
decisions) and says what stopped it: the cap, the race or the budget.
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

RULESETS = {"tournament": None, "cla": "rules/cla.toml"}


def _cost(pos, drawn, rules, top: str, best: str, n: int, seed: int) -> tuple[float, ...]:
    """Following ``top`` instead of ``best``: best minus top on ``n`` fresh deals, each choice
    advised alone so that no race stops it early (two choices in one race stop as soon as one
    leaves it, which can be after 8 deals, and a mean read where a race stopped is inflated).
    Both run on the same deals (deal ``i`` from ``(seed, i)``), so the difference of the means
    is the mean of the paired differences; its interval is the unpaired one (wider)."""
    from analysis.advise import advise

    if top == best:
        return 0.0, 0.0, 0.0
    b, t = (advise(pos, drawn=drawn, n=n, seed=seed, ruleset=rules, only=[x]) for x in (best, top))
    b, t = b.choices[0], t.choices[0]
    assert b.n == t.n == n, (b.n, t.n)
    h = math.hypot(b.ci_high - b.mean, t.ci_high - t.mean)
    return b.mean - t.mean, b.mean - t.mean - h, b.mean - t.mean + h


def measure(d, rules, factor: float, hint_n: int) -> dict:
    """One decision: the hint at ``hint_n`` deals a choice, the long run, the cost (module
    docstring)."""
    from analysis.advise import advise

    pos, drawn = d.position, d.drawn
    t, c0 = time.perf_counter(), time.process_time()
    hint = advise(pos, drawn=drawn, n=hint_n, seed=0, ruleset=rules)
    row = {"choices": len(hint.choices), "hint_cap": hint_n}
    row["hint_s"] = round(time.perf_counter() - t, 3)
    if len(hint.choices) < 2:
        return row
    n_long = int(hint_n * factor)
    t, c = time.perf_counter(), time.process_time()
    long = advise(pos, drawn=drawn, n=n_long, seed=1, ruleset=rules)
    by = {ch.label: ch for ch in long.choices}
    top, best = by[hint.choices[0].label], long.choices[0]
    pick = next((ch for ch in long.choices if ch.policy_pick), None)
    cost, lo, hi = _cost(pos, drawn, rules, top.label, best.label, n_long, 2)
    row |= {
        "hint_top": top.label,
        "hint_n": hint.choices[0].n,
        "hint_confidence": round(hint.choices[0].confidence, 3),
        "long_best": best.label,
        "long_n": best.n,
        "long_confidence": round(best.confidence, 3),
        "same": top.label == best.label,
        "cost_long": -top.diff_from_best,
        "cost": cost,
        "cost_method": "single",
        "cost_low": lo,
        "cost_high": hi,
        "strong_cost_long": None if pick is None else -pick.diff_from_best,
        "long_s": round(time.perf_counter() - t, 2),
        "long_cpu": round(time.process_time() - c, 2),
        "cpu": round(time.process_time() - c0, 2),
    }
    return row


def _stale(row: dict) -> bool:
    """A row whose fresh cost was read from a race of the two choices (an earlier version)."""
    return row["choices"] >= 2 and row.get("cost_method") != "single"


def sample(a, visit) -> None:
    """Visit the benchmark's decisions: per ruleset and kind, ``visit(name, rules, game, d,
    kind)`` on decisions in each game's seeded order (at most ``a.tries`` of a kind a game)
    until ``a.per_kind`` of them returned True (a decision with a choice)."""
    from played_decisions import KINDS, game_decisions, kind, play_game

    for r_i, (name, rules) in enumerate(RULESETS.items()):
        left = dict.fromkeys(KINDS, a.per_kind)
        for g in range(a.max_games):
            if not any(left.values()):
                break
            rng = np.random.default_rng([a.seed, r_i, g])
            ds = [d for d in game_decisions(play_game("strong", a.seed, g, rules)) if not d.forced]
            tried = dict.fromkeys(KINDS, 0)
            for i in rng.permutation(len(ds)):
                d = ds[i]
                k = kind(d)
                if not left[k] or tried[k] >= a.tries:
                    continue
                tried[k] += 1
                if visit(name, rules, g, d, k):
                    left[k] -= 1
        if any(left.values()):
            print(f"{name}: {a.max_games} games left {left} decisions unfound", flush=True)


def run(a) -> list[dict]:
    from played_decisions import Rows, policy_on

    rows = Rows(a.out, ("rules", "game", "move"))
    policy_on(rows, a.on)
    caps = {r.get("hint_cap", 200) for r in rows.rows}  # rows before the cap was kept: 200
    if caps - {a.hint_n}:
        raise SystemExit(f"{a.out} holds rows of a hint at {sorted(caps)} deals, not {a.hint_n}")

    def visit(name, rules, g, d, k) -> bool:
        if not rows.done(name, g, d.move):
            row = {"rules": name, "game": g, "move": d.move, "kind": k, "seat": d.seat}
            row |= {"on": a.on} | measure(d, rules, a.factor, a.hint_n)
            rows.add(row)
            print(json.dumps(row), flush=True)
        elif _stale(row := rows.get(name, g, d.move)):
            n_long = int(a.hint_n * a.factor)
            c = _cost(d.position, d.drawn, rules, row["hint_top"], row["long_best"], n_long, 2)
            row = row | dict(zip(("cost", "cost_low", "cost_high"), c, strict=True))
            rows.add(row | {"cost_method": "single"})
            print(json.dumps(row), flush=True)
        return rows.get(name, g, d.move)["choices"] >= 2

    sample(a, visit)
    return [r for r in rows.rows if r["choices"] >= 2]


def probe(a) -> str:
    """What stops the hint as the faces run it (``--hint-n`` deals a choice within
    ``HINT_BUDGET`` seconds, wall clock, seed 0) on the benchmark's first ``--per-kind``
    decisions of each kind and ruleset: the cap (a choice reached it), the race (one choice
    left before the cap) or the budget (several left). One row a decision, then a summary."""
    import os

    from analysis.advise import advise
    from canasta._seat import HINT_BUDGET

    rows = []

    def visit(name, rules, g, d, k) -> bool:
        t, c = time.perf_counter(), time.process_time()
        adv = advise(
            d.position, drawn=d.drawn, n=a.hint_n, budget=HINT_BUDGET, seed=0, ruleset=rules
        )
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        if len(adv.choices) < 2:
            return False
        most = max(ch.n for ch in adv.choices)
        alive = sum(ch.n == most for ch in adv.choices)
        stop = "cap" if most >= a.hint_n else "race" if alive == 1 else "budget"
        row = {"rules": name, "game": g, "move": d.move, "kind": k, "choices": len(adv.choices)}
        row |= {"deals": most, "stop": stop, "wall": round(wall, 3), "cpu": round(cpu, 3)}
        row["load"] = round(os.getloadavg()[0], 1)
        rows.append(row)
        print(json.dumps(row), flush=True)
        return True

    sample(a, visit)
    lines = [f"the hint at {a.hint_n:,} deals a choice within {HINT_BUDGET} s: what stopped it"]
    for stop in ("cap", "race", "budget"):
        part = [r for r in rows if r["stop"] == stop]
        if part:
            w, n = [r["wall"] for r in part], [r["deals"] for r in part]
            lines.append(
                f"{stop:6s} {len(part):3d} of {len(rows)}: deals {min(n):,}-{max(n):,}, wall "
                f"{min(w):.2f}-{max(w):.2f} s, CPU {min(r['cpu'] for r in part):.2f}-"
                f"{max(r['cpu'] for r in part):.2f} s"
            )
    return "\n".join(lines)


def report(rows: list[dict], factor: float, hint_n: int, on: str) -> str:
    """The table of ``rows`` (measured with ``on`` playing on: its label)."""
    import pandas as pd

    df = pd.DataFrame(rows)
    n_long = int(hint_n * factor)
    lines = [
        f"the hint ({hint_n:,} deals a choice) against a {factor:g}x run ({n_long:,}"
        f" deals a choice); {on} plays on; cost: points per hand for the team, "
        "on fresh deals "
        "(by the long run's own deals in brackets); 95% intervals of the means over decisions",
        f"{'ruleset':11s} {'kind':11s} {'decisions':>9s} {'same':>6s} {'cost mean':>22s} "
        f"{'median':>7s} {'(long)':>8s} {'bot':>8s}",
    ]

    def line(rules, kind, part):
        c = part["cost"].to_numpy(dtype=float)
        se = c.std(ddof=1) / np.sqrt(len(c)) if len(c) > 1 else float("nan")
        s = part["strong_cost_long"].dropna().to_numpy(dtype=float)
        return (
            f"{rules:11s} {kind:11s} {len(c):9d} {part['same'].mean():6.0%} "
            f"{c.mean():+7.1f} [{c.mean() - 1.96 * se:+6.1f}, {c.mean() + 1.96 * se:+6.1f}] "
            f"{np.median(c):+7.1f} {part['cost_long'].mean():+8.1f} "
            f"{s.mean() if len(s) else float('nan'):+8.1f}"
        )

    for (rules, kind), part in df.groupby(["rules", "kind"], sort=False):
        lines.append(line(rules, kind, part))
    for rules, part in df.groupby("rules", sort=False):
        lines.append(line(rules, "all", part))
    lines.append(line("both", "all", df))
    sure = df["hint_confidence"] >= 0.9
    for name, part in (("conf>=0.9", df[sure]), ("conf<0.9", df[~sure])):
        if len(part):
            lines.append(line("both", name, part))
    lines.append("(conf: the hint's confidence in its top choice)")
    differ = df[~df["same"]]
    lines.append(
        f"where the two differ ({len(differ)}): the fresh deals favour the hint's choice in "
        f"{int((differ['cost'] < 0).sum())}, the long run's in {int((differ['cost'] > 0).sum())}"
        f"; the long run's best had fewer than {n_long:,} deals (its race ended early) in "
        f"{int((differ['long_n'] < n_long).sum())}"
    )
    lines.append("(bot: the cost of the own pick of the policy playing on, by the long run)")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--per-kind", type=int, default=8, help="decisions a kind and ruleset")
    p.add_argument("--factor", type=float, default=32, help="the long run's deals over the hint's")
    p.add_argument(
        "--hint-n", type=int, default=None, help="the hint's deals a choice (default HINT_N)"
    )
    p.add_argument("--seed", type=int, default=56)
    p.add_argument("--max-games", type=int, default=80, help="games played per ruleset at most")
    p.add_argument("--tries", type=int, default=2, help="decisions of a kind tried per game")
    p.add_argument("--out", default="runs/hint.jsonl", help="the rows (resumable)")
    p.add_argument("--report-only", action="store_true", help="summarise --out, advise nothing")
    p.add_argument(
        "--probe",
        action="store_true",
        help="only time the hint as the faces run it (its budget) and say what stopped it",
    )
    a = p.parse_args(argv)
    if a.hint_n is None:
        from canasta._seat import HINT_N

        a.hint_n = HINT_N
    from played_decisions import Rows, policy_on

    from sim.policies import strongest_fast

    a.on = strongest_fast()  # as the hint plays on
    if a.probe:
        print(probe(a))
        return 0
    label = policy_on(Rows(a.out, ("rules", "game", "move")), a.on)
    if a.report_only:
        rows = [r for r in Rows(a.out, ("rules", "game", "move")).rows if r["choices"] >= 2]
    else:
        rows = run(a)
    print(report(rows, a.factor, a.hint_n, label))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
