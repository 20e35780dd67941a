"""Product of a tableau with the explored state graph; search for a fair, fulfilling cycle.

Nodes of the product are pairs (graph state, tableau node). Every state may stutter (TLC adds a
stuttering step to every state of the behavior graph). A product node is allowed when the state
satisfies the tableau node's state literals; a product edge when the step satisfies its action
literals. The product is built on the fly by an iterative Tarjan search from the initial pairs;
each strongly connected component with an edge is tested (Emerson-Lei, as TLC's liveness
checker): it must visit every acceptance set of the tableau (the promises ``a U b`` are kept),
and be fair for every ``WF_v(A)`` (an ``<<A>>_v`` step in it, or a state where it is not enabled)
and ``SF_v(A)`` (an ``<<A>>_v`` step, or no state enabling it: otherwise the enabling states are
removed and the rest searched again).
"""

from __future__ import annotations

import time
from array import array
from collections import deque
from typing import Any, Callable

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla.compile import UNSET, Unassigned
from specula.tla.liveness_ltl import Atom, Tableau
from specula.tla.values import tla_eq

__all__ = ["FairEval", "ProductSearch", "tarjan"]


def action_labels(model: Any, action: Any, env: Any) -> frozenset[int] | None:
    """The model actions whose steps are exactly the steps of ``action`` (None: unknown).

    ``frozenset()`` with every index when ``action`` is the next-state relation itself; the one
    split action with that name when it has no \\E-split parameters."""
    if model is None or not isinstance(action, (A.Name, A.OpApp)) or getattr(action, "args", ()) \
            or getattr(action, "prefix", ()) or action.name in env.locals:
        return None
    scope, root = getattr(env, "scope", None), getattr(getattr(model, "env", None), "scope", object())
    if scope is not root:
        # an EXTENDed module's definition is the root's own (the same Definition, no
        # substitution); an instance's action (refinement) is not the model's
        if getattr(scope, "substitutions", True) or getattr(scope, "names", {}).get(action.name) is None \
                or scope.names.get(action.name) is not getattr(root, "names", {}).get(action.name):
            return None
    nxt = getattr(model, "next_name", None)
    actions = getattr(model, "actions", None) or []
    if isinstance(nxt, (A.Name, A.OpApp)) and not getattr(nxt, "args", ()) and nxt.name == action.name:
        return frozenset(range(len(actions)))
    same = [a for a in actions if a.name == action.name]
    if len(same) == 1 and not same[0].params and not same[0].binders:
        return frozenset({same[0].index})
    return None


def make_fair(cls: type, comp: Any, kind: str, action: Any, sub: Any, env: Any, text: str,
              model: Any = None) -> Any:
    """A fairness condition ``kind_sub(action)`` as ``cls(kind, text, step, succ, sub)``: ``step``
    evaluates ``<<A>>_v`` on a pair of states; ``succ`` enumerates the successors of A from a
    state (like the next-state relation, exact ENABLED, one run per state instead of one
    evaluation per edge: the generated code of A where the generator takes it, else its
    closures); ``sub`` evaluates v; ``whole`` tells that v is the tuple of every variable (then
    ``<<A>>_v`` steps are the steps that change the state)."""
    frame = comp.frame
    fn, _ = comp.expr(A.AngleAction(action, sub), env)
    step = lambda s, t, fn=fn: fn(s, t, frame) is True  # noqa: E731
    succ = None
    vfn = None
    try:
        vfn = comp.expr(sub, env)[0]
        gen = getattr(model, "action_successors", None)
        succ = gen(action, env) if gen is not None else None
        if succ is None:
            nv = len(comp.var_index)
            box: list = []

            def fin(s: Any, n: list, e: list) -> None:
                if any(x is UNSET for x in n):
                    raise Unassigned("the action leaves a variable unassigned", None)
                box.append(tuple(n))

            run = comp.action(action, env.with_(primed=False), fin)

            def succ(s: Any, run: Any = run, box: list = box) -> list:
                box.clear()
                run(s, [UNSET] * nv, frame)
                out = list(box)
                box.clear()
                return out
    except Exception:
        succ = None
    sub_fn = None if vfn is None else (lambda s, vfn=vfn: vfn(s, None, frame))
    f = cls(kind, text, step, succ, sub_fn)
    try:
        f.labels = action_labels(model, action, env)
    except Exception:
        f.labels = None
    try:
        f.whole = whole_state(comp, sub, env)
    except Exception:
        f.whole = False
    return f


