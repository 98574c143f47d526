"""Finished hands and games: read an end-of-hand position, refuse one the rules could not
produce, score it; say when a game has ended (GAME-1) and whether it may start.

The library side of ``canasta score`` (the command only reads the file and prints): a position
is a mapping (parsed JSON)::

    {"ruleset": {...optional overrides...},
     "teams": [TEAM, TEAM]}
    TEAM = {"melds": [[cards], ...], "threes": [cards], "hands": [[cards], [cards]],
            "went_out": bool, "special_hand": [14 cards]}        # special_hand optional

Cards are tokens such as ``AS 10H JK`` (a list of tokens or one string). One deck is shared
by the whole position, so no card appears more often than two packs hold (CARD-1).

``load_position(data)`` checks it and returns the scoring arrays; ``score_position(pos)``
scores both teams (SCORE-1..8, OUT-3). The checks of how a hand can end live in
``check_end`` and ``check_table``, which other positions (what-if positions) can share:

- every meld is a legal finished meld made from nothing (MELD-1..8, DEAL-4; MELD-2's variant
  for the team that went out), one meld per rank and one wild meld per team (MELD-3), and no
  rank completed as a canasta by both teams (MELD-9);
- at most one player ends the hand, by going out or declaring a special hand (END-1);
- the team that went out may (OUT-1), and its player who went out holds nothing (OUT-2);
- every other player holds a card: a player who does not go out keeps one (OUT-2), so a
  team whose partners both hold nothing, or both teams with nothing, is refused (OUT-2, END-1);
- a special hand is the team's first meld, its declarer lays down all 14 cards (SPECIAL-1),
  and its cards make a special hand of the ruleset (SPECIAL-2..7).

The end of a game by its totals has one owner here, for every face: ``game_outcome`` (GAME-1:
the team at or over the target with the higher total has won; an exact tie there plays another
hand), ``game_winner`` (its winner, -1 while the game goes on) and ``game_outcomes`` (the same
rule over arrays of scores, which the equity solver reads),
``past_bound`` (a total beyond ``sim.limits.MAX_SCORE`` either way ends the game undecided,
as no face can deal a hand from it) and ``check_game_start`` (a game may start from any
scores at which neither team has won: a tie at or over the target is such a start). The
compiled games kernel, ``sim.play.game.GameDriver`` (so the env, the web table and replays), the
games' setup (``sim.simulate_games``), the equity solver and table call them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit

from sim import encoding as E
from sim.errors import CanastaError, RuleViolation
from sim.limits import MAX_SCORE

__all__ = [
    "GAME_ON",
    "GAME_TIED",
    "check_end",
    "check_game_start",
    "check_table",
    "game_outcome",
    "game_outcomes",
    "game_winner",
    "load_position",
    "past_bound",
    "score_position",
]

TEAM_KEYS = ("melds", "threes", "hands", "went_out")  #: required keys of a team
OPTIONAL_TEAM_KEYS = ("special_hand",)


# ---------------------------------------------------------------------------------------
# Reading the mapping: types and keys
# ---------------------------------------------------------------------------------------
def _card_list(value, where: str) -> list[str]:
    """A list of card tokens or one string of them (an empty item in a list is refused)."""
    from sim.cards import tokenize

    if isinstance(value, str) or (
        isinstance(value, list) and all(isinstance(v, str) for v in value)
    ):
        try:
            return tokenize(value)
        except CanastaError as exc:
            raise CanastaError(f"{where}: {exc}") from None
    raise CanastaError(f'{where}: expected a list of cards such as ["AS", "JK"]')


def _list_of_card_lists(value, where: str) -> list[list[str]]:
    if not isinstance(value, list):
        raise CanastaError(f"{where}: expected a list of card lists")
    return [_card_list(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _team_fields(team, t: int) -> dict:
    where = f"team {t}"
    if not isinstance(team, Mapping):
        raise CanastaError(f"{where}: expected an object with keys {', '.join(TEAM_KEYS)}")
    missing = [k for k in TEAM_KEYS if k not in team]
    if missing:
        raise CanastaError(f"{where}: missing key {missing[0]!r}")
    unknown = sorted(set(team) - set(TEAM_KEYS) - set(OPTIONAL_TEAM_KEYS), key=str)
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
def _counts(tokens: list[str], taken, where: str):
    """Counts per kind of the tokens, drawing them from the position's one deck (CARD-1)."""
    from sim.cards import counts_of, parse_cards

    ids = []
    for token in tokens:
        try:
            ids.extend(parse_cards([token], taken))
        except RuleViolation as exc:
            raise RuleViolation(exc.code, f"{where}: {token.upper()}") from None
        except CanastaError as exc:
            raise CanastaError(f"{where}: {exc}") from None
    return counts_of(ids)


