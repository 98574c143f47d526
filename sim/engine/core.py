"""The compiled engine: deal, turn loop, observations, action checks and the hand's end.

A hand's whole state is one int64 array (layout ``STATE_FIELDS`` in ``sim.encoding``); the
helpers below give named views of it. Every rule check goes through the rules core
(``sim.legality``, ``sim.special``, ``sim.scoring``); this module only sequences a hand:

    start of turn -- threes laid down and replaced (DEAL-4), or the keep decision (DEAL-5)
    draw          -- stock or pile (TURN-1, PILE-*); empty stock ends the hand (END-1)
    play          -- meld operations (MELD-*, OPEN-*), a special hand (SPECIAL-1), or the
                     discard that ends the turn (DISCARD-*), going out with the last card (OUT-*)
    after discard -- bonus cards for the opener (OPEN-5), then the next player (TURN-1)

Legality is judged from the acting player's *observation* alone (``action_reason``), so the
engine, the step API, the random policy and the validator use one function.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.encoding import (
    A_DECLARE,
    A_DISCARD,
    A_DRAW,
    A_KEEP_BLACK_THREE,
    A_KEEP_RED_THREE,
    A_LAY_THREES,
    A_TAKE_PILE,
    AC_JOKER,
    AC_NAT,
    AC_SLOT,
    AC_TWO,
    AC_TYPE,
    ACE,
    ACTION_TABLE,
    AT_DECLARE,
    AT_DISCARD,
    AT_DRAW,
    AT_KEEP_THREE,
    AT_LAY_THREES,
    AT_MELD,
    AT_TAKE_PILE,
    BLACK_THREE,
    CANASTA,
    CARD_KIND,
    END_LIMIT,
    END_OUT,
    END_SPECIAL,
    END_STOCK,
    EV_ACTION,
    EV_BONUS,
    EV_DRAW,
    EV_END,
    EV_LAY_THREE,
    EV_PILE_JOINS,
    EV_REPLACE,
    EVENT_WIDTH,
    FIRST_NATURAL,
    HAND_SIZE,
    INV_CARDS,
    INV_MELD,
    INV_NEGATIVE,
    INV_OK,
    INV_PILE,
    JOKER,
    JOKERS,
    KIND_COPIES,
    KIND_VALUE,
    MAX_OP_WILDS,
    MAX_TURNS,
    MAX_WILD_MELD_JOKERS,
    MELD_ACTION,
    N_ACTIONS,
    N_CARDS,
    N_KINDS,
    N_MELD_COLS,
    N_PLAYERS,
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
    OB_OPEN_MIN,
    OB_OPENED,
    OB_OPENING_TURN,
    OB_PENDING,
    OB_PHASE,
    OB_PILE_COUNTS,
    OB_PILE_KIND,
    OB_PILE_N,
    OB_PILE_TOP,
    OB_SCORES,
    OB_SEAT,
    OB_STOCK_N,
    OB_THREES,
    OB_TOOK_PILE,
    OB_TURN,
    OB_TURN_CARD_DRAWN,
    PH_DRAW,
    PH_OVER,
    PH_PLAY,
    PH_THREES,
    R_BAD_ACTION,
    R_KEEP_THREE,
    R_MELD_TOO_LONG,
    R_NOT_HELD,
    R_OK,
    R_OPEN_MINIMUM,
    R_SPECIAL_NOT_FIRST_MELD,
    R_WRONG_PHASE,
    RED_THREE,
    RS_ALLOW_LONG_MELD_GOING_OUT,
    RS_MAX_WILDS_MIXED,
    RS_SPECIAL_HANDS,
    SEVEN,
    SPECIAL_NONE,
    SPECIALS_ON,
    ST_ASIDE,
    ST_BONUS,
    ST_DISCARDS,
    ST_DREW_STOCK,
    ST_END_REASON,
    ST_FIRST_PLAYER,
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
    ST_SPECIAL,
    ST_SPECIAL_TEAM,
    ST_STARTED,
    ST_STARTED_HELD,
    ST_STARTED_STOCK,
    ST_STOCK,
    ST_STOCK_N,
    ST_THREES,
    ST_TOOK_PILE,
    ST_TURN,
    ST_TURN_CARD_DRAWN,
    STARTED_ACES,
    STARTED_SEVENS,
    STARTED_WILD,
    TURN_CARD_FROM_BOTTOM,
    TWO,
    TWOS,
    WILD_MELD,
)
from sim.legality import (
    best_opening,
    discard_reason,
    is_dead,
    leave_reason,
    meld_reason,
    meld_size,
    opening_meld_reason,
    opening_min,
    opening_reason,
    opening_refusal,
    out_reason,
    pile_reason,
)
from sim.scoring import score_team
from sim.special import classify_special, special_reason


# ---------------------------------------------------------------------------------------
# Named views of the state and of an observation
# ---------------------------------------------------------------------------------------
@njit(cache=True)
def st_hands(st):
    """hands[player, kind] view."""
    return st[ST_HANDS : ST_HANDS + N_PLAYERS * N_KINDS].reshape((N_PLAYERS, N_KINDS))


@njit(cache=True)
def st_melds(st):
    """melds[team, slot, col] view."""
    n = N_TEAMS * N_KINDS * N_MELD_COLS
    return st[ST_MELDS : ST_MELDS + n].reshape((N_TEAMS, N_KINDS, N_MELD_COLS))


@njit(cache=True)
def st_threes(st):
    """threes[team, red|black] view."""
    return st[ST_THREES : ST_THREES + N_TEAMS * 2].reshape((N_TEAMS, 2))


@njit(cache=True)
def st_pending(st):
    """pending[slot, col] view: cards melded from hand in this opening turn."""
    return st[ST_PENDING : ST_PENDING + N_KINDS * N_MELD_COLS].reshape((N_KINDS, N_MELD_COLS))


@njit(cache=True)
def ob_hand(obs):
    return obs[OB_HAND : OB_HAND + N_KINDS]


@njit(cache=True)
def ob_melds(obs):
    """melds[own|opp, slot, col] view of an observation."""
    n = N_TEAMS * N_KINDS * N_MELD_COLS
    return obs[OB_MELDS : OB_MELDS + n].reshape((N_TEAMS, N_KINDS, N_MELD_COLS))


@njit(cache=True)
def ob_pending(obs):
    return obs[OB_PENDING : OB_PENDING + N_KINDS * N_MELD_COLS].reshape((N_KINDS, N_MELD_COLS))


@njit(cache=True)
def _log(log, event, player, a, b):
    """Append an event to ``log`` (log[0] = count) if there is room; a 1-word log is off."""
    n = log[0]
    pos = 1 + n * EVENT_WIDTH
    if pos + EVENT_WIDTH <= log.shape[0]:
        log[pos] = event
        log[pos + 1] = player
        log[pos + 2] = a
        log[pos + 3] = b
        log[0] = n + 1


# ---------------------------------------------------------------------------------------
# Deal (DEAL-1..3) and drawing from the stock
# ---------------------------------------------------------------------------------------
@njit(cache=True)
def deal(st, deck, first_player, score0, score1, rules, log):
    """DEAL-1/2: 13 cards to each player from ``deck`` (108 card ids, top of the packet
    first), the rest is the stock (its top is ``deck[-1]``); the pile starts empty. Then the
    first player's turn begins."""
    st[:] = 0
    hands = st_hands(st)
    for p in range(N_PLAYERS):
        for i in range(HAND_SIZE):
            hands[p, CARD_KIND[deck[p * HAND_SIZE + i]]] += 1
    n = N_CARDS - N_PLAYERS * HAND_SIZE
    for i in range(n):
        st[ST_STOCK + i] = deck[N_PLAYERS * HAND_SIZE + i]
    st[ST_STOCK_N] = n
    for p in range(N_PLAYERS):
        st[ST_KEPT + p] = -1
    for i in range(N_TEAMS * 3):
        st[ST_STARTED + i] = -1
        st[ST_STARTED_STOCK + i] = -1
    for i in range(N_TEAMS * 2):
        st[ST_STARTED_HELD + i] = -1
    st[ST_SCORES] = score0
    st[ST_SCORES + 1] = score1
    st[ST_OUT_TEAM] = -1
    st[ST_SPECIAL_TEAM] = -1
    st[ST_FIRST_PLAYER] = first_player
    st[ST_PLAYER] = first_player
    st[ST_TURN] = -1
    begin_turn(st, rules, log)


