"""TLC model configuration files (``.cfg``): ``parse_cfg(text, file)`` and ``load_cfg(path)``.

Every keyword TLC accepts is understood::

    CONSTANT(S)   N = 3   Procs = {p1, p2}   a = a   N <- DefN   N <-[Mod] DefN   Op(_, _) <- Def
                  N = [Mod] v   (value of constant N of instantiated module Mod)
    INIT / NEXT / SPECIFICATION  name
    INVARIANT(S) / PROPERTY / PROPERTIES / CONSTRAINT(S) / ACTION_CONSTRAINT(S)  name ...
    SYMMETRY / VIEW / ALIAS / POSTCONDITION  name
    CHECK_DEADLOCK  TRUE | FALSE

Comments are ``\\*`` to the end of the line and ``(* ... *)`` (nested). Values on the right of
``=`` are integers, strings, ``TRUE``/``FALSE``, model values (bare identifiers), sets ``{...}``
and tuples ``<<...>>`` of these. Errors raise :class:`~specula.errors.ConfigError` carrying the
line and the field (``constants.N``, ``init``, ``invariants``, ...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from specula.errors import ConfigError
from specula.tla.semantic.levels import expression_level

__all__ = ["CfgModelValue", "ModelConfig", "parse_cfg", "load_cfg", "check_cfg_names", "CFG_KEYWORDS"]


@dataclass(frozen=True)
class CfgModelValue:
    """A model value named in a .cfg file (``Procs = {p1, p2}`` or ``NoLeader = NoLeader``)."""

    name: str


CfgValue = object  # int | bool | str | CfgModelValue | frozenset | tuple


@dataclass
class ModelConfig:
    constants: dict[str, CfgValue] = field(default_factory=dict)
    substitutions: dict[str, str] = field(default_factory=dict)
    module_substitutions: dict[tuple[str, str], str] = field(default_factory=dict)
    module_constants: dict[tuple[str, str], CfgValue] = field(default_factory=dict)  # N = [Mod] v
    init: str | None = None
    next: str | None = None
    specification: str | None = None
    invariants: list[str] = field(default_factory=list)
    properties: list[str] = field(default_factory=list)
    constraints: list[str] = field(default_factory=list)
    action_constraints: list[str] = field(default_factory=list)
    symmetry: str | None = None
    view: str | None = None
    alias: str | None = None
    postcondition: str | None = None
    check_deadlock: bool = True
    lines: dict[str, int] = field(default_factory=dict)
    file: str | None = None
    model_values: list[str] = field(default_factory=list)  # in order of first appearance (TLC's order)

    def to_dict(self) -> dict:
        def val(v: object) -> object:
            if isinstance(v, CfgModelValue):
                return {"model_value": v.name}
            if isinstance(v, frozenset):
                return {"set": sorted((val(x) for x in v), key=repr)}
            if isinstance(v, tuple):
                return [val(x) for x in v]
            return v

        return {
            "constants": {k: val(v) for k, v in self.constants.items()},
            "substitutions": dict(self.substitutions),
            "module_substitutions": {f"{m}!{n}": d for (m, n), d in self.module_substitutions.items()},
            "module_constants": {f"{m}!{n}": val(v) for (m, n), v in self.module_constants.items()},
            "init": self.init,
            "next": self.next,
            "specification": self.specification,
            "invariants": list(self.invariants),
            "properties": list(self.properties),
            "constraints": list(self.constraints),
            "action_constraints": list(self.action_constraints),
            "symmetry": self.symmetry,
            "view": self.view,
            "alias": self.alias,
            "postcondition": self.postcondition,
            "check_deadlock": self.check_deadlock,
        }


# keyword -> canonical section
_KEYWORDS: dict[str, str] = {
    "CONSTANT": "constants",
    "CONSTANTS": "constants",
    "INIT": "init",
    "NEXT": "next",
    "SPECIFICATION": "specification",
    "INVARIANT": "invariants",
    "INVARIANTS": "invariants",
    "PROPERTY": "properties",
    "PROPERTIES": "properties",
    "CONSTRAINT": "constraints",
    "CONSTRAINTS": "constraints",
    "ACTION_CONSTRAINT": "action_constraints",
    "ACTION_CONSTRAINTS": "action_constraints",
    "SYMMETRY": "symmetry",
    "VIEW": "view",
    "ALIAS": "alias",
    "POSTCONDITION": "postcondition",
    "CHECK_DEADLOCK": "check_deadlock",
}
CFG_KEYWORDS = frozenset(_KEYWORDS)
_SINGLE = {"init", "next", "specification", "symmetry", "view", "alias", "postcondition"}
_LISTS = {"invariants", "properties", "constraints", "action_constraints"}

_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\r\f\v]+)
  | (?P<nl>\n)
  | (?P<lcomment>\\\*[^\n]*)
  | (?P<bcomment>\(\*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<num>-?[0-9]+(?![A-Za-z_0-9]))
  | (?P<ident>[A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*(?:!\w+)*)
  | (?P<modsub><-\s*\[)
  | (?P<punct><-|<<|>>|[=\[\]{}(),_])
    """,
    re.VERBOSE,
)


