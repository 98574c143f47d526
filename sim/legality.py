"""Compiled rule checks for melds, the opening, the pile, discards and going out.

Each kernel judges one rule family on plain int64 arrays (layouts in ``sim.encoding``) and
returns a reason code: ``R_OK`` when legal, otherwise the code of the rule that refuses
(``sim.encoding.explain`` turns it into "MELD-6: ..."). The engine, the command line and the
tests all use these kernels; nothing else re-implements a rule. ``tests/twins/legality_twin.py``
is the slow, obvious twin they are checked against.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import encoding as E
from sim._views import c_view, copy_into

# Kernels get these as module constants; they are fixed by the rules, never user-set.
_VALUE = E.KIND_VALUE
RULE_OF_FIVE_NATURALS = 5  #: MELD-5
PILE_MELD_LIMIT = 5  #: PILE-2: a meld of 5+ cannot take a pair and the top card
OPEN_THRESHOLDS = (3000, 5000)  #: OPEN-1 score bands
OPEN_MINIMUMS = (125, 155, 180)  #: OPEN-1 minimum count per band


# ---------------------------------------------------------------------------------------
# Meld table helpers (MELD-9, MELD-10)
# ---------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def meld_size(melds, team, slot):
    """Cards in the team's meld of ``slot`` (0 if none)."""
    return melds[team, slot, E.NATURALS] + melds[team, slot, E.TWOS] + melds[team, slot, E.JOKERS]


@njit(cache=True, _nrt=False)
def meld_wilds(melds, team, slot):
    """Wild cards in the team's meld of ``slot``."""
    return melds[team, slot, E.TWOS] + melds[team, slot, E.JOKERS]


@njit(cache=True, _nrt=False)
def is_dead(melds, kind):
    """MELD-9: a natural rank is dead once either team has a canasta of it."""
    if kind < E.FIRST_NATURAL:
        return False  # the wild meld is not a rank for MELD-9 (docs/rules.md)
    for team in range(E.N_TEAMS):
        if meld_size(melds, team, kind) >= E.CANASTA:
            return True
    return False


@njit(cache=True, inline="always")  # a short loop, inlined where counted (issue 12)
def team_canastas(melds_team):
    """MELD-10: completed canastas in one team's meld table ``melds_team[slot, col]``."""
    n = 0
    for slot in range(E.N_KINDS):
        if (
            melds_team[slot, E.NATURALS] + melds_team[slot, E.TWOS] + melds_team[slot, E.JOKERS]
            >= E.CANASTA
        ):
            n += 1
    return n


@njit(cache=True, inline="always")
def canastas(melds, team):
    """MELD-10: number of the team's completed canastas."""
    return team_canastas(melds[team])


@njit(cache=True, _nrt=False)
def wild_meld_incomplete(melds, team):
    """MELD-8: the team has a wild meld that is not yet a canasta."""
    size = meld_size(melds, team, E.WILD_MELD)
    return 0 < size < E.CANASTA


# ---------------------------------------------------------------------------------------
# MELD-1..9: one meld operation
# ---------------------------------------------------------------------------------------
# Explicit signatures here and below: callers pass constant flags, and numba would otherwise
# compile a copy of the kernel (and of all it calls) per literal value (cold start, issue 12).
@njit(
    "int64(int64[:, :, ::1], int64, int64, int64, int64, int64, boolean, boolean, int64[::1])",
    cache=True,
    _nrt=False,
)
def meld_reason(melds, team, slot, nat, two, joker, initial, going_out, rules):
    """May ``team`` put ``nat`` naturals of ``slot``, ``two`` twos and ``joker`` jokers from hand
    on its meld of ``slot`` (starting it if absent)? ``slot`` is a natural kind or WILD_MELD.

    ``initial``: the operation is part of the team's opening turn (MELD-5, MELD-7).
    ``going_out``: the player goes out this turn (MELD-2 variant). ``melds`` is the position
    before the operation.
    """
    wild = two + joker
    if nat < 0 or two < 0 or joker < 0 or nat + wild == 0:
        return E.R_EMPTY_MELD
    if slot == E.RED_THREE or slot == E.BLACK_THREE:
        return E.R_THREE_MELDED  # DEAL-4
    if slot < 0 or slot >= E.N_KINDS or slot == E.TWO:
        return E.R_MELD_MIXED_RANKS
    cur = meld_size(melds, team, slot)
    new = cur + nat + wild
    if slot == E.WILD_MELD:
        if nat > 0:
            return E.R_MELD_MIXED_RANKS  # MELD-1: the wild meld holds wild cards only
        if cur == 0 and new < E.MIN_MELD:
            return E.R_MELD_TOO_SMALL  # MELD-1
        if new > E.CANASTA and not (
            rules[E.RS_ALLOW_LONG_MELD_GOING_OUT] and going_out and cur > 0
        ):
            return E.R_MELD_TOO_LONG  # MELD-2 (a finished wild canasta is closed: MELD-3)
        return E.R_OK
    # MELD-2 variant: wild cards beyond 7 on an existing meld by a player going out
    long_ok = rules[E.RS_ALLOW_LONG_MELD_GOING_OUT] and going_out and nat == 0 and cur > 0
    if is_dead(melds, slot) and not (long_ok and cur >= E.CANASTA):
        return E.R_DEAD_RANK  # MELD-9
    if cur == 0 and new < E.MIN_MELD:
        return E.R_MELD_TOO_SMALL  # MELD-1
    if new > E.CANASTA and not long_ok:
        return E.R_MELD_TOO_LONG  # MELD-2
    new_nat = melds[team, slot, E.NATURALS] + nat
    new_wild = meld_wilds(melds, team, slot) + wild
    if wild > 0:
        if slot == E.SEVEN:
            return E.R_SEVENS_WILD  # MELD-6
        if slot == E.ACE and not initial and meld_wilds(melds, team, slot) == 0:
            return E.R_ACES_WILD  # MELD-7 (a mixed aces meld is ordinary: MELD-5 governs it)
        if wild_meld_incomplete(melds, team):
            return E.R_WILD_MELD_INCOMPLETE  # MELD-8
        if not initial and rules[E.RS_RULE_OF_FIVE] and new_nat < RULE_OF_FIVE_NATURALS:
            return E.R_RULE_OF_FIVE  # MELD-5 (naturals counted after this operation's join)
    if new_wild > 0:
        if new_nat < 2:
            return E.R_MIXED_TOO_FEW_NATURALS  # MELD-4
        if new_wild > rules[E.RS_MAX_WILDS_MIXED]:
            return E.R_MIXED_TOO_MANY_WILDS  # MELD-4
    return E.R_OK


