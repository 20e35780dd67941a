"""A single-producer / single-consumer ring buffer, in the style of Asterinas' RingBuffer
(kernel/src/util/ring_buffer.rs).

- Capacity is a power of two; ``head`` (next slot to pop) and ``tail`` (next slot to push) are
  free-running counters that wrap at 2**counter_bits, not at the capacity. A slot's index is
  ``counter & (capacity - 1)``; the buffer is full when ``tail - head == capacity`` (every slot
  is usable, none is wasted) and empty when ``head == tail``.
- Only the producer writes ``tail`` and the slots; only the consumer writes ``head``. A push
  writes the slot, then publishes it with a release store of ``tail``; a pop reads the slot, then
  frees it with a release store of ``head``. Popped slots are not cleared.
- The other side's counter is read once per operation and may be stale by the time it is used:
  that only makes a push see the buffer fuller (or a pop emptier) than it is.

Producer and consumer are generators for the cooperative scheduler
(tools/emitters/python/specula_coop.py): ``ok = yield from producer.push(x)``; every ``yield``
is a preemption point. ``observer(action, actor, value)`` is called at the publishing store.
"""

from __future__ import annotations

from typing import Callable, Generator, Generic, TypeVar

T = TypeVar("T")

Observer = Callable[[str, str, object], None]


def _no_observer(action: str, actor: str, value: object) -> None:
    pass


class AtomicCounter:
    """A counter word of ``bits`` bits; load/store are single indivisible operations."""

    def __init__(self, bits: int) -> None:
        self.mask = (1 << bits) - 1
        self._v = 0

    def load(self) -> int:
        return self._v

    def store(self, v: int) -> None:
        self._v = v & self.mask


class RingBuffer(Generic[T]):
    def __init__(self, capacity: int, counter_bits: int = 64, fill: object = 0,
                 observer: Observer = _no_observer) -> None:
        if capacity <= 0 or capacity & (capacity - 1):
            raise ValueError(f"capacity must be a power of two, got {capacity}")
        if (1 << counter_bits) < 2 * capacity:
            raise ValueError("counters must count at least to 2 * capacity")
        self.capacity = capacity
        self.slots: list[object] = [fill] * capacity
        self.head = AtomicCounter(counter_bits)
        self.tail = AtomicCounter(counter_bits)
        self._observe = observer
        self._taken = False

    def split(self) -> tuple["Producer[T]", "Consumer[T]"]:
        """The two halves; a buffer is split once (single producer, single consumer)."""
        if self._taken:
            raise RuntimeError("ring buffer already split")
        self._taken = True
        return Producer(self), Consumer(self)

    def _distance(self, tail: int, head: int) -> int:
        return (tail - head) & self.tail.mask

    def len(self) -> int:
        return self._distance(self.tail.load(), self.head.load())


class Producer(Generic[T]):
    def __init__(self, rb: RingBuffer[T]) -> None:
        self.rb = rb

    def push(self, item: T) -> Generator[object, None, bool]:
        rb = self.rb
        tail = rb.tail.load()  # our own counter
        head = rb.head.load()  # acquire: the consumer is done with slots before head
        yield
        if rb._distance(tail, head) == rb.capacity:
            return False  # full
        rb.slots[tail & (rb.capacity - 1)] = item
        rb.tail.store(tail + 1)  # release: publish the slot
        rb._observe("Push", "producer", item)
        return True


class Consumer(Generic[T]):
    def __init__(self, rb: RingBuffer[T]) -> None:
        self.rb = rb

    def pop(self) -> Generator[object, None, T | None]:
        rb = self.rb
        head = rb.head.load()
        tail = rb.tail.load()  # acquire: slots before tail are written
        yield
        if head == tail:
            return None  # empty
        item = rb.slots[head & (rb.capacity - 1)]
        rb.head.store(head + 1)  # release: the slot may be reused
        rb._observe("Pop", "consumer", item)
        return item  # type: ignore[return-value]
