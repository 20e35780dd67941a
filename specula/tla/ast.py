"""specula's TLA+ syntax tree: frozen dataclasses with ``__slots__`` and a source span.

This module is the contract between the front end (``syntax.py``: tree-sitter -> AST, and the
semantic checks) and the engine (compiler, evaluator, checker). It has no logic beyond
traversal helpers.

Conventions
-----------
* Built-in operators are ``OpApp`` nodes whose ``name`` is the *canonical ASCII* spelling below,
  whatever notation the source used (``\\land``, ``/\\`` and ``∧`` all become ``"/\\"``).
  User-defined operators (including user infix operators such as ``\\prec``) keep their name.
* Conjunction and disjunction are n-ary ``And`` / ``Or`` (junction lists and infix chains are
  flattened only where the source groups them so; ``a /\\ (b /\\ c)`` stays nested).
* ``x'`` is ``Prime(x)``; ``UNCHANGED e``, ``ENABLED e``, ``DOMAIN``, ``SUBSET``, ``UNION``,
  ``[]``, ``<>`` are ``OpApp`` with the canonical names below and one argument.
* Every node has a ``span`` (``Span``, a NamedTuple of file, byte offsets, 1-based line/column
  of start and end; columns count characters). Spans never take part in node equality.
* Names are resolved later (semantic analysis): ``Name`` is any identifier reference — a
  variable, constant, bound variable, or operator used without arguments or passed as an
  argument. ``OpApp`` with a ``prefix`` is an instance-qualified reference ``I!J!Op(args)``.

Canonical built-in names
------------------------
Logic ``/\\ \\/ ~ => <=> TRUE FALSE``; equality ``= #``; sets ``\\in \\notin \\cup \\cap \\
\\subseteq \\subset \\supseteq \\supset SUBSET UNION``; arithmetic ``+ - * \\div % ^ < > <= >=
.. -.`` (``-.`` is unary minus); ``DOMAIN``; ``\\X`` (n-ary Cartesian product); sequences ``\\o``;
TLC ``:> @@``; action ``' UNCHANGED ENABLED \\cdot``; temporal ``[] <> ~> -+->``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Iterator, NamedTuple, Union

__all__ = [
    "Span",
    "NO_SPAN",
    "Node",
    "Expr",
    "Name",
    "OpApp",
    "Number",
    "String",
    "Bool",
    "And",
    "Or",
    "Prime",
    "Bound",
    "Quant",
    "Choose",
    "SetEnum",
    "SetFilter",
    "SetMap",
    "FuncCons",
    "FuncApp",
    "FuncSet",
    "RecordCons",
    "RecordSet",
    "FieldAccess",
    "Tuple",
    "ExceptUpdate",
    "Except",
    "At",
    "If",
    "Case",
    "Let",
    "Lambda",
    "BoxAction",
    "AngleAction",
    "Fairness",
    "TemporalQuant",
    "Param",
    "OpDef",
    "FuncDef",
    "VariableDecl",
    "ConstantDecl",
    "InstanceDef",
    "Substitution",
    "Assume",
    "Theorem",
    "RecursiveDecl",
    "Unit",
    "Module",
    "children",
    "walk",
]


class Span(NamedTuple):
    """Source span: file, byte offsets, and 1-based line/column of start and end.

    An immutable, hashable record (a NamedTuple, so the parser can build thousands cheaply);
    use ``span._replace(...)`` to derive a changed copy."""

    file: str
    start: int
    end: int
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_SPAN = Span("<builtin>", 0, 0, 0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Node:
    span: Span = field(default=NO_SPAN, compare=False, repr=False, kw_only=True)


# ----------------------------------------------------------------------------- expressions


@dataclass(frozen=True, slots=True)
class Name(Node):
    name: str


@dataclass(frozen=True, slots=True)
class OpApp(Node):
    """``name(args)``; built-ins by canonical name; ``prefix`` for ``I!Op`` paths."""

    name: str
    args: tuple["Expr", ...] = ()
    prefix: tuple[str, ...] = ()
    # arguments of a parameterized instance in the prefix path, ``I(a, b)!Op``: one tuple per prefix
    prefix_args: tuple[tuple["Expr", ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Number(Node):
    value: int
    text: str = ""  # original text (e.g. "1.5" for Reals, "\\b101"), for messages


@dataclass(frozen=True, slots=True)
class String(Node):
    value: str


@dataclass(frozen=True, slots=True)
class Bool(Node):
    value: bool


@dataclass(frozen=True, slots=True)
class And(Node):
    args: tuple["Expr", ...]
    bulleted: bool = False


@dataclass(frozen=True, slots=True)
class Or(Node):
    args: tuple["Expr", ...]
    bulleted: bool = False


@dataclass(frozen=True, slots=True)
class Prime(Node):
    expr: "Expr"


@dataclass(frozen=True, slots=True)
class Bound(Node):
    """``x, y \\in S`` (names=("x","y")), ``<<a, b>> \\in S`` (tuple=True), or unbounded (domain None)."""

    names: tuple[str, ...]
    domain: "Expr | None" = None
    tuple: bool = False


@dataclass(frozen=True, slots=True)
class Quant(Node):
    """``\\A`` (kind "A") or ``\\E`` (kind "E") over one or more bounds."""

    kind: str
    bounds: tuple[Bound, ...]
    body: "Expr"


@dataclass(frozen=True, slots=True)
class Choose(Node):
    bound: Bound
    body: "Expr"


@dataclass(frozen=True, slots=True)
class SetEnum(Node):
    elems: tuple["Expr", ...]


@dataclass(frozen=True, slots=True)
class SetFilter(Node):
    """``{x \\in S : P}``"""

    bound: Bound
    pred: "Expr"


@dataclass(frozen=True, slots=True)
class SetMap(Node):
    """``{e : x \\in S, y \\in T}``"""

    expr: "Expr"
    bounds: tuple[Bound, ...]


@dataclass(frozen=True, slots=True)
class FuncCons(Node):
    """``[x \\in S, y \\in T |-> e]``"""

    bounds: tuple[Bound, ...]
    body: "Expr"


@dataclass(frozen=True, slots=True)
class FuncApp(Node):
    """``f[a]`` or ``f[a, b]`` (several args mean the tuple ``<<a, b>>``)."""

    fn: "Expr"
    args: tuple["Expr", ...]


@dataclass(frozen=True, slots=True)
class FuncSet(Node):
    """``[S -> T]``"""

    domain: "Expr"
    range: "Expr"


@dataclass(frozen=True, slots=True)
class RecordCons(Node):
    """``[a |-> 1, b |-> 2]``"""

    fields: tuple[tuple[str, "Expr"], ...]


@dataclass(frozen=True, slots=True)
class RecordSet(Node):
    """``[a : S, b : T]``"""

    fields: tuple[tuple[str, "Expr"], ...]


@dataclass(frozen=True, slots=True)
class FieldAccess(Node):
    """``r.a``"""

    expr: "Expr"
    field: str


@dataclass(frozen=True, slots=True)
class Tuple(Node):
    elems: tuple["Expr", ...]


@dataclass(frozen=True, slots=True)
class ExceptUpdate(Node):
    """One ``!.a[i].b = v`` clause: path items are field names (str) or index arg tuples."""

    path: tuple[Union[str, tuple["Expr", ...]], ...]
    value: "Expr"


@dataclass(frozen=True, slots=True)
class Except(Node):
    fn: "Expr"
    updates: tuple[ExceptUpdate, ...]


@dataclass(frozen=True, slots=True)
class At(Node):
    """``@`` inside an EXCEPT value."""


@dataclass(frozen=True, slots=True)
class If(Node):
    cond: "Expr"
    then: "Expr"
    else_: "Expr"


@dataclass(frozen=True, slots=True)
class Case(Node):
    arms: tuple[tuple["Expr", "Expr"], ...]
    other: "Expr | None" = None


@dataclass(frozen=True, slots=True)
class Let(Node):
    """``LET defs IN body``; defs may include ``I == INSTANCE M WITH ...`` (an InstanceDef whose
    instantiated scope is ``Scope.let_instances[id(node)]`` of the enclosing module)."""

    defs: tuple["OpDef | FuncDef | RecursiveDecl | InstanceDef", ...]
    body: "Expr"


@dataclass(frozen=True, slots=True)
class Lambda(Node):
    params: tuple[str, ...]
    body: "Expr"


@dataclass(frozen=True, slots=True)
class BoxAction(Node):
    """``[A]_v``"""

    action: "Expr"
    sub: "Expr"


@dataclass(frozen=True, slots=True)
class AngleAction(Node):
    """``<<A>>_v``"""

    action: "Expr"
    sub: "Expr"


@dataclass(frozen=True, slots=True)
class Fairness(Node):
    """``WF_v(A)`` (kind "WF") or ``SF_v(A)`` (kind "SF")."""

    kind: str
    sub: "Expr"
    action: "Expr"


@dataclass(frozen=True, slots=True)
class TemporalQuant(Node):
    """``\\EE x : F`` (kind "EE") or ``\\AA x : F`` (kind "AA")."""

    kind: str
    names: tuple[str, ...]
    body: "Expr"


Expr = Union[
    Name, OpApp, Number, String, Bool, And, Or, Prime, Quant, Choose, SetEnum, SetFilter, SetMap,
    FuncCons, FuncApp, FuncSet, RecordCons, RecordSet, FieldAccess, Tuple, Except, At, If, Case,
    Let, Lambda, BoxAction, AngleAction, Fairness, TemporalQuant,
]


# ----------------------------------------------------------------------------- units


@dataclass(frozen=True, slots=True)
class Param(Node):
    """Operator parameter: ``x`` (arity 0) or ``F(_, _)`` (arity 2)."""

    name: str
    arity: int = 0


@dataclass(frozen=True, slots=True)
class OpDef(Node):
    """``Op(p1, ..., pn) == body`` (also infix/prefix/postfix user operators)."""

    name: str
    params: tuple[Param, ...]
    body: Expr
    local: bool = False


@dataclass(frozen=True, slots=True)
class FuncDef(Node):
    """``f[x \\in S, y \\in T] == body`` (may be recursive)."""

    name: str
    bounds: tuple[Bound, ...]
    body: Expr
    local: bool = False


@dataclass(frozen=True, slots=True)
class VariableDecl(Node):
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ConstantDecl(Node):
    """``CONSTANT N, F(_)``: each entry a Param (arity > 0 for operator constants)."""

    params: tuple[Param, ...]


@dataclass(frozen=True, slots=True)
class Substitution(Node):
    """``name <- expr`` in ``INSTANCE M WITH ...``"""

    name: str
    expr: Expr


@dataclass(frozen=True, slots=True)
class InstanceDef(Node):
    """``INSTANCE M WITH ...`` (name None) or ``I(p) == INSTANCE M WITH ...``."""

    module: str
    substitutions: tuple[Substitution, ...] = ()
    name: str | None = None
    params: tuple[Param, ...] = ()
    local: bool = False


@dataclass(frozen=True, slots=True)
class Assume(Node):
    expr: Expr
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Theorem(Node):
    """THEOREM / LEMMA / PROPOSITION / COROLLARY; proofs are dropped."""

    expr: Expr | None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class RecursiveDecl(Node):
    params: tuple[Param, ...]


@dataclass(frozen=True, slots=True)
class Module(Node):
    name: str
    extends: tuple[str, ...]
    units: tuple["Unit", ...]
    # span of each EXTENDS name, same order as ``extends``
    extends_spans: tuple[Span, ...] = ()


Unit = Union[OpDef, FuncDef, VariableDecl, ConstantDecl, InstanceDef, Assume, Theorem, RecursiveDecl, Module]


# ----------------------------------------------------------------------------- traversal


def children(node: Node) -> Iterator[Node]:
    """Direct child nodes, in source order (looks inside tuples, pairs and EXCEPT paths)."""
    names = _CHILD_FIELDS.get(type(node))
    if names is None:
        names = tuple(f.name for f in fields(node) if f.name != "span")
    for name in names:
        value = getattr(node, name)
        if isinstance(value, Node):
            yield value
        elif isinstance(value, tuple) and value:
            yield from _nodes_in(value)


def _nodes_in(value: object) -> Iterator[Node]:
    if isinstance(value, Node):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _nodes_in(item)


def walk(node: Node) -> Iterator[Node]:
    """Pre-order traversal of ``node`` and everything below it."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(list(children(n))))


# field names holding possible children, per node class (computed once; read-only afterwards)
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in fields(cls) if f.name not in ("span",) and f.type not in ("str", "bool", "int", "str | None"))
    for cls in Node.__subclasses__()
}
