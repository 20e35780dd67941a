"""Next's successor schedule as one generated function.

The schedule (``model._tlc_schedule``) runs the actions of Next in TLC's order: the values of
each split ``\\E`` in turn, the actions under it for each value, a guard shared by several
actions tested once per value. As a tree of closures it costs a Python call per binder value
and per guard (27 calls per LamportMutex state); here the loops and the guard tests are one
function, and the generated actions (``gen_action.Inline``) and guards run inline in it: only
actions the generator could not take are called.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any, Callable

from specula.tla.compile.dominance import bind_once, paren_end

__all__ = ["Call", "Loop", "Guard", "fuse"]

_MEMO = re.compile(r"\b_m\d+\b")
_STATE = re.compile(r"(?<![\w.\])])s\[(\d+)\]")
_SLOT = re.compile(r"(?<![\w.\])])e\[(\d+)\]")
_WRITE = re.compile(r"e\[(\d+)\] =[^=]|for e\[(\d+)\] in|for \(([^)]*)\) in|_st\(e, (\d+),")


def _written(nodes: tuple) -> set[int]:
    """The frame slots the inlined actions of ``nodes`` may write (their own binders, LETs)."""
    out: set[int] = set()
    for node in nodes:
        if isinstance(node, Call):
            act = getattr(node.fn, "_inline", None)
            if act is not None:
                for m in _WRITE.finditer("\n".join(act.body)):
                    for g in m.groups():
                        if g:
                            out.update(int(x) for x in re.findall(r"\d+", g))
        else:
            out |= _written(node.body)
    return out
_INIT = re.compile(r"^ *(_m\d+) = _U$")
_READS_N = re.compile(r"\bn\b")  # the next values (n[i], or n passed to a closure)
# an inlined action's first line testing a value against a string: ``X = "req"`` (generate.equality)
_STR_TEST = re.compile(r"^        if \((_t\d+) == ('(?:[^'\\]|\\.)*') if \(\1 := (.*)\)\.__class__ is str "
                       r"else _op\d+\(\1, \2\)\):$")


@dataclass(frozen=True)
class Call:
    """Run one action runner ``fn(s, n, e)``."""

    fn: Callable


@dataclass(frozen=True)
class Loop:
    """Each value of a split binder (frame slot ``slot``) in turn, then ``body``: the values are
    ``values`` (fixed) or ``domain(s, n, e)`` (enumerated per state)."""

    slot: int
    values: tuple | None
    domain: Callable | None
    body: tuple
    # the values per value of an enclosing binder's slot ``key`` (a domain that depends only on
    # it, e.g. ``q \\in Proc \\ {p}``), computed once: looked up instead of calling ``domain``
    table: dict | None = None
    key: int = -1


@dataclass(frozen=True)
class Guard:
    """``body`` runs unless ``test(s, n, e)`` is FALSE (when it is anything else or fails, the
    actions run and report it as they would alone). ``src``: the test's generated source (in
    the namespace of the generated actions), run inline when the actions are."""

    test: Callable
    body: tuple
    src: str | None = None


def fuse(nodes: tuple) -> Callable | None:
    """One function ``run(s, n, e)`` running ``nodes`` in order; None when Python cannot compile
    it (too deeply nested). Generated actions sharing one namespace run inline; when that does
    not compile, they are called."""
    return _fuse(nodes, True) or _fuse(nodes, False)


def _inline_ns(nodes: tuple) -> dict | None:
    """The namespace of the generated actions of ``nodes`` (None: none to inline)."""
    for node in nodes:
        if isinstance(node, Call):
            if getattr(node.fn, "_inline", None) is not None:
                return node.fn.__globals__
        else:
            got = _inline_ns(node.body)
            if got is not None:
                return got
    return None


def _shared(body: tuple) -> set[str]:
    """The memo locals (``Generator._memo``) of a loop body's inlined actions and guards that
    more than one of them reads: reset once per value of the loop, where the body begins."""
    seen: dict[str, int] = {}

    def walk(nodes: tuple) -> None:
        for node in nodes:
            if isinstance(node, Call):
                act = getattr(node.fn, "_inline", None)
                if act is not None:
                    for m in set(_MEMO.findall("\n".join(act.body))):
                        seen[m] = seen.get(m, 0) + 1
            elif isinstance(node, Guard):
                for m in set(_MEMO.findall(node.src or "")):
                    seen[m] = seen.get(m, 0) + 2  # read by the guard: always worth keeping
                walk(node.body)

    walk(body)
    return {m for m, k in seen.items() if k > 1}


def _guarded(body: list[str]) -> bool:
    """Whether an inlined action ``body`` is one ``if`` whose condition does not read ``n`` (the
    next values): the list of next values is then made inside it, not for every failing guard."""
    if len(body) < 2 or not body[0].startswith("        if ") or not body[0].endswith(":"):
        return False
    if _READS_N.search(body[0]):
        return False
    return all(ln.startswith("         ") for ln in body[1:])


def _reuse(ln: str, names: set) -> str:
    """``ln`` with each assignment ``(_mK := SRC)`` of a memo local in ``names`` (one the action
    computed first, after its own reset) read as a use ``(_mK if _mK is not _U else (_mK := SRC))``:
    in the schedule the reset is where the loop's value begins, and a guard or an action before
    this one may have computed the local (the same value: same state, same values of the loops)."""
    for nm in names:
        pre = f"({nm} := "
        at = ln.find(pre)
        while at >= 0:
            i = paren_end(ln, at)  # the end of the assignment
            ln = ln[:at] + f"({nm} if {nm} is not _U else " + ln[at:i + 1] + ")" + ln[i + 1:]
            at = ln.find(pre, at + len(nm) * 2 + 24)
    return ln


_TEMP = re.compile(r"\b_t\d+\b")
_LOCAL_READ = re.compile(r"\b_([se])(\d+)\b")
_MEMO_USE = re.compile(r"\((_m\d+) if \1 is not _U else ")


def _norm(src: str) -> str:
    """A test's source with its temporaries numbered in order, the state and frame reads
    written as ``s[i]``/``e[k]`` (the actions read some of them from locals) and each use of a
    memo local that computes it when unset, ``(_mK if _mK is not _U else (_mK := X))``, as the
    assignment ``(_mK := X)`` (``bind_once`` wrote the first ones so in the actions)."""
    m = _MEMO_USE.search(src)
    while m is not None:
        at = m.start()
        end = paren_end(src, at)
        src = src[:at] + src[m.end():end] + src[end + 1:]
        m = _MEMO_USE.search(src, at)
    temps: dict[str, str] = {}
    src = _TEMP.sub(lambda m: temps.setdefault(m.group(0), f"_t{len(temps)}"), src)
    return _LOCAL_READ.sub(lambda m: f"{m.group(1)}[{m.group(2)}]", src)


def _first_test(body: list[str]) -> str | None:
    """The normalized condition of an inlined action's first line ``if C:`` (None: another line)."""
    if not body or not body[0].startswith("        if ") or not body[0].endswith(":"):
        return None
    return _norm(_unwrap(body[0][11:-1]))


