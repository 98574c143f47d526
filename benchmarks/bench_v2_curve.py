"""strong_v2's curve: its gain against rounds, labelled data, model size and a nonlinear model.

    .venv/bin/python benchmarks/bench_v2_curve.py FOLDER [--rounds] [--deals 50000]
        [--seed 5506] [--jobs 2] [--margins NPZ] [--offline] [--products] [--groups] [--mlp]
        [--hidden 32 16 64] [--mlp-shares 8 4 2 1] [--last K] [--play VARIANT [--write JSON]]

``FOLDER`` is a ``canasta train --stage distill2`` checkpoint folder (``iteration{i}.npz``: the
labelled rows of round ``i``; ``round{i}.json``: the data file after round ``i``); it is only
read. Three measurements, each printed as a markdown table:

1. ``--rounds``: each round's data file played against ``strong_2026_12`` on the same duplicate
   deals (hand ``h`` of run key ``--seed``, as ``canasta compare strong_v2 strong_2026_12 -n
   DEALS --seed SEED``), points a hand with its 95% interval over deals, and the paired
   difference from the previous round's on the same deals. The first row is round 0 untried
   (the frozen reference's weights, the extra blocks at zero), no labels.
2. ``--offline``: the last round present is held out; ridge fits (``analysis.distill.fit``'s
   regression of candidates' value advantages on feature differences) on nested shares (1/8,
   1/4, 1/2, all) of the earlier rounds' decisions, on the feature blocks (strong's 65; + the
   discard extra 19; + the opening 16), with other ridge penalties, and with each decision
   weighted once (its rows by 1 / its candidates less one). Each is scored by its choices'
   search values on the held-out decisions (``analysis.distill.offline_gain``: chosen minus the
   base move, points a decision, by kind), with the paired difference from the training's own
   fit (all data, 100 features, ridge 1) on the same decisions. ``--products``: the same fit
   with the pairwise products of the discard's features (``d_*``, ``e_*``) added, which the
   kernel cannot play (it scores the 100 linearly); ``--groups``: one discard feature's
   products at a time, to name the interactions that carry the gain.
3. ``--mlp``: a one-hidden-layer network with a linear skip, started at the ridge fit (its
   hidden output at zero) and fitted by Adam to the same targets (squared error of the score
   differences against the advantages), stopped on a tenth of the training decisions held
   apart; scored on the held-out round as in 2. Deterministic for ``--mlp-seed``; numpy only.

``--play VARIANT`` (``ridge=R``, ``per-decision``) refits that variant on all rounds present
and plays it on the deals of 1 against the frozen reference, paired with the last round's file.
The held-out values are the search's (24 x 2 positions a decision), unbiased for a choice fitted
without them. Ruleset: the tournament rules (``Ruleset()``, as the training).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core each, and the same sums each run

import argparse
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHARES = (8, 4, 2, 1)  #: the data curve: 1/8, 1/4, 1/2 and all of the training decisions
RIDGES = (0.1, 1.0, 10.0, 100.0, 1000.0)
PLAY_CHUNK = 2500  #: deals a work item when playing


# -- the rows ---------------------------------------------------------------------------------


def rounds_in(folder: Path) -> list[int]:
    """The rounds whose rows and data file are both in ``folder``, in order from 0."""
    found = []
    while (folder / f"iteration{len(found)}.npz").exists() and (
        folder / f"round{len(found)}.json"
    ).exists():
        found.append(len(found))
    return found


class Decisions:
    """A set of labelled rows with each row's decision: ``seg[row]`` (0..n-1), the decision's
    first row ``first[d]``, its kind ``kind[d]``."""

    def __init__(self, x: np.ndarray, v: np.ndarray, meta: np.ndarray):
        from sim.policies.strong_train import R_CANDIDATE, R_KIND

        self.x, self.v = x, v
        start = meta[:, R_CANDIDATE] == 0
        self.first = np.flatnonzero(start)
        self.seg = np.cumsum(start) - 1
        self.kind = meta[self.first, R_KIND]
        self.size = np.diff(np.append(self.first, len(v)))  # candidates a decision

    def __len__(self) -> int:
        return len(self.first)

    def pick(self, scores: np.ndarray) -> np.ndarray:
        """Each decision's chosen row: the highest score, ties to the first (as
        ``analysis.distill.choices``)."""
        top = np.maximum.reduceat(scores, self.first)
        rows = np.arange(len(scores))
        best = np.where(scores >= top[self.seg], rows, len(scores))
        return np.minimum.reduceat(best, self.first)

    def gain(self, scores: np.ndarray) -> np.ndarray:
        """Per decision: the search value of the chosen candidate minus the base move's."""
        return self.v[self.pick(scores)] - self.v[self.first]


