"""The features of ``strong_v2``'s move evaluator: strong's layout and two blocks more.

``strong_v2`` (``strong``'s kernel with ``evaluator=2``) chooses among candidate moves at four
kinds of decision: the three of ``strong`` (the draw when the pile may be taken, the discard,
the start of a sevens/aces/wild meld) and a fourth, **open now or wait**: at the first meld of
the team's opening turn (OPEN-1), laying the base policy's opening or discarding instead. At
the discard it considers every legal discard (DISCARD-*), not the base policy's first four.

A candidate's feature vector is ``strong``'s (``sim.policies.strong_features.FEATURE_TABLE``,
the first ``N_FEATURES`` entries, the same numbers) followed by:

- the **discard extra** block (``e_*``): what a discard gives the next player (the public card
  memory's known pair, the pile's value and wild cards to a taker, smoother risk terms) and
  what it breaks (a meldable group, the keep value late), with interactions the linear score
  cannot form by itself;
- the **opening** block (``o_*``): non-zero only for opening now; waiting (the base policy's
  discard instead) is the zero vector, so the block's score is the predicted gain of opening.

The model is linear (``weights @ phi``, ``sim.policies.strong_features.score``); the table is
the one source of the layout and the data file's feature list is checked against it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import encoding as E
from sim.engine.views import ob_hand, ob_melds
from sim.legality import meld_size
from sim.policies.common import POLICY_WORK_SIZE
from sim.policies.strong_features import (
    FEATURE_NAMES,
    FEATURE_TABLE,
    K_PICKUP,
    K_START,
    N_FEATURES,
    discard_features,
    kind_facts,
    pickup_features,
    start_features,
)

__all__ = [
    "DECISION_KINDS_V2",
    "EVALUATOR_V2",
    "FEATURE_NAMES_V2",
    "FEATURE_TABLE_V2",
    "K_OPEN",
    "N_FEATURES_V2",
    "V2_MAX_CANDIDATES",
    "check_layout_v2",
    "v2_features",
]

#: (name, meaning) of the features after strong's, in layout order
EXTRA_TABLE_V2 = (
    # -- discard extra: what discarding this kind gives the next player and breaks
    ("e_rank", "the discard's place in the base policy's order / 12"),
    ("e_next_known", "copies of the kind the public card memory places in the next hand / 2"),
    ("e_next_pair", "the memory places 2+ of the kind in the next hand (PILE-1: it can take)"),
    ("e_next_pair_pile", "e_next_pair x cards in the pile / 10"),
    ("e_live_value", "a live pair could be out there x the pile's value (CARD-3) / 100"),
    ("e_live_wilds", "a live pair could be out there x wild cards in the pile / 4"),
    ("e_unseen_pile", "copies unseen / 8 x cards in the pile / 10 (a smooth d_risk)"),
    ("e_risk_sq", "d_risk squared"),
    ("e_risk_opp_out", "d_risk when the opponents could go out now (OUT-1)"),
    ("e_risk_late", "d_risk when the hand is late"),
    ("e_next_small", "the next player's hand / 14 x a live pair could be out there"),
    ("e_breaks_group", "held 3+ of a natural kind the team has no meld of (a meld broken)"),
    ("e_keep_late", "d_keep when the hand is late"),
    ("e_value_small_hand", "d_value when the hand holds 3 cards or fewer"),
    ("e_top_kind", "the kind of the pile's top card (its pair could have taken it)"),
    ("e_partner_known", "copies the memory places in the partner's hand / 2 (a feed)"),
    ("e_prev_known", "copies the memory places in the previous player's hand / 2"),
    ("e_own_near", "the team's meld of the kind has 5-6 cards (a canasta near)"),
    ("e_opp_near", "the opponents' meld of the kind has 5-6 cards"),
    # -- opening: laying the base policy's opening now (OPEN-1) instead of discarding
    ("o_bias", "1 for opening now"),
    ("o_stock", "stock cards / 100"),
    ("o_stock_sq", "(stock cards / 100) squared"),
    ("o_hand", "cards in hand / 14"),
    ("o_opp_opened", "the opponents have opened"),
    ("o_pile", "cards in the pile / 10"),
    ("o_min", "the team's opening minimum (OPEN-1) / 180"),
    ("o_first_meld", "cards of the opening's first meld / 7"),
    ("o_wilds", "wild cards in the opening's first meld / 3"),
    ("o_late", "the hand is late"),
    ("o_opp_out", "the opponents could go out now (OUT-1)"),
    ("o_pairs", "natural pairs held (what could take the pile, PILE-1) / 5"),
    ("o_wilds_held", "wild cards held / 4"),
    ("o_bonus", "bonus cards the opening earns (OPEN-5) / 4"),
    ("o_opp_melds", "the opponents' melds / 6"),
    ("o_turn", "turns played this hand / 40"),
)
FEATURE_TABLE_V2 = FEATURE_TABLE + EXTRA_TABLE_V2
FEATURE_NAMES_V2 = tuple(name for name, _ in FEATURE_TABLE_V2)
N_FEATURES_V2 = len(FEATURE_TABLE_V2)  #: length of a feature vector
_F = {name: i for i, name in enumerate(FEATURE_NAMES_V2)}
E_FIRST, O_FIRST = _F["e_rank"], _F["o_bias"]  #: block offsets
E_BLOCK = O_FIRST - E_FIRST
O_BLOCK = N_FEATURES_V2 - O_FIRST
_D_RISK = _F["d_risk"]
_D_KEEP = _F["d_keep"]
_D_VALUE = _F["d_value"]

EVALUATOR_V2 = 2.0  #: the value of strong's parameter ``evaluator`` that plays strong_v2
#: room for candidate moves: every kind but the threes (DISCARD-1) and three starts
V2_MAX_CANDIDATES = E.N_KINDS + 1
#: strong_v2's words in the scratch, after the built-ins' work fields, where strong's own
#: evaluator keeps its words (one evaluator plays a decision)
V2_WORK_FIELDS = (
    ("cands", V2_MAX_CANDIDATES),  # the candidate moves
    ("aux", V2_MAX_CANDIDATES),  # per candidate: a discard's rank, a start's cards held
    ("keeps", V2_MAX_CANDIDATES),  # per candidate: a discard's keep value (float64 words)
    ("kinds", E.N_KINDS),  # the legal discards in the base policy's order
    ("order_keeps", E.N_KINDS),  # their keep values (float64 words)
    ("phi", N_FEATURES_V2),  # one candidate's features (float64 words)
)
_V2, _V2_WORK = E.layout(V2_WORK_FIELDS)
_V2_0 = E.SCRATCH_FREE + POLICY_WORK_SIZE
V2_CANDS, V2_AUX, V2_KEEPS = _V2_0 + _V2["cands"], _V2_0 + _V2["aux"], _V2_0 + _V2["keeps"]
V2_KINDS, V2_ORDER_KEEPS, V2_PHI = (_V2_0 + _V2[n] for n in ("kinds", "order_keeps", "phi"))
V2_WORK_END = _V2_0 + _V2_WORK  #: the first scratch word after strong_v2's
assert POLICY_WORK_SIZE + _V2_WORK <= E.POLICY_FREE

#: the decision kinds (strong's three, then opening now or waiting)
DECISION_KINDS_V2 = ("pickup", "discard", "start", "open")
K_OPEN = 3


@njit(cache=True, _nrt=False)
def opening_first_meld(obs, a0):
    """Is ``a0`` the first meld of the team's opening turn (OPEN-1), laid from hand?"""
    if E.ACTION_TABLE[a0, E.AC_TYPE] != E.AT_MELD or obs[E.OB_OPENED] != 0:
        return False
    return obs[E.OB_MELDED] == 0 and obs[E.OB_TOOK_PILE] == 0


