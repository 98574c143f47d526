"""Compiled helpers for search from an observation (for the ``expert`` policy).

Information-set Monte Carlo (determinized search): a player sees only its observation, so a
search samples full positions *consistent with it* (``determinize``) and plays them to the end
with fast rollout policies (``rollout``). Every rule is the engine's: a sampled position is an
ordinary engine state, moves go through ``sim.engine.state.apply_action`` and the hand through
``sim.engine.play.play_hand`` (which judges each proposal with ``action_reason``) and is scored
by ``sim.engine.state.score_hand``.

What a determinization fixes (CARD-1: all 108 cards once):

- known to the player, copied: its own hand, both teams' melds and laid threes, the pile (by
  kind, top card last; the order below the top never matters, PILE-1 takes it whole), the
  taken pile's rest held aside, the turn's flags, the scores;
- known to the table, placed: the cards each other player took with the pile and has not
  shown since (the public card memory, ``OB_KNOWN``) go to that player's hand;
- unseen, dealt from the generator: every other card, by kind, into the other three hands (up
  to their known sizes) and the stock (by its size). Threes go to the stock first (DEAL-4: a hand
  holds a three only if kept under DEAL-5, which other players do not show, or just received
  as an OPEN-5 bonus card), and into the hands only if the stock has no room left for them.
- hidden and set to a default: the other players' kept three (none) and the records' bookkeeping
  (turns the melds were started, bonus cards given), which no rule reads.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import encoding as E
from sim.engine.play import play_hand
from sim.engine.state import clear_state, score_hand
from sim.rng import next_u64, rand_below, splitmix64

#: KIND_IDS[kind, j]: the j-th card id of ``kind`` (the stock holds ids; only kinds matter)
_MAX_COPIES = int(E.KIND_COPIES.max())


def _kind_ids() -> np.ndarray:
    ids = np.full((E.N_KINDS, _MAX_COPIES), -1, dtype=np.int64)
    used = np.zeros(E.N_KINDS, dtype=np.int64)
    for cid in range(E.N_CARDS):
        k = E.CARD_KIND[cid]
        ids[k, used[k]] = cid
        used[k] += 1
    return ids


KIND_IDS = _kind_ids()
#: the work array of ``determinize`` and ``reshuffle_stock``, int64[WORK_SIZE]
WORK_FIELDS = (
    ("others", E.N_CARDS),  # the unseen cards other than threes, by kind; the stock's kinds
    ("threes", E.N_CARDS),  # the unseen threes
    ("counts", E.N_KINDS),  # unseen copies per kind
)
_W, WORK_SIZE = E.layout(WORK_FIELDS)
W_OTHERS, W_THREES, W_COUNTS = _W["others"], _W["threes"], _W["counts"]  #: their offsets


@njit(cache=True)
def seed_search(rng, state):
    """A search generator ``state`` (uint64[4]) derived from one draw of the hand's ``rng``, so
    a search never disturbs the hand beyond that draw and is reproducible from the seed."""
    x = next_u64(rng)
    for w in range(4):
        x = splitmix64(x + np.uint64(w))
        state[w] = x
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = np.uint64(1)


@njit(cache=True)
def unseen_counts(obs, out):
    """CARD-1: copies of each kind the player cannot see (other hands and the stock); returns
    their total. Seen: own hand, melds and laid threes of both teams (the turn's pending melds
    are on the table already), the pile and a taken pile's rest held aside."""
    total = 0
    for k in range(E.N_KINDS):
        out[k] = (
            E.KIND_COPIES[k] - obs[E.OB_HAND + k] - obs[E.OB_PILE_COUNTS + k] - obs[E.OB_ASIDE + k]
        )
    for t in range(E.N_TEAMS):
        base = E.OB_MELDS + t * E.N_KINDS * E.N_MELD_COLS
        for s in range(E.N_KINDS):
            out[s] -= obs[base + s * E.N_MELD_COLS + E.NATURALS]
            out[E.TWO] -= obs[base + s * E.N_MELD_COLS + E.TWOS]
            out[E.JOKER] -= obs[base + s * E.N_MELD_COLS + E.JOKERS]
        out[E.RED_THREE] -= obs[E.OB_THREES + 2 * t]
        out[E.BLACK_THREE] -= obs[E.OB_THREES + 2 * t + 1]
    for k in range(E.N_KINDS):
        total += out[k]
    return total


