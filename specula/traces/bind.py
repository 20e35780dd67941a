"""Binding a window to a spec: raw trace values -> TLA+ values, parameters, free variables.

This is where the defaults of SysMoBench's window modules live (docs/mapping.md, "Defaults"),
and where every choice that can change a score is recorded (``Bound.choices``). It needs only
the spec's *shape* (:class:`SpecInfo`), not the engine, so it is tested on its own.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from specula.tla import values as V
from specula.traces.mapping import Abstraction, Mapping, Summary, TlaExpr, VarMap
from specula.traces.window import Window

__all__ = ["SpecInfo", "Bound", "BindError", "Binder", "RELAXATIONS", "MESSAGE_PARAMS", "raw_key", "summary_matches", "summaries_match", "MESSAGE_VARS", "NONE_NAMES"]

MESSAGE_PARAMS = ("m", "msg", "message")
MESSAGE_VARS = ("msgs", "messages", "network", "net", "mailbox")
NONE_NAMES = ("None", "Nil", "NULL", "Null", "NoNode")
NODE_FIELDS = frozenset({"from", "to", "src", "dst", "source", "dest", "sender", "receiver", "mfrom", "mdest", "msource"})


#: every abstraction a binding can apply that is not exact, with its strength and what it
#: relaxes (docs/mapping.md, "Abstraction policy"); renames (``field``), value tables, node ids
#: by value or ``nodes.ids``, ``node_values``, and parameters bound to the actor, the input or an
#: input field are exact and are not listed
RELAXATIONS: dict[str, tuple[str, str]] = {
    "summary": ("weaker", "observed only through summaries (e.g. log length and last term): any spec value "
                          "with the same summaries is accepted"),
    "free": ("weaker", "not observed: any value of its domain may start the step"),
    "fixed": ("weaker", "not observed: fixed to a value the mapping (or window module) chose, which the system may not have had"),
    "input": ("weaker", "the input message is rebuilt by the mapping's TLA+ text, not passed as the system sent it"),
    "nodes-by-position": ("weaker", "trace node ids paired with the spec's nodes by position, not by name"),
}


class BindError(Exception):
    """A window cannot be put into the spec's value space (a scored failure, not a crash)."""


#: names a mapping's TLA+ text may use for the window being bound: the whole window record
#: (``w``, as in SysMoBench's window modules) and its input message (``input``)
_WINDOW_NAMES = re.compile(r"(?<![\\\w!])(w|input)\b(?!\s*==)")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def tla_literal(obj: Any) -> str:
    """A JSON value as TLA+ text, read as SysMoBench's ndJsonDeserialize reads it (arrays are
    sequences, objects records; objects whose keys are no identifiers become functions)."""
    if obj is True or obj is False:
        return "TRUE" if obj else "FALSE"
    if isinstance(obj, int):
        return str(obj)
    if isinstance(obj, float) and obj.is_integer():
        return str(int(obj))
    if isinstance(obj, str):
        return '"' + obj.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(obj, list):
        return "<<" + ", ".join(tla_literal(x) for x in obj) + ">>"
    if isinstance(obj, dict):
        if not obj:
            return "<<>>"
        if all(_IDENT.match(k) for k in obj):
            return "[" + ", ".join(f"{k} |-> {tla_literal(v)}" for k, v in obj.items()) + "]"
        keys = ", ".join(tla_literal(k) for k in obj)
        arms = " [] ".join(f"k_ = {tla_literal(k)} -> {tla_literal(v)}" for k, v in obj.items())
        return f"[k_ \\in {{{keys}}} |-> CASE {arms}]"
    raise BindError(f"cannot write {obj!r} as TLA+ (JSON null and fractions have no TLA+ value)")


@dataclass(frozen=True, slots=True)
class _Node:
    """A scalar the mapping says is a trace node id (``node_values``), read as a node."""

    raw: Any


