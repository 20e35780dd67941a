"""Module system: EXTENDS, INSTANCE (with explicit and implicit substitution), named and
parameterized instances, LOCAL, nested modules, and the module search path.

``resolve_text(text, file, search_path, root_dir)`` parses the root module and every module it
depends on (the spec's folder first, then ``search_path``, then specula's own standard library in
``stdlib/``; modules specula implements come from its library before ``search_path``) and builds
one ``Scope`` per (possibly instantiated) module: a ``Spec``. Every problem is a ``Diagnostic``;
all of them are raised together as ``SpecError``. The semantic checks run after this stage
(``loading.py``: ``load`` = resolve, then check).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from specula.diagnostics import Diagnostic
from specula.errors import SpecError
from specula.tla import ast
from specula.tla.builtin_names import BUILTIN_OPS
from specula.tla.syntax import parse_module, parse_modules

__all__ = [
    "Definition",
    "Scope",
    "InstanceRef",
    "Spec",
    "resolve_text",
    "finish",
    "dedupe",
    "parse_cached",
    "STDLIB_DIR",
    "STANDARD_MODULES",
]

STDLIB_DIR = Path(__file__).resolve().parent / "stdlib"


def _standard_modules() -> frozenset[str]:
    return frozenset(p.stem for p in STDLIB_DIR.glob("*.tla"))


STANDARD_MODULES: frozenset[str] = _standard_modules()


@dataclass(eq=False)
class Definition:
    """One name visible at a module's top level."""

    name: str
    kind: str  # "op" | "func" | "variable" | "constant" | "instance" | "builtin-module-op"
    node: object  # ast.OpDef | ast.FuncDef | ast.InstanceDef | ast.Param | ast.VariableDecl | None
    scope: "Scope"  # the scope the definition's body must be evaluated in
    module: str  # module that defines it
    local: bool = False  # LOCAL definitions are not exported by EXTENDS / INSTANCE

    @property
    def arity(self) -> int:
        node = self.node
        if isinstance(node, ast.OpDef):
            return len(node.params)
        if isinstance(node, ast.Param):
            return node.arity
        if isinstance(node, ast.InstanceDef):
            return len(node.params)
        return 0

    def __repr__(self) -> str:
        return f"Definition({self.name!r}, {self.kind!r}, module={self.module!r})"


@dataclass(eq=False)
class InstanceRef:
    """``I(p1, ..., pn) == INSTANCE M WITH ...``: ``scope`` is M instantiated; substitution
    expressions are evaluated in ``outer`` with the parameters ``params`` bound."""

    name: str
    params: tuple[ast.Param, ...]
    scope: "Scope"
    node: ast.InstanceDef
    outer: "Scope"


@dataclass(eq=False)
class Scope:
    """One (possibly instantiated) module."""

    module: ast.Module
    names: dict[str, Definition] = field(default_factory=dict)
    substitutions: dict[str, tuple[ast.Expr, "Scope"]] = field(default_factory=dict)
    instances: dict[str, InstanceRef] = field(default_factory=dict)
    # id(unit) -> how many names were visible before that unit (definition-before-use order)
    unit_starts: dict[int, int] = field(default_factory=dict, repr=False)
    # id(InstanceDef inside a LET) -> its instance (substitutions are evaluated where the LET is)
    let_instances: dict[int, "InstanceRef"] = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        return self.module.name

    def lookup(self, name: str) -> Definition | None:
        return self.names.get(name)

    def __repr__(self) -> str:
        subst = f", substitutions={sorted(self.substitutions)}" if self.substitutions else ""
        return f"Scope({self.module.name!r}{subst})"


@dataclass(eq=False)
class Spec:
    root: Scope
    modules: dict[str, ast.Module]
    variables: tuple[str, ...]
    constants: tuple[str, ...]
    path: str
    sources: dict[str, str]
    # module name -> file it was loaded from
    files: dict[str, str] = field(default_factory=dict)
    # module name -> its uninstantiated scope (every module loaded, including nested ones)
    scopes: dict[str, Scope] = field(default_factory=dict)
    # problems SANY only warns about (e.g. a variable declared twice)
    warnings: list[Diagnostic] = field(default_factory=list)


@functools.lru_cache(maxsize=128)
def parse_cached(text: str, file: str) -> tuple[ast.Module, ...]:
    """Parsed modules of a file's text (ASTs are immutable, so repeated loads of an unchanged
    spec — the agent and the phases load the same text many times — skip the parser)."""
    return tuple(parse_modules(text, file))


@functools.lru_cache(maxsize=64)
def _parse_stdlib(name: str) -> tuple[ast.Module, str, str]:
    path = STDLIB_DIR / f"{name}.tla"
    text = path.read_text(encoding="utf-8")
    return parse_module(text, str(path)), str(path), text


