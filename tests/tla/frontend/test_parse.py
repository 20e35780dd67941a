"""parse_module: tree-sitter tree -> specula.tla.ast, canonical names, spans, errors."""

from __future__ import annotations

import pytest

from specula.errors import SpecError
from specula.tla import ast
from specula.tla.syntax import parse_expression, parse_module


def body(expr_text: str) -> ast.Expr:
    return parse_expression(expr_text)


def test_module_header_units_and_extends() -> None:
    m = parse_module(
        "---- MODULE M ----\nEXTENDS Naturals, Sequences\nCONSTANT N, F(_), _ + _\nVARIABLES x, y\n"
        "LOCAL A == 1\nB(a, G(_)) == G(a)\n====\n",
        "M.tla",
    )
    assert m.name == "M"
    assert m.extends == ("Naturals", "Sequences")
    assert [s.line for s in m.extends_spans] == [2, 2]
    assert m.extends_spans[1].col == 19
    const, var, a, b = m.units
    assert isinstance(const, ast.ConstantDecl)
    assert [(p.name, p.arity) for p in const.params] == [("N", 0), ("F", 1), ("+", 2)]
    assert var == ast.VariableDecl(("x", "y"))
    assert a == ast.OpDef("A", (), ast.Number(1, "1"), local=True)
    assert [(p.name, p.arity) for p in b.params] == [("a", 0), ("G", 1)]
    assert b.body == ast.OpApp("G", (ast.Name("a"),))
    assert b.span.line == 6 and b.span.col == 1


def test_precedence_and_canonical_names() -> None:
    # in TLA+ binary minus (11) binds tighter than plus (10)
    e = body("a + b * c - -d")
    assert e == ast.OpApp("+", (ast.Name("a"), ast.OpApp("-", (ast.OpApp("*", (ast.Name("b"), ast.Name("c"))),
                                                               ast.OpApp("-.", (ast.Name("d"),))))))
    assert body("a \\leq b") == body("a <= b") == body("a ≤ b") == ast.OpApp("<=", (ast.Name("a"), ast.Name("b")))
    assert body("a /= b") == body("a # b") == body("a ≠ b")
    assert body("x \\circ y") == body("x \\o y") == ast.OpApp("\\o", (ast.Name("x"), ast.Name("y")))
    assert body("a \\equiv b").name == "<=>"
    assert body("\\lnot a") == body("~a") == body("¬a") == ast.OpApp("~", (ast.Name("a"),))
    assert body("x \\in S").name == "\\in" and body("x ∉ S").name == "\\notin"


def test_junctions_flatten_chains_but_not_parentheses() -> None:
    assert body("a /\\ b /\\ c") == ast.And((ast.Name("a"), ast.Name("b"), ast.Name("c")))
    assert body("a ∧ b") == body("a \\land b") == ast.And((ast.Name("a"), ast.Name("b")))
    nested = body("a /\\ (b /\\ c)")
    assert nested == ast.And((ast.Name("a"), ast.And((ast.Name("b"), ast.Name("c")))))
    bullets = body("/\\ x = 1\n/\\ \\/ y' = 2\n   \\/ UNCHANGED <<x, y>>")
    assert isinstance(bullets, ast.And) and bullets.bulleted and len(bullets.args) == 2
    inner = bullets.args[1]
    assert isinstance(inner, ast.Or) and inner.bulleted
    assert inner.args[0] == ast.OpApp("=", (ast.Prime(ast.Name("y")), ast.Number(2, "2")))
    assert inner.args[1] == ast.OpApp("UNCHANGED", (ast.Tuple((ast.Name("x"), ast.Name("y"))),))
    assert body("S \\X T \\X U") == ast.OpApp("\\X", (ast.Name("S"), ast.Name("T"), ast.Name("U")))


