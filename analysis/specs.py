"""Decision experiments as data: a spec file (TOML) declares one experiment.

A spec says which positions (a filter on the turn starts of real hands of strong play, and
optionally game scores given to them: a position generator), the two choices compared (each a
what-if choice of ``sim.play.position.CHOICES`` and the policy the player's team plays on
with), the groupings (bins of a feature a player can count at the table) and the outcome
column. The report's experiments are the spec files of the ``experiments`` package; a user's
file runs with ``canasta experiment FILE.toml`` (docs/report.md has a worked example).

Format (every key is checked; a bad one is refused in one line naming it)::

    key = "sevens"                      # table decision_<key>
    decision = "sevens"                 # optional: the decision it measures (default: key);
                                        # the Advice says each decision once
    number = 0                          # optional: seeds the choice of positions (stable)
    title = "Start a sevens meld now, or hold the sevens"
    do = "start a sevens meld now"      # arm A, imperative; dont = arm B
    do_ing = "starting a sevens meld now"   # arm A, gerund; dont_ing = arm B
    outcome = "net"                     # net (own minus opponents' points), own or opp

    [positions]
    where = ["sevens >= 3", "not sevens_meld", "not sevens_dead"]
    scores = [[0, 0], [3000, 0]]        # optional: game scores, given in turn to the positions
    balance = "sevens"                  # optional: draw positions in turn from each value
    hands_per_position = 25             # optional: sample this many hands of strong a position
    #                                   # for this experiment (rare positions; default: the
    #                                   # run's, 6 a position, at least 100)
    # generate = "dealt_three"          # optional: positions of a generator (GENERATORS) from
    #                                   # fresh deals instead of strong's turn starts; where,
    #                                   # scores and balance apply to them as to sampled ones

    [[arms]]                            # exactly two: A then B
    choice = "meld_sevens"
    policy = "strong"                   # "strong": the strongest fast policy (strong_v2 today;
    #                                   # the name strong itself cannot be asked for here); or a
    #                                   # registry name
    required = true                     # only deals where the rules allowed this choice count
    # script = ["draw", "discard seven"]  # instead of a choice: steps of SCRIPT_STEPS, then the
    #                                     # policy ([] = the policy's turn); a choice that is the
    #                                     # turn's first step (take_pile, draw, policy) pairs
    #                                     # with a scripted arm as that script
    # compares = "policies"             # (top level) only then may the arms' policies differ:
    #                                   # otherwise both play the same policy after the choice

    [[groupings]]
    key = "held_sevens"
    feature = "sevens"
    bins = [[3, 3, "3"], [4, 4, "4"], [5, 99, "5+"]]
    phrase = "holding {label} sevens"
    until = "until you hold {low} sevens"   # optional: the feature is ordered

    [[groupings]]                       # a cross table: exactly two features, a row per pair
    key = "pile_by_other_team"
    features = ["pile", "other_team_opened"]
    bins = [[[0, 7, "pile 0–7"], [8, 999, "pile 8+"]], [[0, 0, "not opened"], [1, 1, "opened"]]]
    phrase = "with {label}"

    # a grouping may read the true state (TRUE_STATE: the partner's sevens, aces, wilds), read
    # in each replayed deal and marked as not seen by the player; and an information arm:
    [information]                       # told partner_sevens, play arm A when it is in do_when,
    knows = "partner_sevens"            # else arm B; compared with each fixed arm on the same
    do_when = [2, 99]                   # deals: what knowing it (a signal) is worth a hand
    label = "knowing the partner's sevens"

Choices that last the rest of the hand (``sim.play.position.CHOICES``): ``chase`` (the player's team
chases the nearest special hand on top of its policy; ``keep_three_chase``/``lay_three_chase``
with the keep-or-lay decision first), ``open_from_hand`` (draw from the stock, then the best
legal opening from the hand) and ``wait_pile_N`` (the team opens from hand only once the pile
holds N cards or the turn card is drawn).

A condition of ``where`` is ``FEATURE``, ``not FEATURE``, ``FEATURE OP N`` (OP one of
``>= <= == != > <``) or ``LOW <= FEATURE <= HIGH``.
"""

