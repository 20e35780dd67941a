"""General temporal formulas: TLA+ -> LTL over state/action atoms -> a tableau (GPVW) automaton.

Used for the PROPERTY shapes the direct patterns of ``liveness.py`` do not cover (disjunctions
and implications between temporal formulas, nesting such as ``<>[](P => <>Q)``, ``[]`` over
temporal formulas, ``WF``/``SF`` inside boolean combinations, non-fairness temporal conjuncts
of the SPECIFICATION ...). As TLC does, the *negated* property is turned into a tableau and its
product with the state graph is searched for a fair cycle that fulfils every promise (see
``liveness_product.py``).

A formula is a tuple: ``("T",)``, ``("F",)``, ``("lit", atom, positive)``, ``("and", a, b)``,
``("or", a, b)``, ``("U", a, b)``, ``("R", a, b)``. Atoms are numbered; each is a state
predicate (evaluated on the current state) or an action (evaluated on the step from the current
state to the next one; at a stuttering step on ``(s, s)``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from specula.tla import ast as A
from specula.tla.compile import PRIME
from specula.tla.values import enumerate_set, ordered, tla_eq

__all__ = ["Atom", "Tableau", "Unsupported", "Translator", "tableau", "neg"]

TRUE = ("T",)
FALSE = ("F",)


class Unsupported(Exception):
    pass


@dataclass
class Atom:
    kind: str  # "state" | "action"
    fn: Callable  # (s) -> bool | (s, t) -> bool
    text: str = ""


# --------------------------------------------------------------------------- formulas


def _and(a: tuple, b: tuple) -> tuple:
    if a == FALSE or b == FALSE:
        return FALSE
    if a == TRUE:
        return b
    if b == TRUE:
        return a
    return ("and", a, b)


def _or(a: tuple, b: tuple) -> tuple:
    if a == TRUE or b == TRUE:
        return TRUE
    if a == FALSE:
        return b
    if b == FALSE:
        return a
    return ("or", a, b)


def neg(f: tuple) -> tuple:
    """Negation in negation normal form."""
    k = f[0]
    if k == "T":
        return FALSE
    if k == "F":
        return TRUE
    if k == "lit":
        return ("lit", f[1], not f[2])
    if k == "and":
        return _or(neg(f[1]), neg(f[2]))
    if k == "or":
        return _and(neg(f[1]), neg(f[2]))
    if k == "U":
        return ("R", neg(f[1]), neg(f[2]))
    if k == "R":
        return ("U", neg(f[1]), neg(f[2]))
    raise ValueError(f)


def always(f: tuple) -> tuple:
    return ("R", FALSE, f) if f not in (TRUE, FALSE) else f


def eventually(f: tuple) -> tuple:
    return ("U", TRUE, f) if f not in (TRUE, FALSE) else f


# --------------------------------------------------------------------------- TLA+ -> LTL

_TEMPORAL = frozenset({"[]", "<>", "~>", "-+->"})


class Translator:
    """Translates temporal TLA+ expressions of one model into LTL formulas over shared atoms."""

    def __init__(self, model: Any, make_fair: Any = None) -> None:
        """``make_fair``: liveness_product.make_fair (passed in: that module builds on this one),
        needed for ENABLED <<A>>_v atoms."""
        self.make_fair = make_fair
        comp = getattr(model, "compiler", None)
        if comp is None:
            raise Unsupported("the model offers no compiler")
        self.comp = comp
        self.env = model.env
        self.frame = comp.frame
        self.atoms: list[Atom] = []
        self._atom_ids: dict[tuple, int] = {}

    # ---------------------------------------------------------------- atoms
    def atom(self, node: Any, env: Any, positive: bool = True) -> tuple:
        fn, deps = self.comp.expr(node, env)
        frame = self.frame
        key = (id(node), id(env))
        aid = self._atom_ids.get(key)
        if aid is None:
            aid = len(self.atoms)
            self._atom_ids[key] = aid
            if PRIME in deps:
                self.atoms.append(Atom("action", lambda s, t, fn=fn: fn(s, t, frame) is True, _text(node)))
            else:
                self.atoms.append(Atom("state", lambda s, fn=fn: fn(s, None, frame) is True, _text(node)))
        return ("lit", aid, positive)

    def enabled_atom(self, angle: Any, env: Any) -> tuple:
        """ENABLED <<A>>_v: A run as an action from the state, a successor with v' # v."""
        key = ("enabled", id(angle.action), id(angle.sub), id(env))
        aid = self._atom_ids.get(key)
        if aid is None:
            if self.make_fair is None:
                raise Unsupported("ENABLED <<A>>_v needs the fairness builder")
            f = self.make_fair(_FairBox, self.comp, "WF", angle.action, angle.sub, env, "ENABLED")
            if f.succ is not None and f.sub is not None:
                def en(s: Any, f: Any = f) -> bool:
                    if f.succ is not None:
                        try:
                            v0 = f.sub(s)
                            return any(not tla_eq(f.sub(t), v0) for t in f.succ(s))
                        except Exception:
                            f.succ = None
                    return fallback(s)
            else:
                en = None  # type: ignore[assignment]
            node = A.OpApp("ENABLED", (A.And((angle.action, A.OpApp("~", (A.OpApp("UNCHANGED", (angle.sub,)),))),),))
            fn, _ = self.comp.expr(node, env)
            frame = self.frame
            fallback = lambda s, fn=fn: fn(s, None, frame) is True  # noqa: E731
            aid = len(self.atoms)
            self._atom_ids[key] = aid
            self.atoms.append(Atom("state", en or fallback, "ENABLED"))
        return ("lit", aid, True)

    # ---------------------------------------------------------------- unfolding
    def unfold(self, node: Any, env: Any) -> tuple[Any, Any] | None:
        """One definition step: a name or operator application -> its body (with bindings)."""
        comp = self.comp
        try:
            if isinstance(node, A.OpApp) and node.prefix:
                op, ienv = comp.instance_op(node, env)
                if op.native is not None or op.body is None or len(op.params) != len(node.args):
                    return None
                return op.body, self._bind(op, node.args, env, op.env or ienv)
            if isinstance(node, A.Name) or (isinstance(node, A.OpApp) and node.name not in _BUILTINS):
                if isinstance(node, A.OpApp) and comp.builtin_ops.get(node.name) is not None and node.name not in env.locals:
                    return None
                b = comp.resolve(node.name, env, getattr(node, "span", None))
                if b[0] == "expr" and not getattr(node, "args", ()):
                    return b[1], b[2]
                if b[0] == "op" and b[1].native is None and b[1].body is not None:
                    op = b[1]
                    args = getattr(node, "args", ())
                    if len(args) != len(op.params):
                        return None
                    return op.body, self._bind(op, args, env, op.env or env)
        except Exception:
            return None
        return None

    def _bind(self, op: Any, args: tuple, env: Any, base: Any) -> Any:
        if not args:
            return base
        binds = {}
        for p, a in zip(op.params, args):
            b = self.comp.arg_binding(p, a, env)
            if b[0] == "lazy":
                b = ("expr", a, env)
            binds[p.name] = b
        return base.bind(binds)

    def is_temporal(self, node: Any, env: Any, depth: int = 0, seen: set | None = None) -> bool:
        seen = seen if seen is not None else set()
        if depth > 60:
            return False
        if isinstance(node, (A.Fairness, A.TemporalQuant)):
            return True
        if isinstance(node, A.OpApp) and node.name in _TEMPORAL and not node.prefix:
            return True
        if isinstance(node, A.OpApp) and node.name == "ENABLED":
            return False
        if isinstance(node, (A.Name, A.OpApp)):
            key = (id(node), id(env))
            if key not in seen:
                seen.add(key)
                u = self.unfold(node, env)
                if u is not None and self.is_temporal(u[0], u[1], depth + 1, seen):
                    return True
        if isinstance(node, (A.Let, A.Lambda)):
            return False
        return any(self.is_temporal(c, env, depth + 1, seen) for c in A.children(node))

    # ---------------------------------------------------------------- translation
    def translate(self, node: Any, env: Any, depth: int = 0) -> tuple:
        if depth > 200:
            raise Unsupported("temporal formula nested too deeply")
        d = depth + 1
        if isinstance(node, A.Bool):
            return TRUE if node.value else FALSE
        if isinstance(node, A.And) or (isinstance(node, A.OpApp) and node.name == "/\\" and not node.prefix):
            if not self.is_temporal(node, env):
                return self.atom(node, env)
            f = TRUE
            for a in node.args:
                f = _and(f, self.translate(a, env, d))
            return f
        if isinstance(node, A.Or) or (isinstance(node, A.OpApp) and node.name == "\\/" and not node.prefix):
            if not self.is_temporal(node, env):
                return self.atom(node, env)
            f = FALSE
            for a in node.args:
                f = _or(f, self.translate(a, env, d))
            return f
        if isinstance(node, A.Fairness):
            angle = A.AngleAction(node.action, node.sub)
            step = self.atom(angle, env)
            en = self.enabled_atom(angle, env)
            if node.kind == "WF":  # <>[]EN => []<>step
                return _or(always(eventually(neg(en))), always(eventually(step)))
            return _or(eventually(always(neg(en))), always(eventually(step)))  # SF: []<>EN => []<>step
        if isinstance(node, A.TemporalQuant):
            raise Unsupported("temporal quantifiers \\AA / \\EE are not supported")
        if isinstance(node, (A.BoxAction, A.AngleAction)):
            return self.atom(node, env)
        if isinstance(node, A.Quant) and self.is_temporal(node.body, env):
            return self._quant(node, env, d)
        if isinstance(node, A.If) and self.is_temporal(node, env):
            c = self.translate(node.cond, env, d)
            return _or(_and(c, self.translate(node.then, env, d)), _and(neg(c), self.translate(node.else_, env, d)))
        if isinstance(node, A.OpApp) and not node.prefix and node.name in ("[]", "<>", "~>", "~", "=>", "<=>", "-+->"):
            args = node.args
            if node.name == "-+->":
                raise Unsupported("-+-> is not supported")
            if not self.is_temporal(node, env):
                return self.atom(node, env)
            if node.name == "[]":
                return always(self.translate(args[0], env, d))
            if node.name == "<>":
                return eventually(self.translate(args[0], env, d))
            if node.name == "~>":
                p, q = self.translate(args[0], env, d), self.translate(args[1], env, d)
                return always(_or(neg(p), eventually(q)))
            if node.name == "~":
                return neg(self.translate(args[0], env, d))
            if node.name == "=>":
                return _or(neg(self.translate(args[0], env, d)), self.translate(args[1], env, d))
            p, q = self.translate(args[0], env, d), self.translate(args[1], env, d)
            return _or(_and(p, q), _and(neg(p), neg(q)))
        if isinstance(node, (A.Name, A.OpApp)) and self.is_temporal(node, env):
            u = self.unfold(node, env)
            if u is None:
                raise Unsupported(f"cannot unfold {_text(node)} in a temporal formula")
            return self.translate(u[0], u[1], d)
        if self.is_temporal(node, env):
            raise Unsupported(f"temporal formula of this shape ({type(node).__name__})")
        return self.atom(node, env)

    def _quant(self, node: Any, env: Any, depth: int) -> tuple:
        envs = [env]
        for b in node.bounds:
            if b.domain is None or b.tuple:
                raise Unsupported("unbounded or tuple quantifier over a temporal formula")
            new = []
            for e in envs:
                dom = self.comp.expr(b.domain, e)[0](None, None, self.frame)
                vals = list(ordered(enumerate_set(dom)))
                combos: list[dict] = [{}]
                for nm in b.names:
                    combos = [dict(c, **{nm: ("const", v)}) for c in combos for v in vals]
                new.extend(e.bind(c) for c in combos)
            envs = new
        f = TRUE if node.kind == "A" else FALSE
        for e in envs:
            g = self.translate(node.body, e, depth)
            f = _and(f, g) if node.kind == "A" else _or(f, g)
        return f


