"""Random simulation over hand-written models: reproducibility, errors, coverage."""

from __future__ import annotations

from checker_toy import Cfg, counter, error_model

from specula.tla.simulate import simulate


def test_seed_reproducible_and_coverage() -> None:
    a = simulate(counter(5, cfg=Cfg(check_deadlock=False)), num=20, depth=8, seed=7)
    b = simulate(counter(5, cfg=Cfg(check_deadlock=False)), num=20, depth=8, seed=7)
    assert a.ok and a.runs == 20
    assert (a.steps, a.distinct, a.generated) == (b.steps, b.distinct, b.generated)
    assert a.max_depth <= 8
    assert sum(c.generated for c in a.coverage) == a.generated - 20
    assert 1 < a.distinct <= 12


def test_deadlock_found() -> None:
    r = simulate(counter(2), num=50, depth=20, seed=1)
    assert r.errors and r.errors[0].verdict == "deadlock"
    assert r.errors[0].trace[-1][1][0] == 2


def test_invariant_trace() -> None:
    m = counter(5, preds={"Lt3": lambda s: s[0] < 3}, cfg=Cfg(invariants=["Lt3"], check_deadlock=False))
    r = simulate(m, num=100, depth=30, seed=3)
    err = r.errors[0]
    assert err.verdict == "invariant" and err.violated == "Lt3"
    assert err.trace[0][0] is None and err.trace[-1][1][0] == 3
    # every step in the trace is a real transition with its label
    for (_, s), (lbl, t) in zip(err.trace, err.trace[1:]):
        assert (lbl == "Inc" and t == (s[0] + 1, s[1])) or (lbl == "Flip" and t == (s[0], not s[1]))


def test_eval_error() -> None:
    r = simulate(error_model(), num=3, depth=10, seed=0)
    assert r.errors[0].verdict == "error" and "DOMAIN" in r.errors[0].message
