"""Where the points go: expert_strong (search with the memory) against strong, per kind of decision.

    .venv/bin/python benchmarks/bench_where_points.py --deals 2000 [--seed 55] [--chunk 25]
        [--out runs/where_points] [--samples 24] [--rollouts 2] [--report-only]

Two measurements on the same duplicate deals (hand ``h`` of run key ``--seed``):

1. **The whole hand.** ``expert_strong`` against ``strong``, each deal played twice with the
   seats swapped (``analysis.compare.duplicate_from_records``): points a hand with its 95%
   interval over deals.
2. **Per decision.** Strong plays all four seats of deal ``h`` (as team 0 moves first in the
   first run); at each decision of team 0 the search is asked too and the decision is
   classified by strong's move (``KIND_NAMES``): draw or take the pile, the discard, start a
   sevens/aces/wild meld, open now or wait, which melds to lay, laying off, go out or play on.
   At the three kinds expert_strong searches, the candidates are its own
   (``sim.policies.expert.candidates``); at the others, which expert_strong leaves to strong,
   a probe searches strong's meld against holding it (strong's move with those cards hidden),
   which is what a search of that kind would choose. The search is expert_strong's
   (``search_positions``: ``--samples`` x ``--rollouts`` determinizations with the public card
   memory, strong in every seat of every rollout, common random numbers), its choice the
   candidate with the best total, as ``expert_decide``. Where it differs from strong, the
   difference is valued twice: by the search's own estimate (biased upward: the best of noisy
   estimates) and by a second, independent search of the two moves alone (unbiased: new
   determinizations and stock orders). Strong then plays on (the hand is strong's), so each
   value is a one-step deviation: the search's move once, strong after it.

The decision search draws from its own generator per hand (``--seed`` + 1), so the hands played
are exactly strong's on the same run key. Every ``--chunk`` deals are written to ``--out`` as
one ``.npz``; a rerun skips the chunks already written (resumable), and the report reads every
chunk present. Ruleset: the tournament rules (``Ruleset()``, RULES.md's defaults).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim import encoding as E  # noqa: E402
from sim.engine.contract import MODE_TRUSTED  # noqa: E402
from sim.engine.intercept import IC_KIND, IC_SIZE, IK_PAUSE, PAUSED, reset_intercept  # noqa: E402
from sim.engine.judge import action_ok  # noqa: E402
from sim.engine.play import new_deck, resume_direct  # noqa: E402
from sim.engine.state import deal  # noqa: E402
from sim.engine.views import ob_melds, scratch_tmp  # noqa: E402
from sim.legality import meld_size  # noqa: E402
from sim.play.view import obs_fields  # noqa: E402
from sim.policies.expert import MAX_CANDIDATES, candidates, search_positions  # noqa: E402
from sim.policies.strong import risky_slot, strong_decide  # noqa: E402
from sim.rng import seed_hand  # noqa: E402

#: the kinds of decision, by strong's move (``_decision_kind``)
KIND_NAMES = (
    "draw or take the pile",
    "the discard",
    "start a sevens/aces/wild meld",
    "open now or wait",
    "which melds to lay",
    "laying off",
    "go out or play on",
    "other (threes, declare)",
)
K_DRAW, K_DISCARD, K_START, K_OPEN, K_LAY, K_LAYOFF, K_OUT, K_OTHER = range(len(KIND_NAMES))
#: columns of a decision row
ROW_COLUMNS = ("deal", "seat", "turn", "kind", "n", "searched", "differs", "done")
R_DEAL, R_SEAT, R_TURN, R_KIND, R_N, R_SEARCHED, R_DIFFERS, R_DONE = range(len(ROW_COLUMNS))
#: float columns: the search's own estimate and the independent re-estimate of the difference
VALUE_COLUMNS = ("own", "check")
ROWS_PER_DEAL = 128


@njit(cache=True)
def _decision_kind(obs, a):
    """The kind of decision strong's move ``a`` makes (``KIND_NAMES``)."""
    t = E.ACTION_TABLE[a, E.AC_TYPE]
    if obs[E.OB_PHASE] == E.PH_DRAW:
        return K_DRAW
    if t == E.AT_DISCARD:
        return K_OUT if obs[E.OB_HAND_SIZES] == 1 else K_DISCARD
    if t == E.AT_MELD:
        if risky_slot(obs, a) >= 0:
            return K_START
        used = E.ACTION_TABLE[a, E.AC_NAT] + E.ACTION_TABLE[a, E.AC_TWO]
        used += E.ACTION_TABLE[a, E.AC_JOKER]
        if obs[E.OB_HAND_SIZES] == used:
            return K_OUT
        if obs[E.OB_OPENED] == 0:
            return K_OPEN
        if meld_size(ob_melds(obs), 0, E.ACTION_TABLE[a, E.AC_SLOT]) == 0:
            return K_LAY
        return K_LAYOFF
    if t == E.AT_DECLARE:
        return K_OUT
    return K_OTHER


