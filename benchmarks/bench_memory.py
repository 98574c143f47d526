"""What the public card memory and sight of the hidden cards are worth, on duplicate deals.

    .venv/bin/python benchmarks/bench_memory.py [--deals 20000] [--expert-deals 300] [--seed 46]
        [--weight 1] [--bounds] [--census 1000]

Each row is ``analysis.compare.duplicate(A, B, n)`` (= ``canasta compare A B -n``): every deal
played twice, seats swapped, points a hand of A minus B with its 95% interval (one core,
``n_jobs=1``). Rows:

- ``strong:memory_weight=W`` (strong reading the memory in its discard) against
  ``strong:memory_weight=0`` (``BASE``: strong without the memory; the shipped strong reads it
  at weight 1);
- ``peeking_strong`` (strong that sees every hand, same weight) against ``BASE``: the gap,
  a first measure of what hidden information is worth to strong's play;
- with ``--bounds``, the peeking scopes (``sim.engine.contract.PEEK_*``) against ``BASE``,
  each strong at the same weight seeing more than the memory and less than every hand:
  ``peek_kinds_strong`` (the true count of each kind the memory places in a hand: an upper
  bound of what the memory can be worth to strong's use of it), ``peek_when_strong`` (every
  hand, only at decisions where the memory holds a card), ``peek_next_strong`` (the next
  player's hand alone), ``peek_others_strong`` (the partner's and the previous player's) and
  ``peek_next_when_strong`` (the next player's hand, only where the memory holds a card);
- the share of the peeking gap each row closes (ratio of the two means, with a delta-method
  interval from the two runs' standard errors: the runs share deals, so the interval is a
  rough guide);
- ``expert:memory=1`` against ``expert:memory=0`` at a small search budget
  (``--expert-deals`` deals, ``samples=8,rollouts=1``), when ``--expert-deals`` > 0.

``--census N`` steps N hands of ``strong:memory_weight=W`` against itself through the step API
and counts how often the memory holds a card at a decision (any other seat; the next player's
row; a known pair of the next player at a discard).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

EXPERT_BUDGET = "samples=8,rollouts=1"
BASE = "strong:memory_weight=0"  #: every strong arm's opponent: strong not reading the memory


def register_bounds() -> list[str]:
    """Register the peeking scopes as measuring references (not shipped as policies; the
    engine knows their scopes from ``sim.policies.builtin_registry``)."""
    from sim.policies import registry, strong
    from sim.policies.builtin_registry import PEEKING_DEFAULTS

    table = strong.strong_table()
    params = {name: PEEKING_DEFAULTS.get(name, d) for name, d, _ in table}
    tail = tuple(strong.strong_weights())
    scopes = {
        "peek_kinds_strong": strong.peek_kinds_strong_decide,
        "peek_when_strong": strong.peek_when_strong_decide,
        "peek_next_strong": strong.peek_next_strong_decide,
        "peek_others_strong": strong.peek_others_strong_decide,
        "peek_next_when_strong": strong.peek_next_when_strong_decide,
    }
    for name, decide in scopes.items():
        doc = (decide.__doc__ or "").strip()
        registry.register(
            name, decide, params, doc, tail=tail, lazy=True, reference=True, replace=True
        )
    return list(scopes)


def census(n: int, weight: float, seed: int) -> dict:
    """Decisions of ``strong:memory_weight=W`` self-play at which the memory holds something."""
    import numpy as np

    from sim import encoding as E
    from sim.play import Hand, SeatView

    pol = f"strong:memory_weight={weight:g}"
    c = {"decisions": 0, "any": 0, "next": 0, "discards": 0, "discard_any": 0, "next_pair": 0}
    for h in range(n):
        for t in Hand(seed=seed, hand_id=h).turns((pol, pol)):
            if t.forced:
                continue
            known = SeatView.from_observation(t.obs).known[1:]  # the other seats' rows
            nxt = known[0]  # the next seat's
            c["decisions"] += 1
            c["any"] += bool(known.any())
            c["next"] += bool(nxt.any())
            if E.ACTION_TABLE[t.action, E.AC_TYPE] == E.AT_DISCARD:
                c["discards"] += 1
                c["discard_any"] += bool(known.any())
                c["next_pair"] += bool((np.asarray(nxt) >= 2).any())
    return c


def _row(cmp, seconds: float) -> dict:
    s = cmp.summary
    return {
        "a": s["policy_a"],
        "b": s["policy_b"],
        "deals": s["deals"],
        "mean": s["mean_diff"],
        "low": s["ci_low"],
        "high": s["ci_high"],
        "se": s["se"],
        "seconds": seconds,
    }


def _compare(a: str, b: str, n: int, seed: int) -> dict:
    from analysis.compare import duplicate

    t = time.perf_counter()
    cmp = duplicate(a, b, n, seed=seed, n_jobs=1)
    return _row(cmp, time.perf_counter() - t)


def _share(row: dict, peek: dict) -> str:
    share = row["mean"] / peek["mean"]
    rel = math.hypot(row["se"] / max(abs(row["mean"]), 1e-9), peek["se"] / peek["mean"])
    half = 1.96 * abs(share) * rel
    return f"{share:.2f} (rough 95% {share - half:.2f} to {share + half:.2f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--expert-deals", type=int, default=0)
    ap.add_argument("--seed", type=int, default=46)
    ap.add_argument("--weight", type=float, default=1.0, help="memory_weight of every arm")
    ap.add_argument("--bounds", action="store_true", help="also the peeking scopes' rows")
    ap.add_argument("--extra", nargs="*", default=[], help="more arms against BASE")
    ap.add_argument("--census", type=int, default=0, help="hands of the memory's census")
    args = ap.parse_args()
    w = f"memory_weight={args.weight:g}"
    if args.census > 0:
        c = census(args.census, args.weight, args.seed)
        d, k = c["decisions"], c["discards"]
        print(
            f"census, {args.census} hands of strong:{w} self-play: {d} decisions; the memory "
            f"holds a card of another seat at {c['any'] / d:.3f} of them, of the next player "
            f"at {c['next'] / d:.3f}; {k} discards: memory non-empty at "
            f"{c['discard_any'] / k:.3f}, "
            f"a known pair of the next player at {c['next_pair'] / k:.3f}"
        )
    bounds = register_bounds()
    arms = [f"strong:{w}", f"peeking_strong:{w}", *args.extra]
    if args.bounds:
        arms += [f"{name}:{w}" for name in bounds]
    rows = [_compare(a, BASE, args.deals, args.seed) for a in arms]
    if args.expert_deals > 0:
        rows.append(
            _compare(
                f"expert:{EXPERT_BUDGET},memory=1",
                f"expert:{EXPERT_BUDGET},memory=0",
                args.expert_deals,
                args.seed,
            )
        )
    peek = rows[1]
    for r in rows:
        line = (
            f"{r['a']} vs {r['b']}: {r['deals']} deals, {r['mean']:+.1f} points a hand "
            f"(95% {r['low']:+.1f} to {r['high']:+.1f}, se {r['se']:.1f}), "
            f"{r['seconds']:.0f} s wall"
        )
        if r["b"] == BASE and r is not peek and peek["mean"] > 0:
            line += f"; share of the peeking gap {_share(r, peek)}"
        print(line, flush=True)
    if peek["mean"] <= 0:
        print("share of the peeking gap: undefined (the gap is not positive)")


if __name__ == "__main__":
    main()
