"""Every rule ID in the project's rules document has at least one test naming it."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"
SHARED_RULES = ROOT.parent / "shared" / "RULES.md"


def _rule_ids(text: str) -> list[str]:
    return re.findall(r"^- \*\*([A-Z]+-\d+)\*\*", text, flags=re.MULTILINE)


def _tests_text() -> str:
    return "\n".join(
        p.read_text() for p in (ROOT / "tests").rglob("*.py") if p.name != Path(__file__).name
    )


def _named(rule_id: str, text: str) -> bool:
    family, number = rule_id.split("-")
    # 'MELD-6' in a docstring/comment, or 'meld_6' in a test name ('test_meld_6_...'), but
    # not 'meld_60', and 'card_2' not inside 'discard_2'
    low = family.lower()
    pattern = rf"(?<![A-Z]){family}-{number}(?!\d)|(?<![a-z0-9]){low}_{number}(?![0-9])"
    return re.search(pattern, text) is not None


def test_rules_doc_lists_every_rulebook_id():
    ours = _rule_ids(RULES_DOC.read_text())
    assert len(ours) == len(set(ours)), "duplicate rule IDs in docs/rules.md"
    if SHARED_RULES.exists():  # the rulebook of record sits beside the repository
        theirs = _rule_ids(SHARED_RULES.read_text())
        assert sorted(ours) == sorted(theirs)
    assert len(ours) >= 50


def test_every_rule_id_has_a_test():
    text = _tests_text()
    missing = [rid for rid in _rule_ids(RULES_DOC.read_text()) if not _named(rid, text)]
    assert not missing, f"rule IDs with no test naming them: {', '.join(missing)}"