_BINDS = re.compile(r"\((_[a-z]\d+) := ")


def _skippable(body: list[str], shared: set) -> bool:
    """Whether the first line's test binds nothing the rest of the action reads but the memo
    locals ``shared`` (which the guard, the same test, computed on the same path)."""
    rest = "\n".join(body[1:])
    for nm in set(_BINDS.findall(body[0])):
        if nm in shared:
            continue
        if nm[:2] != "_t" or re.search(rf"\b{nm}\b", rest):
            return False
    return True


def _unwrap(c: str) -> str:
    """``c`` without the parentheses around all of it."""
    return c[1:-1] if c.startswith("(") and paren_end(c, 0) == len(c) - 1 else c


def _positive_ints(loop: Loop) -> bool:
    """Whether every value ``loop`` binds is an integer >= 1 (not a boolean)."""
    if loop.table is not None:
        groups: Any = loop.table.values()
    elif loop.domain is None:
        groups = (loop.values or (),)
    else:
        return False
    return all(v.__class__ is int and v >= 1 for vals in groups for v in vals)


_INT_TEST = re.compile(r"\b(_e(\d+))\.__class__ is int and 0 < \1 <= ")
_INT_CLASS = re.compile(r"\((_e(\d+))\.__class__ is int\)")


def _known_ints(text: str, slots: set[int]) -> str:
    """``text`` without the type and lower-bound tests of the loop values ``_e<k>`` (k in
    ``slots``) that are integers >= 1: ``f[p]``'s ``p.__class__ is int and 0 < p <= len(f)`` is
    ``p <= len(f)``, ``(p.__class__ is int) & ...`` is ``True & ...``."""
    text = _INT_TEST.sub(lambda m: f"{m.group(1)} <= " if int(m.group(2)) in slots else m.group(0), text)
    return _INT_CLASS.sub(lambda m: "True" if int(m.group(2)) in slots else m.group(0), text)


