"""``canasta score HAND.json``: score a finished hand for both teams (SCORE-1..8, OUT-3).

Input::

    {"ruleset": {...optional overrides...},
     "teams": [TEAM, TEAM]}
    TEAM = {"melds": [[cards], ...], "threes": [cards], "hands": [[cards], [cards]],
            "went_out": bool, "special_hand": [14 cards]}        # special_hand optional

Cards are tokens such as ``AS 10H JK`` (a list of tokens or one string). One deck is shared
by the whole file, so no card appears more often than two packs hold (CARD-1). A position the
rules could not produce is refused with one line naming the problem and the rule.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

TEAM_KEYS = ("melds", "threes", "hands", "went_out")  #: required keys of a team
OPTIONAL_TEAM_KEYS = ("special_hand",)


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "score",
        help="score a finished hand for both teams from a JSON position",
        description=(
            "Score a finished hand (SCORE-1..8, OUT-3) from a JSON file: "
            '{"ruleset": {...}, "teams": [TEAM, TEAM]} with TEAM = {"melds": [[cards]...], '
            '"threes": [cards], "hands": [[cards], [cards]], "went_out": bool, '
            '"special_hand": [14 cards] (optional)}. Cards in notation AS 10H JK. '
            "Impossible positions are refused, naming the rule."
        ),
    )
    p.add_argument("hand_file", metavar="HAND.json", help="the position to score")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(func=run)


# ---------------------------------------------------------------------------------------
# Reading the file: types and keys
# ---------------------------------------------------------------------------------------
def read_json(path: str):
    from sim.errors import CanastaError

    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        raise CanastaError(f"hand file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CanastaError(f"cannot read hand file {path}: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CanastaError(f"hand file {path} is not valid JSON: {exc}") from None


def _card_list(value, where: str) -> list[str]:
    """A list of card tokens or one string of them."""
    from sim.errors import CanastaError

    if isinstance(value, str):
        return value.split()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [t for v in value for t in v.split()]
    raise CanastaError(f'{where}: expected a list of cards such as ["AS", "JK"]')


def _list_of_card_lists(value, where: str) -> list[list[str]]:
    from sim.errors import CanastaError

    if not isinstance(value, list):
        raise CanastaError(f"{where}: expected a list of card lists")
    return [_card_list(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _team_fields(team, t: int) -> dict:
    from sim.errors import CanastaError

    where = f"team {t}"
    if not isinstance(team, dict):
        raise CanastaError(f"{where}: expected an object with keys {', '.join(TEAM_KEYS)}")
    missing = [k for k in TEAM_KEYS if k not in team]
    if missing:
        raise CanastaError(f"{where}: missing key {missing[0]!r}")
    unknown = sorted(set(team) - set(TEAM_KEYS) - set(OPTIONAL_TEAM_KEYS))
    if unknown:
        raise CanastaError(f"{where}: unknown key {unknown[0]!r}")
    if not isinstance(team["went_out"], bool):
        raise CanastaError(f"{where}: 'went_out' must be true or false")
    hands = _list_of_card_lists(team["hands"], f"{where} hands")
    if len(hands) != 2:
        raise CanastaError(f"{where} hands: expected the two partners' hands, got {len(hands)}")
    special = team.get("special_hand")
    return {
        "melds": _list_of_card_lists(team["melds"], f"{where} melds"),
        "threes": _card_list(team["threes"], f"{where} threes"),
        "hands": hands,
        "went_out": team["went_out"],
        "special": None if special is None else _card_list(special, f"{where} special_hand"),
    }


# ---------------------------------------------------------------------------------------
# Building the arrays and judging the position
# ---------------------------------------------------------------------------------------
def _refuse(code: int, where: str):
    from sim.errors import RuleViolation

    raise RuleViolation(code, where)


def _counts(tokens: list[str], taken, where: str):
    """Counts per kind of the tokens, drawing them from the file's one deck (CARD-1)."""
    from sim.cards import counts_of, parse_cards
    from sim.errors import CanastaError, RuleViolation

    ids = []
    for token in tokens:
        try:
            ids.extend(parse_cards([token], taken))
        except RuleViolation as exc:
            raise RuleViolation(exc.code, f"{where}: {token.upper()}") from None
        except CanastaError as exc:
            raise CanastaError(f"{where}: {exc}") from None
    return counts_of(ids)