@njit(cache=True, _nrt=False)
def _known(obs, seat, kind):
    """Copies of ``kind`` the public card memory places in the hand of relative ``seat``."""
    return obs[E.OB_KNOWN + seat * E.N_KINDS + kind]


@njit(cache=True, _nrt=False)
def discard_features_v2(obs, ctx, kind, rank, keep, out):
    """strong's discard block of discarding ``kind`` (the base policy's ``rank``-th choice,
    keep value ``keep``) and the discard extra block; the rest of ``out`` is zeroed."""
    out[:] = 0.0
    discard_features(obs, ctx, kind, min(rank, 3), keep, out[:N_FEATURES])
    hand = ob_hand(obs)
    melds = ob_melds(obs)
    late, _, _, opp_out = ctx
    natural, dead, own, opp, u, live = kind_facts(obs, melds, kind)
    pile_n = obs[E.OB_PILE_N] / 10.0
    pile_value = 0
    for k in range(E.N_KINDS):
        pile_value += obs[E.OB_PILE_COUNTS + k] * E.KIND_VALUE[k]
    pile_wilds = obs[E.OB_PILE_COUNTS + E.TWO] + obs[E.OB_PILE_COUNTS + E.JOKER]
    risk = out[_D_RISK]
    next_known = _known(obs, 1, kind) if natural else 0
    next_pair = natural and not dead and opp < 5 and next_known >= 2
    f = E_FIRST
    out[f] = rank / 12.0
    out[f + 1] = next_known / 2.0
    out[f + 2] = 1.0 if next_pair else 0.0
    out[f + 3] = pile_n if next_pair else 0.0
    out[f + 4] = pile_value / 100.0 if live else 0.0
    out[f + 5] = pile_wilds / 4.0 if live else 0.0
    out[f + 6] = (u / 8.0) * pile_n if natural and not dead else 0.0
    out[f + 7] = risk * risk
    out[f + 8] = risk * opp_out
    out[f + 9] = risk * late
    out[f + 10] = obs[E.OB_HAND_SIZES + 1] / 14.0 if live else 0.0
    out[f + 11] = 1.0 if natural and not dead and hand[kind] >= 3 and own == 0 else 0.0
    out[f + 12] = out[_D_KEEP] * late
    out[f + 13] = out[_D_VALUE] if obs[E.OB_HAND_SIZES] <= 3 else 0.0
    out[f + 14] = 1.0 if kind == obs[E.OB_PILE_TOP] else 0.0
    out[f + 15] = _known(obs, 2, kind) / 2.0
    out[f + 16] = _known(obs, 3, kind) / 2.0
    out[f + 17] = 1.0 if 5 <= own < E.CANASTA else 0.0
    out[f + 18] = 1.0 if 5 <= opp < E.CANASTA else 0.0