def add_meld(melds, t: int, counts, rules, long_ok: bool, where: str) -> None:
    """Judge one meld as a finished meld made on an empty table and add it to ``melds``.

    With the MELD-2 variant (``long_ok``: the variant is on and the team went out), a meld of
    more than 7 cards is judged as a 7-card meld plus its extra wild cards added by the player
    going out; any split of the extras between twos and jokers that the rules accept will do.
    """
    from sim.legality import meld_reason

    if counts.sum() == 0:
        raise RuleViolation(E.R_EMPTY_MELD, where)  # MELD-1
    if counts[E.RED_THREE] + counts[E.BLACK_THREE]:
        raise RuleViolation(E.R_THREE_MELDED, where)  # DEAL-4
    natural_kinds = [k for k in E.NATURAL_KINDS if counts[k]]
    if len(natural_kinds) > 1:
        raise RuleViolation(E.R_MELD_MIXED_RANKS, where)  # MELD-1
    slot = natural_kinds[0] if natural_kinds else E.WILD_MELD
    if melds[t, slot].sum():
        raise RuleViolation(E.R_SECOND_MELD, where)  # MELD-3 (one wild meld per team)
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
        raise RuleViolation(code, where)
    melds[t, slot, E.NATURALS], melds[t, slot, E.TWOS], melds[t, slot, E.JOKERS] = nat, two, joker


def check_table(melds) -> None:
    """MELD-9: once a team completes a canasta of a rank, nobody adds to that rank, so the two
    teams never both hold a canasta of one rank."""
    for kind in E.NATURAL_KINDS:
        if all(melds[t, kind].sum() >= E.CANASTA for t in range(E.N_TEAMS)):
            raise RuleViolation(E.R_DEAD_RANK, f"both teams have a canasta of {E.KIND_NAMES[kind]}")


def check_end(melds, hands, went_out, special) -> None:
    """Refuse an end of a hand that cannot happen (END-1, OUT-1, OUT-2, SPECIAL-1).

    ``melds`` int64[2, N_KINDS, 3], ``hands`` int64[2, 2, N_KINDS] (each partner's cards left),
    ``went_out`` [bool, bool], ``special`` [code, code] (``SPECIAL_NONE``: none declared)."""
    from sim.legality import out_reason

    declared = [s != E.SPECIAL_NONE for s in special]
    if sum(went_out) + sum(declared) > 1:
        raise CanastaError(
            "only one player ends a hand, by going out or by declaring a special hand: "
            "two are marked here (END-1)"
        )
    for t in range(E.N_TEAMS):
        empty = [int(hands[t, p].sum()) == 0 for p in range(2)]
        if went_out[t]:
            code = out_reason(melds, t)  # OUT-1
            if code != E.R_OK:
                raise RuleViolation(code, f"team {t} went out")
            if not any(empty):
                raise CanastaError(
                    f"team {t} went out, so one partner's hand must be empty (OUT-2)"
                )
        elif declared[t] and not any(empty):
            raise CanastaError(
                f"team {t} special_hand: the declarer lays down all 14 cards, so one hand must "
                "be empty (SPECIAL-1)"
            )
        if all(empty):  # the partner of the one who ended the hand keeps a card too
            why = (
                "but neither went out nor declared a special hand"
                if not (went_out[t] or declared[t])
                else "but only the player who ended the hand is left with nothing"
            )
            raise CanastaError(
                f"team {t}: both partners hold no card, {why}: a player who does not go out "
                "keeps a card (OUT-2; END-1: only the player who ends the hand holds nothing)"
            )
        if not (went_out[t] or declared[t]) and any(empty):
            p = empty.index(True)
            raise CanastaError(
                f"team {t} hand {p + 1} holds no card, but the team neither went out nor "
                "declared a special hand: a player who does not go out keeps a card (OUT-2; "
                "END-1: only the player who ends the hand holds nothing)"
            )


