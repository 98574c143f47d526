"""Slow, obvious twins of sim.legality, written from the rule text, for agreement tests.

Positions are plain Python: a meld is a dict {"n": naturals, "t": twos, "j": jokers}; a team's
melds map slot -> meld; hands are lists of counts per kind. The twin of opening_search_alloc is a
brute-force search over every way to meld the hand, not a dynamic programme.
"""

from __future__ import annotations

from sim import encoding as E

VALUE = [int(v) for v in E.KIND_VALUE]
NATURAL = list(E.NATURAL_KINDS)


def size(m):
    return m["n"] + m["t"] + m["j"]


def team_melds(melds, team):
    return {
        s: {"n": int(melds[team, s, 0]), "t": int(melds[team, s, 1]), "j": int(melds[team, s, 2])}
        for s in range(E.N_KINDS)
    }


def dead(melds, kind):
    return kind in NATURAL and any(size(team_melds(melds, t)[kind]) == 7 for t in (0, 1))


def meld_twin(melds, team, slot, nat, two, joker, initial, going_out, rules):
    mine = team_melds(melds, team)
    max_w = int(rules[E.RS_MAX_WILDS_MIXED])
    long_variant = bool(rules[E.RS_ALLOW_LONG_MELD_GOING_OUT])
    add = nat + two + joker
    if min(nat, two, joker) < 0 or add == 0:
        return E.R_EMPTY_MELD
    if slot in E.THREE_KINDS:
        return E.R_THREE_MELDED
    if slot not in NATURAL and slot != E.WILD_MELD:
        return E.R_MELD_MIXED_RANKS
    before = mine[slot]
    after = {"n": before["n"] + nat, "t": before["t"] + two, "j": before["j"] + joker}
    exception = long_variant and going_out and nat == 0 and size(before) > 0
    if slot == E.WILD_MELD:
        if nat:
            return E.R_MELD_MIXED_RANKS
        if size(before) == 0 and size(after) < 3:
            return E.R_MELD_TOO_SMALL
        if size(after) > 7 and not exception:
            return E.R_MELD_TOO_LONG
        return E.R_OK
    if dead(melds, slot) and not (exception and size(before) == 7):
        return E.R_DEAD_RANK
    if size(before) == 0 and size(after) < 3:
        return E.R_MELD_TOO_SMALL
    if size(after) > 7 and not exception:
        return E.R_MELD_TOO_LONG
    if two + joker:
        if slot == E.SEVEN:
            return E.R_SEVENS_WILD
        if slot == E.ACE and not initial and before["t"] + before["j"] == 0:
            return E.R_ACES_WILD
        wild = mine[E.WILD_MELD]
        if 0 < size(wild) < 7:
            return E.R_WILD_MELD_INCOMPLETE
        if not initial and rules[E.RS_RULE_OF_FIVE] and after["n"] < 5:
            return E.R_RULE_OF_FIVE
    if after["t"] + after["j"]:
        if after["n"] < 2:
            return E.R_MIXED_TOO_FEW_NATURALS
        if after["t"] + after["j"] > max_w:
            return E.R_MIXED_TOO_MANY_WILDS
    return E.R_OK


def out_twin(melds, team):
    mine = team_melds(melds, team)
    if sum(size(m) == 7 for m in mine.values()) < 2:
        return E.R_OUT_CANASTAS
    if 0 < size(mine[E.SEVEN]) < 7:
        return E.R_OUT_INCOMPLETE_SEVENS
    aces = mine[E.ACE]
    if 0 < size(aces) < 7 and aces["t"] + aces["j"] == 0:
        return E.R_OUT_INCOMPLETE_ACES
    if 0 < size(mine[E.WILD_MELD]) < 7:
        return E.R_OUT_INCOMPLETE_WILD
    return E.R_OK


