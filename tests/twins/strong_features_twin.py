"""Pure-Python twin of sim.policies.strong_features: each feature computed by name, the
obvious way, from the observation decoded into named pieces.

It shares the observation's layout (``sim.encoding`` offsets) and the feature names with the
kernels, nothing else: values, canastas, OUT-1, dead ranks and unseen copies are counted
again here.
"""

from sim import encoding as E
from sim.play.view import SeatView

VALUE = {"JK": 50, "2": 20, "3r": 5, "3b": 5, "4": 5, "5": 5, "6": 5, "7": 5, "A": 20}
NATURALS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
KINDS = E.KIND_NAMES
COPIES = {"JK": 4, "2": 8, "3r": 4, "3b": 4} | {k: 8 for k in NATURALS}


def value(kind):
    return VALUE.get(kind, 10)


def decode(obs):
    """The observation as named pieces (read through ``sim.play.SeatView``): counts by kind
    name, melds [own|opp][slot] = (naturals, twos, jokers) with the wild meld under 'JK'."""
    v = SeatView.from_observation(obs)

    def counts(arr):
        return {k: int(arr[i]) for i, k in enumerate(KINDS)}

    melds = [
        {
            k: tuple(int(v.melds[t, i, c]) for c in (E.NATURALS, E.TWOS, E.JOKERS))
            for i, k in enumerate(KINDS)
        }
        for t in range(2)
    ]
    return {
        "hand": counts(v.hand),
        "pile": counts(v.pile_counts),
        "discards": counts(v.discards),
        "melds": melds,
        "pile_n": v.pile_n,
        "top": KINDS[v.pile_top] if v.pile_top >= 0 else None,
        "stock": v.stock_n,
        "opened": (int(v.opened[0]), int(v.opened[1])),
        "sizes": [int(x) for x in v.hand_sizes],
    }


def size(o, team, slot):
    return sum(o["melds"][team][slot])


def canastas(o, team):
    return sum(1 for slot in KINDS if size(o, team, slot) >= 7)


def may_go_out(o, team):
    """OUT-1."""
    if canastas(o, team) < 2:
        return False
    if 0 < size(o, team, "7") < 7:
        return False
    nat, two, jk = o["melds"][team]["A"]
    if 0 < nat + two + jk < 7 and two + jk == 0:
        return False
    return not 0 < size(o, team, "JK") < 7


def dead(o, kind):
    return kind in NATURALS and any(size(o, t, kind) >= 7 for t in range(2))


def unseen(o, kind):
    seen = o["hand"][kind] + o["pile"][kind]
    seen += o["melds"][0][kind][0] + o["melds"][1][kind][0]
    return COPIES[kind] - seen


def late(o, params):
    from sim.policies.builtin import H_LATE_STOCK, H_OPP_OUT_LATE

    if o["stock"] <= params[H_LATE_STOCK]:
        return 1.0
    return 1.0 if params[H_OPP_OUT_LATE] > 0 and may_go_out(o, 1) else 0.0


def _common(o, params):
    return {
        "late": late(o, params),
        "stock": o["stock"] / 100,
        "can": min(canastas(o, 0), 2) / 2,
        "opp_out": 1.0 if may_go_out(o, 1) else 0.0,
    }