# ---------------------------------------------------------------------------------------
# OPEN-1..4: the initial meld
# ---------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def opening_min(team_score):
    """OPEN-1: minimum count of the initial meld for a team's cumulative score."""
    if team_score < OPEN_THRESHOLDS[0]:
        return OPEN_MINIMUMS[0]
    if team_score < OPEN_THRESHOLDS[1]:
        return OPEN_MINIMUMS[1]
    return OPEN_MINIMUMS[2]


@njit(cache=True, _nrt=False)
def from_hand_count(from_hand):
    """OPEN-1/OPEN-3: points of the cards melded from hand (the pile's top card excluded)."""
    total = 0
    for slot in range(E.N_KINDS):
        if slot != E.WILD_MELD:
            total += from_hand[slot, E.NATURALS] * _VALUE[slot]
        total += (
            from_hand[slot, E.TWOS] * _VALUE[E.TWO] + from_hand[slot, E.JOKERS] * _VALUE[E.JOKER]
        )
    return total


@njit(cache=True, _nrt=False)
def opening_reason(from_hand, melds, team, pile_kind, min_count):
    """OPEN-1,2,4: is this turn's set of melds a valid initial meld?

    ``from_hand[slot, col]``: cards melded from hand this turn; ``melds``: the position after;
    ``pile_kind``: kind of the pile's top card melded this turn, or -1 (OPEN-3: it counts for
    neither the minimum nor the natural meld, and is not in ``from_hand``).
    """
    if from_hand_count(from_hand) < min_count:
        return E.R_OPEN_MINIMUM  # OPEN-1 (OPEN-3: from-hand cards only)
    natural = False
    for slot in range(E.FIRST_NATURAL, E.N_KINDS):
        if from_hand[slot, E.NATURALS] >= E.MIN_MELD and meld_wilds(melds, team, slot) == 0:
            natural = True  # OPEN-2: 3+ naturals from hand, no wild, top card not counted
    if not natural:
        return E.R_OPEN_NO_NATURAL_MELD
    for slot in range(E.FIRST_NATURAL, E.N_KINDS):
        touched = (
            from_hand[slot, E.NATURALS] + from_hand[slot, E.TWOS] + from_hand[slot, E.JOKERS] > 0
        )
        if (touched or slot == pile_kind) and meld_size(melds, team, slot) >= E.CANASTA:
            if meld_wilds(melds, team, slot) > 0:
                return E.R_OPEN_MIXED_CANASTA  # OPEN-4
    return E.R_OK


@njit(cache=True, _nrt=False)
def opening_meld_reason(melds, team, slot, nat, two, joker):
    """OPEN-4 for one meld operation of the opening turn: may it leave the team's meld of
    ``slot`` as a completed mixed canasta? ``melds`` is the position before the operation.
    (A natural canasta may be completed; the wild meld is not mixed: docs/rules.md.)"""
    if slot < E.FIRST_NATURAL or slot >= E.N_KINDS:
        return E.R_OK
    size = meld_size(melds, team, slot) + nat + two + joker
    if size >= E.CANASTA and meld_wilds(melds, team, slot) + two + joker > 0:
        return E.R_OPEN_MIXED_CANASTA  # OPEN-4
    return E.R_OK


