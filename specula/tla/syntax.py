"""TLA+ text -> ``specula.tla.ast`` via tree-sitter-tlaplus, in one walk of the tree.

``parse_module(text, file)`` returns the first module of ``text`` or raises ``SpecError`` with
diagnostics: syntax errors (``E101``, pointing at the offending token) and operator precedence
conflicts (``E102``, e.g. ``a /\\ b \\/ c`` or ``a = b = c`` without parentheses), which SANY
reports while parsing. Proofs, PlusCal algorithms and comments are parsed and dropped.
"""

from __future__ import annotations

import functools
import sys
from bisect import bisect_right
from typing import Callable, Iterable

from specula.diagnostics import Diagnostic
from specula.errors import SpecError
from specula.tla import ast
from specula.tla.longlines import split_long_lines
from specula.tla.syntax_errors import find_syntax_errors
from specula.tla.tree_parser import parser

__all__ = [
    "parse_module",
    "parse_modules",
    "parse_expression",
    "INFIX_NAMES",
    "PREFIX_NAMES",
    "POSTFIX_NAMES",
    "INFIX_PRECEDENCE",
    "PREFIX_PRECEDENCE",
]

# tree-sitter symbol node type -> canonical operator name (see ast.py's docstring)
INFIX_NAMES: dict[str, str] = {
    "implies": "=>", "plus_arrow": "-+->", "equiv": "<=>", "iff": "<=>", "leads_to": "~>",
    "land": "/\\", "lor": "\\/", "assign": ":=", "bnf_rule": "::=", "eq": "=", "neq": "#",
    "lt": "<", "gt": ">", "leq": "<=", "geq": ">=", "approx": "\\approx", "rs_ttile": "|-",
    "rd_ttile": "|=", "ls_ttile": "-|", "ld_ttile": "=|", "asymp": "\\asymp", "cong": "\\cong",
    "doteq": "\\doteq", "gg": "\\gg", "ll": "\\ll", "in": "\\in", "notin": "\\notin",
    "prec": "\\prec", "succ": "\\succ", "preceq": "\\preceq", "succeq": "\\succeq",
    "propto": "\\propto", "sim": "\\sim", "simeq": "\\simeq", "sqsubset": "\\sqsubset",
    "sqsupset": "\\sqsupset", "sqsubseteq": "\\sqsubseteq", "sqsupseteq": "\\sqsupseteq",
    "subset": "\\subset", "supset": "\\supset", "subseteq": "\\subseteq", "supseteq": "\\supseteq",
    "compose": "@@", "map_to": ":>", "map_from": "<:", "setminus": "\\", "cap": "\\cap",
    "cup": "\\cup", "dots_2": "..", "dots_3": "...", "plus": "+", "plusplus": "++",
    "oplus": "\\oplus", "ominus": "\\ominus", "mod": "%", "modmod": "%%", "vert": "|",
    "vertvert": "||", "minus": "-", "minusminus": "--", "amp": "&", "ampamp": "&&",
    "odot": "\\odot", "oslash": "\\oslash", "otimes": "\\otimes", "mul": "*", "mulmul": "**",
    "slash": "/", "slashslash": "//", "bigcirc": "\\bigcirc", "bullet": "\\bullet",
    "div": "\\div", "circ": "\\o", "star": "\\star", "excl": "!!", "qq": "??", "hashhash": "##",
    "dol": "$", "doldol": "$$", "sqcap": "\\sqcap", "sqcup": "\\sqcup", "uplus": "\\uplus",
    "times": "\\X", "wr": "\\wr", "cdot": "\\cdot", "pow": "^", "powpow": "^^",
}
PREFIX_NAMES: dict[str, str] = {
    "lnot": "~", "union": "UNION", "powerset": "SUBSET", "domain": "DOMAIN", "negative": "-.",
    "enabled": "ENABLED", "unchanged": "UNCHANGED", "always": "[]", "eventually": "<>",
}
POSTFIX_NAMES: dict[str, str] = {"sup_plus": "^+", "asterisk": "^*", "sup_hash": "^#", "prime": "'"}