@njit(cache=True, _nrt=False)
def open_features(obs, ctx, a, out):
    """The opening block of laying the opening whose first meld is the action ``a`` now; the
    rest of ``out`` is zeroed."""
    out[:] = 0.0
    hand = ob_hand(obs)
    melds = ob_melds(obs)
    late, stock, _, opp_out = ctx
    pairs = 0
    for k in range(E.FIRST_NATURAL, E.N_KINDS):
        if hand[k] >= 2:
            pairs += 1
    wilds = hand[E.TWO] + hand[E.JOKER]
    opp_melds = 0
    for s in range(E.N_KINDS):
        if meld_size(melds, 1, s) > 0:
            opp_melds += 1
    used = E.ACTION_TABLE[a, E.AC_NAT] + E.ACTION_TABLE[a, E.AC_TWO] + E.ACTION_TABLE[a, E.AC_JOKER]
    wild_used = E.ACTION_TABLE[a, E.AC_TWO] + E.ACTION_TABLE[a, E.AC_JOKER]
    bonus = 0  # OPEN-5: not once the turn card was drawn, nor when opening with the pile
    if obs[E.OB_TURN_CARD_DRAWN] == 0 and obs[E.OB_TOOK_PILE] == 0:
        bonus = 3 if obs[E.OB_OPENED + 1] else 4
    f = O_FIRST
    out[f] = 1.0
    out[f + 1] = stock
    out[f + 2] = stock * stock
    out[f + 3] = obs[E.OB_HAND_SIZES] / 14.0
    out[f + 4] = obs[E.OB_OPENED + 1]
    out[f + 5] = obs[E.OB_PILE_N] / 10.0
    out[f + 6] = obs[E.OB_OPEN_MIN] / 180.0
    out[f + 7] = used / 7.0
    out[f + 8] = wild_used / 3.0
    out[f + 9] = late
    out[f + 10] = opp_out
    out[f + 11] = pairs / 5.0
    out[f + 12] = wilds / 4.0
    out[f + 13] = bonus / 4.0
    out[f + 14] = opp_melds / 6.0
    out[f + 15] = obs[E.OB_TURN] / 40.0


@njit(cache=True, _nrt=False)
def v2_features(obs, ctx, kind, c, cands, aux, keeps, out):
    """The features (``sim.policies.strong_v2_features``) of candidate ``c`` of a decision of
    ``kind`` listed by ``v2_candidates``."""
    a = cands[c]
    if kind == K_PICKUP:
        if a == E.A_TAKE_PILE:
            out[:] = 0.0
            pickup_features(obs, ctx, aux[c] == 1, out[:N_FEATURES])
        else:
            out[:] = 0.0
        return
    if kind == K_OPEN:
        if c == 0:
            open_features(obs, ctx, a, out)
        else:
            out[:] = 0.0
        return
    if kind == K_START:
        out[:] = 0.0
        if c == 0:
            slot = E.ACTION_TABLE[a, E.AC_SLOT]  # a start of SEVEN, ACE or WILD_MELD
            start_features(obs, ctx, slot, aux[0], False, out[:N_FEATURES])
        return
    if E.ACTION_TABLE[a, E.AC_TYPE] == E.AT_DISCARD:
        discard_features_v2(obs, ctx, E.ACTION_TABLE[a, E.AC_SLOT], aux[c], keeps[c], out)
    else:
        out[:] = 0.0
        slot = E.ACTION_TABLE[a, E.AC_SLOT]
        start_features(obs, ctx, slot, aux[c], True, out[:N_FEATURES])


def check_layout_v2(names) -> None:
    """A data file's feature list must be this build's v2 layout (``FEATURE_NAMES_V2``)."""
    from sim.errors import CanastaError

    if tuple(names) != FEATURE_NAMES_V2:
        raise CanastaError(
            f"the v2 evaluator's features ({len(names)}) are not this build's "
            f"({N_FEATURES_V2}); retrain with canasta train --stage distill2"
        )


assert FEATURE_NAMES_V2[:N_FEATURES] == FEATURE_NAMES
assert (E_BLOCK, O_BLOCK) == (19, 16)  # the kernels write these many each
assert np.unique(np.array(FEATURE_NAMES_V2)).size == N_FEATURES_V2
