"""A seeded cooperative scheduler for Python systems under test (standard library only).

Threads are generators; every ``yield`` is a point where a real thread could be preempted.
The scheduler runs one step of a runnable thread chosen by a seeded RNG, so a seed reproduces
the interleaving exactly. Blocking uses park/unpark with a one-shot token (like Java's
LockSupport): ``yield PARK`` blocks the current thread until someone calls ``unpark`` on it; an
unpark that comes first makes the next park return at once.

    sched = Scheduler(seed=7)
    sched.spawn("t1", worker(sched, ...))
    sched.run()            # raises Deadlock if threads remain parked with nothing runnable
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Generator, Iterator

__all__ = ["PARK", "Deadlock", "Scheduler", "Thread"]

PARK = object()


class Deadlock(RuntimeError):
    """Every live thread is parked: a lost wake-up or a real deadlock in the system."""


@dataclass(eq=False)
class Thread:
    name: str
    body: Iterator[object]
    parked: bool = False
    token: bool = False
    done: bool = False
    weight: float = 1.0


@dataclass
class Scheduler:
    seed: int
    rng: random.Random = field(init=False)
    threads: list[Thread] = field(default_factory=list)
    current: Thread | None = None
    steps: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def spawn(self, name: str, body: Generator[object, None, None], weight: float = 1.0) -> Thread:
        t = Thread(name, body, weight=weight)
        self.threads.append(t)
        return t

    def unpark(self, t: Thread) -> None:
        if t.parked:
            t.parked = False
        else:
            t.token = True

    def runnable(self) -> list[Thread]:
        return [t for t in self.threads if not t.done and not t.parked]

    def run(self, max_steps: int = 1_000_000, on_idle: Callable[[], None] | None = None) -> None:
        while True:
            ready = self.runnable()
            if not ready:
                if any(not t.done for t in self.threads):
                    names = ", ".join(t.name for t in self.threads if not t.done)
                    raise Deadlock(f"all live threads parked: {names}")
                return
            if self.steps >= max_steps:
                raise RuntimeError(f"no termination after {max_steps} steps")
            t = self.rng.choices(ready, weights=[x.weight for x in ready])[0]
            self.current = t
            self.steps += 1
            try:
                out = next(t.body)
            except StopIteration:
                t.done = True
                continue
            finally:
                self.current = None
            if out is PARK:
                if t.token:
                    t.token = False
                else:
                    t.parked = True
