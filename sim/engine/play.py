"""The compiled hand loop and per-hand records, and the chunk-level ``play_hands``."""

from __future__ import annotations

import numpy as np
from numba import njit, types

from sim.encoding import (
    ACE,
    CANASTA,
    GAME_HAND_STRIDE,
    GR_ERRORS,
    GR_GAME_ID,
    GR_HANDS,
    GR_SCORE0,
    GR_SCORE1,
    GR_WINNER,
    INV_STUCK,
    JOKERS,
    N_ACTIONS,
    N_CARDS,
    N_SCORE_ITEMS,
    N_TEAMS,
    OBS_SIZE,
    PH_OVER,
    R_OK,
    RC_DECISIONS,
    RC_END_REASON,
    RC_ERRORS,
    RC_FIRST_PLAYER,
    RC_HAND_ID,
    RC_OUT_TEAM,
    RC_RISK_BASE,
    RC_RISK_WIDTH,
    RC_SCORE0,
    RC_SPECIAL,
    RC_SPECIAL_TEAM,
    RC_TEAM_BASE,
    RC_TEAM_WIDTH,
    RC_TURNS,
    RS_TARGET,
    SCRATCH_SIZE,
    SCRATCH_TMP,
    SEVEN,
    ST_BONUS,
    ST_DECISIONS,
    ST_END_REASON,
    ST_ERRORS,
    ST_FIRST_PLAYER,
    ST_OPENED,
    ST_OUT_TEAM,
    ST_PHASE,
    ST_PLAYER,
    ST_SPECIAL,
    ST_SPECIAL_TEAM,
    ST_STARTED,
    ST_STARTED_HELD,
    ST_STARTED_STOCK,
    ST_TURN,
    STATE_SIZE,
    TMP_SIZE,
    TR_ACES_MIXED,
    TR_ACES_PENALTY,
    TR_BONUS,
    TR_CANASTAS,
    TR_OPENED,
    TR_SEVENS_COMPLETED,
    TR_SEVENS_PENALTY,
    TR_SEVENS_STARTED,
    TWOS,
    WILD_MELD,
)
from sim.engine.contract import POLICY_TYPE
from sim.engine.core import (
    PC_SIZE,
    PC_VALID,
    apply_action,
    check_action,
    check_invariants,
    deal,
    forced_action,
    legal_actions,
    observe,
    score_hand,
    st_hands,
    st_melds,
)
from sim.legality import canastas, meld_size
from sim.rng import seed_hand, shuffle
from sim.scoring import HELD_PENALTY_AT


@njit(cache=True)
def play_hand(st, obs, pol0, pol1, params0, params1, rng, rules, scratch, log, debug):
    """Play the dealt hand in ``st`` to its end. Team 0 (seats 0, 2) uses ``pol0``. Returns 0,
    or an invariant code (``sim.engine.core.INV_*``) at the first broken invariant (debug)."""
    tmp = scratch[SCRATCH_TMP : SCRATCH_TMP + TMP_SIZE]
    legal = scratch[0:N_ACTIONS]
    cache = np.zeros(PC_SIZE, dtype=np.int64)  # the opening plan of check_action
    while st[ST_PHASE] != PH_OVER:
        p = st[ST_PLAYER]
        observe(st, p, obs)
        a = forced_action(obs)
        if a >= 0:
            cache[PC_VALID] = 0
            apply_action(st, a, rules, log)  # no choice: the policy is not asked
            continue
        if p % N_TEAMS == 0:
            a = pol0(obs, params0, rng, rules, scratch)
        else:
            a = pol1(obs, params1, rng, rules, scratch)
        if check_action(obs, a, rules, tmp, cache) != R_OK:
            st[ST_ERRORS] += 1
            cache[PC_VALID] = 0
            n = legal_actions(obs, rules, legal, tmp)
            if n == 0:
                return INV_STUCK
            a = legal[0]
        apply_action(st, a, rules, log)
        st[ST_DECISIONS] += 1
        if debug:
            code = check_invariants(st, rules, tmp)
            if code != 0:
                return code
    return 0


@njit(cache=True)
def write_record(st, hand_id, items, row):
    """The per-hand record row (layout RECORD_COLUMNS) of a finished, scored hand."""
    row[:] = 0
    row[RC_HAND_ID] = hand_id
    row[RC_FIRST_PLAYER] = st[ST_FIRST_PLAYER]
    row[RC_TURNS] = st[ST_TURN] + 1
    row[RC_END_REASON] = st[ST_END_REASON]
    row[RC_OUT_TEAM] = st[ST_OUT_TEAM]
    row[RC_SPECIAL] = st[ST_SPECIAL]
    row[RC_SPECIAL_TEAM] = st[ST_SPECIAL_TEAM]
    row[RC_ERRORS] = st[ST_ERRORS]
    row[RC_DECISIONS] = st[ST_DECISIONS]
    hands = st_hands(st)
    melds = st_melds(st)
    for t in range(N_TEAMS):
        base = RC_TEAM_BASE + t * RC_TEAM_WIDTH
        total = 0
        for i in range(N_SCORE_ITEMS):
            row[base + i] = items[t, i]
            total += items[t, i]
        row[RC_SCORE0 + t] = total
        for j in range(3):
            row[base + TR_SEVENS_STARTED + j] = st[ST_STARTED + t * 3 + j]
        for j, slot in enumerate((SEVEN, ACE, WILD_MELD)):
            row[base + TR_SEVENS_COMPLETED + j] = 1 if meld_size(melds, t, slot) >= CANASTA else 0
        mixed = melds[t, ACE, TWOS] + melds[t, ACE, JOKERS] > 0
        row[base + TR_ACES_MIXED] = 1 if mixed else 0
        if st[ST_SPECIAL_TEAM] != t:  # SCORE-8: a declaring team pays no penalty
            for q in (t, t + N_TEAMS):
                if hands[q, SEVEN] >= HELD_PENALTY_AT:
                    row[base + TR_SEVENS_PENALTY] += 1
                if hands[q, ACE] >= HELD_PENALTY_AT and not mixed:
                    row[base + TR_ACES_PENALTY] += 1  # SCORE-4 / MELD-7
        row[base + TR_CANASTAS] = canastas(melds, t)
        row[base + TR_OPENED] = st[ST_OPENED + t]
        row[base + TR_BONUS] = st[ST_BONUS + t]
        risk = RC_RISK_BASE + t * RC_RISK_WIDTH  # held: sevens, aces; stock: sevens, aces, wild
        row[risk] = st[ST_STARTED_HELD + t * 2]
        row[risk + 1] = st[ST_STARTED_HELD + t * 2 + 1]
        for j in range(3):
            row[risk + 2 + j] = st[ST_STARTED_STOCK + t * 3 + j]