@njit(cache=True)
def end_hand(st, reason, log):
    """END-1: the hand is over."""
    st[ST_PHASE] = PH_OVER
    st[ST_END_REASON] = reason
    _log(log, EV_END, st[ST_PLAYER], reason, 0)


@njit(cache=True)
def draw_card(st, p, event, log):
    """Move the stock's top card to player ``p``'s hand. DEAL-3: the turn card is the 9th
    from the bottom. END-1: if it was the last card and a three, the hand ends at once and the
    three stays in hand. Returns the kind drawn, or -1 if the stock was empty."""
    n = st[ST_STOCK_N]
    if n == 0:
        return -1
    n -= 1
    kind = CARD_KIND[st[ST_STOCK + n]]
    st[ST_STOCK_N] = n
    st[ST_HANDS + p * N_KINDS + kind] += 1
    if n <= TURN_CARD_FROM_BOTTOM - 1:
        st[ST_TURN_CARD_DRAWN] = 1  # DEAL-3
    _log(log, event, p, kind, st[ST_STOCK + n])
    if n == 0 and (kind == RED_THREE or kind == BLACK_THREE):
        end_hand(st, END_STOCK, log)  # END-1: the last stock card is a three
    return kind


# ---------------------------------------------------------------------------------------
# Threes (DEAL-4, DEAL-5)
# ---------------------------------------------------------------------------------------
@njit(cache=True)
def may_keep_three(st, p, rules):
    """DEAL-5: a player may keep one three (toward a Straight) while the team has not melded
    and holds none kept yet; only with special hands on (SPECIAL-7)."""
    team = p % N_TEAMS
    return (
        st[ST_OPENED + team] == 0 and st[ST_KEPT + p] < 0 and rules[RS_SPECIAL_HANDS] == SPECIALS_ON
    )


@njit(cache=True)
def lay_threes(st, p, log):
    """DEAL-4: lay every three except the kept one (DEAL-5) face up and replace each from the
    stock. Replacement threes are left in hand for ``settle_threes`` to handle."""
    team = p % N_TEAMS
    kept = st[ST_KEPT + p]
    laid = 0
    for kind in (RED_THREE, BLACK_THREE):
        n = st[ST_HANDS + p * N_KINDS + kind] - (1 if kind == kept else 0)
        if n > 0:
            st[ST_HANDS + p * N_KINDS + kind] -= n
            st[ST_THREES + team * 2 + kind - RED_THREE] += n
            laid += n
            for _ in range(n):
                _log(log, EV_LAY_THREE, p, kind, 0)
    for _ in range(laid):
        if draw_card(st, p, EV_REPLACE, log) < 0 or st[ST_PHASE] == PH_OVER:
            break


