"""The luck correction's worth at equal time, per kind of decision (``analysis.luck``).

For random decisions of each kind (the draw and the play step; the first turn and mid-hand),
``advise`` runs twice on the same deals, plain and with ``luck=True``. For the runner-up by
points (compared with the best on the same deals) it reads the standard error of the paired
difference, and times both runs (warm). The gain at equal time is

    (SE_plain^2 * t_plain) / (SE_luck^2 * t_luck)

the factor by which the correction cuts the variance of a paired difference for the same
seconds (issue 56's target: 4). Run from the repository root::

    python benchmarks/bench_advise_vr.py --positions 6 -n 128

Every figure names the ruleset (the tournament list) and the policies.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np


def _position(rng, kind: str):
    from analysis.whatif import position
    from sim import encoding as E
    from sim.cards import format_card

    ids = np.flatnonzero(~E.IS_THREE[E.CARD_KIND[np.arange(E.N_CARDS)]])
    cards = rng.choice(ids, size=E.HAND_SIZE + 1, replace=False)
    hand = " ".join(format_card(int(c)) for c in cards[:-1])
    turn = 0 if kind.startswith("first") else int(rng.integers(8, 16))
    drawn = format_card(int(cards[-1])) if kind.endswith("play") else None
    return position(hand, seat=turn % 4, turn=turn), drawn


def _se(advice) -> float:
    full = [c for c in advice.choices if c.n == advice.choices[0].n]
    if len(full) < 2:
        return float("nan")
    c = full[1]
    return (c.diff_high - c.diff_low) / (2 * 1.959963984540054)


def main(argv=None) -> int:
    from analysis.advise import advise
    from sim.policies import strongest_fast

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=6, help="decisions per kind")
    p.add_argument("-n", type=int, default=128, help="deals per choice")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--policies", default=None)
    a = p.parse_args(argv)
    pol = tuple(a.policies.split(",")) if a.policies else (strongest_fast(),) * 2
    rng = np.random.default_rng(a.seed)
    warm, _ = _position(rng, "first draw")
    advise(warm, n=8, policies=pol)
    advise(warm, n=8, policies=pol, luck=True)  # both kernels compiled before timing
    rows = []
    for kind in ("first draw", "first play", "mid draw", "mid play"):
        for i in range(a.positions):
            pos, drawn = _position(rng, kind)
            out = {"kind": kind, "i": i}
            for name, luck in (("plain", False), ("luck", True)):
                t = time.perf_counter()
                adv = advise(pos, drawn=drawn, n=a.n, policies=pol, seed=i, luck=luck)
                out[f"t_{name}"] = time.perf_counter() - t
                out[f"se_{name}"] = _se(adv)
            if np.isfinite(out["se_plain"]) and out["se_luck"] > 0:
                out["var_ratio"] = (out["se_plain"] / out["se_luck"]) ** 2
                out["gain"] = out["var_ratio"] * out["t_plain"] / out["t_luck"]
                rows.append(out)
                print(json.dumps(out), flush=True)
    print(f"ruleset: tournament; policies: {pol[0]}; n {a.n} deals a choice")
    for kind in ("first draw", "first play", "mid draw", "mid play"):
        g = [r["gain"] for r in rows if r["kind"] == kind]
        v = [r["var_ratio"] for r in rows if r["kind"] == kind]
        if g:
            print(
                f"{kind:10s}: {len(g)} decisions, variance ratio median {np.median(v):.2f}, "
                f"gain at equal time median {np.median(g):.2f} (min {min(g):.2f}, max {max(g):.2f})"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
