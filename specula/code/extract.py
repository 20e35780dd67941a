"""One file -> its symbols, call edges and writes, from the language's tag query.

The query (``queries/<lang>.scm``) finds definitions and references in C; Python only
names them: which type a method or field belongs to, which function encloses a call or a
write (by byte ranges, never by walking parents), signatures with the body cut off.
Files with syntax errors still yield whatever parsed.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from specula.code.languages import LANGUAGES, LanguageSpec, load_grammar, load_query
from specula.code.model import Call, FileIndex, Symbol, Write

__all__ = ["extract_file", "content_sha", "MUTATORS"]

# Method names that mutate the collection/object they are called on (a write to the receiver).
MUTATORS = frozenset(
    """put putAll putIfAbsent add addAll addFirst addLast remove removeAll removeIf retainAll clear set
    offer offerFirst offerLast poll pollFirst pollLast push pop insert append appendleft extend update delete
    erase emplace emplace_back push_back pop_back push_front pop_front discard setdefault popitem retain
    truncate drain compute computeIfAbsent computeIfPresent merge replace replaceAll incrementAndGet
    getAndIncrement decrementAndGet getAndDecrement addAndGet getAndAdd getAndSet compareAndSet lazySet
    accumulateAndGet updateAndGet store swap compare_exchange fetch_add fetch_sub Store Add Delete Swap
    CompareAndSwap LoadOrStore LoadAndDelete Set Inc Dec Push Pop Insert Remove Append Reset""".split()
)

_VIA = {"inc_statement": "++", "dec_statement": "++", "update_expression": "++", "send_statement": "<-"}
_SIG_MAX = 240
_TEXT_MAX = 48
_LEAVES = frozenset({"identifier", "field_identifier", "type_identifier", "qualified_identifier",
                     "destructor_name", "operator_name", "namespace_identifier"})
_SKIP_CHILDREN = frozenset({"type_qualifier", "ms_pointer_modifier", "attribute_specifier", "comment"})


_ANNOTATIONS = re.compile(r"^(?:@[\w.]+(?:\((?:[^()]|\([^()]*\))*\))?\s+)+")


def content_sha(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


@lru_cache(maxsize=None)
def _parser(language: str):
    import tree_sitter

    return tree_sitter.Parser(load_grammar(language))


def _text(node) -> str:
    return node.text.decode("utf-8", "replace")


def _short(node) -> str | None:
    if node is None:
        return None
    t = " ".join(_text(node).split())
    return t if len(t) <= _TEXT_MAX else t[: _TEXT_MAX - 1] + "…"


def _bare_type_name(text: str) -> str:
    """``Raft<T>`` -> ``Raft``; ``ns::Node`` -> ``Node``; ``*Foo`` -> ``Foo``."""
    t = text.split("<", 1)[0].strip().lstrip("*&").strip()
    if "::" in t:
        t = t.rsplit("::", 1)[1]
    if "." in t:
        t = t.rsplit(".", 1)[1]
    return t


def _declarator_leaf(d, allow_function: bool):
    """Walk a C/C++ declarator chain down to the declared name (None for prototypes)."""
    while d is not None:
        t = d.type
        if t in _LEAVES:
            return d
        if t == "function_declarator":
            inner = d.child_by_field_name("declarator")
            if not allow_function and (inner is None or inner.type != "parenthesized_declarator"):
                return None
            d = inner
            continue
        nxt = d.child_by_field_name("declarator")
        if nxt is None:
            nxt = next((c for c in d.named_children if c.type not in _SKIP_CHILDREN), None)
        d = nxt
    return None


def _split_qualified(leaf) -> tuple[str, str | None]:
    """``Node::id`` -> (``id``, ``Node``); plain names -> (name, None)."""
    if leaf.type != "qualified_identifier":
        return _text(leaf), None
    scope = leaf.child_by_field_name("scope")
    name = leaf.child_by_field_name("name")
    while name is not None and name.type == "qualified_identifier":
        scope, name = name.child_by_field_name("scope"), name.child_by_field_name("name")
    recv = _bare_type_name(_text(scope)) if scope is not None else None
    return (_text(name) if name is not None else _text(leaf)), recv


def _has_static(node) -> bool:
    for c in node.children:
        if c.type in ("storage_class_specifier", "modifiers") and "static" in _text(c).split():
            return True
    return False


def _is_extern(node) -> bool:
    return any(c.type == "storage_class_specifier" and _text(c) == "extern" for c in node.children)


def _collapse_braces(text: str) -> str:
    """``union { int a; } r;`` -> ``union {…} r;`` (non-empty brace bodies, outermost level)."""
    if "{" not in text:
        return text
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                out.append(text[start : i + 1])
                start = i + 1
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                out.append("…}" if text[start:i].strip() else "}")
                start = i + 1
    out.append(text[start:] if depth == 0 else "…")
    return "".join(out)


def _in_named_member_of_anonymous(field_decl) -> bool:
    """Is this C/C++ field inside an anonymous struct/union that is itself a named member (``} r;``)?"""
    lst = field_decl.parent
    spec = lst.parent if lst is not None else None
    if spec is None or spec.type not in ("struct_specifier", "union_specifier") or spec.child_by_field_name("name"):
        return False
    holder = spec.parent
    return holder is not None and holder.type == "field_declaration" and holder.child_by_field_name("declarator") is not None


def _is_test_module(node) -> bool:
    """Rust ``mod tests`` / ``mod test``, or any module right after ``#[cfg(test)]``."""
    name = node.child_by_field_name("name")
    if name is not None and _text(name) in ("test", "tests"):
        return True
    prev = node.prev_named_sibling
    return prev is not None and prev.type == "attribute_item" and "cfg(test)" in _text(prev).replace(" ", "")


