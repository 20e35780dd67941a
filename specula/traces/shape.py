"""What binding and validation need to know about a spec's shape, read from a built Model.

``spec_info``: variables, actions (including action operators ``Next`` reaches only under a
state-level ``\\E``, which TLC does not split out) with their parameters, a template value per
variable (the first initial state), model value names, and the node set.
``check_step_over_domains``: ``Model.check_step`` for such an action, its parameters enumerated
over the constant domains ``Next`` quantifies them over.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from specula.errors import EvalError, SpeculaError
from specula.traces.bind import Bound, SpecInfo

__all__ = ["spec_info", "check_step_over_domains", "param_domains", "action_params", "parameter_choices",
           "variables_read"]


def spec_info(model: Any, cfg: Any = None) -> SpecInfo:
    """What binding needs from a Model: variables, actions and their parameters, a template value
    per variable (first initial state), model value names, and the node set."""
    from specula.tla import values as V

    variables = tuple(model.variables)
    actions: dict[str, tuple[str, ...]] = {}
    for a in model.actions:
        params = tuple(getattr(a, "params", ()) or ())
        prev = actions.get(a.name, ())
        actions[a.name] = prev + tuple(p for p in params if p not in prev)
    # action operators Next reaches under a state-level \E (TLC does not split those, but a
    # window names them: SysMoBench's window modules call the operator directly)
    for name, params in _next_operators(model).items():
        actions.setdefault(name, params)
    templates: dict[str, Any] = {}
    try:
        first = next(iter(model.init_states()), None)
    except (SpeculaError, Exception):  # noqa: BLE001 - a broken Init leaves us without templates
        first = None
    if first is not None:
        templates = dict(zip(variables, first))
    names: dict[str, Any] = {}
    const_sets: list[Any] = []
    constants = dict(getattr(cfg, "constants", {}) or {}) if cfg is not None else {}
    for cname, cval in constants.items():
        try:
            val = V.from_python(cval)
        except Exception:  # noqa: BLE001
            continue
        for x in _model_values(val):
            names.setdefault(x.name, x)
        names.setdefault(cname, val)
        if val.__class__ is frozenset:
            const_sets.append(val)
    for n in ("None", "Nil", "NULL", "Null", "NoNode"):
        if n not in names:
            try:
                names[n] = model.evaluate(n)
            except Exception:  # noqa: BLE001 - not defined
                pass
    nodes, nodes_from = _guess_nodes(templates, const_sets, constants, _quantified_sets(model))

    def evaluate(text: str) -> Any:
        return model.evaluate(text)

    root_names = getattr(getattr(model, "root", None), "names", None) or {}
    definitions = frozenset(
        n for n, d in root_names.items()
        if getattr(d, "kind", "") == "op" and not getattr(getattr(d, "node", None), "params", ()) and n not in actions
    )
    return SpecInfo(variables, actions, templates, names, nodes, nodes_from, evaluate, definitions,
                    _log_records(model))


def _log_records(model: Any) -> bool:
    """Whether the spec reads its log entries' ``term`` field: ``.term`` applied to an indexed
    ``log`` (``log[n][i].term``, ``log[i].term``) anywhere in the root module's text."""
    import re

    spec = getattr(model, "spec", None)
    root = getattr(model, "root", None)
    file = getattr(getattr(getattr(root, "module", None), "span", None), "file", None)
    text = (getattr(spec, "sources", None) or {}).get(file, "") if file else ""
    if not text:
        return True
    if re.search(r"\blog\s*\[[^\]]*\](\s*\[[^\]]*\])?\s*\.\s*term\b", text) or re.search(r"\]\s*\.\s*term\b", text):
        return True
    return not re.search(r"\blog\s*\[[^\]]*\]\s*\[", text)


