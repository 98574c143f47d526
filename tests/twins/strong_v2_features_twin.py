"""Pure-Python twin of sim.policies.strong_v2_features' two blocks after strong's (the discard
extra block and the opening block), each feature computed by name from the observation
decoded by ``strong_features_twin``; strong's own 65 come from that twin."""

from sim import encoding as E
from sim.play.view import SeatView
from tests.twins import strong_features_twin as base


def known(obs, seat, kind):
    """Copies of ``kind`` the public card memory places in relative ``seat``'s hand."""
    return int(SeatView.from_observation(obs).known[seat, E.KIND_NAMES.index(kind)])


def discard(obs, params, kind_id, rank, keep):
    """strong's discard block (the twin's) and the extra block of discarding ``kind_id``."""
    row = base.discard(obs, params, kind_id, rank, keep)
    o = base.decode(obs)
    c = base._common(o, params)
    k = base.KINDS[kind_id]
    natural = k in base.NATURALS
    is_dead = base.dead(o, k)
    own = base.size(o, 0, k) if natural else 0
    opp = base.size(o, 1, k) if natural else 0
    u = base.unseen(o, k) if natural else 0
    live = natural and not is_dead and opp < 5 and u >= 2
    pile_n = o["pile_n"] / 10
    pile_value = sum(n * base.value(kind) for kind, n in o["pile"].items())
    pile_wilds = o["pile"]["2"] + o["pile"]["JK"]
    next_known = known(obs, 1, k) if natural else 0
    next_pair = natural and not is_dead and opp < 5 and next_known >= 2
    risk = row["d_risk"]
    return row | {
        "e_rank": rank / 12,
        "e_next_known": next_known / 2,
        "e_next_pair": float(next_pair),
        "e_next_pair_pile": pile_n if next_pair else 0.0,
        "e_live_value": pile_value / 100 if live else 0.0,
        "e_live_wilds": pile_wilds / 4 if live else 0.0,
        "e_unseen_pile": u / 8 * pile_n if natural and not is_dead else 0.0,
        "e_risk_sq": risk**2,
        "e_risk_opp_out": risk * c["opp_out"],
        "e_risk_late": risk * c["late"],
        "e_next_small": o["sizes"][1] / 14 if live else 0.0,
        "e_breaks_group": float(natural and not is_dead and o["hand"][k] >= 3 and own == 0),
        "e_keep_late": row["d_keep"] * c["late"],
        "e_value_small_hand": row["d_value"] if o["sizes"][0] <= 3 else 0.0,
        "e_top_kind": float(k == o["top"]),
        "e_partner_known": known(obs, 2, k) / 2,
        "e_prev_known": known(obs, 3, k) / 2,
        "e_own_near": float(5 <= own < 7),
        "e_opp_near": float(5 <= opp < 7),
    }


def opening(obs, params, nat, two, joker):
    """The opening block of laying now an opening whose first meld uses ``nat`` naturals,
    ``two`` twos and ``joker`` jokers."""
    o = base.decode(obs)
    c = base._common(o, params)
    hand = o["hand"]
    bonus = 0
    if not obs[E.OB_TURN_CARD_DRAWN] and not obs[E.OB_TOOK_PILE]:
        bonus = 3 if o["opened"][1] else 4  # OPEN-5
    return {
        "o_bias": 1.0,
        "o_stock": c["stock"],
        "o_stock_sq": c["stock"] ** 2,
        "o_hand": o["sizes"][0] / 14,
        "o_opp_opened": float(o["opened"][1]),
        "o_pile": o["pile_n"] / 10,
        "o_min": int(obs[E.OB_OPEN_MIN]) / 180,
        "o_first_meld": (nat + two + joker) / 7,
        "o_wilds": (two + joker) / 3,
        "o_late": c["late"],
        "o_opp_out": c["opp_out"],
        "o_pairs": sum(1 for k in base.NATURALS if hand[k] >= 2) / 5,
        "o_wilds_held": (hand["2"] + hand["JK"]) / 4,
        "o_bonus": bonus / 4,
        "o_opp_melds": sum(1 for s in base.KINDS if base.size(o, 1, s) > 0) / 6,
        "o_turn": int(obs[E.OB_TURN]) / 40,
    }
