"""Does the review's luck of a draw average 0 over many bot hands? (issue 56's target)

The luck ``canasta review`` reports for a stock draw (``analysis.review``): the value of the
play step after the card that came (the plan the seat's policy makes there) minus the value
of drawing before the card was seen (the "draw" choice at the draw step), both by the advice
with ``strong`` playing on. Over the cards that could have come it averages 0 if the advice
deals the unseen cards as the game does; the hands are played by ``strong`` in every seat, so
the luck of a draw is the review's measure on the bot's own hands.

Hand ``h`` is the first hand of ``GameDriver(seed, game_id=h)`` (scores 0-0, the first player
rotating), played by ``strong``; one of its stock draws is picked at random (a seeded seat,
then one of that seat's stock draws followed by its play step) and the review is run on that
pair alone, both marked forced (luck only, no cost), at ``-n`` deals a choice and no wall-clock
budget. A draw whose play step the policy makes outside the listed plans (no ``policy_pick``)
or that the advice refuses gives no row, and is counted.

The mean luck over the hands, with its standard error from the rows' spread (each row one
independent hand): 0 should lie within its 95% interval. Points per hand for the drawing team.
Resumable: each hand is one line of ``--out``. Run from the repository root::

    nice -n 5 python benchmarks/bench_luck_zero.py --hands 10000 -n 32 --out runs/luck.jsonl

and, to use a second core, the same command with ``--reverse`` beside it (stop both when they
meet; a rerun with neither reports).
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import math
import time

import numpy as np


def luck_of_hand(h: int, a) -> dict:
    """The review's luck of one random stock draw of hand ``h`` (module docstring)."""
    from played_decisions import game_decisions, match

    from analysis.review import review
    from sim.errors import CanastaError
    from sim.game import GameDriver

    rng = np.random.default_rng([a.seed, h])
    hand = GameDriver(seed=a.seed, game_id=h, rules=a.rules).deal()
    hand.play((a.policy, a.policy))
    seat = int(rng.integers(4))
    ds = game_decisions([hand], [seat])
    pairs = [
        (x, y)
        for x, y in itertools.pairwise(ds)
        if x.drawn is None and y.drawn is not None and y.move == x.move + 1
    ]
    row = {"hand": h, "seat": seat, "draws": len(pairs)}
    if not pairs:
        return row
    x, y = pairs[int(rng.integers(len(pairs)))]
    if getattr(a, "peek", False):
        true = _true_hands(hand, x.move - 1, seat)  # before the draw: both decisions' deal
        x, y = (_peeking(d, true.copy()) for d in (x, y))
    row |= {"move": y.move, "card": y.drawn, "turn": y.position.turn}
    t = time.process_time()
    pair = [dataclasses.replace(d, forced=True) for d in (x, y)]
    try:
        r = review(pair, match, ruleset=a.rules, n=a.n, budget=None, seed=a.seed * 100_000 + h)
    except CanastaError as exc:
        row["refused"] = str(exc)
    else:
        if len(r.luck):
            row["luck"] = float(r.luck["luck_points"].iloc[0])
            row["se"] = float(r.luck["se_points"].iloc[0])
    row["cpu"] = round(time.process_time() - t, 3)
    return row


def _true_hands(hand, i: int, seat: int) -> np.ndarray:
    """The other seats' true hands before action ``i`` of ``hand``, by kind, but their threes
    (``seat``'s own row zero): the public card memory ``--peek`` gives the advice."""
    from canasta._seat import hands_before
    from sim import encoding as E
    from sim.play.table import table_hands

    true = next(table_hands(h.state).copy() for j, _s, _a, h in hands_before(hand) if j == i)
    true[seat] = 0
    true[:, [E.RED_THREE, E.BLACK_THREE]] = 0
    return true


def _peeking(decision, true: np.ndarray):
    """``decision`` with the other seats' true hands (``_true_hands``) as the public card
    memory: the advice then deals only the stock (and the threes) at random, and given the
    true hands the stock's order is uniform, so the luck must average 0 whatever the players
    kept. A bias left under ``--peek`` is the measure's own; one that goes is the deal's."""
    pos = dataclasses.replace(decision.position, known=true)
    return dataclasses.replace(decision, position=pos)


def report(rows: list[dict], a) -> str:
    x = np.array([r["luck"] for r in rows if "luck" in r])
    se = x.std(ddof=1) / math.sqrt(len(x)) if len(x) > 1 else math.nan
    rules = a.rules or "the tournament list"
    lines = [
        f"ruleset: {rules}; {a.policy} in every seat; the review's luck of one stock draw a "
        f"hand, {a.n} deals a choice",
        f"hands {len(rows)}, draws measured {len(x)}, no draw {sum(r['draws'] == 0 for r in rows)}"
        f", refused {sum('refused' in r for r in rows)}, no policy plan "
        f"{sum(r['draws'] > 0 and 'luck' not in r and 'refused' not in r for r in rows)}",
        f"mean luck {x.mean():+.2f} points (SE {se:.2f}; 95% interval {x.mean() - 1.96 * se:+.2f}"
        f" to {x.mean() + 1.96 * se:+.2f}; z {x.mean() / se:+.2f}); sd of a draw's luck "
        f"{x.std(ddof=1):.0f}; CPU {sum(r.get('cpu', 0) for r in rows):.0f} s",
    ]
    first = np.array([r["luck"] for r in rows if "luck" in r and r["turn"] < 4])
    if len(first) > 1:
        s = first.std(ddof=1) / math.sqrt(len(first))
        lines.append(
            f"  first round of turns: {len(first)} draws, mean {first.mean():+.2f} (SE {s:.2f})"
        )
    mid = np.array([r["luck"] for r in rows if "luck" in r and r["turn"] >= 4])
    if len(mid) > 1:
        s = mid.std(ddof=1) / math.sqrt(len(mid))
        lines.append(f"  later turns: {len(mid)} draws, mean {mid.mean():+.2f} (SE {s:.2f})")
    return "\n".join(lines)


def main(argv=None) -> int:
    from played_decisions import Rows

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=10000)
    p.add_argument("-n", type=int, default=32, help="deals a choice")
    p.add_argument("--seed", type=int, default=5601)
    p.add_argument("--policy", default="strong")
    p.add_argument("--rules", default=None, help="a ruleset (default: the tournament list)")
    p.add_argument("--out", default="runs/luck.jsonl", help="the rows (resumable)")
    p.add_argument(
        "--peek",
        action="store_true",
        help="the advice knows the other seats' true hands (a check of the measure: the luck "
        "must then average 0)",
    )
    p.add_argument(
        "--reverse",
        action="store_true",
        help="the hands from the last down (a second process on the same --out: each hand is "
        "one line, a hand done twice is read once)",
    )
    a = p.parse_args(argv)
    rows = Rows(a.out, ("hand",))
    for h in range(a.hands - 1, -1, -1) if a.reverse else range(a.hands):
        if not rows.done(h):
            row = luck_of_hand(h, a)
            rows.add(row)
            if h % 100 == 0:
                print(json.dumps(row), flush=True)
    print(report([r for r in rows.rows if r["hand"] < a.hands], a))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