# canonical name -> (low, high, left-associative), from "Specifying Systems" / SANY
INFIX_PRECEDENCE: dict[str, tuple[int, int, bool]] = {
    "=>": (1, 1, False), "-+->": (2, 2, False), "<=>": (2, 2, False), "~>": (2, 2, False),
    "/\\": (3, 3, True), "\\/": (3, 3, True),
    "@@": (6, 6, True), ":>": (7, 7, False), "<:": (7, 7, False),
    "\\": (8, 8, False), "\\cap": (8, 8, True), "\\cup": (8, 8, True),
    "..": (9, 9, False), "...": (9, 9, False), "!!": (9, 13, False), "##": (9, 13, True),
    "$": (9, 13, True), "$$": (9, 13, True), "??": (9, 13, True), "\\sqcap": (9, 13, True),
    "\\sqcup": (9, 13, True), "\\uplus": (9, 13, True), "\\wr": (9, 14, False),
    "+": (10, 10, True), "++": (10, 10, True), "\\oplus": (10, 10, True), "%": (10, 11, False),
    "%%": (10, 11, True), "|": (10, 11, True), "||": (10, 11, True),
    "-": (11, 11, True), "--": (11, 11, True), "\\ominus": (11, 11, True),
    "&": (13, 13, True), "&&": (13, 13, True), "\\odot": (13, 13, True), "\\oslash": (13, 13, False),
    "\\otimes": (13, 13, True), "*": (13, 13, True), "**": (13, 13, True), "/": (13, 13, False),
    "//": (13, 13, False), "\\bigcirc": (13, 13, True), "\\bullet": (13, 13, True),
    "\\div": (13, 13, False), "\\o": (13, 13, True), "\\star": (13, 13, True),
    "\\X": (10, 13, True), "^": (14, 14, False), "^^": (14, 14, False), "\\cdot": (5, 14, True),
}
for _rel in ("=", "#", "<", ">", "<=", ">=", ":=", "::=", "\\approx", "|-", "|=", "-|", "=|",
             "\\asymp", "\\cong", "\\doteq", "\\gg", "\\ll", "\\in", "\\notin", "\\prec", "\\succ",
             "\\preceq", "\\succeq", "\\propto", "\\sim", "\\simeq", "\\sqsubset", "\\sqsupset",
             "\\sqsubseteq", "\\sqsupseteq", "\\subset", "\\supset", "\\subseteq", "\\supseteq"):
    INFIX_PRECEDENCE[_rel] = (5, 5, False)
del _rel
PREFIX_PRECEDENCE: dict[str, tuple[int, int]] = {
    "~": (4, 4), "[]": (4, 15), "<>": (4, 15), "ENABLED": (4, 15), "UNCHANGED": (4, 15),
    "DOMAIN": (9, 9), "SUBSET": (8, 8), "UNION": (8, 8), "-.": (12, 12),
}

_EXTRAS = frozenset({"comment", "block_comment"})
RESERVED = frozenset("""
ASSUME ASSUMPTION AXIOM CASE CHOOSE CONSTANT CONSTANTS DOMAIN ELSE ENABLED EXCEPT EXTENDS IF IN
INSTANCE LET LOCAL MODULE OTHER SUBSET THEN THEOREM UNCHANGED UNION VARIABLE VARIABLES WITH LAMBDA
ACTION BY COROLLARY DEF DEFINE DEFS HAVE HIDE LEMMA NEW OBVIOUS OMITTED ONLY PICK PROOF PROPOSITION
PROVE QED RECURSIVE STATE SUFFICES TAKE TEMPORAL USE WITNESS TRUE FALSE BOOLEAN STRING
""".split())
_BUILTIN_SETS = {
    "nat_number_set": "Nat", "int_number_set": "Int", "real_number_set": "Real",
    "string_set": "STRING", "boolean_set": "BOOLEAN",
}
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "\\": "\\", '"': '"'}
_SKIPPED_UNITS = frozenset({"use_or_hide", "single_line", "comment", "block_comment",
                            "header_line", "double_line", "extends", "identifier", "def_eq"})


class _Source:
    """Byte text plus line table: turns tree-sitter byte offsets into 1-based lines and char columns."""

    def __init__(self, text: str, file: str, line_base: int = 0, byte_base: int = 0) -> None:
        self.text = text
        self.file = file
        self.line_base = line_base  # lines and bytes of a wrapper prepended to the real text
        self.byte_base = byte_base
        self.data = text.encode("utf-8")
        self.ascii = text.isascii()
        starts = [0]
        find = self.data.find
        i = find(b"\n")
        while i >= 0:
            starts.append(i + 1)
            i = find(b"\n", i + 1)
        self.line_starts = starts
        self.orig = self.data  # the text the spans and the line table refer to
        self._ends: list[int] = []  # line breaks inserted for the parser (longlines): end offsets
        self._cum: list[int] = [0]  # bytes inserted before each of them

    def split_long_lines(self) -> bool:
        """Parse a copy with very long lines broken (``longlines``); offsets are mapped back."""
        split = split_long_lines(self.orig)
        if split is None:
            return False
        self.data, inserted = split
        total = 0
        for at, n in inserted:
            total += n
            self._ends.append(at + n)
            self._cum.append(total)
        return True

    def _orig(self, offset: int) -> int:
        """An offset of the parsed text as an offset of the original text."""
        k = bisect_right(self._ends, offset)
        if k and offset < self._ends[k - 1]:  # inside an inserted break: its position
            return self._ends[k - 1] - (self._cum[k] - self._cum[k - 1]) - self._cum[k - 1]
        return offset - self._cum[k]

    def line_col(self, offset: int) -> tuple[int, int]:
        if self._ends:
            offset = self._orig(offset)
        row = bisect_right(self.line_starts, offset) - 1
        start = self.line_starts[row]
        if self.ascii:
            return row + 1 - self.line_base, offset - start + 1
        return row + 1 - self.line_base, len(self.orig[start:offset].decode("utf-8", errors="replace")) + 1

    def span(self, node) -> ast.Span:
        return self.span_bytes(node.start_byte, node.end_byte)

    def span_between(self, first, last) -> ast.Span:
        return self.span_bytes(first.start_byte, last.end_byte)

    def span_bytes(self, start: int, end: int) -> ast.Span:
        if self._ends:
            start, end = self._orig(start), self._orig(end)
        starts = self.line_starts
        r0 = bisect_right(starts, start) - 1
        nxt = r0 + 1
        if nxt >= len(starts) or end < starts[nxt]:
            r1 = r0  # one-line node (the common case): no second search
        else:
            r1 = bisect_right(starts, end, nxt) - 1
        if self.ascii:
            c0 = start - starts[r0] + 1
            c1 = end - starts[r1] + 1
        else:
            data = self.orig
            c0 = len(data[starts[r0]:start].decode("utf-8", errors="replace")) + 1
            c1 = len(data[starts[r1]:end].decode("utf-8", errors="replace")) + 1
        b, lb = self.byte_base, self.line_base
        return _new_span((self.file, start - b, end - b, r0 + 1 - lb, c0, r1 + 1 - lb, c1))


