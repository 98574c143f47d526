"""The compiled hand loop, per-hand records and the chunk kernels of hands and games.

``play_hand`` sequences a dealt hand: observe (``sim.engine.observe``), the forced draw or the
policy's proposal judged by the engine (``sim.engine.judge``), then the state transition
(``sim.engine.state``). The chunk kernels receive compiled policies (``POLICY_TYPE``) and
their parameter arrays, never names (``sim.engine.contract``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from sim import encoding as E
from sim._numba_cache import compile_once
from sim._views import inline_copy
from sim.engine import intercept as ic
from sim.engine.contract import (
    MODE_DEBUG,
    MODE_PEEK0,
    MODE_SCOPE_SHIFT,
    MODE_TRUST0,
    PEEK_KINDS,
    PEEK_NEXT,
    PEEK_NEXT_WHEN,
    PEEK_OTHERS,
    PEEK_WHEN,
    POLICY_TYPE,
)
from sim.engine.intercept import at_intercept, forced_choice, reset_intercept
from sim.engine.invariants import check_invariants
from sim.engine.judge import action_reason, first_legal_action, forced_action, judge_choice
from sim.engine.observe import observe, observe_after_meld
from sim.engine.state import apply_action, deal, deal_hand, score_hand, started_col
from sim.engine.views import scratch_hint, scratch_tmp, st_hands, st_melds
from sim.finished import game_winner, past_bound
from sim.legality import canastas, meld_size
from sim.rng import seed_hand, shuffle
from sim.scoring import HELD_PENALTY_AT
from sim.special import wins_game

__all__ = ["chunk_signature", "play_hand", "play_hands_kernel", "ready_kernel"]

#: inlined into the hand loop alone (``inline_copy``): ~110 transitions and ~45 observations a hand
_apply_inline = inline_copy(apply_action)
_observe_inline = inline_copy(observe)


@njit(cache=True, inline="always")
def _ask_policy(st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, mode):
    """The action of the acting player's policy (team 0, seats 0 and 2: ``pol0``), judged by
    the engine (``judge_choice``: ``check_action``, its plan ``cache`` and the plan the policy
    may leave in the scratch's hint words, after the quick test of common actions); an
    illegal one is counted in ``policy_errors`` and replaced by the first legal action. -1 if
    there is none (INV_STUCK: the rules always leave one). A team whose ``MODE_TRUST*`` bit
    is set in ``mode`` plays a built-in (``sim.engine.contract.engine_mode``): its proposal
    is applied unjudged."""
    team = st[E.ST_PLAYER] % E.N_TEAMS
    if team == 0:
        a = pol0(obs, params0, rng, rules, scratch)
    else:
        a = pol1(obs, params1, rng, rules, scratch)
    if mode & (MODE_TRUST0 << team):
        cache[E.PC_VALID] = 0  # no plan kept for an action not judged
        return a
    tmp = scratch_tmp(scratch)
    if judge_choice(obs, a, rules, tmp, cache, scratch_hint(scratch)) != E.R_OK:
        st[E.ST_ERRORS] += 1
        cache[E.PC_VALID] = 0
        a = first_legal_action(obs, rules, tmp)  # -1 if none
    return a


@njit(cache=True, _nrt=False)
def forced_action_state(st):
    """``forced_action`` of the current player's observation, read from the state itself
    (PILE-1/2: a draw when there is no pile, its top card is not natural or the player holds
    no pair of it), so that the engine observes only when the policy is asked; the same
    answer at every step of real hands (tests/test_judge_fastpaths.py)."""
    if st[E.ST_PHASE] != E.PH_DRAW:
        return -1
    n = st[E.ST_PILE_N]
    if n == 0:
        return E.A_DRAW
    top = st[E.ST_PILE + n - 1]
    if top < E.FIRST_NATURAL or st[E.ST_HANDS + st[E.ST_PLAYER] * E.N_KINDS + top] < 2:
        return E.A_DRAW
    return -1


@njit(cache=True, inline="always")
def _intercept_step(st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, log, icpt):
    """One step of the player at the intercept (``sim.engine.intercept``): observed in full,
    the script's next action if the rules accept it (a step refused ends the script: the
    policy decides from there; DEAL-5's keep-or-lay stays the policy's), else the forced draw
    or the policy's judged proposal, the forced choice put in its place; or, at a pause, the
    loop's ``PAUSED``. Returns 0, ``PAUSED`` or ``INV_STUCK``."""
    observe(st, st[E.ST_PLAYER], obs)
    tmp = scratch_tmp(scratch)
    kind = icpt[ic.IC_KIND]
    if kind == ic.IK_SCRIPT and obs[E.OB_PHASE] != E.PH_THREES:
        k = icpt[ic.IC_STEP]
        a = icpt[ic.IC_SCRIPT + k]
        if action_reason(obs, a, rules, tmp) == E.R_OK:
            choice = forced_action(obs) < 0
            cache[E.PC_VALID] = 0
            apply_action(st, a, rules, log)
            if choice:
                st[E.ST_DECISIONS] += 1
            icpt[ic.IC_STEP] = k + 1
            if k + 1 == icpt[ic.IC_N]:
                icpt[ic.IC_ACTIVE] = 0
                icpt[ic.IC_APPLIED] = 1
            return 0
        icpt[ic.IC_ACTIVE] = 0  # refused in this deal
    choice = ic._step_choice(st, icpt)  # a lasting choice's part at this step
    a = forced_action(obs)
    if a >= 0:
        if kind == ic.IK_CHOICE:
            a, ok = forced_choice(obs, choice, a, False, rules, tmp)
            icpt[ic.IC_APPLIED] |= ok
        cache[E.PC_VALID] = 0
        apply_action(st, a, rules, log)  # no choice left to the policy
        return 0
    if kind == ic.IK_PAUSE:
        if icpt[ic.IC_ACTIVE] == 1:
            icpt[ic.IC_ACTIVE] = 0  # asked when called again
            return ic.PAUSED
        icpt[ic.IC_ACTIVE] = 1
    a = _ask_policy(st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, 0)
    if a < 0:
        return E.INV_STUCK
    if kind == ic.IK_CHOICE:
        is_play = obs[E.OB_PHASE] == E.PH_PLAY
        first = icpt[ic.IC_FIRST_PLAY] == 1 and is_play
        f, ok = forced_choice(obs, choice, a, first, rules, tmp)
        icpt[ic.IC_APPLIED] |= ok
        if is_play:
            icpt[ic.IC_FIRST_PLAY] = 0
        if f != a:
            cache[E.PC_VALID] = 0  # the plan kept was for the policy's action
        a = f
    apply_action(st, a, rules, log)
    st[E.ST_DECISIONS] += 1
    return 0