@dataclass(slots=True)
class _Tok:
    kind: str  # "num" | "string" | "ident" | "kw" | "punct" | "modsub" | "eof"
    text: str
    line: int


def _tokenize(text: str, file: str | None) -> list[_Tok]:
    toks: list[_Tok] = []
    pos, line, n = 0, 1, len(text)
    while pos < n:
        m = _TOKEN.match(text, pos)
        if m is None:
            raise ConfigError(f"unexpected character {text[pos]!r}", path=file, line=line)
        kind = m.lastgroup or ""
        tok = m.group()
        if kind == "nl":
            line += 1
        elif kind == "bcomment":
            depth, i = 1, m.end()
            start_line = line
            while depth and i < n:
                if text.startswith("(*", i):
                    depth += 1
                    i += 2
                elif text.startswith("*)", i):
                    depth -= 1
                    i += 2
                else:
                    if text[i] == "\n":
                        line += 1
                    i += 1
            if depth:
                raise ConfigError("unterminated comment (* ...", path=file, line=start_line)
            pos = i
            continue
        elif kind in ("ws", "lcomment"):
            pass
        elif kind == "ident" and tok in _KEYWORDS:
            toks.append(_Tok("kw", tok, line))
        else:
            toks.append(_Tok(kind, tok, line))
        pos = m.end()
    toks.append(_Tok("eof", "", line))
    return toks


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", '"': '"', "\\": "\\"}


def _unquote(s: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), s[1:-1])


