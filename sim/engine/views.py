"""Named views of the engine's arrays: the state, an observation and the scratch space.

Each layout is a table in ``sim.encoding`` (``STATE_FIELDS``, ``OBS_FIELDS``,
``SCRATCH_FIELDS``, ``TMP_FIELDS``); these small kernels turn a field into a shaped view, so
no kernel reads another one's region by a counted offset. The views are inlined into their
callers (``inline="always"``): the kernels that use them count no references
(``_nrt=False``, docs/architecture.md "Reference counting"), and a view returned by a kernel
of its own would be a counted reference that they never release.
"""

from __future__ import annotations

from numba import njit

from sim import encoding as E
from sim._views import c_view, sum_words

__all__ = [
    "ob_aside",
    "ob_hand",
    "ob_melds",
    "ob_pile_counts",
    "scratch_hint",
    "scratch_legal",
    "scratch_tmp",
    "st_hands",
    "st_melds",
]

_MELD_SHAPE = (E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS)
_MELD_CELLS = E.N_TEAMS * E.N_KINDS * E.N_MELD_COLS
_PLAN_SHAPE = (E.N_KINDS, E.N_MELD_COLS)
_PLAN_CELLS = E.N_KINDS * E.N_MELD_COLS


# ---------------------------------------------------------------------------------------
# The state (STATE_FIELDS)
# ---------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def st_hands(st):
    """hands[player, kind] view."""
    return c_view(st[E.ST_HANDS : E.ST_HANDS + E.N_PLAYERS * E.N_KINDS], (E.N_PLAYERS, E.N_KINDS))


@njit(cache=True, inline="always")
def st_melds(st):
    """melds[team, slot, col] view."""
    return c_view(st[E.ST_MELDS : E.ST_MELDS + _MELD_CELLS], _MELD_SHAPE)


@njit(cache=True, inline="always")
def st_threes(st):
    """threes[team, red|black] view."""
    return c_view(st[E.ST_THREES : E.ST_THREES + E.N_TEAMS * 2], (E.N_TEAMS, 2))


@njit(cache=True, inline="always")
def st_pending(st):
    """pending[slot, col] view: cards melded from hand in this opening turn."""
    return c_view(st[E.ST_PENDING : E.ST_PENDING + _PLAN_CELLS], _PLAN_SHAPE)


@njit(cache=True, _nrt=False)
def st_aside_total(st):
    """Cards of a taken pile's rest held aside (PILE-1/2)."""
    return sum_words(st, E.ST_ASIDE, E.N_KINDS)


# ---------------------------------------------------------------------------------------
# An observation (OBS_FIELDS: own team first)
# ---------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def ob_hand(obs):
    """hand[kind] view: the player's own hand."""
    return obs[E.OB_HAND : E.OB_HAND + E.N_KINDS]


@njit(cache=True, inline="always")
def ob_pile_counts(obs):
    """pile[kind] view: the pile by kind (public: every discard was seen)."""
    return obs[E.OB_PILE_COUNTS : E.OB_PILE_COUNTS + E.N_KINDS]


@njit(cache=True, inline="always")
def ob_melds(obs):
    """melds[own|opp, slot, col] view of an observation."""
    return c_view(obs[E.OB_MELDS : E.OB_MELDS + _MELD_CELLS], _MELD_SHAPE)


@njit(cache=True, inline="always")
def ob_pending(obs):
    """pending[slot, col] view: the cards the team melded from hand this opening turn."""
    return c_view(obs[E.OB_PENDING : E.OB_PENDING + _PLAN_CELLS], _PLAN_SHAPE)


@njit(cache=True, inline="always")
def ob_aside(obs):
    """aside[kind] view: a taken pile's rest held aside (PILE-1/2)."""
    return obs[E.OB_ASIDE : E.OB_ASIDE + E.N_KINDS]


@njit(cache=True, _nrt=False)
def ob_aside_total(obs):
    """Cards of a taken pile's rest held aside (PILE-1/2): they join the hand once the
    opening stands."""
    return sum_words(obs, E.OB_ASIDE, E.N_KINDS)


