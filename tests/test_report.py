"""The strategy report: structure, embedded figures, no external URLs, numbers equal to
the analysis functions' output for the same run, sentences traceable and decided by intervals,
the ruleset variant in the methods.

Most tests build a small report from stand-ins that need no compiled engine: played hands from
``analysis.synthetic`` (records of the issue-3 schema drawn with known probabilities) and dealt
odds drawn as Binomial(deals, exact p) per hand. They test the report, not the engine; the last
tests run the real engine and sampler through the CLI when this build has them.
"""

from __future__ import annotations

import base64
import dataclasses
import io
import itertools
import json
import re

import numpy as np
import pandas as pd
import pytest

from analysis import intervals as iv
from analysis import risk, special
from analysis.backend import RecordsEngine
from analysis.compare import duplicate_from_records
from analysis.schema import team_view
from analysis.synthetic import synthetic_records
from reports import fmt, narrative
from reports.build import Settings, build, combine
from reports.html import SECTIONS, assemble, render_rows, write
from sim.errors import CanastaError
from tests.helpers import binomial_odds

POLICIES = ("heuristic", "special_chaser", "random")


def synthetic_simulate(n, policies, seed=0, n_jobs=1, ruleset=None):
    """Stand-in for sim.simulate: schema-shaped synthetic records (analysis.synthetic)."""
    skill = {"heuristic": 150.0, "special_chaser": 100.0, "random": -250.0}
    chase = {"special_chaser": 0.01, "heuristic": 0.002, "random": 0.0005}
    return synthetic_records(n, seed=seed, policies=tuple(policies), p_special=chase, skill=skill)


def synthetic_decide(positions, deals, seed=0, ruleset=None, progress=None):
    """Stand-in for analysis.decisions.run_experiments: known effects (sevens: holding beats
    melding with 3 held, melding wins with 5+; every other decision null)."""
    from analysis.decisions import synthetic_raw

    effects = {
        "sevens": lambda f: -600.0 if f["sevens"] == 3 else (600.0 if f["sevens"] >= 5 else 0)
    }
    return synthetic_raw(effects, positions=positions, deals=deals, seed=seed, pickup_share=0.6)


def fake_engine(**kw) -> RecordsEngine:
    """The stand-ins above as one engine (``analysis.backend.RecordsEngine``: its runs are
    written as run directories and read back like the engine's)."""
    return RecordsEngine(
        lambda n, policies, seed, ruleset: synthetic_simulate(n, policies, seed, ruleset=ruleset),
        odds=lambda n, seed, ruleset: binomial_odds(n, seed=seed, ruleset=ruleset),
        decide=lambda p, d, seed, ruleset: synthetic_decide(p, d, seed=seed, ruleset=ruleset),
        source="synthetic records (test stand-in)",
        **({"equity": _equity} | kw),
    )


def _equity(n, ruleset, resolution):
    """Stand-in for the equity table: a made-up one of a known shape (not measured)."""
    from analysis.equity import synthetic_table

    return synthetic_table(ruleset.target)


def small(tmp_path=None, **kw):
    s = Settings(
        hands=600,
        deals=2_000_000,
        policies=POLICIES,
        seed=7,
        quiet=True,
        positions=60,
        decision_deals=40,
        games=0,
        **kw,
    )
    return build(s, fake_engine())


@pytest.fixture(scope="module")
def made():
    results = small()
    return results, assemble(results)


def report_data(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)
    return json.loads(m.group(1).replace("<\\/", "</"))


def test_every_section_table_and_figure_present(made):
    """Dealt odds, special hands in play, sevens/aces risk, wild melds, comparison,
    scores, 'what the numbers say' and methods; every table and figure of the layout."""
    results, rep = made
    for key, name in SECTIONS:
        assert f'<section id="{key}"><h2>{name}</h2>' in rep.html
    assert not results.notes, results.notes
    for key in set(results.tables) - {"special_by_turn", "game_chance"}:  # drawn, not tabled
        assert f'id="table-{key}"' in rep.html
    assert set(rep.figures) == {
        "dealt_odds",
        "special_by_turn",
        "meld_completion",
        "meld_points",
        "penalties",
        "wild_completion",
        "comparison",
        "game_chance",
        "scores",
    }
    for key in rep.figures:
        assert f'<figure id="fig-{key}"><img src="data:image/png;base64,' in rep.html
    assert len(rep.sentences) >= 8