class _Parser:
    def __init__(self, text: str, file: str | None) -> None:
        self.file = file
        self.toks = _tokenize(text, file)
        self.i = 0
        self.cfg = ModelConfig(file=file)
        self._mv_seen: set[str] = set()

    # -- helpers --------------------------------------------------------------------------
    def peek(self) -> _Tok:
        return self.toks[self.i]

    def take(self) -> _Tok:
        t = self.toks[self.i]
        self.i += 1
        return t

    def error(self, msg: str, tok: _Tok, fld: str | None) -> ConfigError:
        return ConfigError(msg, path=self.file, line=tok.line, field=fld)

    def expect_ident(self, fld: str) -> _Tok:
        t = self.take()
        if t.kind != "ident":
            what = "end of file" if t.kind == "eof" else repr(t.text)
            raise self.error(f"{fld}: expected a name, found {what}", t, fld)
        return t

    # -- grammar --------------------------------------------------------------------------
    def parse(self) -> ModelConfig:
        while True:
            t = self.take()
            if t.kind == "eof":
                return self.cfg
            if t.kind != "kw":
                raise self.error(f"expected a keyword (CONSTANT, INIT, NEXT, ...), found {t.text!r}", t, None)
            section = _KEYWORDS[t.text]
            if section == "constants":
                self.constants()
            elif section in _SINGLE:
                name = self.expect_ident(section)
                if getattr(self.cfg, section) is not None and getattr(self.cfg, section) != name.text:
                    raise self.error(f"{t.text} given twice ({getattr(self.cfg, section)}, {name.text})", name, section)
                setattr(self.cfg, section, name.text)
                self.cfg.lines[section] = name.line
            elif section in _LISTS:
                self.names(section, t)
            else:  # check_deadlock
                v = self.take()
                if v.kind != "ident" or v.text not in ("TRUE", "FALSE"):
                    raise self.error(f"CHECK_DEADLOCK expects TRUE or FALSE, found {v.text!r}", v, "check_deadlock")
                self.cfg.check_deadlock = v.text == "TRUE"
                self.cfg.lines["check_deadlock"] = v.line

    def names(self, section: str, kw: _Tok) -> None:
        items: list[str] = getattr(self.cfg, section)
        # TLC accepts an empty list (e.g. every PROPERTY commented out)
        while self.peek().kind == "ident":
            t = self.take()
            if t.text not in items:
                items.append(t.text)
            self.cfg.lines.setdefault(f"{section}.{t.text}", t.line)
            if self.peek().kind == "punct" and self.peek().text == ",":
                self.take()

    def constants(self) -> None:
        count = 0
        while self.peek().kind == "ident":
            self.constant()
            count += 1
            if self.peek().kind == "punct" and self.peek().text == ",":
                self.take()
        if count == 0:
            raise self.error("CONSTANT expects at least one assignment", self.peek(), "constants")

    def constant(self) -> None:
        name = self.take()
        fld = f"constants.{name.text}"
        nxt = self.peek()
        if nxt.kind == "punct" and nxt.text == "(":  # operator constant: Op(_, _) <- Def
            self.take()
            while not (self.peek().kind == "punct" and self.peek().text == ")"):
                t = self.take()
                if t.kind == "eof" or t.kind == "kw":
                    raise self.error(f"{name.text}: unclosed parameter list", t, fld)
            self.take()
            nxt = self.peek()
        if nxt.kind == "punct" and nxt.text == "=":
            self.take()
            if self.peek().kind == "punct" and self.peek().text == "[":  # N = [Mod] value
                self.take()
                mod = self.expect_ident(fld)
                close = self.take()
                if not (close.kind == "punct" and close.text == "]"):
                    raise self.error(f"{name.text} = [{mod.text}: expected ']'", close, fld)
                self.cfg.module_constants[(mod.text, name.text)] = self.value(fld)
                self.cfg.lines[f"module_constants.{mod.text}!{name.text}"] = name.line
                return
            if name.text in self.cfg.constants or name.text in self.cfg.substitutions:
                raise self.error(f"constant {name.text} assigned twice", name, fld)
            self.cfg.constants[name.text] = self.value(fld)
            self.cfg.lines[fld] = name.line
        elif nxt.kind == "punct" and nxt.text == "<-":
            self.take()
            target = self.expect_ident(fld)
            if name.text in self.cfg.constants or name.text in self.cfg.substitutions:
                raise self.error(f"constant {name.text} assigned twice", name, fld)
            self.cfg.substitutions[name.text] = target.text
            self.cfg.lines[fld] = name.line
            self.cfg.lines[f"substitutions.{name.text}"] = name.line
        elif nxt.kind == "modsub":
            self.take()
            mod = self.expect_ident(fld)
            close = self.take()
            if not (close.kind == "punct" and close.text == "]"):
                raise self.error(f"{name.text} <-[{mod.text}: expected ']'", close, fld)
            target = self.expect_ident(fld)
            key = (mod.text, name.text)
            if key in self.cfg.module_substitutions:
                raise self.error(f"{name.text} <-[{mod.text}] given twice", name, fld)
            self.cfg.module_substitutions[key] = target.text
            self.cfg.lines[f"module_substitutions.{mod.text}!{name.text}"] = name.line
        else:
            what = "end of file" if nxt.kind == "eof" else repr(nxt.text)
            raise self.error(f"constant {name.text}: expected '=' or '<-', found {what}", nxt, fld)

    def value(self, fld: str) -> CfgValue:
        t = self.take()
        if t.kind == "num":
            return int(t.text)
        if t.kind == "string":
            return _unquote(t.text)
        if t.kind == "ident":
            if t.text == "TRUE":
                return True
            if t.text == "FALSE":
                return False
            if t.text not in self._mv_seen:
                self._mv_seen.add(t.text)
                self.cfg.model_values.append(t.text)
            return CfgModelValue(t.text)
        if t.kind == "punct" and t.text in ("{", "<<"):
            close = "}" if t.text == "{" else ">>"
            items: list[CfgValue] = []
            if self.peek().kind == "punct" and self.peek().text == close:
                self.take()
            else:
                while True:
                    items.append(self.value(fld))
                    sep = self.take()
                    if sep.kind == "punct" and sep.text == close:
                        break
                    if not (sep.kind == "punct" and sep.text == ","):
                        what = "end of file" if sep.kind == "eof" else repr(sep.text)
                        raise self.error(f"{fld}: expected ',' or '{close}', found {what}", sep, fld)
            return frozenset(items) if close == "}" else tuple(items)
        what = "end of file" if t.kind == "eof" else repr(t.text)
        raise self.error(f"{fld}: expected a value (number, string, TRUE/FALSE, model value, set), found {what}", t, fld)


