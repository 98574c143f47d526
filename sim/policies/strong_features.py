"""The features of ``strong``'s move evaluator: one documented layout.

``strong`` chooses among a few candidate moves at its three kinds of decision (its search
points, the same as ``expert``'s): the draw when the pile may be taken, the discard, and the
start of a sevens, aces or wild meld. Each candidate gets a feature vector ``phi(obs, move)``
of ``N_FEATURES`` floats in three blocks; a move's score is ``weights @ phi`` and the move with
the highest score is played (ties keep the first candidate, the base policy's choice). The
weights are fitted so that ``score(move) - score(first)`` predicts the search's value of the
move minus that of the first candidate (``analysis.distill``).

- the **pickup** block is non-zero only for taking the pile (PILE-1): drawing is the zero
  vector, so the pickup score is the predicted gain of taking over drawing;
- the **discard** block describes discarding one kind (DISCARD-*), including its place in the
  base policy's order of preference and the base policy's own keep value;
- the **start** block describes starting a sevens (MELD-6), aces (MELD-7) or wild (MELD-8)
  meld; holding instead is the zero vector.

Every feature reads the observation alone (plus the base parameters for ``late``), is scaled
to about [0, 1] and is named in ``FEATURE_TABLE`` with its meaning: the table is the one source
of the layout, the data file's feature list is checked against it, and the pure-Python twin
``tests/twins/strong_features_twin.py`` computes the same numbers from the same table.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import encoding as E
from sim.engine.views import ob_hand, ob_melds, ob_pile_counts
from sim.legality import canastas, is_dead, meld_size, out_reason
from sim.policies.builtin import hand_is_late, unseen_copies

__all__ = [
    "DECISION_KINDS",
    "FEATURE_NAMES",
    "FEATURE_TABLE",
    "N_FEATURES",
    "kind_facts",
    "score",
]

#: (name, meaning) of every feature, in layout order: the pickup, discard and start blocks
FEATURE_TABLE = (
    # -- pickup: taking the pile (PILE-1/2) instead of drawing from the stock
    ("p_bias", "1 for taking the pile"),
    ("p_base_takes", "the base policy would take the pile"),
    ("p_pile", "cards in the pile / 10"),
    ("p_pile_sq", "(cards in the pile / 10) squared"),
    ("p_value", "the pile's point value (CARD-3) / 100"),
    ("p_wilds", "wild cards in the pile / 4"),
    ("p_new_melds", "natural kinds in the pile with 3+ held after taking it, not melded yet / 4"),
    ("p_adds", "pile cards of kinds the team has an unfinished meld of / 5"),
    ("p_sevens", "sevens in the pile / 4 (SCORE-4 risk, MELD-6)"),
    ("p_aces", "aces in the pile / 4"),
    ("p_top_risky", "the top card is a seven or ace the team has no meld of (starts one, SCORE-2)"),
    ("p_top_risky_held", "p_top_risky x (held + pile copies of the top's kind) / 7"),
    ("p_top_meld", "the team has a meld of the top card's kind (the pair joins it)"),
    ("p_dead", "pile cards of dead kinds (MELD-9) / 5: cards with no use"),
    ("p_opened", "the team has opened"),
    ("p_opp_opened", "the opponents have opened"),
    ("p_stock", "stock cards / 100"),
    ("p_hand", "cards in hand / 14"),
    ("p_canastas", "the team's canastas (at most 2) / 2"),
    ("p_opp_out", "the opponents could go out now (OUT-1)"),
    ("p_late", "the hand is late (the base policy's late_stock, opp_out_late)"),
    # -- discard: discarding this kind (DISCARD-*)
    ("d_bias", "1 for a discard"),
    ("d_rank1", "the base policy's second choice"),
    ("d_rank2", "its third choice"),
    ("d_rank3", "its fourth choice or later"),
    ("d_keep", "the base policy's keep value of the kind / 100 (lower is discarded first)"),
    ("d_single", "held once"),
    ("d_pair", "held twice (breaks a pair)"),
    ("d_many", "held three times or more"),
    ("d_value", "the card's value (CARD-3) / 50"),
    ("d_value_late", "d_value when the hand is late (SCORE-5)"),
    ("d_value_stock", "d_value x stock cards / 100"),
    ("d_seven", "a seven"),
    ("d_ace", "an ace"),
    ("d_wild", "a wild card (DISCARD-2)"),
    ("d_dead", "a dead kind (MELD-9: safe, nobody can take the pile with it)"),
    ("d_own_meld", "the team has an unfinished meld of the kind"),
    ("d_own_size", "cards in the team's unfinished meld of the kind / 7"),
    ("d_opp_meld", "the opponents have a meld of 1-4 cards of the kind"),
    ("d_opp_full", "the opponents' meld of the kind has 5+ cards (PILE-2: they cannot take)"),
    ("d_unseen", "copies of the kind unseen (other hands, stock) / 8"),
    ("d_live_pair", "2+ copies unseen: the next player may hold a pair (PILE-1)"),
    ("d_risk", "d_live_pair x cards in the pile / 10 (what a pair of it takes)"),
    ("d_risk_unopened", "d_risk when the opponents have not opened (they need OPEN-1 too)"),
    ("d_risk_stock", "d_risk x stock cards / 100"),
    ("d_discarded", "copies of the kind discarded so far in the hand / 8"),
    ("d_in_pile", "copies of the kind in the pile now / 8"),
    ("d_shed_third", "a third seven or ace held with no meld of it (SCORE-4)"),
    ("d_next_short", "the next player holds 3 cards or fewer"),
    ("d_empty_pile", "the pile is empty (DISCARD-3)"),
    # -- start: starting a sevens, aces or wild meld (SCORE-2/3) instead of holding
    ("s_bias", "1 for starting the meld"),
    ("s_at_discard", "the base policy would discard instead (started at the discard)"),
    ("s_seven", "a sevens meld (MELD-6)"),
    ("s_ace", "an aces meld (MELD-7)"),
    ("s_wild", "a wild meld (MELD-8)"),
    ("s_held", "cards of it held (placed) / 7"),
    ("s_unseen", "copies of it unseen / 8 (what could still come)"),
    ("s_enough", "at least as many unseen as the canasta still needs"),
    ("s_stock", "stock cards / 100"),
    ("s_late", "the hand is late"),
    ("s_opp_meld", "the opponents have a meld of the rank (both teams may meld it, MELD-3)"),
    ("s_in_pile", "copies of it in the pile / 4"),
    ("s_canastas", "the team's canastas (at most 2) / 2"),
    ("s_opp_out", "the opponents could go out now (OUT-1)"),
    ("s_opened", "the team has opened"),
)
FEATURE_NAMES = tuple(name for name, _ in FEATURE_TABLE)
N_FEATURES = len(FEATURE_TABLE)  #: length of a feature vector
_F = {name: i for i, name in enumerate(FEATURE_NAMES)}
P_FIRST, D_FIRST, S_FIRST = _F["p_bias"], _F["d_bias"], _F["s_bias"]  #: block offsets
P_BLOCK = D_FIRST - P_FIRST  #: length of each block
D_BLOCK = S_FIRST - D_FIRST
S_BLOCK = N_FEATURES - S_FIRST

#: the decision kinds (``candidates``' code, the training rows' ``kind`` column)
DECISION_KINDS = ("pickup", "discard", "start")
K_PICKUP, K_DISCARD, K_START = range(len(DECISION_KINDS))


@njit(cache=True, _nrt=False)
def context(obs, params):
    """What every block reads, computed once a decision: (late, stock / 100, own canastas
    capped at 2 / 2, the opponents could go out now)."""
    melds = ob_melds(obs)
    late = 1.0 if hand_is_late(obs, params) else 0.0
    can = min(canastas(melds, 0), 2) / 2.0
    opp_out = 1.0 if out_reason(melds, 1) == E.R_OK else 0.0
    return late, obs[E.OB_STOCK_N] / 100.0, can, opp_out


@njit(cache=True, _nrt=False)
def pickup_features(obs, ctx, base_takes, out):
    """The pickup block of taking the pile (the rest of ``out`` is zeroed); ``ctx`` is
    ``context(obs, params)``."""
    out[:] = 0.0
    hand = ob_hand(obs)
    melds = ob_melds(obs)
    late, stock, can, opp_out = ctx
    pile = ob_pile_counts(obs)
    n = obs[E.OB_PILE_N]
    top = obs[E.OB_PILE_TOP]
    value = 0
    new_melds = 0
    adds = 0
    dead = 0
    for k in range(E.N_KINDS):
        value += pile[k] * E.KIND_VALUE[k]
        if k < E.FIRST_NATURAL or pile[k] == 0:
            continue
        if is_dead(melds, k):
            dead += pile[k]
            continue
        own = meld_size(melds, 0, k)
        if own == 0 and hand[k] + pile[k] >= 3:
            new_melds += 1
        elif 0 < own < E.CANASTA:
            adds += pile[k]
    f = P_FIRST
    out[f] = 1.0
    out[f + 1] = 1.0 if base_takes else 0.0
    out[f + 2] = n / 10.0
    out[f + 3] = (n / 10.0) ** 2
    out[f + 4] = value / 100.0
    out[f + 5] = (pile[E.TWO] + pile[E.JOKER]) / 4.0
    out[f + 6] = new_melds / 4.0
    out[f + 7] = adds / 5.0
    out[f + 8] = pile[E.SEVEN] / 4.0
    out[f + 9] = pile[E.ACE] / 4.0
    risky = (top == E.SEVEN or top == E.ACE) and meld_size(melds, 0, top) == 0
    out[f + 10] = 1.0 if risky else 0.0
    out[f + 11] = (hand[top] + pile[top]) / 7.0 if risky else 0.0
    out[f + 12] = 1.0 if top >= 0 and meld_size(melds, 0, top) > 0 else 0.0
    out[f + 13] = dead / 5.0
    out[f + 14] = obs[E.OB_OPENED]
    out[f + 15] = obs[E.OB_OPENED + 1]
    out[f + 16] = stock
    out[f + 17] = obs[E.OB_HAND_SIZES] / 14.0
    out[f + 18] = can
    out[f + 19] = opp_out
    out[f + 20] = late


@njit(cache=True, _nrt=False)
def kind_facts(obs, melds, kind):
    """What the table says of discarding ``kind``: (natural rank, dead for melding (MELD-3),
    the own team's meld size, the opponents', copies unseen, and live: a natural rank the
    opponents could still meld from the pile)."""
    natural = kind >= E.FIRST_NATURAL
    dead = is_dead(melds, kind)
    own = meld_size(melds, 0, kind) if natural else 0
    opp = meld_size(melds, 1, kind) if natural else 0
    u = unseen_copies(obs, melds, kind) if natural else 0
    live = natural and not dead and opp < 5 and u >= 2
    return natural, dead, own, opp, u, live


@njit(cache=True, _nrt=False)
def discard_features(obs, ctx, kind, rank, keep, out):
    """The discard block of discarding ``kind``, the base policy's ``rank``-th choice (0 its
    own) with its keep value ``keep`` (the rest of ``out`` is zeroed)."""
    out[:] = 0.0
    hand = ob_hand(obs)
    melds = ob_melds(obs)
    late, stock = ctx[0], ctx[1]
    held = hand[kind]
    value = E.KIND_VALUE[kind] / 50.0
    natural, dead, own, opp, u, live = kind_facts(obs, melds, kind)
    risk = obs[E.OB_PILE_N] / 10.0 if live else 0.0
    f = D_FIRST
    out[f] = 1.0
    out[f + 1] = 1.0 if rank == 1 else 0.0
    out[f + 2] = 1.0 if rank == 2 else 0.0
    out[f + 3] = 1.0 if rank >= 3 else 0.0
    out[f + 4] = keep / 100.0
    out[f + 5] = 1.0 if held == 1 else 0.0
    out[f + 6] = 1.0 if held == 2 else 0.0
    out[f + 7] = 1.0 if held >= 3 else 0.0
    out[f + 8] = value
    out[f + 9] = value * late
    out[f + 10] = value * stock
    out[f + 11] = 1.0 if kind == E.SEVEN else 0.0
    out[f + 12] = 1.0 if kind == E.ACE else 0.0
    out[f + 13] = 1.0 if not natural else 0.0
    out[f + 14] = 1.0 if dead else 0.0
    out[f + 15] = 1.0 if 0 < own < E.CANASTA else 0.0
    out[f + 16] = own / 7.0 if own < E.CANASTA else 0.0
    out[f + 17] = 1.0 if 0 < opp < 5 else 0.0
    out[f + 18] = 1.0 if 5 <= opp < E.CANASTA else 0.0
    out[f + 19] = u / 8.0
    out[f + 20] = 1.0 if live else 0.0
    out[f + 21] = risk
    out[f + 22] = risk if obs[E.OB_OPENED + 1] == 0 else 0.0
    out[f + 23] = risk * stock
    out[f + 24] = obs[E.OB_DISCARDS + kind] / 8.0
    out[f + 25] = obs[E.OB_PILE_COUNTS + kind] / 8.0
    third = (kind == E.SEVEN or kind == E.ACE) and held >= 3 and own == 0
    out[f + 26] = 1.0 if third else 0.0
    out[f + 27] = 1.0 if obs[E.OB_HAND_SIZES + 1] <= 3 else 0.0
    out[f + 28] = 1.0 if obs[E.OB_PILE_N] == 0 else 0.0


@njit(cache=True, _nrt=False)
def _unseen_wilds(obs, melds):
    """Wild cards the player cannot see: twos and jokers not in hand, the pile or any meld."""
    seen = obs[E.OB_HAND + E.TWO] + obs[E.OB_HAND + E.JOKER]
    seen += obs[E.OB_PILE_COUNTS + E.TWO] + obs[E.OB_PILE_COUNTS + E.JOKER]
    for t in range(E.N_TEAMS):
        for s in range(E.N_KINDS):
            seen += melds[t, s, E.TWOS] + melds[t, s, E.JOKERS]
    return E.KIND_COPIES[E.TWO] + E.KIND_COPIES[E.JOKER] - seen


@njit(cache=True, _nrt=False)
def start_features(obs, ctx, slot, held, at_discard, out):
    """The start block of starting the team's meld of ``slot`` (SEVEN, ACE or WILD_MELD) with
    ``held`` cards (the rest of ``out`` is zeroed); ``at_discard``: the base policy would
    discard instead."""
    out[:] = 0.0
    melds = ob_melds(obs)
    late, stock, can, opp_out = ctx
    if slot == E.WILD_MELD:
        u = _unseen_wilds(obs, melds)
        in_pile = obs[E.OB_PILE_COUNTS + E.TWO] + obs[E.OB_PILE_COUNTS + E.JOKER]
        opp_meld = meld_size(melds, 1, E.WILD_MELD) > 0
    else:
        u = unseen_copies(obs, melds, slot)
        in_pile = obs[E.OB_PILE_COUNTS + slot]
        opp_meld = meld_size(melds, 1, slot) > 0
    f = S_FIRST
    out[f] = 1.0
    out[f + 1] = 1.0 if at_discard else 0.0
    out[f + 2] = 1.0 if slot == E.SEVEN else 0.0
    out[f + 3] = 1.0 if slot == E.ACE else 0.0
    out[f + 4] = 1.0 if slot == E.WILD_MELD else 0.0
    out[f + 5] = held / 7.0
    out[f + 6] = u / 8.0
    out[f + 7] = 1.0 if u >= E.CANASTA - held else 0.0
    out[f + 8] = stock
    out[f + 9] = late
    out[f + 10] = 1.0 if opp_meld else 0.0
    out[f + 11] = in_pile / 4.0
    out[f + 12] = can
    out[f + 13] = opp_out
    out[f + 14] = obs[E.OB_OPENED]


@njit(cache=True, _nrt=False)
def score(weights, phi):
    """The evaluator's score of one candidate: ``weights @ phi``."""
    s = 0.0
    for j in range(phi.shape[0]):
        s += weights[j] * phi[j]
    return s


def check_layout(names) -> None:
    """A data file's feature list must be this build's layout (``FEATURE_NAMES``)."""
    from sim.errors import CanastaError

    if tuple(names) != FEATURE_NAMES:
        raise CanastaError(
            f"the evaluator's features ({len(names)}) are not this build's ({N_FEATURES}: "
            f"{', '.join(FEATURE_NAMES[:3])}, ...); retrain with canasta train"
        )


assert (P_BLOCK, D_BLOCK, S_BLOCK) == (21, 29, 15)  # the kernels write these many each
assert np.unique(np.array(FEATURE_NAMES)).size == N_FEATURES
