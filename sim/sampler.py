"""Dealt odds of the special hands (ODDS-1) by sampling real deals.

The model (ODDS-1): the first player's cards are taken in the order she receives them, the 13
dealt cards then the stock draws; threes are laid down and replaced (DEAL-4). Her pairs/Garbage
hand is the first 14 non-three cards received; her Straight hand is the first three received
plus the first 13 non-threes, and needs that three among the first 14 cards received (DEAL-5).
"Any" is the union of the events. Each hand of the list in force (SPECIAL-7..9) is judged by
``sim.special.matched_hands`` (a deal counts for every hand it forms; "any" once).

Two compiled kernels sample that model:

* the **baseline** shuffles the whole 108-card deck for every deal (its own generator per deal,
  ``sim.rng.seed_hand(key, deal)``), deals 13 cards round the table and reads the stock, then
  classifies both hands of every deal. Plain and obviously right; ~2M deals/s/core.
* the **fast** kernel draws only the cards it needs, by a partial Fisher-Yates on a deck of kinds
  that is *not* reset between deals (a Fisher-Yates step picks uniformly among the cards not yet
  drawn, whatever order they lie in, so each deal is an independent uniform ordered sample). It
  stops as soon as no special hand is possible: a hand with a three (the Straight) needs
  between ``RS_CAT_MIN_KINDS3`` and ``RS_CAT_MAX_KINDS3`` distinct kinds among the first 13
  non-threes (the Straight: 13, so no repeat), a hand without one at most
  ``RS_CAT_MAX_DISTINCT`` kinds (tournament and cla lists: 7, the pairs hands), so a deal past
  both bounds is no special hand.
  Only the rare candidates reach the classifier. Deals come in blocks of ``BLOCK`` with one
  generator per block (``seed_hand(key, block)``), so seeding costs nothing per deal; a chunk
  starting inside a block replays the block's first deals, so results never depend on chunking.
  The generator (sim.rng's xoshiro256**) is kept in registers and each 64 random bits give two
  unbiased draws (Lemire's multiply-shift on 32 bits); ~15-19M deals/s/core, ~9.4 cards a deal.

Both are exact samplers of the same distribution (a test compares them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numba import njit

from sim.encoding import (
    BLACK_THREE,
    CARD_KIND,
    HAND_SIZE,
    KIND_NAMES,
    MAX_CATALOGUE,
    N_KINDS,
    N_PLAYERS,
    RED_THREE,
    RS_CAT_MAX_DISTINCT,
    RS_CAT_MAX_KINDS3,
    RS_CAT_MIN_KINDS3,
    RS_CATALOGUE_N,
    SPECIAL_HAND_SIZE,
    SPECIAL_NAMES,
)
from sim.errors import CanastaError
from sim.rng import STATE_WORDS, seed_hand, shuffle
from sim.special import best_of, matched_hands

__all__ = [
    "BLOCK",
    "N_SPECIAL",
    "SPECIAL_NAMES",
    "SampledOdds",
    "dealt_records",
    "format_sampled",
    "planned_deals",
]

BLOCK = 1024  #: deals sharing one generator in the fast kernel (the unit of its seeding)
N_SPECIAL = MAX_CATALOGUE + 1  #: hit counters: index = special code; index 0 counts "any"
HAND_NAMES = (*SPECIAL_NAMES[1:], "any")  #: result rows under the default (tournament) list
_STRAIGHT_DISTINCT = HAND_SIZE  #: ODDS-1: a three's hand takes the first 13 non-threes
_DRAW_CAP = SPECIAL_HAND_SIZE  #: non-threes a player's dealt hand holds (ODDS-1)

# Receiving order of the first player in a real deal of a shuffled deck: one card at a time
# round the table starting with her (DEAL-1), then the stock from its top.
_DEALT_POSITIONS = np.arange(0, HAND_SIZE * N_PLAYERS, N_PLAYERS, dtype=np.int64)
_STOCK_START = HAND_SIZE * N_PLAYERS


@njit(cache=True, inline="always")
def _is_three(kind):
    return kind == RED_THREE or kind == BLACK_THREE


@njit(cache=True, inline="always")
def _three_possible(rep13, n_nat, rules):
    """Can the first 13 non-threes (``rep13`` repeats among those received so far, of
    ``n_nat``) still be those of a hand with a three in the list in force?"""
    seen = min(n_nat, _STRAIGHT_DISTINCT)
    return (_STRAIGHT_DISTINCT - rep13 >= rules[RS_CAT_MIN_KINDS3]) and (
        seen - rep13 <= rules[RS_CAT_MAX_KINDS3]
    )


@njit(cache=True)
def _classify_odds1(counts, three_kind, last_kind, three_possible, n_distinct, rules):
    """ODDS-1 classification of one deal from the counts of its 14 first non-threes.

    Returns (three_mask, plain_mask), the hands of the list (bit i: hand i) formed by the hand
    with a three (first three + first 13 non-threes) and by the first 14 non-threes.
    ``last_kind`` is the 14th non-three; ``three_kind`` the first three (received among the
    first 14 cards) or -1.
    """
    three_mask = 0
    plain_mask = 0
    if three_possible and three_kind >= 0:
        counts[last_kind] -= 1
        counts[three_kind] += 1
        three_mask = matched_hands(counts, rules)
        counts[three_kind] -= 1
        counts[last_kind] += 1
    if n_distinct <= rules[RS_CAT_MAX_DISTINCT]:
        plain_mask = matched_hands(counts, rules)
    return three_mask, plain_mask


@njit(cache=True, inline="always")
def _count_hits(three_mask, plain_mask, hits):
    """hits[code] += 1 for each hand of the list the deal forms; hits[0] counts deals with any
    (a hand never needs both a three and none, so the masks share no hand)."""
    mask = three_mask | plain_mask
    if mask:
        hits[0] += 1
        i = 1
        while mask:
            hits[i] += mask & 1
            mask >>= 1
            i += 1


@njit(cache=True)
def _received_odds1(received, counts, rules):
    """ODDS-1 features of a received card sequence (kinds): fills ``counts`` with the first 14
    non-threes; returns (three_kind, last_kind, three_possible, n_distinct, first_three_at,
    n_received) where first_three_at is the 1-based position of the first three (0: none in
    the first 14 cards) and n_received the cards read to complete 14 non-threes."""
    counts[:] = 0
    n_nat = 0
    n_distinct = 0
    rep13 = 0
    three_kind = -1
    first_three_at = 0
    last_kind = -1
    pos = 0
    while n_nat < _DRAW_CAP:
        kind = received[pos]
        pos += 1
        if _is_three(kind):
            if three_kind < 0 and pos <= _DRAW_CAP:
                three_kind = kind
                first_three_at = pos
            continue
        if counts[kind] == 0:
            n_distinct += 1
        elif n_nat < _STRAIGHT_DISTINCT:
            rep13 += 1
        counts[kind] += 1
        last_kind = kind
        n_nat += 1
    three_ok = _three_possible(rep13, n_nat, rules)
    return three_kind, last_kind, three_ok, n_distinct, first_three_at, pos


@njit(cache=True)
def _baseline_deal(state, deck, received, counts, card_kind, rules):
    """One real deal (ODDS-1, DEAL-1): shuffle the whole deck, read the first player's cards
    (every 4th card of the deal from the top, then the stock), kinds into ``received``."""
    for c in range(deck.shape[0]):
        deck[c] = c
    shuffle(state, deck)
    n = 0
    for p in _DEALT_POSITIONS:
        received[n] = card_kind[deck[p]]
        n += 1
    for p in range(_STOCK_START, deck.shape[0]):
        received[n] = card_kind[deck[p]]
        n += 1
    return _received_odds1(received, counts, rules)


@njit(cache=True)
def _baseline_one(key, d, state, deck, received, counts, card_kind, rules):
    """Deal ``d`` of the baseline (its own generator, a full shuffle) and its ODDS-1 hands:
    (three mask, plain mask, first three's position, distinct kinds, cards received)."""
    seed_hand(key, d, state)
    three, last, three_ok, distinct, at, pos = _baseline_deal(
        state, deck, received, counts, card_kind, rules
    )
    m3, m14 = _classify_odds1(counts, three, last, three_ok, distinct, rules)
    return m3, m14, at, distinct, pos


@njit(cache=True)
def baseline_hits(key, start, stop, card_kind, rules, hits):
    """ODDS-1 baseline: deals ``start..stop-1``, one generator and one full shuffle per deal.

    Adds to ``hits[code]`` (code = place in the list + 1) and ``hits[0]`` (any special hand)."""
    state = np.empty(STATE_WORDS, dtype=np.uint64)
    deck = np.empty(card_kind.shape[0], dtype=np.int64)
    received = np.empty(card_kind.shape[0], dtype=np.int64)
    counts = np.zeros(N_KINDS, dtype=np.int64)
    for d in range(start, stop):
        m3, m14, _, _, _ = _baseline_one(key, d, state, deck, received, counts, card_kind, rules)
        _count_hits(m3, m14, hits)
    return hits


@njit(cache=True)
def _baseline_records(key, start, stop, card_kind, rules, out):
    """Per-deal ODDS-1 records of the baseline sampler (one row per deal of start..stop-1):
    out[:, 0] code of the hand with a three (the Straight), 1 of the hand without (the best of
    those formed, SPECIAL-8), 2 first three's position (0: none in the first 14),
    3 distinct kinds of the 14 non-threes, 4 cards received, 5.. counts per kind."""
    state = np.empty(STATE_WORDS, dtype=np.uint64)
    deck = np.empty(card_kind.shape[0], dtype=np.int64)
    received = np.empty(card_kind.shape[0], dtype=np.int64)
    counts = np.zeros(N_KINDS, dtype=np.int64)
    for d in range(start, stop):
        m3, m14, at, distinct, pos = _baseline_one(
            key, d, state, deck, received, counts, card_kind, rules
        )
        row = d - start
        out[row, 0] = best_of(m3, rules)
        out[row, 1] = best_of(m14, rules)
        out[row, 2] = at
        out[row, 3] = distinct
        out[row, 4] = pos
        for k in range(N_KINDS):
            out[row, 5 + k] = counts[k]


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, inline="always")
def _xoshiro(s0, s1, s2, s3):
    """xoshiro256** step on a state held in registers (as sim.rng.next_u64 does in memory)."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit(cache=True, inline="always")
def _below(r32, n, s0, s1, s2, s3):
    """Uniform integer in [0, n) from 32 random bits (Lemire's multiply-shift, unbiased: the
    rare rejection, only possible when the low word is below n, draws fresh bits)."""
    m = r32 * np.uint64(n)
    if (m & np.uint64(0xFFFFFFFF)) < np.uint64(n):
        threshold = (np.uint64(1 << 32) - np.uint64(n)) % np.uint64(n)
        while (m & np.uint64(0xFFFFFFFF)) < threshold:
            x, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
            m = (x >> np.uint64(32)) * np.uint64(n)
    return np.int64(m >> np.uint64(32)), s0, s1, s2, s3


@njit(cache=True)
def fast_hits(key, start, stop, block, card_kind, rules, hits):
    """ODDS-1 fast sampler over deals ``start..stop-1``; adds hits like ``baseline_hits``.

    Block ``b`` (deals b*block ..) has the generator ``seed_hand(key, b)`` and a fresh deck; a
    range starting inside a block replays that block's earlier deals without counting them.
    Each deal is a partial Fisher-Yates on ``deck`` (kinds, left in whatever order the previous
    deal left them), drawing only until 14 non-threes are in hand or no special hand is
    possible (the RS_CAT_* bounds of the list in force; tournament list: a repeated kind among
    the first 13 non-threes rules out the Straight, an 8th distinct kind the pairs hands and
    Garbage); candidates are classified.
    """
    state = np.empty(STATE_WORDS, dtype=np.uint64)
    n_cards = card_kind.shape[0]
    deck = np.empty(n_cards, dtype=np.int64)
    counts = np.zeros(N_KINDS, dtype=np.int64)
    mask32 = np.uint64(0xFFFFFFFF)
    max_distinct = rules[RS_CAT_MAX_DISTINCT]
    if rules[RS_CATALOGUE_N] == 0:
        return hits  # SPECIAL-7: nothing is special
    d = start
    while d < stop:
        b = d // block
        seed_hand(key, b, state)
        s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
        deck[:] = card_kind
        end = min((b + 1) * block, stop)
        for deal in range(b * block, end):
            counts[:] = 0
            n_nat = 0
            n_distinct = 0
            rep13 = 0
            three_kind = -1
            last_kind = -1
            pos = 0
            r = np.uint64(0)
            while n_nat < _DRAW_CAP:
                # two 32-bit draws from each 64 random bits: high word on even positions
                if pos & 1 == 0:
                    x, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
                    r = x >> np.uint64(32)
                else:
                    r = x & mask32
                j, s0, s1, s2, s3 = _below(r, n_cards - pos, s0, s1, s2, s3)
                j += pos
                kind = deck[j]
                deck[j] = deck[pos]
                deck[pos] = kind
                pos += 1
                if _is_three(kind):
                    if three_kind < 0 and pos <= _DRAW_CAP:
                        three_kind = kind
                    continue
                c = counts[kind]
                counts[kind] = c + 1
                n_distinct += c == 0
                rep13 += (c != 0) & (n_nat < _STRAIGHT_DISTINCT)
                last_kind = kind
                n_nat += 1
                if n_distinct > max_distinct and not (
                    (three_kind >= 0 or pos < _DRAW_CAP) and _three_possible(rep13, n_nat, rules)
                ):
                    break
            if deal < d or n_nat < _DRAW_CAP:
                continue  # replayed deal, or no special hand possible
            three_ok = _three_possible(rep13, n_nat, rules)
            m3, m14 = _classify_odds1(counts, three_kind, last_kind, three_ok, n_distinct, rules)
            _count_hits(m3, m14, hits)
        d = end
    return hits


# ---------------------------------------------------------------------------------------
# Python layer
# ---------------------------------------------------------------------------------------
KERNELS = ("fast", "baseline")  #: the two samplers of ODDS-1
DEFAULT_CHUNK = 1 << 22  #: deals per parallel task (a multiple of BLOCK; ~0.2 s of work)
#: kinds a pairs hand can hold (no threes), as record columns n_<kind>
_RECORD_KINDS = tuple(k for k in range(N_KINDS) if not _is_three.py_func(k))


def rules_array(ruleset) -> np.ndarray:
    from sim.ruleset import as_ruleset

    return as_ruleset(ruleset).to_array()


def count_hits(key, start: int, stop: int, rules: np.ndarray, kernel: str = "fast") -> np.ndarray:
    """ODDS-1 hits over deals start..stop-1 of the run with ``key``: int64[N_SPECIAL], index =
    special code (place in the list in force + 1), index 0 = deals with any special hand."""
    from sim.limits import MAX_DEALS, check_id_range

    start, stop = check_id_range(start, stop, "deal", MAX_DEALS)
    hits = np.zeros(N_SPECIAL, dtype=np.int64)
    if kernel == "fast":
        fast_hits(key, start, stop, BLOCK, CARD_KIND, rules, hits)
    elif kernel == "baseline":
        baseline_hits(key, start, stop, CARD_KIND, rules, hits)
    else:
        raise CanastaError(f"unknown sampler kernel {kernel!r}; known: {', '.join(KERNELS)}")
    return hits


def dealt_records(key, start: int, stop: int, ruleset=None):
    """Chunk function (``sim.runner``): one row per deal start..stop-1 of the baseline sampler.

    Columns: ``deal_id``; ``straight_hand`` and ``pairs_hand`` (special codes of the ODDS-1
    hand with a three and hand without, under the list in force, 0 = none); ``first_three_at``
    (1-based position of the first three received, 0 if none among the first 14 cards);
    ``distinct`` (kinds among the 14 non-threes); ``received`` (cards received to get 14
    non-threes); ``n_<kind>`` the pairs hand's count of each kind. Deal i depends only on (key, i).
    """
    import pandas as pd

    from sim.limits import MAX_DEALS, check_id_range

    start, stop = check_id_range(start, stop, "deal", MAX_DEALS, 8 * (5 + N_KINDS) + 8)
    rules = rules_array(ruleset)
    n = stop - start
    out = np.empty((n, 5 + N_KINDS), dtype=np.int64)
    _baseline_records(key, start, stop, CARD_KIND, rules, out)
    cols = {"deal_id": np.arange(start, stop, dtype=np.int64)}
    for i, name in enumerate(("straight_hand", "pairs_hand", "first_three_at", "distinct")):
        cols[name] = out[:, i].astype(np.int8)
    cols["received"] = out[:, 4].astype(np.int8)
    for k in _RECORD_KINDS:
        cols[f"n_{KIND_NAMES[k]}"] = out[:, 5 + k].astype(np.int8)
    return pd.DataFrame(cols)


def wilson(hits: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (``sim.stats``, the project's one definition,
    also behind ``analysis.intervals``)."""
    from sim.stats import wilson_bounds

    _, low, high = wilson_bounds(hits, n)
    return float(low), float(high)


