"""OPEN-1..4 with MELD-1..9 and OUT-1/2: the opening search, the largest count an initial
meld can reach from a position, with its plan.

A dynamic programme over the natural ranks (``_opening_search_in``); ``opening_path_count``
checks one given plan as a path of it, ``opening_op_counts`` answers for every meld operation of
an opening turn at once. Its rank step (``_rank_step``) restates MELD-1/2/4/6 and OPEN-4 on one
rank's totals; the whole search is checked against the slow twin (tests/twins/legality_twin.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import encoding as E
from sim.legality.melds import is_dead

__all__ = ["opening_path_count", "opening_search", "opening_search_alloc"]

_VALUE = E.KIND_VALUE

# State of the opening search, one axis per quantity the validity of a plan depends on.
_F = 2  # OPEN-2 natural meld found (0/1)
_L = 3  # naturals left in hand: 0, 1, 2+ (OUT-2: a card must remain to discard)
_C = 3  # canastas: 0, 1, 2+ (OUT-1 if the opening goes out)
_B = 2  # an unfinished natural sevens or aces meld (OUT-1)
_SUB = _F * _L * _C * _B
_NO = -1

#: ``opening_search(relax=...)`` bits: search as if one rule did not hold, only to name the
#: rule that refuses an opening (``opening_refusal``); never used to judge legality
RELAX_OPEN_2 = 1  #: no natural meld of 3+ needed
RELAX_OPEN_4 = 2  #: mixed canastas allowed
RELAX_LEAVE = 4  #: any number of cards may stay in hand (OUT-1/2 not judged)


@njit(cache=True, inline="always")
def _encode(p, f, left, cc, bad):
    """Index of an opening-search state (wilds placed, OPEN-2 flag, left, canastas, bad)."""
    return (((p * _F + f) * _L + left) * _C + cc) * _B + bad


@njit(cache=True, inline="always")
def _decode(s):
    """Inverse of ``_encode``."""
    return s // _SUB, s // (_B * _C * _L) % _F, s // (_B * _C) % _L, s // _B % _C, s % _B


@njit(cache=True, _nrt=False)
def _wild_points(used, jokers):
    """Points of ``used`` wild cards from a hand holding ``jokers`` jokers, jokers first."""
    j = min(used, jokers)
    return j * _VALUE[E.JOKER] + (used - j) * _VALUE[E.TWO]


_N_LAYERS = E.N_KINDS - E.FIRST_NATURAL
#: words of the search's tables for any hand of up to 7 wild cards (back pointers, 2 layers,
#: 2 lists: ``search_words``), the head of the rules core's work area (``sim.legality.pile``)
SEARCH_TABLE_WORDS = (_N_LAYERS + 5) * E.OPEN_SEARCH_STATES
assert _SUB * 13 == E.OPEN_SEARCH_STATES


@njit(cache=True, inline="always")
def _rank_step(kind, p, f, left, cc, bad, a, x, c, base_n, base_w, top, maxw, relax):
    """One choice of the opening search on natural rank ``kind`` from the state (p, f, left,
    cc, bad): ``a`` naturals of the ``c`` held and ``x`` wild cards from hand, on top of the
    ``base_n`` naturals and ``base_w`` wilds already melded this turn (``top``: the pile's top
    card is of this rank). The next state, or -1 if a rule refuses the choice (PILE-1, MELD-1/2/
    4/6, OPEN-4 unless relaxed; OPEN-2's flag and the unfinished sevens/aces flag kept).
    Shared by ``opening_search`` and both passes of ``opening_op_counts``."""
    n = base_n + a
    big_n = n + top
    if top == 1 and n < 2:
        return -1  # PILE-1: the pair comes from hand
    w = base_w + x
    size = big_n + w
    if size == 0:
        pass  # no meld of this rank
    elif size < E.MIN_MELD:
        return -1  # MELD-1
    elif w > 0:
        if big_n < 2 or w > maxw or kind == E.SEVEN:
            return -1  # MELD-4, MELD-6 (aces may take wilds: MELD-7)
        if size > E.CANASTA or (size == E.CANASTA and not relax & RELAX_OPEN_4):
            return -1  # MELD-2, OPEN-4
    elif size > E.CANASTA:
        return -1  # MELD-2
    nf = 1 if (f == 1 or (n >= E.MIN_MELD and w == 0)) else 0  # OPEN-2
    ncc = min(cc + (1 if size >= E.CANASTA else 0), _C - 1)
    nbad = bad
    if 0 < size < E.CANASTA and (kind == E.SEVEN or (kind == E.ACE and w == 0)):
        nbad = 1  # an unfinished sevens or natural aces meld (OUT-1 below)
    return _encode(p + x, nf, min(left + c - a, _L - 1), ncc, nbad)


@njit(cache=True, inline="always")
def _end_ok(p, left, cc, bad, q, wilds, base_wm, extra, threes, bonus, relax):
    """The opening search's last step from a state (p, left, cc, bad) after the last rank:
    may ``q`` more wild cards go to the wild meld (MELD-1/2/8) and the hand left stand
    (OUT-1/2, unless relaxed)? Shared by ``opening_search`` and ``opening_op_counts``."""
    wm = base_wm + q
    if 0 < wm < E.MIN_MELD or wm > E.CANASTA:
        return False  # MELD-1, MELD-2
    if p > 0 and 0 < base_wm < E.CANASTA and wm < E.CANASTA:
        return False  # MELD-8: wilds elsewhere only once the started wild meld is done
    if relax & RELAX_LEAVE:
        return True
    left_total = left + (wilds - p - q) + extra
    if left_total == 0:
        return False  # OUT-2: nothing left to discard
    if left_total == 1 and threes == 0 and not bonus:
        # OUT-2: no card to hold, so discarding the last card goes out: OUT-1
        total_cc = cc + (1 if wm >= E.CANASTA else 0)
        if total_cc < 2 or bad == 1 or 0 < wm < E.CANASTA:
            return False
    return True


@njit(cache=True, inline="always")
def _hand_sizes(hand, rules):
    """What the searches read of the hand and rules: MELD-4's most wild cards in a mixed meld,
    the jokers, the wild cards and the threes held."""
    jokers = hand[E.JOKER]
    return (
        rules[E.RS_MAX_WILDS_MIXED],
        jokers,
        jokers + hand[E.TWO],
        hand[E.RED_THREE] + hand[E.BLACK_THREE],
    )


@njit(cache=True, inline="always")
def _rank_inputs(hand, pending, melds, pile_kind, kind):
    """One natural rank's inputs to a search layer: held, naturals and wilds melded this turn,
    1 if the pile's top card is of the rank (PILE-1), and whether it is dead (MELD-9: a dead
    rank stays in hand)."""
    base_n = pending[kind, E.NATURALS]
    base_w = pending[kind, E.TWOS] + pending[kind, E.JOKERS]
    top = 1 if kind == pile_kind else 0
    return hand[kind], base_n, base_w, top, is_dead(melds, kind)


@njit(cache=True, inline="always")
def _base_meld(f, wm, rules):
    """OPEN-2: does the opening hold its base meld, a natural meld of 3+ from hand (``f``) or,
    under the wild opening variant (``RS_OPENING_WILD``), a wild meld of ``wm`` >= 3 cards
    (all from hand: a team that has not opened has no wild meld before this turn)?"""
    return f == 1 or (rules[E.RS_OPENING_WILD] != 0 and wm >= E.MIN_MELD)


@njit(cache=True, inline="always")
def _pending_wild_points(pending):
    """OPEN-1: the points of the wild cards already melded this turn (the search's count
    includes them whatever it plans)."""
    points = 0
    for slot in range(E.N_KINDS):
        points += pending[slot, E.TWOS] * _VALUE[E.TWO] + pending[slot, E.JOKERS] * _VALUE[E.JOKER]
    return points


@njit(cache=True, inline="always")
def _rank_choices(kind, c, base_n, base_w, top, maxw, relax, dead, choices):
    """The choices (naturals a, wilds x) the opening search may make on rank ``kind``, in the
    order it tries them (a, then x, increasing), into ``choices``; their number. Whether
    ``_rank_step`` refuses a choice depends on the rank's counts alone, never on the state, and
    from the empty state it gives what the choice adds to any state: wild cards placed x,
    OPEN-2's natural meld, a canasta, an unfinished sevens or aces meld (flags and counts up to
    their caps, as ``_next_state`` adds them), naturals left c - a. Each is packed in a word,
    so the states try only the choices a rule allows. A dead rank (MELD-9) offers only (0, 0)."""
    n = 0
    for a in range(1 if dead else c + 1):
        for x in range(1 if dead else maxw + 1):
            ns = _rank_step(kind, 0, 0, 0, 0, 0, a, x, c, base_n, base_w, top, maxw, relax)
            if ns >= 0:
                _, df, _, dcc, dbad = _decode(ns)
                choices[n] = a | (x << 8) | (df << 16) | (dcc << 17) | (dbad << 18)
                n += 1
    return n


@njit(cache=True, inline="always")
def _next_state(p, f, left, cc, bad, c, ch):
    """``_rank_step`` from the state (p, f, left, cc, bad) for the choice ``ch`` of
    ``_rank_choices`` (a rank held ``c`` times)."""
    a, x = ch & 255, (ch >> 8) & 255
    return _encode(
        p + x,
        f | ((ch >> 16) & 1),
        min(left + c - a, _L - 1),
        min(cc + ((ch >> 17) & 1), _C - 1),
        bad | ((ch >> 18) & 1),
    )


@njit(cache=True, inline="always")
def _choice_next(state, c, wilds, ch):
    """A rank's choice ``ch`` from a state (``state``: ``_decode``'s fields, decoded once for
    all its choices): its naturals ``a`` and wild cards ``x``, and the state it leads to (-1 if
    the wild cards held do not allow it)."""
    p, f, left, cc, bad = state
    a, x = ch & 255, (ch >> 8) & 255
    if x > wilds - p:
        return a, x, -1
    return a, x, _next_state(p, f, left, cc, bad, c, ch)


@njit(cache=True, inline="always")
def _rank_relax(s, v, rank, choices, val, vo, lst, lo, n, back, bo):
    """One rank's step of the opening search from state ``s`` of value ``v``: each of the
    rank's ``choices`` (``rank``: its kind, cards in hand, naturals already on it, the wild
    cards held and the choices' count) that the wild cards allow leads to a state of the next
    layer, whose value (``val[vo + state]``) keeps the best; a state reached for the first
    time joins the layer's list (``lst[lo + n]``). ``bo >= 0``: the best step into each state
    is kept in ``back[bo + state]`` (a, x < 256). Returns the list's new length."""
    kind, c, base_n, wilds, n_ch = rank
    state = _decode(s)
    for j in range(n_ch):
        a, x, ns = _choice_next(state, c, wilds, choices[j])
        if ns < 0:
            continue
        value = v + (base_n + a) * _VALUE[kind]
        if value > val[vo + ns]:
            if val[vo + ns] == _NO:
                lst[lo + n] = ns
                n += 1
            val[vo + ns] = value
            if bo >= 0:
                back[bo + ns] = (s << 16) | (x << 8) | a
    return n


