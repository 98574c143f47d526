"""Pure-Python twin of sim.special, written the obvious way from a list of card tokens.

It reads only the printed tokens ('AS', '10H', '3D', 'JK'), so it shares no tables with the
kernel beyond the card notation.
"""

from collections import Counter

NATURAL_RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]
RED = ("H", "D")


def rank_of(token):
    return "JK" if token == "JK" else token[:-1]


def is_straight(tokens):
    """SPECIAL-3: A 2 3 4 5 6 7 8 9 10 J Q K and a joker, one each."""
    expected = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"]
    return sorted(rank_of(t) for t in tokens) == sorted(expected)


def is_pairs(tokens):
    """SPECIAL-4: seven pairs of seven different natural ranks."""
    c = Counter(rank_of(t) for t in tokens)
    return (
        len(tokens) == 14
        and len(c) == 7
        and all(r in NATURAL_RANKS and n == 2 for r, n in c.items())
    )


def is_pairs_twos_sevens_aces(tokens):
    """SPECIAL-5: seven pairs of seven different ranks including 2s, 7s and As, no jokers."""
    c = Counter(rank_of(t) for t in tokens)
    ranks_ok = all(r in [*NATURAL_RANKS, "2"] for r in c)
    return (
        len(tokens) == 14
        and len(c) == 7
        and ranks_ok
        and all(n == 2 for n in c.values())
        and {"2", "7", "A"} <= set(c)
    )


def is_garbage(tokens):
    """SPECIAL-6: 4 + 4 + 3 + 3 of four natural ranks."""
    c = Counter(rank_of(t) for t in tokens)
    return (
        len(tokens) == 14
        and all(r in NATURAL_RANKS for r in c)
        and sorted(c.values()) == [3, 3, 4, 4]
    )


def classify(tokens, specials_on=True):
    """Name of the special hand ('straight', 'pairs', ...) or '' (SPECIAL-7: '' when off)."""
    if not specials_on:
        return ""
    if is_straight(tokens):
        return "straight"
    if is_pairs(tokens):
        return "pairs"
    if is_pairs_twos_sevens_aces(tokens):
        return "pairs_twos_sevens_aces"
    if is_garbage(tokens):
        return "garbage"
    return ""


def award(name, garbage_award=2000):
    return {
        "straight": 3000,
        "pairs": 2500,
        "pairs_twos_sevens_aces": 2000,
        "garbage": garbage_award,
        "": 0,
    }[name]
