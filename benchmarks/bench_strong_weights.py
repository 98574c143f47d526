"""Two of strong's data files on the same duplicate deals: is a retrained strong as strong?

    .venv/bin/python benchmarks/bench_strong_weights.py OTHER.json [--shipped PATH]
        [--deals 10000] [--seed 999]

Issue 13's reproducibility check: ``canasta train`` rerun from its documented command writes
``OTHER.json``; this plays the shipped weights and ``OTHER`` each against the heuristic, and
against each other, on deals ``0..deals-1`` of ``SeedSequence([seed, 1])`` (each deal twice,
seats swapped), with 95% intervals over deals. The paired row is the difference of the two
margins over the heuristic on the same deals (its SE is smaller than either's).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def policy_array(path: str) -> np.ndarray:
    """strong's full parameter array (named parameters, then the evaluator's weights)."""
    from sim.policies.strong import NEUTRAL, load_data

    data = load_data(json.loads(Path(path).read_text(encoding="utf-8")), path)
    named = [data["parameters"][n] for n in NEUTRAL]
    return np.array(named + list(data["evaluator"]["weights"]), dtype=np.float64)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("other", help="a data file written by canasta train")
    ap.add_argument("--shipped", default=str(ROOT / "sim/policies/data/strong.json"))
    ap.add_argument("--deals", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=999)
    args = ap.parse_args()

    from analysis.training import deal_margins, heuristic_defaults

    shipped, other = policy_array(args.shipped), policy_array(args.other)
    heur = heuristic_defaults()
    seed = np.random.SeedSequence([args.seed, 1])

    def per_deal(a, b):
        return deal_margins(a, b, seed, args.deals)

    def show(name, d):
        m, se = d.mean(), d.std(ddof=1) / np.sqrt(len(d))
        print(f"| {name} | {m:+.1f} | [{m - 1.96 * se:+.1f}, {m + 1.96 * se:+.1f}] | {se:.1f} |")

    print(f"{args.deals} duplicate deals, SeedSequence([{args.seed}, 1]); points a hand\n")
    print("| match | mean | 95% interval | SE |\n| --- | --- | --- | --- |")
    s, o = per_deal(shipped, heur), per_deal(other, heur)
    show("shipped minus heuristic", s)
    show("other minus heuristic", o)
    show("other's margin minus shipped's (paired)", o - s)
    show("other minus shipped, head to head", per_deal(other, shipped))


if __name__ == "__main__":
    main()