@njit(cache=True, _nrt=True)
def opening_search_alloc(hand, pending, melds, pile_kind, extra, rules, plan, bonus=False, relax=0):
    """``opening_search`` with its tables allocated here (callers without a work area)."""
    n_states = (hand[E.JOKER] + hand[E.TWO] + 1) * _SUB
    work = np.empty((_N_LAYERS + 5) * n_states, dtype=np.int64)
    return opening_search(hand, pending, melds, pile_kind, extra, rules, plan, bonus, relax, work)


@njit(cache=True, _nrt=False)
def _sort_small(a, n):
    """Sort ``a[:n]`` in place (insertion sort: a few dozen states)."""
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


@njit(cache=True, _nrt=False)
def search_words(hand, rules):
    """Words of the tables ``_opening_search_in`` needs for ``hand``: back pointers, two layers
    of values and of states, and one rank's choices."""
    n_states = (hand[E.JOKER] + hand[E.TWO] + 1) * _SUB
    return (_N_LAYERS + 5) * n_states + _choice_words(hand, rules)


@njit(cache=True, inline="always")
def _choice_words(hand, rules):
    """Words of one rank's choices (``_rank_choices``): at most (naturals held + 1) x
    (MELD-4's wild cards + 1)."""
    most = 0  # the most naturals of one rank held
    for k in range(E.FIRST_NATURAL, E.N_KINDS):
        most = max(most, hand[k])
    return (most + 1) * (rules[E.RS_MAX_WILDS_MIXED] + 1)


