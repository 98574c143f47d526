"""The generator of legal actions: ``legal_actions`` lists them from the position, the same
list in the same order as the action table filtered by the validator (``legal_actions_filter``,
its oracle; tests/test_legal_generation.py).

Also here: ``legal_discards`` (every legal discard as one mask), ``first_legal_action`` (the
engine's replacement for an illegal proposal), ``forced_action`` (the only legal action, when
the position leaves no choice) and ``meld_refused_on_counts`` (a cheap pre-test of a meld).
"""

from __future__ import annotations

from numba import njit

from sim import encoding as E
from sim._views import opaque, sum_words
from sim.engine.fastpath import TABLE_DECIDES, meld_on_counts
from sim.engine.observe import bonus_owed
from sim.engine.validate import (
    action_reason,
    declare_ok,
    discard_reason_at,
    meld_reason_obs,
    opening_possible,
    pile_may_open,
    turn_opening_reason,
)
from sim.engine.views import (
    ob_aside_total,
    ob_hand,
    ob_melds,
    ob_pending,
    tmp_gen_ax,
    tmp_gen_wm,
    tmp_search,
)
from sim.legality import (
    is_dead,
    meld_counts_refused,
    meld_size,
    opening_count_bound,
    opening_op_counts,
    restricted_on_empty,
)

__all__ = ["forced_action", "legal_actions"]


@njit(cache=True, inline="always")
def legal_discards(obs, hand, total, opening_r):
    """Bit k set when discarding ``k`` is legal in the play phase (``discard_reason_at`` of
    every held kind), from one pass over the hand: DISCARD-1/2 need only the hand's count and
    whether it holds nothing but wild cards and threes; DISCARD-3 (an empty pile) refuses a
    restricted card exactly when some unrestricted kind may be discarded, the same answer for
    every restricted kind. A last card (going out, OUT-1) is judged by ``discard_reason_at``."""
    mask = 0
    if opening_r != E.R_OK:
        return mask  # OPEN-1..4: the turn's melds must be a valid opening
    if total == 1:
        for k in range(E.N_KINDS):
            if hand[k] > 0 and discard_reason_at(obs, hand, k, total, opening_r) == E.R_OK:
                mask |= 1 << k
        return mask
    wilds = hand[E.JOKER] + hand[E.TWO]
    only_wild = wilds + hand[E.RED_THREE] + hand[E.BLACK_THREE] == total
    for k in range(E.FIRST_NATURAL, E.N_KINDS):
        if hand[k] > 0:
            mask |= 1 << k  # DISCARD-1/2: a natural may go
    if only_wild:  # DISCARD-2: wild cards only when nothing but wilds and threes is held
        for k in (E.JOKER, E.TWO):
            if hand[k] > 0:
                mask |= 1 << k
    if obs[E.OB_PILE_N] == 0 and mask != 0:
        melds = ob_melds(obs)
        free = 0  # DISCARD-3: the legal discards not restricted on an empty pile
        for k in range(E.N_KINDS):
            if (mask >> k) & 1 and not restricted_on_empty(melds, k):
                free |= 1 << k
        if free != 0:
            mask = free
    return mask


@njit(cache=True, _nrt=False)
def first_legal_action(obs, rules, tmp):
    """The smallest legal action id (``legal_actions``' first, which lists them in increasing
    order), or -1 if there is none: the engine's replacement for an illegal proposal. Judged
    one id at a time by ``action_reason`` and stopping at the first legal one (in the play
    phase a discard, id 6 + kind, usually comes before any meld), so a hand loop does not
    compile the generator of every legal action for a path it rarely takes (cold start; the
    same id as ``legal_actions``: tests/test_cold_start.py)."""
    for a in range(E.N_ACTIONS):
        if action_reason(obs, a, rules, tmp) == E.R_OK:
            return a
    return -1


