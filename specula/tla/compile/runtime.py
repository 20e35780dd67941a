"""TLC's run-time state as TLA+ sees it (TLCGet / TLCSet, TLCExt's Trace and CounterExample): one
object per model, filled in by the search that runs it (checker or simulator) and read by the
compiled closures of those operators."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from specula.tla.values import make_record

__all__ = ["TLCRuntime"]


def _stats() -> dict:
    return {"diameter": 0, "distinct": 0, "generated": 0, "initial": 0, "queue": 0, "duration": 0, "worker": 0}


@dataclass
class TLCRuntime:
    """``registers``: TLCSet(i, v) values; ``level``: ``[depth]`` of the state being explored
    (TLCGet("level")); ``config``: TLCGet("config") (how the model is being checked); ``stats``:
    TLCGet("stats") and its fields (filled in when the search is complete, for POSTCONDITION).

    The behaviour being explored (TLCExt!Trace, TLCGet("level")): ``current`` is the state whose
    successors are being generated (or the trace state an ALIAS is evaluated on), ``at`` its
    index for ``path_of(at)``, the states from an initial state to it. A state that is not
    ``current`` (a successor being judged by CONSTRAINT or an invariant) extends that path by one.
    ``current`` is None outside a search and while initial states are generated.

    ``counterexample``: TLCExt!CounterExample while POSTCONDITION is evaluated (None: none)."""

    registers: dict = field(default_factory=dict)
    level: list[int] = field(default_factory=lambda: [0])
    config: dict = field(default_factory=lambda: {"mode": "bfs", "deadlock": True})
    stats: dict = field(default_factory=_stats)
    variables: tuple[str, ...] = ()
    current: Any = None
    at: int = -1
    path_of: Callable[[int], Sequence[tuple]] | None = None
    counterexample: Any = None
    # simulation: record_of(i, state) is the i-th state of the behaviour as a record (TLC adds
    # the field _action there); None: the variables only
    record_of: Callable[[int, tuple], Any] | None = None
    uses_trace: bool = False  # a compiled expression reads Trace: the search keeps its states
    # [the intermediate states of A \cdot B while successors were generated (TLC counts those of
    # compositions not nested in another as generated states), the current nesting depth]
    composed: list[int] = field(default_factory=lambda: [0, 0])
    # simulation: TLCExt!TLCDefer's expressions, (successor index, fn, state, frame) in the order
    # they were met while the current state's successors were generated (None: model checking,
    # where TLC never evaluates them); emitted() counts the successors generated so far
    deferred: list | None = None
    emitted: Callable[[], int] | None = None
    _trace_cache: tuple = (None, -1, ())

    def explore(self, state: Any, at: int, level: int) -> None:
        """The search is generating the successors of ``state`` (index ``at``, depth ``level``)."""
        self.current, self.at = state, at
        self.level[0] = level

    def leave(self) -> None:
        """No state is being explored (initial states, after the search)."""
        self.current, self.at = None, -1
        self.level[0] = 0

    def state_level(self, s: Any) -> int:
        """TLCGet("level") evaluated on state ``s``: its position in the behaviour (0 while the
        initial predicate is evaluated)."""
        if s is None:
            return 0
        cur = self.current
        if cur is None:  # an initial state
            return 1
        return self.level[0] if s is cur else self.level[0] + 1

    def trace(self, s: Any) -> tuple:
        """TLCExt!Trace on state ``s``: the behaviour's states, as records, from an initial state
        to ``s``."""
        names = self.variables

        def rec(st: tuple) -> Any:
            return make_record(zip(names, st))

        cur = self.current
        if cur is None or self.path_of is None:
            return (rec(s),)
        path_of, at = self.path_of, self.at
        c_fn, c_at, recs = self._trace_cache
        if c_fn is not path_of or c_at != at:
            record_of = self.record_of
            states = path_of(at)
            recs = tuple(record_of(i, st) for i, st in enumerate(states)) if record_of else tuple(map(rec, states))
            self._trace_cache = (path_of, at, recs)
        return recs if s is cur else recs + (rec(s),)

    def defer(self, fn: Callable, s: Any, e: list) -> None:
        """TLCDefer met while the successor numbered emitted() is being generated."""
        if self.deferred is not None and self.emitted is not None:
            self.deferred.append((self.emitted(), fn, s, e))

    def run_deferred(self, index: int, successor: tuple) -> None:
        """The simulator picked successor ``index`` of the state just expanded: evaluate the last
        TLCDefer expression met while generating it (TLC keeps one per successor state), then
        forget them all."""
        pending, self.deferred = self.deferred or [], []
        for i, fn, s, e in reversed(pending):
            if i == index:
                fn(s, list(successor), e)
                break
