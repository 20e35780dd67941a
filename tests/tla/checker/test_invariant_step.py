"""``Model.compile_invariant``'s ``step(succ, parent)``: the predicate of a successor of a state it
held for, skipping the conjuncts of parent's unchanged variables (and a kind-4 conjunct's parts
that are parent's parts). It must agree with the predicate itself on every step of a search."""

from __future__ import annotations

from pathlib import Path

from specula.tla.checker import build_model
from test_invariant_parts import SPEC  # the same spec, with TLC's figures there


PREDS = ["Bounded1", "Bounded2", "Small", "CBound", "Bounded1 /\\ CBound /\\ c \\in [P -> 0..1]",
         "\\A p \\in P : c[p] + Len(net[p][1]) < 3", "net[1][1] = <<>> /\\ c[1] = 0",
         "net \\in [P -> [P -> Seq(0..1)]]", "net \\in [P -> [P -> Seq({0, 2})]] /\\ c \\in [P -> 0..1]",
         "net \\in [{1} -> [P -> Seq(0..1)]]", "net \\in [P -> [P -> {<<>>, <<0>>, <<0, 1>>, <<1>>}]]"]


def test_step_agrees_with_the_predicate(tmp_path: Path):
    p = tmp_path / "Parts.tla"
    p.write_text(SPEC.replace("K_MOD", "3"), encoding="utf-8")
    (tmp_path / "Parts.cfg").write_text("INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n", encoding="utf-8")
    model, _ = build_model(p, tmp_path / "Parts.cfg")
    states = list(model.init_states())
    seen = set(states)
    edges = []
    for s in states:  # breadth-first, every state (grows while iterated)
        for _, t in model.next_states(s):
            edges.append((s, t))
            if t not in seen:
                seen.add(t)
                states.append(model.intern_state(t))
    assert len(states) > 100
    for text in PREDS:
        for by_value in (False, True):
            ref = model.compile_state_predicate(text)
            pred = model.compile_invariant(text, by_value=by_value)
            assert hasattr(pred, "step"), text
            own = model.compile_invariant(text, by_value=by_value)
            for t in states:  # the predicate alone (kind 5: v \in [1..k -> R] row by row)
                assert own(t) == ref(t), (text, t)
            agree = 0
            for s, t in edges:
                if ref(s) is True:
                    assert pred.step(t, s) == ref(t), (text, s, t)
                    agree += 1
            assert agree or not any(ref(t) is True for t in states), text