def _next_operators(model: Any) -> dict[str, tuple[str, ...]]:
    """Action-level operators reachable from Next: name -> formal parameter names."""
    from specula.tla import ast as A

    root = getattr(model, "root", None) or getattr(getattr(model, "spec", None), "root", None)
    names = getattr(root, "names", None)
    nxt = getattr(model, "next_name", None)
    if not isinstance(names, dict) or nxt is None:
        return {}
    seen: set[str] = set()
    if isinstance(nxt, A.Name):
        nxt = nxt.name
    if isinstance(nxt, str):
        d = names.get(nxt)
        body = getattr(getattr(d, "node", None), "body", None)
        seen.add(nxt)
    else:
        body = nxt
    if body is None:
        return {}
    out: dict[str, tuple[str, ...]] = {}

    def is_action(node: Any, depth: int = 0) -> bool:
        for n in A.walk(node):
            if isinstance(n, A.Prime) or (isinstance(n, A.OpApp) and n.name == "UNCHANGED"):
                return True
            if depth < 2 and isinstance(n, (A.OpApp, A.Name)) and not getattr(n, "prefix", ()):
                d = names.get(n.name)
                if d is not None and getattr(d, "kind", "") == "op" and n.name not in seen_action:
                    seen_action.add(n.name)
                    if is_action(d.node.body, depth + 1):
                        return True
        return False

    seen_action: set[str] = set()
    stack = [body]
    while stack:
        node = stack.pop()
        for n in A.walk(node):
            if not isinstance(n, (A.OpApp, A.Name)) or getattr(n, "prefix", ()):
                continue
            d = names.get(n.name)
            if d is None or getattr(d, "kind", "") != "op" or n.name in seen:
                continue
            seen.add(n.name)
            op = d.node
            seen_action.clear()
            if not is_action(op.body):
                continue
            params = tuple(p.name for p in getattr(op, "params", ()) or ())
            out[n.name] = params
            if not params:
                stack.append(op.body)
    return out


def _model_values(v: Any) -> Iterable[Any]:
    from specula.tla import values as V

    if isinstance(v, V.ModelValue):
        yield v
    elif v.__class__ in (frozenset, tuple):
        for x in v:
            yield from _model_values(x)


def _quantified_sets(model: Any) -> list[frozenset[Any]]:
    """The constant sets Next quantifies its actions' parameters over (``\\E s \\in Server``),
    however they are written (a cfg constant, a definition such as ``Server == 1..N``)."""
    out: list[frozenset[Any]] = []
    for a in getattr(model, "actions", ()):
        for b in getattr(a, "binders", ()) or ():
            vals = tuple(b)[2] if len(tuple(b)) > 2 else None
            if isinstance(vals, list) and vals:
                try:
                    fs = frozenset(vals)
                except TypeError:
                    continue
                if fs not in out:
                    out.append(fs)
    for name in _next_operators(model):
        try:
            doms = param_domains(model, name)
        except Exception:  # noqa: BLE001 - a domain we cannot read gives no node set
            continue
        for vals in doms.values():
            try:
                fs = frozenset(vals)
            except TypeError:
                continue
            if vals and fs not in out:
                out.append(fs)
    return out


def _guess_nodes(templates: dict[str, Any], const_sets: list[Any], constants: dict[str, Any],
                 quantified: list[frozenset[Any]] = ()) -> tuple[list[Any] | None, str]:
    """The node set: the domain of per-node variables, when it is a set the cfg gives or Next
    quantifies an action parameter over (``Server == 1..N``, ``\\E s \\in Server``)."""
    from specula.tla import values as V

    known = list(const_sets) + [q for q in quantified if q not in const_sets]
    doms: Counter[frozenset[Any]] = Counter()
    for v in templates.values():
        if v.__class__ is V.Fn and v:
            keys = frozenset(v.keys())
            if any(k == keys for k in known) or not all(isinstance(k, str) for k in keys):
                doms[keys] += 1
        elif v.__class__ is tuple and v:
            # a function over 1..N: per-node only when the cfg or Next's quantifiers give 1..N
            keys = frozenset(range(1, len(v) + 1))
            if any(k == keys for k in known):
                doms[keys] += 1
    if doms:
        best, _ = doms.most_common(1)[0]
        name = next((n for n, c in constants.items() if _same_set(c, best)), "")
        if not name and best not in const_sets:
            name = "a set Next quantifies over"
        return V.ordered(best), f"domain of per-node variables{' (' + name + ')' if name else ''}"
    if len(const_sets) == 1:
        return V.ordered(const_sets[0]), "the cfg's only constant set"
    return None, ""


