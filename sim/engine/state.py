"""The engine's state transitions: deal, draws, threes, turns, actions and the hand's score.

A hand's whole state is one int64 array (layout ``STATE_FIELDS`` in ``sim.encoding``, named
views in ``sim.engine.views``). Every rule check goes through the rules core
(``sim.legality``, ``sim.special``, ``sim.scoring``); this module only sequences a hand:

    start of turn -- threes laid down and replaced (DEAL-4), or the keep decision (DEAL-5)
    draw          -- stock or pile (TURN-1, PILE-*); empty stock ends the hand (END-1)
    play          -- meld operations (MELD-*, OPEN-*), a special hand (SPECIAL-1), or the
                     discard that ends the turn (DISCARD-*), going out with the last card (OUT-*)
    after discard -- bonus cards for the opener (OPEN-5), then the next player (TURN-1)

``apply_action`` trusts its action: whether it is legal is judged from the acting player's
observation (``sim.engine.judge``) before it is applied.
"""

from __future__ import annotations

from numba import njit

from sim import encoding as E
from sim.engine.views import (
    add_operation,
    st_aside_total,
    st_hands,
    st_melds,
    st_pending,
    st_threes,
    take_operation,
)
from sim.legality import meld_size, opening_min_state, opening_reason, out_reason
from sim.scoring import score_team
from sim.special import classify_special

__all__ = ["apply_action", "deal", "end_hand", "lay_threes", "may_keep_three"]


@njit(cache=True, _nrt=False)
def clear_state(st):
    """An empty state: no cards anywhere, no kept three, no meld started, no team out or
    declaring (the -1 fields of ``STATE_FIELDS``)."""
    st[:] = 0
    for p in range(E.N_PLAYERS):
        st[E.ST_KEPT + p] = -1
    for i in range(E.N_TEAMS * 3):
        st[E.ST_STARTED + i] = -1
        st[E.ST_STARTED_STOCK + i] = -1
    for i in range(E.N_TEAMS * 2):
        st[E.ST_STARTED_HELD + i] = -1
    st[E.ST_OUT_TEAM] = -1
    st[E.ST_SPECIAL_TEAM] = -1


@njit(cache=True, _nrt=False)
def _log(log, event, player, a, b):
    """Append an event to ``log`` (log[0] = count) if there is room; a 1-word log is off."""
    n = log[0]
    pos = 1 + n * E.EVENT_WIDTH
    if pos + E.EVENT_WIDTH <= log.shape[0]:
        log[pos] = event
        log[pos + 1] = player
        log[pos + 2] = a
        log[pos + 3] = b
        log[0] = n + 1


@njit(cache=True, _nrt=False)
def deal(st, deck, first_player, score0, score1, rules, log):
    """DEAL-1/2: 13 cards to each player from ``deck`` (108 card ids, top of the packet
    first), the rest is the stock (its top is ``deck[-1]``); the pile starts empty. Then the
    first player's turn begins. The hand is hand 1 of its game (OPEN-1: ``deal_hand``)."""
    deal_hand(st, deck, first_player, score0, score1, 1, rules, log)


@njit(cache=True, _nrt=False)
def deal_hand(st, deck, first_player, score0, score1, hand_number, rules, log):
    """``deal`` for hand ``hand_number`` (1-based) of a game: OPEN-1 under
    ``opening_minimum = "hand"`` reads it; the opening's rules are copied into the state
    (``ST_OPEN_RULES``: OPEN-1/2 variants, seen by the players)."""
    clear_state(st)
    st[E.ST_HAND_NUMBER] = hand_number
    st[E.ST_OPEN_BY] = rules[E.RS_OPENING_MINIMUM]
    st[E.ST_OPEN_WILD] = rules[E.RS_OPENING_WILD]
    hands = st_hands(st)
    for p in range(E.N_PLAYERS):
        for i in range(E.HAND_SIZE):
            hands[p, E.CARD_KIND[deck[p * E.HAND_SIZE + i]]] += 1
    n = E.N_CARDS - E.N_PLAYERS * E.HAND_SIZE
    for i in range(n):
        st[E.ST_STOCK + i] = deck[E.N_PLAYERS * E.HAND_SIZE + i]
    st[E.ST_STOCK_N] = n
    st[E.ST_SCORES] = score0
    st[E.ST_SCORES + 1] = score1
    st[E.ST_FIRST_PLAYER] = first_player
    st[E.ST_PLAYER] = first_player
    st[E.ST_TURN] = -1
    begin_turn(st, rules, log)