# State of the opening search, one axis per quantity the validity of a plan depends on.
_F = 2  # OPEN-2 natural meld found (0/1)
_L = 3  # naturals left in hand: 0, 1, 2+ (OUT-2: a card must remain to discard)
_C = 3  # canastas: 0, 1, 2+ (OUT-1 if the opening goes out)
_B = 2  # an unfinished natural sevens or aces meld (OUT-1)
_SUB = _F * _L * _C * _B
_NO = -1

#: ``best_opening(relax=...)`` bits: search as if one rule did not hold, only to name the rule
#: that refuses an opening (``opening_refusal``); never used to judge legality
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


#: the rules core's work area (``E.SEARCH_WORK_SIZE`` words: ``sim.engine.views.tmp_search``
#: in the engine): the opening search's tables, then PILE-1/2's copies (``pile_reason_work``)
_N_LAYERS = E.N_KINDS - E.FIRST_NATURAL
SEARCH_WORK_FIELDS = (
    ("search", (_N_LAYERS + 5) * E.OPEN_SEARCH_STATES),  # back pointers, 2 layers, 2 lists
    ("hand", E.N_KINDS),  # the hand after the pickup pair (PILE-1)
    ("pending", E.N_KINDS * E.N_MELD_COLS),  # the pickup meld as the opening's pending melds
    ("plan", E.N_KINDS * E.N_MELD_COLS),  # the opening plan (not read)
    ("melds", E.N_TEAMS * E.N_KINDS * E.N_MELD_COLS),  # the table after the pickup meld
)
_SW, _SW_SIZE = E.layout(SEARCH_WORK_FIELDS)
_SW_SEARCH = (_N_LAYERS + 5) * E.OPEN_SEARCH_STATES
_SW_HAND, _SW_PENDING, _SW_PLAN, _SW_MELDS = (_SW[k] for k in ("hand", "pending", "plan", "melds"))
_CELLS = E.N_KINDS * E.N_MELD_COLS
assert _SW_SIZE == E.SEARCH_WORK_SIZE and _SUB * 13 == E.OPEN_SEARCH_STATES


@njit(cache=True, inline="always")
def _rank_step(kind, p, f, left, cc, bad, a, x, c, base_n, base_w, top, maxw, relax):
    """One choice of the opening search on natural rank ``kind`` from the state (p, f, left,
    cc, bad): ``a`` naturals of the ``c`` held and ``x`` wild cards from hand, on top of the
    ``base_n`` naturals and ``base_w`` wilds already melded this turn (``top``: the pile's top
    card is of this rank). The next state, or -1 if a rule refuses the choice (PILE-1, MELD-1/2/
    4/6, OPEN-4 unless relaxed; OPEN-2's flag and the unfinished sevens/aces flag kept).
    Shared by ``best_opening_work`` and both passes of ``opening_op_values``."""
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
    (OUT-1/2, unless relaxed)? Shared by ``best_opening_work`` and ``opening_op_values``."""
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
    their caps, as ``_next_state`` adds them), naturals left c - a. Each is packed in a word
    (issue 12, ninth pass: the states then try only these, ~155 steps a search before, most
    of them refused). A dead rank (MELD-9) offers only (0, 0)."""
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


