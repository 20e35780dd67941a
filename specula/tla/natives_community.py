"""Native implementations of the TLA+ community modules' operators (where TLC has Java overrides,
and where the TLA+ definition would be too slow or cannot be evaluated: files, processes).

The table :data:`COMMUNITY_NATIVES` maps ``(module, name)`` to a :class:`NativeSpec`; the compiler
reaches it through :func:`specula.tla.builtins.native_for`, which uses an entry in place of the
definition of ``name`` in ``module`` (specula's text of the module, in ``stdlib/``, gives the
meaning).  Functions receive evaluated arguments; an operator argument (``op_params``) arrives as
a Python callable.  Errors are :class:`ValueFault` (the compiler adds the span).
"""

from __future__ import annotations

import decimal
import functools
import gzip
import itertools
import json
import math
import os
import re
import subprocess
from dataclasses import dataclass
from typing import Any, Callable

from specula.tla.values import (
    Fn,
    LazyFn,
    LazySet,
    ModelValue,
    ValueFault,
    enumerate_set,
    format_value,
    from_python,
    is_set,
    make_fn,
    make_record,
    ordered,
    tla_eq,
    to_json,
    type_name,
)
from specula.tla.fp64 import fp64
from specula.tla.operators import fn_items

__all__ = ["NativeSpec", "COMMUNITY_NATIVES", "IOEXEC_ENV"]

IOEXEC_ENV = "SPECULA_ALLOW_IOEXEC"  # IOExec and friends run processes only when this is "1"


@dataclass(frozen=True)
class NativeSpec:
    arity: int
    fn: Callable[..., Any] | None
    op_params: tuple[int, ...] = ()
    impure: bool = False
    # special(compiler, args, env, span) -> (fn(s, n, e), deps): operators that control how their
    # arguments are evaluated (AssertError catches its argument's failure)
    special: Callable[..., Any] | None = None


# ----------------------------------------------------------------------------- argument helpers


def expect_int(x: Any, what: str = "an integer") -> int:
    if x.__class__ is not int:
        raise ValueFault(f"expected {what}, found {type_name(x)} {format_value(x)}")
    return x


def _nat(x: Any) -> int:
    n = expect_int(x, "a natural number")
    if n < 0:
        raise ValueFault(f"expected a natural number, found {n}")
    return n


def expect_str(x: Any) -> str:
    if x.__class__ is not str:
        raise ValueFault(f"expected a string, found {type_name(x)} {format_value(x)}")
    return x


def _seq(x: Any) -> tuple:
    if x.__class__ is tuple:
        return x
    if isinstance(x, LazyFn):
        return _seq(x.materialize())
    raise ValueFault(f"expected a sequence, found {type_name(x)} {format_value(x)}")


def _seq_or_str(x: Any) -> tuple | str:
    return x if x.__class__ is str else _seq(x)


def expect_set(x: Any) -> frozenset:
    if x.__class__ is frozenset:
        return x
    if isinstance(x, LazySet):
        return frozenset(enumerate_set(x))
    raise ValueFault(f"expected a set, found {type_name(x)} {format_value(x)}")


def _field(r: Any, name: str) -> Any:
    if r.__class__ is Fn and name in r:
        return r[name]
    raise ValueFault(f"expected a record with field {name}, found {format_value(r)}")


def _bool(v: Any, what: str) -> bool:
    if v is True or v is False:
        return v
    raise ValueFault(f"{what} must be a Boolean, found {format_value(v)}")


# ----------------------------------------------------------------------------- Bitwise


def _not(a: Any) -> int:
    a = _nat(a)
    return ~a & ((1 << a.bit_length()) - 1)


# ----------------------------------------------------------------------------- Combinatorics


def _choose(n: Any, k: Any) -> int:
    n, k = _nat(n), expect_int(k)
    if k < 0 or k > n:
        raise ValueFault(f"choose({n}, {k}): k must be in 0..n")
    return math.comb(n, k)


# ----------------------------------------------------------------------------- BagsExt


def _bag_add(b: Any, x: Any) -> Any:
    d = dict(fn_items(b))
    d[x] = d.get(x, 0) + 1
    return make_fn(d)


def _bag_remove(b: Any, x: Any) -> Any:
    d = dict(fn_items(b))
    if x not in d:
        return b
    if d[x] == 1:
        del d[x]
    else:
        d[x] -= 1
    return make_fn(d)


def _bag_remove_all(b: Any, x: Any) -> Any:
    d = dict(fn_items(b))
    if x not in d:
        return b
    del d[x]
    return make_fn(d)


def _fold_bag(op: Callable, base: Any, b: Any) -> Any:
    """TLC's FoldBag: acc := op(acc, x) for every copy of every element x, elements in order."""
    acc = base
    for x, n in _ordered_items(b):
        for _ in range(expect_int(n)):
            acc = op(acc, x)
    return acc


def _fold_set(op: Callable, base: Any, S: Any) -> Any:
    """TLC's FoldSet: acc := op(x, acc) for the elements x in order."""
    acc = base
    for x in ordered(expect_set(S)):
        acc = op(x, acc)
    return acc


def _sum_bag(b: Any) -> int:
    return sum(expect_int(k) * expect_int(n) for k, n in fn_items(b))


def _product_bag(b: Any) -> int:
    out = 1
    for k, n in fn_items(b):
        out *= expect_int(k) ** expect_int(n)
    return out


# ----------------------------------------------------------------------------- FiniteSetsExt / Functions


