"""Unit tests of rwmutex.py (pytest): python -m pytest benchmarks/systems/rwmutex/test_rwmutex.py"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools" / "emitters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest  # noqa: E402
from specula_coop import Scheduler  # noqa: E402

import rwmutex as rw  # noqa: E402


def test_readers_share_and_exclude_writers():
    m = rw.RwMutex(Scheduler(0))
    a, b = rw.try_read(m), rw.try_read(m)
    assert a and b and m.readers() == 2
    assert rw.try_write(m) is None
    assert m.readers() == 2  # the failed attempts left no trace in the word
    a.release()
    b.release()
    w = rw.try_write(m)
    assert w and m.has_writer()
    assert rw.try_read(m) is None and m.readers() == 0  # optimistic increment backed out
    assert rw.try_upread(m) is None and not m.has_upreader()
    w.release()
    assert m.lock.load() == 0


def test_upgradeable_reader_coexists_with_readers_not_with_writer_or_another():
    m = rw.RwMutex(Scheduler(0))
    u = rw.try_upread(m)
    r = rw.try_read(m)
    assert u and r
    assert rw.try_upread(m) is None
    assert rw.try_write(m) is None
    r.release()
    u.release()
    assert m.lock.load() == 0


def test_upgrade_waits_for_readers_and_blocks_new_ones():
    sched = Scheduler(3)
    m = rw.RwMutex(sched)
    log: list[str] = []

    def upgrader():
        u = yield from m.upread()
        log.append("upread")
        w = yield from u.upgrade()
        log.append("write")
        assert m.readers() == 0 and m.has_writer()
        w.release()

    def reader():
        r = yield from m.read()
        log.append("read")
        for _ in range(5):
            yield
        r.release()
        log.append("read-done")

    sched.spawn("r", reader())
    sched.spawn("u", upgrader())
    sched.run()
    assert log.index("write") > log.index("read-done") or "read" not in log[: log.index("write")]
    assert m.lock.load() == 0


@pytest.mark.parametrize("seed", range(25))
def test_mutual_exclusion_and_no_lost_wakeups(seed):
    sched = Scheduler(seed)
    m = rw.RwMutex(sched)
    holders: dict[str, int] = {"read": 0, "write": 0, "upread": 0}

    def check():
        assert holders["write"] <= 1 and holders["upread"] <= 1
        assert not (holders["write"] and (holders["read"] or holders["upread"]))

    def worker(i):
        rng = sched.rng
        for _ in range(8):
            k = rng.choice(["read", "write", "upread"])
            g = yield from getattr(m, k)()
            holders[k] += 1
            check()
            yield
            if k == "upread" and rng.random() < 0.5:
                holders[k] -= 1
                g = yield from g.upgrade()
                k = "write"
                holders[k] += 1
                check()
                yield
            holders[k] -= 1
            g.release()
            yield

    for i in range(4):
        sched.spawn(f"t{i}", worker(i))
    sched.run()  # raises Deadlock on a lost wake-up
    assert m.lock.load() == 0