@njit(cache=True)
def settle_threes(st, rules, log, resume):
    """DEAL-4/5 for the current player: lay down and replace threes until none is left to lay,
    stopping at a keep-or-lay decision (PH_THREES) when DEAL-5 offers one; then go on with
    phase ``resume``."""
    p = st[ST_PLAYER]
    team = p % N_TEAMS
    while st[ST_PHASE] != PH_OVER:
        kept = st[ST_KEPT + p]
        if kept >= 0 and st[ST_OPENED + team] == 1:
            st[ST_KEPT + p] = -1  # DEAL-5: once the team has melded the kept three is laid
            kept = -1
        held = st[ST_HANDS + p * N_KINDS + RED_THREE] + st[ST_HANDS + p * N_KINDS + BLACK_THREE]
        if held - (1 if kept >= 0 else 0) <= 0:
            st[ST_PHASE] = resume
            return
        if may_keep_three(st, p, rules):
            st[ST_PHASE] = PH_THREES
            st[ST_RESUME] = resume
            return
        lay_threes(st, p, log)


# ---------------------------------------------------------------------------------------
# Turns (TURN-1)
# ---------------------------------------------------------------------------------------
@njit(cache=True)
def begin_turn(st, rules, log):
    """TURN-1: reset the turn's flags for the current player, then DEAL-4/5."""
    st[ST_TURN] += 1
    if st[ST_TURN] >= MAX_TURNS:
        end_hand(st, END_LIMIT, log)
        return
    team = st[ST_PLAYER] % N_TEAMS
    st[ST_DREW_STOCK] = 0
    st[ST_TOOK_PILE] = 0
    st[ST_MELDED] = 0
    st[ST_PILE_KIND] = -1
    st[ST_OPENING_TURN] = 1 - st[ST_OPENED + team]
    for i in range(N_KINDS * N_MELD_COLS):
        st[ST_PENDING + i] = 0
    st[ST_PHASE] = PH_DRAW
    settle_threes(st, rules, log, PH_DRAW)


@njit(cache=True)
def _note_started(st, team, slot):
    """Record the turn a team started its sevens, aces or wild meld (records)."""
    col = -1
    if slot == SEVEN:
        col = STARTED_SEVENS
    elif slot == ACE:
        col = STARTED_ACES
    elif slot == WILD_MELD:
        col = STARTED_WILD
    if col >= 0 and st[ST_STARTED + team * 3 + col] < 0:
        st[ST_STARTED + team * 3 + col] = st[ST_TURN]


@njit(cache=True)
def note_started_by(st, p, slot):
    """Records: player ``p`` starts its team's meld of ``slot`` now (called before the cards
    leave the hand): the turn (``_note_started``), for sevens and aces how many of the rank
    ``p`` holds, and for sevens, aces and wilds the stock size."""
    team = p % N_TEAMS
    col = -1
    if slot == SEVEN:
        col = STARTED_SEVENS
    elif slot == ACE:
        col = STARTED_ACES
    elif slot == WILD_MELD:
        col = STARTED_WILD
    if col < 0 or st[ST_STARTED + team * 3 + col] >= 0:
        return
    st[ST_STARTED_STOCK + team * 3 + col] = st[ST_STOCK_N]
    if col != STARTED_WILD:
        st[ST_STARTED_HELD + team * 2 + col] = st[ST_HANDS + p * N_KINDS + slot]
    _note_started(st, team, slot)


@njit(cache=True)
def _join_aside(st, p, log):
    """PILE-1: the rest of a taken pile joins the hand."""
    moved = 0
    for k in range(N_KINDS):
        c = st[ST_ASIDE + k]
        if c > 0:
            st[ST_HANDS + p * N_KINDS + k] += c
            st[ST_ASIDE + k] = 0
            moved += c
    if moved > 0:
        _log(log, EV_PILE_JOINS, p, moved, 0)


@njit(cache=True)
def _aside_total(st):
    n = 0
    for k in range(N_KINDS):
        n += st[ST_ASIDE + k]
    return n


