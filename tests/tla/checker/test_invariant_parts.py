"""Invariant conjuncts ``\\A x \\in D : P`` whose body reads the state only as ``v[x]`` remember the
parts ``v[x]`` they held for (a new value of v shares most parts with the old one): verdicts,
counts, traces and errors stay TLC's. Figures are TLC 2.18's (``-deadlock``) for the spec below."""

from __future__ import annotations

from pathlib import Path

from specula.tla.checker import Limits, build_model, check

SPEC = """---- MODULE Parts ----
EXTENDS Naturals, Sequences
P == {1, 2}
VARIABLES net, c
Init == net = [p \\in P |-> [q \\in P |-> <<>>]] /\\ c = [p \\in P |-> 0]
Send(p, q) == /\\ Len(net[p][q]) < 2
              /\\ net' = [net EXCEPT ![p][q] = Append(@, c[p])]
              /\\ c' = [c EXCEPT ![p] = (@ + 1) % K_MOD]
Recv(p, q) == net[p][q] # <<>> /\\ net' = [net EXCEPT ![p][q] = Tail(@)] /\\ c' = c
Next == \\E p, q \\in P : Send(p, q) \\/ Recv(p, q)
Bounded2 == \\A p, q \\in P : Len(net[p][q]) <= 2
Bounded1 == \\A p, q \\in P : Len(net[p][q]) <= 1
Small == \\A p \\in P : \\A q \\in P : \\A i \\in DOMAIN net[p][q] : net[p][q][i] < 2
CBound == \\A p \\in P : c[p] < 3
Err == \\A p \\in P : net[p][1] = <<>> \\/ net[p][1][1] = 0 \\/ net[p][1][1] = {}
====
"""


def _run(tmp_path: Path, mod: int, invariants: str):
    p = tmp_path / "Parts.tla"
    p.write_text(SPEC.replace("K_MOD", str(mod)), encoding="utf-8")
    (tmp_path / "Parts.cfg").write_text(f"INIT Init\nNEXT Next\nINVARIANT {invariants}\nCHECK_DEADLOCK FALSE\n",
                                        encoding="utf-8")
    model, cfg = build_model(p, tmp_path / "Parts.cfg")
    return model, check(model, Limits(), cfg=cfg)


def _nets(model, r) -> list:
    return [dict(zip(model.variables, st))["net"] for _, st in r.counterexample]


def test_part_invariants_hold_with_tlcs_counts(tmp_path):
    _, r = _run(tmp_path, 2, "Bounded2 CBound Small")
    assert r.verdict == "ok" and (r.distinct, r.generated) == (6084, 31201)


def test_a_changed_part_is_checked_again(tmp_path):
    model, r = _run(tmp_path, 3, "Bounded1")
    assert r.verdict == "invariant" and r.violated == "Bounded1"
    assert _nets(model, r)[-1] == (((0, 1), ()), ((), ()))  # TLC's third state


def test_a_part_of_a_nested_quantifier_is_checked_again(tmp_path):
    model, r = _run(tmp_path, 3, "Small")
    assert r.verdict == "invariant" and r.violated == "Small"
    assert _nets(model, r)[-1] == (((0, 1), (2,)), ((), ()))  # TLC's fourth state


def test_an_error_in_a_new_part_is_tlcs_error(tmp_path):
    model, r = _run(tmp_path, 3, "Err")
    # TLC: "Attempted to check equality of integer 1 with non-integer: {}" in its third state
    assert r.verdict == "error"
    assert _nets(model, r) == [(((), ()), ((), ())), (((), (0,)), ((), ())), (((1,), (0,)), ((), ()))]
