"""Unit tests of ringbuffer.py (pytest): python -m pytest benchmarks/systems/ringbuffer/test_ringbuffer.py"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools" / "emitters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest  # noqa: E402
from specula_coop import Scheduler  # noqa: E402

from ringbuffer import RingBuffer  # noqa: E402


def run(gen):
    """Drive a generator that never blocks to completion; return its value."""
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value


def test_capacity_must_be_power_of_two():
    with pytest.raises(ValueError):
        RingBuffer(3)
    with pytest.raises(ValueError):
        RingBuffer(4, counter_bits=2)


def test_every_slot_is_usable_and_fifo():
    rb = RingBuffer(4)
    p, c = rb.split()
    assert run(c.pop()) is None
    for v in [10, 20, 30, 40]:
        assert run(p.push(v)) is True
    assert rb.len() == 4
    assert run(p.push(50)) is False  # full at capacity, not at capacity - 1
    assert [run(c.pop()) for _ in range(4)] == [10, 20, 30, 40]
    assert run(c.pop()) is None


def test_counters_wrap_beyond_capacity_and_slots_are_not_cleared():
    rb = RingBuffer(4, counter_bits=3)  # counters wrap at 8
    p, c = rb.split()
    out = []
    for v in range(1, 30):
        assert run(p.push(v))
        out.append(run(c.pop()))
        assert rb.len() == 0
    assert out == list(range(1, 30))
    assert 0 <= rb.tail.load() < 8 and rb.tail.load() == 29 % 8
    assert rb.slots[(29 - 1) % 4] == 29  # popped, still there


def test_split_once():
    rb = RingBuffer(2)
    rb.split()
    with pytest.raises(RuntimeError):
        rb.split()


@pytest.mark.parametrize("seed", range(20))
def test_spsc_under_random_interleavings_delivers_in_order(seed):
    sched = Scheduler(seed)
    rb = RingBuffer(4, counter_bits=4)
    p, c = rb.split()
    sent, got = list(range(1, 41)), []

    def producer():
        for v in sent:
            while not (yield from p.push(v)):
                yield

    def consumer():
        while len(got) < len(sent):
            v = yield from c.pop()
            if v is None:
                yield
            else:
                got.append(v)
            assert 0 <= rb.len() <= 4

    sched.spawn("p", producer(), weight=sched.rng.choice([0.3, 1, 3]))
    sched.spawn("c", consumer())
    sched.run()
    assert got == sent
