"""``canasta rules FILE``: what a ruleset file (or a preset name) means, in words.

Each key with its value, its rule ID and what it does; the keys set away from the default; the
special-hand list in force, hand by hand (groups, award, whether it wins the game). FILE may be
a ruleset TOML file or a preset name (``tournament``, ``cla``, ``none``).
"""

from __future__ import annotations

import argparse
import json

from canasta import flags

__all__ = ["explain", "run"]

HELP = "show what a ruleset file means in words (keys, rule IDs, the special-hand list)"
DESCRIPTION = """
Read a ruleset file (TOML) or a preset name (tournament, cla, none) and print every key with its
value, its rule ID and what it does, the keys changed from the default, and the special hands
of the list in force (SPECIAL-7..10).
"""  # argparse reflows it

#: key -> (rule ID, what it does), in Ruleset order
KEYS = {
    "allow_long_meld_going_out": ("MELD-2", "a meld may hold more than 7 cards when going out"),
    "max_wilds_mixed": ("MELD-4", "most wild cards in a mixed meld"),
    "rule_of_five": ("MELD-5", "a wild card joins a natural meld only once it holds 5 naturals"),
    "wild_penalty_four_jokers": ("SCORE-3", "penalty of an incomplete wild meld of 4 jokers"),
    "garbage_award": ("SPECIAL-6", "award of Garbage in the tournament list"),
    "special_hands": ("SPECIAL-7", "the special-hand list in force"),
    "target": ("GAME-1", "the score that wins a game"),
    "opening_minimum": (
        "OPEN-1",
        "the opening minimum by the team's 'score', or by the 'hand' number in the game",
    ),
    "opening_natural": (
        "OPEN-2",
        "the opening must include a natural meld of 3+ (false: a wild meld may stand in)",
    ),
}


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("rules", help=HELP, description=DESCRIPTION)
    p.add_argument("file", metavar="FILE", help="a ruleset TOML file, or tournament / cla / none")
    flags.add(p, "format")
    p.set_defaults(func=run)


def explain(ruleset) -> dict:
    """The JSON shape: name, keys {key: {value, rule, meaning, default}}, changed [keys],
    special_hands [{name, award, wins_game, words}]."""
    from sim.catalogue import describe
    from sim.ruleset import DEFAULT_RULESET

    keys = {}
    for key, value in ruleset.to_dict().items():
        if key == "name":
            continue
        rule, meaning = KEYS.get(key, ("", ""))
        default = DEFAULT_RULESET.to_dict().get(key)
        if key == "special_hands":
            value = ruleset.list_name
        keys[key] = {"value": value, "rule": rule, "meaning": meaning, "default": default}
    changed = [k for k, v in keys.items() if v["value"] != v["default"]]
    hands = [
        {"name": h.name, "award": h.award, "wins_game": h.wins_game, "words": words}
        for h, words in zip(ruleset.catalogue, describe(ruleset.catalogue), strict=True)
    ]
    return {"name": ruleset.label, "keys": keys, "changed": changed, "special_hands": hands}


def format_text(info: dict) -> str:
    lines = [f"Ruleset: {info['name']}", ""]
    width = max(len(k) for k in info["keys"])
    for key, row in info["keys"].items():
        mark = "*" if key in info["changed"] else " "
        value = json.dumps(row["value"]) if not isinstance(row["value"], str) else row["value"]
        lines.append(f"{mark} {key:<{width}}  {value:<12}  {row['rule']:<9}  {row['meaning']}")
    lines.append("")
    lines.append(
        "* set away from the default (the tournament game)"
        if info["changed"]
        else "Every key has its default value (the tournament game)."
    )
    hands = info["special_hands"]
    lines.append("")
    if not hands:
        lines.append("Special hands: none (SPECIAL-7).")
    else:
        lines.append(
            f"Special hands ({len(hands)}; each declared as the team's first and only meld, "
            "SPECIAL-1; cards forming several are declared as the highest award, SPECIAL-8):"
        )
        lines += [f"  {h['words']}" for h in hands]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from sim.ruleset import as_ruleset

    info = explain(as_ruleset(args.file))
    if args.format == "json":
        print(json.dumps(info))
    else:
        print(format_text(info))
    return 0
