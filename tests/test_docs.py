"""The documentation site: built with warnings as errors, so a broken link, a renamed
function named on an API page or a lost notebook fails CI; the policy example on its page runs.

The site is built once per session into a temporary directory (mkdocs-material, mkdocstrings,
mkdocs-jupyter without running the notebooks: a few seconds of work).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
HOOK = DOCS / "hooks" / "canasta_docs.py"


def _env() -> dict:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return os.environ | {"PYTHONPATH": path, "NO_MKDOCS_2_WARNING": "1"}


def _mkdocs_build(config: Path, site: Path) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)]
    return subprocess.run(cmd, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=600)


def _python(*args: str) -> subprocess.CompletedProcess:
    """``python ARGS`` in the checkout, output captured, at most 15 minutes."""
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=900
    )


def _hook():
    spec = importlib.util.spec_from_file_location("canasta_docs_hook", HOOK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = _mkdocs_build(ROOT / "mkdocs.yml", out)
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return out


def test_site_builds_strict_with_every_page(site):
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    pages = []

    def walk(nav):
        for item in nav:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            if isinstance(value, list):
                walk(value)
            else:
                pages.append(value)

    walk(config["nav"])
    for page in pages:
        html = site / re.sub(r"\.(md|ipynb)$", ".html", page)
        assert html.is_file(), f"nav page {page} was not built"
    # every markdown page of docs/ is in the nav (an orphan page would be unreachable)
    listed = set(pages)
    for md in DOCS.rglob("*.md"):
        rel = md.relative_to(DOCS).as_posix()
        assert rel in listed, f"docs/{rel} is not in mkdocs.yml's nav"


def test_cli_reference_is_generated_from_the_parser(site):
    build_parser, _ = _hook().load_build_parser()
    parser = build_parser()
    html = (site / "cli.html").read_text()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    assert sub.choices, "the parser has no commands"
    for name, command in sub.choices.items():
        assert f'id="canasta-{name}"' in html, f"no section for canasta {name}"
        for action in command._actions:
            for option in action.option_strings:
                assert option in html, f"canasta {name} {option} is missing from cli.html"
    assert "<!-- canasta-cli-reference -->" not in html
    assert not re.search(r"every core: \d", html), "the --jobs default names this machine's cores"


def test_api_pages_document_every_identifier_they_name(site):
    named = 0
    for md in sorted((DOCS / "api").glob("*.md")):
        html = (site / "api" / md.name.replace(".md", ".html")).read_text()
        for ident in re.findall(r"^::: ([\w.]+)", md.read_text(), flags=re.M):
            named += 1
            assert f'id="{ident}"' in html, f"{ident} has no entry on api/{md.name}"
    assert named >= 10


def test_notebooks_render_as_tutorials_without_running(site):
    notebooks = sorted((ROOT / "analysis" / "notebooks").glob("*.ipynb"))
    assert notebooks
    for nb in notebooks:
        cells = json.loads(nb.read_text())["cells"]
        title = next(c for c in cells if c["cell_type"] == "markdown")["source"][0]
        title = title.lstrip("# ").strip()
        html = (site / "notebooks" / f"{nb.stem}.html").read_text()
        assert title.split(":")[0] in html, f"{nb.name}: its title is not on the page"
        code = next(c for c in cells if c["cell_type"] == "code")["source"]
        first_line = next(line for line in code if line.strip()).split()[0]
        assert first_line in html, f"{nb.name}: its code is not on the page"


def test_pages_load_nothing_from_the_web(site):
    """theme.font false and no CDN scripts: the site renders offline from site/index.html."""
    loaded = re.compile(r"""<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=["']?(?:https?:)?//""")
    for html in site.rglob("*.html"):
        text = html.read_text()
        match = loaded.search(text)
        assert match is None, f"{html.relative_to(site)} loads {match.group(0)!r}"
        assert "fonts.googleapis" not in text


def test_no_markdown_left_unrendered(site):
    """Markdown inside HTML blocks needs md_in_html; a link left as text escapes link checks."""
    raw_link = re.compile(r"\]\([^)\s]+\.(?:md|ipynb)(?:#[^)]*)?\)")
    for html in site.rglob("*.html"):
        match = raw_link.search(html.read_text())
        assert match is None, f"{html.relative_to(site)} shows {match.group(0)!r} as text"


