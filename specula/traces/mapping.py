"""The mapping file (YAML, docs/mapping.md): how trace fields become spec variables.

This module is pure data and JSON-ish transformations; it knows nothing of the engine. The
conformance phase checks a :class:`Mapping` against the spec (``check_against``) and turns the
mapped raw values into spec values.

Shape (every section optional)::

    version: 1
    nodes: {constant: Threads, ids: {"0": t0, "1": t1}}
    actions: {TryAcquireBlocking: Acquire}            # trace action name -> spec action
    values: {"acquiring": "trying"}                    # value table for every variable
    variables:
      lockState: {field: lock, values: {unlocked: "FALSE"}}
      pc: {per_node: true}
      log: {per_node: true, abstract: {length: logLen, last_term: logLastTerm}}
      votes: {aux: true, domain: "SUBSET Nodes"}
    params: {t: actor, m: input}                       # all actions
    action_params: {HandleVote: {m: input}}            # one action (wins over params)
    message_var: msgs
    ignore: [thread]
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping as TMapping

from specula.errors import ConfigError

__all__ = [
    "MAPPING_VERSION",
    "Mapping",
    "VarMap",
    "Abstraction",
    "Summary",
    "TlaExpr",
    "load_mapping",
    "parse_mapping",
    "apply_values",
]

MAPPING_VERSION = 1
_BINDINGS = ("actor", "input")


@dataclass(frozen=True, slots=True)
class TlaExpr:
    """A value written as TLA+ text in the mapping (``{tla: "<<1, 2>>"}``); evaluated once."""

    text: str


@dataclass(frozen=True, slots=True)
class Abstraction:
    """A spec variable observed only through summaries (e.g. a log by length and last term).

    ``length``: trace field holding ``Len(v)``; ``last_term``: trace field holding the term of
    the last entry (``0`` when empty); ``term_field``: the entry field holding the term (None when
    entries are bare terms); ``entry``: values of the other entry fields in witness logs.
    """

    length: str | None = None
    last_term: str | None = None
    term_field: str | None = "term"
    entry: dict[str, Any] = field(default_factory=dict)

    def fields(self) -> list[str]:
        return [f for f in (self.length, self.last_term) if f]


@dataclass(frozen=True, slots=True)
class VarMap:
    """How one spec variable is read from a trace state."""

    var: str
    field: str | None  # trace field; None for aux/abstract variables
    values: dict[tuple[str, Any], Any] = field(default_factory=dict)  # see value_table
    per_node: bool | None = None  # None: decide from the spec's type
    abstract: Abstraction | None = None
    aux: bool = False
    domain: str | None = None  # TLA+ set expression for an aux variable
    value: Any = None  # a fixed value for an aux variable (raw or TlaExpr), or an abstracted one's pre-state
    has_value: bool = False
    node_values: bool = False  # scalar leaves that are trace node ids become spec nodes


@dataclass(slots=True)
class Mapping:
    """A parsed mapping file. ``lines`` maps field paths (``variables.pc.field``) to YAML lines."""

    path: str = ""
    nodes_constant: str | None = None
    node_ids: dict[str, Any] = field(default_factory=dict)
    actions: dict[str, str] = field(default_factory=dict)
    values: dict[tuple[str, Any], Any] = field(default_factory=dict)  # see value_table
    variables: dict[str, VarMap] = field(default_factory=dict)
    params: dict[str, str | TlaExpr | Any] = field(default_factory=dict)
    action_params: dict[str, dict[str, Any]] = field(default_factory=dict)
    message_var: str | None = None
    ignore: frozenset[str] = frozenset()
    lines: dict[str, int] = field(default_factory=dict)
    #: per spec action: variables read differently for that action (win over ``variables``)
    action_variables: dict[str, dict[str, VarMap]] = field(default_factory=dict)
    #: the input message rebuilt as TLA+ text over the window (``input``, ``w``), all actions / one
    input: TlaExpr | None = None
    action_input: dict[str, TlaExpr] = field(default_factory=dict)

    def variables_for(self, action: str | None) -> dict[str, VarMap]:
        extra = self.action_variables.get(action) if action is not None else None
        return {**self.variables, **extra} if extra else self.variables

    def input_for(self, action: str | None) -> TlaExpr | None:
        return self.action_input.get(action, self.input) if action is not None else self.input

    # -- queries -------------------------------------------------------------------------------

    def spec_action(self, trace_action: str) -> str:
        return self.actions.get(trace_action, trace_action)

    def param_bindings(self, action: str) -> dict[str, Any]:
        """Spec parameter -> ``"actor"`` | ``"input"`` | ``{"field": name}`` | raw value | TlaExpr."""
        out = dict(self.params)
        out.update(self.action_params.get(action, {}))
        return out

    def error(self, message: str, path: str) -> ConfigError:
        return ConfigError(message, path=self.path or None, line=self.lines.get(path), field=path)

    def check_against(
        self,
        variables: Iterable[str],
        actions: TMapping[str, Iterable[str]] | None = None,
        constants: Iterable[str] | None = None,
    ) -> None:
        """Raise ConfigError naming the YAML field when the mapping mentions a spec variable,
        action, parameter or constant the spec lacks."""
        vs = set(variables)
        for name in self.variables:
            if name not in vs:
                raise self.error(
                    f"mapping names spec variable {name!r}, but the spec has none (variables: {', '.join(sorted(vs)) or 'none'})",
                    f"variables.{name}",
                )
        for act, vms in self.action_variables.items():
            for name in vms:
                if name not in vs:
                    raise self.error(f"mapping names spec variable {name!r}, but the spec has none "
                                     f"(variables: {', '.join(sorted(vs)) or 'none'})", f"action_variables.{act}.{name}")
        if actions is not None:
            for section, acts in (("action_variables", self.action_variables), ("action_input", self.action_input)):
                for act in acts:
                    if act not in actions:
                        raise self.error(f"{section} names {act!r}, which is not an action of Next "
                                         f"(actions: {', '.join(sorted(actions))})", f"{section}.{act}")
        if self.message_var is not None and self.message_var not in vs:
            raise self.error(f"message_var {self.message_var!r} is not a spec variable", "message_var")
        if constants is not None and self.nodes_constant is not None and self.nodes_constant not in set(constants):
            raise self.error(f"nodes.constant {self.nodes_constant!r} is not a constant or definition of the spec", "nodes.constant")
        if actions is not None:
            for trace_name, spec_name in self.actions.items():
                if spec_name not in actions:
                    raise self.error(
                        f"action {trace_name!r} maps to {spec_name!r}, which is not an action of Next "
                        f"(actions: {', '.join(sorted(actions))})",
                        f"actions.{trace_name}",
                    )
            for act, binds in self.action_params.items():
                if act not in actions:
                    raise self.error(f"action_params names {act!r}, which is not an action of Next", f"action_params.{act}")
                for p in binds:
                    if p not in set(actions[act]):
                        raise self.error(
                            f"action {act} has no parameter {p!r} (parameters: {', '.join(actions[act]) or 'none'})",
                            f"action_params.{act}.{p}",
                        )

    # -- applying ------------------------------------------------------------------------------

    def observed_fields(self, action: str | None = None) -> set[str]:
        out: set[str] = set()
        for vm in self.variables_for(action).values():
            if vm.field:
                out.add(vm.field)
            if vm.abstract:
                out.update(vm.abstract.fields())
        return out

    def map_state(self, raw: TMapping[str, Any], spec_vars: Iterable[str], action: str | None = None) -> dict[str, Any]:
        """Trace state -> ``{spec variable: raw value}`` for the observed variables (renames and
        value tables applied; per-node objects keep their trace node ids; abstracted variables
        give :class:`Summary` values, per node when per-node)."""
        out: dict[str, Any] = {}
        taken = self.observed_fields(action)
        variables = self.variables_for(action)
        for var in spec_vars:
            vm = variables.get(var)
            if vm is None:
                if var in raw and var not in self.ignore and var not in taken:
                    out[var] = _apply(raw[var], self.values) if self.values else raw[var]
                continue
            if vm.abstract is not None:
                summary = _summaries(raw, vm.abstract)
                if summary is not None:
                    out[var] = summary
                continue
            if vm.aux:
                continue
            if vm.field is not None and vm.field in raw:
                table = {**self.values, **vm.values} if vm.values else self.values
                out[var] = _apply(raw[vm.field], table) if table else raw[vm.field]
        return out


@dataclass(frozen=True, slots=True)
class Summary:
    """What a trace shows of an abstracted variable (e.g. a log): its length and last term."""

    length: Any = None
    last_term: Any = None


def _summaries(raw: TMapping[str, Any], ab: Abstraction) -> Any:
    """A :class:`Summary`, or per node a ``{node: Summary}`` dict / ``[Summary, ...]`` list."""
    lens = raw.get(ab.length) if ab.length else None
    terms = raw.get(ab.last_term) if ab.last_term else None
    if lens is None and terms is None:
        return None
    sample = lens if lens is not None else terms
    if isinstance(sample, dict):
        return {k: Summary(_at(lens, k), _at(terms, k)) for k in sample}
    if isinstance(sample, list):
        return [Summary(_at(lens, i), _at(terms, i)) for i in range(len(sample))]
    return Summary(lens, terms)


def _at(container: Any, key: Any) -> Any:
    if isinstance(container, dict):
        return container.get(key)
    if isinstance(container, list) and isinstance(key, int) and key < len(container):
        return container[key]
    return None


def _tag(v: Any) -> tuple[str, Any]:
    """Type-tagged table key, so that ``True`` and ``1`` (equal in Python) stay apart."""
    if isinstance(v, bool):
        return ("b", v)
    if isinstance(v, int):
        return ("i", v)
    if v is None:
        return ("n", None)
    return ("s", str(v))


def value_table(d: TMapping[Any, Any]) -> dict[tuple[str, Any], Any]:
    """Build a lookup table from a YAML/JSON object (keys may be :class:`BoolKey`)."""
    return {_tag(k.value if isinstance(k, BoolKey) else k): _value(v) for k, v in d.items()}


def _lookup(table: dict[tuple[str, Any], Any], v: Any) -> tuple[bool, Any]:
    key = _tag(v)
    if key in table:
        return True, table[key]
    if key[0] != "s":
        alt = ("s", str(v).lower() if isinstance(v, bool) else str(v))
        if alt in table:
            return True, table[alt]
    elif isinstance(v, str) and v.lstrip("-").isdigit():
        alt = ("i", int(v))
        if alt in table:
            return True, table[alt]
    return False, None


def apply_values(v: Any, table: TMapping[Any, Any]) -> Any:
    """Replace every scalar leaf found in ``table`` (a :func:`value_table`, or a plain dict);
    containers recurse, dict keys are kept."""
    if not table:
        return v
    if not isinstance(next(iter(table)), tuple):
        table = value_table(table)
    return _apply(v, table)


def _apply(v: Any, table: dict[tuple[str, Any], Any]) -> Any:
    if isinstance(v, dict):
        return {k: _apply(x, table) for k, x in v.items()}
    if isinstance(v, list):
        return [_apply(x, table) for x in v]
    hit, new = _lookup(table, v)
    return new if hit else v


@dataclass(frozen=True, slots=True)
class BoolKey:
    """A YAML mapping key that was ``true``/``false`` (kept apart from ``1``/``0``)."""

    value: bool


def _bool_key(k: Any) -> Any:
    return BoolKey(k) if isinstance(k, bool) else k


# ---------------------------------------------------------------------------------------------
# parsing


def _value(v: Any) -> Any:
    if isinstance(v, dict) and set(v) == {"tla"} and isinstance(v["tla"], str):
        return TlaExpr(v["tla"])
    return v


def _expect(cond: bool, m: Mapping, message: str, path: str) -> None:
    if not cond:
        raise m.error(message, path)


_TOP = {"version", "nodes", "actions", "values", "variables", "params", "action_params", "message_var", "ignore",
        "action_variables", "input", "action_input"}
_VAR_KEYS = {"field", "from", "values", "per_node", "abstract", "aux", "domain", "value", "node_values"}


def parse_mapping(text: str, path: str = "") -> Mapping:
    """Parse mapping YAML; raises ConfigError with the offending field and its line."""
    from specula.yamlfile import key_lines, load_yaml_text

    m = Mapping(path=path, lines=key_lines(text))
    doc = load_yaml_text(text, path or None, "mapping", key=_bool_key)
    if doc is None:
        return m
    _expect(isinstance(doc, dict), m, "mapping must be a YAML object", "")
    for key in doc:
        _expect(key in _TOP, m, f"unknown mapping section {key!r} (known: {', '.join(sorted(_TOP))})", str(key))
    version = doc.get("version", MAPPING_VERSION)
    _expect(version == MAPPING_VERSION, m, f"mapping version {version!r} is not supported (expected {MAPPING_VERSION})", "version")

    nodes = doc.get("nodes") or {}
    _expect(isinstance(nodes, dict), m, "'nodes' must be an object {constant, ids}", "nodes")
    if "constant" in nodes:
        _expect(isinstance(nodes["constant"], str), m, "nodes.constant must be the name of a spec constant", "nodes.constant")
        m.nodes_constant = nodes["constant"]
    ids = nodes.get("ids") or {}
    _expect(isinstance(ids, dict), m, "nodes.ids must map trace node ids to spec values", "nodes.ids")
    m.node_ids = {str(k): _value(v) for k, v in ids.items()}

    actions = doc.get("actions") or {}
    _expect(isinstance(actions, dict), m, "'actions' must map trace action names to spec action names", "actions")
    for k, v in actions.items():
        _expect(isinstance(v, str) and v.isidentifier(), m, f"actions.{k} must be a spec action name", f"actions.{k}")
    m.actions = {str(k): v for k, v in actions.items()}

    values = doc.get("values") or {}
    _expect(isinstance(values, dict), m, "'values' must map trace values to spec values", "values")
    m.values = value_table(values)

    variables = doc.get("variables") or {}
    _expect(isinstance(variables, dict), m, "'variables' must map spec variable names to how they are read", "variables")
    for var, spec in variables.items():
        m.variables[str(var)] = _parse_var(m, str(var), spec, f"variables.{var}")
    avs = doc.get("action_variables") or {}
    _expect(isinstance(avs, dict), m, "'action_variables' must map actions to {variable: how it is read}", "action_variables")
    for act, vs_ in avs.items():
        _expect(isinstance(vs_, dict), m, f"action_variables.{act} must map spec variables to how they are read",
                f"action_variables.{act}")
        m.action_variables[str(act)] = {str(v): _parse_var(m, str(v), sp, f"action_variables.{act}.{v}")
                                        for v, sp in vs_.items()}
    if doc.get("input") is not None:
        m.input = _input_expr(m, doc["input"], "input")
    ais = doc.get("action_input") or {}
    _expect(isinstance(ais, dict), m, "'action_input' must map actions to {tla: expr}", "action_input")
    m.action_input = {str(a): _input_expr(m, v, f"action_input.{a}") for a, v in ais.items()}

    params = doc.get("params") or {}
    _expect(isinstance(params, dict), m, "'params' must map spec parameter names to actor/input/a value", "params")
    m.params = {str(k): _binding(m, v, f"params.{k}") for k, v in params.items()}
    aps = doc.get("action_params") or {}
    _expect(isinstance(aps, dict), m, "'action_params' must map actions to {parameter: binding}", "action_params")
    for act, binds in aps.items():
        _expect(isinstance(binds, dict), m, f"action_params.{act} must map parameters to bindings", f"action_params.{act}")
        m.action_params[str(act)] = {str(k): _binding(m, v, f"action_params.{act}.{k}") for k, v in binds.items()}

    mv = doc.get("message_var")
    _expect(mv is None or isinstance(mv, str), m, "message_var must be a spec variable name", "message_var")
    m.message_var = mv
    ign = doc.get("ignore") or []
    _expect(isinstance(ign, list) and all(isinstance(x, str) for x in ign), m, "ignore must be a list of trace field names", "ignore")
    m.ignore = frozenset(ign)
    return m


def _parse_var(m: Mapping, var: str, spec: Any, base: str) -> VarMap:
    """One entry of ``variables`` (or ``action_variables.A``)."""
    if spec is None:
        spec = {}
    if isinstance(spec, str):
        spec = {"field": spec}
    _expect(isinstance(spec, dict), m, f"{base} must be a trace field name or an object", base)
    for key in spec:
        _expect(key in _VAR_KEYS, m, f"unknown key {key!r} in {base} (known: {', '.join(sorted(_VAR_KEYS))})", f"{base}.{key}")
    fld = spec.get("field", spec.get("from", var))
    _expect(fld is None or isinstance(fld, str), m, f"{base}.field must be a trace field name", f"{base}.field")
    vals = spec.get("values") or {}
    _expect(isinstance(vals, dict), m, f"{base}.values must be a table", f"{base}.values")
    per_node = spec.get("per_node")
    _expect(per_node is None or isinstance(per_node, bool), m, f"{base}.per_node must be true or false", f"{base}.per_node")
    aux = bool(spec.get("aux", False))
    domain = spec.get("domain")
    _expect(domain is None or isinstance(domain, str), m, f"{base}.domain must be a TLA+ set expression", f"{base}.domain")
    node_values = spec.get("node_values", False)
    _expect(isinstance(node_values, bool), m, f"{base}.node_values must be true or false", f"{base}.node_values")
    ab = None
    if spec.get("abstract") is not None:
        a = spec["abstract"]
        _expect(isinstance(a, dict), m, f"{base}.abstract must be an object {{length, last_term, term_field, entry}}", f"{base}.abstract")
        for key in a:
            _expect(key in {"length", "last_term", "term_field", "entry"}, m, f"unknown key {key!r} in {base}.abstract", f"{base}.abstract.{key}")
        _expect(bool(a.get("length") or a.get("last_term")), m, f"{base}.abstract needs 'length' and/or 'last_term' trace fields", f"{base}.abstract")
        entry = a.get("entry") or {}
        _expect(isinstance(entry, dict), m, f"{base}.abstract.entry must be an object", f"{base}.abstract.entry")
        ab = Abstraction(
            length=a.get("length"),
            last_term=a.get("last_term"),
            term_field=a.get("term_field", "term"),
            entry={k: _value(v) for k, v in entry.items()},
        )
        fld = None
    if (domain is not None or "value" in spec) and ab is None:
        aux = True  # not observed: fixed, or free within the domain
    if aux:
        fld = None
    return VarMap(
        var=str(var),
        field=fld,
        values=value_table(vals),
        per_node=per_node,
        abstract=ab,
        aux=aux,
        domain=domain,
        value=_value(spec.get("value")),
        has_value="value" in spec,
        node_values=node_values,
    )


def _input_expr(m: Mapping, v: Any, path: str) -> TlaExpr:
    _expect(isinstance(v, dict) and set(v) == {"tla"} and isinstance(v["tla"], str), m,
            f"{path} must be {{tla: expr}} (TLA+ text over the window's input message `input` and the window `w`)", path)
    return TlaExpr(v["tla"])


def _binding(m: Mapping, v: Any, path: str) -> Any:
    """``actor`` | ``input`` | ``{field: name}`` (a field of the input message) | ``{tla: expr}`` | raw value."""
    if isinstance(v, str) and v in _BINDINGS:
        return v
    if isinstance(v, dict):
        if set(v) == {"field"} and isinstance(v["field"], str):
            return {"field": v["field"]}
        if set(v) == {"tla"} and isinstance(v["tla"], str):
            return TlaExpr(v["tla"])
        if set(v) == {"value"}:
            return {"value": v["value"]}
        raise m.error(f"{path}: a binding is 'actor', 'input', {{field: name}}, {{tla: expr}} or {{value: v}}", path)
    raise m.error(f"{path}: a binding is 'actor', 'input', {{field: name}}, {{tla: expr}} or {{value: v}} (got {v!r})", path)


def load_mapping(path: str | os.PathLike[str]) -> Mapping:
    p = str(path)
    try:
        text = Path(p).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read mapping file: {exc.strerror or exc}", path=p) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"mapping file is not UTF-8 text (byte {exc.start})", path=p) from None
    return parse_mapping(text, p)