def _fuse(nodes: tuple, inline: bool) -> Callable | None:
    gns = _inline_ns(nodes) if inline else None
    if inline and gns is None:
        return None
    ns: dict[str, Any] = dict(gns) if gns is not None else {}
    lines = ["def _sched(s, _n, e):", "    n = _n"]
    tops: dict[str, str] = {}  # state reads of the inlined actions: once, at entry
    count = [0]

    def name(v: Any) -> str:
        nm = f"_f{count[0]}"
        count[0] += 1
        ns[nm] = v
        return nm

    written = _written(nodes) if gns is not None else set()
    posint: set[int] = set()  # the loops' slots (read as ``_e<k>``) whose values are all ints >= 1

    def call(fn: Callable, pad: str, shared: set, tests: list, hoist: frozenset, guard: tuple | None) -> None:
        act = getattr(fn, "_inline", None) if gns is not None and fn.__globals__ is gns else None
        if act is None:
            lines.append(f"{pad}{name(fn)}(s, _n, e)")
            tests.clear()
            return
        body = [ln for ln in act.body if not ((m := _INIT.match(ln)) is not None and m.group(1) in shared)]
        skip = guard is not None and _first_test(body) == guard[1] and not _STR_TEST.match(body[0]) \
            and _skippable(body, shared)
        mine = shared & set(_MEMO.findall("\n".join(body)))
        if mine:
            body = [_reuse(ln, mine) for ln in body]
        if skip:
            # the action's first conjunct is the guard above, whose value is in guard[0] (None
            # when it failed: the action then fails in its own test, as alone)
            body[0] = f"        if {guard[0]} is True or {body[0][11:-1]}:"
        m = _STR_TEST.match(body[0]) if body else None
        if m is not None and ":=" not in m.group(3):
            # an earlier action of this loop body tested the same value against other strings
            # (HandleRequest's m.type = "req" before HandleResponse's m.type = "resp"): when it
            # was one of those, this test is FALSE; otherwise the value is the one tested there
            # (``tests`` holds only tests that ran: not those of actions skipped this way)
            lit = ast.literal_eval(m.group(2))
            same = [(t, v, src) for t, v, src, x in tests if x == m.group(3)]
            other = [src for t, v, src in same if v != lit]
            if same:
                t0 = same[0][0]
                body[0] = body[0].replace(f"({m.group(1)} := {m.group(3)})", f"({m.group(1)} := {t0})", 1)
            if other:
                lines.append(f"{pad}if {' and '.join(f'{t0} != {src}' for src in other)}:")
                pad += "    "
            else:
                tests.append((m.group(1), lit, m.group(2), m.group(3)))
        late = _guarded(body) and act.uses_n
        if not late and act.uses_n:
            lines.append(f"{pad}n = [_U] * {act.nvars}")
        for r in act.reads:
            nm, _, src = r.strip().partition(" = ")
            if src.startswith("s["):
                tops[nm] = src
            elif (m := _SLOT.fullmatch(src)) is not None and int(m.group(1)) in hoist:
                continue  # (read where the loop's value begins)
            else:
                lines.append(pad + r.strip())
        lines.append(f"{pad}try:")
        for i, ln in enumerate(body):
            lines.append(pad + "    " + ln[8:])
            if late and i == 0:
                # the action's list of next values, made once its first guard holds
                lines.append(pad + "    " + body[1][8:len(body[1]) - len(body[1].lstrip())] + f"n = [_U] * {act.nvars}")
        lines.extend([
            f"{pad}except _FAULTS as _x:",
            f"{pad}    _mark = len(_out[0])",
            f"{pad}    _k[{act.ks}](s, [_U] * {act.nvars}, e)",
            f"{pad}    del _out[0][_mark:]",
            f"{pad}    raise _fault(_x, _k[{act.ks + 1}]) from None",
        ])

    def local(src: str, hoist: frozenset) -> str:
        """A guard's source reading the state's variables and the loops' values from locals."""
        def st(m: re.Match) -> str:
            tops[f"_s{m.group(1)}"] = m.group(0)
            return f"_s{m.group(1)}"
        src = _STATE.sub(st, src)
        return _SLOT.sub(lambda m: f"_e{m.group(1)}" if int(m.group(1)) in hoist else m.group(0), src)

    def emit(body: tuple, ind: int, shared: set, hoist: frozenset, fresh: bool, guard: tuple | None = None) -> None:
        """``fresh``: the memo locals ``shared`` were reset just before ``body``; ``guard``: (the
        local holding the value of the guard ``body`` runs under, that guard's test normalized)."""
        pad = "    " * ind
        if not body:
            lines.append(pad + "pass")
        tests: list = []  # (temporary, string, its source, value source) of the first tests above
        for node in body:
            if isinstance(node, Call):
                call(node.fn, pad, shared, tests, hoist, guard)
                fresh = False
                continue
            tests = []
            if isinstance(node, Loop):
                key = f"_e{node.key}" if node.key in hoist else f"e[{node.key}]"
                if node.table is not None:
                    lines.append(f"{pad}for e[{node.slot}] in {name(node.table)}[{key}]:")
                elif node.domain is not None:
                    lines.append(f"{pad}for e[{node.slot}] in {name(node.domain)}(s, _n, e):")
                else:
                    lines.append(f"{pad}for e[{node.slot}] in {name(tuple(node.values or ()))}:")
                inner = _shared(node.body) if gns is not None else set()
                sub = hoist
                if gns is not None and node.slot not in written:
                    lines.append(f"{pad}    _e{node.slot} = e[{node.slot}]")
                    sub = hoist | {node.slot}
                    if _positive_ints(node):
                        posint.add(node.slot)
                lines.extend(f"{pad}    {m} = _U" for m in sorted(inner, key=lambda m: int(m[2:])))
                emit(node.body, ind + 1, inner, sub, True)
            else:
                ok, val = f"_ok{ind}", f"_g{ind}"
                if gns is not None and node.src is not None:
                    test = local(f"({node.src})", hoist)
                    if fresh and shared:
                        # the first test after the memo locals' reset: each first use assigns
                        got = bind_once([f"        {m} = _U" for m in sorted(shared)]
                                        + [f"        {ok} = {test} is not False"])
                        test = got[-1].strip()[len(ok) + 3:-len(" is not False")]
                    lines.extend([f"{pad}try:", f"{pad}    {ok} = ({val} := {test}) is not False",
                                  f"{pad}except Exception:", f"{pad}    {ok} = True", f"{pad}    {val} = None",
                                  f"{pad}if {ok}:"])
                    emit(node.body, ind + 1, shared, hoist, False, (val, _norm(_unwrap(node.src))))
                else:
                    test = f"{name(node.test)}(s, _n, e)"
                    lines.extend([f"{pad}try:", f"{pad}    {ok} = {test} is not False",
                                  f"{pad}except Exception:", f"{pad}    {ok} = True", f"{pad}if {ok}:"])
                    emit(node.body, ind + 1, shared, hoist, False)
            fresh = False

    top = _shared(nodes) if gns is not None else set()
    emit(nodes, 1, top, frozenset(), True)
    lines[2:2] = [f"    {nm} = {src}" for nm, src in sorted(tops.items())] + [
        f"    {m} = _U" for m in sorted(top, key=lambda m: int(m[2:]))]
    text = "\n".join(lines)
    if posint:
        text = _known_ints(text, posint)
    try:
        code = compile(text, "<schedule>", "exec")
    except (SyntaxError, RecursionError, MemoryError):
        return None
    loc: dict = {}
    exec(code, ns, loc)  # noqa: S102 - generated from the schedule's structure
    return loc["_sched"]
