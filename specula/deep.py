"""Room for deeply nested input: run work on a thread with a large stack and recursion limit.

specula's parser, semantic checks, compiler and evaluator recurse over expressions. Python's
default recursion limit (1000 frames, an 8 MiB main-thread stack) stops them at a few hundred
levels of nesting (``((((...))))``, a 200-term ``x + ... + x``), where SANY takes more.
``call_deep`` runs a function on a worker thread whose stack is large enough for
``RECURSION_LIMIT`` frames and raises the limit while it runs, so nesting in the thousands works;
beyond that the stages turn ``RecursionError`` into a located "nested too deeply" error.

A Ctrl-C (or SIGTERM, which the CLI maps to it) arrives in the main thread; ``call_deep``
forwards it to the worker as ``KeyboardInterrupt`` and waits for the worker to finish, so the
work sees the interrupt exactly where it would on the main thread and can report what it did.
"""

from __future__ import annotations

import ctypes
import sys
import threading
from typing import Any, Callable, TypeVar

__all__ = ["call_deep", "RECURSION_LIMIT", "STACK_BYTES", "in_deep_thread", "interrupt_thread"]

T = TypeVar("T")

RECURSION_LIMIT = 60_000
STACK_BYTES = 1 << 29  # 512 MiB of address space; pages are only committed when touched
_local = threading.local()
_raise_lock = threading.Lock()


def in_deep_thread() -> bool:
    return bool(getattr(_local, "deep", False))


def interrupt_thread(thread: threading.Thread) -> None:
    """Raise KeyboardInterrupt in ``thread`` at its next bytecode (as a signal would)."""
    if thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(KeyboardInterrupt))


def call_deep(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` on a large-stack thread with ``RECURSION_LIMIT``: its result or exception.

    Meant for a program's entry point (the CLI's ``main``): while ``fn`` runs, the thread stack
    size and the recursion limit of the process are raised (and restored after). Raises
    ``KeyboardInterrupt`` when interrupted, also when the work caught the interrupt itself and
    returned normally.
    """
    if in_deep_thread():
        return fn(*args, **kwargs)
    box: dict[str, Any] = {}
    done = threading.Event()  # not Thread.join: a join cut by KeyboardInterrupt marks the thread dead

    def run() -> None:
        _local.deep = True
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller's thread
            box["error"] = exc
        finally:
            done.set()

    with _raise_lock:
        # for the command's lifetime: threads the work starts (bench runners) get the same stack,
        # since the recursion limit is one for the whole interpreter
        old_stack, old_limit = threading.stack_size(), sys.getrecursionlimit()
        threading.stack_size(max(old_stack, STACK_BYTES))
        sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
        worker = threading.Thread(target=run, name="specula-deep", daemon=True)
    worker.start()
    interrupted = False
    try:
        while True:
            try:  # the signal handler may raise anywhere in this loop, not only inside join()
                while not done.wait(0.2):
                    pass
                break
            except KeyboardInterrupt:
                if interrupted:  # a second Ctrl-C while the work winds down: stop waiting
                    raise
                interrupted = True
                interrupt_thread(worker)
    finally:
        if done.is_set():
            with _raise_lock:
                threading.stack_size(old_stack)
                sys.setrecursionlimit(old_limit)
    if "error" in box:
        raise box["error"]
    if interrupted:  # the work caught the interrupt and returned what it had: still an interrupt
        raise KeyboardInterrupt
    return box["value"]
