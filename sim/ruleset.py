"""The ruleset: every variant RULES.md names, frozen and validated, loadable from TOML.

Field names and defaults are RULES.md's. Kernels never see this object: they get
``Ruleset.to_array()`` (layout ``RS_*`` in ``sim.encoding``), since numba treats module
globals as compile-time constants and a user must be able to vary these.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from sim.encoding import (
    N_RS,
    RS_ALLOW_LONG_MELD_GOING_OUT,
    RS_GARBAGE_AWARD,
    RS_MAX_WILDS_MIXED,
    RS_RULE_OF_FIVE,
    RS_SPECIAL_HANDS,
    RS_TARGET,
    RS_WILD_PENALTY_FOUR_JOKERS,
    SPECIAL_HANDS_MODES,
)
from sim.errors import CanastaError


@dataclasses.dataclass(frozen=True)
class Ruleset:
    """Variants of Modern American Canasta (RULES.md; defaults are the tournament game)."""

    allow_long_meld_going_out: bool = False  #: MELD-2
    max_wilds_mixed: int = 2  #: MELD-4 (classic canasta: 3)
    rule_of_five: bool = True  #: MELD-5
    wild_penalty_four_jokers: int = 2000  #: SCORE-3 penalty for an incomplete wild meld of 4 jokers
    garbage_award: int = 2000  #: SPECIAL-6
    special_hands: str = "tournament"  #: SPECIAL-7: 'tournament' or 'none'
    target: int = 8500  #: GAME-1

    def __post_init__(self):
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise CanastaError(f"ruleset key {f.name!r}: expected true or false, got {value!r}")
            if f.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                raise CanastaError(f"ruleset key {f.name!r}: expected an integer, got {value!r}")
        from sim.validate import MAX_SCORE

        for key in ("wild_penalty_four_jokers", "garbage_award", "target"):
            if abs(getattr(self, key)) > MAX_SCORE:  # kernels add these up in int64
                raise CanastaError(f"ruleset key {key!r}: must be at most {MAX_SCORE:,}")
        if not 1 <= self.max_wilds_mixed <= 3:
            raise CanastaError(
                f"ruleset key 'max_wilds_mixed': must be 1..3, got {self.max_wilds_mixed}"
            )
        for key in ("wild_penalty_four_jokers", "garbage_award"):
            if getattr(self, key) < 0:
                raise CanastaError(f"ruleset key {key!r}: must not be negative")
        if self.target <= 0:
            raise CanastaError(f"ruleset key 'target': must be positive, got {self.target}")
        if self.special_hands not in SPECIAL_HANDS_MODES:
            raise CanastaError(
                f"ruleset key 'special_hands': expected one of {', '.join(SPECIAL_HANDS_MODES)}, "
                f"got {self.special_hands!r}"
            )

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
                f"unknown ruleset key {unknown[0]!r}; known keys: {', '.join(cls.keys())}"
            )
        return cls(**data)

    @classmethod
    def from_toml(cls, path: str | Path) -> Ruleset:
        """Load from a TOML file: keys at top level, or inside a ``[ruleset]`` table."""
        path = Path(path)
        try:
            data = tomllib.loads(path.read_text())
        except FileNotFoundError:
            raise CanastaError(f"ruleset file not found: {path}") from None
        except (OSError, UnicodeDecodeError) as exc:  # a directory, no permission, not UTF-8
            raise CanastaError(f"cannot read ruleset file {path}: {exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise CanastaError(f"ruleset file {path} is not valid TOML: {exc}") from None
        if set(data) == {"ruleset"} and isinstance(data["ruleset"], dict):
            data = data["ruleset"]
        return cls.from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def to_array(self) -> np.ndarray:
        """The int64 array kernels take (layout RS_* in sim.encoding)."""
        arr = np.zeros(N_RS, dtype=np.int64)
        arr[RS_ALLOW_LONG_MELD_GOING_OUT] = int(self.allow_long_meld_going_out)
        arr[RS_MAX_WILDS_MIXED] = self.max_wilds_mixed
        arr[RS_RULE_OF_FIVE] = int(self.rule_of_five)
        arr[RS_WILD_PENALTY_FOUR_JOKERS] = self.wild_penalty_four_jokers
        arr[RS_GARBAGE_AWARD] = self.garbage_award
        arr[RS_SPECIAL_HANDS] = SPECIAL_HANDS_MODES.index(self.special_hands)
        arr[RS_TARGET] = self.target
        return arr


DEFAULT_RULESET = Ruleset()


def as_ruleset(rules: Ruleset | Mapping[str, Any] | str | Path | None) -> Ruleset:
    """Accept a Ruleset, a dict of overrides, a TOML path, or None (defaults)."""
    if rules is None:
        return DEFAULT_RULESET
    if isinstance(rules, Ruleset):
        return rules
    if isinstance(rules, Mapping):
        return Ruleset.from_dict(rules)
    if isinstance(rules, str | Path):
        return Ruleset.from_toml(rules)
    raise CanastaError(f"bad ruleset {rules!r}: expected a Ruleset, a dict or a TOML path")