@njit(cache=True, _nrt=True)
def best_opening(hand, pending, melds, pile_kind, extra, rules, plan, bonus=False, relax=0):
    """``best_opening_work`` with its tables allocated here (callers without a work area)."""
    n_states = (hand[E.JOKER] + hand[E.TWO] + 1) * _SUB
    work = np.empty((_N_LAYERS + 5) * n_states, dtype=np.int64)
    return best_opening_work(
        hand, pending, melds, pile_kind, extra, rules, plan, bonus, relax, work
    )


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
def _search_words(hand, rules):
    """Words of the tables ``_best_opening_in`` needs for ``hand``: back pointers, two layers
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
    _nrt=False,  # every table is in ``work`` (_search_words): no view of it is counted
)
def _best_opening_in(hand, pending, melds, pile_kind, extra, rules, plan, bonus, relax, work):
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
    of at least ``_search_words`` words (``best_opening_work`` sees to it; ``E.SEARCH_WORK_SIZE``
    holds the tables of any hand of up to 7 wild cards).
    Exact: a dynamic programme over the natural ranks, wild cards placed jokers first. Only
    the states reached are visited, in increasing order (as a scan of every state would),
    so ties resolve the same way and the plan is that of the full table.
    """
    maxw = rules[E.RS_MAX_WILDS_MIXED]
    jokers = hand[E.JOKER]
    wilds = hand[E.JOKER] + hand[E.TWO]
    threes = hand[E.RED_THREE] + hand[E.BLACK_THREE]
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
    # listed, so the next layer's table is empty again (issue 12, ninth pass: ~3 states a
    # layer against (wilds + 1) x 36 words emptied at every layer before)
    for j in range(n_states):
        cur_val[j] = _NO
        nxt_val[j] = _NO
    cur_list[0] = 0  # p=0 wilds placed, no natural meld, 0 naturals left, 0 canastas, not bad
    cur_val[0] = 0
    n_cur = 1
    for i in range(n_layers):
        kind = E.FIRST_NATURAL + i
        c = hand[kind]
        base_n = pending[kind, E.NATURALS]
        base_w = pending[kind, E.TWOS] + pending[kind, E.JOKERS]
        top = 1 if kind == pile_kind else 0
        dead = is_dead(melds, kind)  # MELD-9: a dead rank stays in hand
        row = (i + 1) * n_states
        if c == 0 and base_n == 0 and base_w == 0 and top == 0:
            # nothing of this rank in hand, melded this turn or on the pile: the only choice
            # (no cards; a meld of wild cards alone is MELD-1/4's) leaves every state as it
            # is, with its value (issue 12: the loop below gives the same, slower)
            for idx in range(n_cur):
                s = cur_list[idx]
                back[row + s] = s << 16
            continue
        n_ch = _rank_choices(kind, c, base_n, base_w, top, maxw, relax, dead, choices)
        n_nxt = 0  # (nxt_val is empty: see above)
        for idx in range(n_cur):
            s = cur_list[idx]
            p, f, left, cc, bad = _decode(s)
            for j in range(n_ch):
                ch = choices[j]
                a, x = ch & 255, (ch >> 8) & 255
                if x > wilds - p:
                    continue
                ns = _next_state(p, f, left, cc, bad, c, ch)
                value = cur_val[s] + (base_n + a) * _VALUE[kind]
                if value > nxt_val[ns]:
                    if nxt_val[ns] == _NO:
                        nxt_list[n_nxt] = ns
                        n_nxt += 1
                    nxt_val[ns] = value
                    back[row + ns] = (s << 16) | (x << 8) | a  # a, x < 256
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
    for idx in range(n_cur):
        s = cur_list[idx]
        p, f, left, cc, bad = _decode(s)
        if f == 0 and not relax & RELAX_OPEN_2:
            continue  # OPEN-2
        for q in range(wilds - p + 1):
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
def opening_path_value(hand, pending, melds, pile_kind, extra, rules, path, bonus):
    """The count of the opening that ``path[slot, col]`` (further cards to meld, as the plan
    ``best_opening_work`` returns) completes from this position, if that search would reach
    it: every rank's choice (naturals a, wild cards x) one the search makes from the state the
    ranks before lead to (``_rank_step``, the same bounds on a and x), the wild meld's share
    and the hand left accepted (``_end_ok``), OPEN-2's natural meld found; else -1. Only the
    number of wild cards per meld counts, valued jokers first as the search values them. So a
    path's count is one the search compares, and ``best_opening_work`` returns at least it:
    a count here of at least the minimum proves the opening can be completed without
    searching (issue 12, ninth pass: the engine checks a policy's plan this way,
    ``sim.engine.judge.check_action``; tested against the search at every opening-turn
    operation of real hands, tests/test_speed6_hint.py)."""
    maxw = rules[E.RS_MAX_WILDS_MIXED]
    jokers = hand[E.JOKER]
    wilds = hand[E.JOKER] + hand[E.TWO]
    threes = hand[E.RED_THREE] + hand[E.BLACK_THREE]
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
    if f == 0:
        return -1  # OPEN-2
    q = path[E.WILD_MELD, E.TWOS] + path[E.WILD_MELD, E.JOKERS]
    if path[E.WILD_MELD, E.TWOS] < 0 or path[E.WILD_MELD, E.JOKERS] < 0 or not 0 <= q <= wilds - p:
        return -1
    if path[E.WILD_MELD, E.NATURALS] != 0:
        return -1  # the wild meld takes no natural (MELD-1)
    base_wm = pending[E.WILD_MELD, E.TWOS] + pending[E.WILD_MELD, E.JOKERS]
    if not _end_ok(p, left, cc, bad, q, wilds, base_wm, extra, threes, bonus, 0):
        return -1
    return value + _pending_wild_points(pending) + _wild_points(p + q, jokers)


@njit(
    "int64(int64[::1], int64[:, ::1], int64[:, :, ::1], int64, int64, int64[::1], int64[:, ::1],"
    " boolean, int64, int64[::1])",
    cache=True,
    _nrt=True,  # allocates its tables when ``work`` is too small (8+ wild cards)
)
def best_opening_work(hand, pending, melds, pile_kind, extra, rules, plan, bonus, relax, work):
    """The search below (``_best_opening_in``), with its tables in ``work`` or, when that is
    too small, in tables allocated here."""
    need = _search_words(hand, rules)
    if work.shape[0] < need:
        work = np.empty(need, dtype=np.int64)
    return _best_opening_in(hand, pending, melds, pile_kind, extra, rules, plan, bonus, relax, work)