def test_figures_are_embedded_pngs(made):
    """Each <img> is a base64 PNG that decodes to a picture of the stated size."""
    import matplotlib.image as mpimg

    _, rep = made
    uris = re.findall(r'<img src="data:image/png;base64,([^"]+)"', rep.html)
    assert len(uris) == len(rep.figures)
    raw = base64.b64decode(uris[0], validate=True)
    assert raw[:8] == b"\x89PNG\r\n\x1a\n" and b"http" not in raw  # no URL in its metadata
    img = mpimg.imread(io.BytesIO(raw), format="png")
    assert img.shape[1] > 800 and img.shape[0] > 200  # 7.2 in at 120 dpi wide


def test_no_external_urls(made):
    """Self-contained: no http(s) URL, no src/href other than data: URIs and in-page anchors,
    no CSS url(), no <link> or external script."""
    _, rep = made
    page = rep.html
    assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", page, re.I)
    for attr in re.findall(r'(?:src|href)="([^"]*)"', page):
        assert attr.startswith(("data:", "#")), attr
    assert "url(" not in page and "<link" not in page
    assert re.findall(r"<script[^>]*>", page) == [
        '<script type="application/json" id="report-data">'
    ]


def recomputed(results) -> dict[str, pd.DataFrame]:
    """The analysis functions called directly on the same runs (their whole records, made
    again by the stand-in: the report kept only compact columns) and the same sample."""
    n = results.settings.hands
    whole = [
        dataclasses.replace(r, records=synthetic_simulate(n, r.policies, r.seed))
        for r in results.runs
    ]
    rec = combine(whole)
    out = {
        "dealt_odds": special.dealt_odds(sampled=results.sampled, ruleset=results.ruleset),
        "special_frequency": special.special_frequency(rec),
        "special_by_turn": special.special_by_turn(rec),
        "penalties": risk.penalties(rec),
        "mixed_aces": risk.mixed_aces(rec),
        "wild_by_turn": risk.meld_risk(rec, "wild", by="turn"),
        "scores": iv.mean_table(team_view(rec), "score", by="policy"),
        "net": iv.mean_table(team_view(rec), "net", by="policy"),
    }
    for m in ("sevens", "aces"):
        out[f"{m}_by_turn"] = risk.meld_risk(rec, m, by="turn")
        out[f"{m}_by_held"] = risk.meld_risk(rec, m, by="held")
    runs = {r.policies: r for r in whole}
    rows = [
        duplicate_from_records(
            runs[(a, b)].records, runs[(b, a)].records, a, b, runs[(a, b)].seed
        ).summary
        for a, b in itertools.combinations(POLICIES, 2)
    ]
    out["comparison"] = pd.DataFrame(rows)
    return out


def test_numbers_equal_analysis_output(made):
    """Every table in the HTML (cells and embedded data) equals the analysis functions' output
    for the same run, formatted by reports.fmt."""
    results, rep = made
    data = report_data(rep.html)["tables"]
    direct = recomputed(results)
    assert set(direct) <= set(data)
    for key, df in direct.items():
        emb = data[key]
        got = pd.DataFrame(emb["data"], columns=emb["columns"])
        for col in (
            "estimate",
            "ci_low",
            "ci_high",
            "n",
            "mean_diff",
            "completion",
            "points",
            "frequency",
            "cost",
            "meld_points",
            "exact",
            "win_rate_a",
        ):
            if col in df.columns:
                np.testing.assert_allclose(
                    got[col].to_numpy(float), df[col].to_numpy(float), rtol=1e-12, err_msg=key
                )
        if key in ("special_by_turn",):
            continue  # a figure's data, not a table in the page
        _, cells = render_rows(key, df)
        section = rep.html.split(f'id="table-{key}"')[1].split("</table>")[0]
        body = re.findall(r"<tr>(.*?)</tr>", section.split("<tbody>")[1])
        assert len(body) == len(cells), key
        for tr, row in zip(body, cells, strict=True):  # each row's cells, in order
            assert re.findall(r"<td[^>]*>(.*?)</td>", tr) == [_escape(c) for c in row], key


def _escape(text: str) -> str:
    import html

    return html.escape(text)


def _candidates(v) -> set[str]:
    """Ways reports.fmt can print a cell's value inside a sentence."""
    if isinstance(v, str):
        return {v}
    out = {fmt.pct(v), fmt.pct(v)[:-1], fmt.points(v), fmt.rate(v), fmt.one_in(v)}
    out.add(fmt.one_in(v)[5:])
    if float(v).is_integer():
        out.add(fmt.count(v))
    return out