from __future__ import annotations

import re
import tomllib
import zlib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from sim.errors import CanastaError

__all__ = [
    "FEATURES",
    "GENERATORS",
    "STRONGEST",
    "TRUE_STATE",
    "ExperimentSpec",
    "builtin",
    "load",
    "parse",
    "played_by",
]

#: an arm's policy placeholder: the strongest fast policy of the registry plays it
STRONGEST = "strong"


def played_by(policy: str) -> str:
    """An arm's policy as the texts name it: the placeholder :data:`STRONGEST` by the
    registry's name of the strongest fast policy, which the experiments play for it."""
    if policy != STRONGEST:
        return policy
    from sim.policies.registry import strongest_fast

    return strongest_fast()


MAX_HANDS_PER_POSITION = 1_000  #: ``positions.hands_per_position`` at most


class SpecError(CanastaError):
    """A malformed experiment spec (one line naming the file and the key)."""


#: what a player can count at the table when the turn starts: the groupings read only these
FEATURES = {
    "turn": "the turn of the hand (0: the first)",
    "stock": "cards left in the stock",
    "pile": "cards in the discard pile",
    "sevens": "sevens in the player's hand",
    "aces": "aces in the player's hand",
    "wilds": "wild cards (twos and jokers) in the player's hand",
    "hand_size": "cards in the player's hand",
    "opened": "1 if the player's team has opened",
    "opp_opened": "1 if the opponents have opened",
    "canastas": "canastas of the player's team",
    "opp_canastas": "canastas of the opponents",
    "sevens_pile": "sevens in the discard pile",
    "aces_pile": "aces in the discard pile",
    "sevens_gone": "sevens out of reach: in the pile or in the opponents' melds",
    "aces_gone": "aces out of reach: in the pile or in the opponents' melds",
    "natural_triple": "1 if the hand holds three naturals of a rank it may meld (4 to K)",
    "natural_six": "1 if the team has a meld of six naturals and no wild (4 to K, not 7)",
    "margin": "the team's game score minus the opponents'",
    "min_meld": "the team's opening minimum (OPEN-2: by its game score)",
    "special_distance": "cards the hand is from a Straight, Pairs or Garbage",
    "distinct_ranks": "ranks A, 2, 3 … K the player holds (a Straight holds all 13, SPECIAL-3)",
    "can_open_now": "1 if the team has not opened and the hand alone makes a legal opening "
    "now (OPEN-1..4, a card kept to discard)",
    "points_in_hand": "the card values of the player's hand (SCORE-2)",
    "turn_card_drawn": "1 once the turn card has been drawn from the stock (DEAL-3)",
    "other_team_opened": "1 if the opponents have opened (the same as opp_opened)",
}
#: features of the true state, not seen by the player: read per replayed deal (each deal
#: gives the partner a new hand), for groupings and information arms only
TRUE_STATE = {
    "partner_sevens": "sevens in the partner's hand (not seen by the player)",
    "partner_aces": "aces in the partner's hand (not seen by the player)",
    "partner_wilds": "wild cards in the partner's hand (not seen by the player)",
}
#: position generators (``positions.generate``): positions made from fresh deals rather than
#: drawn from the turn starts of strong play (``analysis.positions.generate_positions``)
GENERATORS = {
    "dealt_three": "the first seat of a hand's first round whose turn starts with a three "
    "dealt while its team has not melded: the keep-or-lay decision of DEAL-5",
}
#: a filter may also read these (flags of the position, not shown to the player)
FILTER_FEATURES = {
    **FEATURES,
    "can_take": "the rules allow the player to take the pile (PILE-1/2)",
    "sevens_meld": "the team has a sevens meld",
    "aces_meld": "the team has an aces meld",
    "wild_meld": "the team has a wild meld",
    "sevens_dead": "a sevens meld can no longer be started",
    "aces_dead": "an aces meld can no longer be started",
    "went_out": "the player went out in this turn as the hand was played",
}
#: the steps of a scripted arm (``sim.api.play_script``), resolved at each position from the
#: player's hand and the team's melds; the turn's remaining decisions are the policy's
SCRIPT_STEPS = {
    "draw": "draw from the stock",
    "discard seven": "discard a seven",
    "discard ace": "discard an ace",
    "discard other": "discard the natural (4 to K, not 7) held fewest times, the lowest value",
    "meld triple": "meld three naturals of a rank held 3+ times (4 to K, not 7) the team has "
    "not melded",
    "add wild": "add one wild (a two first) to the team's meld of six naturals",
    "take pile": "take the discard pile (PILE-1/2)",
}
OUTCOMES = {
    "net": "own minus opponents' points in the hand",
    "own": "own points",
    "opp": "opponents' points",
}
_OPS = {
    ">=": int.__ge__,
    "<=": int.__le__,
    "==": int.__eq__,
    "!=": int.__ne__,
    ">": int.__gt__,
    "<": int.__lt__,
}
_NAME = r"[a-z_][a-z0-9_]*"
_RE_FLAG = re.compile(rf"^(not\s+)?({_NAME})$")
_RE_CMP = re.compile(rf"^({_NAME})\s*(>=|<=|==|!=|>|<)\s*(-?\d+)$")
_RE_RANGE = re.compile(rf"^(-?\d+)\s*<=\s*({_NAME})\s*<=\s*(-?\d+)$")