@njit(
    "int64(int64[::1], int64[:, ::1], int64[:, :, ::1], int64, int64, int64[::1], int64[:, ::1],"
    " boolean, int64, int64[::1])",
    cache=True,
    _nrt=False,  # every table is in ``work`` (search_words): no view of it is counted
)
def _opening_search_in(hand, pending, melds, pile_kind, extra, rules, plan, bonus, relax, work):
    """OPEN-1..4 with MELD-1..9 and OUT-1/2: the largest count an initial meld can reach.

    ``hand``: cards still in hand (the pile's top card not included); ``pending[slot, col]``:
    melds already made from hand this turn (the pickup pair included); ``melds``: the table
    (ranks dead by MELD-9 cannot be melded and stay in hand); ``pile_kind``: kind of
    the pile's top card being melded this turn, or -1; ``extra``: cards that join the hand once
    the opening stands (the rest of a taken pile). Fills ``plan[slot, col]`` with the further
    cards to meld and returns the count (points from hand, pending included), or -1 if no valid
    opening exists. A valid opening holds a natural meld of 3+ from hand (OPEN-2), no mixed
    canasta (OPEN-4), and leaves a card to discard and a card to hold, or goes out legally
    (OUT-1/2); ``bonus``: the player is owed bonus cards (OPEN-5), so the card to discard is
    enough (OUT-2). ``relax``: ``RELAX_*`` bits, for ``opening_refusal`` only. ``work``: int64
    of at least ``search_words`` words (``opening_search`` sees to it; ``E.SEARCH_WORK_SIZE``
    holds the tables of any hand of up to 7 wild cards).
    Exact: a dynamic programme over the natural ranks, wild cards placed jokers first. Only
    the states reached are visited, in increasing order (as a scan of every state would),
    so ties resolve the same way and the plan is that of the full table.
    """
    maxw, jokers, wilds, threes = _hand_sizes(hand, rules)
    n_states = (wilds + 1) * _SUB
    n_layers = _N_LAYERS
    n_choices = _choice_words(hand, rules)
    # back pointers (naturals a, wilds x, previous state s) packed in one word, row i + 1 for
    # layer i; written with every state reached, so only those are read (no clearing)
    back = work[: (n_layers + 1) * n_states]
    o = (n_layers + 1) * n_states
    cur_val, nxt_val = work[o : o + n_states], work[o + n_states : o + 2 * n_states]
    o += 2 * n_states
    cur_list, nxt_list = work[o : o + n_states], work[o + n_states : o + 2 * n_states]
    choices = work[o + 2 * n_states : o + 2 * n_states + n_choices]
    # the value tables are emptied once here; afterwards a layer empties only the states it
    # listed, so the next layer's table is empty again (a few states a layer, not the table)
    for j in range(n_states):
        cur_val[j] = _NO
        nxt_val[j] = _NO
    cur_list[0] = 0  # p=0 wilds placed, no natural meld, 0 naturals left, 0 canastas, not bad
    cur_val[0] = 0
    n_cur = 1
    for i in range(n_layers):
        kind = E.FIRST_NATURAL + i
        c, base_n, base_w, top, dead = _rank_inputs(hand, pending, melds, pile_kind, kind)
        row = (i + 1) * n_states
        if c == 0 and base_n == 0 and base_w == 0 and top == 0:
            # nothing of this rank in hand, melded this turn or on the pile: the only choice
            # (no cards; a meld of wild cards alone is MELD-1/4's) leaves every state as it
            # is, with its value (the loop below gives the same, slower)
            for idx in range(n_cur):
                s = cur_list[idx]
                back[row + s] = s << 16
            continue
        n_ch = _rank_choices(kind, c, base_n, base_w, top, maxw, relax, dead, choices)
        rank = (kind, c, base_n, wilds, n_ch)
        n_nxt = 0  # (nxt_val is empty: see above)
        for idx in range(n_cur):
            s = cur_list[idx]
            v = cur_val[s]
            n_nxt = _rank_relax(s, v, rank, choices, nxt_val, 0, nxt_list, 0, n_nxt, back, row)
        _sort_small(nxt_list, n_nxt)
        for idx in range(n_cur):
            cur_val[cur_list[idx]] = _NO  # empty for the layer after next
        cur_val, nxt_val = nxt_val, cur_val
        cur_list, nxt_list = nxt_list, cur_list
        n_cur = n_nxt
    # Combine with the wild meld (MELD-8) and judge what is left in hand (OUT-1/2).
    base_wm = pending[E.WILD_MELD, E.TWOS] + pending[E.WILD_MELD, E.JOKERS]
    pending_wilds = _pending_wild_points(pending)
    best, best_s, best_q = _NO, -1, 0
    wild_ok = rules[E.RS_OPENING_WILD] != 0 or (relax & RELAX_OPEN_2) != 0
    for idx in range(n_cur):
        s = cur_list[idx]
        p, f, left, cc, bad = _decode(s)
        if f == 0 and not wild_ok:
            continue  # OPEN-2
        for q in range(wilds - p + 1):
            if f == 0 and not relax & RELAX_OPEN_2 and not _base_meld(f, base_wm + q, rules):
                continue  # OPEN-2 wild opening: the wild meld of 3+ stands in
            if not _end_ok(p, left, cc, bad, q, wilds, base_wm, extra, threes, bonus, relax):
                continue
            value = cur_val[s] + pending_wilds + _wild_points(p + q, jokers)
            if value > best:
                best, best_s, best_q = value, s, q
    for slot in range(E.N_KINDS):
        for col in range(E.N_MELD_COLS):
            plan[slot, col] = 0
    if best == _NO:
        return -1
    # Rebuild the plan; jokers go to natural melds first, the rest to the wild meld.
    jokers_left = jokers
    s = best_s
    for i in range(n_layers, 0, -1):
        kind = E.FIRST_NATURAL + i - 1
        b = back[i * n_states + s]
        a, x = b & 255, (b >> 8) & 255
        plan[kind, E.NATURALS] = a
        j = min(x, jokers_left)
        plan[kind, E.JOKERS] = j
        plan[kind, E.TWOS] = x - j
        jokers_left -= j
        s = b >> 16
    j = min(best_q, jokers_left)
    plan[E.WILD_MELD, E.JOKERS] = j
    plan[E.WILD_MELD, E.TWOS] = best_q - j
    return best