assert E.OP_AX_SHAPE[0] == _N_LAYERS  # opening_op_values: one row of best_ax per layer


@njit(cache=True, _nrt=True)
def opening_op_values(hand, pending, melds, pile_kind, extra, rules, bonus, work, best_ax, best_wm):
    """``best_opening_work``'s count (relax 0, same arguments; -1 if no valid opening), and for
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
    apart). The same dynamic programme as ``best_opening_work``, forward with every layer's
    values kept, then backward (the best completion of each state), combining both at each
    rank's choices (``_rank_choices``). ``best_wm[w]`` (w = 1..7, up to the wild cards held):
    the same for a wild meld operation of ``w`` wild cards split jokers first, -1 if none: the
    plans from the position after it are the plans from here with at least ``w`` wild cards on
    the wild meld, judged by the last step as that position's search judges them (MELD-8:
    the wild meld is started then, whatever ``w``). ``work``: int64 of at least (2 x layers +
    4) x states + layers + 1 words and one rank's choices (a smaller one is replaced by an
    allocated one)."""
    maxw = rules[E.RS_MAX_WILDS_MIXED]
    jokers = hand[E.JOKER]
    wilds = hand[E.JOKER] + hand[E.TWO]
    threes = hand[E.RED_THREE] + hand[E.BLACK_THREE]
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
        c = hand[kind]
        base_n = pending[kind, E.NATURALS]
        base_w = pending[kind, E.TWOS] + pending[kind, E.JOKERS]
        top = 1 if kind == pile_kind else 0
        dead = is_dead(melds, kind)  # MELD-9: a dead rank stays in hand
        row, nrow = i * n_states, (i + 1) * n_states
        if c == 0 and base_n == 0 and base_w == 0 and top == 0:
            # every state stays as it is (best_opening_work); only listed states are read
            for idx in range(nlist[i]):
                s = flist[row + idx]
                flist[nrow + idx] = s
                fval[nrow + s] = fval[row + s]
            nlist[i + 1] = nlist[i]
            continue
        fval[nrow : nrow + n_states] = _NO
        n_ch = _rank_choices(kind, c, base_n, base_w, top, maxw, 0, dead, choices)
        n_nxt = 0
        for idx in range(nlist[i]):
            s = flist[row + idx]
            p, f, left, cc, bad = _decode(s)
            for j in range(n_ch):
                ch = choices[j]
                a, x = ch & 255, (ch >> 8) & 255
                if x > wilds - p:
                    continue
                ns = _next_state(p, f, left, cc, bad, c, ch)
                value = fval[row + s] + (base_n + a) * _VALUE[kind]
                if value > fval[nrow + ns]:
                    if fval[nrow + ns] == _NO:
                        flist[nrow + n_nxt] = ns
                        n_nxt += 1
                    fval[nrow + ns] = value
        nlist[i + 1] = n_nxt
    # The last step (wild meld, MELD-8, OUT-1/2) as in best_opening_work: the best
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
        if f == 0:
            continue  # OPEN-2
        for q in range(wilds - p + 1):
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
        c = hand[kind]
        base_n = pending[kind, E.NATURALS]
        base_w = pending[kind, E.TWOS] + pending[kind, E.JOKERS]
        top = 1 if kind == pile_kind else 0
        dead = is_dead(melds, kind)
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
            p, f, left, cc, bad = _decode(s)
            fs = fval[row + s]
            bs = _NO
            for j in range(n_ch):
                ch = choices[j]
                a, x = ch & 255, (ch >> 8) & 255
                if x > wilds - p:
                    continue
                ns = _next_state(p, f, left, cc, bad, c, ch)
                if bnxt[ns] == _NO:
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


@njit(cache=True, _nrt=True)
def opening_refusal(hand, pending, melds, team, pile_kind, extra, rules, min_count, bonus):
    """The rule that refuses an opening turn that cannot reach ``min_count`` from here
    (arguments as ``best_opening``; ``team``: the opener's team in ``melds``), R_OK if it can:
    OPEN-2 if an opening without a natural meld would reach it, OPEN-4 if one with a mixed
    canasta would, OUT-1/2 if one leaving too few cards in hand would; OPEN-1 only when no
    meldable set of cards reaches the count. When the count needs two of these rules broken,
    the first in that order is named."""
    plan = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    work = np.empty((_N_LAYERS + 5) * (hand[E.JOKER] + hand[E.TWO] + 1) * _SUB, dtype=np.int64)
    args = (hand, pending, melds, pile_kind, extra, rules, plan, bonus)
    if best_opening_work(*args, 0, work) >= min_count:
        return E.R_OK
    # masks of RELAX_* bits, one rule relaxed first, then two, then all three
    for relax in (RELAX_OPEN_2, RELAX_OPEN_4, RELAX_LEAVE, 3, 5, 6, 7):
        got = best_opening_work(*args, relax, work)
        if got < min_count:
            continue
        if relax & RELAX_OPEN_2:
            return E.R_OPEN_NO_NATURAL_MELD  # OPEN-2
        if relax & RELAX_OPEN_4:
            return E.R_OPEN_MIXED_CANASTA  # OPEN-4
        return _leave_refusal(hand, pending, melds, team, pile_kind, extra, plan)
    return E.R_OPEN_MINIMUM  # OPEN-1: no meldable set of cards reaches the count