def relative_se(hits: int, n: int) -> float:
    """Relative standard error sqrt(p(1-p)/n)/p of an estimated proportion (inf if no hit)."""
    if hits <= 0 or n <= 0:
        return math.inf
    p = hits / n
    return math.sqrt((1.0 - p) / hits)


@dataclass
class SampledOdds:
    """Result of ``sample_dealt_odds``: per hand hits, deals, estimate, 95% Wilson interval,
    relative standard error and the exact value (``sim.odds.exact_odds``)."""

    deals: int
    seed: int
    kernel: str
    hits: dict[str, int]
    exact: dict[str, Fraction]
    rounds: int = 1
    seconds: float = math.nan

    def rows(self) -> dict[str, dict]:
        """``{hand: {hits, deals, estimate, ci_low, ci_high, rel_se, exact}}`` in report order."""
        out = {}
        for name in self.exact:
            h = self.hits[name]
            low, high = wilson(h, self.deals)
            out[name] = {
                "hits": h,
                "deals": self.deals,
                "estimate": h / self.deals,
                "ci_low": low,
                "ci_high": high,
                "rel_se": relative_se(h, self.deals),
                "exact": float(self.exact[name]),
            }
        return out

    def to_dict(self) -> dict[str, dict]:
        """The JSON shape of ``canasta odds -n``: the --exact keys, each object adding hits,
        deals, estimate, ci_low, ci_high (rel_se inf is written as null)."""
        rows = self.rows()
        for row in rows.values():
            if math.isinf(row["rel_se"]):
                row["rel_se"] = None
        return rows

    def table(self) -> str:
        return format_sampled(self)