def _signature(node, source: bytes) -> str:
    body = node.child_by_field_name("body")
    end = body.start_byte if body is not None else node.end_byte
    sig = " ".join(source[node.start_byte : end].decode("utf-8", "replace").split())
    sig = _ANNOTATIONS.sub("", sig).rstrip("{;").rstrip()
    if sig.endswith(":") and not sig.endswith("::"):
        sig = sig[:-1]
    return sig if len(sig) <= _SIG_MAX else sig[: _SIG_MAX - 1] + "…"


class _Ranges:
    """Properly nested byte ranges; finds the innermost one strictly enclosing a node."""

    def __init__(self, items: list[tuple[int, int, str]]) -> None:
        items = sorted(set(items), key=lambda x: (x[0], -x[1]))
        self.items = items
        self.starts = [s for s, _, _ in items]
        self.parent: list[int] = []
        stack: list[int] = []
        for i, (s, e, _) in enumerate(items):
            while stack and items[stack[-1]][1] < e:
                stack.pop()
            self.parent.append(stack[-1] if stack else -1)
            stack.append(i)

    def innermost(self, start: int, end: int) -> tuple[int, str] | None:
        i = bisect_right(self.starts, start) - 1
        while i >= 0:
            s, e, q = self.items[i]
            if s <= start and end <= e and (s, e) != (start, end):
                return s, q
            i = self.parent[i]
        return None


@dataclass(slots=True)
class _Def:
    kind: str
    node: object
    name: object  # name node or None
    caps: dict


def extract_file(source: bytes, language: str, path: str = "", sha: str | None = None) -> FileIndex:
    """Index one file's source. Never raises on syntax errors: what parses is kept."""
    import tree_sitter

    spec = LANGUAGES[language]
    tree = _parser(language).parse(source)
    root = tree.root_node
    matches = tree_sitter.QueryCursor(load_query(language)).matches(root)
    defs: list[_Def] = []
    refs: list[tuple[str, object, dict]] = []
    for _, caps in matches:
        for key, nodes in caps.items():
            if key.startswith("definition."):
                kind = key[11:]
                name_nodes = caps.get("name.definition." + kind)
                defs.append(_Def(kind, nodes[0], name_nodes[0] if name_nodes else None, caps))
                break
            if key.startswith("reference."):
                refs.append((key[10:], nodes[0], caps))
                break

    fi = FileIndex(path=path, language=language, sha=sha or content_sha(source),
                   lines=source.count(b"\n") + 1, has_errors=root.has_error)
    _Extractor(spec, source, path, fi).run(defs, refs)
    return fi


