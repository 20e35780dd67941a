"""Liveness checking over the state graph the BFS explored: fair cycles, lasso counterexamples.

TLC's semantics: a PROPERTY is violated when some behavior of the graph (every state may stutter)
that satisfies the SPECIFICATION's fairness violates it. Each PROPERTY is split into obligations;
the common shapes are decided directly on the graph, an obligation being violated exactly when
the graph has a *fair* cycle of a given shape reachable in a given way:

=====================  =========================================================================
``[]<>P``              a fair cycle inside the ``~P`` states
``<>[]P``              a fair cycle that visits a ``~P`` state
``<>P``                a fair cycle reached from an initial state through ``~P`` states only
``P ~> Q``             a fair cycle reached through ``~Q`` states from a ``P /\\ ~Q`` state
``[]<><<A>>_v``        a fair cycle without an ``<<A>>_v`` step
``WF_v(A)`` (property) a fair cycle without ``<<A>>_v`` steps where A is always enabled
``SF_v(A)`` (property) a fair cycle without ``<<A>>_v`` steps that visits a state enabling A
=====================  =========================================================================

Every other temporal formula (boolean combinations, nesting, ...) goes through the tableau of
its negation and a product with the graph (``liveness_ltl``, ``liveness_product``), as TLC does.

Conjunctions, definitions, instances (``Abs!Spec``) and ``\\A x \\in S`` are unfolded; state
predicates and ``[][A]_v`` parts are left to the safety search.

Fairness comes from the SPECIFICATION's conjuncts ``WF_v(A)`` / ``SF_v(A)`` (also under
``\\A p \\in S`` and through operators with arguments); its other temporal conjuncts are assumptions
conjoined into the tableau. A strongly connected component is fair for ``WF_v(A)`` when it has an
``<<A>>_v`` step or a state where ``<<A>>_v`` is not enabled; for ``SF_v(A)`` when it has an
``<<A>>_v`` step or no state enabling it, otherwise the enabling states are removed and the rest
searched again (Emerson-Lei). Steps and ENABLED are evaluated lazily (``FairEval``): from the
edges' action labels when A is Next or one split action, else by running A once per state.
"""

from __future__ import annotations

import functools
import time
from array import array
from bisect import bisect_left
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla import liveness_ltl as L
from specula.tla.compile import PRIME
from specula.tla.liveness_product import FairEval, ProductSearch, make_fair, tarjan
from specula.tla.values import enumerate_set, ordered

__all__ = ["Obligation", "Fair", "Graph", "LiveMemo", "LivenessResult", "liveness_plan", "check_liveness"]

State = tuple


@dataclass
class Obligation:
    prop: str  # the PROPERTY name it comes from
    kind: str  # "AE" | "EA" | "E" | "LT" | "AE_step" | "WF" | "SF"
    text: str  # human description
    p: Callable[[State], bool] | None = None  # state predicate (P, or Q for E)
    q: Callable[[State], bool] | None = None  # second predicate (LT: Q)
    step: Any = None  # <<A>>_v as a Fair (step predicate + successor enumerator)
    tab: Any = None  # "LTL": tableau of the negated formula (liveness_ltl.Tableau)
    atoms: list | None = None  # "LTL": the tableau's atoms


@dataclass
class Fair:
    kind: str  # "WF" | "SF"
    text: str
    step: Callable[[State, State], bool]  # <<A>>_v on a pair of states
    succ: Callable[[State], list] | None = None  # successors of A (None: evaluate step per edge)
    sub: Callable[[State], Any] | None = None  # v
    labels: frozenset | None = None  # model actions whose edges are exactly A's steps (None: unknown)
    whole: bool = False  # v is the tuple of every variable: <<A>>_v steps are the state changes


@dataclass
class Graph:
    """The explored graph: states by index, initial state indices, edges (src, dst, action)."""

    states: list
    inits: list[int]
    src: array
    dst: array
    act: array
    labels: list[str]
    key: Any = None  # VIEW / SYMMETRY / fingerprint key of a state (None: the state itself)
    model: Any = None  # to rebuild concrete counterexamples when states are representatives
    # states 0 .. explored-1 have all their successors recorded; the others (the search's queue,
    # when the graph is checked while it grows) have unknown successors and are left out of
    # every cycle, so any lasso found is a real one (None: the graph is complete)
    explored: int | None = None
    _out: list[list[int]] | None = None
    # TLCGet("queue") as TLC's state predicates of temporal properties see it: the queue size right
    # after the state's successors were generated (set into tlc_stats before evaluating at a state)
    queue_at: Any = None
    tlc_stats: dict | None = None

    def at_state(self, i: int) -> None:
        """Make TLCGet("queue") read what it read when state i was explored."""
        if self.tlc_stats is not None and self.queue_at is not None:
            self.tlc_stats["queue"] = self.queue_at[i] if i < len(self.queue_at) else 0

    @property
    def n_explored(self) -> int:
        return len(self.states) if self.explored is None else min(self.explored, len(self.states))

    def out_edges(self) -> Any:
        """Per state, its out-edge ids (a sequence of ranges when the edges are sorted by source,
        as the search records them; else lists)."""
        if self._out is None:
            self._out = _out_ranges(self.src, len(self.states))
        return self._out