@njit(cache=True, _nrt=True)
def _leave_refusal(hand, pending, melds, team, pile_kind, extra, plan):
    """OUT-1/2: why an opening ``plan`` found with the leave rule relaxed may not stand."""
    left = extra - hand[E.RED_THREE] - hand[E.BLACK_THREE]
    for k in range(E.N_KINDS):
        left += hand[k] - plan[k, E.TWOS] - plan[k, E.JOKERS]
        if k != E.WILD_MELD:
            left -= plan[k, E.NATURALS]
    if left <= 0:
        return E.R_MELD_LEAVES_NO_DISCARD  # OUT-2: no card to discard
    after = melds.copy()
    for k in range(E.N_KINDS):
        for col in range(E.N_MELD_COLS):
            after[team, k, col] = pending[k, col] + plan[k, col]
    if pile_kind >= 0:
        after[team, pile_kind, E.NATURALS] += 1
    r = out_reason(after, team)  # OUT-2: one card and none to hold: discarding it goes out
    return r if r != E.R_OK else E.R_MELD_LEAVES_NO_DISCARD


#: the natural kinds by value, highest first (ties by kind): the order the bound takes pairs
_PAIR_ORDER = np.array(
    sorted(range(E.FIRST_NATURAL, E.N_KINDS), key=lambda k: (-int(E.KIND_VALUE[k]), k)),
    dtype=np.int64,
)


@njit(cache=True, _nrt=False)
def opening_upper_bound(hand, pending, melds, rules):
    """A cheap bound, not a rule: no valid opening (OPEN-1/2, MELD-1/4/6/8) from this position
    counts more than this; -1 if no natural meld of 3+ could be formed. Counted: the pending
    melds; every natural of a live rank held 3+ times (or already melded this turn); a pair
    only with a wild card to go with it; wild cards only where some meld could take them."""
    maxw = rules[E.RS_MAX_WILDS_MIXED]
    bound = 0
    natural_meld = False
    for k in range(E.N_KINDS):
        if k >= E.FIRST_NATURAL:
            bound += pending[k, E.NATURALS] * E.KIND_VALUE[k]
        bound += (
            pending[k, E.TWOS] * E.KIND_VALUE[E.TWO] + pending[k, E.JOKERS] * E.KIND_VALUE[E.JOKER]
        )
    wilds = hand[E.TWO] + hand[E.JOKER]
    slots = 0  # wild cards the natural melds could take (MELD-4, MELD-6)
    n_pairs = 0
    for k in range(E.FIRST_NATURAL, E.N_KINDS):
        if pending[k, E.NATURALS] >= 3:
            natural_meld = True  # already melded this turn (maybe a canasta, so now dead)
        started = pending[k, E.NATURALS] + pending[k, E.TWOS] + pending[k, E.JOKERS] > 0
        if (hand[k] == 0 and not started) or is_dead(melds, k):
            continue
        n = hand[k] + pending[k, E.NATURALS]
        if started or n >= 3:
            bound += hand[k] * E.KIND_VALUE[k]
            if k != E.SEVEN:
                slots += maxw
            if n >= 3:
                natural_meld = True
        elif n == 2 and k != E.SEVEN:
            n_pairs += 1  # needs a wild card to become a meld (MELD-4)
    wild_meld = wilds >= 3 or pending[E.WILD_MELD, E.TWOS] + pending[E.WILD_MELD, E.JOKERS] > 0
    pairs_used = min(n_pairs, wilds)
    if pairs_used > 0:  # the best pairs, each with one wild card at least
        taken = 0
        for k in _PAIR_ORDER:
            if taken < pairs_used and hand[k] == 2:
                if pending[k, E.NATURALS] == 0 and k != E.SEVEN and not is_dead(melds, k):
                    bound += 2 * E.KIND_VALUE[k]
                    taken += 1
        slots += pairs_used * maxw
    usable = wilds if wild_meld else min(wilds, slots)
    j = min(usable, hand[E.JOKER])  # jokers first: the bound takes the most valuable
    bound += j * E.KIND_VALUE[E.JOKER] + (usable - j) * E.KIND_VALUE[E.TWO]
    return bound if natural_meld else -1


