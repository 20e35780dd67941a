"""Hand-written Python models implementing the checker's Model protocol (no engine needed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

from specula.errors import EvalError


@dataclass
class Act:
    index: int
    name: str
    label: str
    params: tuple[str, ...] = ()
    span: object = None


@dataclass
class Cfg:
    init: str | None = "Init"
    next: str | None = "Next"
    specification: str | None = None
    invariants: list[str] = field(default_factory=list)
    properties: list[str] = field(default_factory=list)
    constraints: list[str] = field(default_factory=list)
    action_constraints: list[str] = field(default_factory=list)
    check_deadlock: bool = True


class ToyModel:
    """A model from Python callables: ``steps`` maps action name -> state -> iterable of states."""

    def __init__(
        self,
        variables: tuple[str, ...],
        inits: list[tuple],
        steps: dict[str, Callable[[tuple], list[tuple]]],
        preds: dict[str, Callable[..., bool]] | None = None,
        cfg: Cfg | None = None,
        assumes: list[str] | None = None,
        symmetry: list[dict] | None = None,
        view: Callable[[tuple], object] | None = None,
    ) -> None:
        self.variables = variables
        self._inits = inits
        self._steps = list(steps.items())
        self.actions = [Act(i, n, n) for i, (n, _) in enumerate(self._steps)]
        self._preds = preds or {}
        self.cfg = cfg or Cfg()
        self._assumes = assumes or []
        self.symmetry_perms = symmetry or []
        self.has_view = view is not None
        self._view = view

    def init_states(self) -> Iterator[tuple]:
        yield from self._inits

    def next_states(self, state: tuple) -> Iterator[tuple[int, tuple]]:
        for i, (_, f) in enumerate(self._steps):
            for s in f(state):
                yield i, s

    def compile_state_predicate(self, name: str) -> Callable[[tuple], bool]:
        return self._preds[name]

    def compile_action_predicate(self, name: str) -> Callable[[tuple, tuple], bool]:
        return self._preds[name]

    def check_assumes(self) -> list:
        return list(self._assumes)

    def view(self, state: tuple) -> object:
        return self._view(state) if self._view else state

    def permute(self, state: tuple, perm: dict) -> tuple:
        """Rename the names inside sets (a value-level permutation, like model values)."""
        return tuple(frozenset(perm.get(x, x) for x in v) if isinstance(v, frozenset) else v for v in state)

    def classify_property(self, name: str):
        kind, fn = self._preds[name]
        return [(kind, fn)]


def counter(n: int = 5, **kw) -> ToyModel:
    """x counts up to n then deadlocks; y toggles while x < n."""
    return ToyModel(
        ("x", "y"),
        [(0, False)],
        {
            "Inc": lambda s: [(s[0] + 1, s[1])] if s[0] < n else [],
            "Flip": lambda s: [(s[0], not s[1])] if s[0] < n else [],
        },
        **kw,
    )


def error_model() -> ToyModel:
    def boom(s: tuple) -> list[tuple]:
        if s[0] == 2:
            raise EvalError("f[3] is not in DOMAIN f", None, s)
        return [(s[0] + 1,)]

    return ToyModel(("x",), [(0,)], {"Step": boom})
