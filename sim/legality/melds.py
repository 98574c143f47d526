"""MELD-1..10: the meld table's helpers and the one check of a meld operation, ``meld_reason``.

Shortcuts elsewhere restate MELD-4..8 (the engine's count pre-tests, the opening search's rank
step, the policies' cheap tests); ``meld_reason`` is the law they must agree with.
"""

from __future__ import annotations

from numba import njit

from sim import encoding as E

__all__ = ["canastas", "is_dead", "meld_reason", "meld_wilds"]

RULE_OF_FIVE_NATURALS = 5  #: MELD-5 (fixed by the rules, never user-set: a kernel constant)


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


@njit(cache=True, inline="always")  # a short loop, inlined where counted
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


# Explicit signatures here and below: callers pass constant flags, and numba would otherwise
# compile a copy of the kernel (and of all it calls) per literal value (cold start).
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


# Shortcuts that restate the rules above on the counts, beside the law they must agree with;
# each is checked against ``meld_reason`` at every decision of real hands
# (tests/test_shortcuts.py).


@njit(cache=True, inline="always")
def meld_counts_refused(melds, slot, nat, w, initial, rules):
    """Shortcut of ``meld_reason`` (MELD-1/2/4..9) on the counts: True when it refuses ``nat``
    naturals and ``w`` wild cards from hand on team 0's meld of natural ``slot`` whatever
    the split of the wilds and the rest of the position (each test below is a refusal it
    reaches on every path to R_OK; ``initial``: the team's opening turn). False says nothing."""
    cur_nat = melds[0, slot, E.NATURALS]
    cur_w = melds[0, slot, E.TWOS] + melds[0, slot, E.JOKERS]
    new = cur_nat + cur_w + nat + w
    if rules[E.RS_ALLOW_LONG_MELD_GOING_OUT] == 0:
        if new > E.CANASTA or is_dead(melds, slot):
            return True  # MELD-2, MELD-9 (a long meld going out is their only exception)
    if cur_nat + cur_w == 0 and new < E.MIN_MELD:
        return True  # MELD-1
    if cur_w + w > 0 and (cur_nat + nat < 2 or cur_w + w > rules[E.RS_MAX_WILDS_MIXED]):
        return True  # MELD-4
    if w > 0:
        if slot == E.SEVEN or 0 < meld_size(melds, 0, E.WILD_MELD) < E.CANASTA:
            return True  # MELD-6, MELD-8
        if not initial:
            if slot == E.ACE and cur_w == 0:
                return True  # MELD-7: natural aces take no wild card after the opening
            if rules[E.RS_RULE_OF_FIVE] != 0 and cur_nat + nat < RULE_OF_FIVE_NATURALS:
                return True  # MELD-5
    return False


@njit(cache=True, inline="always")
def meld_wilds_cap(melds, slot, held, maxw, initial, rules):
    """Shortcut of ``meld_reason`` (MELD-2/4..9) on the counts: the most wild cards an
    operation on team 0's meld of natural ``slot`` (``held`` of it in hand) may hold, from
    ``maxw``; every operation with more is refused (``meld_counts_refused``) whatever the
    naturals. 0 when every operation with a wild card is refused: MELD-6 (sevens), MELD-8 (a
    started wild meld), MELD-7 and MELD-5 after the opening turn (natural aces; fewer than five
    naturals even with all held), MELD-4 (fewer than two naturals even with all held; the wild
    cards already there), MELD-2/9 (a canasta or a dead rank, unless long melds going out are
    allowed)."""
    cur_nat = melds[0, slot, E.NATURALS]
    cur_w = melds[0, slot, E.TWOS] + melds[0, slot, E.JOKERS]
    most_nat = cur_nat + min(held, E.CANASTA)
    if slot == E.SEVEN or 0 < meld_size(melds, 0, E.WILD_MELD) < E.CANASTA:
        return 0  # MELD-6, MELD-8
    if not initial:
        if slot == E.ACE and cur_w == 0:
            return 0  # MELD-7
        if rules[E.RS_RULE_OF_FIVE] != 0 and most_nat < RULE_OF_FIVE_NATURALS:
            return 0  # MELD-5
    if most_nat < 2:
        return 0  # MELD-4
    if rules[E.RS_ALLOW_LONG_MELD_GOING_OUT] == 0:
        if cur_nat + cur_w >= E.CANASTA or is_dead(melds, slot):
            return 0  # MELD-2, MELD-9
    return max(0, min(maxw, rules[E.RS_MAX_WILDS_MIXED] - cur_w))  # MELD-4