@njit(cache=True, _nrt=False)
def forced_action(obs):
    """The only legal action, when the position leaves no choice, else -1: a draw when the pile
    cannot be taken for lack of a pile, of a natural top card or of a pair of it (PILE-1/2).
    The engine applies it without asking the policy (the step API offers it as the one legal
    action)."""
    if obs[E.OB_PHASE] != E.PH_DRAW:
        return -1
    top = obs[E.OB_PILE_TOP]
    if obs[E.OB_PILE_N] == 0 or top < E.FIRST_NATURAL or obs[E.OB_HAND + top] < 2:
        return E.A_DRAW
    return -1


@njit(cache=True, inline="always")
def meld_refused_on_counts(obs, slot, nat, w, rules):
    """``sim.legality.meld_counts_refused`` (a shortcut of MELD-1/2/4..9 on the counts) for the
    acting player's own meld of natural ``slot``: a cheap pre-test for callers judging many
    candidates (``legal_actions``, ``policies.common.largest_meld``); False says nothing."""
    initial = obs[E.OB_OPENING_TURN] == 1
    return meld_counts_refused(ob_melds(obs), slot, nat, w, initial, rules)


@njit(cache=True, inline="always")
def meld_rules_ok(obs, slot, nat, two, joker, rules, tmp, held, threes):
    """``meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, False) == R_OK`` for
    ``legal_actions``, with the cards the player holds (hand and a taken pile's rest,
    ``held``) and the threes among them counted once per position: the same checks in the
    same order (``meld_on_counts``), the full kernel only where OUT-2 looks at the table (a
    card or none left)."""
    r = meld_on_counts(obs, slot, nat, two, joker, rules, held, threes)
    if r == TABLE_DECIDES:
        return meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, False) == E.R_OK
    return r == 1


@njit(cache=True, inline="always")
def _opening_op_ok(obs, slot, nat, two, joker, rules, tmp, best_ax, wm_started):
    """OPEN-1..4 for a meld operation on a natural ``slot`` in an opening turn that passes the
    other rules: is the opening still completable after it? ``best_ax``: the turn's best counts
    through at least (naturals, wilds) on each rank (``opening_op_counts``), judged by
    ``_opening_ok_from``. With a started, incomplete wild meld (MELD-8: wild cards placed
    elsewhere are counted differently after the operation) the full search judges."""
    w = two + joker
    if w > 0 and wm_started:
        return meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, True) == E.R_OK
    v = best_ax[slot - E.FIRST_NATURAL, nat, w]
    return _opening_ok_from(obs, slot, nat, two, joker, rules, tmp, v)


@njit(cache=True, inline="always")
def _opening_ok_from(obs, slot, nat, two, joker, rules, tmp, v):
    """OPEN-1..4 for a meld operation of an opening turn that passes the other rules, from
    ``v``: the best count of a valid opening after it with its wild cards split jokers first
    (``opening_op_counts``: ``best_ax`` on a natural rank, ``best_wm`` on the wild meld).
    Another split counts less by at most the jokers it leaves for later, 30 points each, so
    the full search judges only when that difference matters."""
    mc = obs[E.OB_OPEN_MIN]
    if v < mc:
        return False  # OPEN-1..4: no valid opening after this operation
    w = two + joker
    jf = min(w, obs[E.OB_HAND + E.JOKER])  # the jokers-first split of w
    if joker == jf or v - (jf - joker) * (E.KIND_VALUE[E.JOKER] - E.KIND_VALUE[E.TWO]) >= mc:
        return True
    return meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, True) == E.R_OK


