"""A reader-writer mutex with upgradeable reads, in the style of Asterinas' ostd::sync::RwMutex.

All state is one atomic word:

    bit 62  WRITER               held by a writer
    bit 61  UPGRADEABLE_READER   held by the (single) upgradeable reader
    bit 60  BEING_UPGRADED       the upgradeable reader is waiting to become the writer;
                                 new readers are refused so the upgrade cannot starve
    0..59   reader count         (MAX_READER guards overflow)

- ``try_read``: optimistic ``fetch_add(READER)``; if a writer, an upgrade in progress or the
  overflow guard is set, back out with ``fetch_sub(READER)``. Readers and the upgradeable reader
  share the lock.
- ``try_write``: ``compare_exchange(0, WRITER)``: no readers, no upgradeable reader, no writer.
- ``try_upread``: ``fetch_or(UPGRADEABLE_READER)``; it succeeds unless a writer or another
  upgradeable reader holds the lock (and undoes its bit if only a writer was there).
- ``upgrade``: ``fetch_or(BEING_UPGRADED)``, then wait until the readers drained and
  ``compare_exchange(UPGRADEABLE_READER | BEING_UPGRADED, WRITER)`` succeeds.
- blocking ``read``/``write``/``upread`` wait on a WaitQueue (enqueue, re-check, park); every
  release wakes all waiters, which re-check and re-enqueue if they lose.

Threads are generators run by a cooperative scheduler (tools/emitters/python/specula_coop.py):
each ``yield`` is a preemption point; blocking methods are used as ``g = yield from m.read()``.
An ``observer(action, thread_name)`` is called right after each linearizing atomic operation
(acquisitions, releases, the upgrade steps).
"""

from __future__ import annotations

from collections import deque
from typing import Callable, Generator

from specula_coop import PARK, Scheduler, Thread

READER = 1
WRITER = 1 << 62
UPGRADEABLE_READER = 1 << 61
BEING_UPGRADED = 1 << 60
MAX_READER = 1 << 59
READER_MASK = MAX_READER * 2 - 1


class AtomicUsize:
    """An atomic word; each method is one indivisible operation (no preemption inside)."""

    def __init__(self, value: int = 0) -> None:
        self._v = value

    def load(self) -> int:
        return self._v

    def fetch_add(self, x: int) -> int:
        old, self._v = self._v, self._v + x
        return old

    def fetch_sub(self, x: int) -> int:
        old, self._v = self._v, self._v - x
        return old

    def fetch_or(self, x: int) -> int:
        old, self._v = self._v, self._v | x
        return old

    def fetch_and(self, x: int) -> int:
        old, self._v = self._v, self._v & x
        return old

    def compare_exchange(self, current: int, new: int) -> bool:
        if self._v == current:
            self._v = new
            return True
        return False


class WaitQueue:
    """FIFO queue of parked threads: enqueue, re-check the condition, park until woken."""

    def __init__(self, sched: Scheduler) -> None:
        self.sched = sched
        self.waiters: deque[Thread] = deque()

    def wait_until(self, cond: Callable[[], bool]) -> Generator[object, None, None]:
        if cond():
            return
        me = self.sched.current
        assert me is not None
        while True:
            if me not in self.waiters:  # a spurious wake-up leaves us queued
                self.waiters.append(me)
            yield  # preemption between enqueue and re-check: a wake-up here leaves a token
            if cond():
                if me in self.waiters:
                    self.waiters.remove(me)
                return
            yield PARK

    def wake_all(self) -> None:
        while self.waiters:
            self.sched.unpark(self.waiters.popleft())


Observer = Callable[[str, str], None]


def _no_observer(action: str, who: str) -> None:
    pass