@njit(cache=True)
def apply_action(st, a, rules, log):
    """Apply action ``a`` (already judged legal) for the current player."""
    p = st[ST_PLAYER]
    team = p % N_TEAMS
    kind = ACTION_TABLE[a, AC_TYPE]
    slot = ACTION_TABLE[a, AC_SLOT]
    top_kind = st[ST_PILE + st[ST_PILE_N] - 1] if st[ST_PILE_N] > 0 else -1
    _log(log, EV_ACTION, p, a, top_kind)
    hands = st_hands(st)
    melds = st_melds(st)
    if kind == AT_LAY_THREES or kind == AT_KEEP_THREE:
        if kind == AT_KEEP_THREE:
            st[ST_KEPT + p] = slot  # DEAL-5
        lay_threes(st, p, log)
        if st[ST_PHASE] != PH_OVER:
            st[ST_PHASE] = st[ST_RESUME]
            settle_threes(st, rules, log, st[ST_RESUME])
    elif kind == AT_DRAW:
        if st[ST_STOCK_N] == 0:
            end_hand(st, END_STOCK, log)  # END-1: must draw from an empty stock
            return
        st[ST_DREW_STOCK] = 1
        draw_card(st, p, EV_DRAW, log)
        if st[ST_PHASE] != PH_OVER:
            st[ST_PHASE] = PH_PLAY
            settle_threes(st, rules, log, PH_PLAY)  # a drawn three is laid and replaced
    elif kind == AT_TAKE_PILE:
        top = st[ST_PILE + st[ST_PILE_N] - 1]
        # PILE-1: the pair and the top card are melded at once
        if meld_size(melds, team, top) == 0:
            note_started_by(st, p, top)
        hands[p, top] -= 2
        melds[team, top, NATURALS] += 3
        st[ST_PENDING + top * N_MELD_COLS + NATURALS] += 2  # from hand (OPEN-3: not the top)
        st[ST_PILE_KIND] = top
        st[ST_TOOK_PILE] = 1
        st[ST_MELDED] = 1
        for k in range(N_KINDS):
            st[ST_ASIDE + k] += st[ST_PILE_COUNTS + k]
            st[ST_PILE_COUNTS + k] = 0
        st[ST_ASIDE + top] -= 1
        st[ST_PILE_N] = 0
        if st[ST_OPENED + team] == 1:
            _join_aside(st, p, log)
        st[ST_PHASE] = PH_PLAY
    elif kind == AT_MELD:
        nat = ACTION_TABLE[a, AC_NAT]
        two = ACTION_TABLE[a, AC_TWO]
        joker = ACTION_TABLE[a, AC_JOKER]
        if meld_size(melds, team, slot) == 0:
            note_started_by(st, p, slot)
        if slot != WILD_MELD:
            hands[p, slot] -= nat
            melds[team, slot, NATURALS] += nat
        hands[p, TWO] -= two
        hands[p, JOKER] -= joker
        melds[team, slot, TWOS] += two
        melds[team, slot, JOKERS] += joker
        st[ST_MELDED] = 1
        if st[ST_OPENING_TURN] == 1:
            pending = st_pending(st)
            pending[slot, NATURALS] += nat
            pending[slot, TWOS] += two
            pending[slot, JOKERS] += joker
            if _aside_total(st) > 0:
                mc = opening_min(st[ST_SCORES + team])
                if opening_reason(pending, melds, team, st[ST_PILE_KIND], mc) == R_OK:
                    _join_aside(st, p, log)  # PILE-1/2: the opening stands
    elif kind == AT_DECLARE:
        st[ST_SPECIAL] = classify_special(hands[p], rules)  # SPECIAL-1: the hand ends
        st[ST_SPECIAL_TEAM] = team
        end_hand(st, END_SPECIAL, log)
    elif kind == AT_DISCARD:
        hands[p, slot] -= 1
        st[ST_PILE + st[ST_PILE_N]] = slot
        st[ST_PILE_N] += 1
        st[ST_PILE_COUNTS + slot] += 1
        st[ST_DISCARDS + slot] += 1
        bonus = 0
        if st[ST_OPENING_TURN] == 1 and st[ST_MELDED] == 1:
            # OPEN-5: the opener takes bonus cards, not after the pile, not past the turn card
            if st[ST_TOOK_PILE] == 0 and st[ST_TURN_CARD_DRAWN] == 0:
                bonus = 3 if st[ST_OPENED + 1 - team] == 1 else 4
            st[ST_OPENED + team] = 1
        left = 0
        for k in range(N_KINDS):
            left += hands[p, k]
        if left == 0 and (bonus == 0 or out_reason(melds, team) == R_OK):
            # OUT-2: the last card discarded goes out; a player owed bonus cards who may not
            # go out (OUT-1) discarded the one card OUT-2 asks of them and takes the bonus
            st[ST_OUT_TEAM] = team
            end_hand(st, END_OUT, log)
            return
        for _ in range(bonus):
            if draw_card(st, p, EV_BONUS, log) < 0:
                break
            st[ST_BONUS + team] += 1
            if st[ST_PHASE] == PH_OVER:
                return
        st[ST_PLAYER] = (p + 1) % N_PLAYERS
        begin_turn(st, rules, log)


# ---------------------------------------------------------------------------------------
# Observation
# ---------------------------------------------------------------------------------------
@njit(cache=True)
def observe(st, p, obs):
    """Fill ``obs`` with what player ``p`` can see (layout OBS_FIELDS): own team first."""
    team = p % N_TEAMS
    obs[OB_PHASE] = st[ST_PHASE]
    obs[OB_SEAT] = p
    obs[OB_TURN] = st[ST_TURN]
    obs[OB_STOCK_N] = st[ST_STOCK_N]
    pile_n = st[ST_PILE_N]
    obs[OB_PILE_N] = pile_n
    obs[OB_PILE_TOP] = st[ST_PILE + pile_n - 1] if pile_n > 0 else -1
    obs[OB_TURN_CARD_DRAWN] = st[ST_TURN_CARD_DRAWN]
    for i in range(N_TEAMS):
        t = (team + i) % N_TEAMS
        obs[OB_OPENED + i] = st[ST_OPENED + t]
        obs[OB_SCORES + i] = st[ST_SCORES + t]
    obs[OB_OPEN_MIN] = opening_min(st[ST_SCORES + team])
    for i in range(N_PLAYERS):
        q = (p + i) % N_PLAYERS
        n = 0
        for k in range(N_KINDS):
            n += st[ST_HANDS + q * N_KINDS + k]
        obs[OB_HAND_SIZES + i] = n
    obs[OB_DREW_STOCK] = st[ST_DREW_STOCK]
    obs[OB_TOOK_PILE] = st[ST_TOOK_PILE]
    obs[OB_OPENING_TURN] = st[ST_OPENING_TURN]
    obs[OB_PILE_KIND] = st[ST_PILE_KIND]
    obs[OB_MELDED] = st[ST_MELDED]
    obs[OB_KEPT] = st[ST_KEPT + p]
    for k in range(N_KINDS):
        obs[OB_HAND + k] = st[ST_HANDS + p * N_KINDS + k]
        obs[OB_PILE_COUNTS + k] = st[ST_PILE_COUNTS + k]
        obs[OB_DISCARDS + k] = st[ST_DISCARDS + k]
        obs[OB_ASIDE + k] = st[ST_ASIDE + k]
    for i in range(N_KINDS * N_MELD_COLS):
        obs[OB_PENDING + i] = st[ST_PENDING + i]
    width = N_KINDS * N_MELD_COLS
    for i in range(N_TEAMS):
        t = (team + i) % N_TEAMS
        for j in range(width):
            obs[OB_MELDS + i * width + j] = st[ST_MELDS + t * width + j]
        obs[OB_THREES + 2 * i] = st[ST_THREES + 2 * t]
        obs[OB_THREES + 2 * i + 1] = st[ST_THREES + 2 * t + 1]