def whole_state(comp: Any, sub: Any, env: Any) -> bool:
    """Whether the subscript ``v`` (through definitions) is a variable or a tuple of variables
    naming every variable of the model: then ``v' = v`` exactly when the state is unchanged."""
    names: set[int] = set()

    def walk(node: Any, env: Any, depth: int) -> bool:
        if depth > 20:
            return False
        if isinstance(node, A.Tuple):
            return all(walk(x, env, depth + 1) for x in node.elems)
        if isinstance(node, A.Name) or (isinstance(node, A.OpApp) and not node.args and not node.prefix):
            b = comp.resolve(node.name, env, None)
            if b[0] == "var":
                names.add(b[1])
                return True
            if b[0] == "op" and b[1].native is None and b[1].body is not None and not b[1].params:
                return walk(b[1].body, b[1].env or env, depth + 1)
        return False

    return walk(sub, env, 0) and len(names) == len(comp.var_index)


class FairEval:
    """Lazily evaluated fairness facts over the graph: <<A>>_v steps and ENABLED <<A>>_v.

    The facts of a state whose successors are all known never change: ``adopt`` moves them to
    the next, larger graph of the same search (a periodic check's facts serve the next check)."""

    def __init__(self, g: Any, fairness: list, deadline: float | None = None) -> None:
        self.g = g
        self.fair = fairness
        self.out = g.out_edges()
        n, m = len(g.states), len(g.src)
        self._step = [bytearray(m) for _ in fairness]  # 0 unknown, 1 no, 2 yes
        self._en = [bytearray(n) for _ in fairness]
        self._any = bytearray(n)  # some condition enabled in the state: 0 unknown, 1 no, 2 yes
        self.deadline = deadline
        self.fills = 0
        cfg = getattr(getattr(g, "model", None), "cfg", None)
        # CONSTRAINTs may cut A's successors out of the graph: ENABLED then needs A itself
        self.cut = cfg is None or bool(getattr(cfg, "constraints", None) or getattr(cfg, "action_constraints", None))
        self.by_label = getattr(g, "key", None) is None
        # v is every variable: <<A>>_v steps are A's steps to another state (states are distinct
        # values without VIEW/SYMMETRY)
        self.whole = [self.by_label and bool(getattr(f, "whole", False)) for f in fairness]
        # the conditions read off the edges' labels first (no action run), in their order
        cheap = [self.by_label and getattr(f, "labels", None) is not None and f.sub is not None for f in fairness]
        self.order = [k for k in range(len(fairness)) if cheap[k]] + [k for k in range(len(fairness)) if not cheap[k]]

    def adopt(self, g: Any, deadline: float | None) -> bool:
        """Take the next graph of the same search (the same state list, grown; edges recorded by
        source): the facts of the states explored in the previous graph are kept, those of the
        others forgotten. False when the graph is not such a growth (then build a new one)."""
        old = self.g
        if g.states is not old.states or len(g.states) < len(old.states) or len(g.src) < len(old.src) \
                or g.key is not old.key or g.model is not old.model:
            return False
        out = g.out_edges()
        if not hasattr(out, "off") or not hasattr(self.out, "off"):
            return False
        keep = min(old.n_explored, g.n_explored)  # states whose facts stay true
        m_keep = out.off[keep]
        if m_keep != self.out.off[keep]:
            return False
        n, m = len(g.states), len(g.src)
        for k in range(len(self.fair)):
            self._step[k] = self._step[k][:m_keep] + bytes(m - m_keep)
            self._en[k] = self._en[k][:keep] + bytes(n - keep)
        self._any = self._any[:keep] + bytes(n - keep)
        self.g, self.out, self.deadline = g, out, deadline
        return True

    def any_enabled(self, s: int) -> bool:
        """Whether some fairness condition is enabled in state s (labels first, then by order)."""
        v = self._any[s]
        if v == 0:
            en = self.enabled
            v = self._any[s] = 2 if any(en(k, s) for k in self.order) else 1
        return v == 2

    def _fill(self, k: int, s: int) -> bool:
        """Mark the out-edges of s that are <<A_k>>_v steps and whether <<A_k>>_v is enabled:
        from the edges' action labels when A_k is Next or one unparameterised split action,
        else by running A_k once from s."""
        f = self.fair[k]
        labels = getattr(f, "labels", None)
        if labels is not None and self.by_label and f.sub is not None:
            g = self.g
            states, dst, act = g.states, g.dst, g.act
            good: set[int] = set()
            v0: Any = None
            out = self.out[s]
            if self.whole[k]:  # v is the whole state: every step to another state changes it
                for e in out:
                    t = dst[e]
                    if t != s and act[e] in labels:
                        good.add(t)
            else:
                for e in out:
                    t = dst[e]
                    if t != s and act[e] in labels and t not in good:
                        if v0 is None:
                            v0 = f.sub(states[s])
                        if not tla_eq(f.sub(states[t]), v0):
                            good.add(t)
            if good or not self.cut:
                m = self._step[k]
                for e in out:
                    m[e] = 2 if dst[e] in good else 1
                self._en[k][s] = 2 if good else 1
                return True
        succ, sub = f.succ, f.sub
        if succ is None or sub is None:
            return False
        g = self.g
        states = g.states
        st = states[s]
        self.fills += 1
        if self.deadline is not None and not self.fills & 255 and time.monotonic() > self.deadline:
            raise TimeoutError
        try:
            succs = succ(st)
        except (Unassigned, EvalError):
            # A cannot be run as an action (a variable left free, primes through an instance
            # substitution ...): evaluate <<A>>_v per edge instead
            f.succ = None
            return False
        if succs and self.whole[k]:
            moved = [t for t in succs if t != st]
        elif succs:
            v0 = sub(st)
            moved = [t for t in succs if not tla_eq(sub(t), v0)]
        else:
            moved = succs
        m = self._step[k]
        dst = g.dst
        if moved:
            for e in self.out[s]:
                m[e] = 2 if states[dst[e]] in moved else 1
            self._en[k][s] = 2
        else:
            for e in self.out[s]:
                m[e] = 1
            self._en[k][s] = 1
        return True

    def step(self, k: int, e: int) -> bool:
        """Whether graph edge e is an <<A_k>>_v step."""
        m = self._step[k]
        v = m[e]
        if v == 0:
            g = self.g
            if self._fill(k, g.src[e]):
                return m[e] == 2
            s, t = g.src[e], g.dst[e]
            ok = s != t and bool(self.fair[k].step(g.states[s], g.states[t]))
            m[e] = v = 2 if ok else 1
        return v == 2

    def enabled(self, k: int, s: int) -> bool:
        """ENABLED <<A_k>>_v in state s (evaluated on the state, as TLC; read off the graph
        when A cannot be run as an action)."""
        m = self._en[k]
        v = m[s]
        if v == 0:
            if self._fill(k, s):
                return m[s] == 2
            ok = any(self.step(k, e) for e in self.out[s])
            m[s] = v = 2 if ok else 1
        return v == 2