class _Ranges:
    """Out-edges by state when edge ids are sorted by source: ``r[v]`` is ``range(off[v], off[v+1])``."""

    __slots__ = ("off",)

    def __init__(self, off: array) -> None:
        self.off = off

    def __getitem__(self, v: int) -> range:
        off = self.off
        return range(off[v], off[v + 1])

    def __len__(self) -> int:
        return len(self.off) - 1


def _out_ranges(src: array, n: int) -> Any:
    m = len(src)
    off = array("q", bytes(8 * (n + 1)))
    prev = -1
    for e in range(m):
        u = src[e]
        if u != prev:
            if u < prev:
                break
            for v in range(prev + 1, u + 1):
                off[v] = e
            prev = u
    else:
        for v in range(prev + 1, n + 1):
            off[v] = m
        return _Ranges(off)
    out: list[list[int]] = [[] for _ in range(n)]
    for e, u in enumerate(src):
        out[u].append(e)
    return out


@dataclass
class LivenessResult:
    prop: str
    violated: bool
    text: str = ""
    prefix: list[tuple[str | None, State]] = field(default_factory=list)  # lasso: prefix + cycle
    loop_to: int | None = None  # 1-based state number the last state steps back to
    loop_label: str | None = None  # the action of that last step
    stuttering: bool = False  # the lasso ends by stuttering forever in its last state
    stopped: bool = False


class Unsupported(Exception):
    pass


# --------------------------------------------------------------------------- formula analysis

def unfold_definition(comp: Any, node: Any, env: Any) -> tuple[Any, Any] | None:
    """A zero-argument reference to a user definition (also ``I!Op``) -> (its body, the env of
    the body), or None when ``node`` is anything else."""
    try:
        if isinstance(node, A.OpApp) and node.prefix and not node.args:
            op, ienv = comp.instance_op(node, env)
            if op.body is not None and not op.params and op.native is None:
                return op.body, op.env or ienv
            return None
        nm = node.name if isinstance(node, A.Name) or (isinstance(node, A.OpApp) and not node.args) else None
        if nm is None or nm in env.locals:
            return None
        b = comp.resolve(nm, env, getattr(node, "span", None))
    except Exception:
        return None
    if b[0] == "op" and b[1].native is None and b[1].body is not None and not b[1].params:
        return b[1].body, b[1].env or env
    return None



def _tools(model: Any) -> tuple[Any, Any, Any]:
    comp = getattr(model, "compiler", None)
    env = getattr(model, "env", None)
    node_of = getattr(model, "expr_node", None)
    if comp is None or env is None or node_of is None:
        raise Unsupported("the model offers no compiler")
    return comp, env, node_of


_TEMPORAL_OPS = frozenset({"[]", "<>", "~>", "-+->"})


def has_temporal(comp: Any, node: Any, env: Any, _seen: set | None = None, _depth: int = 0) -> bool:
    """Whether ``node`` (through the definitions it uses) contains a temporal operator."""
    seen = _seen if _seen is not None else set()
    if _depth > 200:
        return False
    if isinstance(node, (A.Fairness, A.TemporalQuant)):
        return True
    if isinstance(node, A.OpApp) and node.name in _TEMPORAL_OPS and not node.prefix:
        return True
    if isinstance(node, (A.Name, A.OpApp)):
        target = None
        try:
            if isinstance(node, A.OpApp) and node.prefix:
                op, ienv = comp.instance_op(node, env)
                if op.body is not None and op.native is None:
                    target = (op.body, op.env or ienv)
            elif node.name not in env.locals:
                b = comp.resolve(node.name, env, None)
                if b[0] == "op" and b[1].native is None and b[1].body is not None:
                    target = (b[1].body, b[1].env or env)
        except Exception:
            target = None
        if target is not None and id(target[0]) not in seen:
            seen.add(id(target[0]))
            if has_temporal(comp, target[0], target[1], seen, _depth + 1):
                return True
    for child in A.children(node) if hasattr(A, "children") else ():
        if has_temporal(comp, child, env, seen, _depth + 1):
            return True
    return False