@njit(cache=True)
def opening_upper_bound(hand, pending, melds, rules):
    """A cheap bound, not a rule: no valid opening (OPEN-1/2, MELD-1/4/6/8) from this position
    counts more than this; -1 if no natural meld of 3+ could be formed. Counted: the pending
    melds; every natural of a live rank held 3+ times (or already melded this turn); a pair
    only with a wild card to go with it; wild cards only where some meld could take them."""
    maxw = rules[RS_MAX_WILDS_MIXED]
    bound = 0
    natural_meld = False
    for k in range(N_KINDS):
        if k >= FIRST_NATURAL:
            bound += pending[k, NATURALS] * KIND_VALUE[k]
        bound += pending[k, TWOS] * KIND_VALUE[TWO] + pending[k, JOKERS] * KIND_VALUE[JOKER]
    wilds = hand[TWO] + hand[JOKER]
    slots = 0  # wild cards the natural melds could take (MELD-4, MELD-6)
    n_pairs = 0
    for k in range(FIRST_NATURAL, N_KINDS):
        if pending[k, NATURALS] >= 3:
            natural_meld = True  # already melded this turn (maybe a canasta, so now dead)
        started = pending[k, NATURALS] + pending[k, TWOS] + pending[k, JOKERS] > 0
        if (hand[k] == 0 and not started) or is_dead(melds, k):
            continue
        n = hand[k] + pending[k, NATURALS]
        if started or n >= 3:
            bound += hand[k] * KIND_VALUE[k]
            if k != SEVEN:
                slots += maxw
            if n >= 3:
                natural_meld = True
        elif n == 2 and k != SEVEN:
            n_pairs += 1  # needs a wild card to become a meld (MELD-4)
    wild_meld = wilds >= 3 or pending[WILD_MELD, TWOS] + pending[WILD_MELD, JOKERS] > 0
    pairs_used = min(n_pairs, wilds)
    if pairs_used > 0:  # the best pairs, each with one wild card at least
        taken = 0
        for v in range(KIND_VALUE.max(), 0, -1):
            for k in range(FIRST_NATURAL, N_KINDS):
                if taken < pairs_used and KIND_VALUE[k] == v and hand[k] == 2:
                    if pending[k, NATURALS] == 0 and k != SEVEN and not is_dead(melds, k):
                        bound += 2 * v
                        taken += 1
        slots += pairs_used * maxw
    usable = wilds if wild_meld else min(wilds, slots)
    j = min(usable, hand[JOKER])  # jokers first: the bound takes the most valuable
    bound += j * KIND_VALUE[JOKER] + (usable - j) * KIND_VALUE[TWO]
    return bound if natural_meld else -1


@njit(cache=True)
def opening_best(hand, pending, pile_kind, extra, melds, rules, plan, min_count, bonus=False):
    """``sim.legality.best_opening`` on this position, skipped (-1) when the cheap
    ``opening_upper_bound`` is already below ``min_count``. ``bonus``: the player is owed bonus
    cards (OPEN-5), so OUT-2 asks only for a card to discard (False gives a plan that is legal
    either way)."""
    if opening_upper_bound(hand, pending, melds, rules) < min_count:
        return -1
    return best_opening(hand, pending, melds, pile_kind, extra, rules, plan, bonus)


@njit(cache=True)
def bonus_owed(obs):
    """OPEN-5/DEAL-3: a player melding in the opening turn will be owed bonus cards after the
    discard: not after taking the pile, not once the turn card has been drawn."""
    return obs[OB_OPENING_TURN] == 1 and obs[OB_TOOK_PILE] == 0 and obs[OB_TURN_CARD_DRAWN] == 0


# ---------------------------------------------------------------------------------------
# Action checks, from the observation alone
# ---------------------------------------------------------------------------------------
@njit(cache=True)
def _meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, opening=True, diagnose=False):
    """MELD-1..9, OUT-2 and (in the opening turn, unless ``opening`` is False) OPEN-1..4 for
    one meld operation. ``diagnose``: when the opening can no longer be completed, name the rule
    that stands in the way (``opening_refusal``, slower) rather than OPEN-1."""
    hand = ob_hand(obs)
    if slot != WILD_MELD and hand[slot] < nat:
        return R_NOT_HELD
    if hand[TWO] < two or hand[JOKER] < joker:
        return R_NOT_HELD
    melds = ob_melds(obs)
    total = obs[OB_HAND_SIZES] - nat - two - joker  # cards left in hand after the operation
    initial = obs[OB_OPENING_TURN] == 1
    r = meld_reason(melds, 0, slot, nat, two, joker, initial, total <= 1, rules)
    if r != R_OK:
        return r
    if initial:
        r = opening_meld_reason(melds, 0, slot, nat, two, joker)
        if r != R_OK:
            return r  # OPEN-4: this operation would complete a mixed canasta
    bonus = bonus_owed(obs)
    hand_after = tmp[0:N_KINDS]
    for k in range(N_KINDS):
        hand_after[k] = hand[k]
    if slot != WILD_MELD:
        hand_after[slot] -= nat
    hand_after[TWO] -= two
    hand_after[JOKER] -= joker
    mw = N_TEAMS * N_KINDS * N_MELD_COLS
    # OUT-2 on the hand the player will hold (a taken pile's rest joins it, PILE-1), judged
    # on the table after the operation: applied to the observation's melds and undone after
    leave = tmp[N_KINDS + mw : 2 * N_KINDS + mw]
    for k in range(N_KINDS):
        leave[k] = hand_after[k] + obs[OB_ASIDE + k]
    melds[0, slot, NATURALS] += nat
    melds[0, slot, TWOS] += two
    melds[0, slot, JOKERS] += joker
    r = leave_reason(leave, melds, 0, bonus)
    if r == R_OK and bonus and total == 1 and meld_size(melds, 0, slot) > CANASTA:
        if out_reason(melds, 0) != R_OK:
            r = R_MELD_TOO_LONG  # MELD-2 variant: past 7 only by a player who goes out
    melds[0, slot, NATURALS] -= nat
    melds[0, slot, TWOS] -= two
    melds[0, slot, JOKERS] -= joker
    if r != R_OK:
        return r
    if initial and opening:
        # OPEN-1..4: the opening must still be completable after this operation
        pw = N_KINDS * N_MELD_COLS
        base = 2 * N_KINDS + mw
        pending = tmp[base : base + pw].reshape((N_KINDS, N_MELD_COLS))
        plan = tmp[base + pw : base + 2 * pw].reshape((N_KINDS, N_MELD_COLS))
        pending[:] = ob_pending(obs)
        pending[slot, NATURALS] += nat
        pending[slot, TWOS] += two
        pending[slot, JOKERS] += joker
        extra = 0
        for k in range(N_KINDS):
            extra += obs[OB_ASIDE + k]
        mc = obs[OB_OPEN_MIN]
        pk = obs[OB_PILE_KIND]
        if opening_best(hand_after, pending, pk, extra, melds, rules, plan, mc, bonus) < mc:
            if diagnose:  # OPEN-1, OPEN-2, OPEN-4 or OUT-1/2: the rule that stands in the way
                return opening_refusal(hand_after, pending, melds, 0, pk, extra, rules, mc, bonus)
            return R_OPEN_MINIMUM
    return R_OK


