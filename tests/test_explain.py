"""Reason codes name the rule that refuses (sim.encoding.explain): for every code, the rule ID
its sentence starts with is the one stated here for that code (read from docs/rules.md), the
sentence says what that rule is about, the ID is a rule of docs/rules.md, and the comment on
the code's constant in sim/encoding.py agrees. A row of the REASONS table moved, a rule ID
mistyped or a sentence pasted under the wrong code fails here (a check that explain() merely
returns some text could not).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import sim.encoding as E

ROOT = Path(__file__).resolve().parents[1]

#: reason constant -> (rule IDs it may name, words its sentence must hold). One ID unless the
#: code covers a group of rules (any special-hand pattern, SPECIAL-3..6).
EXPECTED = {
    "R_OK": ((), "legal"),
    "R_NOT_HELD": ((), "not in the hand"),
    "R_MELD_TOO_SMALL": (("MELD-1",), "at least 3 cards"),
    "R_MELD_MIXED_RANKS": (("MELD-1",), "one rank"),
    "R_THREE_MELDED": (("DEAL-4",), "threes are never melded"),
    "R_MELD_TOO_LONG": (("MELD-2",), "more than 7 cards"),
    "R_SECOND_MELD": (("MELD-3",), "one meld of each rank"),
    "R_MIXED_TOO_FEW_NATURALS": (("MELD-4",), "at least 2 natural"),
    "R_MIXED_TOO_MANY_WILDS": (("MELD-4",), "too many wild"),
    "R_RULE_OF_FIVE": (("MELD-5",), "5 naturals"),
    "R_SEVENS_WILD": (("MELD-6",), "sevens cannot hold wild"),
    "R_ACES_WILD": (("MELD-7",), "aces take wild cards only in the team's initial meld"),
    "R_WILD_MELD_INCOMPLETE": (("MELD-8",), "wild meld is incomplete"),
    "R_DEAD_RANK": (("MELD-9",), "dead"),
    "R_OPEN_MINIMUM": (("OPEN-1",), "minimum count"),
    "R_OPEN_NO_NATURAL_MELD": (("OPEN-2",), "natural meld of 3+ cards from hand"),
    "R_OPEN_MIXED_CANASTA": (("OPEN-4",), "mixed canasta"),
    "R_PILE_NO_PAIR": (("PILE-1",), "natural pair"),
    "R_PILE_EMPTY": (("PILE-2",), "pile is empty"),
    "R_PILE_TOP_WILD_OR_THREE": (("PILE-2",), "wild or a three"),
    "R_PILE_DEAD_RANK": (("PILE-2",), "dead rank"),
    "R_PILE_MELD_FULL": (("PILE-2",), "5 or more"),
    "R_PILE_CANNOT_OPEN": (("PILE-2",), "cannot open"),
    "R_DISCARD_THREE": (("DISCARD-1",), "three is never discarded"),
    "R_DISCARD_WILD": (("DISCARD-2",), "wild card may be discarded only"),
    "R_DISCARD_EMPTY_PILE": (("DISCARD-3",), "empty pile"),
    "R_OUT_CANASTAS": (("OUT-1",), "two completed canastas"),
    "R_OUT_INCOMPLETE_SEVENS": (("OUT-1",), "incomplete sevens"),
    "R_OUT_INCOMPLETE_ACES": (("OUT-1",), "incomplete natural aces"),
    "R_OUT_INCOMPLETE_WILD": (("OUT-1",), "incomplete wild"),
    "R_OUT_NO_DISCARD": (("OUT-2",), "no discard"),
    "R_SPECIAL_NOT_FIRST_MELD": (("SPECIAL-1",), "first and only meld"),
    "R_SPECIAL_NOT_14": (("SPECIAL-1",), "exactly 14 cards"),
    "R_SPECIAL_AFTER_PILE": (("SPECIAL-1",), "after taking the pile"),
    "R_SPECIAL_THREE": (("SPECIAL-2",), "three"),
    # a hand that is no special hand: the rule of the special hand it comes nearest to
    "R_SPECIAL_NOT_A_HAND": (("SPECIAL-3",), "not a Straight"),
    "R_SPECIAL_NOT_PAIRS": (("SPECIAL-4",), "not Pairs"),
    "R_SPECIAL_NOT_PAIRS_TSA": (("SPECIAL-5",), "not Pairs with twos, sevens and aces"),
    "R_SPECIAL_NOT_GARBAGE": (("SPECIAL-6",), "not Garbage"),
    "R_SPECIALS_OFF": (("SPECIAL-7",), "off"),
    "R_SPECIAL_NOT_IN_LIST": (("SPECIAL-9",), "no special hand of the list in force"),
    "R_SPECIAL_NOT_IN_CLA": (("SPECIAL-8",), "no hand of the Canasta League of America list"),
    "R_OPEN_NO_BASE_MELD": (("OPEN-2",), "a natural meld or a wild meld of 3+ cards from hand"),
    "R_TOO_MANY_COPIES": (("CARD-1",), "copies"),
    "R_EMPTY_MELD": (("MELD-1",), "nothing to meld"),
    "R_MELD_LEAVES_NO_DISCARD": (("OUT-2",), "without a card to discard"),
    # engine-level refusals (sim.engine.judge.action_reason)
    "R_WRONG_PHASE": (("TURN-1",), "does not belong to this phase"),
    "R_BAD_ACTION": ((), "no such action"),
    "R_KEEP_THREE": (("DEAL-5",), "three may be kept only"),
    # the opening begun this turn is not valid yet: whichever opening rule it fails
    "R_OPEN_FIRST": (("OPEN-1", "OPEN-2", "OPEN-4"), "initial meld must be completed"),
}

CODES = {name: v for name, v in vars(E).items() if name.startswith("R_") and isinstance(v, int)}


def test_every_reason_code_has_its_rule_stated_here():
    """A new reason code needs its rule written down here (and a code removed, its row gone):
    the stated table and sim.encoding's codes are the same set."""
    assert set(CODES) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED, key=lambda n: CODES.get(n, -1)))