def liveness_plan(model: Any, cfg: Any, names: Iterable[str], general_only: bool = False) -> tuple[list[Obligation], list[Fair], dict[str, str]]:
    """Obligations for the temporal parts of the named properties, the spec's fairness, and for
    each property that cannot be handled the reason (it stays "not checked"). ``general_only``
    sends every property through the tableau (used to test the direct patterns against it)."""
    comp, env0, node_of = _tools(model)
    frame = comp.frame
    obligations: list[Obligation] = []
    unsupported: dict[str, str] = {}

    unfold = functools.partial(unfold_definition, comp)

    def unfold_all(node: Any, env: Any) -> tuple[Any, Any]:
        for _ in range(30):
            u = unfold(node, env)
            if u is None:
                break
            node, env = u
        return node, env

    def state_pred(node: Any, env: Any) -> Callable[[State], bool] | None:
        if has_temporal(comp, node, env):
            return None
        try:
            fn, deps = comp.expr(node, env)
        except Exception:
            return None
        if PRIME in deps:
            return None
        return lambda s, fn=fn: fn(s, None, frame) is True

    def angle(action: Any, sub: Any, env: Any) -> Fair:
        return make_fair(Fair, comp, "step", action, sub, env, "<<A>>_v", model)

    def expand_quant(node: Any, env: Any) -> list[Any]:
        """\\A x \\in S : body -> one env per binding (constant-level domains only)."""
        envs = [env]
        for b in node.bounds:
            if b.domain is None or b.tuple:
                raise Unsupported("unbounded or tuple quantifier in a temporal formula")
            new = []
            for e in envs:
                dom = comp.expr(b.domain, e)[0](None, None, frame)
                for v in ordered(enumerate_set(dom)):
                    new.append(e.bind({n: ("const", v) for n in b.names}) if len(b.names) == 1 else None)
                    if len(b.names) != 1:
                        raise Unsupported("several names bound at once in a temporal quantifier")
            envs = new
        return envs

    def is_op(node: Any, name: str) -> bool:
        return isinstance(node, A.OpApp) and node.name == name and not node.prefix

    translator: list = []

    def general(prop: str, node: Any, env: Any, assume: list | None = None) -> Obligation:
        """Any other temporal formula: the tableau of its negation (liveness_ltl), conjoined
        with the SPECIFICATION's other temporal assumptions."""
        if not translator:
            translator.append(L.Translator(model, make_fair))
        tr = translator[0]
        try:
            f = L.neg(tr.translate(node, env))
            for anode, aenv in assume or ():
                f = L._and(f, tr.translate(anode, aenv))
            tab = L.tableau(f, tr.atoms)
        except L.Unsupported as exc:
            raise Unsupported(str(exc)) from None
        return Obligation(prop, "LTL", "temporal formula", tab=tab, atoms=tr.atoms)

    def walk(prop: str, node: Any, env: Any, out: list[Obligation], depth: int = 0) -> None:
        if depth > 60:
            raise Unsupported("formula nested too deeply")
        node, env = unfold_all(node, env)
        if isinstance(node, A.And) or is_op(node, "/\\"):
            for a in node.args:
                walk(prop, a, env, out, depth + 1)
            return
        if isinstance(node, A.Quant) and node.kind == "A":
            for e in expand_quant(node, env):
                walk(prop, node.body, e, out, depth + 1)
            return
        if state_pred(node, env) is not None:
            return  # checked on initial states by the safety search
        if is_op(node, "[]") and len(node.args) == 1:
            x, xenv = unfold_all(node.args[0], env)
            if isinstance(x, A.BoxAction) or state_pred(x, xenv) is not None:
                return  # [][A]_v and []P: safety search
            if is_op(x, "<>") and len(x.args) == 1:
                y, yenv = unfold_all(x.args[0], xenv)
                if isinstance(y, A.AngleAction):
                    out.append(Obligation(prop, "AE_step", "[]<><<A>>_v", step=angle(y.action, y.sub, yenv)))
                    return
                p = state_pred(y, yenv)
                if p is not None:
                    out.append(Obligation(prop, "AE", "[]<>P", p=p))
                    return
            if is_op(x, "=>") and len(x.args) == 2:
                lhs = state_pred(x.args[0], xenv)
                r, renv = unfold_all(x.args[1], xenv)
                if lhs is not None and is_op(r, "<>") and len(r.args) == 1:
                    q = state_pred(r.args[0], renv)
                    if q is not None:
                        out.append(Obligation(prop, "LT", "P ~> Q", p=lhs, q=q))
                        return
            if isinstance(x, A.Quant) and x.kind == "A":
                for e in expand_quant(x, xenv):
                    walk(prop, A.OpApp("[]", (x.body,)), e, out, depth + 1)
                return
            if isinstance(x, A.And) or is_op(x, "/\\"):
                for a in x.args:
                    walk(prop, A.OpApp("[]", (a,)), xenv, out, depth + 1)
                return
            out.append(general(prop, node, env))
            return
        if is_op(node, "<>") and len(node.args) == 1:
            x, xenv = unfold_all(node.args[0], env)
            if is_op(x, "[]") and len(x.args) == 1:
                p = state_pred(x.args[0], xenv)
                if p is not None:
                    out.append(Obligation(prop, "EA", "<>[]P", p=p))
                    return
            p = state_pred(x, xenv)
            if p is not None:
                out.append(Obligation(prop, "E", "<>P", p=p))
                return
            if isinstance(x, A.AngleAction):
                out.append(Obligation(prop, "E_step", "<><<A>>_v", step=angle(x.action, x.sub, xenv)))
                return
            out.append(general(prop, node, env))
            return
        if is_op(node, "~>") and len(node.args) == 2:
            p = state_pred(node.args[0], env)
            q = state_pred(node.args[1], env)
            if p is not None and q is not None:
                out.append(Obligation(prop, "LT", "P ~> Q", p=p, q=q))
                return
            out.append(general(prop, node, env))
            return
        if isinstance(node, A.Fairness):
            out.append(Obligation(prop, node.kind, f"{node.kind}_v(A)", step=angle(node.action, node.sub, env)))
            return
        out.append(general(prop, node, env))
        return

    for name in names:
        out: list[Obligation] = []
        try:
            walk(name, node_of(name), env0, out)
        except Unsupported as exc:
            unsupported[name] = str(exc)
            continue
        except Exception as exc:  # evaluation problems while unfolding: report, do not guess
            unsupported[name] = f"cannot analyse: {exc}"
            continue
        obligations.extend(out)

    extras: list = []
    fairness = spec_fairness(model, cfg, extras)
    if extras or general_only:
        # other temporal assumptions of the SPECIFICATION: every property is checked by the
        # tableau of (assumptions /\ ~property)
        obligations = []
        for name in names:
            if name in unsupported:
                continue
            try:
                obligations.append(general(name, node_of(name), env0, extras))
            except Unsupported as exc:
                unsupported[name] = str(exc)
    return obligations, fairness, unsupported


