"""Pure-Python twin of sim.scoring, written plainly from lists of melds.

A team position is plain lists of card names ('JK', '2', '3r', '3b', '4'..'10', 'J', 'Q',
'K', 'A'): ``melds`` a list of melds (each a list of names), ``threes`` the names of the
threes laid down, ``hands`` the two partners' cards left. Rule values are written out here,
not imported, so the twin and the kernel cannot share a mistake in a table.
"""

VALUE = {"JK": 50, "2": 20, "A": 20, "3r": 5, "3b": 5}
VALUE.update({r: 10 for r in ("K", "Q", "J", "10", "9", "8")})
VALUE.update({r: 5 for r in ("7", "6", "5", "4")})
WILD = ("JK", "2")
ITEMS = (
    "canasta_bonus",
    "going_out",
    "melded_cards",
    "threes",
    "cards_in_hand",
    "incomplete_melds",
    "hand_penalties",
    "special_hand",
)
SPECIAL_AWARD = {"straight": 3000, "pairs": 2500, "pairs_twos_sevens_aces": 2000}


def score_team(melds, threes, hands, went_out, special, rules):
    """Breakdown dict of the team's score; ``rules`` a dict of Ruleset fields."""
    items = dict.fromkeys(ITEMS, 0)
    if special:
        # SCORE-8: a special hand scores its award only
        if special == "garbage":
            items["special_hand"] = rules["garbage_award"]
        else:
            items["special_hand"] = SPECIAL_AWARD[special]
        return items

    n_canastas = len([m for m in melds if len(m) >= 7])
    aces_with_wilds = False
    for meld in melds:
        wilds = [c for c in meld if c in WILD]
        naturals = [c for c in meld if c not in WILD]
        complete = len(meld) >= 7
        if not naturals:  # the wild meld, SCORE-3
            if complete:
                if meld.count("2") == len(meld):
                    items["canasta_bonus"] += 3000
                elif meld.count("JK") == 4:
                    items["canasta_bonus"] += 2500
                else:
                    items["canasta_bonus"] += 2000
            elif meld.count("JK") == 4:
                items["incomplete_melds"] -= rules["wild_penalty_four_jokers"]
            else:
                items["incomplete_melds"] -= 2000
            continue
        rank = naturals[0]
        if rank == "A" and wilds:
            aces_with_wilds = True
        if rank in ("7", "A") and not wilds:  # SCORE-2
            if complete:
                items["canasta_bonus"] += 2500
            else:
                items["incomplete_melds"] -= 2500
        elif complete:  # SCORE-1
            items["canasta_bonus"] += 500 if not wilds else 300

    # SCORE-6
    melded = sum(VALUE[c] for meld in melds for c in meld)
    items["melded_cards"] = melded if n_canastas >= 1 else -melded

    # SCORE-7
    per_colour = {0: 0, 1: 100, 2: 300, 3: 500, 4: 1000}
    threes_total = per_colour[threes.count("3r")] + per_colour[threes.count("3b")]
    if n_canastas == 0:
        items["threes"] = -threes_total
    elif n_canastas == 1:
        items["threes"] = 0
    else:
        items["threes"] = threes_total

    # SCORE-5 and SCORE-4
    for hand in hands:
        items["cards_in_hand"] -= sum(VALUE[c] for c in hand)
        if hand.count("7") >= 3:
            items["hand_penalties"] -= 1500
        if hand.count("A") >= 3 and not aces_with_wilds:
            items["hand_penalties"] -= 1500

    if went_out:  # OUT-3
        items["going_out"] = 100
    return items