@njit(cache=True, inline="always")
def play_hand(st, obs, pol0, pol1, params0, params1, rng, rules, scratch, log, mode):
    """Play the dealt hand in ``st`` to its end. Team 0 (seats 0, 2) uses ``pol0``. Returns 0,
    or an invariant code (``INV_*``) at the first broken invariant (``mode``: see
    ``_resume_hand``)."""
    cache = np.zeros(E.PC_SIZE, dtype=np.int64)  # the opening plan of check_action
    return play_hand_loop(
        st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, log, mode, None
    )


@njit(cache=True, inline="always")
def _fresh_hand(cache, icpt):
    """The start of a hand on the loop: check_action's plan ``cache`` emptied and the intercept
    ``icpt`` reset (None: plain play, the reset pruned when compiled)."""
    for i in range(E.PC_SIZE):
        cache[i] = 0
    if icpt is not None:
        reset_intercept(icpt)


@njit(cache=True, inline="always")  # one library less between a kernel and the loop
def play_hand_loop(
    st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, log, mode, icpt
):
    """The engine's one hand loop: the dealt hand in ``st`` played to its end, or to a pause,
    with the intercept ``icpt`` (``sim.engine.intercept``; reset here) and check_action's plan
    ``cache`` (``E.PC_SIZE`` words, emptied here). Returns 0, ``PAUSED`` or an invariant code
    (``_resume_hand`` goes on after a pause). ``icpt`` None is plain play, compiled without the
    intercept's steps (``_resume_hand``)."""
    _fresh_hand(cache, icpt)
    return _resume_hand(
        st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, log, mode, icpt
    )