@njit(cache=True, _nrt=False)
def legal_actions(obs, rules, out, tmp):
    """Write the legal action ids for ``obs`` into ``out`` in increasing order; return how
    many. Generated from the position: the same list, in the same order, as
    ``legal_actions_filter`` (the table filtered by ``action_reason``), the rules other than
    OPEN-1..4 judged once per number of wild cards (``meld_rules_ok``), OPEN-1..4 for every
    candidate of an opening turn by one search (``opening_op_counts``; ``_opening_op_ok`` on a
    natural rank, ``_opening_ok_from`` on the wild meld) (tests/test_legal_generation.py, on
    every decision of real hands)."""
    phase = obs[E.OB_PHASE]
    if phase != E.PH_PLAY:
        return _legal_outside_play(obs, rules, out, tmp)
    n = 0
    hand = ob_hand(obs)
    if declare_ok(obs, rules, tmp):
        out[n] = E.A_DECLARE
        n += 1
    total = sum_words(obs, E.OB_HAND, E.N_KINDS)  # the same for every discard
    opening_r = turn_opening_reason(obs)
    discards = legal_discards(obs, hand, total, opening_r)
    for k in range(E.N_KINDS):
        if (discards >> k) & 1:
            out[n] = E.A_DISCARD + k
            n += 1
    melds = ob_melds(obs)
    best_ax = tmp_gen_ax(tmp)  # not touched by the checks below
    best_wm = tmp_gen_wm(tmp)
    opening = obs[E.OB_OPENING_TURN] == 1
    wm_started = False
    if opening:
        pending = ob_pending(obs)
        mc = obs[E.OB_OPEN_MIN]
        if opening_count_bound(hand, pending, melds, rules) < mc:
            return n  # OPEN-1: no meld can be part of a valid opening (opening_possible)
        extra, pk, bonus = ob_aside_total(obs), obs[E.OB_PILE_KIND], bonus_owed(obs)
        work = tmp_search(tmp)
        if (
            opening_op_counts(hand, pending, melds, pk, extra, rules, bonus, work, best_ax, best_wm)
            < mc
        ):
            return n  # OPEN-1: as opening_possible (the same count)
        wm = pending[E.WILD_MELD, E.TWOS] + pending[E.WILD_MELD, E.JOKERS]
        wm_started = 0 < wm < E.CANASTA
    held = total + ob_aside_total(obs)  # OUT-2 counts a taken pile's rest (PILE-1)
    threes = 0
    for k in (E.RED_THREE, E.BLACK_THREE):
        threes += hand[k] + obs[E.OB_ASIDE + k]
    for two in range(hand[E.TWO] + 1):
        for joker in range(min(hand[E.JOKER], E.MAX_WILD_MELD_JOKERS) + 1):
            if two + joker < 1 or two + joker > E.CANASTA:
                continue
            if not meld_rules_ok(obs, E.WILD_MELD, opaque(0), two, joker, rules, tmp, held, threes):
                continue
            if opening and not _opening_ok_from(
                obs, E.WILD_MELD, opaque(0), two, joker, rules, tmp, best_wm[two + joker]
            ):
                continue  # OPEN-1..4
            out[n] = E.MELD_ACTION[E.WILD_MELD, 0, two, joker]
            n += 1
    long_melds = rules[E.RS_ALLOW_LONG_MELD_GOING_OUT] != 0
    two_cap, joker_cap = min(hand[E.TWO], E.MAX_OP_WILDS), hand[E.JOKER]
    n_wilds = min(hand[E.TWO] + joker_cap, E.MAX_OP_WILDS)
    for slot in range(E.FIRST_NATURAL, E.N_KINDS):
        started = meld_size(melds, 0, slot) > 0
        if hand[slot] == 0 and not started:
            continue
        if not long_melds and is_dead(melds, slot):
            continue  # MELD-9 refuses every operation (as meld_refused_on_counts)
        # a new meld needs two naturals at least (MELD-1/4: as meld_refused_on_counts)
        for nat in range(0 if started else 2, min(hand[slot], E.CANASTA) + 1):
            # On a natural slot the rules other than OPEN-1..4 see the wild cards only as
            # their number (MELD-1..9 count them; OUT-2 counts the cards left): judged once
            # per number of wilds w (verdict in bit w of ``fine``) with the first split of w
            # twos and jokers in table order (tests/test_judge_fastpaths.py); the splits are
            # listed only when some w > 0 passes (a natural-only operation is the first)
            fine = 0
            for w in range(max(1 - nat, 0), min(n_wilds, E.CANASTA - nat) + 1):
                two = max(0, w - joker_cap)  # the fewest twos: the first split in order
                if meld_refused_on_counts(obs, slot, nat, w, rules):
                    continue  # MELD-1..9 on the counts: no need to call meld_reason
                if meld_rules_ok(obs, slot, nat, two, w - two, rules, tmp, held, threes):
                    fine |= 1 << w
            if fine == 0:
                continue
            if fine == 1:  # natural cards only: one operation
                if not opening or _opening_op_ok(
                    obs, slot, nat, 0, 0, rules, tmp, best_ax, wm_started
                ):
                    out[n] = E.MELD_ACTION[slot, nat, 0, 0]
                    n += 1
                continue
            for two in range(two_cap + 1):
                for joker in range(min(joker_cap, E.MAX_OP_WILDS - two) + 1):
                    a = E.MELD_ACTION[slot, nat, two, joker]
                    if a < 0 or not (fine >> (two + joker)) & 1:
                        continue
                    if opening and not _opening_op_ok(
                        obs, slot, nat, two, joker, rules, tmp, best_ax, wm_started
                    ):
                        continue
                    out[n] = a
                    n += 1
    return n


