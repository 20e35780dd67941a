"""The tla room's import graph has no cycle and no class over 600 lines (issue 20).

Edges are every ``import`` / ``from ... import`` of a specula module, at module level or inside a
function, except those under ``if TYPE_CHECKING:`` (type annotations only, never executed)."""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TLA = ROOT / "specula" / "tla"


def _modules() -> dict[str, Path]:
    out = {}
    for p in TLA.rglob("*.py"):
        parts = p.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = p
    return out


def _parse(path: Path) -> ast.Module:
    with warnings.catch_warnings():  # a docstring's "\\E" is not this test's business
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", SyntaxWarning)
        return ast.parse(path.read_text())


def _imports(path: Path, known: dict[str, Path]) -> set[str]:
    found: set[str] = set()

    class Visit(ast.NodeVisitor):
        def visit_If(self, node: ast.If) -> None:
            if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                for x in node.orelse:
                    self.visit(x)
                return
            self.generic_visit(node)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            if node.module and node.module.startswith("specula"):
                for a in node.names:
                    sub = f"{node.module}.{a.name}"
                    found.add(sub if sub in known else node.module)

        def visit_Import(self, node: ast.Import) -> None:
            found.update(a.name for a in node.names if a.name.startswith("specula"))

    Visit().visit(_parse(path))
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_in_tla() -> None:
    known = _modules()
    graph = {m: {d for d in _imports(p, known) if d in known and d != m} for m, p in known.items()}
    assert graph["specula.tla.compile.compiler"]  # the graph is read (the test can fail)
    assert _cycles(graph) == []


def test_a_cycle_is_found() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]


def test_no_class_over_600_lines_in_tla() -> None:
    big = []
    for p in TLA.rglob("*.py"):
        for node in ast.walk(_parse(p)):
            if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > 600:
                big.append(f"{p.relative_to(ROOT)}:{node.name}")
    assert big == []