@njit(cache=True)
def _copy_known(obs, st):
    """The engine state's public part and the player's own part from the observation (own team
    first there, absolute teams here); the inverse of ``sim.engine.observe.observe``. Other
    hands and the stock are left empty."""
    clear_state(st)  # another player's kept three (DEAL-5) is not shown: none
    for f in range(E.SEEN_FIELDS.shape[0]):  # the fields seen as they are
        o, s = E.SEEN_FIELDS[f, 0], E.SEEN_FIELDS[f, 1]
        for j in range(E.SEEN_FIELDS[f, 2]):
            st[s + j] = obs[o + j]
    p = obs[E.OB_SEAT]
    team = p % E.N_TEAMS
    mw = E.N_KINDS * E.N_MELD_COLS
    for i in range(E.N_TEAMS):
        t = (team + i) % E.N_TEAMS
        for j in range(mw):
            st[E.ST_MELDS + t * mw + j] = obs[E.OB_MELDS + i * mw + j]
        st[E.ST_THREES + 2 * t] = obs[E.OB_THREES + 2 * i]
        st[E.ST_THREES + 2 * t + 1] = obs[E.OB_THREES + 2 * i + 1]
        st[E.ST_OPENED + t] = obs[E.OB_OPENED + i]
        st[E.ST_SCORES + t] = obs[E.OB_SCORES + i]
    for k in range(E.N_KINDS):
        st[E.ST_HANDS + p * E.N_KINDS + k] = obs[E.OB_HAND + k]
    for i in range(E.N_PLAYERS):  # the public card memory, absolute seats
        q = (p + i) % E.N_PLAYERS
        for k in range(E.N_KINDS):
            st[E.ST_KNOWN + q * E.N_KINDS + k] = obs[E.OB_KNOWN + i * E.N_KINDS + k]
    # the pile: any order below its known top card (PILE-1 takes it whole)
    n = 0
    top = obs[E.OB_PILE_TOP]
    for k in range(E.N_KINDS):
        c = obs[E.OB_PILE_COUNTS + k] - (1 if k == top else 0)
        for _ in range(c):
            st[E.ST_PILE + n] = k
            n += 1
    if top >= 0:
        st[E.ST_PILE + n] = top
        n += 1
    st[E.ST_PILE_N] = n
    st[E.ST_KEPT + p] = obs[E.OB_KEPT]
    st[E.ST_PLAYER] = p
    drawn = obs[E.OB_DREW_STOCK] + obs[E.OB_TOOK_PILE]
    st[E.ST_RESUME] = E.PH_PLAY if (obs[E.OB_PHASE] == E.PH_THREES and drawn > 0) else E.PH_DRAW


@njit(cache=True)
def _deal_unseen(obs, st, cards, n_cards, first_hand):
    """Deal ``cards[first_hand:n_cards]`` (kinds, already shuffled) to the other hands, each
    up to its known size beyond the cards already placed there (``_place_known``); True if
    that uses them all."""
    p = obs[E.OB_SEAT]
    pos = first_hand
    for i in range(1, E.N_PLAYERS):
        q = (p + i) % E.N_PLAYERS
        placed = 0
        for k in range(E.N_KINDS):
            placed += st[E.ST_HANDS + q * E.N_KINDS + k]
        for _ in range(obs[E.OB_HAND_SIZES + i] - placed):
            st[E.ST_HANDS + q * E.N_KINDS + cards[pos]] += 1
            pos += 1
    return pos == n_cards


@njit(cache=True)
def _known_total(obs, i):
    """Cards the public card memory places in the hand of relative seat ``i``."""
    n = 0
    for k in range(E.N_KINDS):
        n += obs[E.OB_KNOWN + i * E.N_KINDS + k]
    return n


@njit(cache=True)
def _place_known(obs, st, counts):
    """The public card memory (``OB_KNOWN``): each other seat's known cards put in its hand
    and taken from the unseen ``counts``. False if the memory contradicts the counts or a hand
    size (a bug: CARD-1)."""
    p = obs[E.OB_SEAT]
    for i in range(1, E.N_PLAYERS):
        q = (p + i) % E.N_PLAYERS
        if _known_total(obs, i) > obs[E.OB_HAND_SIZES + i]:
            return False
        for k in range(E.N_KINDS):
            c = obs[E.OB_KNOWN + i * E.N_KINDS + k]
            counts[k] -= c
            st[E.ST_HANDS + q * E.N_KINDS + k] += c
    return True


