"""What a search (``checker.check``, ``simulate.simulate``, ``plan.prepare``, ``symmetry``, the
liveness checks) uses of a model: :class:`ModelProtocol`, and the :class:`ActionInfo` each action
of Next is described by.

``specula.tla.Model`` implements every member but ``classify_property``; a test or a tool may
hand the search any object that implements the members not named in :data:`OPTIONAL` (the
search does without those, as said there). tests/tla/checker/test_model_protocol.py checks that every
member the search reads is named here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol

if TYPE_CHECKING:
    from specula.tla.cfg import ModelConfig
    from specula.tla.compile import Compiler, Env
    from specula.tla.compile.runtime import TLCRuntime
    from specula.tla.modules import Spec

__all__ = ["ActionInfo", "ModelProtocol", "OPTIONAL", "State"]

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

    # ---- the state space ---------------------------------------------------------------------
    variables: tuple[str, ...]
    actions: list[ActionInfo]  # the actions of Next, in TLC's order (coverage rows)
    cfg: ModelConfig  # the configuration the model was built with (when check gets none)

    def init_states(self) -> Iterator[State]: ...

    def next_states(self, state: State) -> Iterator[tuple[int, State]]: ...  # (action index, state)

    def emitted(self) -> int: ...  # successors the running next_states call has generated so far

    def check_assumes(self) -> list[Any]: ...  # diagnostics of the false ASSUMEs

    # ---- what is checked ---------------------------------------------------------------------
    def compile_state_predicate(self, name_or_expr: str) -> Callable[[State], Any]: ...

    def compile_action_predicate(self, name_or_expr: str) -> Callable[[State, State], bool]: ...

    def compile_invariant(self, name_or_expr: str) -> Callable[[State], bool]: ...

    def compile_constraint(self, name_or_expr: str) -> Callable[[State], bool]: ...

    def compile_alias(self, name_or_expr: str) -> Callable[[State, State], Any]: ...

    def evaluate(self, expr_text: str, state: State | dict | None = None) -> Any: ...

    def classify_property(self, name: str) -> list[tuple[str, Callable | None]] | None: ...

    # ---- identity of a state -----------------------------------------------------------------
    has_view: bool  # a VIEW is declared
    symmetry_perms: list  # SYMMETRY permutations (empty: none)

    def view(self, state: State) -> Any: ...

    def permute(self, state: State, perm: Any) -> State: ...

    def intern_state(self, state: State) -> State: ...

    # ---- reports -----------------------------------------------------------------------------
    spec: Spec  # the loaded modules (their texts give TLC's string order)

    def step_label(self, action: int, pre: State, post: State) -> str: ...

    def step_info(self, action: int, pre: State, post: State) -> Any: ...  # StepInfo: TLC's action record

    def init_info(self) -> Any: ...  # StepInfo of the initial predicate (simulation's Trace)

    # ---- temporal properties (liveness) and TLCGet -------------------------------------------
    compiler: Compiler  # compiles the temporal formulas
    env: Env  # compile-time environment of the root module
    next_name: Any  # the next-state relation's AST (None for a constant-only spec)
    runtime: TLCRuntime  # TLCGet/TLCSet state the search fills in

    def expr_node(self, name_or_expr: str) -> Any: ...  # the AST of a definition's name or an expression

    # successors of an action (AST, env) from a state, by its generated code (None: not generated)
    def action_successors(self, node: Any, env: Env) -> Callable[[State], list[State]] | None: ...


# Members a hand-written model may leave out, and what the search does then.
OPTIONAL: dict[str, str] = {
    "compile_invariant": "invariants are compiled with compile_state_predicate",
    "compile_constraint": "CONSTRAINTs are compiled with compile_state_predicate",
    "compile_alias": "ALIAS is ignored",
    "evaluate": "POSTCONDITION holds",
    "classify_property": "properties are classified with compiler/env/expr_node (Model leaves it out)",
    "has_view": "no VIEW",
    "symmetry_perms": "no SYMMETRY",
    "view": "no VIEW",
    "permute": "no SYMMETRY",
    "intern_state": "states are stored as generated",
    "spec": "strings are ordered by first sight",
    "step_label": "error-trace steps are labelled with the action's name",
    "step_info": "CounterExample's actions and simulation's Trace name the action only",
    "init_info": "simulation's Trace names the initial action \"Init\"",
    "compiler": "every temporal property is left 'not checked'",
    "env": "every temporal property is left 'not checked'",
    "next_name": "fairness conditions are evaluated without matching them to the model's actions",
    "runtime": "TLCGet/TLCSet are not filled in",
    "emitted": "TLCExt!TLCDefer is never evaluated in simulation",
    "expr_node": "every temporal property is left 'not checked'",
    "action_successors": "ENABLED of fairness actions runs their closures",
    "check_assumes": "no ASSUME",
}