def _ksubset(k: Any, S: Any) -> frozenset:
    k = expect_int(k)
    els = ordered(expect_set(S))
    if k < 0 or k > len(els):
        return frozenset()
    return frozenset(frozenset(c) for c in itertools.combinations(els, k))


def _sum_set(S: Any) -> int:
    return sum(expect_int(x) for x in expect_set(S))


def _product_set(S: Any) -> int:
    out = 1
    for x in expect_set(S):
        out *= expect_int(x)
    return out


def _map_then_sum_set(op: Callable, S: Any) -> int:
    return sum(expect_int(op(x)) for x in ordered(expect_set(S)))


def _fold_function_on_set(op: Callable, base: Any, f: Any, indices: Any) -> Any:
    """TLC's FoldFunctionOnSet: acc := op(f[i], acc) for the indices i in order."""
    d = dict(fn_items(f))
    acc = base
    for i in ordered(expect_set(indices)):
        if i not in d:
            raise ValueFault(f"FoldFunctionOnSet: {format_value(i)} is not in the domain of the function")
        acc = op(d[i], acc)
    return acc


def _fold_function(op: Callable, base: Any, f: Any) -> Any:
    acc = base
    for _, v in _ordered_items(f):
        acc = op(v, acc)
    return acc


def _sum_function_on_set(f: Any, indices: Any) -> int:
    d = dict(fn_items(f))
    return sum(expect_int(d[i]) for i in expect_set(indices))


def _anti_function(f: Any) -> Any:
    out: dict = {}
    for k, v in fn_items(f):
        if v in out:
            raise ValueFault(f"AntiFunction: {format_value(f)} is not injective")
        out[v] = k
    return make_fn(out)


# ----------------------------------------------------------------------------- SequencesExt


def _sub(s: tuple | str, i: int, j: int) -> tuple | str:
    """SubSeq(s, i, j) for sequences and strings, empty when j < i."""
    return s[i - 1 : j] if j >= i else s[:0]


def _set_to_seqs(S: Any) -> frozenset:
    return frozenset(tuple(p) for p in itertools.permutations(ordered(expect_set(S))))


def _set_to_all_k_permutations(S: Any) -> frozenset:
    els = ordered(expect_set(S))
    return frozenset(p for k in range(len(els) + 1) for p in itertools.permutations(els, k))


def _select_in_sub_seq(s: Any, frm: Any, to: Any, test: Callable, last: bool = False) -> int:
    s = _seq(s)
    frm, to = expect_int(frm), expect_int(to)
    if frm > to:
        return 0
    if not 1 <= frm <= len(s) or not 1 <= to <= len(s):
        raise ValueFault(f"indices {frm}..{to} are not in the domain of {format_value(s)}")
    rng = range(to, frm - 1, -1) if last else range(frm, to + 1)
    for i in rng:
        if _bool(test(s[i - 1]), "the test") is True:
            return i
    return 0


def _remove_first(s: Any, e: Any) -> tuple:
    s = _seq(s)
    for i, x in enumerate(s):
        if tla_eq(x, e):
            return s[:i] + s[i + 1 :]
    return s


def _remove_first_match(s: Any, test: Callable) -> tuple:
    s = _seq(s)
    for i, x in enumerate(s):
        if test(x) is True:
            return s[:i] + s[i + 1 :]
    return s


def _suffixes(s: Any) -> frozenset:
    s = _seq(s)
    return frozenset(s[i:] for i in range(len(s) + 1))


def _prefixes(s: Any) -> frozenset:
    s = _seq(s)
    return frozenset(s[:i] for i in range(len(s) + 1))


def _longest_common_prefix(S: Any) -> tuple:
    seqs = [_seq_or_str(x) for x in expect_set(S)]
    if not seqs:
        raise ValueFault("LongestCommonPrefix of the empty set")
    first = seqs[0]
    n = min(len(x) for x in seqs)
    i = 0
    while i < n and all(x[i] == first[i] for x in seqs):
        i += 1
    return first[:i]


def _all_sub_seqs(s: Any) -> frozenset:
    s = _seq(s)
    return frozenset(tuple(s[i] for i in idx) for k in range(len(s) + 1)
                     for idx in itertools.combinations(range(len(s)), k))


def _sub_seqs(s: Any) -> frozenset:
    s = _seq_or_str(s)
    n = len(s)
    return frozenset(_sub(s, i + 1, j) for i in range(n + 1) for j in range(n + 1))


def _index_first_sub_seq(s: Any, t: Any) -> int:
    s, t = _seq_or_str(s), _seq_or_str(t)
    for i in range(len(t) - len(s) + 1):
        if t[i : i + len(s)] == s:
            return i + 1
    raise ValueFault(f"IndexFirstSubSeq: {format_value(s)} does not occur in {format_value(t)}")


def _replace_first_sub_seq(r: Any, s: Any, t: Any) -> Any:
    r, s, t = _seq_or_str(r), _seq_or_str(s), _seq_or_str(t)
    for i in range(len(t) - len(s) + 1):
        if t[i : i + len(s)] == s:
            return _concat(_concat(t[:i], r), t[i + len(s) :])
    return t


def _replace_all_sub_seqs(r: Any, s: Any, t: Any) -> Any:
    r, s, t = _seq_or_str(r), _seq_or_str(s), _seq_or_str(t)
    if s == t:
        return r
    if len(s) == 0:
        out = t[:0]
        for i in range(len(t)):
            out = _concat(_concat(out, r), t[i : i + 1])
        return out
    out = t[:0]
    i = 0
    while i < len(t):
        if t[i : i + len(s)] == s:
            out = _concat(out, r)
            i += len(s)
        else:
            out = _concat(out, t[i : i + 1])
            i += 1
    return out