def test_explain_names_the_rule_the_code_is_for(name):
    """explain(code) is 'RULE-ID: sentence' with the rule ID stated for the code and a
    sentence about that rule; codes with no rule (legal, cards not held) have no prefix."""
    rules, words = EXPECTED[name]
    code = CODES[name]
    text = E.explain(code)
    rule = E.reason_rule(code)
    if not rules:
        assert rule == "" and not re.match(r"[A-Z]+-\d+:", text), text
        assert words in text
        return
    assert rule in rules, (name, rule, rules)
    assert text.startswith(f"{rule}: "), text
    assert words in text.removeprefix(f"{rule}: "), (name, text)


def _documented_rules() -> set[str]:
    """Rule IDs defined in docs/rules.md (each as a bold '**ID**' entry)."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    return set(re.findall(r"\*\*([A-Z]+-\d+)\*\*", text))


def test_every_named_rule_is_a_rule_of_the_rules_doc():
    documented = _documented_rules()
    assert {"MELD-1", "OPEN-4", "SPECIAL-7"} <= documented  # the pattern reads the doc
    named = {E.reason_rule(c) for c in range(E.N_REASONS)} - {""}
    assert named <= documented, named - documented


def _comment_rules(comment: str) -> set[str]:
    """Rule IDs a constant's comment names: 'PILE-2 / OPEN-1..4' -> PILE-2, OPEN-1..OPEN-4."""
    out = set()
    for prefix, a, b in re.findall(r"([A-Z]+)-(\d+)(?:\.\.(\d+))?", comment):
        out |= {f"{prefix}-{i}" for i in range(int(a), int(b or a) + 1)}
    return out


def test_reason_constants_comments_agree_with_explain():
    """The comment beside each R_* constant in sim/reasons.py (re-exported by sim.encoding)
    names the rule explain() gives (the two are written apart, so a row of REASONS out of step
    with the codes shows)."""
    src = (ROOT / "sim" / "reasons.py").read_text(encoding="utf-8")
    found = dict(re.findall(r"^(R_[A-Z0-9_]+) = [^#\n]+#:\s*(.*)$", src, re.M))
    assert set(found) == set(CODES)
    for name, comment in found.items():
        rule = E.reason_rule(CODES[name])
        named = _comment_rules(comment)
        if rule:
            assert rule in named, (name, rule, comment)
        else:
            assert not named, (name, comment)


@pytest.mark.parametrize("code", [-1, E.N_REASONS, 10**6])
def test_explain_refuses_a_code_that_does_not_exist(code):
    """A code outside the table is a bug to report, not a sentence borrowed from another rule
    (``REASONS[-1]`` would name SPECIAL-6)."""
    with pytest.raises(ValueError, match="no reason code"):
        E.explain(code)
