"""ODDS-1 dealt-odds sampler: both kernels agree with the exact odds and with each other,
counts never depend on chunking or jobs, rounds to a relative error, per-deal records."""

import math
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from analysis.intervals import wilson_bounds
from sim import encoding as E
from sim.encoding import BLACK_THREE, JOKER, KIND_COPIES, KIND_NAMES, RED_THREE, SPECIAL_NONE, TWO
from sim.errors import CanastaError
from sim.odds import Deck, deck_odds, exact_odds
from sim.rng import run_key
from sim.ruleset import DEFAULT_RULESET, Ruleset
from sim.sampler import (
    BLOCK,
    HAND_NAMES,
    N_SPECIAL,
    SPECIAL_NAMES,
    baseline_hits,
    count_hits,
    dealt_records,
    fast_hits,
    relative_se,
    wilson,
)
from sim.sampling import sample_dealt_odds
from sim.special import classify_special

RULES = DEFAULT_RULESET.to_array()
EXACT = {k: float(v) for k, v in exact_odds().items()}
Z_TOL = 4.5  # tolerance in standard errors: a false alarm about once in 150,000 runs


def _named(hits):
    out = {name: int(hits[SPECIAL_NAMES.index(name)]) for name in HAND_NAMES[:-1]}
    out["any"] = int(hits[0])
    return out


def _within(hits, n, p):
    """|hits - n p| within Z_TOL binomial standard errors."""
    return abs(hits - n * p) <= Z_TOL * math.sqrt(n * p * (1 - p))


def test_odds_1_fast_estimates_agree_with_exact_values():
    """ODDS-1 on the real deck: 40M deals (seed 11), straight/pairs/pairs 2-7-A/any each within
    4.5 binomial standard errors of sim.odds.exact_odds (expected hits ~1,060 / 4,030 / 1,540 /
    6,650: this resolves 'any' and Pairs to about 6-7%, the Straight and Pairs 2-7-A to 12-14%;
    the rigged-deck tests below resolve every hand to a few per cent)."""
    n = 40_000_000
    got = _named(count_hits(run_key(11), 0, n, RULES, "fast"))
    for name in ("straight", "pairs", "pairs_twos_sevens_aces", "any"):
        assert _within(got[name], n, EXACT[name]), (name, got[name], n * EXACT[name])
    # garbage (~1 in 1.45M) expects ~28 hits here: only a loose sanity bound
    assert _within(got["garbage"], n, EXACT["garbage"])


# ---------------------------------------------------------------------------------------
# Rigged decks: every hand frequent, so a 10% bias in any hand's rate fails the quick loop
# ---------------------------------------------------------------------------------------
#: natural ranks in the order sim.odds.Deck counts them: its featured ranks (SPECIAL-5) first
_NATURALS = (E.SEVEN, E.ACE, E.KING, E.QUEEN, E.JACK, E.TEN, E.NINE, E.EIGHT, E.SIX, E.FIVE, E.FOUR)
#: a relative bias the rigged-deck samples must resolve, in standard errors of the hits
BIAS, BIAS_SE = 0.10, 6.0


def rigged(deck: Deck, three: int | None = None) -> np.ndarray:
    """The kernels' ``card_kind`` array (kind of each card) of a small deck of sim.odds.Deck's
    shape: ``copies`` of each of the first ``naturals`` natural ranks (sevens and aces first),
    ``twos`` twos, ``jokers`` jokers and ``threes`` threes (red and black alternately, or all
    of kind ``three``)."""
    kinds = [k for k in _NATURALS[: deck.naturals] for _ in range(deck.copies)]
    kinds += [TWO] * deck.twos + [JOKER] * deck.jokers
    kinds += [
        three if three is not None else (RED_THREE, BLACK_THREE)[i % 2] for i in range(deck.threes)
    ]
    return np.array(kinds, dtype=np.int64)


#: name -> (deck shape, three kind, deals). Exact odds (sim.odds.deck_odds): straight decks
#: 2.5% (a three among the first 14 cards 0.875, among the first 13 only 0.8125); pairs deck
#: Pairs 0.83%, Pairs 2-7-A 4.2%; garbage deck 12.9%.
RIGGED = {
    "straight_red_three": (Deck(naturals=11, copies=1, twos=3, jokers=1, threes=1), RED_THREE),
    "straight_black_three": (Deck(naturals=11, copies=1, twos=3, jokers=1, threes=1), BLACK_THREE),
    "pairs": (Deck(naturals=7, copies=2, twos=2, jokers=0, threes=2), None),
    "garbage": (Deck(naturals=4, copies=5, twos=0, jokers=1, threes=2), None),
}
#: decks the baseline can deal (its first player reads 13 dealt cards, then the stock from
#: card 52: at least 53 non-threes guarantee her 14): Garbage 3.0%; Pairs 0.078%, Pairs
#: 2-7-A 0.12%, Garbage 0.019%
RIGGED_BASELINE = {
    "garbage": (Deck(naturals=4, copies=12, twos=3, jokers=2, threes=2), None, 1_000_000),
    "pairs": (Deck(naturals=7, copies=8, twos=4, jokers=0, threes=2), None, 5_000_000),
}