def load_position(data: Any, base=None) -> dict:
    """Check a finished hand (the parsed JSON) and turn it into the scoring arrays.

    Returns ``{"rules": int64[N_RS], "melds": int64[2, N_KINDS, 3], "threes": int64[2, 2],
    "hands": int64[2, 2, N_KINDS], "went_out": [bool, bool], "special": [code, code],
    "ruleset": Ruleset}``; ``base`` is the Ruleset the file's overrides apply to (default: the
    defaults).
    Raises CanastaError (RuleViolation for a rule) naming the problem and the rule.
    """
    from sim.ruleset import Ruleset
    from sim.special import classify_special, special_reason

    if not isinstance(data, Mapping):
        raise CanastaError('hand file: expected an object {"ruleset": {...}, "teams": [...]}')
    unknown = sorted(set(data) - {"ruleset", "teams"}, key=str)
    if unknown:
        raise CanastaError(f"hand file: unknown key {unknown[0]!r} (expected ruleset, teams)")
    if "teams" not in data:
        raise CanastaError("hand file: missing key 'teams'")
    overrides = data.get("ruleset")
    overrides = {} if overrides is None else overrides
    if not isinstance(overrides, Mapping):
        raise CanastaError("hand file: 'ruleset' must be an object of ruleset keys")
    # the file's "ruleset" overrides apply over ``base`` (a Ruleset: canasta score --rules)
    if base is not None and not overrides:  # keeps the file's name for printed labels
        ruleset = base
    else:
        ruleset = Ruleset.from_dict({**(base.to_dict() if base is not None else {}), **overrides})
    rules = ruleset.to_array()
    teams = data["teams"]
    if not isinstance(teams, list) or len(teams) != E.N_TEAMS:
        raise CanastaError("hand file: 'teams' must be a list of the two teams")
    fields = [_team_fields(team, t) for t, team in enumerate(teams)]

    taken = np.zeros(E.N_CARDS, dtype=np.bool_)  # one deck for the whole position (CARD-1)
    melds = np.zeros((E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    threes = np.zeros((E.N_TEAMS, 2), dtype=np.int64)
    hands = np.zeros((E.N_TEAMS, 2, E.N_KINDS), dtype=np.int64)
    special = [E.SPECIAL_NONE, E.SPECIAL_NONE]
    for t, f in enumerate(fields):
        long_ok = ruleset.allow_long_meld_going_out and f["went_out"]
        for i, meld in enumerate(f["melds"]):
            where = f"team {t} meld {i + 1}"
            add_meld(melds, t, _counts(meld, taken, where), rules, long_ok, where)
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
                raise RuleViolation(E.R_SPECIAL_NOT_FIRST_MELD, f"{where}: the team has melds")
            code = special_reason(c, False, True, rules)  # SPECIAL-1,2,3..7
            if code != E.R_OK:
                raise RuleViolation(code, where)
            special[t] = int(classify_special(c, rules))

    check_table(melds)  # MELD-9
    went_out = [f["went_out"] for f in fields]
    check_end(melds, hands, went_out, special)  # END-1, OUT-1, OUT-2, SPECIAL-1
    return {
        "rules": rules,
        "melds": melds,
        "threes": threes,
        "hands": hands,
        "went_out": went_out,
        "special": special,
        "ruleset": ruleset,
    }


def score_position(pos: dict) -> list[dict]:
    """``[{"total": int, "breakdown": {item: int}}, ...]`` for both teams."""
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


# ---------------------------------------------------------------------------------------
# The end of a game by its totals (GAME-1)
# ---------------------------------------------------------------------------------------
GAME_ON = -1  #: ``game_outcome``: no team at or over the target (the game goes on)
GAME_TIED = 2  #: ``game_outcome``: an exact tie at or over the target (another hand, GAME-1)


@njit(cache=True, _nrt=False)
def game_outcome(s0, s1, target):
    """GAME-1 at cumulative scores ``s0``, ``s1``: the team that has won (0 or 1: a team at
    or over ``target`` and the higher total), ``GAME_TIED`` at an exact tie at or over the
    target (another hand is played), ``GAME_ON`` while neither team has reached it."""
    if s0 < target and s1 < target:
        return GAME_ON
    if s0 == s1:
        return GAME_TIED
    return 0 if s0 > s1 else 1


@njit(cache=True, _nrt=False)
def game_winner(s0, s1, target):
    """GAME-1: the team that has won at cumulative scores ``s0``, ``s1`` (``game_outcome``);
    -1 while neither has (an exact tie at or over the target plays another hand)."""
    won = game_outcome(s0, s1, target)
    return won if won != GAME_TIED else GAME_ON


@njit(cache=True)
def _outcomes_into(s0, s1, target, out):
    for i in range(out.size):
        out[i] = game_outcome(s0[i], s1[i], target)


def game_outcomes(s0, s1, target: int) -> np.ndarray:
    """``game_outcome`` at every pair of scores of two arrays (broadcast together): int64, of
    their broadcast shape. The equity solver reads the end of a game (GAME-1) from it, so
    the solver and ``sim.game.GameDriver`` apply one rule."""
    a, b = np.broadcast_arrays(np.asarray(s0, dtype=np.int64), np.asarray(s1, dtype=np.int64))
    out = np.empty(a.shape, dtype=np.int64)
    _outcomes_into(a.ravel(), b.ravel(), np.int64(target), out.reshape(-1))
    return out


@njit(cache=True, _nrt=False)
def past_bound(s0, s1):
    """A total beyond ``MAX_SCORE`` either way (a ruleset's awards and penalties may each be up
    to it, and a start may be near it): the game ends there undecided, as the cap of hands
    ends one (GAME-1, docs/rules.md), since no hand is dealt from a score out of range."""
    return s0 > MAX_SCORE or s0 < -MAX_SCORE or s1 > MAX_SCORE or s1 < -MAX_SCORE


def check_game_start(
    scores, target: int, name: str = "scores", teams: tuple[str, str] = ("team 0", "team 1")
) -> tuple[int, int]:
    """The teams' scores at the start of a game, each in ``-MAX_SCORE..MAX_SCORE``, at which
    neither team has won yet (GAME-1: ``game_winner`` says -1; an exact tie at or over the
    target is such a start, and plays another hand). CanastaError naming ``name`` (and the
    team by ``teams``) otherwise."""
    from sim.limits import check_scores

    s0, s1 = check_scores(scores, name)
    won = int(game_winner(s0, s1, target))
    if won >= 0:
        raise CanastaError(
            f"{name} {s0},{s1}: {teams[won]} has already won at these scores (GAME-1: target "
            f"{target:,}, the higher total wins; only an exact tie at or over the target plays "
            "another hand)"
        )
    return s0, s1