@njit(cache=True, _nrt=False)
def opening_best(hand, pending, pile_kind, extra, melds, rules, plan, min_count, bonus=False):
    """``best_opening`` on this position, skipped (-1) when the cheap
    ``opening_upper_bound`` is already below ``min_count``. ``bonus``: the player is owed bonus
    cards (OPEN-5), so OUT-2 asks only for a card to discard (False gives a plan that is legal
    either way)."""
    if opening_upper_bound(hand, pending, melds, rules) < min_count:
        return -1
    return best_opening(hand, pending, melds, pile_kind, extra, rules, plan, bonus)


@njit(cache=True, inline="always")
def opening_best_work(hand, pending, pile_kind, extra, melds, rules, plan, min_count, bonus, work):
    """``opening_best`` with the search's tables in ``work`` (``best_opening_work``)."""
    if opening_upper_bound(hand, pending, melds, rules) < min_count:
        return -1
    return best_opening_work(hand, pending, melds, pile_kind, extra, rules, plan, bonus, 0, work)


# ---------------------------------------------------------------------------------------
# OUT-1, OUT-2
# ---------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def out_reason(melds, team):
    """OUT-1: may the team go out now?"""
    if canastas(melds, team) < 2:
        return E.R_OUT_CANASTAS
    if 0 < meld_size(melds, team, E.SEVEN) < E.CANASTA:
        return E.R_OUT_INCOMPLETE_SEVENS
    if 0 < meld_size(melds, team, E.ACE) < E.CANASTA and meld_wilds(melds, team, E.ACE) == 0:
        return E.R_OUT_INCOMPLETE_ACES
    if wild_meld_incomplete(melds, team):
        return E.R_OUT_INCOMPLETE_WILD
    return E.R_OK


@njit(cache=True, _nrt=False)
def leave_reason(hand_after, melds_after, team, bonus=False):
    """OUT-2: may melding leave this hand? A player not going out keeps a card to discard
    (threes never are, DISCARD-1) and a card to hold (any card, a kept three included); so
    keeping exactly one card means discarding it goes out, and OUT-1 must hold. Except that a
    player owed bonus cards (``bonus``, OPEN-5) needs only the card to discard."""
    total = 0
    for kind in range(E.N_KINDS):
        total += hand_after[kind]
    playable = total - hand_after[E.RED_THREE] - hand_after[E.BLACK_THREE]
    if playable <= 0:
        return E.R_MELD_LEAVES_NO_DISCARD  # OUT-2: no card to discard
    if total == 1 and not bonus:
        return out_reason(melds_after, team)  # OUT-2: no card to hold, so this goes out
    return E.R_OK


# ---------------------------------------------------------------------------------------
# PILE-1, PILE-2
# ---------------------------------------------------------------------------------------
@njit(cache=True, _nrt=True)
def pile_reason(hand, melds, team, pile_counts, top_kind, opened, min_count, rules):
    """PILE-1/2: may a player of ``team`` holding ``hand`` take the pile?

    ``pile_counts``: the pile by kind (top card included); ``opened``: the team has made its
    initial meld; ``min_count``: its OPEN-1 minimum, used when it has not.
    """
    work = np.empty(E.SEARCH_WORK_SIZE, dtype=np.int64)
    return pile_reason_work(
        hand, melds, team, pile_counts, top_kind, opened, min_count, rules, work
    )


@njit(cache=True, _nrt=False)
def pile_reason_work(hand, melds, team, pile_counts, top_kind, opened, min_count, rules, work):
    """``pile_reason`` with its copies and the opening search's tables in ``work``
    (int64[SEARCH_WORK_SIZE], layout ``SEARCH_WORK_FIELDS``)."""
    size = 0
    for kind in range(E.N_KINDS):
        size += pile_counts[kind]
    if size == 0:
        return E.R_PILE_EMPTY
    if top_kind < E.FIRST_NATURAL:
        return E.R_PILE_TOP_WILD_OR_THREE
    if is_dead(melds, top_kind):
        return E.R_PILE_DEAD_RANK  # MELD-9
    if meld_size(melds, team, top_kind) >= PILE_MELD_LIMIT:
        return E.R_PILE_MELD_FULL
    if hand[top_kind] < 2:
        return E.R_PILE_NO_PAIR  # PILE-1: always frozen
    rest = work[_SW_HAND : _SW_HAND + E.N_KINDS]
    copy_into(rest, hand)
    rest[top_kind] -= 2
    if not opened:
        pending = c_view(work[_SW_PENDING : _SW_PENDING + _CELLS], (E.N_KINDS, E.N_MELD_COLS))
        pending[:] = 0
        pending[top_kind, E.NATURALS] = 2
        plan = c_view(work[_SW_PLAN : _SW_PLAN + _CELLS], (E.N_KINDS, E.N_MELD_COLS))
        search = work[:_SW_SEARCH]  # SEARCH_WORK_FIELDS: the search's tables come first
        got = best_opening_work(
            rest, pending, melds, top_kind, size - 1, rules, plan, False, 0, search
        )
        if got < min_count:
            return E.R_PILE_CANNOT_OPEN
        return E.R_OK
    # After the pickup meld the pile joins the hand, which must keep a card to discard (OUT-2).
    after = c_view(work[_SW_MELDS : _SW_MELDS + 2 * _CELLS], (E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS))
    copy_into(after, melds)
    after[team, top_kind, E.NATURALS] += 3
    for kind in range(E.N_KINDS):
        rest[kind] += pile_counts[kind]
    rest[top_kind] -= 1
    return leave_reason(rest, after, team)