def _mini_config(tmp_path: Path, page: str) -> Path:
    """A one-page site with the project's mkdocstrings settings (cheap to build)."""
    real = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    plugin = next(p for p in real["plugins"] if isinstance(p, dict) and "mkdocstrings" in p)
    plugin["mkdocstrings"]["handlers"]["python"]["paths"] = [str(ROOT)]
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(page)
    config = {
        "site_name": "check",
        "docs_dir": str(docs),
        "theme": {"name": "mkdocs"},
        "plugins": [plugin],
        "validation": real["validation"],
    }
    path = tmp_path / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config))
    return path


@pytest.mark.parametrize(
    ("page", "named"),
    [
        ("# API\n\n::: sim.api.simulate_renamed\n", "simulate_renamed"),
        ("# Links\n\nSee [the rules](no-such-page.md).\n", "no-such-page.md"),
        ("# Links\n\nSee [simulate](#no-such-anchor).\n", "no-such-anchor"),
    ],
    ids=["renamed-function", "broken-link", "broken-anchor"],
)
def test_strict_build_fails_on_a_renamed_function_or_a_broken_link(tmp_path, page, named):
    done = _mkdocs_build(_mini_config(tmp_path, page), tmp_path / "site")
    assert done.returncode != 0, f"the build passed with {named!r}:\n{done.stderr}"
    assert named in done.stdout + done.stderr


def test_mini_site_builds_with_a_real_identifier(tmp_path):
    """The control of the test above: the same one-page site passes with a real name."""
    done = _mkdocs_build(
        _mini_config(tmp_path, "# API\n\n::: sim.api.simulate\n"), tmp_path / "site"
    )
    assert done.returncode == 0, done.stderr


def test_cli_location_is_tried_in_order():
    """The CLI's package is named once (CLI_MODULES); a missing module is skipped, in order."""
    hook = _hook()
    _, found = hook.load_build_parser()
    assert found in hook.CLI_MODULES
    build, name = hook.load_build_parser(("no_such_cli_package.cli", found))
    assert name == found and build().prog == "canasta"
    from mkdocs.exceptions import PluginError

    with pytest.raises(PluginError, match="no_such_cli_package"):
        hook.load_build_parser(("no_such_cli_package",))


def test_policy_page_example_runs():
    """The code on docs/policies.md (register a compiled policy, play it by name) works."""
    blocks = re.findall(r"```python\n(.*?)```", (DOCS / "policies.md").read_text(), flags=re.S)
    assert len(blocks) >= 2
    done = _python("-c", "\n".join(blocks))
    assert done.returncode == 0, done.stderr
    assert "reckless - heuristic" in done.stdout


def test_getting_started_odds_table_matches_the_exact_odds():
    """The first question's answer on docs/getting-started.md is what sim.odds counts."""
    from sim.odds import exact_odds

    text = (DOCS / "getting-started.md").read_text()
    odds = exact_odds()
    for hand, p in odds.items():
        row = re.search(rf"^{hand}\s+(\S+)\s+([\d,]+)\s+(\d+)/(\d+)$", text, flags=re.M)
        assert row, f"no row for {hand} in the odds table"
        assert f"{row.group(3)}/{row.group(4)}" == f"{p.numerator}/{p.denominator}", hand
        assert int(row.group(2).replace(",", "")) == round(1 / p), hand


def test_getting_started_simulation_output_is_current():
    """The small simulation on docs/getting-started.md prints what the page shows (same seed,
    same hands). If the engine's play changes on purpose, paste the new output into the page."""
    text = (DOCS / "getting-started.md").read_text()
    block = re.search(r"\$ canasta simulate (.*?)\n(.*?)```", text, flags=re.S)
    assert block, "no canasta simulate example on the page"
    args = [*block.group(1).split(), "--jobs", "1", "--quiet"]
    _, cli = _hook().load_build_parser()  # wherever the command line lives now
    run = f"import sys, {cli} as m; sys.exit(m.main(sys.argv[1:]))"
    done = _python("-c", run, "simulate", *args)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == block.group(2).strip(), (
        "docs/getting-started.md shows another output than `canasta simulate "
        f"{block.group(1)}` prints now:\n{done.stdout}"
    )