@njit(cache=True, _nrt=False)
def _resume_hand(
    st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, log, mode, icpt
):
    """``play_hand_loop`` from the state as it stands (its intercept and plan kept). TURN-1's
    steps: the forced draw (PILE-1/2) made without asking, else observe, ask the acting
    team's policy (``pol0``/``params0`` for team 0), judge and apply; the intercept's steps
    are ``_intercept_step``'s. Policies receive compiled functions of ``POLICY_TYPE`` or, from
    a policy's own search, a compiled dispatcher, called directly. Compiled without reference
    counting: a counted loop paid an atomic increment and decrement for every array it handed
    on at every step; every array here belongs to the caller. ``icpt`` None (plain play: the
    chunk kernels, the expert's rollouts) prunes the intercept's branch when compiled (numba's
    dead-branch pruning of an argument typed None): the plain loop compiles and runs without
    ``_intercept_step`` and what it calls (a faster cold start). ``mode``: bit flags of
    ``sim.engine.contract`` (``MODE_DEBUG``: invariants checked after every action;
    ``MODE_TRUST0``/``MODE_TRUST1``: that team's built-in policy is not judged again, the
    intercept's forced steps are judged always; ``MODE_PEEK0``/``MODE_PEEK1``: that team's
    observations show the other hands, ``peek_hands``)."""
    melded = -1  # the slot of the meld operation the player to act has just made, else -1
    while st[E.ST_PHASE] != E.PH_OVER:
        if icpt is not None and icpt[ic.IC_KIND] != ic.IK_NONE and at_intercept(st, icpt):
            code = _intercept_step(
                st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, log, icpt
            )
            if code != 0:
                return code
            melded = -1
        else:
            a = forced_action_state(st)
            asked = a < 0  # else no choice: the policy is not asked
            if asked:
                # only when the policy is asked (speed); after the player's own meld
                # operation only the words it changed (observe_after_meld)
                if melded >= 0:
                    observe_after_meld(st, st[E.ST_PLAYER], obs, melded)
                else:
                    _observe_inline(st, st[E.ST_PLAYER], obs)
                    t = st[E.ST_PLAYER] % E.N_TEAMS
                    if mode & (MODE_PEEK0 << t):
                        scope = (mode >> (MODE_SCOPE_SHIFT + 3 * t)) & 7
                        peek_hands(st, st[E.ST_PLAYER], obs, scope)
                a = _ask_policy(
                    st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, mode
                )
                if a < 0:
                    return E.INV_STUCK
            else:
                cache[E.PC_VALID] = 0
            # one call site of the inlined transition for both (compiled once: cold start)
            _apply_inline(st, a, rules, log)
            if not asked:
                melded = -1
                continue
            st[E.ST_DECISIONS] += 1
            is_meld = E.ACTION_TABLE[a, E.AC_TYPE] == E.AT_MELD
            melded = E.ACTION_TABLE[a, E.AC_SLOT] if is_meld else -1
        if mode & MODE_DEBUG:
            code = check_invariants(st, rules, scratch_tmp(scratch))
            if code != 0:
                return code
    return 0


@njit(cache=True, _nrt=False)
def peek_hands(st, p, obs, scope):
    """A peeking reference's observation (``MODE_PEEK*``): the other seats' rows of the public
    card memory (``OB_KNOWN``) hold their whole hands, or under a narrower ``scope``
    (``sim.engine.contract.PEEK_*``) part of them, the memory's rows kept elsewhere. (A meld
    operation of ``p``'s own changes no other hand, so ``observe_after_meld`` leaves them
    right.)"""
    if scope == PEEK_WHEN or scope == PEEK_NEXT_WHEN:
        held = 0
        for j in range(E.N_KINDS, E.N_PLAYERS * E.N_KINDS):
            held += obs[E.OB_KNOWN + j]
        if held == 0:
            return
    for i in range(1, E.N_PLAYERS):
        next_only = scope == PEEK_NEXT or scope == PEEK_NEXT_WHEN
        if (next_only and i != 1) or (scope == PEEK_OTHERS and i == 1):
            continue
        q = (p + i) % E.N_PLAYERS
        for k in range(E.N_KINDS):
            at = E.OB_KNOWN + i * E.N_KINDS + k
            if scope != PEEK_KINDS or obs[at] > 0:
                obs[at] = st[E.ST_HANDS + q * E.N_KINDS + k]