def subset(data, d: Decisions, keep: np.ndarray):
    """The rows of the decisions ``keep`` (a mask over ``d``'s decisions) of ``data``."""
    from analysis.distill import Labels

    rows = keep[d.seg]
    return Labels(data.x[rows], data.v[rows], data.meta[rows])


def load_rounds(folder: Path, which: list[int], with_rounds: bool = False):
    """The rows of rounds ``which``, in order (``with_rounds``: and each decision's round)."""
    from analysis.distill import Labels

    parts = [Labels.load(folder / f"iteration{i}.npz") for i in which]
    data = Labels.concat(parts)
    if with_rounds:
        return data, np.repeat(which, [p.decisions for p in parts])
    return data


# -- linear fits from per-bucket normal equations ---------------------------------------------


def normal_equations(data, buckets: np.ndarray, n_buckets: int, per_decision: bool):
    """Per bucket of decisions, ``dx.T @ dx`` and ``dx.T @ dy`` of its advantage rows
    (``analysis.distill.advantages``); ``per_decision``: each row weighted by 1 / (the
    decision's candidates - 1), so that every decision counts once."""
    from analysis.distill import advantages

    d = Decisions(data.x, data.v, data.meta)
    dx, dy, _ = advantages(data)
    rest = np.flatnonzero(data.meta[:, _candidate_column()] > 0)
    seg = d.seg[rest]
    w = 1.0 / (d.size[seg] - 1) if per_decision else np.ones(len(rest))
    p = dx.shape[1]
    gram = np.zeros((n_buckets, p, p))
    rhs = np.zeros((n_buckets, p))
    for b in range(n_buckets):
        m = buckets[seg] == b
        xb = dx[m] * w[m, None]
        gram[b] = xb.T @ dx[m]
        rhs[b] = xb.T @ dy[m]
    return gram, rhs


def _candidate_column() -> int:
    from sim.policies.strong_train import R_CANDIDATE

    return R_CANDIDATE


def solve(gram: np.ndarray, rhs: np.ndarray, cols: np.ndarray, ridge: float) -> np.ndarray:
    """The ridge weights on feature columns ``cols`` (the others zero), as
    ``analysis.distill.fit``: ``(G + ridge I) w = b``."""
    w = np.zeros(len(rhs))
    g = gram[np.ix_(cols, cols)] + ridge * np.eye(len(cols))
    w[cols] = np.linalg.solve(g, rhs[cols])
    return w


def blocks() -> dict[str, np.ndarray]:
    """The feature columns of each model size (strong_v2's layout)."""
    from sim.policies.strong_features import N_FEATURES
    from sim.policies.strong_v2_features import FEATURE_NAMES_V2, N_FEATURES_V2

    e_end = FEATURE_NAMES_V2.index("o_bias")
    return {
        f"strong's {N_FEATURES}": np.arange(N_FEATURES),
        f"+ discard extra ({e_end - N_FEATURES})": np.arange(e_end),
        f"+ opening ({N_FEATURES_V2 - e_end})": np.arange(N_FEATURES_V2),
    }


# -- products of the discard block's features (offline: the kernel scores linearly) -----------