@dataclass
class _FairBox:
    kind: str
    text: str
    step: Callable
    succ: Callable | None = None
    sub: Callable | None = None
    labels: frozenset | None = None
    whole: bool = False  # v is the tuple of every variable: <<A>>_v steps are the state changes


_BUILTINS = frozenset({"[]", "<>", "~>", "-+->", "/\\", "\\/", "~", "=>", "<=>", "ENABLED"})


def _text(node: Any) -> str:
    return type(node).__name__ if not hasattr(node, "name") else str(getattr(node, "name"))


# --------------------------------------------------------------------------- tableau (GPVW)


@dataclass
class Tableau:
    """A generalized Büchi automaton: node ``i`` has literal sets, successors, acceptance."""

    init: list[int]
    succ: list[list[int]]
    state_lits: list[tuple[tuple[int, bool], ...]]
    action_lits: list[tuple[tuple[int, bool], ...]]
    accept: list[frozenset[int]]  # one set of nodes per U-subformula
    promises: list[tuple] = field(default_factory=list)


def tableau(formula: tuple, atoms: list[Atom], max_nodes: int = 5000) -> Tableau:
    """Gerth-Peled-Vardi-Wolper construction for an NNF formula."""
    nodes: list[dict] = []  # {incoming:set, old:frozenset, next:frozenset}
    index: dict[tuple, int] = {}
    INIT = -1
    untils: set[tuple] = set()

    def collect(f: tuple) -> None:
        if f[0] in ("and", "or", "U", "R"):
            if f[0] == "U":
                untils.add(f)
            collect(f[1])
            collect(f[2])

    collect(formula)
    # worklist of (incoming, new, old, next)
    stack: list[tuple[set, list, set, set]] = [({INIT}, [formula], set(), set())]
    while stack:
        incoming, new, old, nxt = stack.pop()
        if not new:
            key = (frozenset(old), frozenset(nxt))
            j = index.get(key)
            if j is not None:
                nodes[j]["incoming"] |= incoming
                continue
            j = len(nodes)
            if j >= max_nodes:
                raise Unsupported("the property's tableau is too large")
            index[key] = j
            nodes.append({"incoming": set(incoming), "old": frozenset(old), "next": frozenset(nxt)})
            stack.append(({j}, list(nxt), set(), set()))
            continue
        f = new.pop()
        if f in old:
            stack.append((incoming, new, old, nxt))
            continue
        k = f[0]
        if k == "F":
            continue
        if k == "T":
            stack.append((incoming, new, old, nxt))
            continue
        if k == "lit":
            if ("lit", f[1], not f[2]) in old:
                continue
            stack.append((incoming, new, old | {f}, nxt))
            continue
        if k == "and":
            stack.append((incoming, new + [f[1], f[2]], old | {f}, nxt))
            continue
        if k == "or":
            stack.append((incoming, new + [f[1]], old | {f}, set(nxt)))
            stack.append((set(incoming), new + [f[2]], old | {f}, set(nxt)))
            continue
        if k == "U":  # a U b = b \/ (a /\ X(a U b))
            stack.append((incoming, new + [f[1]], old | {f}, nxt | {f}))
            stack.append((set(incoming), new + [f[2]], old | {f}, set(nxt)))
            continue
        if k == "R":  # a R b = (a /\ b) \/ (b /\ X(a R b))
            stack.append((incoming, new + [f[2]], old | {f}, nxt | {f}))
            stack.append((set(incoming), new + [f[1], f[2]], old | {f}, set(nxt)))
            continue
        raise ValueError(f)
    n = len(nodes)
    succ: list[list[int]] = [[] for _ in range(n)]
    init: list[int] = []
    for j, nd in enumerate(nodes):
        for i in nd["incoming"]:
            if i == INIT:
                init.append(j)
            else:
                succ[i].append(j)
    state_lits, action_lits = [], []
    for nd in nodes:
        lits = [(f[1], f[2]) for f in nd["old"] if f[0] == "lit"]
        state_lits.append(tuple(sorted(x for x in lits if atoms[x[0]].kind == "state")))
        action_lits.append(tuple(sorted(x for x in lits if atoms[x[0]].kind == "action")))
    accept = []
    for u in sorted(untils, key=repr):
        accept.append(frozenset(j for j, nd in enumerate(nodes) if u not in nd["old"] or u[2] in nd["old"]))
    return Tableau(sorted(init), [sorted(set(s)) for s in succ], state_lits, action_lits, accept, sorted(untils, key=repr))