def test_quantifiers_choose_sets_functions() -> None:
    q = body("\\A a \\in S, b, c \\in T : \\E <<d, e>> \\in U : TRUE")
    assert isinstance(q, ast.Quant) and q.kind == "A"
    assert [b.names for b in q.bounds] == [("a",), ("b", "c")]
    assert q.body.bounds[0] == ast.Bound(("d", "e"), ast.Name("U"), True)
    assert body("\\E x : x") == ast.Quant("E", (ast.Bound(("x",)),), ast.Name("x"))
    assert body("CHOOSE x \\in S : TRUE") == ast.Choose(ast.Bound(("x",), ast.Name("S")), ast.Bool(True))
    assert body("{x \\in S : x > 1}") == ast.SetFilter(
        ast.Bound(("x",), ast.Name("S")), ast.OpApp(">", (ast.Name("x"), ast.Number(1, "1"))))
    assert body("{x + y : x \\in S, y \\in T}").bounds[1].names == ("y",)
    assert body("{1, 2}") == ast.SetEnum((ast.Number(1, "1"), ast.Number(2, "2")))
    assert body("{}") == ast.SetEnum(())
    assert body("[x \\in S |-> x]") == ast.FuncCons((ast.Bound(("x",), ast.Name("S")),), ast.Name("x"))
    assert body("f[1, 2]") == ast.FuncApp(ast.Name("f"), (ast.Number(1, "1"), ast.Number(2, "2")))
    assert body("[S -> T]") == ast.FuncSet(ast.Name("S"), ast.Name("T"))
    assert body("[a |-> 1, b |-> 2]") == ast.RecordCons((("a", ast.Number(1, "1")), ("b", ast.Number(2, "2"))))
    assert body("[a : S]") == ast.RecordSet((("a", ast.Name("S")),))
    assert body("r.a.b") == ast.FieldAccess(ast.FieldAccess(ast.Name("r"), "a"), "b")
    assert body("<<>>") == ast.Tuple(())
    assert body("Nat") == ast.Name("Nat") and body("BOOLEAN") == ast.Name("BOOLEAN")
    assert body("STRING") == ast.Name("STRING")


def test_except_if_case_let_lambda() -> None:
    e = body("[f EXCEPT ![1].b = @ + 1, !.c = 2, ![x, y] = 3]")
    assert isinstance(e, ast.Except)
    assert e.updates[0].path == ((ast.Number(1, "1"),), "b")
    assert e.updates[0].value == ast.OpApp("+", (ast.At(), ast.Number(1, "1")))
    assert e.updates[1].path == ("c",)
    assert e.updates[2].path == ((ast.Name("x"), ast.Name("y")),)
    assert body("IF a THEN b ELSE c") == ast.If(ast.Name("a"), ast.Name("b"), ast.Name("c"))
    c = body("CASE x = 1 -> 2 [] x = 2 -> 3 [] OTHER -> 4")
    assert len(c.arms) == 2 and c.other == ast.Number(4, "4")
    let = body("LET K(a) == a\n    g[i \\in S] == i\nIN K(1)")
    assert isinstance(let.defs[0], ast.OpDef) and isinstance(let.defs[1], ast.FuncDef)
    lam = body("F(LAMBDA a, b : a + b, +)")
    assert lam.args[0] == ast.Lambda(("a", "b"), ast.OpApp("+", (ast.Name("a"), ast.Name("b"))))
    assert lam.args[1] == ast.Name("+")


def test_temporal_and_actions() -> None:
    e = body("Init /\\ [][Next]_vars /\\ WF_vars(Next) /\\ SF_<<x>>(A) /\\ <><<A>>_x")
    assert e.args[1] == ast.OpApp("[]", (ast.BoxAction(ast.Name("Next"), ast.Name("vars")),))
    assert e.args[2] == ast.Fairness("WF", ast.Name("vars"), ast.Name("Next"))
    assert e.args[3] == ast.Fairness("SF", ast.Tuple((ast.Name("x"),)), ast.Name("A"))
    assert e.args[4] == ast.OpApp("<>", (ast.AngleAction(ast.Name("A"), ast.Name("x")),))
    assert body("\\EE u : P ~> Q") == ast.TemporalQuant("EE", ("u",), ast.OpApp("~>", (ast.Name("P"), ast.Name("Q"))))
    assert body("ENABLED A").name == "ENABLED"
    assert body("x''") == ast.Prime(ast.Prime(ast.Name("x")))
    assert body("A \\cdot B").name == "\\cdot"


def test_literals() -> None:
    assert body('"a\\"b\\n"') == ast.String('a"b\n')
    assert body("\\b101") == ast.Number(5, "\\b101")
    assert body("\\h1F") == ast.Number(31, "\\h1F")
    assert body("\\o17") == ast.Number(15, "\\o17")
    assert body("1.5").text == "1.5"
    assert body("FALSE") == ast.Bool(False)