# ---------------------------------------------------------------------------------------
# The scratch space (SCRATCH_FIELDS) and the checks' temporaries (TMP_FIELDS)
# ---------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def scratch_hint(scratch):
    """hint[slot, col]: the opening plan a policy may leave for the engine (``SCRATCH_HINT``)."""
    return c_view(scratch[E.SCRATCH_HINT : E.SCRATCH_HINT + _PLAN_CELLS], _PLAN_SHAPE)


@njit(cache=True, inline="always")
def scratch_legal(scratch):
    """Room for a legal-action list (N_ACTIONS ids)."""
    return scratch[E.SCRATCH_LEGAL : E.SCRATCH_LEGAL + E.N_ACTIONS]


@njit(cache=True, inline="always")
def scratch_tmp(scratch):
    """The temporaries of the legality checks, int64[TMP_SIZE]."""
    return scratch[E.SCRATCH_TMP : E.SCRATCH_TMP + E.TMP_SIZE]


@njit(cache=True, inline="always")
def tmp_hand(tmp):
    """hand[kind]: the hand after a meld operation (card totals in the invariants)."""
    return tmp[E.TM_HAND : E.TM_HAND + E.N_KINDS]


@njit(cache=True, inline="always")
def tmp_leave(tmp):
    """leave[kind]: the hand the player will hold (OUT-2; the pile by kind in the invariants)."""
    return tmp[E.TM_LEAVE : E.TM_LEAVE + E.N_KINDS]


@njit(cache=True, inline="always")
def tmp_melds(tmp):
    """melds[team, slot, col]: a meld table of the checks' own."""
    return c_view(tmp[E.TM_MELDS : E.TM_MELDS + _MELD_CELLS], _MELD_SHAPE)


@njit(cache=True, inline="always")
def tmp_pending(tmp):
    """pending[slot, col]: the opening turn's melds after an operation."""
    return c_view(tmp[E.TM_PENDING : E.TM_PENDING + _PLAN_CELLS], _PLAN_SHAPE)


@njit(cache=True, inline="always")
def tmp_plan(tmp):
    """plan[slot, col]: the best opening's further melds (``sim.legality.opening_search_alloc``)."""
    return c_view(tmp[E.TM_PLAN : E.TM_PLAN + _PLAN_CELLS], _PLAN_SHAPE)


@njit(cache=True, inline="always")
def tmp_gen_ax(tmp):
    """best_ax[rank, naturals, wilds]: an opening turn's best counts through each choice
    (``sim.legality.opening_op_counts``), for ``legal_actions``."""
    return c_view(tmp[E.TM_GEN_AX : E.TM_GEN_AX + E.OP_AX_SIZE], E.OP_AX_SHAPE)


@njit(cache=True, inline="always")
def tmp_gen_wm(tmp):
    """best_wm[w]: an opening turn's best count after a wild meld operation of ``w`` wild
    cards (``sim.legality.opening_op_counts``), for ``legal_actions``."""
    return tmp[E.TM_GEN_WM : E.TM_GEN_WM + E.CANASTA + 1]


@njit(cache=True, inline="always")
def tmp_search(tmp):
    """The rules core's work area, int64[SEARCH_WORK_SIZE] (``sim.legality``: the opening
    search's tables, ``pile_reason_work``'s copies)."""
    return tmp[E.TM_SEARCH : E.TM_SEARCH + E.SEARCH_WORK_SIZE]


# ---------------------------------------------------------------------------------------
# One meld operation (slot, naturals, twos, jokers) on a hand and on a [slot, col] table
# ---------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def take_operation(hand, slot, nat, two, joker):
    """Remove the operation's cards from ``hand[kind]`` (the wild meld takes no natural)."""
    if slot != E.WILD_MELD:
        hand[slot] -= nat
    hand[E.TWO] -= two
    hand[E.JOKER] -= joker


@njit(cache=True, _nrt=False)
def add_operation(table, slot, nat, two, joker, sign):
    """Add (``sign`` 1) or take back (-1) the operation's cards on ``table[slot, col]`` (a
    team's melds, or the cards melded from hand this opening turn)."""
    table[slot, E.NATURALS] += sign * nat
    table[slot, E.TWOS] += sign * two
    table[slot, E.JOKERS] += sign * joker
