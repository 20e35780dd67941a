"""Actions as TLC evaluates them: splitting, assignment vs comparison, enumeration, errors."""

from __future__ import annotations

import pytest

from specula.errors import EvalError
from specula.tla import Model, load_text
from specula.tla.cfg import parse_cfg
from specula.tla.compile import Unassigned
from specula.tla.values import ModelValue, make_fn


def model(body: str, cfg: str = "INIT Init\nNEXT Next\n", extends: str = "Naturals, Sequences, FiniteSets, TLC") -> Model:
    text = f"---- MODULE M ----\nEXTENDS {extends}\n{body}\n====\n"
    return Model(load_text(text, "M.tla"), parse_cfg(cfg, "M.cfg"))


def succ(m: Model, state: tuple) -> list[tuple[str, tuple]]:
    return sorted((m.actions[i].name, t) for i, t in m.next_states(state))


def test_split_at_or_and_exists_through_definitions() -> None:
    m = model(
        """CONSTANT P
VARIABLE x
Init == x = 0
A(p) == x' = x + 1
B(p) == x > 0 /\\ x' = x - 1
C == x' = 7
Step(p) == A(p) \\/ B(p)
Next == (\\E p \\in P : Step(p)) \\/ C""",
        "CONSTANT P = {p1, p2}\nINIT Init\nNEXT Next\n",
    )
    assert [(a.name, a.params) for a in m.actions] == [("A", ("p",)), ("B", ("p",)), ("C", ())]
    assert succ(m, (0,)) == [("A", (1,)), ("A", (1,)), ("C", (7,))]


def test_assign_then_compare_and_enumerate() -> None:
    m = model(
        """VARIABLES x, y
Init == x \\in 1..3 /\\ y = x * 10
Next == x' \\in {1, 2} /\\ y' = x' /\\ x' = y'
""")
    assert sorted(m.init_states()) == [(1, 10), (2, 20), (3, 30)]
    assert succ(m, (1, 10)) == [("Next", (1, 1)), ("Next", (2, 2))]


def test_comparison_when_already_assigned() -> None:
    m = model("VARIABLE x\nInit == x = 0\nNext == x' = 1 /\\ x' = 2\n")
    assert succ(m, (0,)) == []


def test_unchanged_if_case_let_inside_actions() -> None:
    m = model(
        """VARIABLES x, y
vars == <<x, y>>
Init == x = 0 /\\ y = 0
Next == \\/ (IF x < 2 THEN x' = x + 1 ELSE x' = 0)
           /\\ UNCHANGED y
        \\/ (CASE x = 0 -> y' = 5 [] OTHER -> y' = 6)
           /\\ UNCHANGED <<x>>
        \\/ LET d == 3 IN x' = d /\\ y' = d
        \\/ UNCHANGED vars""")
    assert succ(m, (0, 0)) == [("Next", (0, 0)), ("Next", (0, 5)), ("Next", (1, 0)), ("Next", (3, 3))]
    assert succ(m, (2, 1)) == [("Next", (0, 1)), ("Next", (2, 1)), ("Next", (2, 6)), ("Next", (3, 3))]


def test_forall_action_and_primed_operator_application() -> None:
    m = model(
        """CONSTANT P
VARIABLE f
Init == f = [p \\in P |-> 0]
Total == f
Next == \\A p \\in P : f' = [Total EXCEPT ![p] = @] /\\ (Total)' = f""",
        "CONSTANT P = {p1, p2}\nINIT Init\nNEXT Next\n",
    )
    s0 = next(m.init_states())
    assert succ(m, s0) == [("Next", s0)]


def test_enabled() -> None:
    m = model(
        """VARIABLE x
Init == x = 0
Inc == x < 2 /\\ x' = x + 1
Next == Inc \\/ (~ENABLED Inc /\\ x' = 100)""")
    assert succ(m, (1,)) == [("Inc", (2,))]
    assert succ(m, (2,)) == [("Next", (100,))]


def test_unassigned_variable_is_an_error_naming_action_and_variable() -> None:
    m = model("VARIABLES x, y\nInit == x = 0 /\\ y = 0\nBad == x' = 1\nNext == Bad\n")
    with pytest.raises(Unassigned, match="Bad.*y'"):
        list(m.next_states((0, 0)))


def test_eval_error_carries_span_and_state() -> None:
    m = model("VARIABLE x\nInit == x = <<1>>\nNext == x' = <<x[2]>>\n")
    with pytest.raises(EvalError) as info:
        list(m.next_states(((1,),)))
    assert info.value.span.line == 5 and info.value.state == ((1,),)


def test_instance_substitution_and_init_through_instance() -> None:
    import tempfile
    from pathlib import Path

    from specula.tla import load

    with tempfile.TemporaryDirectory() as d:
        Path(d, "Ctr.tla").write_text(
            "---- MODULE Ctr ----\nEXTENDS Naturals\nCONSTANT Max\nVARIABLE x\nInit == x = 0\nInc == x < Max /\\ x' = x + 1\n====\n"
        )
        Path(d, "M.tla").write_text(
            "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE n\nC == INSTANCE Ctr WITH x <- n, Max <- 2\n"
            "Init == C!Init\nNext == C!Inc\n====\n"
        )
        m = Model(load(Path(d, "M.tla")), parse_cfg("INIT Init\nNEXT Next\n", "M.cfg"))
        assert list(m.init_states()) == [(0,)]
        assert succ(m, (1,)) == [("Inc", (2,))]
        assert succ(m, (2,)) == []