#: ``_resume_hand`` inlined where a policy's own search plays hands (``hand_direct``)
_resume_inline = inline_copy(_resume_hand)


@njit(cache=True, inline="always")
def hand_direct(st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, log, icpt, mode):
    """``play_hand_loop`` compiled into its caller, for policies passed as compiled
    dispatchers (a policy's own search: the expert's rollouts, strong's labelling). Passed on
    as values to a compiled call they would become dynamic addresses, which numba cannot
    cache; inlined, they are calls resolved when compiled. ``icpt`` None: plain play, the
    intercept's steps pruned when compiled (the expert's rollouts). ``mode``: the loop's
    (``_resume_hand``); a search of built-ins passes ``MODE_TRUSTED``."""
    _fresh_hand(cache, icpt)
    return _resume_inline(
        st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, log, mode, icpt
    )


@njit(cache=True, inline="always")
def resume_direct(
    st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, log, icpt, mode
):
    """``_resume_hand`` compiled into its caller (``hand_direct``)."""
    return _resume_inline(
        st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, log, mode, icpt
    )


@njit(cache=True, _nrt=False)
def write_record_row(st, hand_id, items, row):
    """The per-hand record row (layout RECORD_COLUMNS) of a finished, scored hand."""
    row[:] = 0
    row[E.RC_HAND_ID] = hand_id
    row[E.RC_FIRST_PLAYER] = st[E.ST_FIRST_PLAYER]
    row[E.RC_TURNS] = st[E.ST_TURN] + 1
    row[E.RC_END_REASON] = st[E.ST_END_REASON]
    row[E.RC_OUT_TEAM] = st[E.ST_OUT_TEAM]
    row[E.RC_SPECIAL] = st[E.ST_SPECIAL]
    row[E.RC_SPECIAL_TEAM] = st[E.ST_SPECIAL_TEAM]
    row[E.RC_ERRORS] = st[E.ST_ERRORS]
    row[E.RC_DECISIONS] = st[E.ST_DECISIONS]
    hands = st_hands(st)
    melds = st_melds(st)
    for t in range(E.N_TEAMS):
        base = E.RC_TEAM_BASE + t * E.RC_TEAM_WIDTH
        total = 0
        for i in range(E.N_SCORE_ITEMS):
            row[base + i] = items[t, i]
            total += items[t, i]
        row[E.RC_SCORE0 + t] = total
        for slot in E.STARTED_SLOTS:  # sevens, aces, wild meld
            j = started_col(slot)
            row[base + E.TR_SEVENS_STARTED + j] = st[E.ST_STARTED + t * 3 + j]
            done = meld_size(melds, t, slot) >= E.CANASTA
            row[base + E.TR_SEVENS_COMPLETED + j] = 1 if done else 0
        mixed = melds[t, E.ACE, E.TWOS] + melds[t, E.ACE, E.JOKERS] > 0
        row[base + E.TR_ACES_MIXED] = 1 if mixed else 0
        if st[E.ST_SPECIAL_TEAM] != t:  # SCORE-8: a declaring team pays no penalty
            for q in (t, t + E.N_TEAMS):
                if hands[q, E.SEVEN] >= HELD_PENALTY_AT:
                    row[base + E.TR_SEVENS_PENALTY] += 1
                if hands[q, E.ACE] >= HELD_PENALTY_AT and not mixed:
                    row[base + E.TR_ACES_PENALTY] += 1  # SCORE-4 / MELD-7
        row[base + E.TR_CANASTAS] = canastas(melds, t)
        row[base + E.TR_OPENED] = st[E.ST_OPENED + t]
        row[base + E.TR_BONUS] = st[E.ST_BONUS + t]
        risk = E.RC_RISK_BASE + t * E.RC_RISK_WIDTH  # held: sevens, aces; stock: sevens, aces, wild
        row[risk] = st[E.ST_STARTED_HELD + t * 2]
        row[risk + 1] = st[E.ST_STARTED_HELD + t * 2 + 1]
        for j in range(3):
            row[risk + 2 + j] = st[E.ST_STARTED_STOCK + t * 3 + j]