def test_instances_prefixes_definitions() -> None:
    m = parse_module(
        "---- MODULE M ----\nI == INSTANCE Foo WITH a <- 1, b <- x\nINSTANCE Bar\nLOCAL INSTANCE Baz\n"
        "P(n) == INSTANCE Foo\nA == I!Op(1) /\\ I!N /\\ P(2)!Op(3) /\\ I!J!K\n"
        "a \\prec b == a < b\n-. a == a\na ^+ == a\nRECURSIVE R(_)\nR(n) == R(n - 1)\n"
        "f[n \\in Nat] == n\nASSUME Ax == TRUE\nTHEOREM T == TRUE\nPROOF OBVIOUS\n"
        "---- MODULE Inner ----\nZ == 1\n====\n====\n",
        "M.tla",
    )
    i, bar, baz, p, a, prec, neg, sup, rec, r, f, asm, thm, inner = m.units
    assert i == ast.InstanceDef("Foo", (ast.Substitution("a", ast.Number(1, "1")), ast.Substitution("b", ast.Name("x"))), "I")
    assert bar == ast.InstanceDef("Bar")
    assert baz == ast.InstanceDef("Baz", local=True)
    assert p.name == "P" and p.params == (ast.Param("n"),)
    assert a.body.args[0] == ast.OpApp("Op", (ast.Number(1, "1"),), ("I",), ((),))
    assert a.body.args[2] == ast.OpApp("Op", (ast.Number(3, "3"),), ("P",), ((ast.Number(2, "2"),),))
    assert a.body.args[3] == ast.OpApp("K", (), ("I", "J"), ((), ()))
    assert prec.name == "\\prec" and [x.name for x in prec.params] == ["a", "b"]
    assert neg.name == "-." and sup.name == "^+"
    assert rec == ast.RecursiveDecl((ast.Param("R", 1),))
    assert isinstance(f, ast.FuncDef) and f.bounds[0].domain == ast.Name("Nat")
    assert asm == ast.Assume(ast.Bool(True), "Ax") and thm == ast.Theorem(ast.Bool(True), "T")
    assert isinstance(inner, ast.Module) and inner.name == "Inner"


def test_proofs_pluscal_and_comments_ignored() -> None:
    m = parse_module(
        "---- MODULE M ----\n(* --algorithm a\nvariables z = 1;\nbegin\n  skip;\nend algorithm; *)\n"
        "\\* line comment\nA == 1 (* inline *) + 2\n"
        "THEOREM T == A = 3\n<1>1. TRUE\n  BY DEF A\n<1> QED\n  OBVIOUS\nUSE DEF A\n====\n",
        "M.tla",
    )
    assert [type(u).__name__ for u in m.units] == ["OpDef", "Theorem"]
    assert m.units[0].body == ast.OpApp("+", (ast.Number(1, "1"), ast.Number(2, "2")))


def test_spans_are_one_based_and_unicode_aware() -> None:
    m = parse_module("---- MODULE M ----\nA ≜ ∀ x ∈ S : x ≠ y\n====\n", "M.tla")
    eq = m.units[0].body.body
    assert eq.span.line == 2 and eq.span.col == 15 and eq.span.end_col == 20
    assert str(eq.span) == "M.tla:2:15"


@pytest.mark.parametrize(
    "expr, line, col",
    [
        ("a /\\ b \\/ c", 1, 8),
        ("a = b = c", 1, 7),
        ("a => b => c", 1, 8),
        ("a < b < c", 1, 7),
        ("a \\/ b /\\ c", 1, 8),
        ("x \\in S = TRUE", 1, 9),
    ],
)
def test_precedence_conflicts_are_errors(expr: str, line: int, col: int) -> None:
    with pytest.raises(SpecError) as exc:
        body(expr)
    (d,) = exc.value.diagnostics()
    assert d.code == "E102" and (d.line, d.col) == (line, col)


def test_left_associative_chains_are_fine() -> None:
    assert body("a - b - c") == ast.OpApp("-", (ast.OpApp("-", (ast.Name("a"), ast.Name("b"))), ast.Name("c")))
    assert isinstance(body("a = b /\\ c < d"), ast.And)


def test_syntax_error_points_at_token() -> None:
    with pytest.raises(SpecError) as exc:
        parse_module("---- MODULE M ----\nA == 1 +\nB == 2\n====\n", "M.tla")
    d = exc.value.diagnostics()[0]
    assert d.code == "E101" and d.file == "M.tla" and d.line in (2, 3)


def test_bom_and_crlf_are_accepted() -> None:
    m = parse_module("\ufeff---- MODULE M ----\r\nVARIABLE x\r\nA == /\\ x = 1\r\n     /\\ x = 2\r\n====\r\n", "M.tla")
    assert isinstance(m.units[1].body, ast.And) and m.units[1].body.bulleted


def test_reserved_word_as_name_is_rejected() -> None:
    with pytest.raises(SpecError) as exc:
        parse_module("---- MODULE M ----\nA(THEN) == 1\n====\n", "M.tla")
    (d,) = exc.value.diagnostics()
    assert (d.code, d.line, d.col) == ("E101", 2, 3) and "reserved" in d.message


def test_pluscal_typo_inside_comment_is_ignored() -> None:
    m = parse_module("---- MODULE M ----\n(* --algorithm a\nbegin\nL1):  skip;\nend algorithm; *)\nA == 1\n====\n", "M.tla")
    assert [u.name for u in m.units] == ["A"]