class _Loader:
    def __init__(self, root_dir: Path, search_path: Iterable[str | Path]) -> None:
        self.dirs = [root_dir, *(Path(p) for p in search_path)]
        self.modules: dict[str, ast.Module] = {}
        self.files: dict[str, str] = {}
        self.sources: dict[str, str] = {}
        self.diags: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.base_scopes: dict[str, Scope] = {}
        self.in_progress: list[str] = []
        self.from_stdlib: set[str] = set()
        # nested modules: name -> (module, scope of the enclosing module at that point)
        self.nested: dict[str, tuple[ast.Module, Scope]] = {}

    # ------------------------------------------------------------------ diagnostics

    def warning(self, code: str, message: str, span: ast.Span | None) -> None:
        if span is not None and span.line:
            self.warnings.append(Diagnostic("warning", code, message, span.file, span.line, span.col,
                                            span.end_line, span.end_col))

    def error(self, code: str, message: str, span: ast.Span | None, help: str | None = None) -> None:
        if span is None or span.line == 0:
            self.diags.append(Diagnostic("error", code, message, help=help))
        else:
            self.diags.append(Diagnostic("error", code, message, span.file, span.line, span.col,
                                         span.end_line, span.end_col, help))

    # ------------------------------------------------------------------ finding modules

    def find(self, name: str, span: ast.Span | None) -> ast.Module | None:
        if name in self.modules:
            return self.modules[name]
        # a module specula implements (natively where TLC has Java overrides) is taken from the
        # spec's folder or else from specula's library, before the extra library folders (whose
        # text of e.g. Json or IOUtils cannot be evaluated without TLC's overrides)
        dirs = self.dirs[:1] if name in STANDARD_MODULES else self.dirs
        for d in dirs:
            path = d / f"{name}.tla"
            if path.is_file():
                try:
                    text = path.read_text(encoding="utf-8-sig", errors="replace")
                except OSError as exc:
                    self.error("E201", f"cannot read module {name}: {exc}", span)
                    return None
                try:
                    modules = parse_cached(text, str(path))
                except SpecError as exc:
                    self.diags.extend(exc.diagnostics())
                    self.sources[str(path)] = text
                    return None
                for extra in modules[1:]:
                    if extra.name not in self.modules:
                        self.register(extra, str(path), text)
                self.register(modules[0], str(path), text)
                return modules[0]
        if name in STANDARD_MODULES:
            module, path, text = _parse_stdlib(name)
            self.register(module, path, text)
            self.from_stdlib.add(name)
            return module
        self.error("E201", f"cannot find module '{name}'", span,
                   help="looked in: " + ", ".join(str(d) for d in self.dirs) + " and specula's standard library")
        return None

    def register(self, module: ast.Module, path: str, text: str) -> None:
        self.modules[module.name] = module
        self.files[module.name] = path
        self.sources[path] = text

    # ------------------------------------------------------------------ scopes

    def base_scope(self, name: str, span: ast.Span | None) -> Scope | None:
        """The uninstantiated scope of module ``name`` (shared by every EXTENDS of it)."""
        if name in self.base_scopes:
            return self.base_scopes[name]
        if name in self.in_progress:
            self.error("E202", f"circular module dependency: {' -> '.join(self.in_progress + [name])}", span)
            return None
        if name in self.nested:
            module, outer = self.nested[name]
            inherited = dict(outer.names)
        else:
            module = self.find(name, span)
            inherited = {}
            if module is None:
                return None
        self.in_progress.append(name)
        try:
            scope = self.build(module, {}, inherited)
        finally:
            self.in_progress.pop()
        self.base_scopes[name] = scope
        return scope

    def build(self, module: ast.Module, sigma: dict[str, tuple[ast.Expr, Scope]],
              inherited: dict[str, Definition]) -> Scope:
        """Scope of ``module`` with its constants/variables substituted by ``sigma``."""
        scope = Scope(module, dict(inherited), {k: v for k, v in sigma.items()}, {})
        for ext_name, ext_span in zip(module.extends, module.extends_spans or (None,) * len(module.extends)):
            ext = self.extended_scope(ext_name, sigma, ext_span)
            if ext is None:
                continue
            for n, d in ext.names.items():
                if d.local:
                    continue
                self.add(scope, d, ext_span, imported=True)
            for n, ref in ext.instances.items():
                d = ext.names.get(n)
                if d is not None and not d.local:
                    scope.instances.setdefault(n, ref)
        is_std = module.name in self.from_stdlib
        text = self.sources.get(module.span.file, "")
        may_let_instance = "INSTANCE" in text and "LET" in text
        for unit in module.units:
            scope.unit_starts[id(unit)] = len(scope.names)
            self.add_unit(scope, unit, is_std)
            if may_let_instance and isinstance(unit, (ast.OpDef, ast.FuncDef)):
                self.let_instances(scope, unit)
        return scope

    def let_instances(self, scope: Scope, unit: ast.Node) -> None:
        for node in ast.walk(unit):
            if isinstance(node, ast.Let):
                for d in node.defs:
                    if isinstance(d, ast.InstanceDef):
                        ref = self.instance_ref(scope, d, in_let=True)
                        if ref is not None:
                            scope.let_instances[id(d)] = ref

    def extended_scope(self, name: str, sigma: dict[str, tuple[ast.Expr, Scope]],
                       span: ast.Span | None) -> Scope | None:
        base = self.base_scope(name, span)
        if base is None or not sigma:
            return base
        declared = _declared(base)
        relevant = {k: v for k, v in sigma.items() if k in declared}
        if not relevant:
            return base
        module = self.modules.get(name) or self.nested[name][0]
        return self.build(module, relevant, {})

    def add(self, scope: Scope, d: Definition, span: ast.Span | None, imported: bool = False) -> None:
        old = scope.names.get(d.name)
        if old is not None and old is not d:
            if imported and old.node is d.node and old.module == d.module:
                return  # same definition reached through two paths (e.g. two EXTENDS of Naturals)
            if _same_kind(old.kind, d.kind) and imported and _same_definition(old.node, d.node):
                # SANY tolerates a duplicate whose text is identical when it merges the names of an
                # extended or instantiated module (it only warns); a module's own definition of a
                # name already defined (e.g. Max(S) after EXTENDS FiniteSetsExt) is an error for
                # SANY ("Operator Max already defined or declared"), identical text or not
                return
            if _recursive_placeholder(old) and d.kind in ("op", "func", "builtin-module-op"):
                pass  # RECURSIVE F(_) followed by its definition
            elif old.kind == d.kind and d.kind in ("variable", "constant") and not imported:
                where = span or _span_of(d)
                self.warning("W203", f"{d.kind} '{d.name}' is declared twice", where)
                return  # SANY only warns about a repeated declaration
            else:
                where = span or _span_of(d)
                prev = _span_of(old)
                at = f" (first defined in module {old.module}" + (f" at line {prev.line}" if prev and prev.line and prev.file == (where.file if where else None) else "") + ")"
                self.error("E203", f"multiply defined symbol '{d.name}'{at}", where)
                return
        scope.names[d.name] = d

    def add_unit(self, scope: Scope, unit: ast.Unit, is_std: bool) -> None:
        mod = scope.module.name
        if isinstance(unit, ast.OpDef):
            if unit.name in _BUILTIN_SYMBOLS:
                self.error("E203", f"multiply defined symbol '{unit.name}': it is a built-in TLA+ operator",
                           unit.span)
                return
            kind = "builtin-module-op" if is_std else "op"
            self.add(scope, Definition(unit.name, kind, unit, scope, mod, unit.local), unit.span)
        elif isinstance(unit, ast.FuncDef):
            self.add(scope, Definition(unit.name, "func", unit, scope, mod, unit.local), unit.span)
        elif isinstance(unit, ast.VariableDecl):
            for n in unit.names:
                self.add(scope, Definition(n, "variable", unit, scope, mod), unit.span)
        elif isinstance(unit, ast.ConstantDecl):
            for p in unit.params:
                self.add(scope, Definition(p.name, "constant", p, scope, mod), p.span)
        elif isinstance(unit, ast.RecursiveDecl):
            for p in unit.params:
                self.add(scope, Definition(p.name, "recursive", p, scope, mod), p.span)
        elif isinstance(unit, ast.InstanceDef):
            self.instance(scope, unit)
        elif isinstance(unit, ast.Module):
            self.nested[unit.name] = (unit, Scope(scope.module, dict(scope.names), scope.substitutions, dict(scope.instances)))
            self.modules.setdefault(unit.name, unit)
            self.files.setdefault(unit.name, unit.span.file)
        elif isinstance(unit, (ast.Assume, ast.Theorem)) and unit.name:
            self.add(scope, Definition(unit.name, "theorem", unit, scope, mod), unit.span)

    def instance(self, scope: Scope, unit: ast.InstanceDef) -> None:
        ref = self.instance_ref(scope, unit)
        if ref is None:
            return
        inst = ref.scope
        mod = scope.module.name
        if unit.name is None:
            for n, d in inst.names.items():
                if d.local or d.kind in ("constant", "variable"):
                    continue  # substituted away by the instantiation
                self.add(scope, Definition(d.name, d.kind, d.node, d.scope, d.module, unit.local), unit.span,
                         imported=True)
            for n, ref2 in inst.instances.items():
                scope.instances.setdefault(n, ref2)
        else:
            scope.instances[unit.name] = ref
            self.add(scope, Definition(unit.name, "instance", unit, scope, mod, unit.local), unit.span)

    def instance_ref(self, scope: Scope, unit: ast.InstanceDef, in_let: bool = False) -> InstanceRef | None:
        target = self.base_scope(unit.module, unit.span)
        if target is None:
            return None
        declared = _declared(target)
        sigma: dict[str, tuple[ast.Expr, Scope]] = {}
        params = {p.name for p in unit.params}
        for sub in unit.substitutions:
            if sub.name not in declared:
                self.error("E204", f"'{sub.name}' is not a CONSTANT or VARIABLE of module {unit.module}: "
                           "it cannot be substituted", sub.span)
                continue
            if sub.name in sigma:
                self.error("E204", f"'{sub.name}' is substituted twice", sub.span)
                continue
            sigma[sub.name] = (sub.expr, scope)
        for name, d in declared.items():
            if name in sigma:
                continue
            # implicit substitution: the same name must be visible where the INSTANCE appears
            if name not in scope.names and name not in params and not in_let:
                self.error("E205", f"INSTANCE {unit.module}: no substitution for {d.kind} '{name}' and no "
                           f"'{name}' defined here", unit.span,
                           help=f"add 'WITH {name} <- ...' or declare {name} in this module")
                continue
            sigma[name] = (ast.Name(name, span=unit.span), scope)
        module = self.modules.get(unit.module) or self.nested[unit.module][0]
        inst = self.build(module, sigma, {}) if sigma else target
        return InstanceRef(unit.name or "", unit.params, inst, unit, scope)