_new_span = functools.partial(tuple.__new__, ast.Span)


def _kids(node) -> list:
    """Named children without comments."""
    return [c for c in node.named_children if c.type not in _EXTRAS]


def _text(node) -> str:
    return node.text.decode("utf-8")


def _op_symbol_name(node) -> str:
    """Canonical name of an ``infix_op_symbol`` / ``prefix_op_symbol`` / ``postfix_op_symbol``
    wrapper node, or of a bare symbol node."""
    kind = node.type
    if kind in ("infix_op_symbol", "prefix_op_symbol", "postfix_op_symbol"):
        inner = _kids(node)
        sym = inner[0].type if inner else ""
        if kind == "prefix_op_symbol":
            return PREFIX_NAMES.get(sym, sym)
        if kind == "postfix_op_symbol":
            return POSTFIX_NAMES.get(sym, sym)
        return INFIX_NAMES.get(sym, sym)
    return INFIX_NAMES.get(kind) or PREFIX_NAMES.get(kind) or POSTFIX_NAMES.get(kind) or _text(node)


class _Builder:
    """One walk over a tree-sitter tree, producing AST nodes and collecting diagnostics."""

    def __init__(self, src: _Source) -> None:
        self.src = src
        self.diags: list[Diagnostic] = []
        self.conflicts: list[tuple[int, int]] = []
        self.expr_table: dict[str, Callable] = {
            "identifier_ref": self.identifier_ref,
            "identifier": self.identifier_ref,
            "nat_number": self.nat_number,
            "real_number": self.real_number,
            "binary_number": self.based_number,
            "octal_number": self.based_number,
            "hex_number": self.based_number,
            "string": self.string,
            "boolean": self.boolean,
            "parentheses": self.parentheses,
            "bound_infix_op": self.bound_infix_op,
            "bound_prefix_op": self.bound_prefix_op,
            "bound_postfix_op": self.bound_postfix_op,
            "bound_op": self.bound_op,
            "bound_nonfix_op": self.bound_nonfix_op,
            "prefixed_op": self.prefixed_op,
            "subexpression": self.subexpression,
            "conj_list": self.junction_list,
            "disj_list": self.junction_list,
            "bounded_quantification": self.bounded_quantification,
            "unbounded_quantification": self.unbounded_quantification,
            "choose": self.choose,
            "finite_set_literal": self.finite_set_literal,
            "set_filter": self.set_filter,
            "set_map": self.set_map,
            "function_literal": self.function_literal,
            "function_evaluation": self.function_evaluation,
            "set_of_functions": self.set_of_functions,
            "record_literal": self.record_literal,
            "set_of_records": self.set_of_records,
            "record_value": self.record_value,
            "tuple_literal": self.tuple_literal,
            "except": self.except_,
            "prev_func_val": self.at,
            "if_then_else": self.if_then_else,
            "case": self.case,
            "let_in": self.let_in,
            "lambda": self.lambda_,
            "step_expr_or_stutter": self.box_action,
            "step_expr_no_stutter": self.angle_action,
            "fairness": self.fairness,
            "label": self.label,
            "infix_op_symbol": self.op_as_name,
            "prefix_op_symbol": self.op_as_name,
            "postfix_op_symbol": self.op_as_name,
        }
        for kind, name in _BUILTIN_SETS.items():
            self.expr_table[kind] = functools.partial(self.builtin_set, name)

    # ------------------------------------------------------------------ diagnostics

    def name_of(self, node) -> str:
        """Text of a declared name (definition, parameter, bound variable), rejecting reserved words."""
        text = _text(node)
        if text in RESERVED:
            self.error("E101", f"syntax error: '{text}' is a reserved word and cannot be used as a name", node)
        return text

    def error(self, code: str, message: str, node, help: str | None = None) -> None:
        sp = self.src.span(node)
        self.diags.append(Diagnostic("error", code, message, sp.file, sp.line, sp.col,
                                     sp.end_line, sp.end_col, help))

    # ------------------------------------------------------------------ expressions

    def expr(self, node) -> ast.Expr:
        fn = self.expr_table.get(node.type)
        if fn is None:
            raise _Unsupported(node)
        return fn(node)

    def identifier_ref(self, node) -> ast.Expr:
        start, end = node.start_byte, node.end_byte
        return ast.Name(self.src.data[start:end].decode("utf-8"), span=self.src.span_bytes(start, end))

    def builtin_set(self, name: str, node) -> ast.Expr:
        return ast.Name(name, span=self.src.span(node))

    def op_as_name(self, node) -> ast.Expr:
        return ast.Name(_op_symbol_name(node), span=self.src.span(node))

    def nat_number(self, node) -> ast.Expr:
        text = _text(node)
        return ast.Number(int(text), text, span=self.src.span(node))

    def real_number(self, node) -> ast.Expr:
        text = _text(node)
        return ast.Number(int(text.split(".")[0]), text, span=self.src.span(node))

    def based_number(self, node) -> ast.Expr:
        text = _text(node)
        base = {"b": 2, "o": 8, "h": 16}[text[1].lower()]
        return ast.Number(int(text[2:], base), text, span=self.src.span(node))

    def string(self, node) -> ast.Expr:
        raw = _text(node)[1:-1]
        if "\\" in raw:
            out: list[str] = []
            i = 0
            while i < len(raw):
                ch = raw[i]
                if ch == "\\" and i + 1 < len(raw):
                    if raw[i + 1] not in _ESCAPES:
                        at = node.start_byte + 1 + len(raw[:i].encode("utf-8"))
                        sp = self.src.span_bytes(at, at + 2)
                        self.diags.append(Diagnostic(
                            "error", "E101", "invalid escape in string: use \\\" \\\\ \\n \\t \\r or \\f",
                            sp.file, sp.line, sp.col, sp.end_line, sp.end_col))
                    out.append(_ESCAPES.get(raw[i + 1], raw[i + 1]))
                    i += 2
                else:
                    out.append(ch)
                    i += 1
            raw = "".join(out)
        return ast.String(raw, span=self.src.span(node))

    def boolean(self, node) -> ast.Expr:
        text = _text(node)
        if text == "BOOLEAN":
            return ast.Name("BOOLEAN", span=self.src.span(node))
        return ast.Bool(text == "TRUE", span=self.src.span(node))

    def parentheses(self, node) -> ast.Expr:
        return self.expr(_kids(node)[0])

    def label(self, node) -> ast.Expr:
        return self.expr(node.child_by_field_name("expression"))

    def bound_infix_op(self, node) -> ast.Expr:
        sym = node.child_by_field_name("symbol")
        name = _op_symbol_name(sym)
        lhs = node.child_by_field_name("lhs")
        rhs = node.child_by_field_name("rhs")
        self.check_precedence(node, name, lhs, rhs)
        span = self.src.span(node)
        if name in ("/\\", "\\/", "\\X"):
            # flatten the left-nested chain a op b op c (same operator, no parentheses)
            items = [rhs]
            cur = lhs
            while cur.type == "bound_infix_op" and _op_symbol_name(cur.child_by_field_name("symbol")) == name \
                    and cur.child_by_field_name("prefix") is None:
                self.check_precedence(cur, name, cur.child_by_field_name("lhs"), cur.child_by_field_name("rhs"))
                items.append(cur.child_by_field_name("rhs"))
                cur = cur.child_by_field_name("lhs")
            items.append(cur)
            args = tuple(self.expr(n) for n in reversed(items))
            if name == "/\\":
                return ast.And(args, span=span)
            if name == "\\/":
                return ast.Or(args, span=span)
            return ast.OpApp("\\X", args, span=span)
        prefix = node.child_by_field_name("prefix")
        if prefix is not None:
            path, path_args = self.subexpr_prefix(prefix)
            return ast.OpApp(name, (self.expr(lhs), self.expr(rhs)), path, path_args, span=span)
        return ast.OpApp(name, (self.expr(lhs), self.expr(rhs)), span=span)

    def bound_prefix_op(self, node) -> ast.Expr:
        name = _op_symbol_name(node.child_by_field_name("symbol"))
        rhs = node.child_by_field_name("rhs")
        self.check_prefix_precedence(node, name, rhs)
        return ast.OpApp(name, (self.expr(rhs),), span=self.src.span(node))

    def bound_postfix_op(self, node) -> ast.Expr:
        name = _op_symbol_name(node.child_by_field_name("symbol"))
        lhs = self.expr(node.child_by_field_name("lhs"))
        if name == "'":
            return ast.Prime(lhs, span=self.src.span(node))
        return ast.OpApp(name, (lhs,), span=self.src.span(node))

    def _call_parts(self, node) -> tuple[str, tuple[ast.Expr, ...]]:
        """(name, args) of a ``bound_op`` or ``bound_nonfix_op`` node, or a bare reference."""
        if node.type == "bound_op":
            name = _text(node.child_by_field_name("name"))
            args = tuple(self.expr(c) for c in node.children_by_field_name("parameter")
                         if c.is_named and c.type not in _EXTRAS)
            return name, args
        if node.type == "bound_nonfix_op":
            kids = _kids(node)
            return _op_symbol_name(kids[0]), tuple(self.expr(c) for c in kids[1:])
        if node.type in ("infix_op_symbol", "prefix_op_symbol", "postfix_op_symbol"):
            return _op_symbol_name(node), ()
        return _text(node), ()

    def bound_op(self, node) -> ast.Expr:
        name, args = self._call_parts(node)
        return ast.OpApp(name, args, span=self.src.span(node))

    def bound_nonfix_op(self, node) -> ast.Expr:
        name, args = self._call_parts(node)
        return ast.OpApp(name, args, span=self.src.span(node))

    def subexpr_prefix(self, node) -> tuple[tuple[str, ...], tuple[tuple[ast.Expr, ...], ...]]:
        names: list[str] = []
        args: list[tuple[ast.Expr, ...]] = []
        for comp in _kids(node):
            if comp.type == "subexpr_component":
                inner = _kids(comp)[0]
                name, a = self._call_parts(inner)
            else:  # subexpr_tree_nav (``!1``, ``!:``, ``!<<``): kept as text
                name, a = _text(comp).rstrip("!"), ()
            names.append(name)
            args.append(a)
        return tuple(names), tuple(args)

    def prefixed_op(self, node) -> ast.Expr:
        path, path_args = self.subexpr_prefix(node.child_by_field_name("prefix"))
        name, args = self._call_parts(node.child_by_field_name("op"))
        return ast.OpApp(name, args, path, path_args, span=self.src.span(node))

    def subexpression(self, node) -> ast.Expr:
        # ``Op!1`` / ``Op!:`` style positional navigation: name is the last step's text
        kids = _kids(node)
        path, path_args = self.subexpr_prefix(kids[0]) if kids[0].type == "subexpr_prefix" else ((), ())
        last = kids[-1]
        return ast.OpApp(_text(last).lstrip("!"), (), path, path_args, span=self.src.span(node))

    def junction_list(self, node) -> ast.Expr:
        items = tuple(self.expr(_kids(item)[-1]) for item in _kids(node))
        if node.type == "conj_list":
            return ast.And(items, bulleted=True, span=self.src.span(node))
        return ast.Or(items, bulleted=True, span=self.src.span(node))

    def bound(self, node) -> ast.Bound:
        """A ``quantifier_bound`` (``x, y \\in S`` / ``<<a, b>> \\in S``)."""
        names: list[str] = []
        is_tuple = False
        for c in node.children_by_field_name("intro"):
            if c.type == "identifier":
                names.append(self.name_of(c))
            elif c.type == "tuple_of_identifiers":
                is_tuple = True
                names.extend(self.name_of(i) for i in _kids(c) if i.type == "identifier")
        dom = node.child_by_field_name("set")
        return ast.Bound(tuple(names), self.expr(dom) if dom is not None else None, is_tuple,
                         span=self.src.span(node))

    def _bounds(self, nodes: Iterable) -> tuple[ast.Bound, ...]:
        return tuple(self.bound(b) for b in nodes if b.type == "quantifier_bound")

    def bounded_quantification(self, node) -> ast.Expr:
        q = node.child_by_field_name("quantifier").type
        bounds = self._bounds(node.children_by_field_name("bound"))
        body = self.expr(node.child_by_field_name("expression"))
        return ast.Quant("A" if q == "forall" else "E", bounds, body, span=self.src.span(node))

    def unbounded_quantification(self, node) -> ast.Expr:
        q = node.child_by_field_name("quantifier").type
        names = tuple(_text(c) for c in node.children_by_field_name("intro") if c.type == "identifier")
        body = self.expr(node.child_by_field_name("expression"))
        span = self.src.span(node)
        if q in ("temporal_forall", "temporal_exists"):
            return ast.TemporalQuant("AA" if q == "temporal_forall" else "EE", names, body, span=span)
        bound = ast.Bound(names, None, span=span)
        return ast.Quant("A" if q == "forall" else "E", (bound,), body, span=span)

    def choose(self, node) -> ast.Expr:
        intro = node.child_by_field_name("intro")
        if intro.type == "tuple_of_identifiers":
            names = tuple(_text(i) for i in _kids(intro) if i.type == "identifier")
            is_tuple = True
        else:
            names, is_tuple = (_text(intro),), False
        dom = node.child_by_field_name("set")
        bound = ast.Bound(names, self.expr(dom) if dom is not None else None, is_tuple,
                          span=self.src.span_between(intro, dom if dom is not None else intro))
        body = self.expr(node.child_by_field_name("expression"))
        return ast.Choose(bound, body, span=self.src.span(node))

    def finite_set_literal(self, node) -> ast.Expr:
        return ast.SetEnum(tuple(self.expr(c) for c in _kids(node)), span=self.src.span(node))

    def set_filter(self, node) -> ast.Expr:
        bound = self.bound(node.child_by_field_name("generator"))
        pred = self.expr(node.child_by_field_name("filter"))
        return ast.SetFilter(bound, pred, span=self.src.span(node))

    def set_map(self, node) -> ast.Expr:
        expr = self.expr(node.child_by_field_name("map"))
        bounds = self._bounds(node.children_by_field_name("generator"))
        return ast.SetMap(expr, bounds, span=self.src.span(node))

    def function_literal(self, node) -> ast.Expr:
        kids = _kids(node)
        bounds = self._bounds(kids)
        return ast.FuncCons(bounds, self.expr(kids[-1]), span=self.src.span(node))

    def function_evaluation(self, node) -> ast.Expr:
        kids = _kids(node)
        return ast.FuncApp(self.expr(kids[0]), tuple(self.expr(c) for c in kids[1:]), span=self.src.span(node))

    def set_of_functions(self, node) -> ast.Expr:
        kids = [c for c in _kids(node) if c.type != "maps_to"]
        return ast.FuncSet(self.expr(kids[0]), self.expr(kids[1]), span=self.src.span(node))

    def _fields(self, node, sep: str) -> tuple[tuple[str, ast.Expr], ...]:
        kids = [c for c in _kids(node) if c.type != sep]
        return tuple((_text(kids[i]), self.expr(kids[i + 1])) for i in range(0, len(kids) - 1, 2))

    def record_literal(self, node) -> ast.Expr:
        return ast.RecordCons(self._fields(node, "all_map_to"), span=self.src.span(node))

    def set_of_records(self, node) -> ast.Expr:
        return ast.RecordSet(self._fields(node, "colon"), span=self.src.span(node))

    def record_value(self, node) -> ast.Expr:
        kids = _kids(node)
        return ast.FieldAccess(self.expr(kids[0]), _text(kids[-1]), span=self.src.span(node))

    def tuple_literal(self, node) -> ast.Expr:
        elems = tuple(self.expr(c) for c in _kids(node) if c.type not in ("langle_bracket", "rangle_bracket"))
        return ast.Tuple(elems, span=self.src.span(node))

    def except_(self, node) -> ast.Expr:
        fn = self.expr(node.child_by_field_name("expr_to_update"))
        updates: list[ast.ExceptUpdate] = []
        for upd in _kids(node):
            if upd.type != "except_update":
                continue
            path: list = []
            for spec in upd.children_by_field_name("update_specifier"):
                if spec.type != "except_update_specifier":
                    continue
                for step in _kids(spec):
                    if step.type == "except_update_record_field":
                        path.append(_text(_kids(step)[-1]))
                    else:
                        path.append(tuple(self.expr(c) for c in _kids(step)))
            value = self.expr(upd.child_by_field_name("new_val"))
            updates.append(ast.ExceptUpdate(tuple(path), value, span=self.src.span(upd)))
        return ast.Except(fn, tuple(updates), span=self.src.span(node))

    def at(self, node) -> ast.Expr:
        return ast.At(span=self.src.span(node))

    def if_then_else(self, node) -> ast.Expr:
        return ast.If(self.expr(node.child_by_field_name("if")), self.expr(node.child_by_field_name("then")),
                      self.expr(node.child_by_field_name("else")), span=self.src.span(node))

    def case(self, node) -> ast.Expr:
        arms: list[tuple[ast.Expr, ast.Expr]] = []
        other = None
        for arm in _kids(node):
            if arm.type == "case_arm":
                k = [c for c in _kids(arm) if c.type != "case_arrow"]
                arms.append((self.expr(k[0]), self.expr(k[1])))
            elif arm.type == "other_arm":
                k = [c for c in _kids(arm) if c.type != "case_arrow"]
                other = self.expr(k[-1])
        return ast.Case(tuple(arms), other, span=self.src.span(node))

    def let_in(self, node) -> ast.Expr:
        defs = []
        for d in node.children_by_field_name("definitions"):
            unit = self.unit(d)
            if unit is not None:
                defs.append(unit)
        body = self.expr(node.child_by_field_name("expression"))
        return ast.Let(tuple(defs), body, span=self.src.span(node))

    def lambda_(self, node) -> ast.Expr:
        kids = _kids(node)
        params = tuple(_text(c) for c in kids[:-1] if c.type == "identifier")
        return ast.Lambda(params, self.expr(kids[-1]), span=self.src.span(node))

    def box_action(self, node) -> ast.Expr:
        kids = _kids(node)
        return ast.BoxAction(self.expr(kids[0]), self.expr(kids[-1]), span=self.src.span(node))

    def angle_action(self, node) -> ast.Expr:
        kids = [c for c in _kids(node) if c.type not in ("langle_bracket", "rangle_bracket_sub")]
        return ast.AngleAction(self.expr(kids[0]), self.expr(kids[-1]), span=self.src.span(node))

    def fairness(self, node) -> ast.Expr:
        kind = "SF" if _text(node.children[0]).startswith("SF") else "WF"
        kids = _kids(node)
        return ast.Fairness(kind, self.expr(kids[0]), self.expr(kids[-1]), span=self.src.span(node))

    # ------------------------------------------------------------------ precedence

    def _infix_of(self, node) -> str | None:
        if node.type == "bound_infix_op":
            return _op_symbol_name(node.child_by_field_name("symbol"))
        return None

    def check_precedence(self, node, name: str, lhs, rhs) -> None:
        mine = INFIX_PRECEDENCE.get(name)
        if mine is None:
            return
        for side, child in (("lhs", lhs), ("rhs", rhs)):
            other = self._infix_of(child)
            if other is None:
                continue
            theirs = INFIX_PRECEDENCE.get(other)
            if theirs is None:
                continue
            if other == name and mine[2] and side == "lhs":
                continue  # left-associative chain
            if other == name == "\\X":
                continue
            if theirs[0] > mine[1]:
                continue  # child binds tighter: fine
            self._conflict(node, other, name, child)

    def check_prefix_precedence(self, node, name: str, rhs) -> None:
        mine = PREFIX_PRECEDENCE.get(name)
        other = self._infix_of(rhs)
        if mine is None or other is None or other not in INFIX_PRECEDENCE:
            return
        theirs = INFIX_PRECEDENCE[other]
        if theirs[0] > mine[1]:
            return
        if theirs[1] < mine[0]:
            return  # tree-sitter let the prefix operator swallow a looser infix: SANY too (e.g. ~ a = b)
        self._conflict(node, other, name, rhs)

    def _conflict(self, node, a: str, b: str, child) -> None:
        if any(s <= node.start_byte and node.end_byte <= e for s, e in self.conflicts):
            return  # one report per expression: the outermost conflict
        self.conflicts.append((node.start_byte, node.end_byte))
        # point at the later of the two operators: where the reader's eye finds the clash
        sym = child.child_by_field_name("symbol")
        own = node.child_by_field_name("symbol")
        if sym is None or (own is not None and own.start_byte > sym.start_byte):
            sym = own
        self.error(
            "E102",
            f"precedence conflict between '{a}' and '{b}': add parentheses",
            sym if sym is not None else node,
            help="TLA+ gives these operators overlapping precedence; write (a op b) explicitly",
        )

    # ------------------------------------------------------------------ units

    def params(self, nodes: Iterable) -> tuple[ast.Param, ...]:
        out: list[ast.Param] = []
        for p in nodes:
            if not p.is_named or p.type in _EXTRAS:
                continue
            if p.type == "identifier":
                out.append(ast.Param(self.name_of(p), 0, span=self.src.span(p)))
            elif p.type == "operator_declaration":
                out.append(self.op_decl(p))
        return tuple(out)

    def op_decl(self, node) -> ast.Param:
        name_node = node.child_by_field_name("name")
        kids = _kids(node)
        if name_node is None:
            name_node = next(c for c in kids if c.type != "placeholder")
        if name_node.type == "identifier":
            arity = sum(1 for c in node.children_by_field_name("parameter") if c.type == "placeholder")
            return ast.Param(self.name_of(name_node), arity, span=self.src.span(node))
        arity = sum(1 for c in kids if c.type == "placeholder")
        return ast.Param(_op_symbol_name(name_node), arity, span=self.src.span(node))

    def unit(self, node, local: bool = False):
        kind = node.type
        span = self.src.span(node)
        if kind == "operator_definition":
            name_node = node.child_by_field_name("name")
            name = self.name_of(name_node) if name_node.type == "identifier" else _op_symbol_name(name_node)
            params = self.params(node.children_by_field_name("parameter"))
            body = self.expr(node.child_by_field_name("definition"))
            return ast.OpDef(name, params, body, local, span=span)
        if kind == "function_definition":
            name = self.name_of(node.child_by_field_name("name"))
            bounds = self._bounds(_kids(node))
            body = self.expr(node.child_by_field_name("definition"))
            return ast.FuncDef(name, bounds, body, local, span=span)
        if kind == "local_definition":
            inner = _kids(node)
            return self.unit(inner[-1], local=True) if inner else None
        if kind == "variable_declaration":
            return ast.VariableDecl(tuple(self.name_of(c) for c in _kids(node) if c.type == "identifier"), span=span)
        if kind == "constant_declaration":
            params: list[ast.Param] = []
            for c in _kids(node):
                if c.type == "identifier":
                    params.append(ast.Param(self.name_of(c), 0, span=self.src.span(c)))
                elif c.type == "operator_declaration":
                    params.append(self.op_decl(c))
            return ast.ConstantDecl(tuple(params), span=span)
        if kind == "recursive_declaration":
            return ast.RecursiveDecl(tuple(self.op_decl(c) if c.type == "operator_declaration"
                                           else ast.Param(_text(c), 0, span=self.src.span(c))
                                           for c in _kids(node)), span=span)
        if kind == "instance":
            return self.instance(node, None, (), local, span)
        if kind == "module_definition":
            name = self.name_of(node.child_by_field_name("name"))
            params = self.params(node.children_by_field_name("parameter"))
            inst = node.child_by_field_name("definition")
            return self.instance(inst, name, params, local, span)
        if kind == "assumption":
            name_node = node.child_by_field_name("name")
            expr = [c for c in _kids(node) if c is not name_node and c.type != "def_eq"][-1]
            return ast.Assume(self.expr(expr), _text(name_node) if name_node is not None else None, span=span)
        if kind == "theorem":
            name_node = node.child_by_field_name("name")
            stmt = node.child_by_field_name("statement")
            expr = None if stmt is None or stmt.type == "assume_prove" else self.expr(stmt)
            return ast.Theorem(expr, _text(name_node) if name_node is not None else None, span=span)
        if kind == "module":
            return self.module(node)
        if kind in _SKIPPED_UNITS:
            return None
        raise _Unsupported(node)

    def instance(self, node, name, params, local, span) -> ast.InstanceDef:
        kids = _kids(node)
        module = _text(kids[0])
        subs: list[ast.Substitution] = []
        for s in kids[1:]:
            if s.type != "substitution":
                continue
            sk = [c for c in _kids(s) if c.type != "gets"]
            target = sk[0]
            tname = _text(target) if target.type in ("identifier_ref", "identifier") else _op_symbol_name(target)
            subs.append(ast.Substitution(tname, self.expr(sk[-1]), span=self.src.span(s)))
        return ast.InstanceDef(module, tuple(subs), name, params, local, span=span)

    def module(self, node) -> ast.Module:
        name_node = node.child_by_field_name("name")
        extends: list[str] = []
        ext_spans: list[ast.Span] = []
        units: list = []
        for c in node.named_children:
            if c.type == "extends":
                for e in _kids(c):
                    extends.append(_text(e))
                    ext_spans.append(self.src.span(e))
                continue
            if c is name_node or c.type in _SKIPPED_UNITS:
                continue
            try:
                u = self.unit(c)
            except _Unsupported as exc:
                self.unsupported(exc.node)
                continue
            except (AttributeError, IndexError, TypeError, ValueError, KeyError):
                # a tree shape the builder does not know: report the unit, never a traceback
                self.error("E101", "syntax error: cannot read this definition", c)
                continue
            if u is not None:
                units.append(u)
        return ast.Module(_text(name_node), tuple(extends), tuple(units), tuple(ext_spans),
                          span=self.src.span(node))

    def unsupported(self, node) -> None:
        self.error("E101", f"syntax error: unexpected {node.type.replace('_', ' ')}", node)