@njit(cache=True)
def _hold_move(obs, a, sp, rng, rules, scratch):
    """Strong's move with the cards of meld ``a`` hidden from its hand (holding that meld),
    if legal here and other than ``a``; else -1."""
    masked = obs.copy()
    slot = E.ACTION_TABLE[a, E.AC_SLOT]
    hide = (
        slot if slot != E.WILD_MELD and E.ACTION_TABLE[a, E.AC_NAT] > 0 else -1,
        E.TWO if E.ACTION_TABLE[a, E.AC_TWO] > 0 else -1,
        E.JOKER if E.ACTION_TABLE[a, E.AC_JOKER] > 0 else -1,
    )
    f = obs_fields(masked)
    for k in hide:
        if k >= 0:
            f.hand_sizes[0] -= f.hand[k]
            f.hand[k] = 0
    if f.hand_sizes[0] < 1:
        return -1
    r = rng.copy()
    h = strong_decide(masked, sp, r, rules, scratch)
    if h == a or not action_ok(obs, h, rules, scratch_tmp(scratch)):
        return -1
    return h


@njit(cache=True)
def probe_deals_kernel(key, search_key, start, stop, xp, sp, samples, rollouts, rules, rows, vals):
    """Deals ``start..stop-1``: strong (``sp``) in every seat; at each decision of team 0 the
    search's candidates (``xp``: expert_strong's parameters) or the hold probe, searched, and a
    row (ROW_COLUMNS, VALUE_COLUMNS) written. Returns the rows written, -1 out of room."""
    st = np.zeros(E.STATE_SIZE, dtype=np.int64)
    obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    rng = np.zeros(4, dtype=np.uint64)
    srng = np.zeros(4, dtype=np.uint64)
    log = np.zeros(1, dtype=np.int64)
    deck = np.zeros(E.N_CARDS, dtype=np.int64)
    cache = np.zeros(E.PC_SIZE, dtype=np.int64)
    cands = np.empty(MAX_CANDIDATES, dtype=np.int64)
    pair = np.empty(2, dtype=np.int64)
    totals = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    icpt = np.zeros(IC_SIZE, dtype=np.int64)
    icpt[IC_KIND] = IK_PAUSE  # at team 0's decisions
    n_rows = 0
    for h in range(start, stop):
        seed_hand(key, h, rng)
        seed_hand(search_key, h, srng)
        new_deck(rng, deck)
        deal(st, deck, h % 4, 0, 0, rules, log)
        for i in range(E.PC_SIZE):
            cache[i] = 0
        reset_intercept(icpt)
        while True:
            code = resume_direct(
                st, obs, strong_decide, strong_decide, sp, sp, rng, rules, scratch, cache, log,
                icpt, MODE_TRUSTED,
            )  # fmt: skip
            if code != PAUSED:
                break
            # the hand's generator is copied: the hand plays on exactly as strong's
            a = strong_decide(obs, sp, rng.copy(), rules, scratch)
            kind = _decision_kind(obs, a)
            n = candidates(obs, xp, rng.copy(), rules, scratch, cands)
            searched = 1
            if n < 2 or cands[0] != a:
                searched = 0
                n = 1
                cands[0] = a
                if kind == K_OPEN or kind == K_LAY or kind == K_LAYOFF or kind == K_OUT:
                    if E.ACTION_TABLE[a, E.AC_TYPE] == E.AT_MELD:
                        hold = _hold_move(obs, a, sp, rng, rules, scratch)
                        if hold >= 0:
                            cands[1] = hold
                            n = 2
            if n_rows >= rows.shape[0]:
                return -1
            r = rows[n_rows]
            r[R_DEAL], r[R_SEAT], r[R_TURN] = h, st[E.ST_PLAYER], st[E.ST_TURN]
            r[R_KIND], r[R_N], r[R_SEARCHED] = kind, n, searched
            r[R_DIFFERS], r[R_DONE] = 0, 0
            vals[n_rows, 0], vals[n_rows, 1] = 0.0, 0.0
            if n >= 2:
                done = search_positions(
                    obs, samples, rollouts, sp, sp, True, srng, rules, cands, n, totals, True
                )
                best = 0
                for c in range(1, n):
                    if totals[c] - totals[0] > 0 and totals[c] > totals[best]:
                        best = c
                r[R_DONE] = done
                if best > 0 and done > 0:
                    r[R_DIFFERS] = 1
                    vals[n_rows, 0] = (totals[best] - totals[0]) / done
                    pair[0], pair[1] = cands[0], cands[best]
                    again = search_positions(
                        obs, samples, rollouts, sp, sp, True, srng, rules, pair, 2, totals, True
                    )
                    if again > 0:
                        vals[n_rows, 1] = (totals[1] - totals[0]) / again
            n_rows += 1
    return n_rows


