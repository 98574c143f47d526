"""``canasta score HAND.json``: score a finished hand for both teams (SCORE-1..8, OUT-3).

Input::

    {"ruleset": {...optional overrides...},
     "teams": [TEAM, TEAM]}
    TEAM = {"melds": [[cards], ...], "threes": [cards], "hands": [[cards], [cards]],
            "went_out": bool, "special_hand": [14 cards]}        # special_hand optional

Cards are tokens such as ``AS 10H JK`` (a list of tokens or one string). One deck is shared
by the whole file, so no card appears more often than two packs hold (CARD-1). A position the
rules could not produce is refused with one line naming the problem and the rule. Reading,
checking and scoring the position is library code (``sim.finished``); this command reads the
file and prints.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from canasta import flags

__all__ = ["run"]

HELP = "score a finished hand for both teams from a JSON position"
DESCRIPTION = """
Score a finished hand (SCORE-1..8, OUT-3) from a JSON file: {"ruleset": {...}, "teams": [TEAM,
TEAM]} with TEAM = {"melds": [[cards]...], "threes": [cards], "hands": [[cards], [cards]],
"went_out": bool, "special_hand": [14 cards] (optional)}. Cards in notation AS 10H JK.
Impossible positions are refused, naming the rule.
"""  # argparse reflows it


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("score", help=HELP, description=DESCRIPTION)
    p.add_argument("hand_file", metavar="HAND.json", help="the position to score")
    flags.add(
        p,
        "rules",
        "format",
        rules='ruleset file (TOML) or preset; the hand file\'s "ruleset" keys apply over it',
    )
    p.set_defaults(func=run)


def read_json(path: str):
    from sim.errors import CanastaError

    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        raise CanastaError(f"hand file not found: {path}") from None
    except (OSError, ValueError) as exc:  # a directory, no permission, not UTF-8...
        raise CanastaError(f"cannot read hand file {path}: {exc}") from None
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, a 5,000-digit number...
        raise CanastaError(f"hand file {path} is not valid JSON: {exc}") from None


def format_table(teams: list[dict]) -> str:
    items = list(teams[0]["breakdown"])
    width = max(len(i) for i in [*items, "total"])
    lines = [f"{'':<{width}}  {'team 0':>8}  {'team 1':>8}"]
    for item in items:
        vals = [t["breakdown"][item] for t in teams]
        lines.append(f"{item:<{width}}  {vals[0]:>8,}  {vals[1]:>8,}")
    lines.append(f"{'total':<{width}}  {teams[0]['total']:>8,}  {teams[1]['total']:>8,}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from sim.finished import load_position, score_position
    from sim.ruleset import as_ruleset

    base = as_ruleset(args.rules) if args.rules else None
    pos = load_position(read_json(args.hand_file), base)
    teams = score_position(pos)
    if args.format == "json":
        print(json.dumps({"teams": teams, "ruleset": pos["ruleset"].label}))
    else:
        print(f"Ruleset: {pos['ruleset'].label}")
        print(format_table(teams))
    return 0