def _rigged_hits(kernel, deck, three, n, seed):
    hits = np.zeros(N_SPECIAL, dtype=np.int64)
    card_kind = rigged(deck, three)
    if kernel == "fast":
        fast_hits(run_key(seed), 0, n, BLOCK, card_kind, RULES, hits)
    else:
        baseline_hits(run_key(seed), 0, n, card_kind, RULES, hits)
    return _named(hits)


def _check_rigged(got, n, deck, resolve=("straight", "pairs", "pairs_twos_sevens_aces", "garbage")):
    """Each hand's hits within Z_TOL standard errors of n * exact (sim.odds.deck_odds); a hand
    the deck cannot hold has no hit; and the sample resolves a BIAS relative bias at BIAS_SE
    standard errors for the hands in ``resolve`` (a check of the test's own design)."""
    exact = {k: float(v) for k, v in deck_odds(deck).items()}
    for name, p in exact.items():
        if p == 0.0:
            assert got[name] == 0, (name, got[name])
            continue
        assert _within(got[name], n, p), (name, got[name], n * p)
        if name in resolve:
            assert BIAS * n * p >= BIAS_SE * math.sqrt(n * p * (1 - p)), (name, n, p)
    return exact


@pytest.mark.parametrize("name", list(RIGGED))
def test_odds_1_fast_kernel_rates_on_rigged_decks(name):
    """Guards the fast sampler's per-hand rates (ODDS-1, SPECIAL-3..6) against a 10% bias in
    any one hand: skipped or extra hits of one hand, the Straight's three handling (DEAL-5:
    the first three must lie among the first 14 cards, of either colour), a biased card draw.

    Why rigged decks: on the real deck the rates are 1 in 6,000 (any) to 1 in 1.45 million
    (Garbage); seeing a 10% bias at ~6 standard errors needs (6 / 0.1)^2 = 3,600 expected hits,
    so ~5 billion deals for Garbage, far beyond the quick loop. The kernel is the same code for
    any deck (``card_kind`` is an argument) and sim.odds.deck_odds gives the exact odds of any
    deck of the same shape (no sampling error on the reference), so each rigged deck makes
    some hands common (0.8%-13%) and 2M deals (~0.2 s) resolve them to ~1-2% per 4.5 SE.
    The straight decks hold one three, red or black: a kernel that missed the 14th card's three
    would see 0.8125 instead of 0.875 of the Straights (7%, ~16 SE)."""
    deck, three = RIGGED[name]
    n = 2_000_000
    got = _rigged_hits("fast", deck, three, n, seed=31)
    _check_rigged(got, n, deck)


@pytest.mark.parametrize("name", list(RIGGED_BASELINE))
def test_odds_1_baseline_kernel_rates_on_rigged_decks(name):
    """Guards the baseline sampler (full shuffle per deal) against a 10% bias in Pairs, Pairs
    2-7-A or Garbage, on rigged decks as above (the fast kernel's test explains the design).
    The baseline deals like the table, so its deck needs 53 non-threes: the pairs hands stay
    at ~1 in 1,000-1,300 and 5M deals (~1.5 s) resolve them at >= 6 SE per 10%; the
    baseline's Straight is guarded through its three positions (next test), its count logic
    being shared with the fast kernel. (The former fast-versus-baseline comparison, on 3M
    real deals, missed a 16% bias in Pairs.)"""
    deck, three, n = RIGGED_BASELINE[name]
    got = _rigged_hits("baseline", deck, three, n, seed=32)
    resolve = ("garbage",) if name == "garbage" else ("pairs", "pairs_twos_sevens_aces")
    _check_rigged(got, n, deck, resolve)