def _chunk_path(out: Path, seed: int, k: int, chunk: int) -> Path:
    return out / f"seed{seed}_chunk{chunk}_{k:05d}.npz"


def run_chunk(seed: int, k: int, chunk: int, samples: int, rollouts: int) -> dict:
    """Chunk ``k``: the decision rows of its deals and both runs of the whole-hand duplicate."""
    from sim.api import play_hands, rules_array
    from sim.policies import parse
    from sim.rng import run_key
    from sim.ruleset import Ruleset

    rules = Ruleset()
    ra = rules_array(rules)
    start, stop = k * chunk, (k + 1) * chunk
    key = run_key(seed)
    _, sp, _ = parse("strong")
    _, xp, _ = parse("expert_strong")
    rows = np.zeros((ROWS_PER_DEAL * chunk, len(ROW_COLUMNS)), dtype=np.int64)
    vals = np.zeros((ROWS_PER_DEAL * chunk, len(VALUE_COLUMNS)), dtype=np.float64)
    t = time.time()
    n = probe_deals_kernel(
        key, run_key(seed + 1), start, stop, xp, sp, samples, rollouts, ra, rows, vals
    )
    if n < 0:
        raise RuntimeError("decision rows ran out of room")
    t_probe = time.time() - t
    t = time.time()
    ab = play_hands(key, start, stop, ("expert_strong", "strong"), rules=rules)
    ba = play_hands(key, start, stop, ("strong", "expert_strong"), rules=rules)
    t_hands = time.time() - t
    return {
        "rows": rows[:n],
        "vals": vals[:n],
        "ab": ab[["hand_id", "score_team0", "score_team1"]].to_numpy(np.int64),
        "ba": ba[["hand_id", "score_team0", "score_team1"]].to_numpy(np.int64),
        "seconds": np.array([t_probe, t_hands]),
    }


def _mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    """Mean and 95% normal interval of a mean (over deals)."""
    x = np.asarray(x, float)
    m = float(x.mean())
    se = float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan")
    return m, m - 1.96 * se, m + 1.96 * se


