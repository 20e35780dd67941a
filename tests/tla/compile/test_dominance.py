"""compile.dominance.bind_once: a remembered value (``(_l3 if _l3 is not _U else (_l3 := SRC))``)
is read bare only where it was certainly computed before, in Python's evaluation order; a use
under a condition keeps its test (TLC evaluates a LET definition only where it is used:
tests/tla/specs/LetOnce.tla, with TLC's counts in expected.json)."""

from __future__ import annotations

from specula.tla.compile.dominance import bind_once


def _site(nm: str, src: str) -> str:
    return f"({nm} if {nm} is not _U else ({nm} := {src}))"


def test_after_the_reset_and_after_the_first_use() -> None:
    body = ["        _l3 = _U", f"        n[0] = {_site('_l3', 'f(s)')}", f"        n[1] = {_site('_l3', 'f(s)')} + 1"]
    out = bind_once(body)
    assert out == ["        n[0] = (_l3 := f(s))", "        n[1] = (_l3) + 1"]


def test_conditional_uses_keep_their_test() -> None:
    a = _site("_l3", "g(s)")
    body = ["        _l3 = _U",
            f"        n[0] = (1 if c(s) else {a})",  # the else branch may not run
            f"        n[1] = (c(s) and {a})",  # nor the right side of and
            f"        n[2] = ({a} if {a} else 0)"]  # the test runs: computed from here on
    out = bind_once(body)
    assert out[0] == "        _l3 = _U"
    assert out[1] == f"        n[0] = (1 if c(s) else (_l3 := g(s)))"
    assert out[2] == f"        n[1] = (c(s) and {a})"
    assert out[3] == f"        n[2] = ((_l3) if {a} else 0)"


def test_loops_and_branches() -> None:
    a = _site("_m1", "h(s)")
    body = ["        _m1 = _U",
            "        for e[4] in xs:",
            f"            if {a}:",
            f"                n[0] = {a}",
            f"        n[1] = {a}"]  # the loop may not run
    out = bind_once(body)
    assert out[2] == f"            if {a}:"  # computed in an earlier round of the loop, or not
    assert out[3] == "                n[0] = (_m1)"
    assert out[4] == f"        n[1] = {a}"


def test_unknown_statement_left_alone() -> None:
    body = ["        with x:", f"            n[0] = {_site('_l3', 'f(s)')}"]
    assert bind_once(body) == body