@dataclass
class SpecInfo:
    """What binding needs to know about a spec and its cfg."""

    variables: tuple[str, ...]
    actions: dict[str, tuple[str, ...]]  # action name -> parameter names
    templates: dict[str, Any] = field(default_factory=dict)  # var -> value in the first initial state
    names: dict[str, Any] = field(default_factory=dict)  # model value names and constants -> value
    nodes: list[Any] | None = None  # the node set, in TLC order
    nodes_from: str = ""  # where the node set came from (for the choices)
    evaluate: Callable[[str], Any] | None = None  # constant-level TLA+ text -> value
    definitions: frozenset[str] = frozenset()  # zero-arity definitions (a trace string may name one)
    #: does the spec read log entries as records with a ``term`` field (``log[n][i].term``)?
    #: False: entries are bare terms (``log[n][i]`` compared with numbers)
    log_records: bool = True


@dataclass
class Bound:
    """A window in the spec's value space, ready for ``Model.check_step``."""

    action: str
    pre: dict[str, Any]
    post: dict[str, Any]
    params: dict[str, Any]
    free: dict[str, list[Any]]
    #: variables observed only by summaries in the post-state: var -> Summary / per-node summaries
    post_summaries: dict[str, Any]
    choices: list[str]
    key: str  # identical keys give identical verdicts (see raw_key)
    #: (kind, subject) of every relaxation this binding applied (kinds: RELAXATIONS)
    relaxations: tuple[tuple[str, str], ...] = ()


def _ordered(s: Any) -> list[Any]:
    return V.ordered(V.enumerate_set(s))


def _is_fn(v: Any) -> bool:
    return v.__class__ is V.Fn or v.__class__ is tuple


def _dom(v: Any) -> list[Any]:
    if v.__class__ is tuple:
        return list(range(1, len(v) + 1))
    return list(v.keys())


def _key_order(k: str) -> tuple[int, Any]:
    return (0, int(k)) if k.lstrip("-").isdigit() else (1, k)