def leave_twin(hand, melds, team, bonus=False):
    """OUT-2 as written: a card to discard (never a three) and a card to hold, unless going out
    (then OUT-1); a player owed bonus cards (OPEN-5) needs only the card to discard."""
    cards = [k for k in range(E.N_KINDS) for _ in range(int(hand[k]))]
    if not [k for k in cards if k not in E.THREE_KINDS]:
        return E.R_MELD_LEAVES_NO_DISCARD
    if len(cards) == 1 and not bonus:
        return out_twin(melds, team)
    return E.R_OK


def discard_twin(hand, kind, melds, pile_size):
    def basic(k):
        if hand[k] <= 0:
            return E.R_NOT_HELD
        if k in E.THREE_KINDS:
            return E.R_DISCARD_THREE
        if k in E.WILD_KINDS:
            others = [
                c
                for c in range(E.N_KINDS)
                if hand[c] and c not in E.WILD_KINDS and c not in E.THREE_KINDS
            ]
            if sum(hand) != 1 and others:
                return E.R_DISCARD_WILD
        return E.R_OK

    def restricted(k):
        return k in (E.SEVEN, E.ACE, E.JOKER, E.TWO) or dead(melds, k)

    code = basic(kind)
    if code != E.R_OK:
        return code
    if pile_size == 0 and restricted(kind):
        if any(basic(k) == E.R_OK and not restricted(k) for k in range(E.N_KINDS) if k != kind):
            return E.R_DISCARD_EMPTY_PILE
    return E.R_OK


def opening_count(from_hand):
    total = 0
    for slot in range(E.N_KINDS):
        if slot != E.WILD_MELD:
            total += from_hand[slot][0] * VALUE[slot]
        total += from_hand[slot][1] * 20 + from_hand[slot][2] * 50
    return total


def opening_search_twin(
    hand, pending, melds, pile_kind, extra, rules, bonus=False, open_2=True, open_4=True, leave=True
):
    """Largest valid opening count by trying every way to meld the hand (or -1). ``bonus``: the
    player is owed bonus cards (OPEN-5: OUT-2 asks only for a card to discard); ``open_2``,
    ``open_4``, ``leave``: judge OPEN-2, OPEN-4, OUT-1/2 (False: search as if they did not hold,
    to name the rule refusing an opening)."""
    max_w = int(rules[E.RS_MAX_WILDS_MIXED])
    hand = [int(x) for x in hand]
    pend = [[int(pending[s, c]) for c in range(3)] for s in range(E.N_KINDS)]
    threes = hand[E.RED_THREE] + hand[E.BLACK_THREE]
    best = -1

    def finish(choice, twos_left, jokers_left):
        nonlocal best
        pend_wm = pend[E.WILD_MELD][1] + pend[E.WILD_MELD][2]
        added_to_naturals = any(choice[k][1] + choice[k][2] for k in choice)
        for tq in range(twos_left + 1):
            for jq in range(jokers_left + 1):
                wm = pend_wm + tq + jq
                if 0 < wm < 3 or wm > 7:
                    continue
                if added_to_naturals and 0 < pend_wm < 7 and wm < 7:
                    continue  # MELD-8
                final = {}
                from_hand = [row[:] for row in pend]
                for k in NATURAL:
                    a, t, j = choice.get(k, (0, 0, 0))
                    from_hand[k][0] += a
                    from_hand[k][1] += t
                    from_hand[k][2] += j
                    top = 1 if k == pile_kind else 0
                    final[k] = (from_hand[k][0] + top, from_hand[k][1] + from_hand[k][2])
                from_hand[E.WILD_MELD][1] += tq
                from_hand[E.WILD_MELD][2] += jq
                if open_2 and not any(
                    n_hand >= 3 and final[k][1] == 0
                    for k in NATURAL
                    for n_hand in [from_hand[k][0]]
                ):
                    continue  # OPEN-2
                used = sum(choice[k][0] + choice[k][1] + choice[k][2] for k in choice) + tq + jq
                left = sum(hand) - threes - used + extra
                if leave and left == 0:
                    continue
                if leave and left == 1 and threes == 0 and not bonus:
                    n_can = sum(1 for k in NATURAL if sum(final[k]) == 7) + (wm == 7)
                    unfinished_7 = 0 < sum(final[E.SEVEN]) < 7
                    unfinished_a = 0 < sum(final[E.ACE]) < 7 and final[E.ACE][1] == 0
                    if n_can < 2 or unfinished_7 or unfinished_a or 0 < wm < 7:
                        continue
                best = max(best, opening_count(from_hand))

    kinds = NATURAL

    def rec(i, choice, twos_left, jokers_left):
        if i == len(kinds):
            finish(choice, twos_left, jokers_left)
            return
        k = kinds[i]
        top = 1 if k == pile_kind else 0
        for a in range(0 if dead(melds, k) else hand[k], -1, -1):
            n = pend[k][0] + a
            if top and n < 2:
                continue
            for t in range(1 if dead(melds, k) else twos_left + 1):
                for j in range(1 if dead(melds, k) else jokers_left + 1):
                    w = pend[k][1] + pend[k][2] + t + j
                    total = n + top + w
                    if total == 0:
                        ok = True
                    elif total < 3:
                        ok = False
                    elif w:
                        ok = n + top >= 2 and w <= max_w and k != E.SEVEN
                        ok = ok and (total <= 6 if open_4 else total <= 7)
                    else:
                        ok = total <= 7
                    if ok:
                        choice[k] = (a, t, j)
                        rec(i + 1, choice, twos_left - t, jokers_left - j)
                        del choice[k]

    rec(0, {}, hand[E.TWO], hand[E.JOKER])
    return best