def tarjan(roots: Any, succ: Callable[[int], Any], size: int, arrays: bool) -> Any:
    """Tarjan's strongly connected components (iterative) of the nodes reachable from ``roots``
    (ints below ``size``) through ``succ`` (a node's successors, already filtered: any
    iterable); yields each component, a list of nodes, as it completes (successors' components
    first). ``arrays``: index arrays over every node id (a large part of them is visited), else
    dicts. A node whose component is complete gets an index above every other, so the low-link
    update needs no on-stack test."""
    index: Any
    low: Any
    done = size + 1 if arrays else 1 << 62
    if arrays:
        typ = "i" if size < 2**31 - 2 else "q"
        index, low = array(typ, [-1]) * size, array(typ, [0]) * size
        get = index.__getitem__
    else:
        index, low = {}, {}
        get = lambda v, d=index: d.get(v, -1)  # noqa: E731
    stack: list[int] = []
    push = stack.append
    counter = 0
    for root in roots:
        if get(root) >= 0:
            continue
        index[root] = low[root] = counter
        counter += 1
        push(root)
        work = [(root, iter(succ(root)))]
        while work:
            v, it = work[-1]
            lv = low[v]
            for w in it:
                iw = get(w)
                if iw < 0:
                    low[v] = lv
                    index[w] = low[w] = counter
                    counter += 1
                    push(w)
                    work.append((w, iter(succ(w))))
                    break
                if iw < lv:
                    lv = iw
            else:
                work.pop()
                if work:
                    u = work[-1][0]
                    if lv < low[u]:
                        low[u] = lv
                if lv == index[v]:
                    w = stack.pop()
                    index[w] = done
                    if w == v:
                        yield [v]
                        continue
                    comp = [w]
                    while w != v:
                        w = stack.pop()
                        index[w] = done
                        comp.append(w)
                    yield comp


