"""The layers of docs/architecture.md hold, read from the sources with ``ast``:
every import statement counts, at module level or inside a function (a lazy import is still a
dependency).

- ``sim`` never imports ``analysis``, ``reports`` or the command line (``canasta``);
- ``analysis`` never imports ``reports`` or the command line;
- the rules core (``sim/legality``, ``special``, ``scoring``, ``odds``, ``sampler``, ``finished``)
  imports nothing above it: no engine, policy, runner or face;
- the engine (``sim/engine``) never imports the policy registry, the runner level (``sim.api``,
  ``sim.runner``, ``sim.store``, ``sim.warm``) or anything above ``sim``: it takes compiled
  policies;
- privacy by package: within ``sim`` only ``sim/play``, ``sim/api.py`` and ``sim/policies``
  (and the engine itself) import ``sim.engine``; above ``sim`` (``analysis``, ``canasta``,
  ``reports``) only the files of an explicit list that shrinks as they move onto ``sim.play``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLI = "canasta"  #: the command line's package

#: the engine may not import these (nor anything under them)
ENGINE_FORBIDDEN = (
    "sim.policies.registry",
    "sim.api",
    "sim.warm",
    "sim.runner",
    "sim.store",
    "analysis",
    "reports",
    CLI,
)

#: (file, module) pairs allowed against the rule, each with its reason: none. ``Game``, the step
#: API for people that takes policy names, lives above the engine in ``sim.step``.
ENGINE_EXCEPTIONS: set[tuple[str, str]] = set()


def imports(path: Path, root: Path = ROOT) -> set[str]:
    """Every module an ``import``/``from ... import`` statement of ``path`` names (absolute;
    relative imports are resolved against the file's package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = path.relative_to(root).with_suffix("").parts[:-1]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1])
                mod = f"{base}.{node.module}" if node.module else base
            else:
                mod = node.module
            out.add(mod)
            out.update(f"{mod}.{alias.name}" for alias in node.names)  # from sim import api
    return out


def under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def violations(package: str, forbidden, exceptions=frozenset()) -> list[str]:
    out = []
    for f in files(package):
        rel = f.relative_to(ROOT).as_posix()
        for mod in sorted(imports(f)):
            for bad in forbidden:
                if under(mod, bad) and (rel, bad) not in exceptions:
                    out.append(f"{rel} imports {mod}")
    return out


def test_the_packages_exist():
    for package in ("sim", "sim/engine", "analysis", "reports", CLI):
        assert files(package), f"no sources under {package}/"


def test_sim_never_imports_analysis_reports_or_the_command_line():
    assert violations("sim", ("analysis", "reports", CLI)) == []


def test_analysis_never_imports_reports_or_the_command_line():
    assert violations("analysis", ("reports", CLI)) == []


def test_reports_never_imports_the_command_line():
    assert violations("reports", (CLI,)) == []


def test_engine_takes_compiled_policies_never_the_registry_or_the_runner():
    assert violations("sim/engine", ENGINE_FORBIDDEN, ENGINE_EXCEPTIONS) == []


def test_engine_exceptions_are_still_needed():
    """An exception that no import uses any more must be dropped from the list."""
    for rel, bad in ENGINE_EXCEPTIONS:
        assert any(under(m, bad) for m in imports(ROOT / rel)), f"{rel} no longer imports {bad}"


@pytest.mark.parametrize(
    "source,expected",
    [
        ("import analysis.schema", "analysis.schema"),
        ("def f():\n    from reports import build", "reports.build"),
        ("from sim import api", "sim.api"),
        ("from .other import x", "pkg.other"),
    ],
)
def test_the_scan_sees_lazy_relative_and_aliased_imports(tmp_path, source, expected):
    """The checker itself: imports inside functions, relative ones and ``from package import
    module`` all count."""
    f = tmp_path / "pkg" / "m.py"
    f.parent.mkdir()
    f.write_text(source)
    assert expected in imports(f, tmp_path)


#: the rules core (layer 2 of docs/architecture.md): the rules kernels and the exact odds
RULES_CORE = (
    "sim/legality",
    "sim/special.py",
    "sim/scoring.py",
    "sim/odds.py",
    "sim/sampler.py",
    "sim/finished.py",
)
#: what lies above the rules core: the engine, the policies, the runner level and the faces
RULES_CORE_FORBIDDEN = (
    "sim.engine",
    "sim.policies",
    "sim.api",
    "sim.runner",
    "sim.store",
    "sim.warm",
    "sim.env",
    "analysis",
    "reports",
    CLI,
)
#: (file, module) pairs allowed against the rule (none: the sampler's runner-level entry point
#: moved to ``sim/sampling.py``); the test below fails while an entry is no longer
#: needed
RULES_CORE_EXCEPTIONS: set[tuple[str, str]] = set()


def rules_core_files() -> list[Path]:
    out = []
    for entry in RULES_CORE:
        path = ROOT / entry
        out += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return out


def test_rules_core_imports_nothing_above_it():
    """The rules kernels see only the vocabulary and each other: never the engine, a policy,
    the runner or a face (layers 1-2 of docs/architecture.md)."""
    found = []
    for f in rules_core_files():
        rel = f.relative_to(ROOT).as_posix()
        for mod in sorted(imports(f)):
            for bad in RULES_CORE_FORBIDDEN:
                if under(mod, bad) and (rel, bad) not in RULES_CORE_EXCEPTIONS:
                    found.append(f"{rel} imports {mod}")
    assert found == []


def test_rules_core_exceptions_are_still_needed():
    for rel, bad in RULES_CORE_EXCEPTIONS:
        assert any(under(m, bad) for m in imports(ROOT / rel)), f"{rel} no longer imports {bad}"


#: within ``sim``, the packages and modules that may import the compiled engine: the one owner
#: of a hand (``sim/play``), the run level's chunk functions (``sim/api.py``), the policies
#: and the engine itself; every other module goes through them
ENGINE_IMPORTERS = ("sim/engine/", "sim/play/", "sim/api.py", "sim/policies/")
#: the files above ``sim`` allowed to import ``sim.engine`` (none: they go through ``sim.play``
#: or ``sim.api``); a file listed that stops must come off the list (test below)
ENGINE_IMPORTERS_ABOVE: set[str] = set()


def engine_importers(packages) -> set[str]:
    """The files of ``packages`` with an import of ``sim.engine`` (or of a module in it)."""
    out = set()
    for package in packages:
        for f in files(package):
            if any(under(m, "sim.engine") for m in imports(f)):
                out.add(f.relative_to(ROOT).as_posix())
    return out


def test_within_sim_only_play_api_and_policies_import_the_engine():
    """The engine is private to the package: the rest of ``sim`` (the environment, the
    warm-up, the runner, the samplers, the shims) reaches it through ``sim.play``."""
    found = sorted(f for f in engine_importers(["sim"]) if not f.startswith(ENGINE_IMPORTERS))
    assert found == []


def test_above_sim_only_the_listed_files_import_the_engine():
    found = sorted(engine_importers(["analysis", "canasta", "reports"]) - ENGINE_IMPORTERS_ABOVE)
    assert found == [], "go through sim.play or sim.api instead"


def test_engine_importers_above_sim_are_still_importers():
    """A file that no longer imports the engine must come off the list, so it cannot grow
    back unseen."""
    stale = sorted(ENGINE_IMPORTERS_ABOVE - engine_importers(["analysis", "canasta", "reports"]))
    assert stale == []
