"""``canasta check-meld [--initial] CARDS...``: is this one meld legal?"""

from __future__ import annotations

from canasta import _options

HELP = "is a meld legal? (exit 0 legal, 1 illegal naming the rule, 2 bad input)"
DESCRIPTION = """
Judge one meld for a team that has already opened and has no meld of that rank (with --initial:
as one meld of the team's initial meld; the opening's totals, OPEN-1 and OPEN-2, concern the
whole opening and are not judged here). Cards like AS 10H 7D 2C JK.
"""  # argparse reflows it


def add_parser(sub):
    p = sub.add_parser("check-meld", help=HELP, description=DESCRIPTION)
    p.add_argument("cards", nargs="+", metavar="CARD", help="the meld's cards, e.g. 7H 7S 7D")
    p.add_argument("--initial", action="store_true", help="judge it as part of the initial meld")
    _options.add(p, "rules", rules="ruleset variants (default: tournament)")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    import numpy as np

    from sim.cards import counts_of, format_cards, parse_cards
    from sim.encoding import N_KINDS, N_MELD_COLS, N_TEAMS, R_OK, explain
    from sim.legality import judge_meld
    from sim.ruleset import as_ruleset

    rules = as_ruleset(args.rules).to_array()
    ids = parse_cards(args.cards)
    melds = np.zeros((N_TEAMS, N_KINDS, N_MELD_COLS), dtype=np.int64)
    code = judge_meld(counts_of(ids), melds, 0, args.initial, False, rules)
    shown = format_cards(ids)
    if code == R_OK:
        print(f"legal: {shown}" + (" (as part of the initial meld)" if args.initial else ""))
        return 0
    print(f"illegal: {shown}: {explain(code)}")
    return 1