class _Unsupported(Exception):
    def __init__(self, node) -> None:
        super().__init__(node.type)
        self.node = node


def _build(src: _Source, first_only: bool = True) -> list[ast.Module]:
    split = src.split_long_lines()
    root = parser().parse(src.data).root_node
    if root.has_error and _errors_outside_comments(root):
        if split:  # errors are located on the text as written
            src = _Source(src.text, src.file, src.line_base, src.byte_base)
            root = parser().parse(src.data).root_node
        raise SpecError(find_syntax_errors(root, src))
    modules = [c for c in root.named_children if c.type == "module"]
    if not modules:
        raise SpecError([Diagnostic("error", "E101", "no module found: expected '---- MODULE Name ----'",
                                    src.file, 1, 1)])
    builder = _Builder(src)
    try:
        built = [builder.module(m) for m in (modules[:1] if first_only else modules)]
    except RecursionError:
        raise SpecError([too_deep_diagnostic(*_deepest_node(root), src)]) from None
    if builder.diags:
        raise SpecError(builder.diags)
    return built


def _deepest_node(root) -> tuple[int, object]:
    """(depth, node) of the most deeply nested node, found without recursion."""
    best = (0, root)
    cursor = root.walk()
    depth = 0
    while True:
        if depth > best[0]:
            best = (depth, cursor.node)
        if cursor.goto_first_child():
            depth += 1
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return best
            depth -= 1


