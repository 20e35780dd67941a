"""check_step: window validation against one action, with diagnosis."""

from __future__ import annotations


import pytest

from specula.errors import EvalError
from specula.tla import Model, load_text
from specula.tla.cfg import parse_cfg
from specula.tla.values import make_fn

SPIN = r"""---- MODULE Spin ----
EXTENDS Naturals, Sequences
CONSTANT Threads
VARIABLES lock, pc, queue
TypeOK == /\ lock \in BOOLEAN
          /\ pc \in [Threads -> {"idle", "spinning", "locked"}]
          /\ queue \in Seq(Threads)
Init == lock = FALSE /\ pc = [t \in Threads |-> "idle"] /\ queue = <<>>
StartLock(t) == /\ pc[t] = "idle"
                /\ pc' = [pc EXCEPT ![t] = "spinning"]
                /\ queue' = Append(queue, t)
                /\ UNCHANGED lock
AcquireLock(t) == /\ pc[t] \in {"idle", "spinning"}
                  /\ lock = FALSE
                  /\ lock' = TRUE
                  /\ pc' = [pc EXCEPT ![t] = "locked"]
                  /\ UNCHANGED queue
ReleaseLock(t) == /\ pc[t] = "locked"
                  /\ lock' = FALSE
                  /\ pc' = [pc EXCEPT ![t] = "idle"]
                  /\ UNCHANGED queue
Deliver == /\ queue # <<>>
           /\ \E t \in {Head(queue)} : pc[t] = "spinning"
           /\ queue' = Tail(queue)
           /\ UNCHANGED <<lock, pc>>
Next == (\E t \in Threads : StartLock(t) \/ AcquireLock(t) \/ ReleaseLock(t)) \/ Deliver
====
"""


@pytest.fixture(scope="module")
def m() -> Model:
    return Model(load_text(SPIN, "Spin.tla"), parse_cfg('CONSTANT Threads = {"t1", "t2"}\nINIT Init\nNEXT Next\n', "Spin.cfg"))


def pc(**kw: str) -> object:
    base = {"t1": "idle", "t2": "idle"}
    base.update(kw)
    return make_fn(base)


def test_ok_with_witness_parameter(m: Model) -> None:
    v = m.check_step("AcquireLock", {"lock": False, "pc": pc(), "queue": ()}, {"lock": True, "pc": pc(t2="locked"), "queue": ()})
    assert v.ok and v.params == {"t": "t2"}
    assert v.post_states == [(True, pc(t2="locked"), ())]


def test_false_guard_reports_text_span_and_values(m: Model) -> None:
    v = m.check_step("AcquireLock", {"lock": True, "pc": pc(), "queue": ()}, {"lock": True, "pc": pc(t1="locked"), "queue": ()})
    assert not v.ok
    fc = v.false_conjunct
    assert fc is not None and fc.text == "lock = FALSE" and fc.span.line == 14
    assert fc.values == {"lock": True}


def test_mismatched_primed_variable(m: Model) -> None:
    v = m.check_step("ReleaseLock", {"lock": True, "pc": pc(t1="locked"), "queue": ()},
                     {"lock": True, "pc": pc(), "queue": ()})
    assert not v.ok and v.false_conjunct is None
    assert v.mismatched == {"lock": (True, [False])}


def test_fixed_parameter_is_respected(m: Model) -> None:
    pre = {"lock": False, "pc": pc(), "queue": ()}
    post = {"lock": True, "pc": pc(t1="locked"), "queue": ()}
    assert m.check_step("AcquireLock", pre, post, params={"t": "t1"}).ok
    v = m.check_step("AcquireLock", pre, post, params={"t": "t2"})
    assert not v.ok and "pc" in v.mismatched


def test_unobserved_variables_free_in_typeok_or_given_domain(m: Model) -> None:
    # lock unobserved in the pre-state: TypeOK says BOOLEAN; the witness has lock = FALSE
    v = m.check_step("AcquireLock", {"pc": pc(), "queue": ()}, {"lock": True, "pc": pc(t1="locked"), "queue": ()})
    assert v.ok and v.pre_state[0] is False
    # unobserved post variable stays free: assigned by the action
    v = m.check_step("StartLock", {"lock": False, "pc": pc(), "queue": ()}, {"pc": pc(t1="spinning")})
    assert v.ok and v.post_states == [(False, pc(t1="spinning"), ("t1",))]
    # explicit free domain
    v = m.check_step("Deliver", {"lock": False, "pc": pc(t1="spinning")}, {"queue": ()}, free={"queue": [(), ("t1",)]})
    assert v.ok and v.pre_state[2] == ("t1",)


def test_unknown_action_and_variable(m: Model) -> None:
    with pytest.raises(EvalError, match="unknown action"):
        m.check_step("Nope", {}, {})
    with pytest.raises(EvalError, match="not a variable"):
        m.check_step("Deliver", {"locks": 1}, {})


def test_repeated_checks_keep_their_verdicts(m: Model) -> None:
    """Many checks of one action on one model (the window validator's loop) give the same verdict
    each time; the throughput figure is benchmarks/perf/conformance_throughput.py's, not a test's."""
    pre = {"lock": False, "pc": pc(), "queue": ()}
    post = {"lock": True, "pc": pc(t2="locked"), "queue": ()}
    bad = {"lock": False, "pc": pc(t2="locked"), "queue": ()}
    verdicts = [m.check_step("AcquireLock", pre, post if i % 2 else bad).ok for i in range(200)]
    assert verdicts == [bool(i % 2) for i in range(200)]