def _concat(a: Any, b: Any) -> Any:
    if a.__class__ is str and b.__class__ is str:
        return a + b
    if a.__class__ is tuple and b.__class__ is tuple:
        return a + b
    if a == "" or a == ():
        return b
    if b == "" or b == ():
        return a
    raise ValueFault(f"cannot concatenate {format_value(a)} and {format_value(b)}")


def _flatten_seq(seqs: Any) -> Any:
    seqs = _seq(seqs)
    if not seqs:
        return seqs
    out = seqs[0]
    for x in seqs[1:]:
        out = _concat(out, x)
    return out


def _zip(s: Any, t: Any) -> tuple:
    return tuple(zip(_seq(s), _seq(t)))


def _interleave(s: Any, t: Any) -> tuple:
    s, t = _seq(s), _seq(t)
    if len(s) != len(t):
        raise ValueFault("Interleave of sequences of different lengths")
    if not s:
        return ((), ())
    return tuple(p for a, b in zip(s, t) for p in ((a,), (b,)))


def _to_bag(s: Any) -> Any:
    d: dict = {}
    for x in _seq(s):
        d[x] = d.get(x, 0) + 1
    return make_fn(d)


def _is_sorted(s: Any, op: Callable) -> bool:
    s = _seq(s)
    return all(op(s[i], s[j]) is True for i in range(len(s)) for j in range(i + 1, len(s)))


def _fold_left_domain(op: Callable, base: Any, s: Any) -> Any:
    acc = base
    for i in range(1, len(_seq(s)) + 1):
        acc = op(acc, i)
    return acc


def _fold_right_domain(op: Callable, s: Any, base: Any) -> Any:
    acc = base
    for i in range(len(_seq(s)), 0, -1):
        acc = op(i, acc)
    return acc


# ----------------------------------------------------------------------------- Graphs


def _graph(G: Any) -> tuple[frozenset, frozenset]:
    return expect_set(_field(G, "node")), expect_set(_field(G, "edge"))


def _reach(nodes: frozenset, adj: dict, start: Any) -> set:
    seen = {start}
    todo = [start]
    while todo:
        m = todo.pop()
        for n in adj.get(m, ()):
            if n not in seen and n in nodes:
                seen.add(n)
                todo.append(n)
    return seen


def _directed_adj(edges: frozenset) -> dict:
    adj: dict = {}
    for e in edges:
        e = _seq(e)
        adj.setdefault(e[0], []).append(e[1])
    return adj


def _undirected_adj(edges: frozenset) -> dict:
    adj: dict = {}
    for e in edges:
        ends = list(expect_set(e))
        for a in ends:
            for b in ends:
                adj.setdefault(a, []).append(b)
    return adj


def _are_connected(m: Any, n: Any, G: Any, undirected: bool = False) -> bool:
    nodes, edges = _graph(G)
    if m not in nodes:
        return False
    adj = _undirected_adj(edges) if undirected else _directed_adj(edges)
    return n in _reach(nodes, adj, m)


def _strongly_connected(G: Any) -> bool:
    nodes, edges = _graph(G)
    adj = _directed_adj(edges)
    return all(_reach(nodes, adj, m) >= nodes for m in nodes)


def _connected_components(G: Any) -> frozenset:
    nodes, edges = _graph(G)
    adj = _undirected_adj(edges)
    return frozenset(frozenset(_reach(nodes, adj, n)) for n in nodes)


def _simple_paths(G: Any, undirected: bool = False) -> frozenset:
    nodes, edges = _graph(G)
    adj = _undirected_adj(edges) if undirected else _directed_adj(edges)
    out: set = set()

    def extend(path: tuple) -> None:
        out.add(path)
        for n in adj.get(path[-1], ()):
            if n in nodes and n not in path:
                extend(path + (n,))

    for n in nodes:
        extend((n,))
    return frozenset(out)


# ----------------------------------------------------------------------------- VectorClocks


def _causal_order(log: Any, clock: Callable, node: Callable, domain: Callable) -> tuple:
    """TLC's CausalOrder: per node, its entries by its own clock entry; an entry waits for the
    entries of other nodes its clock has seen; ties broken round-robin over the nodes."""
    log = _seq(log)
    per_node: dict = {}
    info = []
    for line in log:
        n = node(line)
        vc = clock(line)
        vcd = dict(fn_items(vc))
        t = vcd.get(n)
        hosts = ordered(expect_set(domain(vc)))
        entry = {"line": line, "time": t, "clock": vcd, "hosts": hosts, "parents": set(), "id": len(info)}
        info.append(entry)
        per_node.setdefault(n, []).append(entry)
    for lst in per_node.values():
        lst.sort(key=lambda en: en["time"])
    for host, lst in per_node.items():
        seen = {h: 0 for h in per_node}
        for en in lst:
            seen[host] = en["time"]
            for other in en["hosts"]:
                t = en["clock"].get(other, 0)
                if seen.get(other, 0) < t:
                    seen[other] = t
                    parents = per_node.get(other, [])
                    if 0 < t <= len(parents):
                        en["parents"].add(parents[t - 1]["id"])
    done: set = set()
    out = []
    queues = {h: list(lst) for h, lst in per_node.items()}
    for _ in range(len(log)):
        for h in per_node:
            q = queues[h]
            if q and q[0]["parents"] <= done:
                en = q.pop(0)
                done.add(en["id"])
                out.append(en["line"])
    if len(out) != len(log):
        raise ValueFault("CausalOrder: the log's vector clocks do not describe a causal order")
    return tuple(out)