def test_odds_1_baseline_first_three_position_and_counts_by_kind():
    """Guards the baseline's reading of a real deal (ODDS-1, DEAL-4/5), through statistics
    that are frequent and pin down the rare hands: on 300,000 real deals (baseline records),
    the position of the first three received follows the exact law
    P(first three at k) = C(100, k-1) / C(108, k-1) * 8 / (109 - k), k = 1..14 (each 3-7%),
    and P(none among the first 14) = C(100, 14) / C(108, 14) = 0.316; each kind's mean count
    among the 14 non-threes is 14 * copies / 100 (hypergeometric). Each cell within 4.5 SE.
    A three at the 14th card left out, or a biased draw of some kind, fails here."""
    n = 300_000
    df = dealt_records(run_key(12), 0, n)
    at = np.bincount(df.first_three_at.to_numpy(np.int64), minlength=15)
    law = [Fraction(comb(100, 14), comb(108, 14))]
    law += [
        Fraction(comb(100, k - 1), comb(108, k - 1)) * Fraction(8, 109 - k) for k in range(1, 15)
    ]
    assert sum(law) == 1
    for k, p in enumerate(law):
        assert _within(int(at[k]), n, float(p)), (k, int(at[k]), n * float(p))
    copies = {k: int(c) for k, c in enumerate(KIND_COPIES) if k not in (RED_THREE, BLACK_THREE)}
    for k, c in copies.items():
        col = df[f"n_{KIND_NAMES[k]}"].to_numpy(np.float64)
        mean = 14 * c / 100
        var = 14 * (c / 100) * (1 - c / 100) * (100 - 14) / (100 - 1)  # hypergeometric
        assert abs(col.mean() - mean) <= Z_TOL * math.sqrt(var / n), (KIND_NAMES[k], col.mean())


def test_odds_1_counts_do_not_depend_on_chunks_or_jobs():
    """Deal i depends only on (seed, i): split points inside blocks, any chunk size and 2 jobs
    give the same counts as one range."""
    key = run_key(3)
    n = 3 * BLOCK * 50 + 123
    whole = count_hits(key, 0, n, RULES, "fast")
    for cut in (1, BLOCK - 1, BLOCK, 5 * BLOCK + 17):
        parts = count_hits(key, 0, cut, RULES, "fast") + count_hits(key, cut, n, RULES, "fast")
        assert np.array_equal(parts, whole)
    a = sample_dealt_odds(n, seed=3, chunk_size=4097)
    b = sample_dealt_odds(n, seed=3, chunk_size=BLOCK * 7, n_jobs=2)
    assert a.hits == b.hits == _named(whole)
    base_whole = count_hits(key, 0, 5000, RULES, "baseline")
    base_parts = count_hits(key, 0, 1234, RULES, "baseline")
    base_parts += count_hits(key, 1234, 5000, RULES, "baseline")
    assert np.array_equal(base_whole, base_parts)


def test_odds_1_fast_blocks_0_to_100000_get_their_own_generators():
    """Guards the fast kernel's seeding (block ``b`` of ``BLOCK`` deals draws from
    ``seed_hand(key, b)``, whose states are distinct for b = 0..100,000: tests/test_rng.py).
    Here the kernel itself: the first 3 deals of each block 0..100,000 on the rigged Garbage
    deck (Garbage 12.9%, so the hits of 3 deals take 4 values) form a sequence that no shift
    repeats: at every lag L the share of blocks b with the same hits as block b + L stays near
    chance (sum of P(v)^2 = 0.525; at most 0.65, 11 SE above at the shortest overlap, 2,000
    blocks), so no block reuses the generator of a block L further on. A seed folded onto
    fewer values (say ``b % 1000``) gives blocks 1,000 apart the same deals: a share of 1.
    Deterministic (fixed seed); each block costs 3 deals, so the whole check ~0.3 s."""
    deck, three = RIGGED["garbage"]
    card_kind = rigged(deck, three)
    key = run_key(41)
    n_blocks = 100_001
    hits = np.zeros(N_SPECIAL, dtype=np.int64)
    seen = np.empty(n_blocks, dtype=np.int64)
    for b in range(n_blocks):
        before = hits[0]
        fast_hits(key, b * BLOCK, b * BLOCK + 3, BLOCK, card_kind, RULES, hits)
        seen[b] = hits[0] - before
    # matches at every lag at once: autocorrelation of the one-hot outcome, by FFT
    size = 1 << (2 * n_blocks - 1).bit_length()
    same = np.zeros(n_blocks)
    for v in range(4):
        f = np.fft.rfft((seen == v).astype(np.float64), size)
        same += np.fft.irfft(f * np.conj(f), size)[:n_blocks]
    lags = np.arange(1, n_blocks - 2000)
    share = np.rint(same[lags]) / (n_blocks - lags)
    assert share.max() <= 0.65, (int(lags[share.argmax()]), share.max())
    assert 0.5 < share.mean() < 0.55  # chance: sum over v of P(v)^2 = 0.525