@njit(cache=True, _nrt=False)
def end_hand(st, reason, log):
    """END-1: the hand is over."""
    st[E.ST_PHASE] = E.PH_OVER
    st[E.ST_END_REASON] = reason
    _log(log, E.EV_END, st[E.ST_PLAYER], reason, 0)


@njit(cache=True, _nrt=False)
def _draw_card(st, p, event, log):
    """Move the stock's top card to player ``p``'s hand. DEAL-3: the turn card is the 9th
    from the bottom. END-1: if it was the last card and a three, the hand ends at once and the
    three stays in hand. Returns the kind drawn, or -1 if the stock was empty."""
    n = st[E.ST_STOCK_N]
    if n == 0:
        return -1
    n -= 1
    kind = E.CARD_KIND[st[E.ST_STOCK + n]]
    st[E.ST_STOCK_N] = n
    st[E.ST_HANDS + p * E.N_KINDS + kind] += 1
    if n <= E.TURN_CARD_FROM_BOTTOM - 1:
        st[E.ST_TURN_CARD_DRAWN] = 1  # DEAL-3
    _log(log, event, p, kind, st[E.ST_STOCK + n])
    if n == 0 and (kind == E.RED_THREE or kind == E.BLACK_THREE):
        end_hand(st, E.END_STOCK, log)  # END-1: the last stock card is a three
    return kind


@njit(cache=True, _nrt=False)
def may_keep_three(st, p, rules):
    """DEAL-5: a player may keep one three (toward a Straight) while the team has not melded
    and holds none kept yet; only while the list in force has a hand holding a three
    (SPECIAL-7/9: the tournament and cla lists' Straight)."""
    team = p % E.N_TEAMS
    return (
        st[E.ST_OPENED + team] == 0
        and st[E.ST_KEPT + p] < 0
        and rules[E.RS_CAT_MIN_KINDS3] <= E.SPECIAL_HAND_SIZE
    )


@njit(cache=True, _nrt=False)
def lay_threes(st, p, log):
    """DEAL-4: lay every three except the kept one (DEAL-5) face up and replace each from the
    stock. Replacement threes are left in hand for ``_settle_threes`` to handle."""
    team = p % E.N_TEAMS
    kept = st[E.ST_KEPT + p]
    laid = 0
    for kind in (E.RED_THREE, E.BLACK_THREE):
        n = st[E.ST_HANDS + p * E.N_KINDS + kind] - (1 if kind == kept else 0)
        if n > 0:
            st[E.ST_HANDS + p * E.N_KINDS + kind] -= n
            _forget_known(st, p, kind, n)
            st[E.ST_THREES + team * 2 + kind - E.RED_THREE] += n
            laid += n
            for _ in range(n):
                _log(log, E.EV_LAY_THREE, p, kind, 0)
    for _ in range(laid):
        if _draw_card(st, p, E.EV_REPLACE, log) < 0 or st[E.ST_PHASE] == E.PH_OVER:
            break


@njit(cache=True, _nrt=False)
def _settle_threes(st, rules, log, resume):
    """DEAL-4/5 for the current player: lay down and replace threes until none is left to lay,
    stopping at a keep-or-lay decision (PH_THREES) when DEAL-5 offers one; then go on with
    phase ``resume``."""
    p = st[E.ST_PLAYER]
    team = p % E.N_TEAMS
    while st[E.ST_PHASE] != E.PH_OVER:
        kept = st[E.ST_KEPT + p]
        if kept >= 0 and st[E.ST_OPENED + team] == 1:
            st[E.ST_KEPT + p] = -1  # DEAL-5: once the team has melded the kept three is laid
            kept = -1
        held = (
            st[E.ST_HANDS + p * E.N_KINDS + E.RED_THREE]
            + st[E.ST_HANDS + p * E.N_KINDS + E.BLACK_THREE]
        )
        if held - (1 if kept >= 0 else 0) <= 0:
            st[E.ST_PHASE] = resume
            return
        if may_keep_three(st, p, rules):
            st[E.ST_PHASE] = E.PH_THREES
            st[E.ST_RESUME] = resume
            return
        lay_threes(st, p, log)


@njit(cache=True, _nrt=False)
def begin_turn(st, rules, log):
    """TURN-1: reset the turn's flags for the current player, then DEAL-4/5."""
    st[E.ST_TURN] += 1
    if st[E.ST_TURN] >= E.MAX_TURNS:
        end_hand(st, E.END_LIMIT, log)
        return
    team = st[E.ST_PLAYER] % E.N_TEAMS
    st[E.ST_DREW_STOCK] = 0
    st[E.ST_TOOK_PILE] = 0
    st[E.ST_MELDED] = 0
    st[E.ST_PILE_KIND] = -1
    st[E.ST_OPENING_TURN] = 1 - st[E.ST_OPENED + team]
    for i in range(E.N_KINDS * E.N_MELD_COLS):
        st[E.ST_PENDING + i] = 0
    st[E.ST_PHASE] = E.PH_DRAW
    _settle_threes(st, rules, log, E.PH_DRAW)