def report(out: Path, seed: int, chunk: int) -> dict:
    """The table from every chunk written: per kind, decisions, how often the search differs,
    and what the differences are worth in points a hand (one-step deviations, re-estimated)."""
    files = sorted(out.glob(f"seed{seed}_chunk{chunk}_*.npz"))
    if not files:
        raise SystemExit(f"bench_where_points: no chunks in {out}")
    parts = [np.load(f) for f in files]
    rows = np.concatenate([p["rows"] for p in parts])
    vals = np.concatenate([p["vals"] for p in parts])
    ab = np.concatenate([p["ab"] for p in parts])
    ba = np.concatenate([p["ba"] for p in parts])
    seconds = np.sum([p["seconds"] for p in parts], axis=0)
    deals = np.unique(ab[:, 0])
    n_deals = len(deals)
    # the whole hand: A = expert_strong; per deal the mean of A's margin over its two hands
    diff = ((ab[:, 1] - ab[:, 2]) + (ba[:, 2] - ba[:, 1])) / 2.0
    whole = _mean_ci(diff / 1.0) if n_deals > 1 else (float(diff.mean()), np.nan, np.nan)
    # points are per hand of team 0: a per-deal sum of the kind's re-estimated values
    index = {d: i for i, d in enumerate(deals)}
    table = []
    for k, name in enumerate(KIND_NAMES):
        sel = rows[:, R_KIND] == k
        searched = sel & (rows[:, R_N] >= 2)
        differs = searched & (rows[:, R_DIFFERS] == 1)
        per_deal = np.zeros(n_deals)
        own = np.zeros(n_deals)
        for i in np.flatnonzero(differs):
            per_deal[index[rows[i, R_DEAL]]] += vals[i, 1]
            own[index[rows[i, R_DEAL]]] += vals[i, 0]
        m, lo, hi = _mean_ci(per_deal)
        n_s, n_d = int(searched.sum()), int(differs.sum())
        table.append(
            {
                "kind": name,
                "decisions": int(sel.sum()),
                "searched": n_s,
                "by_expert": int((sel & (rows[:, R_SEARCHED] == 1)).sum()),
                "differs": n_d,
                "differs_share": n_d / n_s if n_s else float("nan"),
                "value_per_difference": float(vals[differs, 1].mean()) if n_d else float("nan"),
                "own_per_difference": float(vals[differs, 0].mean()) if n_d else float("nan"),
                "points_per_hand": m,
                "ci_low": lo,
                "ci_high": hi,
                "own_points_per_hand": float(own.mean()),
            }
        )
    return {
        "ruleset": "tournament (Ruleset(), RULES.md defaults)",
        "seed": seed,
        "deals": n_deals,
        "team0_decisions": len(rows),
        "whole_hand": {"mean": whole[0], "ci_low": whole[1], "ci_high": whole[2]},
        "kinds": table,
        "cpu_seconds": {"decisions": float(seconds[0]), "whole_hands": float(seconds[1])},
    }


def print_report(res: dict) -> None:
    w = res["whole_hand"]
    print(
        f"expert_strong (memory=1) vs strong, {res['deals']} duplicate deals, seed "
        f"{res['seed']}, ruleset {res['ruleset']}: {w['mean']:+.1f} points a hand "
        f"[{w['ci_low']:+.1f}, {w['ci_high']:+.1f}]"
    )
    print(f"team-0 decisions (strong's hands, team 0): {res['team0_decisions']}")
    head = (
        "| kind | decisions | searched | differs | share | worth a difference | "
        "points a hand [95%] | search's own |"
    )
    print(head)
    print("|" + "---|" * 8)
    for r in res["kinds"]:
        share = r["differs_share"]
        print(
            f"| {r['kind']} | {r['decisions']} | {r['searched']} | {r['differs']} | "
            f"{share:.1%} | {r['value_per_difference']:+.1f} | {r['points_per_hand']:+.1f} "
            f"[{r['ci_low']:+.1f}, {r['ci_high']:+.1f}] | {r['own_points_per_hand']:+.1f} |"
        )
    c = res["cpu_seconds"]
    print(f"CPU: decisions {c['decisions']:.0f} s, whole hands {c['whole_hands']:.0f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=55)
    ap.add_argument("--chunk", type=int, default=25)
    ap.add_argument("--samples", type=int, default=24)
    ap.add_argument("--rollouts", type=int, default=2)
    ap.add_argument("--out", type=Path, default=ROOT / "runs" / "where_points")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--json", type=Path, default=None, help="write the report here too")
    a = ap.parse_args()
    if a.deals < 2 or a.chunk < 1 or a.samples < 1 or a.rollouts < 1:
        raise SystemExit("bench_where_points: --deals >= 2, --chunk, --samples, --rollouts >= 1")
    if a.deals % a.chunk:
        raise SystemExit("bench_where_points: --deals must be a multiple of --chunk")
    a.out.mkdir(parents=True, exist_ok=True)
    if not a.report_only:
        for k in range((a.deals + a.chunk - 1) // a.chunk):
            path = _chunk_path(a.out, a.seed, k, a.chunk)
            if path.exists():
                continue
            t = time.time()
            res = run_chunk(a.seed, k, a.chunk, a.samples, a.rollouts)
            tmp = path.with_suffix(".tmp.npz")
            np.savez(tmp, **res)
            tmp.rename(path)
            print(f"chunk {k}: {time.time() - t:.0f} s", flush=True)
    res = report(a.out, a.seed, a.chunk)
    print_report(res)
    if a.json:
        a.json.write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