@dataclass(frozen=True)
class Condition:
    """One clause of a filter: ``feature`` within [low, high] (flags: 1 or 0)."""

    text: str
    feature: str
    low: int
    high: int

    def __call__(self, f: dict) -> bool:
        return self.low <= int(f[self.feature]) <= self.high


def condition(text: str, where: str) -> Condition:
    big = 10**9
    t = " ".join(str(text).split())
    if m := _RE_RANGE.match(t):
        lo, name, hi = int(m[1]), m[2], int(m[3])
        c = Condition(t, name, lo, hi)
    elif m := _RE_CMP.match(t):
        name, op, n = m[1], m[2], int(m[3])
        lo, hi = {
            ">=": (n, big),
            "<=": (-big, n),
            "==": (n, n),
            ">": (n + 1, big),
            "<": (-big, n - 1),
            "!=": None,
        }[op] or (None, None)
        if op == "!=":  # two ranges: write it as a flag test or two specs
            raise SpecError(f"{where}: {t!r}: '!=' is not supported; use < or >")
        c = Condition(t, name, lo, hi)
    elif m := _RE_FLAG.match(t):
        name = m[2]
        c = Condition(t, name, 0, 0) if m[1] else Condition(t, name, 1, big)
    else:
        raise SpecError(
            f"{where}: {t!r}: write FEATURE, not FEATURE, FEATURE >= N or LOW <= FEATURE <= HIGH"
        )
    if c.feature not in FILTER_FEATURES:
        raise SpecError(
            f"{where}: {t!r}: unknown feature {c.feature!r} (known: {', '.join(FILTER_FEATURES)})"
        )
    return c


@dataclass(frozen=True)
class GroupingSpec:
    """Situations of one experiment: bins of one feature of the position, or of two crossed
    (``feature2``/``bins2``: a cross table, a situation per pair of bins)."""

    key: str
    feature: str
    bins: tuple[tuple[int, int, str], ...]  #: (low, high, label), in order
    phrase: str  #: "holding {label} sevens": the situation in words
    until: str = ""  #: "until you hold {low} sevens": a threshold in words (ordered features)
    feature2: str = ""  #: the second feature of a cross table
    bins2: tuple[tuple[int, int, str], ...] = ()

    @property
    def features(self) -> tuple[str, ...]:
        return (self.feature, self.feature2) if self.feature2 else (self.feature,)

    @property
    def hidden(self) -> bool:
        """Reads the true state (``TRUE_STATE``): not seen by the player."""
        return any(f in TRUE_STATE for f in self.features)

    def cells(self):
        """(label, low, [(feature, low, high), ...]) per situation, in order; a cross table's
        label joins its two bins' labels."""
        if not self.feature2:
            return [(lab, lo, [(self.feature, lo, hi)]) for lo, hi, lab in self.bins]
        return [
            (f"{la} · {lb}", lo, [(self.feature, lo, hi), (self.feature2, lo2, hi2)])
            for lo, hi, la in self.bins
            for lo2, hi2, lb in self.bins2
        ]