# ----------------------------------------------------------------------------- Statistics


def _chi_square_cdf(x: float, k: int) -> float:
    """P(X <= x) for a chi-square distribution with k degrees of freedom (regularized lower
    incomplete gamma function by its series / continued fraction)."""
    if x <= 0:
        return 0.0
    a, z = k / 2.0, x / 2.0
    if z < a + 1:
        term = total = 1.0 / a
        n = 1
        while abs(term) > abs(total) * 1e-15 and n < 10_000:
            term *= z / (a + n)
            total += term
            n += 1
        return total * math.exp(-z + a * math.log(z) - math.lgamma(a))
    # continued fraction for the upper part (Lentz)
    tiny = 1e-300
    b = z + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return 1 - math.exp(-z + a * math.log(z) - math.lgamma(a)) * h


def _chi_square(expected: Any, actual: Any, alpha: Any) -> bool:
    exp = [expect_int(v) for _, v in _ordered_items(expected)]
    act = [expect_int(v) for _, v in _ordered_items(actual)]
    a = float(expect_str(alpha))
    if not 0 < a <= 0.5:
        raise ValueFault(f"ChiSquare: alpha must be in (0, 0.5], found {alpha}")
    if len(exp) != len(act) or len(exp) < 2:
        raise ValueFault("ChiSquare: expected and actual need the same length, at least 2")
    if any(e <= 0 for e in exp) or any(x < 0 for x in act):
        raise ValueFault("ChiSquare: expected counts must be positive and actual counts non-negative")
    sum_e, sum_a = sum(exp), sum(act)
    ratio = sum_a / sum_e if abs(sum_e - sum_a) > 1e-5 else 1.0
    stat = sum((o - ratio * e) ** 2 / (ratio * e) for e, o in zip(exp, act))
    p = 1 - _chi_square_cdf(stat, len(exp) - 1)
    return not (p < a)  # TRUE: the null hypothesis is not rejected


def _ordered_items(f: Any) -> list[tuple[Any, Any]]:
    items = fn_items(f)
    keys = ordered(k for k, _ in items)
    d = dict(items)
    return [(k, d[k]) for k in keys]


# ----------------------------------------------------------------------------- DyadicRationals


def _dyadic(num: int, den: int) -> Any:
    g = math.gcd(num, den)
    if g > 1:
        num, den = num // g, den // g
    return make_record([("den", den), ("num", num)])