def _add_meld(melds, t: int, counts, rules, long_ok: bool, where: str) -> None:
    """Judge one meld as a finished meld made on an empty table and add it to ``melds``.

    With the MELD-2 variant (``long_ok``: the variant is on and the team went out), a meld of
    more than 7 cards is judged as a 7-card meld plus its extra wild cards added by the player
    going out; any split of the extras between twos and jokers that the rules accept will do.
    """
    import numpy as np

    from sim import encoding as E
    from sim.legality import meld_reason

    if counts.sum() == 0:
        _refuse(E.R_EMPTY_MELD, where)  # MELD-1
    if counts[E.RED_THREE] + counts[E.BLACK_THREE]:
        _refuse(E.R_THREE_MELDED, where)  # DEAL-4
    natural_kinds = [k for k in E.NATURAL_KINDS if counts[k]]
    if len(natural_kinds) > 1:
        _refuse(E.R_MELD_MIXED_RANKS, where)  # MELD-1
    slot = natural_kinds[0] if natural_kinds else E.WILD_MELD
    if melds[t, slot].sum():
        _refuse(E.R_SECOND_MELD, where)  # MELD-3 (one wild meld per team, docs/rules.md)
    nat, two, joker = (
        int(counts[slot]) if natural_kinds else 0,
        int(counts[E.TWO]),
        int(counts[E.JOKER]),
    )
    extra = nat + two + joker - E.CANASTA
    code = E.R_OK
    if long_ok and extra > 0:
        code = E.R_MELD_TOO_LONG  # MELD-2 unless some split of the extras is legal
        for extra_jokers in range(min(extra, joker) + 1):
            extra_twos = extra - extra_jokers
            if extra_twos > two:
                continue
            base = np.zeros_like(melds)
            code = meld_reason(
                base, t, slot, nat, two - extra_twos, joker - extra_jokers, True, False, rules
            )
            if code == E.R_OK:
                base[t, slot] = nat, two - extra_twos, joker - extra_jokers
                code = meld_reason(base, t, slot, 0, extra_twos, extra_jokers, False, True, rules)
            if code == E.R_OK:
                break
    else:
        code = meld_reason(np.zeros_like(melds), t, slot, nat, two, joker, True, False, rules)
    if code != E.R_OK:
        _refuse(code, where)
    melds[t, slot, E.NATURALS], melds[t, slot, E.TWOS], melds[t, slot, E.JOKERS] = nat, two, joker


