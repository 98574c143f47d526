"""Stand-ins shared by several test files (the report's tests): small, seeded, known answers."""

from __future__ import annotations

import numpy as np

from sim.odds import exact_odds

__all__ = ["binomial_odds"]


def binomial_odds(n_deals, seed=0, n_jobs=1, ruleset=None):
    """Stand-in for the dealt-odds sampler: hits ~ Binomial(deals, exact p) per hand."""
    rng = np.random.default_rng(seed)
    return {
        h: {"hits": int(rng.binomial(n_deals, float(p))), "deals": n_deals}
        for h, p in exact_odds(ruleset).items()
    }
