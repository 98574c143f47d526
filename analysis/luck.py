"""The luck of the draws, taken out of a play-out's score: a control variate for the advice.

In a play-out from a decision, much of the spread of the team's points comes from which cards
the stock happens to give each side. ``sim.api.play_script_counts`` counts, per play-out, each
team's draws by kind **centred** on what the stock held at each draw (one at the card drawn,
minus the stock's share of each kind then): every term has mean zero, whatever was drawn
before. A frozen linear **value of a card**, ``w[side, kind]`` (points for the fixed team of
one more card of that kind drawn by its own side, 0, or by the other side, 1), turns the counts
into the points the luck explains; the corrected score is

    score - sum(w * centred counts)  =  score + sum over draws (E[w of a card] - w of the card)

the expected value over the cards that could have come minus the value of the card that came.
Its mean is the score's mean (the subtracted sum has mean zero for any fixed ``w``), so the
advice stays unbiased; its spread is smaller when ``w`` explains the luck well.

``w`` is fitted **offline** (:func:`fit`, ``python -m analysis.luck``) by least squares of a
play-out's score on its centred counts, over play-outs from random first-turn positions dealt
from seeds no advice uses, and shipped as ``analysis/luck_weights.json`` (the command, seed
and sizes inside). It is never fitted on the deals it corrects.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from sim import encoding as E

__all__ = ["WEIGHTS_FILE", "fit", "load_weights", "play_script_luck"]

WEIGHTS_FILE = Path(__file__).with_name("luck_weights.json")  #: the frozen value of a card
FIT_SEED = 56_000_000  #: the fit's run seeds start here (advice seeds are small numbers)


@cache
def load_weights(path: str | None = None) -> np.ndarray:
    """The frozen ``w`` float64[2, N_KINDS] (side: 0 the fixed team, 1 the other)."""
    data = json.loads(Path(path or WEIGHTS_FILE).read_text())
    w = np.asarray(data["weights"], dtype=np.float64)
    if w.shape != (E.N_TEAMS, E.N_KINDS):
        raise ValueError(f"{path or WEIGHTS_FILE}: weights of shape {w.shape}")
    w.setflags(write=False)
    return w


def play_script_luck(n, position, scripts, drawn, seed, policies, rules, first: int = 0):
    """``sim.api.play_script`` in this process (hands ``first .. first + n - 1``, the same
    deals and records), with ``luck``: the points for the fixed team that the draws' luck
    explains (``w`` times the centred counts); ``score - luck`` is the corrected score."""
    from sim.api import play_script_counts

    df, counts = play_script_counts(n, position, scripts, drawn, seed, policies, rules, first)
    df["luck"] = np.einsum("rsk,sk->r", counts, load_weights())
    return df


def _random_position(rng):
    """A first-turn position: seat 0 holds 13 random cards (no three: DEAL-4 lays them)."""
    from analysis.whatif import position
    from sim.cards import format_card

    ids = np.flatnonzero(~E.IS_THREE[E.CARD_KIND[np.arange(E.N_CARDS)]])
    hand = rng.choice(ids, size=E.HAND_SIZE, replace=False)
    return position(" ".join(format_card(int(c)) for c in hand), seat=0, turn=0)


def fit(positions: int = 200, deals: int = 50, seed: int = FIT_SEED, policies=None) -> dict:
    """Fit ``w`` by least squares: play ``deals`` play-outs (the seat's own policy deciding,
    script "draw") from each of ``positions`` random first-turn positions, regress the fixed
    team's points on the centred counts (with an intercept per position, so that the value of
    the hand held is not credited to the draws). Returns the data file's content."""
    from sim.api import play_script_counts
    from sim.policies import strongest_fast
    from sim.ruleset import as_ruleset

    rules = as_ruleset(None)
    pols = tuple(policies or (strongest_fast(),) * 2)
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    scripts = np.array([[E.A_DRAW]], dtype=np.int64)
    for i in range(positions):
        pos = _random_position(rng)
        df, counts = play_script_counts(deals, pos, scripts, -1, seed + 1 + i, pols, rules)
        y = (df["score_team0"]).to_numpy(dtype=np.float64)
        x = counts.reshape(deals, -1)
        xs.append(x - x.mean(axis=0))  # within a position: its hand's value drops out
        ys.append(y - y.mean())
    x, y = np.concatenate(xs), np.concatenate(ys)
    w, *_ = np.linalg.lstsq(x, y, rcond=None)
    resid = y - x @ w
    return {
        "weights": w.reshape(E.N_TEAMS, E.N_KINDS).round(3).tolist(),
        "kinds": list(E.KIND_NAMES),
        "sides": ["the fixed team's draws", "the other team's draws"],
        "policies": list(pols),
        "ruleset": rules.label,
        "positions": positions,
        "deals": deals,
        "seed": seed,
        "variance_explained": float(1 - resid.var() / y.var()),
        "command": f"python -m analysis.luck --positions {positions} --deals {deals} --seed {seed}",
    }


def main(argv=None) -> int:  # pragma: no cover - the offline fit
    import argparse

    p = argparse.ArgumentParser(prog="python -m analysis.luck", description=fit.__doc__)
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--deals", type=int, default=50)
    p.add_argument("--seed", type=int, default=FIT_SEED)
    p.add_argument("--out", default=str(WEIGHTS_FILE))
    a = p.parse_args(argv)
    data = fit(a.positions, a.deals, a.seed)
    Path(a.out).write_text(json.dumps(data, indent=1) + "\n")
    print(json.dumps({k: v for k, v in data.items() if k != "weights"}))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
