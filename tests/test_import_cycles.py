"""No import circle among the project's modules: every ``import`` statement of
sim/, analysis/, reports/ and canasta/, lazy ones inside functions included, read with ``ast``;
the graph of module -> imported project module has no cycle."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sim", "analysis", "reports", "canasta")


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _graph() -> dict[str, set[str]]:
    files = {_module(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in files}
    for mod, path in files.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                if name in files and name != mod and not mod.startswith(name + "."):
                    graph[mod].add(name)  # a package's own __init__ is not a circle
    return graph


def _cycle(graph):
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return [*stack[stack.index(n) :], n]
            if n not in state and (found := visit(n)):
                return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_no_import_circle():
    cycle = _cycle(_graph())
    assert cycle is None, " -> ".join(cycle)


def test_the_check_sees_a_circle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