@dataclass(frozen=True)
class InformationSpec:
    """An information arm: the player is told ``knows`` (a ``TRUE_STATE`` feature) and plays
    arm A when it lies in [low, high], arm B otherwise; compared with each uninformed arm on
    the same deals (the value of knowing it, a signal's worth in points a hand)."""

    knows: str
    low: int
    high: int
    label: str  #: "knowing the partner's sevens"


@dataclass(frozen=True)
class ExperimentSpec:
    key: str
    title: str
    do: str  #: arm A in the imperative: "start a sevens meld now"
    dont: str  #: arm B: "hold your sevens"
    do_ing: str  #: arm A as a gerund: "starting a sevens meld now"
    dont_ing: str  #: arm B as a gerund: "holding the sevens"
    arms: tuple[tuple[str, str], tuple[str, str]]  #: (choice, the team's policy) per arm
    conditioned: tuple[int, ...]  #: arms whose choice must have been made in a deal
    where: tuple[Condition, ...] = ()
    groupings: tuple[GroupingSpec, ...] = ()
    number: int = 0  #: seeds the choice of positions and their deals
    outcome: str = "net"
    scores: tuple[tuple[int, int], ...] = ()  #: game scores given in turn (empty: as sampled)
    scripts: tuple[tuple[str, ...], ...] = ()  #: the arms' script steps (empty: choices)
    balance: str = ""  #: a feature whose values the positions are drawn from in turn
    decision: str = ""  #: the decision it measures (the Advice says each once); default key
    generate: str = ""  #: a position generator (``GENERATORS``); empty: strong's turn starts
    compares: str = ""  #: "policies": the arms may play different policies (a bot comparison)
    information: InformationSpec | None = None
    #: sampled hands per position this experiment needs (its key positions are rare; 0: the
    #: run's default, ``analysis.decisions.run_experiments``)
    hands_per_position: int = 0
    source: str = field(default="", compare=False)

    @property
    def hidden(self) -> str:
        """The ``TRUE_STATE`` feature read per replayed deal ('' if none)."""
        for g in self.groupings:
            for f in g.features:
                if f in TRUE_STATE:
                    return f
        return self.information.knows if self.information else ""

    @property
    def differs(self) -> str:
        """What differs between the two arms, in words (the claims table says it)."""
        (ca, pa), (cb, pb) = ((c, played_by(p)) for c, p in self.arms)
        if self.scripts:
            sa, sb = (", ".join(x) or "the policy's turn" for x in self.scripts)
            what = f"only the turn: {sa} vs {sb}"
        else:
            what = f"only the choice: {self.do} vs {self.dont} ({ca} vs {cb})"
        if pa != pb:
            out = f"{what}; and the team's policy: {pa} vs {pb} (a comparison of bots)"
        else:
            out = f"{what}; then both arms play {pa}"
        if self.information:
            out += f"; and an arm {self.information.label}"
        return out

    @property
    def table(self) -> str:
        return f"decision_{self.key}"

    def select(self, f: dict) -> bool:
        return all(c(f) for c in self.where)


_TOP = {
    "key",
    "decision",
    "number",
    "title",
    "do",
    "dont",
    "do_ing",
    "dont_ing",
    "outcome",
    "positions",
    "arms",
    "groupings",
    "compares",
    "information",
}
#: choices a scripted arm's partner may make as a script (the turn's first step)
_AS_SCRIPT = {"take_pile": ("take pile",), "draw": ("draw",), "policy": ()}
_TEXT = ("title", "do", "dont", "do_ing", "dont_ing")


def _str(d: dict, key: str, where: str, default: str | None = None) -> str:
    if key not in d:
        if default is not None:
            return default
        raise SpecError(f"{where}: missing key {key!r}")
    v = d[key]
    if not isinstance(v, str) or not v.strip():
        raise SpecError(f"{where}: key {key!r}: need a non-empty string, got {v!r}")
    return v