def pickup(obs, params, base_takes):
    o = decode(obs)
    c = _common(o, params)
    top = o["top"]
    pile, hand = o["pile"], o["hand"]
    risky = top in ("7", "A") and size(o, 0, top) == 0
    live = [k for k in NATURALS if pile[k] and not dead(o, k)]
    return {
        "p_bias": 1.0,
        "p_base_takes": 1.0 if base_takes else 0.0,
        "p_pile": o["pile_n"] / 10,
        "p_pile_sq": (o["pile_n"] / 10) ** 2,
        "p_value": sum(n * value(k) for k, n in pile.items()) / 100,
        "p_wilds": (pile["2"] + pile["JK"]) / 4,
        "p_new_melds": sum(1 for k in live if size(o, 0, k) == 0 and hand[k] + pile[k] >= 3) / 4,
        "p_adds": sum(pile[k] for k in live if 0 < size(o, 0, k) < 7) / 5,
        "p_sevens": pile["7"] / 4,
        "p_aces": pile["A"] / 4,
        "p_top_risky": 1.0 if risky else 0.0,
        "p_top_risky_held": (hand[top] + pile[top]) / 7 if risky else 0.0,
        "p_top_meld": 1.0 if top is not None and size(o, 0, top) > 0 else 0.0,
        "p_dead": sum(pile[k] for k in NATURALS if dead(o, k)) / 5,
        "p_opened": float(o["opened"][0]),
        "p_opp_opened": float(o["opened"][1]),
        "p_stock": c["stock"],
        "p_hand": o["sizes"][0] / 14,
        "p_canastas": c["can"],
        "p_opp_out": c["opp_out"],
        "p_late": c["late"],
    }


def discard(obs, params, kind_id, rank, keep):
    o = decode(obs)
    c = _common(o, params)
    k = KINDS[kind_id]
    held = o["hand"][k]
    natural = k in NATURALS
    own = size(o, 0, k) if natural else 0
    opp = size(o, 1, k) if natural else 0
    u = unseen(o, k) if natural else 0
    live = natural and not dead(o, k) and opp < 5 and u >= 2
    risk = o["pile_n"] / 10 if live else 0.0
    v = value(k) / 50
    return {
        "d_bias": 1.0,
        "d_rank1": float(rank == 1),
        "d_rank2": float(rank == 2),
        "d_rank3": float(rank >= 3),
        "d_keep": keep / 100,
        "d_single": float(held == 1),
        "d_pair": float(held == 2),
        "d_many": float(held >= 3),
        "d_value": v,
        "d_value_late": v * c["late"],
        "d_value_stock": v * c["stock"],
        "d_seven": float(k == "7"),
        "d_ace": float(k == "A"),
        "d_wild": float(k in ("2", "JK")),
        "d_dead": float(dead(o, k)),
        "d_own_meld": float(0 < own < 7),
        "d_own_size": own / 7 if own < 7 else 0.0,
        "d_opp_meld": float(0 < opp < 5),
        "d_opp_full": float(5 <= opp < 7),
        "d_unseen": u / 8,
        "d_live_pair": float(live),
        "d_risk": risk,
        "d_risk_unopened": risk if not o["opened"][1] else 0.0,
        "d_risk_stock": risk * c["stock"],
        "d_discarded": o["discards"][k] / 8,
        "d_in_pile": o["pile"][k] / 8,
        "d_shed_third": float(k in ("7", "A") and held >= 3 and own == 0),
        "d_next_short": float(o["sizes"][1] <= 3),
        "d_empty_pile": float(o["pile_n"] == 0),
    }


def start(obs, params, slot_id, held, at_discard):
    o = decode(obs)
    c = _common(o, params)
    slot = KINDS[slot_id]
    if slot == "JK":  # the wild meld: twos and jokers not in hand, pile or any meld
        in_melds = sum(m[1] + m[2] for team in o["melds"] for m in team.values())
        u = 12 - o["hand"]["2"] - o["hand"]["JK"] - o["pile"]["2"] - o["pile"]["JK"] - in_melds
        in_pile = o["pile"]["2"] + o["pile"]["JK"]
    else:
        u = unseen(o, slot)
        in_pile = o["pile"][slot]
    return {
        "s_bias": 1.0,
        "s_at_discard": float(at_discard),
        "s_seven": float(slot == "7"),
        "s_ace": float(slot == "A"),
        "s_wild": float(slot == "JK"),
        "s_held": held / 7,
        "s_unseen": u / 8,
        "s_enough": float(u >= 7 - held),
        "s_stock": c["stock"],
        "s_late": c["late"],
        "s_opp_meld": float(size(o, 1, slot) > 0),
        "s_in_pile": in_pile / 4,
        "s_canastas": c["can"],
        "s_opp_out": c["opp_out"],
        "s_opened": float(o["opened"][0]),
    }