def test_specification_formula_and_model_values() -> None:
    m = model(
        """CONSTANT Srv
VARIABLE leader
Init == leader = CHOOSE s \\in Srv : TRUE
Next == \\E s \\in Srv : s # leader /\\ leader' = s
Spec == Init /\\ [][Next]_leader""",
        "CONSTANT Srv = {s1, s2}\nSPECIFICATION Spec\n",
    )
    assert list(m.init_states()) == [(ModelValue("s1"),)]
    assert succ(m, (ModelValue("s1"),)) == [("Next", (ModelValue("s2"),))]


def test_recursive_function_and_operator_in_actions() -> None:
    m = model(
        """VARIABLE x
RECURSIVE Sum(_)
Sum(s) == IF s = <<>> THEN 0 ELSE Head(s) + Sum(Tail(s))
tri[i \\in 0..10] == IF i = 0 THEN 0 ELSE i + tri[i - 1]
Init == x = Sum(<<1, 2, 3>>)
Next == x < 10 /\\ x' = tri[x - 2]""")
    assert list(m.init_states()) == [(6,)]
    assert succ(m, (6,)) == [("Next", (10,))]


def test_state_and_action_predicates() -> None:
    m = model("VARIABLE x\nInit == x = 0\nNext == x' = x + 1\nInv == x < 3\nGrow == x' > x\n")
    inv = m.compile_state_predicate("Inv")
    assert inv((2,)) is True and inv((3,)) is False
    grow = m.compile_action_predicate("Grow")
    assert grow((1,), (2,)) is True and grow((2,), (1,)) is False
    assert m.compile_state_predicate("x * 2 = 4")((2,)) is True


def test_check_assumes() -> None:
    m = model("CONSTANT N\nASSUME N > 3\nVARIABLE x\nInit == x = 0\nNext == x' = x\n", "CONSTANT N = 2\nINIT Init\nNEXT Next\n")
    diags = m.check_assumes()
    assert len(diags) == 1 and diags[0].line == 4


def test_symmetry_permutations_and_view() -> None:
    m = model(
        """CONSTANT P
VARIABLE owner, count
Sym == Permutations(P)
V == owner
Init == owner \\in P /\\ count = 0
Next == count' = count + 1 /\\ UNCHANGED owner""",
        "CONSTANT P = {p1, p2}\nINIT Init\nNEXT Next\nSYMMETRY Sym\nVIEW V\n",
    )
    assert len(m.symmetry_perms) == 2
    p1, p2 = ModelValue("p1"), ModelValue("p2")
    swap = [p for p in m.symmetry_perms if p.get(p1) == p2][0]
    assert m.permute((p1, 3), swap) == (p2, 3)
    assert m.has_view and m.view((p1, 3)) == p1
    assert make_fn({p1: p2, p2: p1}) == swap


def test_tlc_labels() -> None:
    m = model(
        """CONSTANT P
VARIABLE x
Init == x = 0
Inc(p) == /\\ x < 2
          /\\ x' = x + 1
Next == \\E p \\in P : Inc(p)""",
        "CONSTANT P = {p1}\nINIT Init\nNEXT Next\n",
    )
    a = m.actions[0]
    assert a.label == "Inc" and a.tlc_label == "<Inc line 6, col 1 to line 6, col 6 of module M>"
    assert m.step_label(0, (0,), (1,)) == "<Inc(p1) line 6, col 11 to line 7, col 23 of module M>"


def test_cfg_overrides_follow_the_root_definition(tmp_path) -> None:
    from specula.tla import load

    (tmp_path / "Inner.tla").write_text(
        "---- MODULE Inner ----\nEXTENDS Naturals, Sequences\nCONSTANT N\nNode == 0 .. N - 1\n"
        "InSeq == <<1>> \\in Seq({1})\n====\n"
    )
    (tmp_path / "Root.tla").write_text(
        "---- MODULE Root ----\nEXTENDS Naturals\nCONSTANT Node\nN == 2\nI == INSTANCE Inner\n====\n"
    )
    m = Model(load(tmp_path / "Root.tla"), parse_cfg("CONSTANT Node = {a, b}\n", "Root.cfg"))
    assert m.evaluate("Node") == frozenset({ModelValue("a"), ModelValue("b")})
    assert m.evaluate("I!Node") == frozenset({0, 1})  # the instance's own definition is not overridden
    (tmp_path / "Root2.tla").write_text(
        "---- MODULE Root2 ----\nEXTENDS Naturals\nN == 2\nINSTANCE Inner\nNone(S) == {<<>>}\n====\n"
    )
    m2 = Model(load(tmp_path / "Root2.tla"), parse_cfg("CONSTANT Seq <- None\n", "Root2.cfg"))
    assert m2.evaluate("InSeq") is False  # Seq is overridden inside the instantiated module too