def _int(v, where: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise SpecError(f"{where}: need an integer, got {v!r}")
    return v


def _unknown(d: dict, known, where: str) -> None:
    for k in d:
        if k not in known:
            raise SpecError(f"{where}: unknown key {k!r} (known: {', '.join(sorted(known))})")


def parse(data: dict, name: str = "<spec>") -> ExperimentSpec:
    """An ``ExperimentSpec`` from a spec's TOML table; ``SpecError`` naming the bad key."""
    from sim.play.position import CHOICES

    _unknown(data, _TOP, name)
    key = _str(data, "key", name)
    if not re.fullmatch(_NAME, key):
        raise SpecError(f"{name}: key 'key' {key!r}: lower-case letters, digits and _ only")
    text = {k: _str(data, k, name) for k in _TEXT}
    decision = _str(data, "decision", name, key)
    number = data.get("number")
    number = (zlib.crc32(key.encode()) % 90_000 + 10_000) if number is None else number
    number = _int(number, f"{name}: key 'number'")
    outcome = _str(data, "outcome", name, "net")
    if outcome not in OUTCOMES:
        raise SpecError(f"{name}: key 'outcome' {outcome!r}: one of {', '.join(OUTCOMES)}")
    pos = data.get("positions", {})
    if not isinstance(pos, dict):
        raise SpecError(f"{name}: key 'positions': need a table")
    known = {"where", "scores", "balance", "generate", "hands_per_position"}
    _unknown(pos, known, f"{name}: [positions]")
    per = pos.get("hands_per_position", 0)
    if isinstance(per, bool) or not isinstance(per, int) or not 0 <= per <= MAX_HANDS_PER_POSITION:
        raise SpecError(
            f"{name}: key 'positions.hands_per_position': need an integer from 0 (the run's "
            f"default) to {MAX_HANDS_PER_POSITION}, got {per!r}"
        )
    if per and pos.get("generate"):
        raise SpecError(
            f"{name}: key 'positions.hands_per_position': generated positions sample no hands"
        )
    generate = pos.get("generate", "")
    if generate not in ("", *GENERATORS):
        raise SpecError(
            f"{name}: key 'positions.generate' {generate!r}: one of {', '.join(GENERATORS)}"
        )
    balance = pos.get("balance", "")
    if balance and balance not in FEATURES:
        raise SpecError(
            f"{name}: key 'positions.balance' {balance!r}: one of {', '.join(FEATURES)}"
        )
    where = pos.get("where", [])
    if not isinstance(where, list):
        raise SpecError(f"{name}: key 'positions.where': need a list of conditions")
    conds = tuple(condition(c, f"{name}: key 'positions.where'") for c in where)
    scores = pos.get("scores", [])
    if not isinstance(scores, list) or not all(
        isinstance(s, list) and len(s) == 2 and all(type(x) is int for x in s) for s in scores
    ):
        raise SpecError(
            f"{name}: key 'positions.scores': need a list of [team, opponents] integer pairs"
        )
    arms = data.get("arms")
    if not isinstance(arms, list) or len(arms) != 2:
        raise SpecError(f"{name}: key 'arms': need exactly two [[arms]] tables (A, then B)")
    compares = _str(data, "compares", name, "") if "compares" in data else ""
    if compares not in ("", "policies"):
        raise SpecError(
            f"{name}: key 'compares' {compares!r}: only 'policies' (arms that play "
            "different policies after the choice)"
        )
    parsed, conditioned, scripts = [], [], []
    for i, arm in enumerate(arms):
        where_arm = f"{name}: arms[{i}]"
        if not isinstance(arm, dict):
            raise SpecError(f"{where_arm}: need a table")
        _unknown(arm, {"choice", "policy", "required", "script"}, where_arm)
        script = arm.get("script")
        if script is not None:
            if not isinstance(script, list) or not all(x in SCRIPT_STEPS for x in script):
                raise SpecError(
                    f"{where_arm}: key 'script': a list of steps among "
                    f"{', '.join(map(repr, SCRIPT_STEPS))}"
                )
        choice = _str(arm, "choice", where_arm, "policy" if script is not None else None)
        if script is not None and choice != "policy":
            raise SpecError(f"{where_arm}: key 'choice': a scripted arm leaves it 'policy'")
        if choice not in CHOICES:
            raise SpecError(f"{where_arm}: key 'choice' {choice!r}: one of {', '.join(CHOICES)}")
        scripts.append(None if script is None else tuple(script))
        policy = _str(arm, "policy", where_arm, STRONGEST)
        req = arm.get("required", False)
        if not isinstance(req, bool):
            raise SpecError(f"{where_arm}: key 'required': need true or false")
        parsed.append((choice, policy))
        if req:
            conditioned.append(i)
    if any(x is not None for x in scripts) and any(x is None for x in scripts):
        # a choice that is the turn's first step pairs with a script as that script
        for i, x in enumerate(scripts):
            if x is None:
                if parsed[i][0] not in _AS_SCRIPT:
                    raise SpecError(
                        f"{name}: arms[{i}]: key 'choice' {parsed[i][0]!r}: with a "
                        f"scripted arm, a choice among {', '.join(_AS_SCRIPT)} or "
                        "a script"
                    )
                scripts[i] = _AS_SCRIPT[parsed[i][0]]
                parsed[i] = ("policy", parsed[i][1])
    scripts = [] if all(x is None for x in scripts) else scripts
    if parsed[0][1] != parsed[1][1] and compares != "policies":
        raise SpecError(
            f"{name}: key 'arms': the arms play different policies after the choice "
            f"({parsed[0][1]} vs {parsed[1][1]}); give both the same, or set "
            "compares = 'policies' to compare bots"
        )
    if scripts and parsed[0][1] != parsed[1][1]:
        raise SpecError(f"{name}: key 'arms': scripted arms share one policy")
    if parsed[0] == parsed[1] and (not scripts or scripts[0] == scripts[1]):
        raise SpecError(f"{name}: key 'arms': the two arms are the same")
    groups = []
    for i, g in enumerate(data.get("groupings", [])):
        groups.append(_grouping(g, f"{name}: groupings[{i}]", groups))
    information = _information(data.get("information"), name)
    hidden = {f for g in groups for f in g.features if f in TRUE_STATE}
    if information:
        hidden.add(information.knows)
    if len(hidden) > 1:
        raise SpecError(
            f"{name}: key 'groupings': one hidden feature an experiment "
            f"(got {', '.join(sorted(hidden))})"
        )
    return ExperimentSpec(
        key=key,
        **text,
        arms=(parsed[0], parsed[1]),
        conditioned=tuple(conditioned),
        where=conds,
        groupings=tuple(groups),
        number=number,
        outcome=outcome,
        scripts=tuple(scripts),
        balance=balance,
        decision=decision,
        generate=generate,
        scores=tuple((int(a), int(b)) for a, b in scores),
        compares=compares,
        information=information,
        hands_per_position=per,
        source=name,
    )


def _bins(bins, where: str, key: str) -> tuple[tuple[int, int, str], ...]:
    if not isinstance(bins, list) or not bins:
        raise SpecError(f"{where}: key {key!r}: need a list of [low, high, label]")
    out = []
    for b in bins:
        if not (
            isinstance(b, list)
            and len(b) == 3
            and type(b[0]) is int
            and type(b[1]) is int
            and isinstance(b[2], str)
            and b[0] <= b[1]
        ):
            raise SpecError(
                f"{where}: key {key!r}: {b!r} is not [low, high, label] with low <= high"
            )
        out.append((b[0], b[1], b[2]))
    return tuple(out)


def _grouping(g, where_g: str, groups: list) -> GroupingSpec:
    """One ``[[groupings]]`` table: ``feature`` and ``bins``, or a cross table of two:
    ``features = [A, B]`` and ``bins = [[...bins of A], [...bins of B]]``."""
    if not isinstance(g, dict):
        raise SpecError(f"{where_g}: need a table")
    _unknown(g, {"key", "feature", "features", "bins", "phrase", "until"}, where_g)
    gkey = _str(g, "key", where_g)
    seen = {**FEATURES, **TRUE_STATE}
    if "features" in g:
        feats = g["features"]
        if "feature" in g:
            raise SpecError(f"{where_g}: key 'features': give 'feature' or 'features', not both")
        if (
            not isinstance(feats, list)
            or len(feats) != 2
            or not all(isinstance(f, str) for f in feats)
        ):
            n = len(feats) if isinstance(feats, list) else feats
            raise SpecError(
                f"{where_g}: key 'features': a cross table reads exactly two features, got {n!r}"
            )
        if feats[0] == feats[1]:
            raise SpecError(f"{where_g}: key 'features': two different features")
        if "until" in g:
            raise SpecError(f"{where_g}: key 'until': a cross table has no threshold")
    else:
        feats = [_str(g, "feature", where_g)]
    for f in feats:
        if f not in seen:
            raise SpecError(
                f"{where_g}: key 'feature': unknown feature {f!r}; a grouping reads "
                f"what a player can count ({', '.join(FEATURES)}) or the true "
                f"state ({', '.join(TRUE_STATE)})"
            )
    bins = g.get("bins")
    if len(feats) == 2:
        if not (isinstance(bins, list) and len(bins) == 2):
            raise SpecError(
                f"{where_g}: key 'bins': a cross table needs two lists of bins, one per feature"
            )
        b1, b2 = _bins(bins[0], where_g, "bins"), _bins(bins[1], where_g, "bins")
    else:
        b1, b2 = _bins(bins, where_g, "bins"), ()
    if gkey in {x.key for x in groups} or gkey == "all" or gkey == "information":
        raise SpecError(f"{where_g}: key 'key' {gkey!r}: repeated or reserved")
    phrase = _str(g, "phrase", where_g)
    until = _str(g, "until", where_g, "") if "until" in g else ""
    return GroupingSpec(gkey, feats[0], b1, phrase, until, feats[1] if len(feats) == 2 else "", b2)


def _information(info, name: str) -> InformationSpec | None:
    """The ``[information]`` table: ``knows`` (a ``TRUE_STATE`` feature), ``do_when`` [low,
    high] (the informed player plays arm A there, arm B elsewhere) and ``label``."""
    if info is None:
        return None
    where = f"{name}: [information]"
    if not isinstance(info, dict):
        raise SpecError(f"{name}: key 'information': need a table")
    _unknown(info, {"knows", "do_when", "label"}, where)
    if "knows" not in info:
        raise SpecError(
            f"{name}: key 'information.knows': an information arm needs the hidden "
            f"feature it is given ({', '.join(TRUE_STATE)})"
        )
    knows = info["knows"]
    if knows not in TRUE_STATE:
        raise SpecError(
            f"{name}: key 'information.knows' {knows!r}: one of "
            f"{', '.join(TRUE_STATE)} (hidden information)"
        )
    when = info.get("do_when")
    if not (
        isinstance(when, list)
        and len(when) == 2
        and all(type(x) is int for x in when)
        and when[0] <= when[1]
    ):
        raise SpecError(
            f"{name}: key 'information.do_when': need [low, high], the values of "
            f"{knows} where the informed player plays arm A"
        )
    label = _str(info, "label", where, f"knowing {knows}")
    return InformationSpec(knows, when[0], when[1], label)


def load(path) -> ExperimentSpec:
    """The spec of a TOML file; ``SpecError`` (one line) if it is unreadable or malformed."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path}: not TOML: {exc}") from None
    except RecursionError:  # thousands of nested arrays: the parser recurses once a level
        raise SpecError(f"{path}: nests too deep to be an experiment") from None
    return parse(data, p.name)


def builtin() -> tuple[ExperimentSpec, ...]:
    """The report's experiments: the spec files of the ``experiments`` package, by number."""
    specs = []
    for f in resources.files("experiments").iterdir():
        if f.name.endswith(".toml") and not f.name.startswith("example"):
            specs.append(parse(tomllib.loads(f.read_text(encoding="utf-8")), f.name))
    specs.sort(key=lambda s: s.number)
    return tuple(specs)
