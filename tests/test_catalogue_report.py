"""``canasta report --rules``: the report names the ruleset in its header and Methods, and its
odds table is the list in force (SPECIAL-7..9, ODDS-1), for the cla file and a club's own list."""

from pathlib import Path

import pandas as pd
import pytest

from canasta import main
from sim.catalogue import CLA

ROOT = Path(__file__).resolve().parents[1]
CLUB = """name = "Our club"
[[special_hands]]
name = "jokers_pairs"
award = 2000
groups = [{size = 2, kind = "wild", rank = "JK"}, {size = 2}, {size = 2}, {size = 2},
          {size = 2}, {size = 2}, {size = 2}]
[[special_hands]]
name = "pairs"
award = 2500
groups = [{size = 2}, {size = 2}, {size = 2}, {size = 2}, {size = 2}, {size = 2}, {size = 2}]
"""


def _report(tmp_path, rules, capsys):
    from tests.test_report import report_data

    out = tmp_path / "report.html"
    argv = ["report", "--rules", str(rules), "--hands", "40", "--deals", "400000"]
    argv += ["--policies", "special_chaser,heuristic", "--positions", "0", "--out", str(out)]
    assert main([*argv, "--quiet", "--seed", "5"]) == 0, capsys.readouterr().err
    page = out.read_text(encoding="utf-8")
    odds = report_data(page)["tables"]["dealt_odds"]
    return page, pd.DataFrame(odds["data"], columns=odds["columns"])


@pytest.mark.parametrize("which", ["cla", "club"])
def test_special_7_9_report_names_the_ruleset_and_tables_its_list(tmp_path, capsys, which):
    """SPECIAL-7..9, ODDS-1: the header and Methods name the ruleset (special_hands = cla or
    "a list of 2 hands"), the odds table has one row per hand of the list in force and "any",
    each with its Monte Carlo estimate beside the exact value."""
    if which == "cla":
        rules, hands = ROOT / "rules" / "cla.toml", [h.name for h in CLA]
        said = "special_hands = cla"
    else:
        rules, hands = tmp_path / "club.toml", ["jokers_pairs", "pairs"]
        rules.write_text(CLUB)
        said = "special_hands = a list of 2 hands"
    page, odds = _report(tmp_path, rules, capsys)
    head, methods = page.split('<section id="advice">')[0], page.split('<section id="methods">')[1]
    assert said in head and said in methods and rules.name in head
    assert len(odds) == len(hands) + 1 and (odds["n"] == 400_000).all()
    labels = " ".join(str(v) for v in odds.iloc[:, 0])
    for h in hands:
        assert h.replace("_", " ").title() in labels or h in labels