@njit(cache=True)
def meld_reason_without_opening(obs, slot, nat, two, joker, rules, tmp):
    """``action_reason`` of a meld operation minus the opening search (OPEN-1..4): for a policy
    melding a step of a plan that ``best_opening`` already showed completable (the engine still
    judges the full rule)."""
    return _meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, False)


@njit(cache=True)
def opening_possible(obs, rules, tmp):
    """OPEN-1..4: can the current opening turn still be completed (from the current position)?"""
    pw = N_KINDS * N_MELD_COLS
    plan = tmp[0:pw].reshape((N_KINDS, N_MELD_COLS))
    extra = 0
    for k in range(N_KINDS):
        extra += obs[OB_ASIDE + k]
    mc = obs[OB_OPEN_MIN]
    hand, pending = ob_hand(obs), ob_pending(obs)
    pk = obs[OB_PILE_KIND]
    b = opening_best(hand, pending, pk, extra, ob_melds(obs), rules, plan, mc, bonus_owed(obs))
    return b >= mc


@njit(cache=True)
def pile_may_open(obs, rules, tmp):
    """A cheap necessary condition, not a rule: False when the player's team has not opened and
    ``opening_upper_bound`` shows that taking the pile cannot complete an opening (PILE-2), so
    callers can skip the full opening search. True otherwise (then ``action_reason`` decides)."""
    top = obs[OB_PILE_TOP]
    if obs[OB_OPENED] == 1 or top < FIRST_NATURAL or obs[OB_HAND + top] < 2:
        return True
    pw = N_KINDS * N_MELD_COLS
    rest = tmp[0:N_KINDS]
    for k in range(N_KINDS):
        rest[k] = obs[OB_HAND + k]
    rest[top] -= 2
    pending = tmp[N_KINDS : N_KINDS + pw].reshape((N_KINDS, N_MELD_COLS))
    pending[:] = 0
    pending[top, NATURALS] = 2
    return opening_upper_bound(rest, pending, ob_melds(obs), rules) >= obs[OB_OPEN_MIN]


@njit(cache=True)
def action_reason(obs, a, rules, tmp):
    """Is action ``a`` legal for the player whose observation is ``obs``? R_OK or the code of
    the rule that refuses it (``sim.encoding.explain``). ``tmp``: int64[TMP_SIZE] scratch."""
    if a < 0 or a >= N_ACTIONS:
        return R_BAD_ACTION
    kind = ACTION_TABLE[a, AC_TYPE]
    slot = ACTION_TABLE[a, AC_SLOT]
    phase = obs[OB_PHASE]
    hand = ob_hand(obs)
    if kind == AT_LAY_THREES or kind == AT_KEEP_THREE:
        if phase != PH_THREES:
            return R_WRONG_PHASE
        if kind == AT_KEEP_THREE:
            if hand[slot] < 1:
                return R_NOT_HELD
            if obs[OB_OPENED] == 1 or rules[RS_SPECIAL_HANDS] != SPECIALS_ON:
                return R_KEEP_THREE  # DEAL-5
        return R_OK
    if kind == AT_DRAW:
        return R_OK if phase == PH_DRAW else R_WRONG_PHASE
    if kind == AT_TAKE_PILE:
        if phase != PH_DRAW:
            return R_WRONG_PHASE
        r = pile_reason(
            hand,
            ob_melds(obs),
            0,
            obs[OB_PILE_COUNTS : OB_PILE_COUNTS + N_KINDS],
            obs[OB_PILE_TOP],
            obs[OB_OPENED] == 1,
            obs[OB_OPEN_MIN],
            rules,
        )  # PILE-1/2
        return r
    if phase != PH_PLAY:
        return R_WRONG_PHASE
    if kind == AT_DECLARE:
        if obs[OB_MELDED] == 1:
            return R_SPECIAL_NOT_FIRST_MELD  # SPECIAL-1: the first and only meld
        return special_reason(hand, obs[OB_OPENED] == 1, obs[OB_DREW_STOCK] == 1, rules)
    if kind == AT_DISCARD:
        if hand[slot] < 1:
            return R_NOT_HELD
        if obs[OB_OPENING_TURN] == 1 and obs[OB_MELDED] == 1:
            r = opening_reason(
                ob_pending(obs), ob_melds(obs), 0, obs[OB_PILE_KIND], obs[OB_OPEN_MIN]
            )
            if r != R_OK:
                return r  # OPEN-1..4: the turn's melds must be a valid opening
        total = 0
        for k in range(N_KINDS):
            total += hand[k]
        if total == 1:
            r = discard_reason(hand, slot, ob_melds(obs), obs[OB_PILE_N])
            if r != R_OK:
                return r  # DISCARD-1 (a lone three)
            if obs[OB_MELDED] == 1 and bonus_owed(obs):
                return R_OK  # OUT-2: going out if OUT-1 allows, else bonus cards (OPEN-5)
            return out_reason(ob_melds(obs), 0)  # OUT-1: the last card goes out
        return discard_reason(hand, slot, ob_melds(obs), obs[OB_PILE_N])  # DISCARD-1..3
    if kind == AT_MELD:
        return _meld_reason_obs(
            obs,
            slot,
            ACTION_TABLE[a, AC_NAT],
            ACTION_TABLE[a, AC_TWO],
            ACTION_TABLE[a, AC_JOKER],
            rules,
            tmp,
            True,
            True,
        )
    return R_BAD_ACTION