def _same_set(c: Any, s: frozenset[Any]) -> bool:
    from specula.tla import values as V

    try:
        return V.from_python(c) == s
    except Exception:  # noqa: BLE001
        return False



def check_step_over_domains(model: Any, b: Bound, domains: dict[str, dict[str, list]]) -> Any:
    """The engine needs every parameter of an action Next does not split out (it sits under a
    state-level \\E): enumerate the unbound ones over the constant domains Next quantifies them
    over, one check_step each; the first passing verdict wins, else the most informative one."""
    import itertools

    if b.action not in domains:
        domains[b.action] = param_domains(model, b.action)
    doms = domains[b.action]
    params = [p for p in action_params(model, b.action) if p not in b.params]
    if any(p not in doms for p in params):
        return None
    failing = []
    for combo in itertools.product(*(doms[p] for p in params)):
        ps = {**b.params, **dict(zip(params, combo))}
        try:
            v = model.check_step(b.action, b.pre, b.post, ps, b.free or None)
        except EvalError:
            continue
        if v.ok:
            return v
        failing.append(v)
    if not failing:
        return None
    # the guard held for some parameters: the post-state mismatch is the diagnosis
    with_mm = [v for v in failing if getattr(v, "mismatched", None)]
    if with_mm:
        return with_mm[0]

    def depth(v: Any) -> tuple[int, int]:
        # conjuncts run in source order: the latest false conjunct got furthest
        span = getattr(getattr(v, "false_conjunct", None), "span", None)
        return (getattr(span, "line", 0) or 0, getattr(span, "col", 0) or 0)

    return max(failing, key=depth)


def action_params(model: Any, action: str) -> tuple[str, ...]:
    d = getattr(model.root, "names", {}).get(action)
    return tuple(p.name for p in getattr(getattr(d, "node", None), "params", ()) or ())


def param_domains(model: Any, action: str) -> dict[str, list]:
    """Constant-level domains of ``action``'s parameters where Next calls it under ``\\E x \\in S``."""
    from specula.tla import ast as A
    from specula.tla.values import enumerate_set, ordered

    names = getattr(model.root, "names", {})
    d = names.get(action)
    if d is None:
        return {}
    formals = [p.name for p in d.node.params]
    nxt = getattr(model, "next_name", None)
    nxt = getattr(nxt, "name", nxt)
    nd = names.get(nxt) if isinstance(nxt, str) else None
    body = getattr(getattr(nd, "node", None), "body", None) if nd is not None else getattr(model, "next_name", None)
    out: dict[str, list] = {}
    seen: set[str] = set()

    def const_domain(expr: Any) -> list | None:
        try:
            fn, deps = model.compiler.expr(expr, model.env)
            if deps:
                return None
            return ordered(enumerate_set(fn(None, None, model.compiler.frame)))
        except Exception:  # noqa: BLE001 - state-level or infinite: not enumerable here
            return None

    def visit(node: Any, bound: dict[str, Any], depth: int) -> None:
        if isinstance(node, A.Quant) and node.kind == "E":
            nb = dict(bound)
            for bd in node.bounds:
                for nm in bd.names:
                    nb[nm] = None if bd.tuple else bd.domain
            visit(node.body, nb, depth)
            return
        if isinstance(node, A.OpApp) and node.name == action and not node.prefix:
            for p, arg in zip(formals, node.args):
                if isinstance(arg, A.Name) and bound.get(arg.name) is not None and p not in out:
                    dom = const_domain(bound[arg.name])
                    if dom is not None:
                        out[p] = dom
            return
        if isinstance(node, (A.Name, A.OpApp)) and not getattr(node, "args", ()) and depth < 4:
            dd = names.get(node.name)
            if dd is not None and getattr(dd, "kind", "") == "op" and not dd.node.params and node.name not in seen:
                seen.add(node.name)
                visit(dd.node.body, {}, depth + 1)
                return
        for c in A.children(node):
            visit(c, bound, depth)

    if body is not None:
        visit(body, {}, 0)
    return out


