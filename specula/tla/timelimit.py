"""A time limit for one evaluation that has no loop of its own to look at the clock (the
ASSUMEs of a model, a constant definition folded at compile time): ``time_limit(seconds)``
raises ``TimeUp`` in the thread that entered it when the seconds have passed, at its next
bytecode, as a signal would (the thread may be a ``call_deep`` worker, which receives no
signals)."""

from __future__ import annotations

import ctypes
import threading
from contextlib import contextmanager
from typing import Iterator

__all__ = ["TimeUp", "time_limit"]


class TimeUp(BaseException):
    """The time limit of a ``time_limit`` block passed. A BaseException, like KeyboardInterrupt:
    the evaluator's handlers for model errors must not take it for one."""


def _raise_in(ident: int, exc: type[BaseException] | None) -> None:
    # exc None clears an exception set for the thread and not yet raised
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(exc) if exc else None)


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Run the block with at most ``seconds`` (None: no limit); raises ``TimeUp`` when they pass.
    ``TimeUp`` is never raised after the block: one set just as it ended is cleared."""
    if seconds is None:
        yield
        return
    ident = threading.get_ident()
    lock = threading.Lock()
    state = {"active": True, "fired": False}

    def fire() -> None:
        with lock:
            if state["active"]:
                state["fired"] = True
                _raise_in(ident, TimeUp)

    timer = threading.Timer(max(0.0, seconds), fire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["active"] = False
            if state["fired"]:
                _raise_in(ident, None)
        timer.cancel()
