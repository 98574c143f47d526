"""The ruleset: every variant RULES.md names, frozen and validated, loadable from TOML.

Field names and defaults are RULES.md's. Kernels never see this object: they get
``Ruleset.to_array()`` (layout ``RS_*`` in ``sim.encoding``), since numba treats module
globals as compile-time constants and a user must be able to vary these.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from sim import catalogue as C
from sim.encoding import (
    N_RS,
    OPENING_MINIMUM_MODES,
    RS_ALLOW_LONG_MELD_GOING_OUT,
    RS_GARBAGE_AWARD,
    RS_MAX_WILDS_MIXED,
    RS_OPENING_MINIMUM,
    RS_OPENING_WILD,
    RS_RULE_OF_FIVE,
    RS_SPECIAL_HANDS,
    RS_TARGET,
    RS_WILD_PENALTY_FOUR_JOKERS,
    SPECIAL_HANDS_MODES,
)
from sim.errors import CanastaError

__all__ = [
    "DEFAULT_RULESET",
    "MAX_TOML_DEPTH",
    "Ruleset",
    "as_ruleset",
    "parse_toml",
    "shipped_rulesets",
]

MAX_TOML_DEPTH = 8  #: nesting of TOML arrays, inline tables and headers a ruleset file may have
# escapes go first, then strings hold no quote: each pattern matches in one pass (no
# backtracking over a text of quotes and backslashes)
_ESCAPE = re.compile(r"\\.", re.S)
_TOML_STRING = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"[^"\n]*"|\'[^\'\n]*\'')
_TOML_COMMENT = re.compile(r"#[^\n]*")


def parse_toml(text: str, name: str) -> dict:
    """A ruleset file's TOML parsed, its nesting bounded (``MAX_TOML_DEPTH``): every way it
    can fail is one ``CanastaError`` naming ``name`` (the file, as the message calls it). The
    one reader of ruleset TOML: the command line's files and the web table's uploads."""
    from sim.limits import nesting

    bare = _TOML_COMMENT.sub("", _TOML_STRING.sub('""', _ESCAPE.sub("", text)))
    if nesting(bare) > MAX_TOML_DEPTH:
        raise CanastaError(f"{name} nests deeper than {MAX_TOML_DEPTH} levels")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        key = _duplicate_key(text, str(exc))
        if key:
            raise CanastaError(f"{name}: {key} is given twice") from None
        raise CanastaError(f"{name} is not valid TOML: {exc}") from None
    except RecursionError:  # pragma: no cover - the nesting bound comes first
        raise CanastaError(f"{name} nests too deep") from None
    except ValueError:  # a number over Python's 4,300 digits: tomllib names no line
        raise CanastaError(f"{name}: {_huge_number(text)}") from None


@dataclasses.dataclass(frozen=True)
class Ruleset:
    """Variants of Modern American Canasta (RULES.md; defaults are the tournament game)."""

    allow_long_meld_going_out: bool = False  #: MELD-2
    max_wilds_mixed: int = 2  #: MELD-4 (classic canasta: 3)
    rule_of_five: bool = True  #: MELD-5
    wild_penalty_four_jokers: int = 2000  #: SCORE-3 penalty for an incomplete wild meld of 4 jokers
    garbage_award: int = 2000  #: SPECIAL-6
    #: SPECIAL-7: 'tournament', 'cla', 'none', or a list of hands written out (SPECIAL-9)
    special_hands: str | tuple = "tournament"
    target: int = 8500  #: GAME-1
    #: OPEN-1: the opening minimum by the team's 'score' (the rulebook) or by the 'hand'
    #: number in the game (125, 155, then 180: timed tournament play)
    opening_minimum: str = "score"
    #: OPEN-2: the opening must include a natural meld of 3+ (false: a wild meld of 3+ wild
    #: cards may stand in for it, the wild opening house rule)
    opening_natural: bool = True
    #: what the ruleset is called (a file's top-level ``name``); printed, never compared
    name: str = dataclasses.field(default="", compare=False)

    def __post_init__(self):
        from sim.limits import MAX_SCORE, shown

        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise CanastaError(
                    f"ruleset key {f.name!r}: expected true or false, got {shown(value)}"
                )
            if f.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                raise CanastaError(
                    f"ruleset key {f.name!r}: expected an integer, got {shown(value)}"
                )
        for key in ("wild_penalty_four_jokers", "garbage_award", "target"):
            if abs(getattr(self, key)) > MAX_SCORE:  # kernels add these up in int64
                raise CanastaError(f"ruleset key {key!r}: must be at most {MAX_SCORE:,}")
        if not 1 <= self.max_wilds_mixed <= 3:
            raise CanastaError(
                f"ruleset key 'max_wilds_mixed': must be 1..3, got {shown(self.max_wilds_mixed)}"
            )
        for key in ("wild_penalty_four_jokers", "garbage_award"):
            if getattr(self, key) < 0:
                raise CanastaError(f"ruleset key {key!r}: must not be negative")
        if self.target <= 0:
            raise CanastaError(f"ruleset key 'target': must be positive, got {self.target}")
        if self.opening_minimum not in OPENING_MINIMUM_MODES:
            raise CanastaError(
                "ruleset key 'opening_minimum': expected one of "
                f"{', '.join(OPENING_MINIMUM_MODES)}, got {shown(self.opening_minimum)}"
            )
        if not isinstance(self.name, str):
            raise CanastaError(f"ruleset key 'name': expected a string, got {shown(self.name)}")
        if self.name:  # printed beside every figure: one line of plain text
            C.check_name(self.name, "'name'")
        if isinstance(self.special_hands, str):
            if self.special_hands == "list" or self.special_hands not in SPECIAL_HANDS_MODES:
                presets = ", ".join(C.PRESETS)
                raise CanastaError(
                    f"ruleset key 'special_hands': expected one of {presets} or a list of "
                    f"hands, got {shown(self.special_hands)}"
                )
        else:  # SPECIAL-9: a list written out; a preset written out is that preset
            hands = C.catalogue_from(self.special_hands)
            C.encode(hands, np.zeros(N_RS, dtype=np.int64))  # at most MAX_CATALOGUE hands
            object.__setattr__(self, "special_hands", C.preset_name(hands) or hands)

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        """The variant names, in declaration order."""
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Ruleset:
        """Build from a mapping of overrides; an unknown key is an error naming it."""
        data = dict(data or {})
        unknown = sorted(set(data) - set(cls.keys()))
        if unknown:
            raise CanastaError(
                f"unknown ruleset key {_shown(unknown[0])}; known keys: {', '.join(cls.keys())}"
            )
        return cls(**data)

    @classmethod
    def from_toml(cls, path: str | Path) -> Ruleset:
        """Load from a TOML file: keys at top level, or inside a ``[ruleset]`` table."""
        path = Path(path)
        try:
            text = path.read_text()
        except FileNotFoundError:
            raise CanastaError(f"ruleset file not found: {path}") from None
        except (OSError, UnicodeDecodeError) as exc:  # a directory, no permission, not UTF-8
            raise CanastaError(f"cannot read ruleset file {path}: {exc}") from None
        data = parse_toml(text, f"ruleset file {path}")
        if set(data) == {"ruleset"} and isinstance(data["ruleset"], dict):
            data = data["ruleset"]
        return cls.from_dict(data)

    @property
    def catalogue(self) -> tuple[C.Hand, ...]:
        """The special-hand list in force (SPECIAL-7..9), in code order (code = place + 1)."""
        if isinstance(self.special_hands, str):
            hands = C.PRESETS[self.special_hands]
            if self.special_hands == "tournament":  # SPECIAL-6 garbage_award variant
                hands = tuple(
                    dataclasses.replace(h, award=self.garbage_award) if h.name == "garbage" else h
                    for h in hands
                )
            return hands
        return self.special_hands

    @property
    def special_names(self) -> tuple[str, ...]:
        """Record names of the special codes under this ruleset: '' (none), then the hands of
        the list in force in code order (the tournament list: ``sim.encoding.SPECIAL_NAMES``)."""
        return ("", *(h.name for h in self.catalogue))

    @property
    def list_name(self) -> str:
        """The special-hand list in words: a preset's name or 'a list of N hands'."""
        if isinstance(self.special_hands, str):
            return self.special_hands
        return f"a list of {len(self.special_hands)} hands"

    @property
    def label(self) -> str:
        """How printed numbers name this ruleset: its name, else its special-hand list and
        the keys set away from the defaults."""
        if self.name:
            return self.name
        changed = [
            k
            for k in self.keys()
            if k not in ("name", "special_hands") and getattr(self, k) != getattr(DEFAULT, k)
        ]
        extra = f" ({', '.join(f'{k}={getattr(self, k)}' for k in changed)})" if changed else ""
        return f"special hands {self.list_name}{extra}"

    def to_dict(self) -> dict[str, Any]:
        """The keys as a ruleset file writes them (``from_dict`` reads them back)."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        if not isinstance(self.special_hands, str):
            out["special_hands"] = C.to_tables(self.special_hands)
        del out["name"]  # a label (Ruleset.label), not a rule: never compared, never stored
        return out

    def to_array(self) -> np.ndarray:
        """The int64 array kernels take (layout RS_* in sim.encoding)."""
        arr = np.zeros(N_RS, dtype=np.int64)
        arr[RS_ALLOW_LONG_MELD_GOING_OUT] = int(self.allow_long_meld_going_out)
        arr[RS_MAX_WILDS_MIXED] = self.max_wilds_mixed
        arr[RS_RULE_OF_FIVE] = int(self.rule_of_five)
        arr[RS_WILD_PENALTY_FOUR_JOKERS] = self.wild_penalty_four_jokers
        arr[RS_GARBAGE_AWARD] = self.garbage_award
        mode = self.special_hands if isinstance(self.special_hands, str) else "list"
        arr[RS_SPECIAL_HANDS] = SPECIAL_HANDS_MODES.index(mode)
        arr[RS_TARGET] = self.target
        arr[RS_OPENING_MINIMUM] = OPENING_MINIMUM_MODES.index(self.opening_minimum)
        arr[RS_OPENING_WILD] = int(not self.opening_natural)
        C.encode(self.catalogue, arr)  # SPECIAL-7..9 the list in force
        return arr


DEFAULT_RULESET = DEFAULT = Ruleset()


#: the shipped ruleset files: package data (``sim/rulesets/*.toml``, in a wheel as in a clone;
#: a clone's ``rules/`` links to the same files)
RULESETS_DIR = Path(__file__).with_name("rulesets")


def shipped_rulesets() -> dict[str, Path]:
    """The shipped ruleset files by name (file stem): ``cla``, ``club-example``,
    ``tournament``, found in the installed package."""
    return {p.stem: p for p in sorted(RULESETS_DIR.glob("*.toml"))}


def as_ruleset(rules: Ruleset | Mapping[str, Any] | str | Path | None) -> Ruleset:
    """Accept a Ruleset, a dict of overrides, a TOML path, a preset's name or a shipped
    file's name (``cla``, ``club-example``), or None (defaults)."""
    if rules is None:
        return DEFAULT_RULESET
    if isinstance(rules, Ruleset):
        return rules
    if isinstance(rules, Mapping):
        return Ruleset.from_dict(rules)
    if isinstance(rules, str | Path):
        path = Path(rules)
        if not path.exists():
            shipped = _shipped_file(path)
            if shipped is not None:  # SPECIAL-7: a shipped file's name, or rules/NAME.toml
                return Ruleset.from_toml(shipped)
            if path.as_posix() in C.PRESETS:  # a preset's name ('none' has no file)
                return Ruleset(special_hands=path.as_posix(), name=path.as_posix())
        return Ruleset.from_toml(rules)
    raise CanastaError(f"bad ruleset {_shown(rules)}: expected a Ruleset, a dict or a TOML path")