class Binder:
    """Binds windows of one spec under one mapping (caches node tables and evaluated text)."""

    def __init__(self, info: SpecInfo, mapping: Mapping | None = None) -> None:
        self.info = info
        self.mapping = mapping or Mapping()
        self._evals: dict[str, Any] = {}
        self._win: Window | None = None  # the window being bound (for TLA+ text over `w`/`input`)
        self._win_key = ""
        self._win_evals: dict[tuple[str, str], Any] = {}
        self._tables: dict[tuple[Any, ...], tuple[dict[Any, Any], str]] = {}
        m = self.mapping
        self.message_var = m.message_var or next((v for v in MESSAGE_VARS if v in info.variables), None)
        self.nodes = self._node_set()
        self._vars = info.variables
        self._free_cache: dict[str, list[Any]] = {}
        self._node_fn_cache: dict[int, tuple[Any, bool]] = {}
        self._seq_nodes: bool | None = None
        self._defs: dict[str, Any] = {}
        # SysMoBench windows give a log as logLen / logLastTerm: without a mapping entry for a
        # spec variable `log`, such windows compare it by those summaries
        self._auto: Mapping | None = None
        if "log" in info.variables and "log" not in self.mapping.variables:
            auto = copy.copy(self.mapping)
            auto.variables = {**self.mapping.variables,
                              "log": VarMap("log", None, abstract=Abstraction(
                                  "logLen", "logLastTerm", term_field="term" if info.log_records else None))}
            self._auto = auto

    def abstraction(self, var: str, action: str | None = None) -> Abstraction | None:
        vm = self.mapping.variables_for(action).get(var)
        if vm is None and self._auto is not None:
            vm = self._auto.variables.get(var)
        return vm.abstract if vm is not None else None

    # -- setup ---------------------------------------------------------------------------------

    def _node_set(self) -> list[Any] | None:
        m = self.mapping
        if m.nodes_constant:  # evaluated once, before any window: a bad one is the mapping's error
            try:
                val = self.eval(m.nodes_constant)
            except BindError as exc:
                raise m.error(str(exc), "nodes.constant") from None
            if not V.is_set(val):
                raise m.error(f"nodes.constant {m.nodes_constant} is not a set", "nodes.constant")
            return _ordered(val)
        return self.info.nodes

    def eval(self, text: str) -> Any:
        if self._win is not None and _WINDOW_NAMES.search(text):
            return self._eval_window(text, self._win)
        if text not in self._evals:
            if self.info.evaluate is None:
                raise BindError(f"cannot evaluate {text!r} without a spec")
            try:
                self._evals[text] = self.info.evaluate(text)
            except Exception as exc:  # noqa: BLE001 - evaluation errors become bind errors
                raise BindError(f"cannot evaluate {text!r}: {exc}") from None
        return self._evals[text]

    def _eval_window(self, text: str, w: Window) -> Any:
        """TLA+ text over the window: ``w`` is the whole window record, ``input`` its input."""
        raw = {"id": w.id, "trace_id": w.trace_id, "pre": w.pre, "post": w.post}
        if w.actor is not None:
            raw["node"] = w.actor
        if w.input is not None:
            raw["input"] = w.input
        key = (text, self._win_key)
        hit = self._win_evals.get(key)
        if hit is not None:
            return hit
        if self.info.evaluate is None:
            raise BindError(f"cannot evaluate {text!r} without a spec")
        lets = f"LET w == {tla_literal(raw)} IN " + ("LET input == w.input IN " if w.input is not None else "")
        try:
            val = self.info.evaluate(f"{lets}({text})")
        except Exception as exc:  # noqa: BLE001 - evaluation errors become bind errors
            raise BindError(f"cannot evaluate {text!r} for this window: {exc}") from None
        if len(self._win_evals) > 4096:
            self._win_evals.clear()
        self._win_evals[key] = val
        return val

    # -- nodes ---------------------------------------------------------------------------------

    def _exact_node(self, raw: Any) -> Any:
        nodes = self.nodes or []
        if isinstance(raw, TlaExpr):
            return self.eval(raw.text)
        for n in nodes:
            if n.__class__ is raw.__class__ and n == raw:
                return n
        if isinstance(raw, str):
            for n in nodes:
                if isinstance(n, V.ModelValue) and n.name == raw:
                    return n
            if raw.lstrip("-").isdigit():
                for n in nodes:
                    if n.__class__ is int and n == int(raw):
                        return n
        if raw.__class__ is int:
            for n in nodes:
                if isinstance(n, str) and n == str(raw):
                    return n
        return None

    def node_table(self, ids: Iterable[Any], choices: list[str]) -> dict[Any, Any]:
        """Trace node ids -> spec nodes (explicit table, else equal values, else by position)."""
        key = tuple(sorted({json.dumps(i, sort_keys=True) for i in ids}))
        hit = self._tables.get(key)
        if hit is None:
            hit = self._make_table([json.loads(k) for k in key])
            self._tables[key] = hit
        table, how = hit
        if how:
            choices.append(how)
        return table

    def _make_table(self, ids: list[Any]) -> tuple[dict[Any, Any], str]:
        explicit = self.mapping.node_ids
        out: dict[Any, Any] = {}
        if explicit:
            for i in ids:
                if str(i) in explicit:
                    v = explicit[str(i)]
                    out[_hk(i)] = self.eval(v.text) if isinstance(v, TlaExpr) else (self._exact_node(v) if self._exact_node(v) is not None else self._scalar(v, None))
            if len(out) == len(ids):
                return out, ""
        exact = {_hk(i): self._exact_node(i) for i in ids}
        if all(v is not None for v in exact.values()):
            return exact, ""
        nodes = self.nodes
        if nodes and len(ids) <= len(nodes):
            order = sorted(ids, key=lambda i: _key_order(str(i)))
            table = {_hk(i): nodes[k] for k, i in enumerate(order)}
            shown = ", ".join(f"{i}->{V.format_value(table[_hk(i)])}" for i in order)
            return table, f"trace node ids read by position: {shown}"
        missing = [i for i in ids if exact[_hk(i)] is None]
        if not nodes:
            raise BindError(
                f"trace node id(s) {', '.join(map(str, missing))} cannot be read: the spec's node set is unknown "
                "(no per-node variable's domain is a set of the cfg or one Next quantifies over; "
                "give nodes.constant in the mapping)"
            )
        raise BindError(
            f"trace node id(s) {', '.join(map(str, missing))} match no element of the node set "
            f"{'{' + ', '.join(V.format_value(n) for n in (nodes or [])) + '}'}"
            " (give nodes.ids in the mapping)"
        )

    def node(self, raw: Any, table: dict[Any, Any] | None, choices: list[str]) -> Any:
        if table is not None and _hk(raw) in table:
            return table[_hk(raw)]
        exact = self._exact_node(raw)
        if exact is not None:
            return exact
        if table is None:
            nodes = self.nodes or []
            k = int(raw) if (raw.__class__ is int or (isinstance(raw, str) and raw.isdigit())) else None
            if k is not None and 1 <= k <= len(nodes):
                # per-node arrays are indexed 1..N: node k is the k-th element of the node set
                choices.append(f"node {raw} read as element {k} of the node set ({V.format_value(nodes[k - 1])})")
                return nodes[k - 1]
            return self.node(raw, self.node_table([raw], choices), choices)
        raise BindError(f"actor {raw!r} is not a node of this window")

    def _node_value(self, r: Any, table: dict[Any, Any] | None, tmpl: Any, choices: list[str]) -> Any:
        """A leaf of a ``node_values`` variable: the node it names, else the value itself."""
        if table is not None:
            for k in (_hk(r), _hk(str(r))):
                if k in table:
                    return table[k]
        n = self._exact_node(r)
        if n is not None:
            return n
        nodes = self.nodes or []
        k = r if r.__class__ is int else (int(r) if isinstance(r, str) and r.isdigit() else None)
        if table is None and k is not None and 1 <= k <= len(nodes):
            choices.append(f"node id {r} inside a value read as element {k} of the node set ({V.format_value(nodes[k - 1])})")
            return nodes[k - 1]
        return self._scalar(r, tmpl, choices)

    # -- values --------------------------------------------------------------------------------

    def _definition(self, name: str) -> Any:
        """The constant value of a zero-arity spec definition named ``name`` (None if there is
        none, or it is not constant-level)."""
        if name not in self._defs:
            val = None
            if self.info.evaluate is not None:
                try:
                    val = self.info.evaluate(name)
                except Exception:  # noqa: BLE001 - state-level or broken: not a value name
                    val = None
            self._defs[name] = val
        return self._defs[name]

    def _scalar(self, raw: Any, tmpl: Any, choices: list[str] | None = None) -> Any:
        if isinstance(raw, TlaExpr):
            return self.eval(raw.text)
        c = raw.__class__
        if c is bool or c is int:
            return raw
        if c is str:
            hit = self.info.names.get(raw)
            if hit is not None and tmpl.__class__ is not str:
                return hit
            if raw in self.info.definitions and raw not in self.info.names:
                val = self._definition(raw)
                if val is not None and not V.tla_eq(val, raw):
                    if choices is not None:
                        choices.append(f'string "{raw}" read as the spec\'s definition {raw} = {V.format_value(val)}')
                    return val
            return raw
        if raw is None:
            for n in NONE_NAMES:
                if n in self.info.names:
                    return self.info.names[n]
            raise BindError("JSON null has no TLA+ value (the spec defines no None/Nil; map it with a value table)")
        if c is float and raw.is_integer():
            return int(raw)
        raise BindError(f"cannot read {raw!r} as a TLA+ value")

    def value(self, raw: Any, tmpl: Any, table: dict[Any, Any] | None, per_node: bool | None, choices: list[str]) -> Any:
        c = raw.__class__
        if c is _Node:
            return self._node_value(raw.raw, table, tmpl, choices)
        if c is list and tmpl.__class__ is tuple and tmpl and tmpl[0].__class__ is str and per_node is not True:
            # fast path: a sequence of strings/numbers where the spec has strings (e.g. pc per thread)
            defs = self.info.definitions
            if all(x.__class__ is int or (x.__class__ is str and x not in defs) for x in raw) and (
                    self._is_seq_nodes() or not self._node_fn(tmpl) or not self.nodes or len(raw) != len(self.nodes)):
                return tuple(raw)
        if c is list:
            if tmpl.__class__ is frozenset or (tmpl is not None and isinstance(tmpl, V.LazySet)):
                et = next(iter(tmpl), None) if tmpl.__class__ is frozenset else None
                return frozenset(self.value(x, et, table, None, choices) for x in raw)
            if (per_node or (per_node is None and self._node_fn(tmpl))) and self.nodes and len(raw) == len(self.nodes) and not self._is_seq_nodes():
                et = self._elem(tmpl)
                return V.make_fn({self.nodes[i]: self.value(x, et, table, None, choices) for i, x in enumerate(raw)})
            et = self._elem(tmpl)
            return tuple(self.value(x, et, table, None, choices) for x in raw)
        if c is dict:
            if per_node or (per_node is None and (self._node_fn(tmpl) or (tmpl is None and self._looks_node_keyed(raw)))):
                if table is None:
                    table = self.node_table(raw.keys(), choices)
                et = self._elem(tmpl)
                return V.make_fn({self.node(k, table, choices): self.value(x, et, table, None, choices) for k, x in raw.items()})
            if tmpl.__class__ is V.Fn and tmpl and all(k.__class__ is int for k in tmpl):
                return V.make_fn({int(k): self.value(x, self._elem(tmpl), table, None, choices) for k, x in raw.items()})
            out = {}
            for k, x in raw.items():
                t = tmpl.get(k) if tmpl.__class__ is V.Fn else None
                if t is None and k in NODE_FIELDS and self.nodes and not isinstance(x, (dict, list)):
                    out[k] = self.node(x, table, choices)
                else:
                    out[k] = self.value(x, t, table, None, choices)
            return V.make_fn(out)
        if c is Summary:
            return raw
        return self._scalar(raw, tmpl, choices)

    def _is_seq_nodes(self) -> bool:
        if self._seq_nodes is None:
            n = self.nodes or []
            self._seq_nodes = all(x.__class__ is int for x in n) and n == list(range(1, len(n) + 1))
        return self._seq_nodes

    def _node_fn(self, tmpl: Any) -> bool:
        if not self.nodes or not _is_fn(tmpl) or not tmpl:
            return False
        hit = self._node_fn_cache.get(id(tmpl))
        if hit is not None and hit[0] is tmpl:
            return hit[1]
        ans = len(_dom(tmpl)) == len(self.nodes) and set(map(_hk, _dom(tmpl))) == set(map(_hk, self.nodes))
        self._node_fn_cache[id(tmpl)] = (tmpl, ans)  # keeps tmpl alive, so the id stays its own
        return ans

    def _looks_node_keyed(self, raw: dict[str, Any]) -> bool:
        if not self.nodes or not raw:
            return False
        return all(self._exact_node(k) is not None for k in raw) or (
            len(raw) == len(self.nodes) and all(k.lstrip("-").isdigit() for k in raw)
        )

    @staticmethod
    def _elem(tmpl: Any) -> Any:
        if tmpl.__class__ is tuple and tmpl:
            return tmpl[0]
        if tmpl.__class__ is V.Fn and tmpl:
            return next(iter(tmpl.values()))
        return None

    # -- windows -------------------------------------------------------------------------------

    def _node_ids(self, *states: dict[str, Any], action: str | None = None) -> list[Any] | None:
        ids: dict[str, Any] = {}
        variables = self.mapping.variables_for(action)
        for st in states:
            for var, raw in st.items():
                vm = variables.get(var)
                tmpl = self.info.templates.get(var)
                if isinstance(raw, dict) and ((vm and vm.per_node) or self._node_fn(tmpl) or (tmpl is None and self._looks_node_keyed(raw))):
                    for k in raw:
                        ids[json.dumps(k)] = k
        return list(ids.values()) or None

    def _convert(self, raws: tuple[dict[str, Any], ...], choices: list[str], action: str | None = None):
        """Raw trace states -> ([(values, summaries)] per state, node table). In the first state
        abstracted variables become witnesses; in the others, summaries to compare."""
        m = self.mapping
        if self._auto is not None and "log" not in m.variables_for(action) and any("log" not in r and "logLen" in r for r in raws):
            m = self._auto
            choices.append("log compared by logLen and logLastTerm (SysMoBench's log abstraction; witness entries "
                           + ("[term |-> t]" if self.info.log_records else "bare terms") + ")")
        variables = m.variables_for(action)
        mapped = [m.map_state(r, self._vars, action) for r in raws]
        ids = self._node_ids(*mapped, action=action)
        table = self.node_table(ids, choices) if ids and self.nodes else None
        out = []
        for k, raw_state in enumerate(mapped):
            vals: dict[str, Any] = {}
            summ: dict[str, Any] = {}
            for var, raw in raw_state.items():
                vm = variables.get(var)
                if vm is not None and vm.abstract is not None:
                    if k == 0 and len(raws) > 1:
                        if vm.has_value:  # the mapping writes the pre-state value itself
                            vals[var] = self.value(vm.value, self.info.templates.get(var), table, vm.per_node, choices)
                        else:
                            vals[var] = self._witness(raw, vm.abstract, table, choices)
                    else:
                        summ[var] = self._summaries_by_node(raw, table, choices)
                    continue
                if vm is not None and vm.node_values:
                    raw = _mark_nodes(raw)
                vals[var] = self.value(raw, self.info.templates.get(var), table, vm.per_node if vm else None, choices)
            out.append((vals, summ))
        return out[0], out[-1], table, m

    def state(self, raw: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """One observed state -> (observed values, summaries of abstracted variables)."""
        choices: list[str] = []
        (vals, summ), _, _, _ = self._convert((raw,), choices)
        return vals, summ

    def bind(self, w: Window, key: str | None = None) -> Bound:
        if key is None:
            key = raw_key(w)
        self._win, self._win_key = w, key
        try:
            return self._bind(w, key)
        finally:
            self._win = None

    def _bind(self, w: Window, key: str) -> Bound:
        m = self.mapping
        choices: list[str] = []
        action = m.spec_action(w.action)
        if action != w.action:
            choices.append(f"trace action {w.action} is spec action {action}")
        if action not in self.info.actions:
            raise BindError(f"the spec has no action {action!r} in Next (actions: {', '.join(sorted(self.info.actions))})")
        vars_ = self._vars
        variables = m.variables_for(action)
        (pre, _), (post, post_summaries), table, used = self._convert((w.pre, w.post), choices, action)
        ignored = sorted(k for k in set(w.pre) | set(w.post) if k not in used.observed_fields(action) and k not in used.ignore and k not in vars_)
        if ignored:
            choices.append(f"trace fields not in the spec, ignored: {', '.join(ignored)}")

        params: dict[str, Any] = {}
        declared = self.info.actions[action]
        input_used = False
        rebuilt = m.input_for(action)
        message: Any = None  # the input message in the spec's value space
        if w.input is not None:
            if rebuilt is not None:
                message = self._eval_window(rebuilt.text, w)
                choices.append(f"{action}: input message rebuilt by the mapping's TLA+ text")
            else:
                message = self.value(w.input, None, table, False, choices)
        bindings = m.param_bindings(action)
        for p in declared:
            b = bindings.get(p)
            if b is None and w.params and p in w.params:
                params[p] = self._param_value(w.params[p], table, choices)
                continue
            if b is None and p in MESSAGE_PARAMS and w.input is not None:
                b = "input"
                choices.append(f"{action}: parameter {p} takes the input message")
            if b is None:
                continue
            if b == "actor":
                if w.actor is None:
                    raise BindError(f"parameter {p} is bound to the actor, but the window has no actor")
                params[p] = self.node(w.actor, table, choices)
            elif b == "input":
                if w.input is None:
                    raise BindError(f"parameter {p} is bound to the input message, but the window has none")
                params[p] = message
                input_used = True
            elif isinstance(b, dict) and "field" in b:
                if not isinstance(w.input, dict) or b["field"] not in w.input:
                    raise BindError(f"parameter {p} is bound to input field {b['field']!r}, which the window's input lacks")
                raw = w.input[b["field"]]
                params[p] = self._param_value(raw, table, choices)
                input_used = True
            elif isinstance(b, dict) and "value" in b:
                params[p] = self._param_value(b["value"], table, choices)
            elif isinstance(b, TlaExpr):
                params[p] = self.eval(b.text)
        if w.params:
            extra = sorted(k for k in w.params if k not in declared)
            if extra:
                choices.append(f"{action}: trace params {', '.join(extra)} are not parameters of the action (ignored)")
        unbound = [p for p in declared if p not in params]
        if unbound:
            choices.append(f"{action}: parameters {', '.join(unbound)} range over their domains in Next (not bound)")

        if w.input is not None:
            mv = self.message_var
            if mv is None:
                if not input_used:
                    choices.append("input message ignored (no message parameter or message variable)")
            elif mv not in pre and not (variables.get(mv) is not None and variables[mv].aux):
                # the consumed message was in flight: put it into the (unobserved) message variable
                pre[mv] = self._add_message(None, self.info.templates.get(mv), message)
                choices.append(f"input message put into {mv}" + (" (pre-state)" if input_used else ""))

        free: dict[str, list[Any]] = {}
        unobserved = [v for v in vars_ if v not in pre]
        for var in unobserved:
            vm = variables.get(var)
            if vm is not None and vm.has_value:
                pre[var] = self.value(vm.value, self.info.templates.get(var), table, vm.per_node, choices)
            elif vm is not None and vm.domain:
                if var not in self._free_cache:
                    self._free_cache[var] = list(V.enumerate_set(self.eval(vm.domain)))
                free[var] = self._free_cache[var]
        still = [v for v in unobserved if v not in pre and v not in free]
        if still:
            choices.append(f"unobserved variables free within TypeOK: {', '.join(still)}")
        relax: list[tuple[str, str]] = [("summary", v) for v in post_summaries]
        for var in unobserved:
            vm = variables.get(var)
            if var in free or var in still:
                relax.append(("free", var))
            elif vm is not None and vm.has_value:
                relax.append(("fixed", var))
        if rebuilt is not None and w.input is not None:
            relax.append(("input", action))
        if any(c.startswith("trace node ids read by position") for c in choices):
            relax.append(("nodes-by-position", ""))
        return Bound(action, pre, post, params, free, post_summaries, choices, key, tuple(relax))

    def _param_value(self, raw: Any, table: dict[Any, Any] | None, choices: list[str]) -> Any:
        if not isinstance(raw, (dict, list)):
            n = self._exact_node(raw) if not isinstance(raw, bool) else None
            if n is not None:
                return n
            if table is not None and _hk(raw) in table:
                return table[_hk(raw)]
        return self.value(raw, None, table, False, choices)

    def _add_message(self, current: Any, tmpl: Any, msg: Any) -> Any:
        kind = current if current is not None else tmpl
        if kind.__class__ is frozenset or kind is None:
            return (current or frozenset()) | {msg}
        if kind.__class__ is tuple and current is not None and current and not all(isinstance(x, int) for x in current):
            return current + (msg,)
        if kind.__class__ is V.Fn and all(x.__class__ is int for x in kind.values()):  # a bag
            base = dict(current) if current.__class__ is V.Fn else {}
            base[msg] = base.get(msg, 0) + 1
            return V.make_fn(base)
        if kind.__class__ is tuple:
            return (current or ()) + (msg,)
        return frozenset({msg})

    # -- abstractions ----------------------------------------------------------------------------

    def _summaries_by_node(self, raw: Any, table: dict[Any, Any] | None, choices: list[str]) -> Any:
        if isinstance(raw, Summary):
            return raw
        if isinstance(raw, list):
            nodes = self.nodes or list(range(1, len(raw) + 1))
            return {nodes[i]: s for i, s in enumerate(raw)}
        if isinstance(raw, dict):
            t = table if table is not None else self.node_table(raw.keys(), choices)
            return {self.node(k, t, choices): s for k, s in raw.items()}
        raise BindError("abstracted variable has no summary in the trace")

    def _witness(self, raw: Any, ab: Abstraction, table: dict[Any, Any] | None, choices: list[str]) -> Any:
        by = self._summaries_by_node(raw, table, choices)
        if isinstance(by, Summary):
            return self._witness_log(by, ab)
        return V.make_fn({n: self._witness_log(s, ab) for n, s in by.items()})

    def _witness_log(self, s: Summary, ab: Abstraction) -> tuple:
        n = s.length if isinstance(s.length, int) else (1 if s.last_term else 0)
        term = s.last_term if isinstance(s.last_term, int) else 0
        if ab.term_field is None:
            entry: Any = term
        else:
            fields = {k: self._scalar(v, None) if not isinstance(v, (dict, list)) else self.value(v, None, None, False, []) for k, v in ab.entry.items()}
            fields[ab.term_field] = term
            entry = V.make_fn(fields)
        return tuple([entry] * n)


def _mark_nodes(raw: Any) -> Any:
    """Scalar leaves (numbers, strings) of a ``node_values`` variable are node ids."""
    if isinstance(raw, dict):
        return {k: _mark_nodes(v) for k, v in raw.items()}
    if isinstance(raw, list):
        return [_mark_nodes(v) for v in raw]
    if isinstance(raw, (int, str)) and not isinstance(raw, bool):
        return _Node(raw)
    return raw


def summary_matches(value: Any, s: Summary, ab: Abstraction) -> bool:
    """Does a spec log ``value`` have the observed length and last term?"""
    if value.__class__ is not tuple:
        return False
    if isinstance(s.length, int) and len(value) != s.length:
        return False
    if isinstance(s.last_term, int):
        if not value:
            return s.last_term == 0
        last = value[-1]
        term = last if ab.term_field is None else (last.get(ab.term_field) if last.__class__ is V.Fn else None)
        return term == s.last_term and term.__class__ is int
    return True


def summaries_match(value: Any, s: Any, ab: Any) -> bool:
    """A spec value against a :class:`Summary` or per-node summaries ``{node: Summary}``."""
    if isinstance(s, Summary):
        return summary_matches(value, s, ab)
    try:
        return all(summary_matches(V.apply_fn(value, n), sn, ab) for n, sn in s.items())
    except (KeyError, TypeError, IndexError, V.ValueFault):
        return False


def _hk(v: Any) -> Any:
    """A hashable key that keeps 1 and True (and "1") apart."""
    return (v.__class__.__name__, v) if not isinstance(v, (dict, list)) else ("json", json.dumps(v, sort_keys=True))


_KEY_ENCODER = json.JSONEncoder(sort_keys=True, default=str, check_circular=False).encode


def raw_key(w: Window) -> str:
    """Windows with the same key bind identically and get the same verdict."""
    return _KEY_ENCODER([w.action, w.pre, w.post, w.actor, w.params, w.input])