def _builtin_symbols() -> frozenset[str]:
    return frozenset(BUILTIN_OPS) | {"'"}


_BUILTIN_SYMBOLS = _builtin_symbols()


def _declared(scope: Scope) -> dict[str, Definition]:
    """CONSTANTs and VARIABLEs of a module (including those it EXTENDS)."""
    return {n: d for n, d in scope.names.items() if d.kind in ("constant", "variable")}


def _same_definition(a: object, b: object) -> bool:
    if isinstance(a, ast.OpDef) and isinstance(b, ast.OpDef):
        return a.name == b.name and a.params == b.params and a.body == b.body
    if isinstance(a, ast.FuncDef) and isinstance(b, ast.FuncDef):
        return a.name == b.name and a.bounds == b.bounds and a.body == b.body
    return False


def _same_kind(a: str, b: str) -> bool:
    """Two definitions that SANY compares by their text: operators (a user's or a library
    module's, e.g. Range in a spec and in Functions) or functions."""
    ops = ("op", "builtin-module-op")
    return (a in ops and b in ops) or a == b == "func"


def _recursive_placeholder(d: Definition) -> bool:
    return d.kind == "recursive"


def _span_of(d: Definition) -> ast.Span | None:
    node = d.node
    return getattr(node, "span", None)


def finish(loader: _Loader, root_module: ast.Module, path: str) -> Spec:
    root = loader.base_scope(root_module.name, root_module.span)
    if root is None:
        raise SpecError(loader.diags or [Diagnostic("error", "E201", "cannot load module", path)])
    variables: list[str] = []
    constants: list[str] = []
    for n, d in root.names.items():
        if d.kind == "variable" and n not in variables:
            variables.append(n)
        elif d.kind == "constant" and n not in constants:
            constants.append(n)
    for name in list(loader.nested):
        loader.base_scope(name, None)  # nested modules are checked even when never instantiated
    spec = Spec(root, dict(loader.modules), tuple(variables), tuple(constants), path, dict(loader.sources),
                dict(loader.files), dict(loader.base_scopes), list(loader.warnings))
    errors = [d for d in loader.diags if d.severity == "error"]
    if errors:
        raise SpecError(dedupe(errors))
    return spec


def dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple] = set()
    out: list[Diagnostic] = []
    for d in diags:
        key = (d.code, d.file, d.line, d.col, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def resolve_text(text: str, file: str = "<spec>", search_path: Iterable[str | Path] = (),
                 root_dir: str | Path | None = None) -> Spec:
    """The ``Spec`` of spec text (modules are searched in ``root_dir``), before the semantic checks."""
    modules = parse_cached(text, file)
    module = modules[0]
    loader = _Loader(Path(root_dir) if root_dir is not None else Path(file).resolve().parent, search_path)
    for extra in modules[1:]:  # further modules in the same file, available by name
        loader.register(extra, file, text)
    loader.register(module, file, text)
    return finish(loader, module, file)