@njit(cache=True, _nrt=False)
def opening_path_count(hand, pending, melds, pile_kind, extra, rules, path, bonus):
    """The count of the opening that ``path[slot, col]`` (further cards to meld, as the plan
    ``opening_search`` returns) completes from this position, if that search would reach
    it: every rank's choice (naturals a, wild cards x) one the search makes from the state the
    ranks before lead to (``_rank_step``, the same bounds on a and x), the wild meld's share
    and the hand left accepted (``_end_ok``), OPEN-2's natural meld found; else -1. Only the
    number of wild cards per meld counts, valued jokers first as the search values them. So a
    path's count is one the search compares, and ``opening_search`` returns at least it:
    a count here of at least the minimum proves the opening can be completed without
    searching (the engine checks a policy's plan this way, ``sim.engine.judge.check_action``;
    tested against the search at every opening-turn operation of real hands)."""
    maxw, jokers, wilds, threes = _hand_sizes(hand, rules)
    p, f, left, cc, bad = 0, 0, 0, 0, 0
    value = 0
    for i in range(_N_LAYERS):
        kind = E.FIRST_NATURAL + i
        c = hand[kind]
        a = path[kind, E.NATURALS]
        x = path[kind, E.TWOS] + path[kind, E.JOKERS]
        if path[kind, E.TWOS] < 0 or path[kind, E.JOKERS] < 0:
            return -1
        base_n = pending[kind, E.NATURALS]
        base_w = pending[kind, E.TWOS] + pending[kind, E.JOKERS]
        top = 1 if kind == pile_kind else 0
        if (c == 0 and base_n == 0 and base_w == 0 and top == 0) or is_dead(melds, kind):
            if a != 0 or x != 0:
                return -1  # the search offers such a rank nothing (MELD-9 for a dead one)
            if c == 0 and base_n == 0 and base_w == 0 and top == 0:
                continue  # the search's shortcut: state and value unchanged
        if a < 0 or a > c or x < 0 or x > min(maxw, wilds - p):
            return -1  # not one of the search's choices
        ns = _rank_step(kind, p, f, left, cc, bad, a, x, c, base_n, base_w, top, maxw, 0)
        if ns < 0:
            return -1
        value += (base_n + a) * _VALUE[kind]
        p, f, left, cc, bad = _decode(ns)
    q = path[E.WILD_MELD, E.TWOS] + path[E.WILD_MELD, E.JOKERS]
    if path[E.WILD_MELD, E.TWOS] < 0 or path[E.WILD_MELD, E.JOKERS] < 0 or not 0 <= q <= wilds - p:
        return -1
    if path[E.WILD_MELD, E.NATURALS] != 0:
        return -1  # the wild meld takes no natural (MELD-1)
    base_wm = pending[E.WILD_MELD, E.TWOS] + pending[E.WILD_MELD, E.JOKERS]
    if not _base_meld(f, base_wm + q, rules):
        return -1  # OPEN-2
    if not _end_ok(p, left, cc, bad, q, wilds, base_wm, extra, threes, bonus, 0):
        return -1
    return value + _pending_wild_points(pending) + _wild_points(p + q, jokers)