def chunk_signature(*tail):
    """The signature of a chunk kernel: ``(key, start, stop, pol0, pol1, params0, params1,
    rules, *tail) -> int64`` (policies as first-class functions of ``POLICY_TYPE``)."""
    head = (types.uint64[::1], types.int64, types.int64, POLICY_TYPE, POLICY_TYPE)
    return types.int64(*head, types.float64[::1], types.float64[::1], types.int64[::1], *tail)


_KERNEL_SIGNATURES: dict = {}  #: chunk kernel -> its signature (compiled at first call)


def chunk_kernel(*tail):
    """Decorator: a chunk kernel of ``chunk_signature(*tail)``, compiled (or loaded from
    numba's cache) at its first call through ``ready_kernel``, not at import, so a run compiles
    only the kernels it calls (a faster cold start: the games kernel alone cost half a
    minute of every first run)."""
    sig = chunk_signature(*tail)

    def wrap(fn):
        kernel = njit(cache=True, _nrt=True)(fn)  # allocates; its loop counts nothing
        _KERNEL_SIGNATURES[kernel] = sig
        return kernel

    return wrap


def ready_kernel(kernel):
    """``kernel`` compiled to its signature, with further compilation disabled as an eager
    ``@njit(sig)`` would be: a policy passed in converts to ``POLICY_TYPE`` instead of
    compiling the engine again for each policy."""
    sig = _KERNEL_SIGNATURES.get(kernel)
    if sig is not None:
        compile_once(kernel, sig.args)  # under a lock: threads may ask at once
    return kernel


@njit(cache=True, _nrt=True)  # allocates the work arrays
def hand_arrays():
    """A chunk kernel's work arrays: state, observation, scratch, generator, score items and
    a log that records nothing."""
    st = np.zeros(E.STATE_SIZE, dtype=np.int64)
    obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    rng = np.zeros(4, dtype=np.uint64)
    items = np.zeros((E.N_TEAMS, E.N_SCORE_ITEMS), dtype=np.int64)
    log = np.zeros(1, dtype=np.int64)
    return st, obs, scratch, rng, items, log


@njit(cache=True, _nrt=False)  # no temporaries: the views of the state need no counting
def finish_hand(st, code, hand_id, rules, items, row, status):
    """The end of a chunk kernel's hand: scored and recorded in ``row``, or, if ``code`` is an
    invariant code, ``status = (hand_id, turn)`` of the failure. Returns ``code``."""
    if code != 0:
        status[0] = hand_id
        status[1] = st[E.ST_TURN]
        return code
    score_hand(st, rules, items)
    write_record_row(st, hand_id, items, row)
    return 0


@njit(cache=True, _nrt=False)
def new_deck(rng, deck):
    """DEAL-1: a shuffled deck of the 108 card ids from the hand's generator."""
    for i in range(E.N_CARDS):
        deck[i] = i
    shuffle(rng, deck)


@chunk_kernel(types.int64, types.int64[:, ::1], types.int64[::1])
def play_hands_kernel(key, start, stop, pol0, pol1, params0, params1, rules, debug, out, status):
    """Hands ``start..stop-1`` of the run with key ``key``, each dealt and played from its own
    generator ``seed_hand(key, hand_id)``; the first player is ``hand_id % 4`` (DEAL-1 rotation).
    Records go to ``out[hand_id - start]``. ``debug``: the loop's mode word
    (``sim.engine.contract.engine_mode``). Returns 0, or an invariant code with
    ``status = (hand_id, turn)`` of the failure."""
    st, obs, scratch, rng, items, log = hand_arrays()
    deck = np.zeros(E.N_CARDS, dtype=np.int64)
    cache = np.zeros(E.PC_SIZE, dtype=np.int64)  # the opening plan of check_action
    for h in range(start, stop):
        seed_hand(key, h, rng)
        new_deck(rng, deck)
        deal(st, deck, h % 4, 0, 0, rules, log)
        code = play_hand_loop(
            st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, log, debug, None
        )
        if finish_hand(st, code, h, rules, items, out[h - start], status) != 0:
            return code
    return 0