class RwMutex:
    def __init__(self, sched: Scheduler, observer: Observer = _no_observer) -> None:
        self.sched = sched
        self.lock = AtomicUsize(0)
        self.queue = WaitQueue(sched)
        self._observe = observer

    def _me(self) -> str:
        return self.sched.current.name if self.sched.current else "?"

    # --- non-blocking attempts -------------------------------------------------------------
    def try_read(self) -> bool:
        lock = self.lock.fetch_add(READER)
        if lock & (WRITER | MAX_READER | BEING_UPGRADED) == 0:
            self._observe("AcquireReadLock", self._me())
            return True
        self.lock.fetch_sub(READER)
        return False

    def try_write(self) -> bool:
        if self.lock.compare_exchange(0, WRITER):
            self._observe("AcquireWriteLock", self._me())
            return True
        return False

    def try_upread(self) -> bool:
        lock = self.lock.fetch_or(UPGRADEABLE_READER) & (WRITER | UPGRADEABLE_READER)
        if lock == 0:
            self._observe("AcquireUpReadLock", self._me())
            return True
        if lock == WRITER:  # we set the bit: undo it
            self.lock.fetch_sub(UPGRADEABLE_READER)
        return False

    # --- blocking acquisition -----------------------------------------------------------------
    def read(self) -> Generator[object, None, "ReadGuard"]:
        yield from self.queue.wait_until(self.try_read)
        return ReadGuard(self)

    def write(self) -> Generator[object, None, "WriteGuard"]:
        yield from self.queue.wait_until(self.try_write)
        return WriteGuard(self)

    def upread(self) -> Generator[object, None, "UpgradeableReadGuard"]:
        yield from self.queue.wait_until(self.try_upread)
        return UpgradeableReadGuard(self)

    # --- release (called by the guards) ----------------------------------------------------
    def _release_read(self) -> None:
        self.lock.fetch_sub(READER)
        self._observe("ReleaseLock", self._me())
        self.queue.wake_all()

    def _release_write(self) -> None:
        self.lock.fetch_and(~WRITER)
        self._observe("ReleaseLock", self._me())
        self.queue.wake_all()

    def _release_upread(self) -> None:
        self.lock.fetch_sub(UPGRADEABLE_READER)
        self._observe("ReleaseLock", self._me())
        self.queue.wake_all()

    def _try_upgrade(self) -> bool:
        if self.lock.compare_exchange(UPGRADEABLE_READER | BEING_UPGRADED, WRITER):
            self._observe("Upgrade", self._me())
            return True
        return False

    # --- inspection ----------------------------------------------------------------------
    def readers(self) -> int:
        return self.lock.load() & READER_MASK

    def has_writer(self) -> bool:
        return bool(self.lock.load() & WRITER)

    def has_upreader(self) -> bool:
        return bool(self.lock.load() & UPGRADEABLE_READER)

    def being_upgraded(self) -> bool:
        return bool(self.lock.load() & BEING_UPGRADED)


class _Guard:
    def __init__(self, m: RwMutex) -> None:
        self.m = m
        self.released = False

    def _done(self) -> None:
        if self.released:
            raise RuntimeError("guard released twice")
        self.released = True


class ReadGuard(_Guard):
    def release(self) -> None:
        self._done()
        self.m._release_read()


class WriteGuard(_Guard):
    def release(self) -> None:
        self._done()
        self.m._release_write()


class UpgradeableReadGuard(_Guard):
    def release(self) -> None:
        self._done()
        self.m._release_upread()

    def upgrade(self) -> Generator[object, None, WriteGuard]:
        """Become the writer: refuse new readers, wait for the current ones to leave."""
        self._done()
        self.m.lock.fetch_or(BEING_UPGRADED)
        self.m._observe("StartUpgrade", self.m._me())
        yield
        yield from self.m.queue.wait_until(self.m._try_upgrade)
        return WriteGuard(self.m)


def try_read(m: RwMutex) -> ReadGuard | None:
    return ReadGuard(m) if m.try_read() else None


def try_write(m: RwMutex) -> WriteGuard | None:
    return WriteGuard(m) if m.try_write() else None


def try_upread(m: RwMutex) -> UpgradeableReadGuard | None:
    return UpgradeableReadGuard(m) if m.try_upread() else None