def spec_fairness(model: Any, cfg: Any, extras: list | None = None) -> list[Fair]:
    """WF/SF conjuncts of the SPECIFICATION (through definitions, operators with arguments and
    \\A quantifiers). Other temporal conjuncts (not Init, not [][Next]_v) are appended to
    ``extras`` as (node, env): they constrain the behaviors like fairness does."""
    name = getattr(cfg, "specification", None)
    if not name:
        return []
    comp, env0, node_of = _tools(model)
    frame = comp.frame
    tr = L.Translator(model, make_fair)
    out: list[Fair] = []

    def walk(node: Any, env: Any, depth: int = 0) -> None:
        if depth > 60:
            return
        if isinstance(node, A.And) or (isinstance(node, A.OpApp) and node.name == "/\\" and not node.prefix):
            for a in node.args:
                walk(a, env, depth + 1)
            return
        if isinstance(node, A.Fairness):
            out.append(make_fair(Fair, comp, node.kind, node.action, node.sub, env, node.kind, model))
            return
        if isinstance(node, A.BoxAction):
            return  # [][Next]_v: the graph itself
        if isinstance(node, A.OpApp) and node.name == "[]" and not node.prefix and isinstance(node.args[0], A.BoxAction):
            return
        if isinstance(node, A.Quant) and node.kind == "A" and tr.is_temporal(node.body, env):
            envs = [env]
            for b in node.bounds:
                if b.domain is None or b.tuple:
                    if extras is not None:
                        extras.append((node, env))
                    return
                new = []
                for e in envs:
                    vals = list(ordered(enumerate_set(comp.expr(b.domain, e)[0](None, None, frame))))
                    combos: list[dict] = [{}]
                    for nm in b.names:
                        combos = [dict(c, **{nm: ("const", v)}) for c in combos for v in vals]
                    new.extend(e.bind(c) for c in combos)
                envs = new
            for e in envs:
                walk(node.body, e, depth + 1)
            return
        if isinstance(node, (A.Name, A.OpApp)) and tr.is_temporal(node, env):
            u = tr.unfold(node, env)
            if u is not None:
                walk(u[0], u[1], depth + 1)
                return
        if tr.is_temporal(node, env) and extras is not None:
            extras.append((node, env))

    walk(node_of(name), env0)
    return out


# --------------------------------------------------------------------------- graph algorithms


def _sccs(nodes: list[int], out: Any, dst: array, edge_ok: Callable[[int], bool] | None, n_all: int,
          roots: list[int] | None = None) -> Iterable[list[int]]:
    """Tarjan's SCCs of the subgraph induced by ``nodes`` (those reachable from ``roots`` in it,
    when given), yielded as they complete. Arrays for large subgraphs, dicts for small ones;
    ``edge_ok`` None: every edge."""
    mask = bytearray(n_all)
    for v in nodes:
        mask[v] = 1
    if edge_ok is None and hasattr(out, "off"):  # edges sorted by source: slices of dst
        off = out.off

        def succ(v: int) -> Any:
            return filter(mask.__getitem__, dst[off[v]:off[v + 1]])
    elif edge_ok is None:
        def succ(v: int) -> Any:
            return filter(mask.__getitem__, [dst[e] for e in out[v]])
    else:
        def succ(v: int) -> list[int]:
            return [dst[e] for e in out[v] if mask[dst[e]] and edge_ok(e)]
    return tarjan(nodes if roots is None else roots, succ, n_all, len(nodes) * 8 > n_all)


def _always(e: int) -> bool:
    """Every edge (fair_scc and _sccs recognise it and skip the test)."""
    return True


@dataclass
class LiveMemo:
    """What the checks of one search's growing graph share: the fairness facts and the values
    of the state predicates at the states explored (the successors of a state explored at one
    check are the same at the next, and a state predicate's value is the state's), so each
    periodic check and the final one evaluate them only on the states explored since."""

    fair: FairEval | None = None
    steps: dict = field(default_factory=dict)  # id(Fair) -> (Fair, FairEval([Fair])) of obligations
    preds: dict = field(default_factory=dict)  # id(fn) -> (fn, values: 0 unknown, 1 false, 2 true)
    states: Any = None  # the state list the values are of
    known: int = 0  # the values of states below this stay true
    # id(Obligation) -> (Obligation, n): the obligation held on the graph of the first n explored
    # states (no fair component there), for the direct forms that read no reachability
    held: dict = field(default_factory=dict)
    okms: dict = field(default_factory=dict)  # id(Tableau) -> (Tableau, tableau nodes allowed by state)
    pairs: dict = field(default_factory=dict)  # id(fn) -> (fn, {(s, t): value}) of action atoms

    def start(self, g: Graph) -> None:
        """A check of ``g`` begins: forget the values of states not explored at the last check."""
        if g.states is not self.states or g.n_explored < self.known:
            self.preds.clear()
            self.fair = None
            self.steps.clear()
            self.held.clear()
            self.okms.clear()
            self.pairs.clear()  # steps are only ever evaluated from explored states: kept
            self.states = g.states
        keep = self.known
        n = len(g.states)
        for k, (fn, vals) in list(self.preds.items()):
            self.preds[k] = (fn, vals[:keep] + bytes(n - keep))
        for _, okm in self.okms.values():
            del okm[keep:]
            okm.extend([-1] * (n - keep))
        self.known = g.n_explored

    def fair_eval(self, g: Graph, fairness: list, deadline: float | None, key: Any = None) -> FairEval:
        """The fairness facts of ``fairness`` on ``g`` (carried over from the last check)."""
        if key is None:
            fe = self.fair
            if fe is None or fe.fair is not fairness or not fe.adopt(g, deadline):
                fe = self.fair = FairEval(g, fairness, deadline)
            return fe
        got = self.steps.get(id(key))
        if got is None or got[0] is not key or not got[1].adopt(g, deadline):
            got = self.steps[id(key)] = (key, FairEval(g, fairness, deadline))
        return got[1]

    def okmask(self, tab: Any, n: int) -> list[int]:
        got = self.okms.get(id(tab))
        if got is None or got[0] is not tab:
            got = self.okms[id(tab)] = (tab, [-1] * n)
        return got[1]

    def steps_of(self, fn: Callable[..., Any]) -> dict:
        got = self.pairs.get(id(fn))
        if got is None or got[0] is not fn:
            got = self.pairs[id(fn)] = (fn, {})
        return got[1]

    def values(self, fn: Callable[[State], Any], n: int) -> bytearray:
        got = self.preds.get(id(fn))
        if got is None or got[0] is not fn:
            got = self.preds[id(fn)] = (fn, bytearray(n))
        return got[1]