#: the engine's opening-plan cache (``check_action``): valid flag, the aside total and the hand
#: it was made for, then the remaining plan[N_KINDS, N_MELD_COLS]
PC_VALID, PC_ASIDE, PC_HAND = 0, 1, 2
PC_PLAN = PC_HAND + N_KINDS
PC_SIZE = PC_PLAN + N_KINDS * N_MELD_COLS


@njit(cache=True)
def _aside_of(obs):
    n = 0
    for k in range(N_KINDS):
        n += obs[OB_ASIDE + k]
    return n


@njit(cache=True)
def check_action(obs, a, rules, tmp, cache):
    """``action_reason`` for the engine's check of a policy's proposal, with the same answer,
    made cheaper in an opening turn (OPEN-1..4): after a meld operation passes, the opening
    plan the search found from the position it leaves is kept in ``cache`` (int64[PC_SIZE]).
    The next operation, if part of that plan (each of its naturals, twos and jokers within the
    plan's for the slot) on the very hand the plan was made for, leaves the rest of the plan
    available, so the opening is still completable without searching again (the rest of the
    operation's rules are judged in full). Anything else clears the cache."""
    valid = cache[PC_VALID] == 1
    cache[PC_VALID] = 0
    if a < 0 or a >= N_ACTIONS or ACTION_TABLE[a, AC_TYPE] != AT_MELD:
        return action_reason(obs, a, rules, tmp)
    if obs[OB_PHASE] != PH_PLAY or obs[OB_OPENING_TURN] != 1:
        return action_reason(obs, a, rules, tmp)
    slot = ACTION_TABLE[a, AC_SLOT]
    nat = ACTION_TABLE[a, AC_NAT]
    two = ACTION_TABLE[a, AC_TWO]
    joker = ACTION_TABLE[a, AC_JOKER]
    plan = cache[PC_PLAN : PC_PLAN + N_KINDS * N_MELD_COLS]
    base = slot * N_MELD_COLS
    if valid and cache[PC_ASIDE] == _aside_of(obs):
        same = True
        for k in range(N_KINDS):
            if cache[PC_HAND + k] != obs[OB_HAND + k]:
                same = False
                break
        in_plan = nat <= plan[base + NATURALS] and two <= plan[base + TWOS]
        in_plan = in_plan and joker <= plan[base + JOKERS]
        if same and in_plan:
            r = _meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, False)
            if r == R_OK:
                _keep_plan(obs, slot, nat, two, joker, cache)
                plan[base + NATURALS] -= nat
                plan[base + TWOS] -= two
                plan[base + JOKERS] -= joker
            return r
    r = action_reason(obs, a, rules, tmp)
    if r == R_OK:
        # _meld_reason_obs left the plan from the position after the operation in tmp
        pw = N_KINDS * N_MELD_COLS
        start = 2 * N_KINDS + N_TEAMS * N_KINDS * N_MELD_COLS + pw
        for i in range(pw):
            plan[i] = tmp[start + i]
        _keep_plan(obs, slot, nat, two, joker, cache)
    return r


@njit(cache=True)
def _keep_plan(obs, slot, nat, two, joker, cache):
    """Mark the cache valid for the hand the operation leaves (``check_action``)."""
    for k in range(N_KINDS):
        cache[PC_HAND + k] = obs[OB_HAND + k]
    if slot != WILD_MELD:
        cache[PC_HAND + slot] -= nat
    cache[PC_HAND + TWO] -= two
    cache[PC_HAND + JOKER] -= joker
    cache[PC_ASIDE] = _aside_of(obs)
    cache[PC_VALID] = 1


@njit(cache=True)
def forced_action(obs):
    """The only legal action, when the position leaves no choice, else -1: a draw when the pile
    cannot be taken for lack of a pile, of a natural top card or of a pair of it (PILE-1/2).
    The engine applies it without asking the policy (the step API offers it as the one legal
    action)."""
    if obs[OB_PHASE] != PH_DRAW:
        return -1
    top = obs[OB_PILE_TOP]
    if obs[OB_PILE_N] == 0 or top < FIRST_NATURAL or obs[OB_HAND + top] < 2:
        return A_DRAW
    return -1


