"""``canasta check-meld [--initial] CARDS...``: is this one meld legal?"""

from __future__ import annotations

from canasta import flags

__all__ = ["run"]

HELP = "is a meld legal? (exit 0 legal, 1 illegal naming the rule, 2 bad input)"
DESCRIPTION = """
Judge one meld for a team that has already opened and has no meld of that rank (with --initial:
as one meld of the team's initial meld; the opening's totals, OPEN-1 and OPEN-2, concern the
whole opening and are not judged here). Fourteen cards are judged as a special hand declared
(SPECIAL-1..9, the list in force: --rules; the first and only meld, after a stock draw).
Cards like AS 10H 7D 2C JK.
"""  # argparse reflows it


def add_parser(sub):
    p = sub.add_parser("check-meld", help=HELP, description=DESCRIPTION)
    p.add_argument("cards", nargs="+", metavar="CARD", help="the meld's cards, e.g. 7H 7S 7D")
    p.add_argument("--initial", action="store_true", help="judge it as part of the initial meld")
    flags.add(p, "rules", rules="ruleset variants (default: tournament)")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    import numpy as np

    from sim.cards import counts_of, format_cards, parse_cards
    from sim.encoding import N_KINDS, N_MELD_COLS, N_TEAMS, R_OK, SPECIAL_HAND_SIZE, explain
    from sim.legality import judge_meld
    from sim.ruleset import as_ruleset

    ruleset = as_ruleset(args.rules)
    rules = ruleset.to_array()
    ids = parse_cards(args.cards)
    if len(ids) == SPECIAL_HAND_SIZE:  # SPECIAL-1: fourteen cards are a declaration
        return _declare(counts_of(ids), format_cards(ids), ruleset, rules)
    melds = np.zeros((N_TEAMS, N_KINDS, N_MELD_COLS), dtype=np.int64)
    code = judge_meld(counts_of(ids), melds, 0, args.initial, False, rules)
    shown = format_cards(ids)
    if code == R_OK:
        print(f"legal: {shown}" + (" (as part of the initial meld)" if args.initial else ""))
        return 0
    print(f"illegal: {shown}: {explain(code)}")
    return 1


def _declare(counts, shown, ruleset, rules) -> int:
    """SPECIAL-1..10: may these 14 cards be declared as a special hand of the list in force
    (as the team's first and only meld, after a stock draw)? Exit 0 naming the hand and its
    award (SCORE-8), 1 naming the rule that refuses it."""
    from sim.encoding import R_OK, explain
    from sim.special import classify_special, special_reason

    code = special_reason(counts, False, True, rules)
    if code != R_OK:
        print(f"illegal: {shown}: {explain(code)} (special hands: {ruleset.list_name})")
        return 1
    hand = ruleset.catalogue[int(classify_special(counts, rules)) - 1]
    wins = ", wins the game (SPECIAL-10)" if hand.wins_game else ""
    print(
        f"legal: {shown}: special hand {hand.name} ({hand.rule}, {ruleset.list_name} list), "
        f"{hand.award:,} (SCORE-8){wins}"
    )
    return 0