def discard_block() -> np.ndarray:
    """The columns of the discard's features: strong's ``d_*`` and the extra ``e_*`` block."""
    from sim.policies.strong_v2_features import FEATURE_NAMES_V2

    return np.array([i for i, n in enumerate(FEATURE_NAMES_V2) if n[:2] in ("d_", "e_")])


def with_products(x: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``x`` followed by the products ``x_i x_j`` (``i <= j``) of its columns ``cols``."""
    i, j = np.triu_indices(len(cols))
    return np.hstack([x, x[:, cols[i]] * x[:, cols[j]]])


def product_sums(train, cols: np.ndarray, chunk=50000):
    """``dz.T @ dz`` and ``dz.T @ dy`` of the advantages on the differences of
    ``with_products`` features (ridge fits of any subset of their columns solve from them)."""
    from analysis.distill import advantages

    d = Decisions(train.x, train.v, train.meta)
    rest = np.flatnonzero(train.meta[:, _candidate_column()] > 0)
    owner = d.first[d.seg[rest]]
    _, dy, _ = advantages(train)
    p = train.x.shape[1] + len(cols) * (len(cols) + 1) // 2
    gram, rhs = np.zeros((p, p)), np.zeros(p)
    for a in range(0, len(rest), chunk):
        dz = with_products(train.x[rest[a : a + chunk]], cols)
        dz -= with_products(train.x[owner[a : a + chunk]], cols)
        gram += dz.T @ dz
        rhs += dz.T @ dy[a : a + chunk]
    return gram, rhs


def product_groups(gram, rhs, cols, held, z, ref, top=10) -> None:
    """Which features' products carry the discard's gain: the 100 features and the products
    of one discard feature with the 48, ridge 1, one fit per feature; the ``top`` by the
    held-out discard gain, then the products of the best 3, 5 and 10 together."""
    from sim.policies.strong_v2_features import FEATURE_NAMES_V2

    base = z.shape[1] - len(cols) * (len(cols) + 1) // 2
    i, j = np.triu_indices(len(cols))
    disc = held.kind == kinds().index("discard")

    def score(feats):
        extra = base + np.flatnonzero(np.isin(i, feats) | np.isin(j, feats))
        w = solve(gram, rhs, np.concatenate([np.arange(base), extra]), 1.0)
        g = held.gain(z @ w)
        return mean_se(g[disc] - ref[disc])

    ranked = sorted(((score([f]), f) for f in range(len(cols))), key=lambda t: -t[0][0])
    print(
        f"\nThe products of one discard feature with the {len(cols)} (ridge 1), the {top} best"
        " by the held-out discard gain (picked on the held-out round: the best overstate),"
        " points a discard decision over the training's fit:\n\n| products of | minus the"
        " training's fit, discard |\n| --- | --- |"
    )
    for (mu, se), f in ranked[:top]:
        print(f"| {FEATURE_NAMES_V2[cols[f]]} | {mu:+.2f} ± {se:.2f} |")
    for k in (3, 5, 10):
        mu, se = score([f for _, f in ranked[:k]])
        print(f"| the best {k} together | {mu:+.2f} ± {se:.2f} |", flush=True)


# -- a small network --------------------------------------------------------------------------


class Mlp:
    """``score(phi) = relu(z W1 + b1) @ w2 + z @ wl``, ``z`` the standardized features: a
    hidden layer beside the linear score (which starts at the ridge fit, ``w2`` at zero)."""

    def __init__(self, mu, sd, lin, hidden, rng):
        p = len(mu)
        self.mu, self.sd = mu.astype(np.float32), sd.astype(np.float32)
        self.p = {
            "w1": (rng.standard_normal((p, hidden)) / np.sqrt(p)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": np.zeros(hidden, np.float32),
            "wl": (lin * sd).astype(np.float32),
        }

    def z(self, x):
        return (np.asarray(x, np.float32) - self.mu) / self.sd

    def scores(self, x, batch=65536) -> np.ndarray:
        out = np.empty(len(x))
        for a in range(0, len(x), batch):
            z = self.z(x[a : a + batch])
            h = np.maximum(z @ self.p["w1"] + self.p["b1"], 0.0)
            out[a : a + batch] = h @ self.p["w2"] + z @ self.p["wl"]
        return out

    def grads(self, zc, z0, y, decay):
        """Mean squared error of ``score(c) - score(0)`` against ``y`` and its gradients."""
        p = self.p
        ac, a0 = zc @ p["w1"] + p["b1"], z0 @ p["w1"] + p["b1"]
        hc, h0 = np.maximum(ac, 0.0), np.maximum(a0, 0.0)
        err = (hc - h0) @ p["w2"] + (zc - z0) @ p["wl"] - y
        n = len(y)
        e = (2.0 / n) * err
        gc = np.outer(e, p["w2"]) * (ac > 0)
        g0 = np.outer(e, p["w2"]) * (a0 > 0)
        g = {
            "w1": zc.T @ gc - z0.T @ g0 + 2 * decay * p["w1"],
            "b1": gc.sum(0) - g0.sum(0),
            "w2": (hc - h0).T @ e + 2 * decay * p["w2"],
            "wl": (zc - z0).T @ e,
        }
        return float(np.mean(err**2)), g


def fit_mlp(train, lin, hidden, seed, epochs=8, batch=2048, lr=1e-3, decay=1e-4, log=print):
    """The network fitted to ``train``'s advantages (see ``Mlp``), the epoch with the lowest
    error on a tenth of its decisions held apart; the advantages in units of their SD."""
    from analysis.distill import advantages

    rng = np.random.default_rng(seed)
    d = Decisions(train.x, train.v, train.meta)
    rest = np.flatnonzero(train.meta[:, _candidate_column()] > 0)
    owner = d.first[d.seg[rest]]
    _, dy, _ = advantages(train)
    scale = float(dy.std())
    y = (dy / scale).astype(np.float32)
    apart = rng.random(len(d)) < 0.1
    val = apart[d.seg[rest]]
    mu, sd = train.x.mean(0), train.x.std(0)
    sd[sd == 0] = 1.0
    net = Mlp(mu, sd, lin / scale, hidden, rng)
    z = net.z(train.x)
    tr, va = np.flatnonzero(~val), np.flatnonzero(val)

    def val_loss():
        s = (net.scores(train.x[rest[va]]) - net.scores(train.x[owner[va]])) * 1.0
        return float(np.mean((s - y[va]) ** 2))

    m = {k: np.zeros_like(v) for k, v in net.p.items()}
    s2 = {k: np.zeros_like(v) for k, v in net.p.items()}
    best, best_p, step = val_loss(), {k: v.copy() for k, v in net.p.items()}, 0
    log(f"  mlp {hidden}: start (the ridge fit) validation error {best:.5f}")
    for ep in range(epochs):
        order = rng.permutation(tr)
        t0, losses = time.time(), []
        for a in range(0, len(order), batch):
            ix = order[a : a + batch]
            loss, g = net.grads(z[rest[ix]], z[owner[ix]], y[ix], decay)
            losses.append(loss)
            step += 1
            for k in net.p:  # Adam
                m[k] = 0.9 * m[k] + 0.1 * g[k]
                s2[k] = 0.999 * s2[k] + 0.001 * g[k] ** 2
                mh, vh = m[k] / (1 - 0.9**step), s2[k] / (1 - 0.999**step)
                net.p[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        vl = val_loss()
        log(
            f"  mlp {hidden}: epoch {ep + 1} train {np.mean(losses):.5f} validation {vl:.5f}"
            f" ({time.time() - t0:.0f} s)"
        )
        if vl < best:
            best, best_p = vl, {k: v.copy() for k, v in net.p.items()}
    net.p = best_p
    return net


# -- tables -----------------------------------------------------------------------------------


def kinds() -> tuple[str, ...]:
    from sim.policies.strong_v2_features import DECISION_KINDS_V2

    return DECISION_KINDS_V2


KIND_WORDS = {"pickup": "draw", "discard": "discard", "start": "start", "open": "open/wait"}


def mean_se(g: np.ndarray) -> tuple[float, float]:
    if len(g) < 2:
        return (float(g.mean()) if len(g) else 0.0), 0.0
    return float(g.mean()), float(g.std(ddof=1) / np.sqrt(len(g)))


def gain_row(name: str, held, gain: np.ndarray, ref: np.ndarray | None) -> str:
    """A table row: the mean gain ± SE per kind and in all, and the paired difference from
    ``ref`` (another model's gains on the same decisions) in all and at the discard."""
    cells = []
    for k in [None, *range(len(kinds()))]:
        m = np.ones(len(gain), bool) if k is None else held.kind == k
        mu, se = mean_se(gain[m])
        cells.append(f"{mu:+.1f} ± {se:.1f}")
    if ref is not None:
        for k in (None, kinds().index("discard")):
            m = np.ones(len(gain), bool) if k is None else held.kind == k
            mu, se = mean_se(gain[m] - ref[m])
            cells.append(f"{mu:+.2f} ± {se:.2f}")
    else:
        cells += ["-", "-"]
    return f"| {name} | " + " | ".join(cells) + " |"


def gain_header(first: str) -> str:
    names = ["all", *(KIND_WORDS[k] for k in kinds())]
    cols = [first, *names, "minus the training's fit, all", "minus it, discard"]
    return "| " + " | ".join(cols) + " |\n|" + " --- |" * len(cols)


# -- playing ----------------------------------------------------------------------------------


def v2_array(data: dict, source: str) -> np.ndarray:
    """strong_v2's full parameter array from its data file (named parameters, then weights)."""
    from sim.policies.strong import NEUTRAL
    from sim.policies.strong_v2 import load_v2

    data = load_v2(data, source)
    named = [float(data["parameters"][n]) for n in NEUTRAL]
    return np.array(named + list(data["evaluator"]["weights"]), dtype=np.float64)


def _margins_chunk(key, start, stop, a, b):
    from sim.api import Players, play_hands_arrays
    from sim.encoding import RC_SCORE0, RC_SCORE1
    from sim.policies.strong import strong_decide
    from sim.ruleset import Ruleset

    rules = np.ascontiguousarray(Ruleset().to_array())
    d = [strong_decide, strong_decide]
    ab = play_hands_arrays(key, start, stop, Players(d, [a, b], rules))
    ba = play_hands_arrays(key, start, stop, Players(d, [b, a], rules))
    return ((ab[:, RC_SCORE0] - ab[:, RC_SCORE1]) + (ba[:, RC_SCORE1] - ba[:, RC_SCORE0])) / 2.0


def per_deal(a: np.ndarray, b: np.ndarray, seed: int, deals: int, jobs: int) -> np.ndarray:
    """The duplicate margin of ``a`` over ``b`` (strong-kernel arrays) per deal ``0..deals-1``
    of run key ``seed``, points a hand: each deal twice, seats swapped (``canasta compare``'s
    pairing; the same for any ``jobs``)."""
    from joblib import Parallel, delayed

    from sim.rng import run_key

    key = run_key(seed)
    a, b = np.ascontiguousarray(a, np.float64), np.ascontiguousarray(b, np.float64)
    spans = [(s, min(s + PLAY_CHUNK, deals)) for s in range(0, deals, PLAY_CHUNK)]
    parts = Parallel(n_jobs=jobs)(delayed(_margins_chunk)(key, s, t, a, b) for s, t in spans)
    return np.concatenate(parts)


def interval(d: np.ndarray) -> str:
    mu, se = mean_se(d)
    return f"{mu:+.1f} [{mu - 1.96 * se:+.1f}, {mu + 1.96 * se:+.1f}]"


def rounds_table(folder: Path, which: list[int], args) -> None:
    from analysis.distill import Labels, frozen_row, offline_gain
    from sim.policies.strong import N_STRONG, S_EVALUATOR
    from sim.policies.strong_features import N_FEATURES
    from sim.policies.strong_v2_features import N_FEATURES_V2

    frozen = frozen_row(N_STRONG + N_FEATURES)  # as the registry's strong_2026_12
    untried = frozen_row(N_STRONG + N_FEATURES_V2)
    untried[S_EVALUATOR] = 2.0  # strong_v2 with the frozen weights, the extras at zero
    print(
        f"\nRounds: strong_v2 after each round minus strong_2026_12, {args.deals} duplicate "
        f"deals (run key {args.seed}), tournament rules, points a hand [95%]\n"
    )
    print(
        "| round | labelled decisions so far (rows) | held-out gain of the previous weights, "
        "all / discard | minus strong_2026_12 | minus the previous round (paired) |"
    )
    print("|" + " --- |" * 5)
    prev, prev_w, done, rows, kept = None, untried[N_STRONG:], 0, 0, {}
    for i in [-1, *which]:
        t0 = time.time()
        if i < 0:
            pol, name, held = untried, "untried (frozen weights, extras 0)", "-"
        else:
            path = folder / f"round{i}.json"
            pol = v2_array(json.loads(path.read_text(encoding="utf-8")), str(path))
            lab = Labels.load(folder / f"iteration{i}.npz")
            done, rows, name = done + lab.decisions, rows + len(lab.v), str(i)
            g = offline_gain(prev_w, lab)
            held = (
                f"{g['all']['gain']:+.1f} ± {g['all']['se']:.1f} / "
                f"{g['discard']['gain']:+.1f} ± {g['discard']['se']:.1f}"
            )
        m = per_deal(pol, frozen, args.seed, args.deals, args.jobs)
        diff = interval(m - prev) if prev is not None else "-"
        print(f"| {name} | {done:,} ({rows:,}) | {held} | {interval(m)} | {diff} |", flush=True)
        print(f"  ({time.time() - t0:.0f} s)", file=sys.stderr, flush=True)
        prev, prev_w = m, pol[N_STRONG:]
        kept[f"round{i}" if i >= 0 else "untried"] = m
    if args.margins:  # per deal, to pair any two rounds later
        np.savez_compressed(args.margins, **kept)


def offline_tables(folder: Path, which: list[int], args) -> dict:
    """Section 2 (and 3 with ``--mlp``); returns the fits by name for ``--play``."""
    if len(which) < 2:
        raise SystemExit("bench_v2_curve: --offline needs two rounds or more in the folder")
    train, round_of = load_rounds(folder, which[:-1], with_rounds=True)
    held_lab = load_rounds(folder, which[-1:])
    held = Decisions(held_lab.x, held_lab.v, held_lab.meta)
    d = Decisions(train.x, train.v, train.meta)
    rng = np.random.default_rng(args.split_seed)
    nb = SHARES[0]
    buckets = rng.integers(0, nb, len(d))
    t0 = time.time()
    gram, rhs = normal_equations(train, buckets, nb, per_decision=False)
    print(
        f"\nOffline: fitted on rounds 0-{which[-2]} ({len(d):,} decisions, {len(train.v):,} "
        f"rows), held out round {which[-1]} ({len(held):,} decisions); points a decision "
        f"(search values) ± SE; tournament rules. ({time.time() - t0:.0f} s for the sums)\n",
    )
    cols = blocks()
    full = cols[list(cols)[-1]]
    ref_w = solve(gram.sum(0), rhs.sum(0), full, 1.0)
    ref = held.gain(held_lab.x @ ref_w)
    print(gain_header("features, share of the training decisions"))
    for name, c in cols.items():
        for share in SHARES:
            k = nb // share
            w = solve(gram[:k].sum(0), rhs[:k].sum(0), c, 1.0)
            label = f"{name}, 1/{share} ({int((buckets < k).sum()):,})"
            print(gain_row(label, held, held.gain(held_lab.x @ w), ref), flush=True)
    from analysis.distill import frozen_row
    from sim.policies.strong import N_STRONG

    frozen_w = frozen_row(N_STRONG + len(full))[N_STRONG:]
    print(gain_row("the frozen reference's weights", held, held.gain(held_lab.x @ frozen_w), ref))
    print(f"\nOther fits of all the data, 100 features:\n\n{gain_header('fit')}")
    fits = {}
    for r in RIDGES:
        w = solve(gram.sum(0), rhs.sum(0), full, r)
        fits[f"ridge={r:g}"] = w
        print(gain_row(f"ridge {r:g}", held, held.gain(held_lab.x @ w), ref), flush=True)
    gw, bw = normal_equations(train, np.zeros(len(d), np.int64), 1, per_decision=True)
    for r in (1.0, 0.1):
        w = solve(gw[0], bw[0], full, r)
        fits[f"per-decision,ridge={r:g}"] = w
        label = f"each decision weighted once, ridge {r:g}"
        print(gain_row(label, held, held.gain(held_lab.x @ w), ref), flush=True)
    gr, br = normal_equations(train, round_of, which[-1], per_decision=False)
    for k in (1, 2, 4):
        if k < len(which) - 1:
            w = solve(gr[-k:].sum(0), br[-k:].sum(0), full, 1.0)
            label = f"the last {k} training round{'s' if k > 1 else ''} only, ridge 1"
            print(gain_row(label, held, held.gain(held_lab.x @ w), ref), flush=True)
    if args.products:
        t0 = time.time()
        cols = discard_block()
        pg, pr = product_sums(train, cols)
        ws = [solve(pg, pr, np.arange(len(pr)), r) for r in (1.0, 10.0, 100.0)]
        z = with_products(held_lab.x, cols)
        print(
            f"\nProducts of the discard's {len(cols)} features (d_*, e_*) added to the 100, "
            f"{z.shape[1]} weights ({time.time() - t0:.0f} s):\n\n{gain_header('fit')}"
        )
        for r, w in zip((1.0, 10.0, 100.0), ws, strict=True):
            print(gain_row(f"with products, ridge {r:g}", held, held.gain(z @ w), ref), flush=True)
        if args.groups:
            product_groups(pg, pr, cols, held, z, ref)
    if args.mlp:
        print(f"\nA network beside the linear score (--mlp-seed {args.mlp_seed}):\n")
        print(gain_header("model, share of the training decisions"))
        print(gain_row("linear (ridge 1, the training's fit)", held, ref, ref))
        runs = [(h, share) for share in args.mlp_shares for h in args.hidden[:1]]
        runs += [(h, 1) for h in args.hidden[1:]]
        for h, share in runs:
            t0 = time.time()
            k = nb // share
            part = subset(train, d, buckets < k)
            lin = solve(gram[:k].sum(0), rhs[:k].sum(0), full, 1.0)
            net = fit_mlp(part, lin, h, args.mlp_seed, epochs=args.epochs, log=_log)
            name = f"linear + {h} hidden units, 1/{share} ({time.time() - t0:.0f} s)"
            print(gain_row(name, held, held.gain(net.scores(held_lab.x)), ref), flush=True)
    return fits


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def play_variant(folder: Path, which: list[int], variant: str, args) -> None:
    """Refit ``variant`` on every round present and play it against the frozen reference, and
    against the last round's file paired on the same deals; write its data file to
    ``--write`` if given."""
    from analysis.distill import frozen_row
    from sim.policies.strong import N_STRONG
    from sim.policies.strong_features import N_FEATURES
    from sim.policies.strong_v2_features import N_FEATURES_V2

    m = re.fullmatch(r"(per-decision,)?ridge=([0-9.]+)", variant)
    if m is None:
        raise SystemExit(
            f"bench_v2_curve: --play {variant!r}: give ridge=R or per-decision,ridge=R"
        )
    data = load_rounds(folder, which)
    n = len(Decisions(data.x, data.v, data.meta))
    gram, rhs = normal_equations(data, np.zeros(n, np.int64), 1, per_decision=bool(m[1]))
    w = solve(gram[0], rhs[0], np.arange(N_FEATURES_V2), float(m[2]))
    last_path = folder / f"round{which[-1]}.json"
    last_data = json.loads(last_path.read_text(encoding="utf-8"))
    last = v2_array(last_data, str(last_path))
    pol = np.concatenate([last[:N_STRONG], w])
    if args.write:
        out = json.loads(json.dumps(last_data))
        out["evaluator"]["weights"] = [round(float(x), 6) for x in w]
        out["evaluator"]["variant"] = f"{variant}, all of rounds 0-{which[-1]} (bench_v2_curve)"
        Path(args.write).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
        pol = v2_array(out, args.write)  # the file's rounded weights, as it would play
    frozen = frozen_row(N_STRONG + N_FEATURES)  # as the registry's strong_2026_12
    a = per_deal(pol, frozen, args.seed, args.deals, args.jobs)
    b = per_deal(last, frozen, args.seed, args.deals, args.jobs)
    print(
        f"\n{variant} on rounds 0-{which[-1]} ({n:,} decisions), {args.deals} duplicate deals "
        f"(run key {args.seed}), tournament rules, points a hand [95%]:\n"
    )
    print("| policy | minus strong_2026_12 |\n| --- | --- |")
    print(f"| round {which[-1]}'s file (ridge 1) | {interval(b)} |")
    print(f"| {variant} | {interval(a)} |")
    print(f"| {variant} minus round {which[-1]}'s file (paired) | {interval(a - b)} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", help="a canasta train --stage distill2 checkpoint folder")
    ap.add_argument("--rounds", action="store_true", help="play every round's file")
    ap.add_argument("--margins", metavar="NPZ", help="with --rounds: keep the per-deal margins")
    ap.add_argument("--offline", action="store_true", help="the data and model-size curves")
    ap.add_argument("--mlp", action="store_true", help="with --offline: the network too")
    ap.add_argument("--products", action="store_true", help="with --offline: d/e products")
    ap.add_argument("--groups", action="store_true", help="with --products: by feature")
    ap.add_argument("--hidden", type=int, nargs="+", default=[32])
    ap.add_argument(
        "--mlp-shares",
        type=int,
        nargs="+",
        default=[1],
        choices=SHARES,
        help="the first --hidden size on 1/S of the training decisions",
    )
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--mlp-seed", type=int, default=55)
    ap.add_argument("--split-seed", type=int, default=55, help="the data curve's shares")
    ap.add_argument("--play", metavar="VARIANT", help="ridge=R or per-decision,ridge=R")
    ap.add_argument("--write", metavar="JSON", help="with --play: the variant's data file")
    ap.add_argument("--last", type=int, help="use rounds 0..LAST only (default: all)")
    ap.add_argument("--deals", type=int, default=50000)
    ap.add_argument("--seed", type=int, default=5506)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    folder = Path(args.folder)
    which = rounds_in(folder)
    if args.last is not None:
        which = which[: args.last + 1]
    if not which:
        raise SystemExit(f"bench_v2_curve: {folder}: no iteration0.npz and round0.json")
    if not (args.rounds or args.offline or args.play):
        raise SystemExit("bench_v2_curve: ask for --rounds, --offline or --play")
    print(f"bench_v2_curve: {folder}, rounds 0-{which[-1]}")
    if args.rounds:
        rounds_table(folder, which, args)
    if args.offline:
        offline_tables(folder, which, args)
    if args.play:
        play_variant(folder, which, args.play, args)


if __name__ == "__main__":
    main()
