"""What a search (``checker.check``, ``simulate.simulate``, the liveness checks) uses of a model:
:class:`ModelProtocol`, and the :class:`ActionInfo` each action of Next is described by.

``specula.tla.Model`` implements it; a test or a tool may hand the search any object that does.
Optional hooks, looked up with ``getattr`` by the checker: ``state_key(state)`` (a custom
fingerprint key), ``has_behavior`` (False for constant-only models), ``classify_property(name)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Protocol

__all__ = ["ActionInfo", "ModelProtocol", "State"]

State = tuple  # one value per variable, in ``variables`` order


@dataclass
class ActionInfo:
    index: int
    name: str
    label: str
    params: tuple[str, ...]
    span: Any = None
    # internal: the action's body and compile-time environment, its \E-split binders
    node: Any = field(default=None, repr=False, compare=False)
    env: Any = field(default=None, repr=False, compare=False)
    binders: list = field(default_factory=list, repr=False, compare=False)  # [(name, slot, values)]
    # TLC's coverage label: <Name line L, col C to line L, col C2 of module M>
    tlc_label: str = field(default="", compare=False)


class ModelProtocol(Protocol):
    """Every member the search reads (see docs/checker.md)."""

    variables: tuple[str, ...]
    actions: list[ActionInfo]
    spec: Any  # the loaded Spec (module names for labels)
    cfg: Any  # the ModelConfig the model was built with
    env: Any  # compile-time environment of the root module (liveness compiles formulas in it)
    compiler: Any  # the Compiler (liveness compiles temporal formulas with it)
    runtime: Any  # TLCRuntime: TLCGet/TLCSet state the search fills in
    next_name: Any  # the next-state relation's AST (None for a constant-only spec)
    has_view: bool  # a VIEW is declared
    symmetry_perms: list  # SYMMETRY permutations (empty: none)

    def init_states(self) -> Iterator[State]: ...

    def next_states(self, state: State) -> Iterator[tuple[int, State]]: ...

    def view(self, state: State) -> Any: ...

    def permute(self, state: State, perm: Any) -> State: ...

    def intern_state(self, state: State) -> State: ...

    def step_label(self, action: int, pre: State, post: State) -> str: ...

    def evaluate(self, expr_text: str, state: State | dict | None = None) -> Any: ...

    def compile_state_predicate(self, name_or_expr: str) -> Callable[[State], Any]: ...

    def compile_invariant(self, name_or_expr: str) -> Callable[[State], bool]: ...

    def compile_action_predicate(self, name_or_expr: str) -> Callable[[State, State], bool]: ...

    def compile_alias(self, name_or_expr: str) -> Callable[[State, State], Any]: ...

    def check_assumes(self) -> list[Any]: ...

    def _expr_node(self, name_or_expr: str) -> Any: ...