@njit(cache=True, _nrt=True)  # allocates
def _opening_search_fresh(hand, pending, melds, pile_kind, extra, rules, plan, bonus, relax):
    """``_opening_search_in`` with tables allocated here (``search_words`` of them)."""
    work = np.empty(search_words(hand, rules), dtype=np.int64)
    return _opening_search_in(
        hand, pending, melds, pile_kind, extra, rules, plan, bonus, relax, work
    )


@njit(
    "int64(int64[::1], int64[:, ::1], int64[:, :, ::1], int64, int64, int64[::1], int64[:, ::1],"
    " boolean, int64, int64[::1])",
    cache=True,
    _nrt=False,  # the common case counts nothing: a search of a work area's tables
)
def opening_search(hand, pending, melds, pile_kind, extra, rules, plan, bonus, relax, work):
    """The search (``_opening_search_in``), with its tables in ``work`` or, when that is
    too small (8+ wild cards), in tables allocated for it (``_opening_search_fresh``)."""
    if work.shape[0] < search_words(hand, rules):
        return _opening_search_fresh(
            hand, pending, melds, pile_kind, extra, rules, plan, bonus, relax
        )
    return _opening_search_in(
        hand, pending, melds, pile_kind, extra, rules, plan, bonus, relax, work
    )


assert E.OP_AX_SHAPE[0] == _N_LAYERS  # opening_op_counts: one row of best_ax per layer