@njit(cache=True)
def determinize(obs, st, srng, work, memory=True):
    """Fill ``st`` with a full engine state consistent with the player's observation ``obs``:
    the cards the public card memory places (``OB_KNOWN``: taken with the pile and not shown
    since) go to their holders (``_place_known``); the rest of the unseen cards
    (``unseen_counts``) are dealt at random from ``srng`` to the other hands (up to their known
    sizes) and the stock (by its size), threes to the stock first (DEAL-4). ``memory``
    False: the memory is ignored and cleared (every unseen card dealt at random, the search
    without memory). ``work``: int64[WORK_SIZE]. Returns False if the observation's counts do
    not add up (a bug: CARD-1)."""
    _copy_known(obs, st)
    counts = work[W_COUNTS : W_COUNTS + E.N_KINDS]
    total = unseen_counts(obs, counts)
    stock_n = obs[E.OB_STOCK_N]
    need = stock_n
    for i in range(1, E.N_PLAYERS):
        need += obs[E.OB_HAND_SIZES + i]
    if total != need:
        return False
    if memory:
        if not _place_known(obs, st, counts):
            return False
        for i in range(1, E.N_PLAYERS):
            total -= _known_total(obs, i)
    else:
        for j in range(E.N_PLAYERS * E.N_KINDS):
            st[E.ST_KNOWN + j] = 0
    others = work[W_OTHERS : W_OTHERS + E.N_CARDS]  # shuffled below
    threes = work[W_THREES : W_THREES + E.N_CARDS]
    n_other, n_three = 0, 0
    for k in range(E.N_KINDS):
        if counts[k] < 0:
            return False
        for _ in range(counts[k]):
            if k == E.RED_THREE or k == E.BLACK_THREE:
                threes[n_three] = k
                n_three += 1
            else:
                others[n_other] = k
                n_other += 1
    _shuffle_part(srng, others, n_other)
    _shuffle_part(srng, threes, n_three)
    # the stock: every three it has room for, filled up with other cards
    in_stock = min(n_three, stock_n)
    cards = np.empty(total, dtype=np.int64)
    n = 0
    for i in range(in_stock):
        cards[n] = threes[i]
        n += 1
    fill = stock_n - in_stock
    for i in range(fill):
        cards[n] = others[i]
        n += 1
    # the hands: the remaining non-threes and any threes the stock had no room for
    for i in range(fill, n_other):
        cards[n] = others[i]
        n += 1
    for i in range(in_stock, n_three):
        cards[n] = threes[i]
        n += 1
    if not _deal_unseen(obs, st, cards, total, stock_n):
        return False
    _shuffle_part(srng, cards, stock_n)
    _set_stock(st, cards, stock_n)
    return True


@njit(cache=True)
def _shuffle_part(srng, arr, n):
    """Fisher-Yates shuffle of ``arr[:n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = rand_below(srng, i + 1)
        arr[i], arr[j] = arr[j], arr[i]


@njit(cache=True)
def _set_stock(st, kinds, n):
    """The stock from ``kinds[:n]`` (bottom first), each kind given one of its card ids."""
    used = np.zeros(E.N_KINDS, dtype=np.int64)
    for i in range(n):
        k = kinds[i]
        st[E.ST_STOCK + i] = KIND_IDS[k, used[k] % KIND_IDS.shape[1]]
        used[k] += 1
    st[E.ST_STOCK_N] = n


@njit(cache=True)
def reshuffle_stock(st, srng, work):
    """The same hidden hands with the stock's order drawn again (a further rollout of one
    determinization)."""
    n = st[E.ST_STOCK_N]
    kinds = work[W_OTHERS : W_OTHERS + n]
    for i in range(n):
        kinds[i] = E.CARD_KIND[st[E.ST_STOCK + i]]
    _shuffle_part(srng, kinds, n)
    _set_stock(st, kinds, n)


@njit(cache=True)
def team_margin(st, team, rules, items):
    """SCORE-*: the finished hand's score of ``team`` minus the other team's (``items``:
    int64[N_TEAMS, N_SCORE_ITEMS] work)."""
    score_hand(st, rules, items)
    d = 0
    for i in range(E.N_SCORE_ITEMS):
        d += items[team, i] - items[1 - team, i]
    return d


@njit(cache=True)
def rollout(st, team, pol0, pol1, params0, params1, rng, rules, obs, scratch, items):
    """Play the position ``st`` to the hand's end with the rollout policies (team 0 ``pol0``,
    team 1 ``pol1``: first-class functions of ``POLICY_TYPE``) through the engine's hand loop,
    and return the hand's score margin for ``team``. ``st`` is consumed."""
    log = np.zeros(1, dtype=np.int64)
    play_hand(st, obs, pol0, pol1, params0, params1, rng, rules, scratch, log, 0)
    return team_margin(st, team, rules, items)


@njit(cache=True)
def _phase_searchable(obs):
    """The phases a search decides (the draw and play steps); DEAL-5 threes are left alone."""
    ph = obs[E.OB_PHASE]
    return ph == E.PH_DRAW or ph == E.PH_PLAY


__all__ = ["determinize", "rollout"]