def _dyadic_add(p: Any, q: Any) -> Any:
    pn, pd = expect_int(_field(p, "num")), expect_int(_field(p, "den"))
    qn, qd = expect_int(_field(q, "num")), expect_int(_field(q, "den"))
    if pn == 0 and pd == 1:
        return q
    d = max(pd, qd)
    return _dyadic(pn * (d // pd) + qn * (d // qd), d)


def _dyadic_half(p: Any) -> Any:
    return _dyadic(expect_int(_field(p, "num")), 2 * expect_int(_field(p, "den")))


# ----------------------------------------------------------------------------- CSV


def _tlc_string(v: Any) -> str:
    """A value as TLC's Value.toString() writes it (strings quoted)."""
    return format_value(v)


def _java_format(template: str, args: list[str]) -> str:
    """Java's String.format for %s-style conversions with string arguments (%n$s, %s, %%, %n)."""
    out = []
    pos = 0
    implicit = 0
    for m in re.finditer(r"%(?:(\d+)\$)?([-#+ 0,(]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])", template):
        out.append(template[pos : m.start()])
        pos = m.end()
        idx, flags, width, prec, conv = m.groups()
        if conv == "%":
            out.append("%")
            continue
        if conv == "n":
            out.append(os.linesep)
            continue
        if conv not in "sS":
            raise ValueFault(f"CSVWrite: unsupported conversion %{conv} (the values are strings)")
        if idx is not None:
            i = int(idx) - 1
        else:
            i = implicit
            implicit += 1
        if not 0 <= i < len(args):
            raise ValueFault(f"CSVWrite: the template refers to argument {i + 1}, the sequence has {len(args)}")
        text = args[i]
        if prec is not None:
            text = text[: int(prec)]
        if conv == "S":
            text = text.upper()
        if width is not None:
            text = text.ljust(int(width)) if "-" in flags else text.rjust(int(width))
        out.append(text)
    out.append(template[pos:])
    return "".join(out)


def _append_line(path: str, line: str) -> None:
    try:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(line + os.linesep)
    except OSError as exc:
        raise ValueFault(f"cannot write {path}: {exc.strerror}") from None


def _csv_write(template: Any, val: Any, file: Any) -> bool:
    args = [_tlc_string(v) for v in _seq(val)]
    _append_line(expect_str(file), _java_format(expect_str(template), args))
    return True


def _csv_write_record(record: Any, delim: Any, headers: Any, file: Any) -> bool:
    if record.__class__ is not Fn or not all(k.__class__ is str for k in record):
        raise ValueFault(f"CSVWriteRecord: expected a record, found {format_value(record)}")
    names = ordered(record.keys())
    path, sep = expect_str(file), expect_str(delim)
    if _bool(headers, "headers"):
        _append_line(path, sep.join(names))
    _append_line(path, sep.join(_tlc_string(record[k]) for k in names))
    return True


def _csv_read(columns: Any, delimiter: Any, file: Any) -> tuple:
    names = [expect_str(c) for c in _seq(columns)]
    path = expect_str(file)
    if not os.path.exists(path):
        return ()
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError as exc:
        raise ValueFault(f"CSVRead: cannot read {path}: {exc.strerror}") from None
    out = []
    for ln in lines:
        # Java's String.split: the delimiter is a regular expression, trailing empty fields dropped
        fields = re.split(expect_str(delimiter), ln)
        while fields and fields[-1] == "" and len(fields) > 1:
            fields.pop()
        out.append(make_record(zip(names, fields)))
    return tuple(out)


def _csv_records(file: Any) -> int:
    path = expect_str(file)
    if not os.path.exists(path):
        return 0
    with open(path, encoding="utf-8") as fh:
        return sum(1 for _ in fh)


# ----------------------------------------------------------------------------- GraphViz / SVG


def _node_id(v: Any) -> str:
    """A node's identifier in DOT: TLC's 64-bit fingerprint of its value, signed."""
    fp = fp64(v)
    return str(fp - (1 << 64) if fp >= (1 << 63) else fp)


def _dot_digraph(G: Any, vl: Callable, el: Callable) -> str:
    nodes, edges = _graph(G)
    out = ["digraph MyGraph {"]
    for n in ordered(nodes):
        out.append(f"{_node_id(n)}[label={_tlc_plain(vl(n))}];")
    for e in ordered(edges):
        a, b = _seq(e)[:2]
        out.append(f"{_node_id(a)}->{_node_id(b)}[label={_tlc_plain(el(e))}];")
    out.append("}")
    return "".join(out)


def _tlc_plain(v: Any) -> str:
    return format_value(v)


def _svg_elem_to_string(elem: Any) -> str:
    name = expect_str(_field(elem, "name"))
    attrs = _field(elem, "attrs")
    parts = []
    for k, v in _ordered_items(attrs) if attrs != () else []:
        parts.append(f" {expect_str(k).replace('_', '-')}='{expect_str(v)}'")
    children = _field(elem, "children")
    kids = "".join(_svg_elem_to_string(c) for _, c in _ordered_items(children)) if children != () else ""
    inner = expect_str(_field(elem, "innerText")).replace("<<", "&lt;&lt;").replace(">>", "&gt;&gt;")
    return f"<{name}{''.join(parts)}>{inner}{kids}</{name}>"


def _point(x: int, y: int) -> Any:
    return make_record([("x", x), ("y", y)])


def _point_on_line(frm: Any, to: Any, segment: Any) -> Any:
    fx, fy = expect_int(_field(frm, "x")), expect_int(_field(frm, "y"))
    tx, ty = expect_int(_field(to, "x")), expect_int(_field(to, "y"))
    k = expect_int(segment)
    return _point(int(fx + (tx - fx) / k), int(fy + (ty - fy) / k))


def _node_of_ring_network(cx: Any, cy: Any, r: Any, n: Any, m: Any) -> Any:
    angle = (2.0 * math.pi / expect_int(m)) * expect_int(n)
    return _point(int(expect_int(cx) + expect_int(r) * math.cos(angle)), int(expect_int(cy) + expect_int(r) * math.sin(angle)))


def _nodes_of_directed_multi_graph(nodes: Any, edges: Any, options: Any) -> Any:
    """A layered layout (longest path from the roots gives the row; TLC uses a jungrapht
    layout, whose coordinates differ)."""
    ns = ordered(expect_set(nodes))
    adj = _directed_adj(expect_set(edges))
    depth = {n: 0 for n in ns}
    for _ in range(len(ns)):
        for a in ns:
            for b in adj.get(a, ()):
                if b in depth and depth[b] < depth[a] + 1 and depth[a] + 1 < len(ns):
                    depth[b] = depth[a] + 1
    w = expect_int(_field(options, "view_width")) if options.__class__ is Fn and "view_width" in options else 100
    h = expect_int(_field(options, "view_height")) if options.__class__ is Fn and "view_height" in options else 100
    rows: dict = {}
    for n in ns:
        rows.setdefault(depth[n], []).append(n)
    out = {}
    nrows = max(rows) + 1 if rows else 1
    for d, row in rows.items():
        for i, n in enumerate(row):
            out[n] = _point(int(w * (i + 1) / (len(row) + 1)), int(h * (d + 1) / (nrows + 1)))
    return make_fn(out)


# ----------------------------------------------------------------------------- IOUtils


def _ioexec_allowed(name: str) -> None:
    if os.environ.get(IOEXEC_ENV) != "1":
        raise ValueFault(f"{name} runs a process: set {IOEXEC_ENV}=1 in the checker's environment to allow it")


def _run(cmd: Any, env: Any, name: str) -> Any:
    _ioexec_allowed(name)
    argv = [_tlc_arg(x) for x in _seq(cmd)]
    penv = None
    if env is not None:
        penv = dict(os.environ)
        penv.update({expect_str(k): _tlc_arg(v) for k, v in fn_items(env)})
    try:
        p = subprocess.run(argv, capture_output=True, text=True, env=penv, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ValueFault(f"{name}: cannot run {argv[0] if argv else '?'}: {exc}") from None
    return make_record([("exitValue", p.returncode), ("stderr", p.stderr), ("stdout", p.stdout)])


def _tlc_arg(v: Any) -> str:
    return v if v.__class__ is str else format_value(v)


def _template(template: Any, params: Any) -> tuple:
    args = [_tlc_arg(v) for v in _seq(params)]
    return tuple(_java_format(expect_str(part), args) for part in _seq(template))


def _serialize(value: Any, dest: Any, options: Any) -> Any:
    path = expect_str(dest)
    fmt = expect_str(_field(options, "format")) if options.__class__ is Fn and "format" in options else "TXT"
    text = value if fmt == "TXT" and value.__class__ is str else (
        json.dumps(to_json(value)) if fmt == "JSON" else format_value(value))
    opts = [expect_str(o) for o in _seq(_field(options, "openOptions"))] if options.__class__ is Fn and "openOptions" in options else []
    mode = "a" if "APPEND" in opts else "w"
    try:
        with open(path, mode, encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        return make_record([("exitValue", 1), ("stderr", str(exc.strerror)), ("stdout", "")])
    return make_record([("exitValue", 0), ("stderr", ""), ("stdout", "")])


def _deserialize(src: Any, options: Any) -> Any:
    path = expect_str(src)
    fmt = expect_str(_field(options, "format")) if options.__class__ is Fn and "format" in options else "TXT"
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        return make_record([("exitValue", 1), ("stderr", str(exc.strerror)), ("stdout", "")])
    if fmt == "JSON":
        return from_python(json.loads(text))
    return make_record([("exitValue", 0), ("stderr", ""), ("stdout", text)])


def _encode(v: Any) -> Any:
    """A value as JSON data that :func:`_decode` turns back into the same value."""
    if v.__class__ in (bool, int, str):
        return v
    if v.__class__ is tuple:
        return {"t": [_encode(x) for x in v]}
    if v.__class__ is ModelValue:
        return {"m": v.name}
    if v.__class__ is Fn:
        return {"f": [[_encode(k), _encode(x)] for k, x in _ordered_items(v)]}
    if isinstance(v, LazyFn):
        return _encode(v.materialize())
    return {"s": [_encode(x) for x in ordered(expect_set(v))]}


def _decode(d: Any) -> Any:
    if d.__class__ is dict:
        if "t" in d:
            return tuple(_decode(x) for x in d["t"])
        if "m" in d:
            return ModelValue(d["m"])
        if "f" in d:
            return make_fn({_decode(k): _decode(x) for k, x in d["f"]})
        return frozenset(_decode(x) for x in d["s"])
    return d


def _io_serialize(val: Any, file: Any, compress: Any) -> bool:
    """IOSerialize: the value to a file (specula's own JSON encoding; TLC writes Java's binary
    serialization, which specula does not read)."""
    path = expect_str(file)
    data = json.dumps({"specula-value": 1, "value": _encode(val)}).encode("utf-8")
    try:
        with open(path, "wb") as fh:
            fh.write(gzip.compress(data) if _bool(compress, "compress") else data)
    except OSError as exc:
        raise ValueFault(f"IOSerialize: cannot write {path}: {exc.strerror}") from None
    return True


def _io_deserialize(file: Any, compressed: Any) -> Any:
    path = expect_str(file)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
        if _bool(compressed, "compressed"):
            data = gzip.decompress(data)
        return _decode(json.loads(data.decode("utf-8"))["value"])
    except (OSError, ValueError, KeyError, EOFError) as exc:
        raise ValueFault(f"IODeserialize: cannot read {path} (written by specula's IOSerialize?): {exc}") from None


def _zero_pad(n: Any, width: Any) -> str:
    return str(expect_int(n)).rjust(expect_int(width), "0")


# ----------------------------------------------------------------------------- Json


def _json_path(x: Any) -> str:
    if x.__class__ is not str:
        raise ValueFault(f"a file name must be a string, found {format_value(x)}")
    return x  # relative names are taken from the working directory, as TLC does


def _java_int(d: Any) -> int:
    """A JSON number as TLC reads it (Gson's getAsInt: the integer part, kept to 32 bits)."""
    n = int(d)
    return ((n + 2**31) % 2**32) - 2**31


def _json_value(obj: Any, where: str) -> Any:
    """A decoded JSON value as TLA+: objects are records, arrays sequences, numbers 32-bit
    integers (fractions dropped), as TLC's Json module; null has no counterpart."""
    c = obj.__class__
    if c is bool or c is str:
        return obj
    if c is int or c is decimal.Decimal:
        return _java_int(obj)
    if c is list:
        return tuple(_json_value(x, where) for x in obj)
    if c is dict:
        return make_record(sorted((k, _json_value(v, where)) for k, v in obj.items()))
    raise ValueFault(f"{where}: cannot convert the JSON value {obj!r} (TLC's Json has no null)")


def _json_loads(text: str) -> Any:
    return json.loads(text, parse_float=decimal.Decimal)


def _file_key(path: str, op: str) -> tuple[str, int, int]:
    try:
        st = os.stat(path)
    except OSError as exc:
        raise ValueFault(f"{op}: cannot read {path}: {exc.strerror}") from None
    return os.path.abspath(path), st.st_mtime_ns, st.st_size


def _json_deserialize(name: Any) -> Any:
    path = _json_path(name)
    return _read_json(path, *_file_key(path, "JsonDeserialize"))


def _ndjson_deserialize(name: Any) -> Any:
    path = _json_path(name)
    return _read_ndjson(path, *_file_key(path, "ndJsonDeserialize"))


@functools.lru_cache(maxsize=8)
def _read_json(path: str, _abspath: str, _mtime: int, _size: int) -> Any:
    """A JSON file's value (read once per version of the file: a trace spec refers to its log
    from many expressions, and the values are immutable)."""
    try:
        with open(path, encoding="utf-8") as fh:
            return _json_value(_json_loads(fh.read()), path)
    except OSError as exc:
        raise ValueFault(f"JsonDeserialize: cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ValueFault(f"JsonDeserialize: {path}:{exc.lineno}:{exc.colno}: {exc.msg}") from None


@functools.lru_cache(maxsize=8)
def _read_ndjson(path: str, _abspath: str, _mtime: int, _size: int) -> Any:
    out = []
    try:
        with open(path, encoding="utf-8") as fh:
            for i, line in enumerate(fh, 1):
                if line.strip():
                    try:
                        out.append(_json_value(_json_loads(line), f"{path}:{i}"))
                    except json.JSONDecodeError as exc:
                        raise ValueFault(f"ndJsonDeserialize: {path}:{i}:{exc.colno}: {exc.msg}") from None
    except OSError as exc:
        raise ValueFault(f"ndJsonDeserialize: cannot read {path}: {exc.strerror}") from None
    return tuple(out)


def _to_json_obj(v: Any) -> Any:
    if v.__class__ in (bool, int, str):
        return v
    if v.__class__ is tuple:
        return [_to_json_obj(x) for x in v]
    if v.__class__ is Fn and all(k.__class__ is str for k in v):
        return {k: _to_json_obj(x) for k, x in v.items()}
    if v.__class__ is Fn:
        return [[_to_json_obj(k), _to_json_obj(x)] for k, x in v.items()]
    if isinstance(v, LazyFn):
        return _to_json_obj(v.materialize())
    if is_set(v):
        return [_to_json_obj(x) for x in ordered(enumerate_set(v))]
    return format_value(v)


def _to_json(v: Any) -> str:
    return json.dumps(_to_json_obj(v), separators=(",", ":"), ensure_ascii=False)


def _json_serialize(name: Any, v: Any) -> bool:
    path = _json_path(name)
    try:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(_to_json_obj(v), fh)
    except OSError as exc:
        raise ValueFault(f"JsonSerialize: cannot write {path}: {exc.strerror}") from None
    return True


def _ndjson_serialize(name: Any, v: Any) -> bool:
    path = _json_path(name)
    try:
        with open(path, "w", encoding="utf-8") as fh:
            for x in _seq(v):
                fh.write(json.dumps(_to_json_obj(x)) + "\n")
    except OSError as exc:
        raise ValueFault(f"ndJsonSerialize: cannot write {path}: {exc.strerror}") from None
    return True


def _io_env() -> Any:
    return make_record(sorted(os.environ.items()))


def _atoi(x: Any) -> int:
    s = expect_str(x)
    try:
        return int(s)
    except ValueError:
        raise ValueFault(f"atoi: {format_value(x)} is not a number") from None


def _special(arity: int, special: Callable) -> NativeSpec:
    return NativeSpec(arity, None, (), True, special)


def _m(arity: int, fn: Callable, op_params: tuple[int, ...] = (), impure: bool = False) -> NativeSpec:
    return NativeSpec(arity, fn, op_params, impure)


COMMUNITY_NATIVES: dict[tuple[str, str], NativeSpec] = {
    ("Bitwise", "&"): _m(2, lambda x, y: _nat(x) & _nat(y)),
    ("Bitwise", "|"): _m(2, lambda x, y: _nat(x) | _nat(y)),
    ("Bitwise", "^^"): _m(2, lambda x, y: _nat(x) ^ _nat(y)),
    ("Bitwise", "Not"): _m(1, _not),
    ("Bitwise", "shiftR"): _m(2, lambda n, p: _nat(n) >> _nat(p)),
    ("Combinatorics", "choose"): _m(2, _choose),
    ("BagsExt", "BagAdd"): _m(2, _bag_add),
    ("BagsExt", "BagRemove"): _m(2, _bag_remove),
    ("BagsExt", "BagRemoveAll"): _m(2, _bag_remove_all),
    ("BagsExt", "FoldBag"): _m(3, _fold_bag, (0,)),
    ("BagsExt", "SumBag"): _m(1, _sum_bag),
    ("BagsExt", "ProductBag"): _m(1, _product_bag),
    ("FiniteSetsExt", "FoldSet"): _m(3, _fold_set, (0,)),
    ("FiniteSetsExt", "kSubset"): _m(2, _ksubset),
    ("FiniteSetsExt", "SumSet"): _m(1, _sum_set),
    ("FiniteSetsExt", "ProductSet"): _m(1, _product_set),
    ("FiniteSetsExt", "MapThenSumSet"): _m(2, _map_then_sum_set, (0,)),
    ("FiniteSetsExt", "FlattenSet"): _m(1, lambda S: frozenset(x for T in expect_set(S) for x in expect_set(T))),
    ("Functions", "AntiFunction"): _m(1, _anti_function),
    ("Functions", "FoldFunctionOnSet"): _m(4, _fold_function_on_set, (0,)),
    ("Functions", "FoldFunction"): _m(3, _fold_function, (0,)),
    ("SequencesExt", "FoldSeq"): _m(3, _fold_function, (0,)),
    ("Functions", "SumFunctionOnSet"): _m(2, _sum_function_on_set),
    ("Functions", "SumFunction"): _m(1, lambda f: sum(expect_int(v) for _, v in fn_items(f))),
    ("SequencesExt", "SetToSeqs"): _m(1, _set_to_seqs),
    ("SequencesExt", "SetToAllKPermutations"): _m(1, _set_to_all_k_permutations),
    ("SequencesExt", "SelectInSeq"): _m(2, lambda s, t: _select_in_sub_seq(s, 1, len(_seq(s)), t), (1,)),
    ("SequencesExt", "SelectInSubSeq"): _m(4, _select_in_sub_seq, (3,)),
    ("SequencesExt", "SelectLastInSeq"): _m(
        2, lambda s, t: _select_in_sub_seq(s, 1, len(_seq(s)), t, last=True), (1,)),
    ("SequencesExt", "SelectLastInSubSeq"): _m(
        4, lambda s, f, to, t: _select_in_sub_seq(s, f, to, t, last=True), (3,)),
    ("SequencesExt", "RemoveFirst"): _m(2, _remove_first),
    ("SequencesExt", "RemoveFirstMatch"): _m(2, _remove_first_match, (1,)),
    ("SequencesExt", "Snoc"): _m(2, lambda e, s: _seq(s) + (e,)),
    ("SequencesExt", "Suffixes"): _m(1, _suffixes),
    ("SequencesExt", "Prefixes"): _m(1, _prefixes),
    ("SequencesExt", "LongestCommonPrefix"): _m(1, _longest_common_prefix),
    ("SequencesExt", "AllSubSeqs"): _m(1, _all_sub_seqs),
    ("SequencesExt", "SubSeqs"): _m(1, _sub_seqs),
    ("SequencesExt", "IndexFirstSubSeq"): _m(2, _index_first_sub_seq),
    ("SequencesExt", "ReplaceFirstSubSeq"): _m(3, _replace_first_sub_seq),
    ("SequencesExt", "ReplaceAllSubSeqs"): _m(3, _replace_all_sub_seqs),
    ("SequencesExt", "FlattenSeq"): _m(1, _flatten_seq),
    ("SequencesExt", "Zip"): _m(2, _zip),
    ("SequencesExt", "Interleave"): _m(2, _interleave),
    ("SequencesExt", "ToBag"): _m(1, _to_bag),
    ("SequencesExt", "IsSorted"): _m(2, _is_sorted, (1,)),
    ("SequencesExt", "FoldLeftDomain"): _m(3, _fold_left_domain, (0,)),
    ("SequencesExt", "FoldRightDomain"): _m(3, _fold_right_domain, (0,)),
    ("Graphs", "AreConnectedIn"): _m(3, _are_connected),
    ("Graphs", "IsStronglyConnected"): _m(1, _strongly_connected),
    ("Graphs", "SimplePath"): _m(1, _simple_paths),
    ("UndirectedGraphs", "AreConnectedIn"): _m(3, lambda m, n, G: _are_connected(m, n, G, undirected=True)),
    ("UndirectedGraphs", "ConnectedComponents"): _m(1, _connected_components),
    ("UndirectedGraphs", "IsStronglyConnected"): _m(
        1, lambda G: _connected_components(G) == frozenset({_graph(G)[0]})),
    ("UndirectedGraphs", "SimplePath"): _m(1, lambda G: _simple_paths(G, undirected=True)),
    ("VectorClocks", "CausalOrder"): _m(4, _causal_order, (1, 2, 3)),
    ("Statistics", "ChiSquare"): _m(3, _chi_square),
    ("DyadicRationals", "Add"): _m(2, _dyadic_add),
    ("DyadicRationals", "Half"): _m(1, _dyadic_half),
    ("CSV", "CSVWrite"): _m(3, _csv_write, impure=True),
    ("CSV", "CSVWriteRecord"): _m(4, _csv_write_record, impure=True),
    ("CSV", "CSVRead"): _m(3, _csv_read, impure=True),
    ("CSV", "CSVRecords"): _m(1, _csv_records, impure=True),
    ("GraphViz", "DotDiGraph"): _m(3, _dot_digraph, (1, 2)),
    ("SVG", "SVGElemToString"): _m(1, _svg_elem_to_string),
    ("SVG", "PointOnLine"): _m(3, _point_on_line),
    ("SVG", "NodeOfRingNetwork"): _m(5, _node_of_ring_network),
    ("SVG", "NodesOfDirectedMultiGraph"): _m(3, _nodes_of_directed_multi_graph),
    ("IOUtils", "IOExec"): _m(1, lambda c: _run(c, None, "IOExec"), impure=True),
    ("IOUtils", "IOEnvExec"): _m(2, lambda e, c: _run(c, e, "IOEnvExec"), impure=True),
    ("IOUtils", "IOExecTemplate"): _m(
        2, lambda t, p: _run(_template(t, p), None, "IOExecTemplate"), impure=True),
    ("IOUtils", "IOEnvExecTemplate"): _m(
        3, lambda e, t, p: _run(_template(t, p), e, "IOEnvExecTemplate"), impure=True),
    ("IOUtils", "Serialize"): _m(3, _serialize, impure=True),
    ("IOUtils", "Deserialize"): _m(2, _deserialize, impure=True),
    ("IOUtils", "IOSerialize"): _m(3, _io_serialize, impure=True),
    ("IOUtils", "IODeserialize"): _m(2, _io_deserialize, impure=True),
    ("IOUtils", "zeroPadN"): _m(2, _zero_pad),
    ("IOUtils", "IOEnv"): _m(0, _io_env),
    ("IOUtils", "atoi"): _m(1, _atoi),
    ("Json", "ToJson"): _m(1, _to_json),
    ("Json", "ToJsonArray"): _m(1, _to_json),
    ("Json", "ToJsonObject"): _m(1, _to_json),
    ("Json", "JsonSerialize"): _m(2, _json_serialize, impure=True),
    ("Json", "JsonDeserialize"): _m(1, _json_deserialize),
    ("Json", "ndJsonSerialize"): _m(2, _ndjson_serialize, impure=True),
    ("Json", "ndJsonDeserialize"): _m(1, _ndjson_deserialize),
}