# ---------------------------------------------------------------------------------------
# DISCARD-1..3
# ---------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _discard_basic(hand, kind):
    """DISCARD-1/2 alone: may ``kind`` be discarded, ignoring DISCARD-3?"""
    if hand[kind] <= 0:
        return E.R_NOT_HELD
    if kind == E.RED_THREE or kind == E.BLACK_THREE:
        return E.R_DISCARD_THREE  # DISCARD-1
    if kind == E.JOKER or kind == E.TWO:
        total = 0
        for k in range(E.N_KINDS):
            total += hand[k]
        only_wild = hand[E.JOKER] + hand[E.TWO] + hand[E.RED_THREE] + hand[E.BLACK_THREE] == total
        if total != 1 and not only_wild:
            return E.R_DISCARD_WILD  # DISCARD-2 (going out, or nothing but wilds besides threes)
    return E.R_OK


@njit(cache=True, _nrt=False)
def _restricted_on_empty(melds, kind):
    """DISCARD-3: cards that may not go onto an empty pile while another discard is legal."""
    return (
        kind == E.SEVEN or kind == E.ACE or kind == E.JOKER or kind == E.TWO or is_dead(melds, kind)
    )


@njit(cache=True, inline="always")
def restricted_on_empty(melds, kind):
    """DISCARD-3: ``kind`` may not go onto an empty pile while another discard is legal (for
    callers judging every discard at once, ``sim.engine.judge.legal_actions``)."""
    return _restricted_on_empty(melds, kind)


@njit(cache=True, _nrt=False)
def discard_reason(hand, kind, melds, pile_size):
    """DISCARD-1..3: may ``kind`` be discarded from ``hand``? (Going out, when it is the last
    card, is judged by ``out_reason``.)"""
    code = _discard_basic(hand, kind)
    if code != E.R_OK:
        return code
    if pile_size == 0 and _restricted_on_empty(melds, kind):
        for other in range(E.N_KINDS):
            if other != kind and _discard_basic(hand, other) == E.R_OK:
                if not _restricted_on_empty(melds, other):
                    return E.R_DISCARD_EMPTY_PILE  # DISCARD-3
    return E.R_OK


# ---------------------------------------------------------------------------------------
# Python layer: a meld given as cards
# ---------------------------------------------------------------------------------------
def meld_slot(counts: np.ndarray) -> tuple[int, int]:
    """(slot, reason) of a meld given as counts per kind: the one natural kind it holds, or
    WILD_MELD for wild cards only; reason R_OK, or why the cards are not one meld (MELD-1,
    DEAL-4)."""
    if counts.sum() == 0:
        return -1, E.R_EMPTY_MELD
    if counts[E.RED_THREE] or counts[E.BLACK_THREE]:
        return -1, E.R_THREE_MELDED  # DEAL-4
    naturals = [k for k in range(E.FIRST_NATURAL, E.N_KINDS) if counts[k] > 0]
    if len(naturals) > 1:
        return -1, E.R_MELD_MIXED_RANKS  # MELD-1: runs and mixed ranks are never melds
    return (naturals[0] if naturals else E.WILD_MELD), E.R_OK


def judge_meld(counts, melds, team, initial, going_out, rules) -> int:
    """Reason code for melding the cards ``counts`` (per kind) onto the team's position.
    ``initial``: as part of the team's opening turn, where OPEN-4 concerns the one meld too
    (the opening's totals, OPEN-1/2, concern the whole turn and are not judged here)."""
    slot, code = meld_slot(counts)
    if code != E.R_OK:
        return code
    nat = int(counts[slot]) if slot != E.WILD_MELD else 0
    two, joker = int(counts[E.TWO]), int(counts[E.JOKER])
    code = int(meld_reason(melds, team, slot, nat, two, joker, initial, going_out, rules))
    if code == E.R_OK and initial:
        code = int(opening_meld_reason(melds, team, slot, nat, two, joker))  # OPEN-4
    return code