@njit(cache=True, _nrt=False)
def started_col(slot):
    """The column of ``started[team, :]`` for a meld of ``slot`` (STARTED_SLOTS), else -1."""
    for col in range(len(E.STARTED_SLOTS)):
        if E.STARTED_SLOTS[col] == slot:
            return col
    return -1


@njit(cache=True, _nrt=False)
def _note_started_by(st, p, slot):
    """Records: player ``p`` starts its team's meld of ``slot`` now (called before the cards
    leave the hand): the turn, for sevens and aces how many of the rank ``p`` holds, and for
    sevens, aces and wilds the stock size."""
    team = p % E.N_TEAMS
    col = started_col(slot)
    if col < 0 or st[E.ST_STARTED + team * 3 + col] >= 0:
        return
    st[E.ST_STARTED_STOCK + team * 3 + col] = st[E.ST_STOCK_N]
    if col != E.STARTED_WILD:
        st[E.ST_STARTED_HELD + team * 2 + col] = st[E.ST_HANDS + p * E.N_KINDS + slot]
    st[E.ST_STARTED + team * 3 + col] = st[E.ST_TURN]


@njit(cache=True, _nrt=False)
def _join_aside(st, p, log):
    """PILE-1: the rest of a taken pile joins the hand."""
    moved = 0
    for k in range(E.N_KINDS):
        c = st[E.ST_ASIDE + k]
        if c > 0:
            st[E.ST_HANDS + p * E.N_KINDS + k] += c
            st[E.ST_KNOWN + p * E.N_KINDS + k] += c  # seen by all as it was taken
            st[E.ST_ASIDE + k] = 0
            moved += c
    if moved > 0:
        _log(log, E.EV_PILE_JOINS, p, moved, 0)


@njit(cache=True, _nrt=False)
def _forget_known(st, p, kind, n):
    """The public card memory after player ``p`` shows ``n`` cards of ``kind`` (melded,
    discarded, laid): the table cannot tell which copies left, so as many known ones are
    taken as there are (a lower bound of the hand stays one)."""
    at = E.ST_KNOWN + p * E.N_KINDS + kind
    st[at] = max(st[at] - n, 0)


