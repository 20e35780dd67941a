"""AST -> Python closures, compiled once per model (see compiler.py for the model of evaluation).

Parts: ``env`` (environments, operator values, markers), ``names`` (name resolution), ``ops``
(operator application), ``expr`` and ``binders`` (expression handlers), ``analysis`` (static
questions), ``action`` (actions in continuation-passing style), ``compiler`` (the Compiler that
joins them)."""

from specula.tla.compile.action import ActionCompiler
from specula.tla.compile.compiler import Compiler
from specula.tla.compile.env import IMPURE, PRIME, STATE, UNSET, CompileError, Env, OpVal, Unassigned

__all__ = ["UNSET", "STATE", "PRIME", "IMPURE", "Compiler", "ActionCompiler", "Env", "OpVal", "CompileError",
           "Unassigned"]