@njit(cache=True, _nrt=True)
def opening_op_counts(hand, pending, melds, pile_kind, extra, rules, bonus, work, best_ax, best_wm):
    """``opening_search``'s count (relax 0, same arguments; -1 if no valid opening), and for
    every natural rank at once the best count of a valid opening whose plan puts at least
    ``a`` naturals from hand and at least ``x`` wild cards on that rank: ``best_ax[layer, a,
    x]`` (layer = kind - FIRST_NATURAL; -1 if none; written for ``a`` up to the rank's cards
    in hand and ``x`` up to MELD-4's maximum only), so that one search answers, for each meld
    operation (kind, nat, wilds) of an opening turn, whether the opening is still completable
    after it (OPEN-1..4). Exact: the plans from the position after an operation of ``nat``
    naturals and ``x`` wilds on a natural rank are the plans from here with at least that much
    on the rank (the search's constraints are on the totals per rank, on the wilds placed and
    on the cards left), and with its wild cards split jokers first the count of each plan is
    the same (``legal_actions`` judges the other splits and a started wild meld, MELD-8,
    apart). The same dynamic programme as ``opening_search``, forward with every layer's
    values kept, then backward (the best completion of each state), combining both at each
    rank's choices (``_rank_choices``). ``best_wm[w]`` (w = 1..7, up to the wild cards held):
    the same for a wild meld operation of ``w`` wild cards split jokers first, -1 if none: the
    plans from the position after it are the plans from here with at least ``w`` wild cards on
    the wild meld, judged by the last step as that position's search judges them (MELD-8:
    the wild meld is started then, whatever ``w``). ``work``: int64 of at least (2 x layers +
    4) x states + layers + 1 words and one rank's choices (a smaller one is replaced by an
    allocated one)."""
    maxw, jokers, wilds, threes = _hand_sizes(hand, rules)
    n_states = (wilds + 1) * _SUB
    n_layers = _N_LAYERS
    n_choices = _choice_words(hand, rules)
    need = (2 * n_layers + 4) * n_states + n_layers + 1 + n_choices
    if work.shape[0] < need:
        work = np.empty(need, dtype=np.int64)
    # per layer l (0..n_layers): values of the states reached before rank l, and their list
    fval = work[: (n_layers + 1) * n_states]
    o = (n_layers + 1) * n_states
    flist = work[o : o + (n_layers + 1) * n_states]
    o += (n_layers + 1) * n_states
    bcur, bnxt = work[o : o + n_states], work[o + n_states : o + 2 * n_states]
    o += 2 * n_states
    nlist = work[o : o + n_layers + 1]
    o += n_layers + 1
    choices = work[o : o + n_choices]
    fval[:n_states] = _NO
    fval[0] = 0
    flist[0] = 0
    nlist[0] = 1
    for i in range(n_layers):
        kind = E.FIRST_NATURAL + i
        c, base_n, base_w, top, dead = _rank_inputs(hand, pending, melds, pile_kind, kind)
        row, nrow = i * n_states, (i + 1) * n_states
        if c == 0 and base_n == 0 and base_w == 0 and top == 0:
            # every state stays as it is (opening_search); only listed states are read
            for idx in range(nlist[i]):
                s = flist[row + idx]
                flist[nrow + idx] = s
                fval[nrow + s] = fval[row + s]
            nlist[i + 1] = nlist[i]
            continue
        fval[nrow : nrow + n_states] = _NO
        n_ch = _rank_choices(kind, c, base_n, base_w, top, maxw, 0, dead, choices)
        rank = (kind, c, base_n, wilds, n_ch)
        n_nxt = 0
        for idx in range(nlist[i]):
            s = flist[row + idx]
            v = fval[row + s]
            n_nxt = _rank_relax(s, v, rank, choices, fval, nrow, flist, nrow, n_nxt, choices, -1)
        nlist[i + 1] = n_nxt
    # The last step (wild meld, MELD-8, OUT-1/2) as in opening_search: the best
    # completion of each state reached after the last rank.
    base_wm = pending[E.WILD_MELD, E.TWOS] + pending[E.WILD_MELD, E.JOKERS]
    pending_wilds = _pending_wild_points(pending)
    row = n_layers * n_states
    best = _NO
    n_wm = min(wilds, E.CANASTA) + 1
    best_wm[:n_wm] = _NO
    for idx in range(nlist[n_layers]):
        s = flist[row + idx]
        p, f, left, cc, bad = _decode(s)
        bnxt[s] = _NO
        if f == 0 and rules[E.RS_OPENING_WILD] == 0:
            continue  # OPEN-2
        for q in range(wilds - p + 1):
            if not _base_meld(f, base_wm + q, rules):
                continue  # OPEN-2 (after a wild meld operation too: the meld is base_wm + q)
            value = pending_wilds + _wild_points(p + q, jokers)
            # after a wild meld operation of w <= q cards: q - w more from a hand of wilds - w,
            # on a meld of base_wm + w; w = 1 stands for every w (MELD-8 differs only when
            # base_wm + w reaches 7, and then so does base_wm + q)
            if q > 0 and _end_ok(
                p, left, cc, bad, q - 1, wilds - 1, base_wm + 1, extra, threes, bonus, 0
            ):
                if fval[row + s] + value > best_wm[q]:
                    best_wm[q] = fval[row + s] + value
            if not _end_ok(p, left, cc, bad, q, wilds, base_wm, extra, threes, bonus, 0):
                continue
            if value > bnxt[s]:
                bnxt[s] = value
        if bnxt[s] != _NO and fval[row + s] + bnxt[s] > best:
            best = fval[row + s] + bnxt[s]
    for w in range(n_wm - 2, 0, -1):  # at least w wild cards: suffix maxima
        best_wm[w] = max(best_wm[w], best_wm[w + 1])
    if best == _NO:
        best_ax[:] = _NO
        return -1
    # Backward: bcur[s] = the best completion from state s before rank i; best_ax[i, a, x]
    # the best whole opening through each choice (a, x) of rank i. Only the cells a <= held,
    # x <= max wilds are written (the only ones an operation can ask).
    n_x = min(maxw, best_ax.shape[2] - 1) + 1
    for i in range(n_layers):
        for a in range(hand[E.FIRST_NATURAL + i] + 1):
            for x in range(n_x):
                best_ax[i, a, x] = _NO
    for i in range(n_layers - 1, -1, -1):
        kind = E.FIRST_NATURAL + i
        c, base_n, base_w, top, dead = _rank_inputs(hand, pending, melds, pile_kind, kind)
        row = i * n_states
        if c == 0 and base_n == 0 and base_w == 0 and top == 0:
            for idx in range(nlist[i]):  # every state stays as it is (the forward pass)
                s = flist[row + idx]
                b = bnxt[s]
                bcur[s] = b
                if b != _NO and fval[row + s] + b > best_ax[i, 0, 0]:
                    best_ax[i, 0, 0] = fval[row + s] + b
            bcur, bnxt = bnxt, bcur
            continue
        n_ch = _rank_choices(kind, c, base_n, base_w, top, maxw, 0, dead, choices)
        for idx in range(nlist[i]):
            s = flist[row + idx]
            state = _decode(s)
            fs = fval[row + s]
            bs = _NO
            for j in range(n_ch):
                a, x, ns = _choice_next(state, c, wilds, choices[j])
                if ns < 0 or bnxt[ns] == _NO:
                    continue
                gain = (base_n + a) * _VALUE[kind] + bnxt[ns]
                if gain > bs:
                    bs = gain
                if fs + gain > best_ax[i, a, x]:
                    best_ax[i, a, x] = fs + gain
            bcur[s] = bs
        bcur, bnxt = bnxt, bcur
    # at least a naturals and x wilds: suffix maxima over both axes
    for i in range(n_layers):
        n_a = hand[E.FIRST_NATURAL + i] + 1
        for a in range(n_a - 1, -1, -1):
            for x in range(n_x - 1, -1, -1):
                v = best_ax[i, a, x]
                if a + 1 < n_a and best_ax[i, a + 1, x] > v:
                    v = best_ax[i, a + 1, x]
                if x + 1 < n_x and best_ax[i, a, x + 1] > v:
                    v = best_ax[i, a, x + 1]
                best_ax[i, a, x] = v
    return best