def too_deep_diagnostic(depth: int, node, src: "_Source | None" = None) -> Diagnostic:
    """E103 at ``node`` (a tree-sitter node with ``src``, or an AST node with a span)."""
    sp = src.span(node) if src is not None else getattr(node, "span", None)
    where = dict(file=sp.file, line=sp.line or None, col=sp.col or None) if sp is not None else {}
    return Diagnostic("error", "E103", f"expression nested too deeply ({depth} levels here; specula's recursion "
                      f"limit of {sys.getrecursionlimit()} frames was reached)", **where,
                      help="split the expression into named definitions (or run it through the specula "
                           "command, which allows far deeper nesting than the Python default)")


def _errors_outside_comments(root) -> bool:
    """True when an ERROR/MISSING node lies outside comments (tree-sitter also parses PlusCal
    inside ``(* --algorithm ... *)``; SANY ignores comments, so errors there do not count)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "block_comment":
            continue
        if node.is_missing or node.type == "ERROR":
            return True
        if node.has_error:
            stack.extend(node.children)
    return False


def parse_module(text: str, file: str) -> ast.Module:
    """Parse the first module in ``text``; raise ``SpecError`` on syntax or precedence errors."""
    return _build(_Source(text.removeprefix("\ufeff"), file))[0]


def parse_modules(text: str, file: str) -> list[ast.Module]:
    """Every top-level module of ``text`` in order (SANY allows several per file: the first is
    the file's own module, the others can be EXTENDed or INSTANCEd by name)."""
    return _build(_Source(text.removeprefix("\ufeff"), file), first_only=False)


_EXPR_PREFIX = "---- MODULE __Expr__ ----\n__E__ ==\n"


def parse_expression(text: str, file: str = "<expr>") -> ast.Expr:
    """Parse a standalone expression; spans refer to ``text`` itself (line 1 = its first line)."""
    src = _Source(_EXPR_PREFIX + text + "\n====\n", file, line_base=2, byte_base=len(_EXPR_PREFIX))
    module = _build(src)[0]
    for u in module.units:
        if isinstance(u, ast.OpDef) and u.name == "__E__":
            return u.body
    raise SpecError([Diagnostic("error", "E101", "not an expression", file, 1, 1)])
