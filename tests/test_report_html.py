"""The report's rendering (content apart from rendering, same page as before).

``reports/html.py`` fills jinja2 templates (``reports/templates``) with the prose of
``reports.content``. The golden file ``tests/report_golden.txt`` is the visible text of a small
report (synthetic records, fixed seeds, no engine) as the f-string renderer printed it before
the templates; the templates must print the same words, numbers, headers and captions in the
same order. A change to the report's wording is then a deliberate one: rebuild the file with
``CANASTA_UPDATE_GOLDEN=1 pytest tests/test_report_html.py`` and review its diff.
"""

from __future__ import annotations

import fnmatch
import os
import re
import tomllib
from html.parser import HTMLParser
from pathlib import Path

from analysis.backend import RecordsEngine
from analysis.equity import synthetic_table
from analysis.synthetic import synthetic_records
from reports.build import Settings, build
from reports.html import assemble
from tests.helpers import binomial_odds

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).with_name("report_golden.txt")
BLOCK = {"p", "li", "h1", "h2", "h3", "tr", "caption", "figcaption", "pre", "section", "nav"}


class _Text(HTMLParser):
    """What a reader sees: text by block, cells split by ' | ', images by their alt text;
    the style sheet and the embedded JSON are not shown."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines, self.line, self.hidden = [], [], 0

    def _flush(self):
        text = re.sub(r"\s+", " ", "".join(self.line)).strip()
        if text:
            self.lines.append(text)
        self.line = []

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script"):
            self.hidden += 1
        elif tag in BLOCK:
            self._flush()
        elif tag in ("td", "th") and self.line:
            self.line.append(" | ")
        elif tag == "img":
            self._flush()
            self.lines.append(f"[image: {dict(attrs)['alt']}]")

    def handle_endtag(self, tag):
        if tag in ("style", "script"):
            self.hidden -= 1
        elif tag in BLOCK:
            self._flush()

    def handle_data(self, data):
        if not self.hidden:
            self.line.append(data)


def visible_text(page: str) -> str:
    parser = _Text()
    parser.feed(page)
    parser.close()
    parser._flush()
    return "\n".join(parser.lines) + "\n"


def _simulate(n, policies, seed=0, n_jobs=1, ruleset=None):
    skill = {"heuristic": 150.0, "random": -250.0}
    return synthetic_records(n, seed=seed, policies=tuple(policies), skill=skill)


def _decide(positions, deals, seed=0, ruleset=None, progress=None):
    """Stand-in for the decision experiments: synthetic rows, one known effect (taking the
    pile gains 500 net points a hand), every other decision null."""
    from analysis.decisions import synthetic_raw

    return synthetic_raw({"pile": lambda f: 500.0}, positions=positions, deals=deals, seed=seed)


def small_report(rules: Path) -> str:
    """A small report with a house variant and a note; date, timings and versions pinned."""
    rules.write_text("[ruleset]\ngarbage_award = 3000\n")
    settings = Settings(
        hands=80,
        deals=50_000,
        policies=("heuristic", "random"),
        seed=5,
        rules=str(rules),
        quiet=True,
        positions=30,
        decision_deals=20,
    )
    engine = RecordsEngine(
        lambda n, policies, seed, ruleset: _simulate(n, policies, seed, ruleset=ruleset),
        odds=lambda n, seed, ruleset: binomial_odds(n, seed=seed, ruleset=ruleset),
        decide=lambda p, d, seed, ruleset: _decide(p, d, seed=seed, ruleset=ruleset),
        source="synthetic records (test stand-in)",
        equity=lambda n, ruleset, resolution: synthetic_table(ruleset.target),
    )
    results = build(settings, engine)
    results.meta.update(
        date="2000-01-01 00:00 UTC",
        seconds=1.0,
        simulation_seconds=2.0,
        dealt_odds_seconds=3.0,
        decisions_seconds=4.0,
        versions={"python": "3.x", "numba": "0.x"},
        machine="Linux x86_64",
        dealt_odds="a note with <markup> & an ampersand",
    )
    results.notes["example"] = "a table left out <on purpose> & why"
    return assemble(results).html


def test_visible_text_matches_golden(tmp_path):
    """Same sections, captions, table headers and cells, sentences and Methods as the golden
    text; markup characters in notes are escaped (they show as text)."""
    page = small_report(tmp_path / "house.toml")
    text = visible_text(page).replace(str(tmp_path), "TMP")
    if os.environ.get("CANASTA_UPDATE_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    assert "a table left out <on purpose> & why" in text
    assert "a note with <markup> & an ampersand" in text
    want = GOLDEN.read_text(encoding="utf-8").splitlines()
    got = text.splitlines()
    for i, (w, g) in enumerate(zip(want, got, strict=False)):
        assert g == w, f"line {i + 1} of {GOLDEN.name} differs"
    assert len(got) == len(want)


def test_templates_ship_with_the_package():
    """Every template file is matched by pyproject's package-data for ``reports``, so an
    installed (non-editable) copy renders too."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["reports"]
    files = {f.name for f in (ROOT / "reports" / "templates").iterdir()}
    assert {"report.html.j2", "methods.html.j2", "report.css"} <= files
    for name in files:
        assert any(fnmatch.fnmatch(f"templates/{name}", p) for p in patterns), (name, patterns)