class _Extractor:
    def __init__(self, spec: LanguageSpec, source: bytes, path: str, out: FileIndex) -> None:
        self.spec = spec
        self.source = source
        self.path = path
        self.out = out

    # ---- containers (types, impl blocks) and functions, by byte range
    def _type_name(self, d: _Def) -> str | None:
        node = d.node
        if d.name is not None:
            return _bare_type_name(_text(d.name))
        if d.kind == "type":  # C/C++ typedef: the declarator's name
            leaf = _declarator_leaf(node.child_by_field_name("declarator"), allow_function=True)
            return _text(leaf) if leaf is not None else None
        name = node.child_by_field_name("name")
        if name is not None:
            return _bare_type_name(_text(name))
        parent = node.parent
        if parent is not None and parent.type == "type_definition":
            leaf = _declarator_leaf(parent.child_by_field_name("declarator"), allow_function=True)
            return _text(leaf) if leaf is not None else None
        return None

    def run(self, defs: list[_Def], refs: list) -> None:
        """Name everything: containers first (methods and fields need them), then functions (refs
        need their ranges), then variables, then references."""
        types, containers = self._containers(defs)
        resolved, functions = self._functions(defs, containers)
        self._emit_types(types, containers)
        self._emit_functions(resolved)
        self._variables(defs, containers, functions)
        self.out.symbols.sort(key=lambda s: (s.line, -s.end_line))
        self._references(refs, functions)

    def _containers(self, defs: list[_Def]) -> tuple[list[tuple[_Def, str]], _Ranges]:
        types: list[tuple[_Def, str]] = []
        container_items: list[tuple[int, int, str]] = []
        for d in defs:
            if d.kind in ("function", "method", "field", "variable", "constant"):
                continue
            if d.kind == "testmod":
                if _is_test_module(d.node):
                    self.out.test_spans.append((d.node.start_point[0] + 1, d.node.end_point[0] + 1))
                continue
            name = self._type_name(d)
            if name is None:
                continue
            node = d.node
            if d.kind == "impl":
                container_items.append((node.start_byte, node.end_byte, name))
                continue
            if d.kind == "type" and self.spec.c_family:
                inner = node.child_by_field_name("type")
                if inner is not None and inner.child_by_field_name("body") is not None:
                    tag = inner.child_by_field_name("name")
                    if tag is None or _text(tag) == name:
                        continue  # `typedef struct [name_t] {...} name_t`: the struct itself carries the name
            types.append((d, name))
            if node.type in self.spec.containers:
                container_items.append((node.start_byte, node.end_byte, name))
        return types, _Ranges(container_items)

    def _functions(self, defs: list[_Def], containers: _Ranges) -> tuple[list[tuple[_Def, str, str | None, str]], _Ranges]:
        """Each function's name and parent: receiver, class/impl, or the enclosing function."""
        funcs: list[tuple[_Def, str, str | None, str]] = []  # def, name, parent, kind
        for d in defs:
            if d.kind not in ("function", "method"):
                continue
            node = d.node
            recv = None
            if d.name is not None:
                name = _text(d.name)
            else:  # C family
                leaf = _declarator_leaf(node.child_by_field_name("declarator"), allow_function=True)
                if leaf is None:
                    continue
                name, recv = _split_qualified(leaf)
            rnodes = d.caps.get("receiver")
            if rnodes:
                recv = _bare_type_name(_text(rnodes[0]))
            funcs.append((d, name, recv, "method" if recv else "function"))
        # enclosing containers for methods; nested functions get the outer function as parent
        func_items: list[tuple[int, int, str]] = []
        resolved: list[tuple[_Def, str, str | None, str]] = []
        # sort by start so outer functions are named before inner ones
        funcs.sort(key=lambda f: f[0].node.start_byte)
        open_fns: list[tuple[int, int, str]] = []  # stack of functions enclosing the current one
        for d, name, recv, kind in funcs:
            node = d.node
            while open_fns and open_fns[-1][1] < node.end_byte:
                open_fns.pop()
            if recv is None:
                c = containers.innermost(node.start_byte, node.end_byte)
                f = (open_fns[-1][0], open_fns[-1][2]) if open_fns else None
                if c is not None and (f is None or c[0] > f[0]):
                    recv, kind = c[1], "method"
                elif f is not None:
                    recv = f[1]
            qual = f"{recv}.{name}" if recv else name
            open_fns.append((node.start_byte, node.end_byte, qual))
            resolved.append((d, name, recv, kind))
            func_items.append((node.start_byte, node.end_byte, qual))
        return resolved, _Ranges(func_items)

    def _emit_types(self, types: list[tuple[_Def, str]], containers: _Ranges) -> None:
        src, symbols = self.source, self.out.symbols
        for d, name in types:
            node = d.node
            parent = None
            c = containers.innermost(node.start_byte, node.end_byte)
            if c is not None:
                parent = c[1]
            sig = _signature(node, src)
            if node.type == "type_definition":  # C/C++ typedef of a tagged struct: no body in the signature
                inner = node.child_by_field_name("type")
                if inner is not None and inner.child_by_field_name("body") is not None:
                    sig = f"typedef {_signature(inner, src)} {name}"
            elif node.type in ("struct_specifier", "union_specifier") and node.child_by_field_name("name") is None:
                sig = f"typedef {sig} {{…}} {name}"
            if node.type == "type_spec":  # Go: `raft struct` -> `type raft struct`
                kw = {"struct": " struct", "interface": " interface"}.get(d.kind, "")
                sig = f"type {name}{kw}" if kw else "type " + sig
            symbols.append(Symbol(name, d.kind, self.path, node.start_point[0] + 1, node.end_point[0] + 1,
                                  parent, sig))

    def _emit_functions(self, resolved: list[tuple[_Def, str, str | None, str]]) -> None:
        src, symbols = self.source, self.out.symbols
        for d, name, recv, kind in resolved:
            node = d.node
            sig = _signature(node, src)
            if node.child_by_field_name("body") is None:
                sig += ";"  # a declaration without a body (interface/trait/abstract method)
            symbols.append(Symbol(name, kind, self.path, node.start_point[0] + 1, node.end_point[0] + 1,
                                  recv, sig))

    def _variables(self, defs: list[_Def], containers: _Ranges, functions: _Ranges) -> None:
        """Fields, globals, constants and locals, classified by what encloses them."""
        src, symbols = self.source, self.out.symbols
        seen: set[tuple[str, str | None, str]] = set()
        for d in defs:
            if d.kind not in ("field", "variable", "constant"):
                continue
            node = d.node
            names = self._var_names(d)
            if not names:
                continue
            tnodes = d.caps.get("type")
            tnode = tnodes[0] if tnodes else node.child_by_field_name("type")
            vtype = " ".join(_text(tnode).split()) if tnode is not None else None
            if vtype is None and node.type == "const_spec":  # Go: `B` after `A T = iota` has type T
                prev = node.prev_named_sibling
                while prev is not None and vtype is None:
                    if prev.type == "const_spec" and prev.child_by_field_name("type") is not None:
                        vtype = _text(prev.child_by_field_name("type"))
                    prev = prev.prev_named_sibling if prev.type in ("const_spec", "comment") else None
            static = node.type in ("static_item", "constant_declaration") or _has_static(node)
            c = containers.innermost(node.start_byte, node.end_byte)
            f = functions.innermost(node.start_byte, node.end_byte)
            if d.kind == "field":
                if c is None or (f is not None and f[0] > c[0] and node.type != "assignment"):
                    continue  # fields of anonymous structs inside functions
                kind, parent = "field", c[1]
            elif f is not None and (c is None or f[0] > c[0]):
                if d.kind == "constant":
                    continue  # function-local constants are not state
                kind, parent = ("global" if static else "local"), f[1]
            elif c is not None:
                kind, parent = "field", c[1]
            else:
                kind, parent = ("constant" if d.kind == "constant" else "global"), None
            if node.type == "field_declaration" and self.spec.c_family and _in_named_member_of_anonymous(node):
                continue  # `union { int a; } r;`: `a` is reached through field `r`, whose type shows it
            sig = _collapse_braces(" ".join(src[node.start_byte : node.end_byte].decode("utf-8", "replace").split()))
            sig = _ANNOTATIONS.sub("", sig)
            if node.type == "var_spec":
                sig = "var " + sig
            elif node.type == "const_spec":
                sig = "const " + sig
            if len(sig) > 160:
                sig = sig[:159] + "…"
            for n in names:
                key = (n, parent, kind)
                if key in seen:
                    continue
                seen.add(key)
                symbols.append(Symbol(n, kind, self.path, node.start_point[0] + 1, node.end_point[0] + 1,
                                      parent, sig, vtype, static))

    def _references(self, refs: list, functions: _Ranges) -> None:
        calls, writes = self.out.calls, self.out.writes
        for kind, node, caps in refs:
            name_nodes = caps.get("name.reference." + kind)
            if not name_nodes:
                continue
            name = _text(name_nodes[0])
            f = functions.innermost(node.start_byte, node.end_byte)
            caller = f[1] if f is not None else None
            line = name_nodes[0].start_point[0] + 1
            if kind in ("call", "ref"):
                r = caps.get("receiver")
                calls.append(Call(caller, name, self.path, line, _short(r[0]) if r else None, kind))
            elif kind == "write":
                if name == "_":
                    continue  # Go's blank identifier
                b = caps.get("base")
                m = caps.get("method")
                via = _text(m[0]) if m else _VIA.get(node.type, "=")
                writes.append(Write(name, caller, self.path, line, _short(b[0]) if b else None, via))
            elif kind == "mutate":
                m = caps.get("method")
                if not m:
                    continue
                method = _text(m[0])
                if method not in MUTATORS:
                    continue
                b = caps.get("base")
                writes.append(Write(name, caller, self.path, line, _short(b[0]) if b else None, method))

    def _var_names(self, d: _Def) -> list[str]:
        node = d.node
        if d.name is not None:
            return [_text(d.name)]
        if not self.spec.c_family:
            return []
        if node.type == "declaration" and _is_extern(node):
            return []
        out = []
        for decl in node.children_by_field_name("declarator"):
            leaf = _declarator_leaf(decl, allow_function=False)
            if leaf is not None and leaf.type in ("identifier", "field_identifier"):
                out.append(_text(leaf))
        return out