def _shown(value) -> str:
    from sim.limits import shown

    return shown(value)


def _huge_number(text: str) -> str:
    """Where a ruleset file writes a number too long for Python to read, in words."""
    for n, line in enumerate(text.splitlines(), 1):
        digits = max((len(m) for m in re.findall(r"\d+", line)), default=0)
        if digits > 4300:
            key = line.split("=", 1)[0].strip() if "=" in line else ""
            where = f"key {_shown(key)} (line {n})" if key else f"line {n}"
            return f"{where}: a number of {digits:,} digits (at most 10: 1,000,000,000)"
    return "a number too long to read"


def _duplicate_key(text: str, message: str) -> str:
    """The key a TOML error about a value written twice is about ('' if it is another error):
    tomllib says only "Cannot overwrite a value (at line N, column M)"."""
    found = re.match(r"Cannot overwrite a value \(at line (\d+), column \d+\)", message)
    if found:
        lines = text.splitlines()
        n = int(found.group(1))
        line = lines[n - 1] if 0 < n <= len(lines) else ""
        name = line.split("=", 1)[0].strip() if "=" in line else ""
        return f"key {_shown(name)} (line {n})" if name else ""
    found = re.match(r"Cannot declare \((.*)\) twice \(at line (\d+)", message)
    if found:
        parts = [p.strip().strip("'\"") for p in found.group(1).split(",") if p.strip()]
        return f"table [{'.'.join(parts)}] (line {found.group(2)})"
    return ""


def _shipped_file(path: Path) -> Path | None:
    """The shipped file a missing path names: ``cla``, ``cla.toml`` or ``rules/cla.toml``
    (outside a clone: an installed package, or another working directory)."""
    files = shipped_rulesets()
    text = path.as_posix()
    if text in files:
        return files[text]
    if path.suffix == ".toml" and path.stem in files and path.parent.name in ("rules", ""):
        return files[path.stem]
    return None