def format_sampled(result: SampledOdds, model: bool = True, ruleset=None) -> str:
    """Text table of sampled odds: hits, estimate, 95% Wilson interval, relative SE, the exact
    value and 1-in-N, led by the ODDS-1 model statement of the list in force under
    ``ruleset`` (``sim.odds.model_statement``) if ``model``."""
    import textwrap

    rows = result.rows()
    width = max(len(n) for n in rows)
    lines = []
    if model:
        from sim.odds import model_statement

        lines += [*textwrap.wrap(model_statement(ruleset), 92), ""]
    lines += [
        f"Sampled {result.deals:,} real deals (seed {result.seed}, {result.kernel} kernel, "
        f"{result.rounds} round{'s' if result.rounds > 1 else ''}); 95% Wilson score intervals.",
        "",
        f"{'hand':<{width}}  {'hits':>9}  {'estimate':>10}  {'95% interval':>24}  "
        f"{'rel. SE':>7}  {'exact':>10}  {'one in (exact)':>14}",
    ]
    for name, row in rows.items():
        ci = f"[{row['ci_low']:.4e}, {row['ci_high']:.4e}]"
        rse = f"{row['rel_se']:.1%}" if math.isfinite(row["rel_se"]) else "-"
        one_in = f"{round(1 / row['exact']):,}" if row["exact"] else "never"
        lines.append(
            f"{name:<{width}}  {row['hits']:>9,}  {row['estimate']:>10.4e}  {ci:>24}  "
            f"{rse:>7}  {row['exact']:>10.4e}  {one_in:>14}"
        )
    return "\n".join(lines)