def test_odds_1_rel_error_rounds_extend_the_same_deals():
    """--rel-error: rounds go on until every hand's relative SE <= R, or stop at --max-deals;
    the result equals one run of the final size."""
    r = sample_dealt_odds(200_000, seed=2, rel_error=0.1, max_deals=5_000_000)
    assert r.rounds > 1 and r.deals <= 5_000_000
    rows = r.rows()
    reached = all(rows[h]["rel_se"] <= 0.1 for h in HAND_NAMES)
    assert reached or r.deals == 5_000_000
    one = sample_dealt_odds(r.deals, seed=2)
    assert one.hits == r.hits
    # without garbage's tiny odds the rounds do reach the target: 'straight' alone at 10%
    # needs ~100 hits (~3.8M deals), under the cap
    assert rows["straight"]["rel_se"] <= 0.1 or r.deals == 5_000_000


def test_special_7_none_gives_zero_odds_and_stops():
    """SPECIAL-7 'none': no deal is special; --rel-error does not loop on zero odds."""
    r = sample_dealt_odds(50_000, seed=1, ruleset=Ruleset(special_hands="none"), rel_error=0.01)
    assert r.deals == 50_000 and r.rounds == 1
    assert all(v == 0 for v in r.hits.values())
    assert all(row["exact"] == 0 for row in r.rows().values())


def test_sampled_json_shape_and_wilson_interval():
    """JSON: the --exact keys, each adding hits, deals, estimate, ci_low, ci_high."""
    r = sample_dealt_odds(100_000, seed=9)
    d = r.to_dict()
    assert list(d) == list(exact_odds())
    for row in d.values():
        assert {"hits", "deals", "estimate", "ci_low", "ci_high", "exact"} <= set(row)
        assert row["estimate"] == row["hits"] / row["deals"]
        assert (row["ci_low"], row["ci_high"]) == wilson(row["hits"], row["deals"])
    assert d["any"]["hits"] == r.hits["any"] > 0
    assert "95% Wilson" in r.table() and "garbage" in r.table()
    # the same Wilson score interval as analysis.intervals, the project's one definition
    for k, n in ((10, 1000), (0, 50), (7, 7), (3, 10**9)):
        _, low, high = wilson_bounds(k, n)
        assert wilson(k, n) == pytest.approx((float(low), float(high)), rel=1e-12, abs=1e-15)
    assert wilson(0, 100)[0] == 0.0 and relative_se(0, 100) == math.inf


def test_bad_sampler_input_is_refused():
    for kwargs in ({"n_deals": 0}, {"rel_error": 1.5}, {"max_deals": -1}, {"kernel": "x"}):
        with pytest.raises(CanastaError):
            sample_dealt_odds(**{"n_deals": 10, **kwargs})


def test_odds_1_dealt_records_follow_the_model():
    """ODDS-1 records: the pairs hand is 14 non-threes, the Straight needs a three among the
    first 14 cards, codes agree with classify_special (SPECIAL-3..6), rows depend on (seed, i)."""
    key = run_key(4)
    df = dealt_records(key, 0, 3000)
    kinds = [c for c in df.columns if c.startswith("n_")]
    counts = df[kinds].to_numpy(np.int64)
    assert (counts.sum(axis=1) == 14).all()
    assert ((df.first_three_at >= 0) & (df.first_three_at <= 14)).all()
    assert (df.received >= 14).all()
    assert (df.distinct == (counts > 0).sum(axis=1)).all()
    assert (df.straight_hand[df.first_three_at == 0] == SPECIAL_NONE).all()
    full = np.zeros(15, dtype=np.int64)
    for i in range(0, 3000, 7):
        full[:] = 0
        full[[k for k in range(15) if k not in (2, 3)]] = counts[i]
        assert df.pairs_hand[i] == classify_special(full, RULES)
    assert (dealt_records(key, 1000, 1100).to_numpy() == df.iloc[1000:1100].to_numpy()).all()
    assert RED_THREE == 2  # records drop the two three kinds (2 and 3) from the pairs hand


@pytest.mark.slow
def test_odds_1_garbage_within_its_interval_at_5_percent():
    """ODDS-1 on the real deck at full size: sampled until Garbage's (~1 in 1.45M) relative
    SE <= 5% (~400 hits, ~600M deals, 2 jobs); every hand within 4.5 standard errors of its
    exact value. The Straight, Pairs, Pairs 2-7-A and 'any' then expect 15,000-100,000 hits,
    so a 10% bias in any of them is 12+ SE; Garbage's 10% is only 2 SE here (it would need
    ~5 billion deals): the rigged-deck tests of the quick loop guard it."""
    r = sample_dealt_odds(50_000_000, seed=21, rel_error=0.05, n_jobs=2)
    g = r.rows()["garbage"]
    assert g["rel_se"] <= 0.05
    assert _within(g["hits"], r.deals, EXACT["garbage"])
    for name in HAND_NAMES:
        assert _within(r.hits[name], r.deals, EXACT[name]), name