def parameter_choices(model: Any, action: str, fixed: dict[str, Any], pre_state: Any,
                      limit: int = 1000) -> list[dict[str, Any]]:
    """Every choice of ``action``'s unfixed parameters as Next quantifies them, at most ``limit``
    (none when there are more). A domain that depends on the state (``\\E m \\in msgs``) or on
    earlier parameters is read in ``pre_state``; one that cannot be read here is skipped, so the
    list may be incomplete but never holds a choice Next does not offer."""
    from specula.errors import EvalError as _EvalError
    from specula.tla.values import ValueFault

    frame = getattr(getattr(model, "compiler", None), "frame", None)
    out: list[dict[str, Any]] = []
    seen: set[tuple] = set()

    def domain(vals: Any, slots: list[tuple[int, Any]]) -> list | None:
        if vals is None:
            return None
        if isinstance(vals, (list, tuple)):
            return list(vals)
        values = getattr(vals, "values", None)
        if not callable(values) or frame is None or pre_state is None:
            return None
        for k, v in slots:
            frame[k] = v
        try:
            return list(values(pre_state, None, frame))
        except (_EvalError, ValueFault, TypeError, KeyError, IndexError, RecursionError):
            return None

    def walk(binders: list, i: int, acc: dict[str, Any], slots: list[tuple[int, Any]]) -> bool:
        if len(out) > limit:
            return False
        if i == len(binders):
            key = tuple(sorted((k, repr(v)) for k, v in acc.items()))
            if key not in seen:
                seen.add(key)
                out.append(dict(acc))
            return True
        nm, k, vals = binders[i]
        if nm in fixed:
            return walk(binders, i + 1, acc, slots + [(k, fixed[nm])])
        dom = domain(vals, slots)
        if dom is None:
            return True
        for v in dom:
            if not walk(binders, i + 1, {**acc, nm: v}, slots + [(k, v)]):
                return False
        return True

    infos = [a for a in model.actions if a.name == action]
    if not infos:  # an action Next reaches only under a state-level \\E: its constant domains
        doms = param_domains(model, action)
        infos_binders = [[(p, -1, doms.get(p)) for p in action_params(model, action)]]
    else:
        infos_binders = [[tuple(b)[:3] for b in (getattr(a, "binders", ()) or ())] for a in infos]
    for binders in infos_binders:
        if not walk(binders, 0, {}, []):
            return []
    return out if len(out) <= limit else []


def variables_read(model: Any, action: str, depth: int = 6) -> set[str] | None:
    """The spec variables ``action`` reads, through the operators it calls: every occurrence
    except ``UNCHANGED v`` and ``v' = v`` (which only copy a value). ``None`` when the action's
    text cannot be found (then every variable counts as read)."""
    from specula.tla import ast as A

    names = getattr(getattr(model, "root", None), "names", None)
    if not isinstance(names, dict):
        return None
    d = names.get(action)
    body = getattr(getattr(d, "node", None), "body", None)
    if body is None:
        return None
    variables = set(model.variables)
    out: set[str] = set()
    seen: set[str] = set()

    def copies(n: Any) -> bool:
        if isinstance(n, A.OpApp) and n.name == "UNCHANGED":
            return True
        return (isinstance(n, A.OpApp) and n.name == "=" and len(n.args) == 2 and isinstance(n.args[0], A.Prime)
                and isinstance(n.args[0].expr, A.Name) and isinstance(n.args[1], A.Name)
                and n.args[0].expr.name == n.args[1].name)

    def visit(node: Any, d: int) -> None:
        stack = [node]
        while stack:
            n = stack.pop()
            if copies(n):
                continue
            if isinstance(n, (A.Name, A.OpApp)) and not getattr(n, "prefix", ()):
                nm = n.name
                if nm in variables:
                    out.add(nm)
                else:
                    dd = names.get(nm)
                    if dd is not None and getattr(dd, "kind", "") == "op" and nm not in seen and d < depth:
                        seen.add(nm)
                        b = getattr(dd.node, "body", None)
                        if b is not None:
                            visit(b, d + 1)
            stack.extend(A.children(n))

    visit(body, 0)
    return out