def test_sentences_cite_the_cells_they_print(made):
    """'What the numbers say': each sentence's numbers are cells of the tables it cites (the
    embedded cell list), each cited table is in the page, and no sentence holds a number that
    is not one of its cells (rule IDs, turn bins and held counts are labels)."""
    results, rep = made
    data = report_data(rep.html)
    assert data["sentences"], "no sentences"
    for s in data["sentences"]:
        text = s["text"]
        printed = set()
        for key, row, col in s["cells"]:
            assert key in s["cites"]
            v = results.tables[key].loc[row, col]
            forms = _candidates(v)
            assert any(f in text for f in forms), (text, key, col, v)
            printed |= {f for f in forms if f in text}
        for key in s["cites"]:
            assert f'href="#table-{key}"' in rep.html
        labels = re.sub(r"95% CI|[A-Z]+-\d|turns [\d+-]+|holding \d|ODDS-1|1 in", " ", text)
        for num in re.findall(r"[+−]?\d[\d,]*(?:\.\d+)?%?", labels):
            assert any(num.strip("+−%") in p for p in printed), (num, text)


def test_direction_decided_by_interval():
    """'X beats Y' only when the paired-difference interval excludes zero; 'no clear
    difference' when it straddles zero; two rates called different only when their intervals
    do not overlap."""
    base = {
        "policy_a": "a",
        "policy_b": "b",
        "deals": 1000,
        "win_rate_a": 0.5,
        "win_ci_low": 0.48,
        "win_ci_high": 0.52,
        "seed": 0,
    }
    rows = [
        {**base, "mean_diff": 40.0, "ci_low": 10.0, "ci_high": 70.0},
        {**base, "mean_diff": 12.0, "ci_low": -5.0, "ci_high": 29.0},
        {**base, "mean_diff": -40.0, "ci_low": -70.0, "ci_high": -10.0},
    ]
    said = narrative.sentences({"comparison": pd.DataFrame(rows)})
    assert said[0].text.startswith("a beats b")
    assert said[1].text.startswith("No clear difference between a and b")
    assert said[2].text.startswith("b beats a")
    assert narrative.separated((0.1, 0.2), (0.15, 0.3)) == 0
    assert narrative.separated((0.31, 0.4), (0.15, 0.3)) == 1
    assert narrative.sign(0.0, 1.0) == 0 and narrative.sign(-2.0, -1.0) == -1


def test_ruleset_variant_in_methods(tmp_path):
    """--rules FILE.toml: the house variants (GARBAGE award SPECIAL-6, MELD-4 wilds) and the
    file itself are stated in the methods; the exact odds follow the ruleset."""
    rules = tmp_path / "house.toml"
    rules.write_text("[ruleset]\ngarbage_award = 3000\nmax_wilds_mixed = 3\n")
    results = small(rules=str(rules))
    page = assemble(results).html
    methods = page.split('<section id="methods">')[1]
    assert "house variants: <b>max_wilds_mixed = 3, garbage_award = 3000</b>" in methods
    assert "garbage_award = 3000" in methods and str(rules) in methods
    assert methods.count("house variant</b>") == 2
    assert "seed" in methods and "numba" in methods and "Generated" in methods
    assert f"--rules {rules}" in methods  # the command that rebuilds it


def test_deals_0_gives_exact_odds_only():
    """ODDS-1 with --deals 0: the exact odds alone, no Monte Carlo column."""
    results = build(
        Settings(hands=100, deals=0, policies=("heuristic", "random"), quiet=True, positions=0),
        fake_engine(),
    )
    assert "estimate" not in results.tables["dealt_odds"].columns
    assert results.sampled is None
    assert "Dealt special hands" in assemble(results).html


def test_special_7_none_report_still_builds(tmp_path):
    """SPECIAL-7 'none': every dealt odds is 0 ('never'), the odds figure is left out."""
    rules = tmp_path / "none.toml"
    rules.write_text('special_hands = "none"\n')
    results = small(rules=str(rules))
    rep = assemble(results)
    assert (results.tables["dealt_odds"]["exact"] == 0).all()
    assert "dealt_odds" not in rep.figures and ">never<" in rep.html


def test_same_seed_same_report_numbers():
    """Determinism: the same settings give the same tables (dates aside)."""
    a, b = small(), small()
    for key in a.tables:
        pd.testing.assert_frame_equal(a.tables[key], b.tables[key], check_like=False)


def test_write_html_and_figure_files(made, tmp_path):
    """--out and --figures: the HTML file and each figure as PNG and SVG."""
    _, rep = made
    files = write(rep, tmp_path / "r.html", tmp_path / "figs")
    assert files[0].read_text(encoding="utf-8") == rep.html
    pngs = sorted((tmp_path / "figs").glob("*.png"))
    assert len(pngs) == len(rep.figures) == len(list((tmp_path / "figs").glob("*.svg")))


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--hands", "1"], "--hands 1"),
        (["--policies", ","], "--policies"),
        (["--policies", "random,random"], "repeated"),
        (["--rules", "/nonexistent/house.toml"], "ruleset file not found"),
        (["--jobs", "0"], "--jobs 0"),
    ],
)
def test_cli_bad_input_one_line(argv, message, capsys, tmp_path):
    from canasta import main

    code = main(["report", "--out", str(tmp_path / "r.html"), "--quiet", *argv])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and message in err, err


