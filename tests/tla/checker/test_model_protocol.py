"""ModelProtocol names every member the search reads on a model; Model implements them all (but
the hand-written models' hook), and the toy models of these tests the required ones."""

from __future__ import annotations

import ast
from pathlib import Path

from checker_toy import counter

import specula.tla
from specula.tla.checker import build_model
from specula.tla.model import Model
from specula.tla.protocol import OPTIONAL, ModelProtocol

TLA = Path(specula.tla.__file__).parent
SPECS = Path(__file__).resolve().parents[1] / "specs"
# the modules that search a model: what they read of it must be in the protocol
SEARCH = ("checker.py", "plan.py", "symmetry.py", "simulate.py", "liveness.py", "liveness_product.py",
          "liveness_ltl.py")


def _is_model(node: ast.AST) -> bool:
    """``model``, ``x.model``, ``getattr(x, "model", ...)``."""
    if isinstance(node, ast.Name):
        return node.id == "model"
    if isinstance(node, ast.Attribute):
        return node.attr == "model"
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
            and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and node.args[1].value == "model")


def members_read(source: str) -> set[str]:
    """Every attribute read on a model in ``source``: ``model.x``, ``getattr(model, "x")``,
    ``hasattr(model, "x")`` (also through ``self.model`` / ``g.model``)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _is_model(node.value):
            out.add(node.attr)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
              and len(node.args) >= 2 and _is_model(node.args[0]) and isinstance(node.args[1], ast.Constant)):
            out.add(node.args[1].value)
    return out


def protocol_members() -> set[str]:
    methods = {n for n, v in vars(ModelProtocol).items() if callable(v) and not n.startswith("_")}
    return methods | set(ModelProtocol.__annotations__)


def test_the_search_reads_only_protocol_members() -> None:
    read: dict[str, set[str]] = {}
    for name in SEARCH:
        for member in members_read((TLA / name).read_text(encoding="utf-8")):
            read.setdefault(member, set()).add(name)
    missing = {m: sorted(w) for m, w in read.items() if m not in protocol_members()}
    assert not missing, f"members read on the model but not in ModelProtocol: {missing}"


def test_the_scan_finds_a_planted_probe() -> None:
    src = ("def f(model, g):\n    model.a\n    getattr(model, 'b', None)\n    hasattr(g.model, 'c')\n"
           "    getattr(getattr(g, 'model', None), 'd', None)\n    self.model.e\n    other.f\n")
    assert members_read(src) == {"a", "b", "c", "d", "e"}


def test_optional_members_are_protocol_members() -> None:
    assert set(OPTIONAL) <= protocol_members()


def test_model_implements_the_protocol() -> None:
    model, _ = build_model(SPECS / "ActionConstraint.tla")
    assert isinstance(model, Model)
    missing = sorted(m for m in protocol_members() - {"classify_property"} if not hasattr(model, m))
    assert not missing, missing


def test_a_toy_model_needs_only_the_required_members() -> None:
    toy = counter(3)
    required = protocol_members() - set(OPTIONAL)
    assert required == {"variables", "actions", "cfg", "init_states", "next_states", "compile_state_predicate",
                        "compile_action_predicate"}
    assert all(hasattr(toy, m) for m in required)
