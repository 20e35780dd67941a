"""Replay PGo TraceLink records on a PGo reference spec, as the module PGo's tracegen writes.

tracegen turns a run into a TLA+ module whose behaviours are the interleavings of the
processes' critical sections allowed by their vector clocks; each step applies one record to the
reference spec's variables: the label it ran (``pc``), the archetype locals it wrote, and each
resource access through the resource's mapping macro (a read yields the recorded value and may
update the variable, a write stores what the macro yields for the recorded value). This module
does the same on specula's engine:

* :func:`read_records` — a run folder's records per process, in clock order (aborted critical
  sections included: they only advance the process's clock);
* :class:`Replayer` — the states a record leads to from a state (several when a macro chooses,
  none when the record cannot happen there), and the clock rule of tracegen's ``__clock_check``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from specula.errors import SpeculaError, TraceError
from specula.traces.mpcal import MPCal, Stmt

__all__ = ["Record", "read_records", "Replayer", "Clock"]

Clock = tuple[tuple[str, int], ...]  # sorted (process id, critical sections done)


@dataclass(frozen=True)
class Record:
    archetype: str
    self_id: str
    clock: dict[str, int]
    elements: tuple[dict[str, Any], ...]
    is_abort: bool
    source: str
    line: int

    @property
    def label(self) -> str | None:
        """The label the process was at (the first ``.pc`` read, without the archetype prefix)."""
        for el in self.elements:
            if (el.get("name") or {}).get("name") == ".pc" and el.get("tag") == "read":
                return _strip_label(json.loads(el.get("value", '""')))
        return None


def _strip_label(v: Any) -> Any:
    return v.split(".", 1)[1] if isinstance(v, str) and "." in v else v


def read_records(run: str | Path) -> dict[str, list[Record]]:
    """Every record of a TraceLink run folder, per process id, in the process's clock order."""
    run = Path(run)
    out: dict[str, list[Record]] = {}
    for f in sorted(run.glob("*.log")):
        with f.open(encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    raw = json.loads(line)
                    clock = {str(c[0][1]): int(c[1]) for c in raw.get("clock", [])}
                    rec = Record(str(raw.get("archetypeName", "")), str(raw["self"]), clock,
                                 tuple(raw.get("csElements") or ()), bool(raw.get("isAbort")), str(f), lineno)
                except (ValueError, TypeError, KeyError, IndexError) as exc:
                    raise TraceError(f"bad TraceLink record: {exc}", str(f), lineno) from None
                out.setdefault(rec.self_id, []).append(rec)
    for recs in out.values():
        recs.sort(key=lambda r: r.clock.get(r.self_id, 0))
    if not out:
        raise TraceError("not a TraceLink run folder (no records in *.log files)", str(run))
    return out


class Replayer:
    """Apply records to states of the reference spec (a ``tla.Model``), through its MPCal."""

    def __init__(self, model: Any, mpcal: MPCal) -> None:
        self.model = model
        self.mpcal = mpcal
        self.variables = list(model.variables)
        self._consts: dict[str, Any] = {}
        self._memo: dict[tuple, Any] = {}
        self._reads_state: dict[str, bool] = {}
        self._compiled: dict[tuple[str, tuple[str, ...]], Any] = {}

    # -- values
    def value(self, text: str, state: tuple) -> Any:
        if text not in self._consts:
            self._consts[text] = self.model.evaluate(text, state)
        return self._consts[text]

    def _eval(self, expr: str, state: tuple, env: dict[str, Any]) -> Any:
        """``expr`` with ``env`` bound, compiled once per (expression, bound names) and memoised:
        macro bodies see the same resource values again and again across interleavings."""
        reads = self._reads_state.get(expr)
        if reads is None:
            words = set(re.findall(r"[A-Za-z_]\w*", expr))
            reads = self._reads_state[expr] = bool(words & set(self.variables))
        key = (expr, tuple(env.items()), state if reads else None)
        hit = self._memo.get(key, _NOTHING)
        if hit is _NOTHING:
            names = tuple(env)
            fn = self._compiled.get((expr, names))
            if fn is None:
                fn = self._compiled[(expr, names)] = self.model.compile_expression(expr, names)
            hit = self._memo[key] = fn(state, *env.values())
        return hit

    # -- clocks (tracegen's __clock_check)
    @staticmethod
    def enabled(rec: Record, clock: dict[str, int]) -> bool:
        idx = clock.get(rec.self_id, 0) + 1
        if rec.clock.get(rec.self_id) != idx:
            return False
        return all(v <= (idx if p == rec.self_id else clock.get(p, 0)) for p, v in rec.clock.items())

    # -- one record
    def apply(self, state: tuple, rec: Record) -> list[tuple]:
        """The states the record leads to from ``state`` (empty: it cannot happen there)."""
        if rec.is_abort:
            return [state]
        inst = self.mpcal.instance_of(rec.archetype)
        if inst is None:
            raise TraceError(f"archetype {rec.archetype} has no process instance in the reference spec",
                             rec.source, rec.line)
        arch = self.mpcal.archetypes[rec.archetype]
        me = self.value(json.dumps(_num(rec.self_id)) if not rec.self_id.isdigit() else rec.self_id, state)
        outs = [dict(zip(self.variables, state))]
        for el in rec.elements:
            name = el.get("name") or {}
            n, tag = str(name.get("name", "")), el.get("tag")
            val = self.value(str(el.get("value")), state)
            idx = [self.value(str(i), state) for i in el.get("indices") or ()]
            nxt: list[dict[str, Any]] = []
            for s in outs:
                if n == ".pc":
                    nxt += self._slot(s, "pc", [me], _strip_label(val), tag)
                elif n in arch.locals:
                    var = inst.local_names[arch.locals.index(n)]
                    nxt += self._slot(s, var, [me] if self._per_process(s, var, me) else [], val, tag)
                else:
                    pos = next((k for k, p in enumerate(arch.params) if p.name == n), None)
                    if pos is None:
                        raise TraceError(f"{rec.archetype} has no local or parameter {n!r}", rec.source, rec.line)
                    target, _indexed = inst.target(pos)
                    if target is None:  # a value parameter: a local of the translated process
                        var = inst.value_param_names.get(pos)
                        if var is not None:
                            nxt += self._slot(s, var, [me] if self._per_process(s, var, me) else [], val, tag)
                        else:
                            nxt.append(s)
                        continue
                    macro = inst.macros.get(pos)
                    if macro is None:
                        nxt += self._slot(s, target, idx, val, tag)
                    else:
                        nxt += self._macro(s, target, idx, val, tag, macro)
            outs = nxt
            if not outs:
                return []
        seen, result = set(), []
        for s in outs:
            t = tuple(s[v] for v in self.variables)
            if t not in seen:
                seen.add(t)
                result.append(t)
        return result

    def _per_process(self, s: dict[str, Any], var: str, me: Any) -> bool:
        from specula.tla.values import Fn

        v = s.get(var)
        if isinstance(v, tuple):  # a function over 1..n is a tuple (the canonical form)
            return me.__class__ is int and 1 <= me <= len(v)
        return isinstance(v, Fn) and me in v.keys()

    def _slot(self, s: dict[str, Any], var: str, idx: list[Any], val: Any, tag: Any) -> list[dict[str, Any]]:
        if var not in s:
            raise TraceError(f"the reference spec has no variable {var!r}")
        cur = _get(s[var], idx)
        if tag == "read":
            return [s] if cur == val else []
        t = dict(s)
        t[var] = _put(s[var], idx, val)
        return [t]

    def _macro(self, s: dict[str, Any], var: str, idx: list[Any], val: Any, tag: Any, macro: str) -> list[dict[str, Any]]:
        m = self.mpcal.macros[macro]
        state = tuple(s[v] for v in self.variables)
        cur = _get(s[var], idx)
        out = []
        body = m.read if tag == "read" else m.write
        env0 = {"__variable": cur} if tag == "read" else {"__variable": cur, "__value": val}
        expect = val if tag == "read" else _NOTHING
        for new_var, yielded in self._run(body, state, env0, expect):
            if tag == "read":
                if yielded != val:
                    continue
                t = dict(s)
                t[var] = _put(s[var], idx, new_var)
            else:
                t = dict(s)
                t[var] = _put(s[var], idx, yielded if yielded is not _NOTHING else new_var)
            out.append(t)
        return out

    def _run(self, stmts: tuple[Stmt, ...], state: tuple, env: dict[str, Any],
             expect: Any = None) -> Iterator[tuple[Any, Any]]:
        """(the variable's final value, the yielded value) for every way the macro body runs;
        ``expect`` (a read's recorded value, or ``_NOTHING``) prunes the ways that cannot yield it."""
        yield from self._seq(list(stmts), state, env, _NOTHING if expect is None else expect)

    def _seq(self, stmts: list[Stmt], state: tuple, env: dict[str, Any], expect: Any) -> Iterator[tuple[Any, Any]]:
        if not stmts:
            yield env["__variable"], env.get("__yield", _NOTHING)
            return
        st, rest = stmts[0], stmts[1:]
        try:
            if st.kind in ("await", "assert"):
                if self._eval(st.expr, state, env) is True:
                    yield from self._seq(rest, state, env, expect)
            elif st.kind == "skip":
                yield from self._seq(rest, state, env, expect)
            elif st.kind == "assign":
                yield from self._seq(rest, state, {**env, "__variable": self._eval(st.expr, state, env)}, expect)
            elif st.kind == "yield":
                yield from self._seq(rest, state, {**env, "__yield": self._eval(st.expr, state, env)}, expect)
            elif st.kind == "if":
                branch = st.body if self._eval(st.expr, state, env) is True else st.orelse
                yield from self._seq(list(branch) + rest, state, env, expect)
            elif st.kind == "either":
                for b in st.branches:
                    yield from self._seq(list(b) + rest, state, env, expect)
            elif st.kind == "with":
                yield from self._with(list(st.binds), list(st.body) + rest, state, env, expect)
        except SpeculaError:
            return  # an expression that cannot be evaluated here: this way does not happen

    def _with(self, binds: list, body: list[Stmt], state: tuple, env: dict[str, Any],
              expect: Any) -> Iterator[tuple[Any, Any]]:
        if not binds:
            yield from self._seq(body, state, env, expect)
            return
        (name, op, expr), rest = binds[0], binds[1:]
        v = self._eval(expr, state, env)
        if op == "=":
            choices = [v]
        elif expect is not _NOTHING and _yields(body, name):
            # a read that yields the bound value itself: only the recorded value can match
            # (``with (req \in AllReqs) { yield req }`` need not enumerate AllReqs)
            choices = [expect] if expect in v else []
        else:
            choices = list(v)
        for c in choices:
            yield from self._with(rest, body, state, {**env, name: c}, expect)


def _yields(body: list[Stmt], name: str) -> bool:
    """The straight-line ``body`` reaches a ``yield name`` before any branch."""
    for st in body:
        if st.kind == "yield":
            return st.expr.strip() == name
        if st.kind in ("if", "either", "with"):
            return False
    return False


class _Nothing:
    def __repr__(self) -> str:
        return "<nothing yielded>"


_NOTHING = _Nothing()


def _num(s: str) -> Any:
    try:
        return int(s)
    except ValueError:
        return s


def _get(v: Any, idx: list[Any]) -> Any:
    for i in idx:
        v = v[i] if not isinstance(v, tuple) else v[i - 1]
    return v


def _put(v: Any, idx: list[Any], new: Any) -> Any:
    if not idx:
        return new
    from specula.tla.values import Fn, fn_set1

    head, rest = idx[0], idx[1:]
    if isinstance(v, tuple):
        lst = list(v)
        lst[head - 1] = _put(lst[head - 1], rest, new)
        return tuple(lst)
    if isinstance(v, Fn):
        return fn_set1(v, head, _put(v[head], rest, new))
    raise TraceError(f"cannot index {v!r} by {head!r}")
