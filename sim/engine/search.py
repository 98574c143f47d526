"""Compiled helpers for search from an observation (issue 7, the ``expert`` policy).

Information-set Monte Carlo (determinized search): a player sees only its observation, so a
search samples full positions *consistent with it* (``determinize``) and plays them to the end
with fast rollout policies (``rollout``). Every rule is the engine's: a sampled position is an
ordinary engine state, moves go through ``sim.engine.core.apply_action`` and the hand through
``sim.engine.play.play_hand`` (which judges each proposal with ``action_reason``) and is scored
by ``sim.engine.core.score_hand``.

What a determinization fixes (CARD-1: all 108 cards once):

- known to the player, copied: its own hand, both teams' melds and laid threes, the pile (by
  kind, top card last; the order below the top never matters, PILE-1 takes it whole), the
  taken pile's rest held aside, the turn's flags, the scores;
- unseen, dealt from the generator: every other card, by kind, into the other three hands (by
  their known sizes) and the stock (by its size). Threes go to the stock first (DEAL-4: a hand
  holds a three only if kept under DEAL-5, which other players do not show, or just received
  as an OPEN-5 bonus card), and into the hands only if the stock has no room left for them.
- hidden and set to a default: the other players' kept three (none) and the records' bookkeeping
  (turns the melds were started, bonus cards given), which no rule reads.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.encoding import (
    BLACK_THREE,
    CARD_KIND,
    JOKER,
    JOKERS,
    KIND_COPIES,
    N_CARDS,
    N_KINDS,
    N_MELD_COLS,
    N_PLAYERS,
    N_SCORE_ITEMS,
    N_TEAMS,
    NATURALS,
    OB_ASIDE,
    OB_DISCARDS,
    OB_DREW_STOCK,
    OB_HAND,
    OB_HAND_SIZES,
    OB_KEPT,
    OB_MELDED,
    OB_MELDS,
    OB_OPENED,
    OB_OPENING_TURN,
    OB_PENDING,
    OB_PHASE,
    OB_PILE_COUNTS,
    OB_PILE_KIND,
    OB_PILE_TOP,
    OB_SCORES,
    OB_SEAT,
    OB_STOCK_N,
    OB_THREES,
    OB_TOOK_PILE,
    OB_TURN,
    OB_TURN_CARD_DRAWN,
    PH_DRAW,
    PH_PLAY,
    PH_THREES,
    RED_THREE,
    ST_ASIDE,
    ST_DISCARDS,
    ST_DREW_STOCK,
    ST_HANDS,
    ST_KEPT,
    ST_MELDED,
    ST_MELDS,
    ST_OPENED,
    ST_OPENING_TURN,
    ST_OUT_TEAM,
    ST_PENDING,
    ST_PHASE,
    ST_PILE,
    ST_PILE_COUNTS,
    ST_PILE_KIND,
    ST_PILE_N,
    ST_PLAYER,
    ST_RESUME,
    ST_SCORES,
    ST_SPECIAL_TEAM,
    ST_STARTED,
    ST_STOCK,
    ST_STOCK_N,
    ST_THREES,
    ST_TOOK_PILE,
    ST_TURN,
    ST_TURN_CARD_DRAWN,
    TWO,
    TWOS,
)
from sim.engine.core import apply_action, score_hand
from sim.engine.play import play_hand
from sim.rng import next_u64, rand_below, splitmix64

#: KIND_IDS[kind, j]: the j-th card id of ``kind`` (the stock holds ids; only kinds matter)
_MAX_COPIES = int(KIND_COPIES.max())


def _kind_ids() -> np.ndarray:
    ids = np.full((N_KINDS, _MAX_COPIES), -1, dtype=np.int64)
    used = np.zeros(N_KINDS, dtype=np.int64)
    for cid in range(N_CARDS):
        k = CARD_KIND[cid]
        ids[k, used[k]] = cid
        used[k] += 1
    return ids


KIND_IDS = _kind_ids()
#: words of the work array ``determinize`` needs (unseen kinds, then threes, then counts)
WORK_SIZE = 2 * N_CARDS + N_KINDS


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
    for k in range(N_KINDS):
        out[k] = KIND_COPIES[k] - obs[OB_HAND + k] - obs[OB_PILE_COUNTS + k] - obs[OB_ASIDE + k]
    for t in range(N_TEAMS):
        base = OB_MELDS + t * N_KINDS * N_MELD_COLS
        for s in range(N_KINDS):
            out[s] -= obs[base + s * N_MELD_COLS + NATURALS]
            out[TWO] -= obs[base + s * N_MELD_COLS + TWOS]
            out[JOKER] -= obs[base + s * N_MELD_COLS + JOKERS]
        out[RED_THREE] -= obs[OB_THREES + 2 * t]
        out[BLACK_THREE] -= obs[OB_THREES + 2 * t + 1]
    for k in range(N_KINDS):
        total += out[k]
    return total


@njit(cache=True)
def copy_known(obs, st):
    """The engine state's public part and the player's own part from the observation (own team
    first there, absolute teams here). Other hands and the stock are left empty."""
    st[:] = 0
    p = obs[OB_SEAT]
    team = p % N_TEAMS
    mw = N_KINDS * N_MELD_COLS
    for i in range(N_TEAMS):
        t = (team + i) % N_TEAMS
        for j in range(mw):
            st[ST_MELDS + t * mw + j] = obs[OB_MELDS + i * mw + j]
        st[ST_THREES + 2 * t] = obs[OB_THREES + 2 * i]
        st[ST_THREES + 2 * t + 1] = obs[OB_THREES + 2 * i + 1]
        st[ST_OPENED + t] = obs[OB_OPENED + i]
        st[ST_SCORES + t] = obs[OB_SCORES + i]
    for k in range(N_KINDS):
        st[ST_HANDS + p * N_KINDS + k] = obs[OB_HAND + k]
        st[ST_PILE_COUNTS + k] = obs[OB_PILE_COUNTS + k]
        st[ST_DISCARDS + k] = obs[OB_DISCARDS + k]
        st[ST_ASIDE + k] = obs[OB_ASIDE + k]
    for j in range(mw):
        st[ST_PENDING + j] = obs[OB_PENDING + j]
    # the pile: any order below its known top card (PILE-1 takes it whole)
    n = 0
    top = obs[OB_PILE_TOP]
    for k in range(N_KINDS):
        c = obs[OB_PILE_COUNTS + k] - (1 if k == top else 0)
        for _ in range(c):
            st[ST_PILE + n] = k
            n += 1
    if top >= 0:
        st[ST_PILE + n] = top
        n += 1
    st[ST_PILE_N] = n
    for q in range(N_PLAYERS):
        st[ST_KEPT + q] = -1  # another player's kept three (DEAL-5) is not shown
    st[ST_KEPT + p] = obs[OB_KEPT]
    for i in range(N_TEAMS * 3):
        st[ST_STARTED + i] = -1
    st[ST_OUT_TEAM] = -1
    st[ST_SPECIAL_TEAM] = -1
    st[ST_PLAYER] = p
    st[ST_PHASE] = obs[OB_PHASE]
    drawn = obs[OB_DREW_STOCK] + obs[OB_TOOK_PILE]
    st[ST_RESUME] = PH_PLAY if (obs[OB_PHASE] == PH_THREES and drawn > 0) else PH_DRAW
    st[ST_TURN] = obs[OB_TURN]
    st[ST_TURN_CARD_DRAWN] = obs[OB_TURN_CARD_DRAWN]
    st[ST_DREW_STOCK] = obs[OB_DREW_STOCK]
    st[ST_TOOK_PILE] = obs[OB_TOOK_PILE]
    st[ST_OPENING_TURN] = obs[OB_OPENING_TURN]
    st[ST_PILE_KIND] = obs[OB_PILE_KIND]
    st[ST_MELDED] = obs[OB_MELDED]


@njit(cache=True)
def _deal_unseen(obs, st, cards, n_cards, first_hand):
    """Deal ``cards[first_hand:n_cards]`` (kinds, already shuffled) to the other hands by their
    known sizes; True if that uses them all."""
    p = obs[OB_SEAT]
    pos = first_hand
    for i in range(1, N_PLAYERS):
        q = (p + i) % N_PLAYERS
        for _ in range(obs[OB_HAND_SIZES + i]):
            st[ST_HANDS + q * N_KINDS + cards[pos]] += 1
            pos += 1
    return pos == n_cards


@njit(cache=True)
def determinize(obs, st, srng, work):
    """Fill ``st`` with a full engine state consistent with the player's observation ``obs``:
    the unseen cards (``unseen_counts``) dealt at random from ``srng`` to the other hands (by
    their known sizes) and the stock (by its size), threes to the stock first (DEAL-4).
    ``work``: int64[WORK_SIZE]. Returns False if the observation's counts do not add up (a
    bug: CARD-1)."""
    copy_known(obs, st)
    counts = work[2 * N_CARDS : 2 * N_CARDS + N_KINDS]
    total = unseen_counts(obs, counts)
    stock_n = obs[OB_STOCK_N]
    need = stock_n
    for i in range(1, N_PLAYERS):
        need += obs[OB_HAND_SIZES + i]
    if total != need:
        return False
    others = work[0:N_CARDS]  # unseen non-threes, shuffled
    threes = work[N_CARDS : 2 * N_CARDS]
    n_other, n_three = 0, 0
    for k in range(N_KINDS):
        if counts[k] < 0:
            return False
        for _ in range(counts[k]):
            if k == RED_THREE or k == BLACK_THREE:
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
    set_stock(st, cards, stock_n)
    return True


@njit(cache=True)
def _shuffle_part(srng, arr, n):
    """Fisher-Yates shuffle of ``arr[:n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = rand_below(srng, i + 1)
        arr[i], arr[j] = arr[j], arr[i]


@njit(cache=True)
def set_stock(st, kinds, n):
    """The stock from ``kinds[:n]`` (bottom first), each kind given one of its card ids."""
    used = np.zeros(N_KINDS, dtype=np.int64)
    for i in range(n):
        k = kinds[i]
        st[ST_STOCK + i] = KIND_IDS[k, used[k] % KIND_IDS.shape[1]]
        used[k] += 1
    st[ST_STOCK_N] = n


@njit(cache=True)
def reshuffle_stock(st, srng, work):
    """The same hidden hands with the stock's order drawn again (a further rollout of one
    determinization)."""
    n = st[ST_STOCK_N]
    kinds = work[0:n]
    for i in range(n):
        kinds[i] = CARD_KIND[st[ST_STOCK + i]]
    _shuffle_part(srng, kinds, n)
    set_stock(st, kinds, n)


@njit(cache=True)
def team_margin(st, team, rules, items):
    """SCORE-*: the finished hand's score of ``team`` minus the other team's (``items``:
    int64[N_TEAMS, N_SCORE_ITEMS] work)."""
    score_hand(st, rules, items)
    d = 0
    for i in range(N_SCORE_ITEMS):
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
def apply_and_rollout(st, a, team, pol0, pol1, params0, params1, rng, rules, obs, scratch, items):
    """Apply action ``a`` (legal for the position's current player) to ``st``, then
    ``rollout``."""
    log = np.zeros(1, dtype=np.int64)
    apply_action(st, a, rules, log)
    return rollout(st, team, pol0, pol1, params0, params1, rng, rules, obs, scratch, items)


@njit(cache=True)
def phase_searchable(obs):
    """The phases a search decides (the draw and play steps); DEAL-5 threes are left alone."""
    ph = obs[OB_PHASE]
    return ph == PH_DRAW or ph == PH_PLAY


__all__ = [
    "KIND_IDS",
    "WORK_SIZE",
    "apply_and_rollout",
    "copy_known",
    "determinize",
    "phase_searchable",
    "reshuffle_stock",
    "rollout",
    "seed_search",
    "set_stock",
    "team_margin",
    "unseen_counts",
]