def load_position(data) -> dict:
    """Validate a position (the parsed JSON) and turn it into the scoring arrays.

    Returns ``{"rules": int64[N_RS], "melds": int64[2, N_KINDS, 3], "threes": int64[2, 2],
    "hands": int64[2, 2, N_KINDS], "went_out": [bool, bool], "special": [code, code]}``.
    Raises CanastaError (RuleViolation for a rule) naming the problem.
    """
    import numpy as np

    from sim import encoding as E
    from sim.errors import CanastaError
    from sim.legality import out_reason
    from sim.ruleset import Ruleset
    from sim.special import classify_special, special_reason

    if not isinstance(data, dict):
        raise CanastaError('hand file: expected an object {"ruleset": {...}, "teams": [...]}')
    unknown = sorted(set(data) - {"ruleset", "teams"})
    if unknown:
        raise CanastaError(f"hand file: unknown key {unknown[0]!r} (expected ruleset, teams)")
    if "teams" not in data:
        raise CanastaError("hand file: missing key 'teams'")
    overrides = data.get("ruleset")
    overrides = {} if overrides is None else overrides
    if not isinstance(overrides, dict):
        raise CanastaError("hand file: 'ruleset' must be an object of ruleset keys")
    ruleset = Ruleset.from_dict(overrides)
    rules = ruleset.to_array()
    teams = data["teams"]
    if not isinstance(teams, list) or len(teams) != E.N_TEAMS:
        raise CanastaError("hand file: 'teams' must be a list of the two teams")
    fields = [_team_fields(team, t) for t, team in enumerate(teams)]

    taken = np.zeros(E.N_CARDS, dtype=np.bool_)  # one deck for the whole file (CARD-1)
    melds = np.zeros((E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    threes = np.zeros((E.N_TEAMS, 2), dtype=np.int64)
    hands = np.zeros((E.N_TEAMS, 2, E.N_KINDS), dtype=np.int64)
    special = [E.SPECIAL_NONE, E.SPECIAL_NONE]
    for t, f in enumerate(fields):
        long_ok = ruleset.allow_long_meld_going_out and f["went_out"]
        for i, meld in enumerate(f["melds"]):
            where = f"team {t} meld {i + 1}"
            _add_meld(melds, t, _counts(meld, taken, where), rules, long_ok, where)
        c = _counts(f["threes"], taken, f"team {t} threes")
        if c.sum() != c[E.RED_THREE] + c[E.BLACK_THREE]:
            raise CanastaError(
                f"team {t} threes: only threes are laid down as bonus cards (DEAL-4)"
            )
        threes[t] = c[E.RED_THREE], c[E.BLACK_THREE]
        for p in range(2):
            hands[t, p] = _counts(f["hands"][p], taken, f"team {t} hand {p + 1}")
        if f["special"] is not None:
            where = f"team {t} special_hand"
            c = _counts(f["special"], taken, where)
            if f["melds"]:
                _refuse(E.R_SPECIAL_NOT_FIRST_MELD, f"{where}: the team has melds")
            if hands[t, 0].sum() and hands[t, 1].sum():
                raise CanastaError(
                    f"{where}: the declarer lays down all 14 cards, so one hand must be "
                    "empty (SPECIAL-1)"
                )
            code = special_reason(c, False, True, rules)  # SPECIAL-1,2,3..7
            if code != E.R_OK:
                _refuse(code, where)
            special[t] = int(classify_special(c, rules))

    # MELD-9: once a team completes a canasta of a rank, nobody adds to that rank
    for kind in E.NATURAL_KINDS:
        if all(melds[t, kind].sum() >= E.CANASTA for t in range(E.N_TEAMS)):
            _refuse(E.R_DEAD_RANK, f"both teams have a canasta of {E.KIND_NAMES[kind]}")
    went_out = [f["went_out"] for f in fields]
    enders = sum(went_out) + sum(s != E.SPECIAL_NONE for s in special)
    if enders > 1:
        raise CanastaError(
            "only one player ends a hand, by going out or by declaring a special hand: "
            "two are marked here (END-1)"
        )
    for t in range(E.N_TEAMS):
        if went_out[t]:
            code = out_reason(melds, t)  # OUT-1
            if code != E.R_OK:
                _refuse(code, f"team {t} went out")
            if hands[t, 0].sum() and hands[t, 1].sum():
                raise CanastaError(
                    f"team {t} went out, so one partner's hand must be empty (OUT-2)"
                )
    return {
        "rules": rules,
        "melds": melds,
        "threes": threes,
        "hands": hands,
        "went_out": went_out,
        "special": special,
    }


def score_position(pos: dict) -> list[dict]:
    """``[{"total": int, "breakdown": {item: int}}, ...]`` for both teams."""
    import numpy as np

    from sim import encoding as E
    from sim.scoring import score_team

    out = np.zeros(E.N_SCORE_ITEMS, dtype=np.int64)
    teams = []
    for t in range(E.N_TEAMS):
        score_team(
            pos["melds"][t],
            pos["threes"][t],
            pos["hands"][t],
            pos["went_out"][t],
            pos["special"][t],
            pos["rules"],
            out,
        )
        breakdown = dict(zip(E.SCORE_ITEMS, (int(x) for x in out), strict=True))
        teams.append({"total": int(out.sum()), "breakdown": breakdown})
    return teams


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
    teams = score_position(load_position(read_json(args.hand_file)))
    if args.format == "json":
        print(json.dumps({"teams": teams}))
    else:
        print(format_table(teams))
    return 0