@njit(cache=True)
def legal_actions(obs, rules, out, tmp):
    """Write the legal action ids for ``obs`` into ``out`` in increasing order; return how
    many. Filters the fixed action table with ``action_reason`` (the one validator)."""
    n = 0
    phase = obs[OB_PHASE]
    hand = ob_hand(obs)
    if phase == PH_THREES:
        for a in (A_LAY_THREES, A_KEEP_RED_THREE, A_KEEP_BLACK_THREE):
            if action_reason(obs, a, rules, tmp) == R_OK:
                out[n] = a
                n += 1
        return n
    if phase == PH_DRAW:
        out[n] = A_DRAW
        n += 1
        if pile_may_open(obs, rules, tmp) and action_reason(obs, A_TAKE_PILE, rules, tmp) == R_OK:
            out[n] = A_TAKE_PILE
            n += 1
        return n
    if phase != PH_PLAY:
        return 0
    if action_reason(obs, A_DECLARE, rules, tmp) == R_OK:
        out[n] = A_DECLARE
        n += 1
    for k in range(N_KINDS):
        if hand[k] > 0 and action_reason(obs, A_DISCARD + k, rules, tmp) == R_OK:
            out[n] = A_DISCARD + k
            n += 1
    if obs[OB_OPENING_TURN] == 1 and not opening_possible(obs, rules, tmp):
        return n  # OPEN-1: no meld can be part of a valid opening
    melds = ob_melds(obs)
    for two in range(hand[TWO] + 1):
        for joker in range(min(hand[JOKER], MAX_WILD_MELD_JOKERS) + 1):
            if two + joker < 1 or two + joker > CANASTA:
                continue
            if _meld_reason_obs(obs, WILD_MELD, 0, two, joker, rules, tmp) == R_OK:
                out[n] = MELD_ACTION[WILD_MELD, 0, two, joker]
                n += 1
    for slot in range(FIRST_NATURAL, N_KINDS):
        if hand[slot] == 0 and meld_size(melds, 0, slot) == 0:
            continue
        for nat in range(min(hand[slot], CANASTA) + 1):
            for two in range(min(hand[TWO], MAX_OP_WILDS) + 1):
                for joker in range(min(hand[JOKER], MAX_OP_WILDS - two) + 1):
                    a = MELD_ACTION[slot, nat, two, joker]
                    if a < 0:
                        continue
                    if _meld_reason_obs(obs, slot, nat, two, joker, rules, tmp) == R_OK:
                        out[n] = a
                        n += 1
    return n


# ---------------------------------------------------------------------------------------
# Invariants (debug mode) and the end of a hand
# ---------------------------------------------------------------------------------------


@njit(cache=True)
def check_invariants(st, rules, tmp):
    """Debug mode: every card accounted for once, every meld legal, the pile consistent."""
    total = tmp[0:N_KINDS]
    total[:] = 0
    hands = st_hands(st)
    melds = st_melds(st)
    for p in range(N_PLAYERS):
        for k in range(N_KINDS):
            if hands[p, k] < 0:
                return INV_NEGATIVE
            total[k] += hands[p, k]
    for t in range(N_TEAMS):
        for s in range(N_KINDS):
            if melds[t, s, NATURALS] < 0 or melds[t, s, TWOS] < 0 or melds[t, s, JOKERS] < 0:
                return INV_NEGATIVE
            total[s] += melds[t, s, NATURALS]
            total[TWO] += melds[t, s, TWOS]
            total[JOKER] += melds[t, s, JOKERS]
        total[RED_THREE] += st[ST_THREES + 2 * t]
        total[BLACK_THREE] += st[ST_THREES + 2 * t + 1]
    for i in range(st[ST_STOCK_N]):
        total[CARD_KIND[st[ST_STOCK + i]]] += 1
    pc = tmp[N_KINDS : 2 * N_KINDS]
    pc[:] = 0
    for i in range(st[ST_PILE_N]):
        pc[st[ST_PILE + i]] += 1
    for k in range(N_KINDS):
        if pc[k] != st[ST_PILE_COUNTS + k]:
            return INV_PILE
        total[k] += pc[k] + st[ST_ASIDE + k]
    for k in range(N_KINDS):
        if total[k] != KIND_COPIES[k]:
            return INV_CARDS
    empty = tmp[2 * N_KINDS : 2 * N_KINDS + N_TEAMS * N_KINDS * N_MELD_COLS].reshape(
        (N_TEAMS, N_KINDS, N_MELD_COLS)
    )
    empty[:] = 0
    for t in range(N_TEAMS):
        for s in range(N_KINDS):
            size = melds[t, s, NATURALS] + melds[t, s, TWOS] + melds[t, s, JOKERS]
            if size == 0:
                continue
            if s != WILD_MELD and s < FIRST_NATURAL:
                return INV_MELD
            nat, two, joker = melds[t, s, NATURALS], melds[t, s, TWOS], melds[t, s, JOKERS]
            if size > CANASTA and rules[RS_ALLOW_LONG_MELD_GOING_OUT] == 1:
                # MELD-2 variant: wilds beyond 7 by a player going out; judge the first seven
                extra = size - CANASTA
                cut = min(extra, two)
                two -= cut
                joker -= extra - cut
                if joker < 0:
                    return INV_MELD
            r = meld_reason(empty, t, s, nat, two, joker, True, True, rules)
            if r != R_OK:
                return INV_MELD
    return INV_OK


@njit(cache=True)
def score_hand(st, rules, items):
    """SCORE-1..8, OUT-3: fill items[team, N_SCORE_ITEMS] for both teams."""
    hands = st_hands(st)
    melds = st_melds(st)
    threes = st_threes(st)
    pair = np.empty((2, N_KINDS), dtype=np.int64)
    for t in range(N_TEAMS):
        pair[0] = hands[t]
        pair[1] = hands[t + 2]
        special = st[ST_SPECIAL] if st[ST_SPECIAL_TEAM] == t else SPECIAL_NONE
        score_team(melds[t], threes[t], pair, st[ST_OUT_TEAM] == t, special, rules, items[t])