def named_hits(hits, exact) -> dict[str, int]:
    """Hits by hand name: ``exact``'s keys are the list's hands in code order, then "any"."""
    names = [n for n in exact if n != "any"]
    out = {name: int(hits[i + 1]) for i, name in enumerate(names)}
    out["any"] = int(hits[0])
    return out


def planned_deals(exact, rel_error: float) -> float:
    """Deals for every hand with non-zero exact odds p to reach a relative standard error of
    ``rel_error``: max of (1 - p) / (p * rel_error**2)."""
    need = 0.0
    for name in exact:
        p = float(exact[name])
        if p > 0.0:
            need = max(need, (1.0 - p) / (p * rel_error**2))
    return need


def next_target(hits, done, exact, rel_error, max_deals) -> int:
    """Total deals to reach for ``rel_error`` (``done`` when reached or capped)."""
    if rel_error is None:
        return done
    need = done
    named = named_hits(hits, exact)
    for name in exact:
        p = float(exact[name])
        if p == 0.0:
            continue  # never dealt (SPECIAL-7 off): its estimate is exactly 0
        h = named[name]
        rse = relative_se(h, done)
        if rse <= rel_error:
            continue
        # rse shrinks as 1/sqrt(n); with no hit yet, plan from the exact value
        want = done * (rse / rel_error) ** 2 if h else (1.0 - p) / (p * rel_error**2)
        need = max(need, int(want * 1.02) + 1)
    if need <= done:
        return done
    need = min(need, done * 16)  # a noisy early estimate must not plan a run too long
    need = -(-need // BLOCK) * BLOCK
    if max_deals is not None:
        need = min(need, max_deals)
    return max(need, done) if need > done else done
