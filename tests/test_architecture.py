"""The import graph of ``specula/`` (every import, module-level or inside a function): no
cycle between modules, no room imports a room above it, and no module imports another module's
private (``_name``) names (docs/architecture.md)."""

from __future__ import annotations

import ast
import warnings
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "specula"

# Rooms from the top (faces) to the bottom (engine, code index). A room may import rooms of a
# lower level and the shared base; never a room of its own level or above.
LEVELS: dict[str, int] = {
    "__main__": 95, "cli": 90,
    "mcp": 80, "session": 80,
    "timeline": 75,
    "bench": 70, "onboard": 70,
    "agent": 60,
    "coverage": 50,
    "phases": 40,
    "tasks": 35,
    "traces": 30,
    "tla": 10, "code": 10,
}
# The shared base: imported by every room, importing none.
BASE = {"specula", "errors", "diagnostics", "yamlfile", "doctor", "deep"}


def _modules() -> dict[str, Path]:
    out = {}
    for p in PACKAGE.rglob("*.py"):
        parts = p.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = p
    return out


def _parse(path: Path) -> ast.Module:
    with warnings.catch_warnings():  # a docstring's "\\E" is not this test's business
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", SyntaxWarning)
        return ast.parse(path.read_text(encoding="utf-8"))


def _runtime_nodes(tree: ast.AST):
    """Every node but those under ``if TYPE_CHECKING:`` (imports for annotations only)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                todo.extend(child.orelse)
                continue
            todo.append(child)


def import_graph() -> dict[str, set[str]]:
    mods = _modules()
    edges: dict[str, set[str]] = defaultdict(set)
    for name, path in mods.items():
        pkg = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in _runtime_nodes(_parse(path)):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    head = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                    base = ".".join(head + ([base] if base else []))
                targets = [f"{base}.{a.name}" for a in node.names] + [base]
            else:
                continue
            for t in targets:
                while t and t not in mods:
                    t = t.rsplit(".", 1)[0] if "." in t else ""
                if t and t != name:
                    edges[name].add(t)
                    # importing a.b.c runs a/b/__init__.py first: an edge to each package on the
                    # way that is not one of the importer's own (those are already under way)
                    parts = t.split(".")
                    for i in range(2, len(parts)):
                        pkg_t = ".".join(parts[:i])
                        if pkg_t in mods and not (name == pkg_t or name.startswith(pkg_t + ".")):
                            edges[name].add(pkg_t)
                    break  # `from x import y`: y itself when it is a module, else x
    return edges


def private_imports(mods: dict[str, Path] | None = None, root: Path = PACKAGE.parent) -> list[str]:
    """``from specula.x import _name`` (any import, also inside a function) where ``_name`` is
    not a module: a module reaching into another's privates."""
    mods = _modules() if mods is None else mods
    bad = []
    for name, path in mods.items():
        pkg = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in _runtime_nodes(_parse(path)):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = node.module or ""
            if node.level:
                head = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                base = ".".join(head + ([base] if base else []))
            if base != "specula" and not base.startswith("specula."):
                continue
            for a in node.names:
                private = a.name.startswith("_") and not a.name.startswith("__")
                if private and f"{base}.{a.name}" not in mods:
                    bad.append(f"{path.relative_to(root)}:{node.lineno} imports {a.name} from {base}")
    return sorted(bad)


def _room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(set(edges) | {t for ts in edges.values() for t in ts}):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def test_no_import_cycle() -> None:
    assert _cycles(import_graph()) == []


def test_every_room_has_a_level() -> None:
    rooms = {_room(m) for m in _modules()}
    unknown = sorted(r for r in rooms if r not in LEVELS and r not in BASE)
    assert not unknown, f"new room(s) {unknown}: give them a level here and a place in docs/architecture.md"


def test_no_upward_import_between_rooms() -> None:
    bad = []
    for src, targets in import_graph().items():
        a = _room(src)
        for dst in targets:
            b = _room(dst)
            if a == b or b in BASE:
                continue
            if a in BASE or LEVELS.get(b, 0) >= LEVELS.get(a, 0):
                bad.append(f"{src} -> {dst}")
    assert not bad, "\n".join(sorted(bad))


def test_the_checker_finds_a_planted_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_class_over_600_lines() -> None:
    big = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(_parse(path)):
            if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > 600:
                big.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.name} "
                           f"({node.end_lineno - node.lineno + 1} lines)")
    assert not big, "\n".join(big)


def test_no_module_imports_another_modules_privates() -> None:
    bad = private_imports()
    assert not bad, "make the name public (and say so in __all__) or keep it in its module:\n" + "\n".join(bad)


def test_the_private_import_check_finds_a_planted_import(tmp_path: Path) -> None:
    pkg = tmp_path / "specula" / "tla"
    pkg.mkdir(parents=True)
    (pkg / "simulate.py").write_text("from specula.tla.checker import Limits, _Plan\n"
                                     "def f():\n    from .checker import _key_function\n", encoding="utf-8")
    (pkg / "checker.py").write_text("__all__ = []\n", encoding="utf-8")
    mods = {"specula.tla.simulate": pkg / "simulate.py", "specula.tla.checker": pkg / "checker.py"}
    assert private_imports(mods, tmp_path) == ["specula/tla/simulate.py:1 imports _Plan from specula.tla.checker",
                     "specula/tla/simulate.py:3 imports _key_function from specula.tla.checker"]


def test_simulate_shares_the_plan_and_not_the_checker() -> None:
    """Both searches start from plan.prepare(); simulate needs nothing of the checker."""
    edges = import_graph()
    assert "specula.tla.checker" not in edges["specula.tla.simulate"]
    assert {"specula.tla.plan"} <= edges["specula.tla.simulate"] & edges["specula.tla.checker"]


def unexplained_lazy_imports(paths: list[Path], root: Path = PACKAGE.parent) -> list[str]:
    """Imports inside a function (not under ``if TYPE_CHECKING:``) without a comment — on the
    line, or right above the group of imports it belongs to — saying why they are not at
    module level (start-up time, an optional or platform-only dependency)."""
    bad = []
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in _runtime_nodes(_parse(path)):
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or node.col_offset == 0:
                continue
            i = node.lineno - 1
            if "#" in lines[i]:
                continue
            j = i - 1
            while j >= 0 and lines[j].strip().startswith(("import ", "from ")):
                j -= 1
            if j < 0 or not lines[j].strip().startswith("#"):
                bad.append(f"{path.relative_to(root)}:{node.lineno} {lines[i].strip()}")
    return bad


def test_lazy_imports_in_tla_say_why() -> None:
    bad = unexplained_lazy_imports(sorted((PACKAGE / "tla").rglob("*.py")))
    assert not bad, "hoist these to module level, or say in a comment why they must stay lazy:\n" + "\n".join(bad)


def test_the_lazy_import_check_finds_an_unexplained_one(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from x import Y\n\n"
                   "def f():\n    import json\n\ndef g():\n    # lazy: slow to import\n    import a\n    import b\n\n"
                   "def h():\n    import c  # lazy: optional\n", encoding="utf-8")
    assert unexplained_lazy_imports([src], tmp_path) == ["m.py:6 import json"]