#: the games kernel's ``setup`` words: where every game starts (``sim.engine.hands.game_setup``)
GS_SCORE0, GS_SCORE1, GS_FIRST_PLAYER, GS_HAND_NUMBER, GS_MAX_HANDS = range(5)
GAME_SETUP_WIDTH = 5


@chunk_kernel(types.int64, types.int64[::1], types.int64[:, ::1], types.int64[::1])
def play_games_kernel(
    key, start, stop, pol0, pol1, params0, params1, rules, debug, setup, out, status
):
    """GAME-1: games ``start..stop-1``; each is a sequence of hands until a team's cumulative
    score reaches the target (``rules[RS_TARGET]``), the higher total winning and an exact tie
    playing on (``sim.finished.game_winner``), or a hand that wins the game is declared
    (SPECIAL-10: its team wins), or a total passes ``MAX_SCORE`` either way
    (``sim.finished.past_bound``: over, winner -1, as at the cap). Hand
    ``k`` of game ``g`` is seeded as hand ``g * GAME_HAND_STRIDE + k``; the deal rotates
    (DEAL-1: first player ``(f + k) % 4``, ``f`` the first hand's first player) and each
    opening minimum follows the team's running score (OPEN-1). Every game starts from
    ``setup`` (``GS_*``): the two teams' scores, the first hand's first player (-1: ``g % 4``),
    that hand's number in the game (OPEN-1 by hand) and the most hands to play (0: up to the
    cap; a game stopped undecided has winner -1). Rows go to ``out[g - start]``
    (GAME_RECORD_COLUMNS)."""
    st, obs, scratch, rng, items, log = hand_arrays()
    deck = np.zeros(E.N_CARDS, dtype=np.int64)
    cache = np.zeros(E.PC_SIZE, dtype=np.int64)  # the opening plan of check_action
    target = rules[E.RS_TARGET]
    cap = E.GAME_HAND_STRIDE
    if 0 < setup[GS_MAX_HANDS] < cap:
        cap = setup[GS_MAX_HANDS]
    for g in range(start, stop):
        s0, s1, errors, k, winner = setup[GS_SCORE0], setup[GS_SCORE1], 0, 0, -1
        first = g if setup[GS_FIRST_PLAYER] < 0 else setup[GS_FIRST_PLAYER]
        while k < cap:
            seed_hand(key, g * E.GAME_HAND_STRIDE + k, rng)
            new_deck(rng, deck)
            number = setup[GS_HAND_NUMBER] + k  # OPEN-1 hand number
            deal_hand(st, deck, (first + k) % 4, s0, s1, number, rules, log)
            code = play_hand_loop(
                st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, log, debug, None
            )
            if code != 0:
                status[0] = g
                status[1] = k
                return code
            score_hand(st, rules, items)
            s0 += items[0].sum()
            s1 += items[1].sum()
            errors += st[E.ST_ERRORS]
            k += 1
            if st[E.ST_END_REASON] == E.END_SPECIAL and wins_game(st[E.ST_SPECIAL], rules):
                winner = st[E.ST_SPECIAL_TEAM]  # SPECIAL-10: the hand wins the game at once
                break
            winner = game_winner(s0, s1, target)  # GAME-1
            if winner >= 0 or past_bound(s0, s1):  # past the bound: over, undecided
                break
        row = out[g - start]
        row[E.GR_GAME_ID] = g
        row[E.GR_HANDS] = k
        row[E.GR_SCORE0] = s0
        row[E.GR_SCORE1] = s1
        row[E.GR_WINNER] = winner
        row[E.GR_ERRORS] = errors
    return 0