_TRUE_01 = bytes.maketrans(bytes([0, 1, 2]), bytes([0, 0, 1]))  # values -> 1 where true
_FALSE_01 = bytes.maketrans(bytes([0, 1, 2]), bytes([0, 1, 0]))  # values -> 1 where false


class _LazyMask:
    """A state predicate (or its negation) evaluated on demand, memoised per state."""

    __slots__ = ("ck", "fn", "negate", "memo", "count")

    def __init__(self, ck: "_Checker", fn: Callable[[State], bool], negate: bool) -> None:
        self.ck, self.fn, self.negate = ck, fn, negate
        self.memo = ck.memo.values(fn, len(ck.g.states))
        self.count = 0

    def __getitem__(self, i: int) -> bool:
        v = self.memo[i]
        if v == 0:
            self.count += 1
            if not self.count & 255:
                self.ck.tick()
            self.ck.g.at_state(i)
            v = 2 if bool(self.fn(self.ck.g.states[i])) else 1
            self.memo[i] = v
        return (v == 2) != self.negate


class _Checker:
    def __init__(self, g: Graph, fairness: list[Fair], deadline: float | None, memo: LiveMemo | None = None) -> None:
        self.g = g
        self.loop_label: str | None = None
        self.out = g.out_edges()
        self.fair = fairness
        self.deadline = deadline
        self.memo = memo if memo is not None else LiveMemo()
        self.memo.start(g)
        # per fairness constraint, evaluated lazily: <<A>>_v steps and states enabling <<A>>_v
        self.fe = self.memo.fair_eval(g, fairness, deadline)

    def tick(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise TimeoutError

    def step_mask(self, f: Fair) -> tuple[bytearray, bytearray]:
        """Edges that are <<A>>_v steps, states where <<A>>_v is enabled."""
        fe = self.memo.fair_eval(self.g, [f], self.deadline, key=f)
        n = len(self.g.states)
        steps = bytearray(len(self.g.src))
        en = bytearray(n)
        for s in range(self.g.n_explored):  # the others have no known edge and are on no cycle
            if not s & 255:
                self.tick()
            for e in self.out[s]:
                if fe.step(0, e):
                    steps[e] = 1
            if fe.enabled(0, s):
                en[s] = 1
        return steps, en

    def node_mask(self, fn: Callable[[State], bool], negate: bool = False) -> bytearray:
        """The predicate (1 where it holds, or where it does not with ``negate``) on the
        explored states (the others are on no cycle, lead to none)."""
        g = self.g
        vals = self.memo.values(fn, len(g.states))
        states = g.states
        n_exp = g.n_explored
        at = g.at_state
        first = vals.find(0, 0, n_exp)
        if first >= 0:
            for i in range(first, n_exp):
                if vals[i]:
                    continue
                if not i & 255:
                    self.tick()
                at(i)
                vals[i] = 2 if fn(states[i]) else 1
        m = vals.translate(_FALSE_01 if negate else _TRUE_01)
        m[n_exp:] = bytes(len(m) - n_exp)
        return m

    def fair_scc_since(self, ob: Obligation, nodes: list[int], node_ok: bytearray | None,
                       must: Any) -> tuple[list[int], list] | None:
        """``fair_scc(nodes, node_ok, every edge, must)`` for an obligation whose region is a
        state predicate (``[]<>P``, ``<>[]P``). When it held at the last check, on the first k
        explored states, a component without a state explored since is a component of that
        graph (the edges of the states explored then are all known), found unfair there: only
        the components reachable from the new states are searched. When one of them is fair,
        the whole search runs again, so that the counterexample is the one it finds."""
        memo = self.memo
        n_exp = self.g.n_explored
        held = memo.held.get(id(ob))
        if held is not None and held[0] is ob and held[1] <= n_exp:
            k = held[1]
            roots = nodes[bisect_left(nodes, k):]
            if self.fair_scc(nodes, node_ok, _always, must, roots) is None:
                memo.held[id(ob)] = (ob, n_exp)
                return None
        found = self.fair_scc(nodes, node_ok, _always, must)
        if found is None:
            memo.held[id(ob)] = (ob, n_exp)
        return found

    def fair_scc(self, nodes: list[int], node_ok: bytearray | None, edge_ok: Callable[[int], bool], must: bytearray | None,
                 roots: list[int] | None = None) -> tuple[list[int], list] | None:
        """A fair SCC within ``nodes`` (and its witnesses: edges/nodes the cycle must visit),
        among those reachable from ``roots`` when given (sorted, within ``nodes``).
        Fairness conditions read off the edges' labels are tried first: they reject most
        components before any action has to be run for ENABLED."""
        dst = self.g.dst
        fe = self.fe
        fair_list = self.fair
        order = fe.order
        n_exp = self.g.n_explored
        count = 0
        for comp in _sccs(nodes, self.out, dst, None if edge_ok is _always else edge_ok, len(self.g.states), roots):
            count += 1
            if not count & 255:
                self.tick()
            if len(comp) == 1:
                # one state: its only cycle stutters there (a self-loop is never a <<A>>_v step);
                # fair when no fairness condition is enabled in it
                v = comp[0]
                if v >= n_exp or fe.any_enabled(v):
                    continue
                if must is not None and not must[v]:
                    continue
                witnesses = [("node", v) for f in fair_list if f.kind == "WF"]
                if must is not None:
                    witnesses.insert(0, ("node", v))
                return comp, witnesses
            cset = set(comp)
            inner = [e for v in comp for e in self.out[v] if dst[e] in cset and edge_ok(e)]
            got: dict[int, tuple] = {}
            fair = True
            remove: set[int] = set()
            for k in order:
                e_hit = next((e for e in inner if fe.step(k, e)), None)
                if e_hit is not None:
                    got[k] = ("edge", e_hit)
                    continue
                if fair_list[k].kind == "WF":
                    off = next((v for v in comp if not fe.enabled(k, v)), None)
                    if off is None:
                        fair = False
                        break
                    got[k] = ("node", off)
                else:  # SF: no step in the component -> it must avoid the enabling states
                    ens = [v for v in comp if fe.enabled(k, v)]
                    if ens:
                        fair = False
                        remove.update(ens)
            if fair:
                witnesses = [got[k] for k in range(len(fair_list)) if k in got]
                if must is not None:  # checked after fairness: cheaper to reject unfair ones first
                    hit = next((v for v in comp if must[v]), None)
                    if hit is None:
                        continue
                    witnesses.insert(0, ("node", hit))
                return comp, witnesses
            if remove and len(remove) < len(comp):
                sub = [v for v in comp if v not in remove]
                found = self.fair_scc(sub, node_ok, edge_ok, must)
                if found is not None:
                    return found
        return None

    # ------------------------------------------------------------------ paths
    def path(self, sources: Iterable[int], targets: set[int], region: Callable[[int], bool], edge_ok: Callable[[int], bool] = lambda e: True) -> list[int] | None:
        """Shortest edge path (list of edge ids) from any source to any target within region;
        [] when a source is a target; None when unreachable."""
        parent: dict[int, int] = {}
        q: deque[int] = deque()
        for s in sources:
            if s in targets:
                return []
            if region(s) and s not in parent:
                parent[s] = -1
                q.append(s)
        dst = self.g.dst
        while q:
            v = q.popleft()
            for e in self.out[v]:
                if not edge_ok(e):
                    continue
                w = dst[e]
                if w in parent or not region(w):
                    continue
                parent[w] = e
                if w in targets:
                    edges = []
                    while parent[w] != -1:
                        e2 = parent[w]
                        edges.append(e2)
                        w = self.g.src[e2]
                    edges.reverse()
                    return edges
                q.append(w)
        return None

    def lasso(self, start_nodes: list[int], prefix_region: Callable[[int], bool], comp: list[int], witnesses: list, edge_ok: Callable[[int], bool]) -> tuple[list[tuple[str | None, State]], int | None, bool]:
        g = self.g
        cset = set(comp)
        inside = cset.__contains__
        pre = self.path(start_nodes, cset, prefix_region) or []
        # the first state of the lasso
        if pre:
            first = g.src[pre[0]]
            entry = g.dst[pre[-1]]
        else:
            entry = next((s for s in start_nodes if s in cset), comp[0])
            first = entry
        trace: list[tuple[str | None, State]] = [(None, g.states[first])]
        for e in pre:
            trace.append((g.labels[g.act[e]], g.states[g.dst[e]]))
        # the cycle: visit every witness, then come back to the entry
        cur = entry
        cyc: list[int] = []
        visited = {entry}
        for kind, w in witnesses:
            if kind == "edge":
                if w in cyc:
                    continue
                to = self.path([cur], {g.src[w]}, inside, edge_ok)
                if to is None:
                    continue
                cyc += to + [w]
                cur = g.dst[w]
            else:
                if w in visited:
                    continue
                to = self.path([cur], {w}, inside, edge_ok)
                if to is None:
                    continue
                cyc += to
                cur = w
            visited.update(g.dst[e] for e in cyc)
        if cur != entry or not cyc:
            back = self.path_nonempty(cur, entry, inside, edge_ok) if cur == entry else self.path([cur], {entry}, inside, edge_ok)
            cyc += back or []
        loop_at = len(trace)  # 1-based number of the entry state
        for e in cyc:
            trace.append((g.labels[g.act[e]], g.states[g.dst[e]]))
        if not cyc:
            return trace, None, True  # stutter forever in the entry state
        if trace and cyc and g.dst[cyc[-1]] == entry:
            trace.pop()  # the last step returns to the entry: print "Back to state"
            self.loop_label = g.labels[g.act[cyc[-1]]]
        return trace, loop_at, False

    def path_nonempty(self, u: int, v: int, region: Callable[[int], bool], edge_ok: Callable[[int], bool]) -> list[int] | None:
        dst = self.g.dst
        for e in self.out[u]:
            if edge_ok(e) and region(dst[e]):
                if dst[e] == v:
                    return [e]
                rest = self.path([dst[e]], {v}, region, edge_ok)
                if rest is not None:
                    return [e] + rest
        return None


def check_liveness(g: Graph, obligations: list[Obligation], fairness: list[Fair], max_seconds: float | None = None,
                   progress: Callable[[str], None] | None = None, progress_every: float = 5.0,
                   memo: LiveMemo | None = None) -> list[LivenessResult]:
    """Check every obligation on the graph; one result per property (first violation wins).
    ``progress`` gets a line at the start and then every ``progress_every`` seconds. ``memo``
    (one per search) carries what one check of the growing graph learnt to the next."""
    saved_queue = None if g.tlc_stats is None else g.tlc_stats.get("queue")
    try:
        return _check_liveness(g, obligations, fairness, max_seconds, progress, progress_every, memo)
    finally:
        if g.tlc_stats is not None and saved_queue is not None:
            g.tlc_stats["queue"] = saved_queue


def _check_liveness(g: Graph, obligations: list[Obligation], fairness: list[Fair], max_seconds: float | None,
                    progress: Callable[[str], None] | None, progress_every: float,
                    memo: LiveMemo | None) -> list[LivenessResult]:
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    if progress is not None:
        progress(f"{len(obligations)} temporal obligations on the complete graph of {len(g.states)} states "
                 f"and {len(g.src)} edges, {len(fairness)} fairness conditions")
    next_note = time.monotonic() + progress_every
    results: dict[str, LivenessResult] = {}
    ck = _Checker(g, fairness, deadline, memo)
    n = len(g.states)
    n_exp = g.n_explored  # states with unknown successors never belong to a cycle
    everything = list(range(n_exp))
    always = _always
    anywhere = lambda v: True  # noqa: E731
    stopped_at: int | None = None
    for done, ob in enumerate(obligations):
        if progress is not None and time.monotonic() >= next_note:
            progress(f"{done} of {len(obligations)} temporal obligations checked")
            next_note = time.monotonic() + progress_every
        if ob.prop in results and results[ob.prop].violated:
            continue
        try:
            found = None
            start, region = g.inits, anywhere
            edge_ok: Callable[[int], bool] = always
            if ob.kind == "LTL":  # tableau of ~F times the graph (liveness_product)
                res = _check_ltl(g, ob, ck.fe, deadline, ck.memo)
                if res is not None:
                    results[ob.prop] = res
                else:
                    results.setdefault(ob.prop, LivenessResult(ob.prop, False))
                continue
            if ob.kind == "AE":  # []<>P: fair cycle inside ~P
                notp = ck.node_mask(ob.p, negate=True)  # type: ignore[arg-type]
                nodes = [v for v in everything if notp[v]]
                found = ck.fair_scc_since(ob, nodes, notp, None)
            elif ob.kind == "EA":  # <>[]P: fair cycle visiting ~P
                notp = _LazyMask(ck, ob.p, True)  # type: ignore[assignment]
                found = ck.fair_scc_since(ob, everything, None, notp)
            elif ob.kind == "E":  # <>P: ~P from an initial state on, into a fair cycle
                notp = _LazyMask(ck, ob.p, True)  # type: ignore[assignment]
                # states not explored yet have no known successor: on no cycle, lead to none
                start = [i for i in g.inits if i < n_exp and notp[i]]
                reach = _reach(start, ck, lambda v: v < n_exp and bool(notp[v]))
                found = ck.fair_scc(sorted(reach), notp, always, None)
                region = lambda v, r=reach: v in r  # noqa: E731
            elif ob.kind == "LT":  # P ~> Q: from P /\ ~Q through ~Q into a fair cycle
                pm = ck.node_mask(ob.p)  # type: ignore[arg-type]
                notq = _LazyMask(ck, ob.q, True)  # only where P holds and along ~Q paths
                triggers = [v for v in everything if pm[v] and notq[v]]
                reach = _reach(triggers, ck, lambda v: v < n_exp and bool(notq[v]))
                found = ck.fair_scc(sorted(v for v in reach if v < n_exp), notq, always, None)
                if found is not None:
                    # prefix: initial state -> a trigger (any path), then ~Q path into the cycle
                    comp, wit = found
                    tail = ck.path(triggers, set(comp), lambda v, r=reach: v in r) or []
                    trig = g.src[tail[0]] if tail else next(t for t in triggers if t in set(comp))
                    head = ck.path(g.inits, {trig}, anywhere) or []
                    trace, loop_at, stut = ck.lasso([trig], lambda v, r=reach: v in r, comp, wit, always)
                    pre_states = [(None, g.states[g.src[head[0]]])] if head else []
                    for e in head:
                        pre_states.append((g.labels[g.act[e]], g.states[g.dst[e]]))
                    if pre_states:
                        trace = pre_states + trace[1:]
                        loop_at = None if loop_at is None else loop_at + len(pre_states) - 1
                    results[ob.prop] = LivenessResult(
                        ob.prop, True, f"Temporal property {ob.prop} ({ob.text}) is violated.", trace,
                        loop_to=loop_at, loop_label=ck.loop_label, stuttering=stut,
                    )
                    continue
            elif ob.kind in ("AE_step", "WF", "SF", "E_step"):
                steps, en = ck.step_mask(ob.step)  # type: ignore[arg-type]
                edge_ok = lambda e, m=steps: not m[e]  # noqa: E731
                if ob.kind == "AE_step":
                    found = ck.fair_scc(everything, None, edge_ok, None)
                elif ob.kind == "E_step":  # <><<A>>_v: a fair behavior that never takes it
                    reach = _reach(g.inits, ck, anywhere, edge_ok)
                    found = ck.fair_scc(sorted(v for v in reach if v < n_exp), None, edge_ok, None)
                    region = lambda v, r=reach: v in r  # noqa: E731
                else:
                    if ob.kind == "WF":
                        nodes = [v for v in everything if en[v]]
                        found = ck.fair_scc(nodes, en, edge_ok, None)
                    else:
                        found = ck.fair_scc(everything, None, edge_ok, en)
            if found is None:
                results.setdefault(ob.prop, LivenessResult(ob.prop, False))
                continue
            comp, wit = found
            trace, loop_at, stut = ck.lasso(start, region, comp, wit, edge_ok)
            results[ob.prop] = LivenessResult(
                ob.prop, True, f"Temporal property {ob.prop} ({ob.text}) is violated.", trace,
                loop_to=loop_at, loop_label=ck.loop_label, stuttering=stut,
            )
        except TimeoutError:
            results[ob.prop] = LivenessResult(ob.prop, False, "", stopped=True)
            stopped_at = stopped_at if stopped_at is not None else done
        except EvalError as exc:  # TLC stops with an error; we keep the other properties
            where = f" at {exc.span}" if getattr(exc, "span", None) is not None else ""
            results[ob.prop] = LivenessResult(
                ob.prop, False, f"liveness not checked: evaluation error{where}: {exc}", stopped=True)
    for r in results.values():
        if r.violated:
            _replay(g, r)
    if stopped_at is not None:
        how_far = (f"liveness check stopped at the time limit after {stopped_at} of {len(obligations)} temporal "
                   f"obligations (graph of {n} states, {len(g.src)} edges)")
        for r in results.values():
            if r.stopped and not r.text:
                r.text = how_far
    return list(results.values())


def _replay(g: Graph, res: LivenessResult) -> None:
    """With VIEW / SYMMETRY the graph keeps one representative per key, so consecutive lasso
    states need not be steps: rebuild concrete states by replaying the model along the keys
    (as TLC does; the loop then closes up to the key)."""
    if g.key is None or g.model is None or not res.prefix:
        return
    key, model = g.key, g.model
    want = [key(s) for _, s in res.prefix]
    cur = next((s for s in model.init_states() if key(s) == want[0]), None)
    if cur is None:
        return
    out: list[tuple[str | None, State]] = [(None, cur)]
    for (label, _), k in zip(res.prefix[1:], want[1:]):
        nxt, lab = None, None
        for ai, t in model.next_states(cur):
            if key(t) == k:
                if nxt is None or g.labels[ai] == label:
                    nxt, lab = t, g.labels[ai]
                if lab == label:
                    break
        if nxt is None:
            return  # keep the representatives
        out.append((lab, nxt))
        cur = nxt
    res.prefix = out


def _check_ltl(g: Graph, ob: Obligation, fe: FairEval, deadline: float | None, memo: LiveMemo | None = None) -> LivenessResult | None:
    """A fair behavior of the graph satisfying the negation of the formula, as a lasso."""
    ps = ProductSearch(g, ob.tab, ob.atoms or [], fe, deadline, memo)
    found = ps.search()
    if found is None:
        return None
    init, comp, wit = found
    pre, cyc = ps.lasso(init, comp, wit)
    states, labels = g.states, g.labels
    start = pre[0][0] if pre else (cyc[0][0] if cyc else next(u for u in init if u in comp))
    trace: list[tuple[str | None, State]] = [(None, states[ps.state_of(start)])]
    for _u, v, e in pre:
        if e >= 0:
            trace.append((labels[g.act[e]], states[ps.state_of(v)]))
    loop_at = len(trace)
    real = [(v, e) for _u, v, e in cyc if e >= 0]
    text = f"Temporal property {ob.prop} is violated."
    if not real:
        return LivenessResult(ob.prop, True, text, trace, None, None, True)
    for v, e in real:
        trace.append((labels[g.act[e]], states[ps.state_of(v)]))
    loop_label = trace.pop()[0]  # the last step goes back to the entry state
    return LivenessResult(ob.prop, True, text, trace, loop_at, loop_label, False)


def _reach(sources: Iterable[int], ck: _Checker, region: Callable[[int], bool], edge_ok: Callable[[int], bool] = lambda e: True) -> set[int]:
    seen = {s for s in sources if region(s)}
    q = deque(seen)
    dst = ck.g.dst
    while q:
        v = q.popleft()
        for e in ck.out[v]:
            w = dst[e]
            if w not in seen and edge_ok(e) and region(w):
                seen.add(w)
                q.append(w)
    return seen
