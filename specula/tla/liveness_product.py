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
from collections import deque
from typing import Any, Callable

from specula.errors import EvalError
from specula.tla import ast as A
from specula.tla.compile import UNSET, Unassigned
from specula.tla.liveness_ltl import Atom, Tableau
from specula.tla.values import tla_eq

__all__ = ["FairEval", "ProductSearch"]


def action_labels(model: Any, action: Any, env: Any) -> frozenset[int] | None:
    """The model actions whose steps are exactly the steps of ``action`` (None: unknown).

    ``frozenset()`` with every index when ``action`` is the next-state relation itself; the one
    split action with that name when it has no \\E-split parameters."""
    if model is None or not isinstance(action, (A.Name, A.OpApp)) or getattr(action, "args", ()) \
            or getattr(action, "prefix", ()) or action.name in env.locals:
        return None
    if getattr(env, "scope", None) is not getattr(getattr(model, "env", None), "scope", object()):
        return None  # an instance's action (refinement): not the model's
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
    evaluation per edge); ``sub`` evaluates v."""
    frame = comp.frame
    fn, _ = comp.expr(A.AngleAction(action, sub), env)
    step = lambda s, t, fn=fn: fn(s, t, frame) is True  # noqa: E731
    succ = None
    vfn = None
    try:
        vfn = comp.expr(sub, env)[0]
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
    return f


class FairEval:
    """Lazily evaluated fairness facts over the graph: <<A>>_v steps and ENABLED <<A>>_v."""

    def __init__(self, g: Any, fairness: list, deadline: float | None = None) -> None:
        self.g = g
        self.fair = fairness
        self.out = g.out_edges()
        n, m = len(g.states), len(g.src)
        self._step = [bytearray(m) for _ in fairness]  # 0 unknown, 1 no, 2 yes
        self._en = [bytearray(n) for _ in fairness]
        self.deadline = deadline
        self.fills = 0
        cfg = getattr(getattr(g, "model", None), "cfg", None)
        # CONSTRAINTs may cut A's successors out of the graph: ENABLED then needs A itself
        self.cut = cfg is None or bool(getattr(cfg, "constraints", None) or getattr(cfg, "action_constraints", None))
        self.by_label = getattr(g, "key", None) is None

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
        if succs:
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


class ProductSearch:
    def __init__(self, g: Any, tab: Tableau, atoms: list[Atom], fe: FairEval, deadline: float | None) -> None:
        self.g, self.tab, self.atoms, self.fe, self.deadline = g, tab, atoms, fe, deadline
        self.nq = len(tab.succ)
        n = len(g.states)
        self._smemo = [bytearray(n) if a.kind == "state" else None for a in atoms]
        self._amemo: list[dict] = [{} for _ in atoms]
        self.ids: dict[int, int] = {}
        self.ps: list[int] = []
        self.pq: list[int] = []
        self.succs: list[list[tuple[int, int]] | None] = []  # product successors (node, graph edge | -1)
        self.gsucc = self._graph_succ()
        self.ticks = 0

    # ------------------------------------------------------------------ atoms
    def _graph_succ(self) -> list[list[tuple[int, int]]]:
        g = self.g
        out = g.out_edges()
        res: list[list[tuple[int, int]]] = []
        dst = g.dst
        n_exp = g.n_explored if hasattr(g, "n_explored") else len(g.states)
        for s in range(len(g.states)):
            if s >= n_exp:  # successors unknown yet (graph checked while it grows): a dead end
                res.append([])
                continue
            seen: dict[int, int] = {}
            for e in out[s]:
                t = dst[e]
                if t not in seen:
                    seen[t] = e
            lst = [(t, e) for t, e in seen.items() if t != s]
            lst.append((s, -1))  # stuttering
            res.append(lst)
        return res

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
    def node(self, s: int, q: int) -> int:
        key = s * self.nq + q
        u = self.ids.get(key)
        if u is None:
            u = len(self.ps)
            self.ids[key] = u
            self.ps.append(s)
            self.pq.append(q)
            self.succs.append(None)
        return u

    def succ(self, u: int) -> list[tuple[int, int]]:
        r = self.succs[u]
        if r is None:
            s, q = self.ps[u], self.pq[u]
            r = []
            qs = self.tab.succ[q]
            for t, e in self.gsucc[s]:
                if not self.action_ok(q, s, t):
                    continue
                for q2 in qs:
                    if self.state_ok(q2, t):
                        r.append((self.node(t, q2), e))
            self.succs[u] = r
            self.ticks += 1
            if self.deadline is not None and not self.ticks & 1023 and time.monotonic() > self.deadline:
                raise TimeoutError
        return r

    def initial(self) -> list[int]:
        out = []
        for s in self.g.inits:
            for q in self.tab.init:
                if self.state_ok(q, s):
                    out.append(self.node(s, q))
        return out

    # ------------------------------------------------------------------ SCCs
    def sccs(self, roots: list[int], allowed: Callable[[int], bool] | None) -> Any:
        """Iterative Tarjan; yields components (lists of product nodes) as they complete."""
        index: dict[int, int] = {}
        low: dict[int, int] = {}
        on: set[int] = set()
        stack: list[int] = []
        counter = 0
        for root in roots:
            if root in index or (allowed is not None and not allowed(root)):
                continue
            index[root] = low[root] = counter
            counter += 1
            stack.append(root)
            on.add(root)
            work = [(root, 0)]
            while work:
                v, i = work[-1]
                edges = self.succ(v)
                advanced = False
                while i < len(edges):
                    w = edges[i][0]
                    i += 1
                    if allowed is not None and not allowed(w):
                        continue
                    if w not in index:
                        work[-1] = (v, i)
                        index[w] = low[w] = counter
                        counter += 1
                        stack.append(w)
                        on.add(w)
                        work.append((w, 0))
                        advanced = True
                        break
                    if w in on and index[w] < low[v]:
                        low[v] = index[w]
                if advanced:
                    continue
                work.pop()
                if work:
                    u = work[-1][0]
                    if low[v] < low[u]:
                        low[u] = low[v]
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    yield comp

    def fair_component(self, comp: list[int]) -> tuple[set[int], list] | None:
        cset = set(comp)
        inner = [(u, v, e) for u in comp for v, e in self.succ(u) if v in cset]
        if not inner:
            return None
        wit: list = []
        pq, ps = self.pq, self.ps
        for acc in self.tab.accept:
            hit = next((u for u in comp if pq[u] in acc), None)
            if hit is None:
                return None
            wit.append(("node", hit))
        fe = self.fe
        remove: set[int] = set()
        for k, f in enumerate(fe.fair):
            e_hit = next((x for x in inner if x[2] >= 0 and fe.step(k, x[2])), None)
            if e_hit is not None:
                wit.append(("edge", e_hit))
                continue
            if f.kind == "WF":
                off = next((u for u in comp if not fe.enabled(k, ps[u])), None)
                if off is None:
                    return None
                wit.append(("node", off))
            else:
                remove.update(u for u in comp if fe.enabled(k, ps[u]))
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
            for w, e in self.succ(v):
                if w in parent or (region is not None and not region(w)):
                    continue
                parent[w] = (v, e)
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
                first = next((v, e) for v, e in self.succ(cur) if v in comp)
                cyc.append((cur, first[0], first[1]))
                cur = first[0]
            if cur != entry:
                cyc += self.path([cur], (lambda x: x == entry), inside) or []
        return pre, cyc