def test_settings_refuse_bad_sizes():
    with pytest.raises(CanastaError, match="--deals"):
        Settings(deals=-1)


# ---------------------------------------------------------------------------------------
# The real engine and sampler (skipped in a build without them)
# ---------------------------------------------------------------------------------------
def _engine():
    import sim

    try:
        return sim.simulate
    except (AttributeError, ImportError):
        return None


needs_engine = pytest.mark.skipif(_engine() is None, reason="this build has no sim.simulate")


@needs_engine
def test_cli_builds_a_real_report(tmp_path, capsys, monkeypatch):
    """README's command at tiny sizes: the engine's hands, the real sampler, every section,
    the figures written beside the page, and the methods naming the engine and the seed; a
    tiny equity table (300 hands a pair of minima, 100-point grid) cached under tmp_path."""
    from canasta import main

    monkeypatch.setenv("CANASTA_EQUITY_CACHE", str(tmp_path / "equity"))

    out, figs = tmp_path / "report.html", tmp_path / "figs"
    argv = [
        "report",
        "--hands",
        "40",
        "--deals",
        "200000",
        "--policies",
        "random,greedy",
        "--seed",
        "3",
        "--positions",
        "2",
        "--decision-deals",
        "4",
        "--games",
        "4",
        "--equity-hands",
        "300",
        "--equity-resolution",
        "100",
        "--out",
        str(out),
        "--figures",
        str(figs),
        "--quiet",
    ]
    assert main(argv) == 0
    assert "wrote" in capsys.readouterr().out
    page = out.read_text(encoding="utf-8")
    for key, name in SECTIONS:
        assert f'<section id="{key}"><h2>{name}</h2>' in page
    data = report_data(page)["tables"]
    odds = pd.DataFrame(data["dealt_odds"]["data"], columns=data["dealt_odds"]["columns"])
    assert (odds["n"] == 200_000).all()  # the Monte Carlo column came from the sampler
    comp = data["comparison"]
    assert comp["data"][0][comp["columns"].index("deals")] == 40
    assert "sim.simulate" in page and "Run seed 3" in page
    assert len(list(figs.glob("*.png"))) >= 6


@needs_engine
def test_from_run_directories(tmp_path):
    """--from DIR: two runs of 'canasta simulate --out' (A-B and B-A, one seed) give the
    duplicate comparison equal to analysis.compare on the loaded runs; seeds and the stored
    ruleset come from the runs' metadata."""
    import sim

    ab, ba = tmp_path / "ab", tmp_path / "ba"
    sim.simulate(50, policies=("greedy", "random"), seed=11, out=ab, progress=False)
    sim.simulate(50, policies=("random", "greedy"), seed=11, out=ba, progress=False)
    results = build(Settings(from_dirs=(str(ab), str(ba)), deals=0, quiet=True, positions=0))
    assert [r.seed for r in results.runs] == [11, 11]
    want = duplicate_from_records(sim.load(ab), sim.load(ba), "greedy", "random", 11).summary
    got = results.tables["comparison"].iloc[0]
    for k in ("mean_diff", "ci_low", "ci_high", "win_rate_a", "deals"):
        assert got[k] == pytest.approx(want[k], rel=1e-12)
    page = assemble(results).html
    assert str(ab) in page and "--from" in page
    rules = tmp_path / "house.toml"
    rules.write_text("garbage_award = 3000\n")
    with pytest.raises(CanastaError, match="differs from the ruleset"):
        build(Settings(from_dirs=(str(ab),), deals=0, rules=str(rules), quiet=True, positions=0))


def test_report_names_the_ruleset_it_was_measured_under():
    """The header and Methods name the ruleset: the default, a file, or a loaded run's variant."""
    from types import SimpleNamespace

    from reports.content import ruleset_label
    from sim.ruleset import as_ruleset

    plain = SimpleNamespace(ruleset=as_ruleset(None), settings=SimpleNamespace(rules=None))
    assert ruleset_label(plain) == "the tournament ruleset (defaults)"
    loaded = SimpleNamespace(
        ruleset=as_ruleset({"garbage_award": 3000}), settings=SimpleNamespace(rules=None)
    )
    assert ruleset_label(loaded) == "the tournament ruleset (garbage_award = 3000)"
    filed = SimpleNamespace(ruleset=as_ruleset(None), settings=SimpleNamespace(rules="x/club.toml"))
    assert ruleset_label(filed) == "ruleset file club.toml"