def parse_cfg(text: str, file: str | None = None) -> ModelConfig:
    """Parse the text of a TLC ``.cfg`` file; raises ConfigError (line, field) on bad input."""
    return _Parser(text, file).parse()


def load_cfg(path: str | Path) -> ModelConfig:
    """Read and parse a ``.cfg`` file; a missing file is a ConfigError too."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")  # a BOM (Windows editors) is not part of the config
    except OSError as exc:
        raise ConfigError(f"cannot read config: {exc.strerror or exc}", path=str(p)) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"config is not UTF-8 text (byte {exc.start})", path=str(p)) from None
    return parse_cfg(text, str(p))


def _level(d: object) -> int:
    """SANY level of a definition's body (0 constant .. 3 temporal); 0 when it cannot be told."""
    body = getattr(getattr(d, "node", None), "body", None)
    if body is None:
        return 0
    try:
        return expression_level(body, getattr(d, "scope", None))
    except Exception:  # the level pass reports its own errors elsewhere; never block on it here
        return 0


def check_cfg_names(cfg: ModelConfig, spec: object) -> None:
    """Raise ConfigError (cfg line, field) where the .cfg does not fit the spec, as TLC does
    before checking: no INIT/NEXT (nor SPECIFICATION) for a spec with variables, a name the
    spec does not define, a constant of the spec the .cfg gives no value."""
    root = getattr(spec, "root", None)
    names = getattr(root, "names", None)
    if names is None:
        return
    where = getattr(spec, "path", None) or "the spec"
    file = cfg.file

    keyword = {"invariants": "INVARIANT", "properties": "PROPERTY", "constraints": "CONSTRAINT",
               "action_constraints": "ACTION_CONSTRAINT"}

    def need(name: str, fld: str, line_key: str) -> None:
        d = names.get(name)
        line = cfg.lines.get(line_key)
        if d is None:
            raise ConfigError(f"{name!r} is not defined in {where}", file, line, field=fld)
        kw = keyword.get(fld, fld.upper())
        if fld in keyword or fld in _SINGLE or fld == "next":
            if getattr(d, "arity", 0):
                raise ConfigError(f"{kw} {name} takes arguments; name an operator without parameters", file, line,
                                  field=fld)
        if fld in ("invariants", "constraints") and _level(d) > 1:
            raise ConfigError(f"{kw} {name} is not a state predicate (it has primes or temporal operators)",
                              file, line, field=fld)

    if getattr(spec, "variables", ()) and not cfg.specification:
        if not cfg.init:
            raise ConfigError("the .cfg gives neither SPECIFICATION nor INIT (the initial-state predicate)",
                              file, field="init")
        if not cfg.next:
            raise ConfigError("the .cfg gives INIT but no NEXT (the next-state action)", file, field="next")
    for section in ("specification", "init", "next", "symmetry", "view", "alias", "postcondition"):
        value = getattr(cfg, section)
        if value:
            need(value, section, section)
    for section in ("invariants", "properties", "constraints", "action_constraints"):
        for name in getattr(cfg, section):
            need(name, section, f"{section}.{name}")
    for name, target in cfg.substitutions.items():
        if name not in names:  # TLC: "the identifier X does not appear in the specification"
            raise ConfigError(f"{name} <- {target}: the identifier {name} does not appear in {where}", file,
                              cfg.lines.get(f"substitutions.{name}"), field=f"constants.{name}")
        need(target, f"constants.{name}", f"substitutions.{name}")
    for name, d in names.items():
        if getattr(d, "kind", None) == "constant" and name not in cfg.constants and name not in cfg.substitutions:
            span = getattr(getattr(d, "node", None), "span", None)
            at = f" (declared at {span})" if getattr(span, "line", 0) else ""
            raise ConfigError(f"the spec's constant {name}{at} has no value; give it one under CONSTANTS",
                              file, field=f"constants.{name}")


def unknown_constants(cfg: ModelConfig, spec: object) -> list[tuple[str, int | None]]:
    """``name = value`` entries of CONSTANTS naming nothing the spec declares, with their cfg line.
    TLC ignores them silently; a misspelt constant name is worth a warning."""
    names = getattr(getattr(spec, "root", None), "names", None) or {}
    return [(n, cfg.lines.get(f"constants.{n}")) for n in cfg.constants if n not in names]