@njit(cache=True, _nrt=False)
def apply_action(st, a, rules, log):
    """Apply action ``a`` (already judged legal) for the current player."""
    p = st[E.ST_PLAYER]
    team = p % E.N_TEAMS
    kind = E.ACTION_TABLE[a, E.AC_TYPE]
    slot = E.ACTION_TABLE[a, E.AC_SLOT]
    top_kind = st[E.ST_PILE + st[E.ST_PILE_N] - 1] if st[E.ST_PILE_N] > 0 else -1
    _log(log, E.EV_ACTION, p, a, top_kind)
    hands = st_hands(st)
    melds = st_melds(st)
    if kind == E.AT_LAY_THREES or kind == E.AT_KEEP_THREE:
        if kind == E.AT_KEEP_THREE:
            st[E.ST_KEPT + p] = slot  # DEAL-5
        lay_threes(st, p, log)
        if st[E.ST_PHASE] != E.PH_OVER:
            st[E.ST_PHASE] = st[E.ST_RESUME]
            _settle_threes(st, rules, log, st[E.ST_RESUME])
    elif kind == E.AT_DRAW:
        if st[E.ST_STOCK_N] == 0:
            end_hand(st, E.END_STOCK, log)  # END-1: must draw from an empty stock
            return
        st[E.ST_DREW_STOCK] = 1
        _draw_card(st, p, E.EV_DRAW, log)
        if st[E.ST_PHASE] != E.PH_OVER:
            st[E.ST_PHASE] = E.PH_PLAY
            _settle_threes(st, rules, log, E.PH_PLAY)  # a drawn three is laid and replaced
    elif kind == E.AT_TAKE_PILE:
        top = st[E.ST_PILE + st[E.ST_PILE_N] - 1]
        # PILE-1: the pair and the top card are melded at once
        if meld_size(melds, team, top) == 0:
            _note_started_by(st, p, top)
        hands[p, top] -= 2
        _forget_known(st, p, top, 2)
        melds[team, top, E.NATURALS] += 3
        st[E.ST_PENDING + top * E.N_MELD_COLS + E.NATURALS] += 2  # from hand (OPEN-3: not the top)
        st[E.ST_PILE_KIND] = top
        st[E.ST_TOOK_PILE] = 1
        st[E.ST_MELDED] = 1
        for k in range(E.N_KINDS):
            st[E.ST_ASIDE + k] += st[E.ST_PILE_COUNTS + k]
            st[E.ST_PILE_COUNTS + k] = 0
        st[E.ST_ASIDE + top] -= 1
        st[E.ST_PILE_N] = 0
        if st[E.ST_OPENED + team] == 1:
            _join_aside(st, p, log)
        st[E.ST_PHASE] = E.PH_PLAY
    elif kind == E.AT_MELD:
        nat = E.ACTION_TABLE[a, E.AC_NAT]
        two = E.ACTION_TABLE[a, E.AC_TWO]
        joker = E.ACTION_TABLE[a, E.AC_JOKER]
        if meld_size(melds, team, slot) == 0:
            _note_started_by(st, p, slot)
        take_operation(hands[p], slot, nat, two, joker)
        if slot != E.WILD_MELD:
            _forget_known(st, p, slot, nat)
        _forget_known(st, p, E.TWO, two)
        _forget_known(st, p, E.JOKER, joker)
        add_operation(melds[team], slot, nat, two, joker, 1)  # the wild meld: nat is 0
        st[E.ST_MELDED] = 1
        if st[E.ST_OPENING_TURN] == 1:
            pending = st_pending(st)
            add_operation(pending, slot, nat, two, joker, 1)
            if st_aside_total(st) > 0:
                mc = opening_min_state(st, team)
                r = opening_reason(pending, melds, team, st[E.ST_PILE_KIND], mc, st[E.ST_OPEN_WILD])
                if r == E.R_OK:
                    _join_aside(st, p, log)  # PILE-1/2: the opening stands
    elif kind == E.AT_DECLARE:
        st[E.ST_SPECIAL] = classify_special(hands[p], rules)  # SPECIAL-1: the hand ends
        st[E.ST_SPECIAL_TEAM] = team
        end_hand(st, E.END_SPECIAL, log)
    elif kind == E.AT_DISCARD:
        hands[p, slot] -= 1
        _forget_known(st, p, slot, 1)
        st[E.ST_PILE + st[E.ST_PILE_N]] = slot
        st[E.ST_PILE_N] += 1
        st[E.ST_PILE_COUNTS + slot] += 1
        st[E.ST_DISCARDS + slot] += 1
        bonus = 0
        if st[E.ST_OPENING_TURN] == 1 and st[E.ST_MELDED] == 1:
            # OPEN-5: the opener takes bonus cards, not after the pile, not past the turn card
            if st[E.ST_TOOK_PILE] == 0 and st[E.ST_TURN_CARD_DRAWN] == 0:
                bonus = 3 if st[E.ST_OPENED + 1 - team] == 1 else 4
            st[E.ST_OPENED + team] = 1
        left = 0
        for k in range(E.N_KINDS):
            left += hands[p, k]
        if left == 0 and (bonus == 0 or out_reason(melds, team) == E.R_OK):
            # OUT-2: the last card discarded goes out; a player owed bonus cards who may not
            # go out (OUT-1) discarded the one card OUT-2 asks of them and takes the bonus
            st[E.ST_OUT_TEAM] = team
            end_hand(st, E.END_OUT, log)
            return
        for _ in range(bonus):
            if _draw_card(st, p, E.EV_BONUS, log) < 0:
                break
            st[E.ST_BONUS + team] += 1
            if st[E.ST_PHASE] == E.PH_OVER:
                return
        st[E.ST_PLAYER] = (p + 1) % E.N_PLAYERS
        begin_turn(st, rules, log)


@njit(cache=True, inline="always")
def score_hand(st, rules, items):
    """SCORE-1..8, OUT-3: fill items[team, N_SCORE_ITEMS] for both teams."""
    hands = st_hands(st)
    melds = st_melds(st)
    threes = st_threes(st)
    for t in range(E.N_TEAMS):
        # the team's two hands (seats t and t + 2) as a view: nothing allocated, so the chunk
        # kernels' end of a hand runs without reference counting (finish_hand)
        pair = hands[t :: E.N_TEAMS]
        special = st[E.ST_SPECIAL] if st[E.ST_SPECIAL_TEAM] == t else E.SPECIAL_NONE
        score_team(melds[t], threes[t], pair, st[E.ST_OUT_TEAM] == t, special, rules, items[t])
