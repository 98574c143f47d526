"""The analysis notebooks run end to end at a small sample size and assert their own key
conclusions (ODDS-1 exact odds inside the Monte Carlo sampling error, SCORE-2 meld risk tables
consistent, heuristic beating random on duplicate deals); they are committed without outputs."""

import os
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "analysis" / "notebooks"
NAMES = ("special_hand_odds", "seven_ace_risk", "policy_comparison", "claims", "equity")
#: played hands per run (and 1,000 x N sampled deals) for the test run; the risk notebook needs
#: more hands for its early-versus-late wild meld conclusion to be resolved by the intervals
SMALL_N = {
    "special_hand_odds": 1000,
    "seven_ace_risk": 10_000,
    "policy_comparison": 1000,
    "claims": 30,
    "equity": 3000,
}


def _read(name):
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)


@pytest.mark.parametrize("name", NAMES)
def test_notebook_committed_without_outputs(name):
    for cell in _read(name).cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, name


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_notebook_executes_and_asserts(name, monkeypatch):
    monkeypatch.setenv("CANASTA_NB_N", str(SMALL_N[name]))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    book = _read(name)
    client = nbclient.NotebookClient(
        book, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    )
    client.execute()  # a failed assert in a cell raises CellExecutionError
    assert os.environ["CANASTA_NB_N"] == str(SMALL_N[name])


def _code(name) -> str:
    return "\n".join(c.source for c in _read(name).cells if c.cell_type == "code")


@pytest.mark.parametrize("name", NAMES)
def test_notebook_asserts_its_conclusions_with_intervals(name):
    """Each notebook states a conclusion (a '**Conclusion.**' markdown line, or a
    '# Conclusion' comment) and asserts it through an interval bound against a fixed value or
    another interval (``ci_low > 0``, ``ci_high < 0``, ``a["ci_low"] > b["ci_high"]``); no
    assert merely checks an estimate lies inside its own interval, which cannot fail."""
    book = _read(name)
    text = "\n".join(c.source for c in book.cells)
    assert "**Conclusion" in text or "# Conclusion" in text, name
    code = _code(name)
    bound = r"(ci_low|ci_high|completion_low|completion_high|\[1\]|\[2\])"
    decisive = re.findall(rf"assert .*{bound}\W*\]?\)?\s*[<>]\s*[^=]", code)
    assert decisive, name
    own = r"assert .*(ci_low|_low)\W*\]?\s*<=\s*.*(estimate|completion|mean_diff)\W*\]?\s*<="
    assert not re.search(own, code), name
    assert not re.search(r"assert \(?\(?\w+\[\"\w*low\"\] <= \w+\[\"(estimate|completion)", code)