@njit(cache=True, inline="always")  # a library of its own would link the judge again
def _legal_outside_play(obs, rules, out, tmp):
    """The legal actions (table order) outside the play phase: the red-threes decision, the
    draw, none once the hand is over. Shared by ``legal_actions`` and its oracle, so that the
    engine's hand loop does not compile the oracle's play-phase filter (cold start)."""
    n = 0
    phase = obs[E.OB_PHASE]
    if phase == E.PH_THREES:
        for a in (E.A_LAY_THREES, E.A_KEEP_RED_THREE, E.A_KEEP_BLACK_THREE):
            if action_reason(obs, a, rules, tmp) == E.R_OK:
                out[n] = a
                n += 1
        return n
    if phase == E.PH_DRAW:
        out[n] = E.A_DRAW
        n += 1
        if (
            pile_may_open(obs, rules, tmp)
            and action_reason(obs, E.A_TAKE_PILE, rules, tmp) == E.R_OK
        ):
            out[n] = E.A_TAKE_PILE
            n += 1
    return n


@njit(cache=True, _nrt=False)
def legal_actions_filter(obs, rules, out, tmp):
    """``legal_actions`` by filtering the fixed action table with ``action_reason`` (the one
    validator): the oracle the generator is tested against (tests/test_legal_generation.py)."""
    if obs[E.OB_PHASE] != E.PH_PLAY:
        return _legal_outside_play(obs, rules, out, tmp)
    n = 0
    hand = ob_hand(obs)
    if action_reason(obs, E.A_DECLARE, rules, tmp) == E.R_OK:
        out[n] = E.A_DECLARE
        n += 1
    for k in range(E.N_KINDS):
        if hand[k] > 0 and action_reason(obs, E.A_DISCARD + k, rules, tmp) == E.R_OK:
            out[n] = E.A_DISCARD + k
            n += 1
    if obs[E.OB_OPENING_TURN] == 1 and not opening_possible(obs, rules, tmp):
        return n  # OPEN-1: no meld can be part of a valid opening
    melds = ob_melds(obs)
    for two in range(hand[E.TWO] + 1):
        for joker in range(min(hand[E.JOKER], E.MAX_WILD_MELD_JOKERS) + 1):
            if two + joker < 1 or two + joker > E.CANASTA:
                continue
            if meld_reason_obs(obs, E.WILD_MELD, opaque(0), two, joker, rules, tmp, True) == E.R_OK:
                out[n] = E.MELD_ACTION[E.WILD_MELD, 0, two, joker]
                n += 1
    for slot in range(E.FIRST_NATURAL, E.N_KINDS):
        if hand[slot] == 0 and meld_size(melds, 0, slot) == 0:
            continue
        for nat in range(min(hand[slot], E.CANASTA) + 1):
            for two in range(min(hand[E.TWO], E.MAX_OP_WILDS) + 1):
                for joker in range(min(hand[E.JOKER], E.MAX_OP_WILDS - two) + 1):
                    a = E.MELD_ACTION[slot, nat, two, joker]
                    if a < 0:
                        continue
                    if meld_reason_obs(obs, slot, nat, two, joker, rules, tmp, True) == E.R_OK:
                        out[n] = a
                        n += 1
    return n