class ProductSearch:
    """The product of a tableau with the graph, explored on the fly. A product node (s, q) is the
    integer ``s * nq + q``; per state, the tableau nodes whose state literals hold are one
    bitmask, computed at the first visit."""

    def __init__(self, g: Any, tab: Tableau, atoms: list[Atom], fe: FairEval, deadline: float | None,
                 memo: Any = None) -> None:
        self.g, self.tab, self.atoms, self.fe, self.deadline = g, tab, atoms, fe, deadline
        self.nq = nq = len(tab.succ)
        n = len(g.states)
        self.n_exp = g.n_explored if hasattr(g, "n_explored") else n
        self.out = g.out_edges()
        # values of the state atoms by state, of the action atoms by step, the tableau nodes a
        # state's literals allow: from ``memo`` (liveness.LiveMemo), they serve the next check
        if memo is not None:
            self._smemo = [memo.values(a.fn, n) if a.kind == "state" else None for a in atoms]
            self._amemo: list[dict] = [memo.steps_of(a.fn) for a in atoms]
            self._okm: list[int] = memo.okmask(tab, n)
        else:
            self._smemo = [bytearray(n) if a.kind == "state" else None for a in atoms]
            self._amemo = [{} for _ in atoms]
            self._okm = [-1] * n  # per state: the tableau nodes its state literals allow
        self.qsucc = [sum(1 << q2 for q2 in tab.succ[q]) for q in range(nq)]
        self.selfloop = [q in tab.succ[q] for q in range(nq)]
        self.acc_masks = [sum(1 << q for q in acc) for acc in tab.accept]
        self.ticks = 0
        self._succs: dict[int, list[int]] = {}  # for the SF sub-searches and the lasso

    # ------------------------------------------------------------------ atoms
    def gsucc(self, s: int) -> list[int]:
        """The graph successors of s other than s (each once, in edge order), then s (it may
        stutter); none for a state whose successors are not known yet."""
        if s >= self.n_exp:
            return []
        dst = self.g.dst
        out = self.out[s]
        if out.__class__ is range:
            ts = list(dict.fromkeys(dst[out.start:out.stop]))
        else:
            ts = list(dict.fromkeys([dst[e] for e in out]))
        if s in ts:
            ts.remove(s)
        ts.append(s)
        return ts

    def edge(self, s: int, t: int) -> int:
        """The first graph edge from s to t (-1 for a stuttering step)."""
        if s == t:
            return -1
        dst = self.g.dst
        return next(e for e in self.out[s] if dst[e] == t)

    def okmask(self, s: int) -> int:
        m = self._okm[s]
        if m < 0:
            m = 0
            for q in range(self.nq):
                if self.state_ok(q, s):
                    m |= 1 << q
            self._okm[s] = m
        return m

    def state_ok(self, q: int, s: int) -> bool:
        st = self.g.states[s]
        for a, pos in self.tab.state_lits[q]:
            m = self._smemo[a]
            v = m[s]
            if v == 0:
                self.g.at_state(s)
                v = 2 if self.atoms[a].fn(st) else 1
                m[s] = v
            if (v == 2) != pos:
                return False
        return True

    def action_ok(self, q: int, s: int, t: int) -> bool:
        lits = self.tab.action_lits[q]
        if not lits:
            return True
        states = self.g.states
        for a, pos in lits:
            m = self._amemo[a]
            key = (s, t)
            v = m.get(key)
            if v is None:
                self.g.at_state(s)
                v = bool(self.atoms[a].fn(states[s], states[t]))
                m[key] = v
            if v != pos:
                return False
        return True

    # ------------------------------------------------------------------ product graph
    def state_of(self, u: int) -> int:
        return u // self.nq

    def succ(self, u: int) -> list[int]:
        """The product successors of u, in the graph's edge order and then by tableau node."""
        nq = self.nq
        s, q = divmod(u, nq)
        qm = self.qsucc[q]
        lits = self.tab.action_lits[q]
        r: list[int] = []
        okm = self._okm
        for t in self.gsucc(s):
            m = okm[t]
            if m < 0:
                m = self.okmask(t)
            bits = m & qm
            if not bits or (lits and not self.action_ok(q, s, t)):
                continue
            base = t * nq
            while bits:
                low = bits & -bits
                r.append(base + low.bit_length() - 1)
                bits ^= low
        self.ticks += 1
        if self.deadline is not None and not self.ticks & 1023 and time.monotonic() > self.deadline:
            raise TimeoutError
        return r

    def initial(self) -> list[int]:
        out = []
        n_exp, nq = self.n_exp, self.nq
        for s in self.g.inits:
            if s >= n_exp:  # no known successor: on no cycle, leads to none
                continue
            m = self.okmask(s)
            for q in self.tab.init:
                if m >> q & 1:
                    out.append(s * nq + q)
        return out

    # ------------------------------------------------------------------ SCCs
    def sccs(self, roots: list[int], allowed: Callable[[int], bool] | None) -> Any:
        """Tarjan over the product from ``roots`` (within ``allowed``); yields components."""
        size = len(self.g.states) * self.nq
        if allowed is None:
            return tarjan(roots, self.succ, size, size <= 40_000_000)
        succ = self.succ
        return tarjan([r for r in roots if allowed(r)], lambda u: [w for w in succ(u) if allowed(w)], size, False)

    def succ_memo(self, u: int) -> list[int]:
        r = self._succs.get(u)
        if r is None:
            r = self._succs[u] = self.succ(u)
        return r

    def fair_component(self, comp: list[int]) -> tuple[set[int], list] | None:
        nq = self.nq
        fe = self.fe
        if len(comp) == 1:
            # one product node: its only cycle is stuttering in its state, if its tableau node
            # has a self-loop; fair when no fairness condition is enabled there
            u = comp[0]
            s, q = divmod(u, nq)
            if s >= self.n_exp or not self.selfloop[q] or not self.action_ok(q, s, s):
                return None
            for am in self.acc_masks:
                if not am >> q & 1:
                    return None
            wit: list = [("node", u) for _ in self.acc_masks]
            for k, f in enumerate(fe.fair):
                if fe.enabled(k, s):
                    return None
                if f.kind == "WF":
                    wit.append(("node", u))
            return {u}, wit
        cset = set(comp)
        inner = []
        for u in comp:
            s = u // nq
            for v in self.succ_memo(u):
                if v in cset:
                    inner.append((u, v, self.edge(s, v // nq)))
        wit = []
        for acc in self.acc_masks:
            hit = next((u for u in comp if acc >> (u % nq) & 1), None)
            if hit is None:
                return None
            wit.append(("node", hit))
        remove: set[int] = set()
        for k, f in enumerate(fe.fair):
            e_hit = next((x for x in inner if x[2] >= 0 and fe.step(k, x[2])), None)
            if e_hit is not None:
                wit.append(("edge", e_hit))
                continue
            if f.kind == "WF":
                off = next((u for u in comp if not fe.enabled(k, u // nq)), None)
                if off is None:
                    return None
                wit.append(("node", off))
            else:
                remove.update(u for u in comp if fe.enabled(k, u // nq))
        if remove:
            rest = cset - remove
            if not rest:
                return None
            for sub in self.sccs(sorted(rest), rest.__contains__):
                found = self.fair_component(sub)
                if found is not None:
                    return found
            return None
        return cset, wit

    def search(self) -> tuple[list[int], set[int], list] | None:
        """A fair fulfilling component reachable from the initial pairs, with its witnesses."""
        init = self.initial()
        for comp in self.sccs(init, None):
            found = self.fair_component(comp)
            if found is not None:
                return init, found[0], found[1]
        return None

    # ------------------------------------------------------------------ lasso
    def path(self, sources: list[int], targets: Callable[[int], bool], region: Callable[[int], bool] | None) -> list[tuple[int, int, int]] | None:
        """Shortest product path [(u, v, graph edge)] from a source to a target (may be empty)."""
        parent: dict[int, tuple[int, int] | None] = {}
        q: deque[int] = deque()
        for s in sources:
            if s not in parent:
                parent[s] = None
                q.append(s)
        while q:
            v = q.popleft()
            if targets(v):
                out = []
                while parent[v] is not None:
                    u, e = parent[v]  # type: ignore[misc]
                    out.append((u, v, e))
                    v = u
                out.reverse()
                return out
            sv = v // self.nq
            for w in self.succ_memo(v):
                if w in parent or (region is not None and not region(w)):
                    continue
                parent[w] = (v, self.edge(sv, w // self.nq))
                q.append(w)
        return None

    def lasso(self, init: list[int], comp: set[int], wit: list) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
        pre = self.path(init, comp.__contains__, None) or []
        entry = pre[-1][1] if pre else next(u for u in init if u in comp)
        inside = comp.__contains__
        cyc: list[tuple[int, int, int]] = []
        cur = entry
        for kind, w in wit:
            if kind == "edge":
                u, v, e = w
                to = self.path([cur], (lambda x, u=u: x == u), inside) or []
                cyc += to + [w]
                cur = v
            else:
                to = self.path([cur], (lambda x, w=w: x == w), inside) or []
                cyc += to
                cur = w
        if cur != entry or not cyc:
            # back to the entry (a non-empty path when the cycle is still empty)
            if cur == entry:
                v0 = next(v for v in self.succ_memo(cur) if v in comp)
                first = (v0, self.edge(cur // self.nq, v0 // self.nq))
                cyc.append((cur, first[0], first[1]))
                cur = first[0]
            if cur != entry:
                cyc += self.path([cur], (lambda x: x == entry), inside) or []
        return pre, cyc
