"""Next's successor schedule as one generated function.

The schedule (``model._tlc_schedule``) runs the actions of Next in TLC's order: the values of
each split ``\\E`` in turn, the actions under it for each value, a guard shared by several
actions tested once per value. As a tree of closures it costs a Python call per binder value
and per guard (27 calls per LamportMutex state); here the loops and the guard tests are one
function and only the actions (and the guards) are called.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

__all__ = ["Call", "Loop", "Guard", "fuse"]


@dataclass(frozen=True)
class Call:
    """Run one action runner ``fn(s, n, e)``."""

    fn: Callable


@dataclass(frozen=True)
class Loop:
    """Each value of a split binder (frame slot ``slot``) in turn, then ``body``: the values are
    ``values`` (fixed) or ``domain(s, n, e)`` (enumerated per state)."""

    slot: int
    values: tuple | None
    domain: Callable | None
    body: tuple


@dataclass(frozen=True)
class Guard:
    """``body`` runs unless ``test(s, n, e)`` is FALSE (when it is anything else or fails, the
    actions run and report it as they would alone)."""

    test: Callable
    body: tuple


def fuse(nodes: tuple) -> Callable | None:
    """One function ``run(s, n, e)`` running ``nodes`` in order; None when Python cannot compile
    it (too deeply nested)."""
    ns: dict[str, Any] = {}
    lines = ["def _sched(s, n, e):"]

    def name(v: Any) -> str:
        nm = f"_f{len(ns)}"
        ns[nm] = v
        return nm

    def emit(body: tuple, ind: int) -> None:
        pad = "    " * ind
        if not body:
            lines.append(pad + "pass")
        for node in body:
            if isinstance(node, Call):
                lines.append(f"{pad}{name(node.fn)}(s, n, e)")
            elif isinstance(node, Loop):
                if node.domain is not None:
                    lines.append(f"{pad}for e[{node.slot}] in {name(node.domain)}(s, n, e):")
                else:
                    lines.append(f"{pad}for e[{node.slot}] in {name(tuple(node.values or ()))}:")
                emit(node.body, ind + 1)
            else:
                ok = f"_ok{ind}"
                lines.extend([f"{pad}try:", f"{pad}    {ok} = {name(node.test)}(s, n, e) is not False",
                              f"{pad}except Exception:", f"{pad}    {ok} = True", f"{pad}if {ok}:"])
                emit(node.body, ind + 1)

    emit(nodes, 1)
    try:
        code = compile("\n".join(lines), "<schedule>", "exec")
    except (SyntaxError, RecursionError, MemoryError):
        return None
    loc: dict = {}
    exec(code, ns, loc)  # noqa: S102 - generated from the schedule's structure
    return loc["_sched"]