def opening_refusal_twin(hand, pending, melds, pile_kind, extra, rules, min_count, bonus):
    """The rule refusing an opening that cannot reach ``min_count``: the first of OPEN-2,
    OPEN-4, the leave rule (OUT-2, or OUT-1 for one card) whose relaxation alone reaches it,
    then pairs of them, then all; OPEN-1 if none does. The leave rule's reason is judged on the
    relaxed best plan by the sim kernel's plan, so here only its family is returned: 'OUT'."""
    args = (hand, pending, melds, pile_kind, extra, rules, bonus)
    if opening_search_twin(*args) >= min_count:
        return E.R_OK
    for o2, o4, lv in [(0, 1, 1), (1, 0, 1), (1, 1, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0), (0, 0, 0)]:
        if (
            opening_search_twin(*args, open_2=bool(o2), open_4=bool(o4), leave=bool(lv))
            >= min_count
        ):
            if not o2:
                return E.R_OPEN_NO_NATURAL_MELD
            if not o4:
                return E.R_OPEN_MIXED_CANASTA
            return "OUT"
    return E.R_OPEN_MINIMUM


def pile_twin(hand, melds, team, pile_counts, top_kind, opened, min_count, rules):
    if sum(pile_counts) == 0:
        return E.R_PILE_EMPTY
    if top_kind in E.WILD_KINDS or top_kind in E.THREE_KINDS:
        return E.R_PILE_TOP_WILD_OR_THREE
    if dead(melds, top_kind):
        return E.R_PILE_DEAD_RANK
    if size(team_melds(melds, team)[top_kind]) >= 5:
        return E.R_PILE_MELD_FULL
    if hand[top_kind] < 2:
        return E.R_PILE_NO_PAIR
    rest = [int(x) for x in hand]
    rest[top_kind] -= 2
    if not opened:
        import numpy as np

        pending = np.zeros((E.N_KINDS, 3), dtype=np.int64)
        pending[top_kind, 0] = 2
        got = opening_search_twin(rest, pending, melds, top_kind, sum(pile_counts) - 1, rules)
        return E.R_OK if got >= min_count else E.R_PILE_CANNOT_OPEN
    after = melds.copy()
    after[team, top_kind, 0] += 3
    for k in range(E.N_KINDS):
        rest[k] += int(pile_counts[k])
    rest[top_kind] -= 1
    return leave_twin(rest, after, team)