@njit(cache=True)
def new_deck(rng, deck):
    """DEAL-1: a shuffled deck of the 108 card ids from the hand's generator."""
    for i in range(N_CARDS):
        deck[i] = i
    shuffle(rng, deck)


@njit(
    types.int64(
        types.uint64[::1],
        types.int64,
        types.int64,
        POLICY_TYPE,
        POLICY_TYPE,
        types.float64[::1],
        types.float64[::1],
        types.int64[::1],
        types.int64,
        types.int64[:, ::1],
        types.int64[::1],
    ),
    cache=True,
)
def play_hands_kernel(key, start, stop, pol0, pol1, params0, params1, rules, debug, out, status):
    """Hands ``start..stop-1`` of the run with key ``key``, each dealt and played from its own
    generator ``seed_hand(key, hand_id)``; the first player is ``hand_id % 4`` (DEAL-1 rotation).
    Records go to ``out[hand_id - start]``. Returns 0, or an invariant code with
    ``status = (hand_id, turn)`` of the failure."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    obs = np.zeros(OBS_SIZE, dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    rng = np.zeros(4, dtype=np.uint64)
    deck = np.zeros(N_CARDS, dtype=np.int64)
    items = np.zeros((N_TEAMS, N_SCORE_ITEMS), dtype=np.int64)
    log = np.zeros(1, dtype=np.int64)
    for h in range(start, stop):
        seed_hand(key, h, rng)
        new_deck(rng, deck)
        deal(st, deck, h % 4, 0, 0, rules, log)
        code = play_hand(st, obs, pol0, pol1, params0, params1, rng, rules, scratch, log, debug)
        if code != 0:
            status[0] = h
            status[1] = st[ST_TURN]
            return code
        score_hand(st, rules, items)
        write_record(st, h, items, out[h - start])
    return 0


@njit(
    types.int64(
        types.uint64[::1],
        types.int64,
        types.int64,
        POLICY_TYPE,
        POLICY_TYPE,
        types.float64[::1],
        types.float64[::1],
        types.int64[::1],
        types.int64,
        types.int64[:, ::1],
        types.int64[::1],
    ),
    cache=True,
)
def play_games_kernel(key, start, stop, pol0, pol1, params0, params1, rules, debug, out, status):
    """GAME-1: games ``start..stop-1``; each is a sequence of hands until a team's cumulative
    score reaches the target (``rules[RS_TARGET]``), the higher total winning and an exact tie
    playing on. Hand ``k`` of game ``g`` is seeded as hand ``g * GAME_HAND_STRIDE + k``; the
    deal rotates (DEAL-1: first player ``(g + k) % 4``) and each opening minimum follows the
    team's running score (OPEN-1). Rows go to ``out[g - start]`` (GAME_RECORD_COLUMNS)."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    obs = np.zeros(OBS_SIZE, dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    rng = np.zeros(4, dtype=np.uint64)
    deck = np.zeros(N_CARDS, dtype=np.int64)
    items = np.zeros((N_TEAMS, N_SCORE_ITEMS), dtype=np.int64)
    log = np.zeros(1, dtype=np.int64)
    target = rules[RS_TARGET]
    for g in range(start, stop):
        s0, s1, errors, k, winner = 0, 0, 0, 0, -1
        while k < GAME_HAND_STRIDE:
            seed_hand(key, g * GAME_HAND_STRIDE + k, rng)
            new_deck(rng, deck)
            deal(st, deck, (g + k) % 4, s0, s1, rules, log)
            code = play_hand(st, obs, pol0, pol1, params0, params1, rng, rules, scratch, log, debug)
            if code != 0:
                status[0] = g
                status[1] = k
                return code
            score_hand(st, rules, items)
            s0 += items[0].sum()
            s1 += items[1].sum()
            errors += st[ST_ERRORS]
            k += 1
            if (s0 >= target or s1 >= target) and s0 != s1:
                winner = 0 if s0 > s1 else 1  # GAME-1
                break
        row = out[g - start]
        row[GR_GAME_ID] = g
        row[GR_HANDS] = k
        row[GR_SCORE0] = s0
        row[GR_SCORE1] = s1
        row[GR_WINNER] = winner
        row[GR_ERRORS] = errors
    return 0
