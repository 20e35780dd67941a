"""One declaration per tool: ``@tool`` on a method derives the tool's JSON schema from the method's
signature and docstring; ``collect(cls)`` lists a class's tools in definition order.

A tool method takes ``self`` and keyword arguments annotated ``str``, ``int``, ``bool`` or
``Literal[...]`` (an enum of strings); an argument with a default is optional. The docstring's first
paragraph is the tool's description; an ``Args:`` section gives one line per argument::

    @tool
    def read_file(self, path: str, start: int = 1) -> str:
        \"\"\"Read lines of a file.

        Args:
            path: file path relative to the repository
            start: first line (default 1)
        \"\"\"

Every front end (the built-in loop, the MCP server, the TUI) enumerates the same ``Tool`` objects
and calls them through :meth:`Tool.bind` (argument checking) and :attr:`Tool.fn`.
"""

from __future__ import annotations

import inspect
import re
import typing
from dataclasses import dataclass
from typing import Any, Callable, Literal, get_args, get_origin

from specula.agent.messages import ToolSpec

__all__ = ["Tool", "ToolError", "tool", "collect", "schema_of"]

_MARK = "__specula_tool__"
_TYPES: dict[Any, str] = {str: "string", int: "integer", bool: "boolean", float: "number"}


class ToolError(Exception):
    """A bad tool request; the text goes back to the model as an error result."""


@dataclass(frozen=True)
class Tool:
    """One tool: its name, description, JSON schema and the method that runs it."""

    name: str
    description: str
    parameters: dict[str, Any]
    fn: Callable[..., str]

    @property
    def spec(self) -> ToolSpec:
        return ToolSpec(self.name, self.description, self.parameters)

    def bind(self, args: dict[str, Any]) -> dict[str, Any]:
        """Check ``args`` against the schema (unknown, missing, mistyped); return them coerced
        (``"3"`` -> 3 for an integer, 3 -> ``"3"`` for a string). Raises ``ToolError``."""
        props = self.parameters.get("properties", {})
        unknown = [k for k in args if k not in props]
        if unknown:
            raise ToolError(f"{self.name}: unknown argument(s) {', '.join(unknown)}; "
                            f"expected {', '.join(props) or 'none'}")
        missing = [k for k in self.parameters.get("required", []) if k not in args]
        if missing:
            raise ToolError(f"{self.name}: missing required argument(s) {', '.join(missing)}")
        out: dict[str, Any] = {}
        for k, v in args.items():
            kind = props[k].get("type")
            if kind == "integer":
                if isinstance(v, str) and re.fullmatch(r"-?\d+", v.strip()):
                    v = int(v)
                if not isinstance(v, int) or isinstance(v, bool):
                    raise ToolError(f"{self.name}: argument {k} must be an integer, got {v!r}")
            elif kind == "boolean":
                if not isinstance(v, bool):
                    raise ToolError(f"{self.name}: argument {k} must be true or false, got {v!r}")
            elif kind == "string":
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    v = str(v)
                if not isinstance(v, str):
                    raise ToolError(f"{self.name}: argument {k} must be a string, got {type(v).__name__}")
                enum = props[k].get("enum")
                if enum and v not in enum:
                    raise ToolError(f"{self.name}: argument {k} must be one of {', '.join(enum)}")
            out[k] = v
        return out


def tool(fn: Callable[..., str]) -> Callable[..., str]:
    """Mark a method as a tool; its schema is derived once, when the class is collected."""
    setattr(fn, _MARK, True)
    return fn


def _doc(fn: Callable[..., Any]) -> tuple[str, dict[str, str]]:
    """(description, {argument: description}) from a docstring with an optional ``Args:`` section."""
    text = inspect.cleandoc(fn.__doc__ or "")
    if not text:
        raise TypeError(f"tool {fn.__name__} has no docstring (its description)")
    head, _, args_part = text.partition("\nArgs:\n")
    description = " ".join(head.split())
    args: dict[str, str] = {}
    current = None
    for line in args_part.splitlines():
        m = re.match(r"\s+(\w+):\s*(.*)$", line)
        if m and (current is None or len(line) - len(line.lstrip()) <= 4):
            current = m.group(1)
            args[current] = m.group(2).strip()
        elif current and line.strip():
            args[current] += " " + line.strip()
    return description, args


def _json_type(annotation: Any, where: str) -> dict[str, Any]:
    if get_origin(annotation) is Literal:
        values = get_args(annotation)
        if not all(isinstance(v, str) for v in values):
            raise TypeError(f"{where}: Literal choices must be strings")
        return {"type": "string", "enum": list(values)}
    if annotation in _TYPES:
        return {"type": _TYPES[annotation]}
    raise TypeError(f"{where}: unsupported annotation {annotation!r} (use str, int, bool, float or Literal)")


def schema_of(fn: Callable[..., Any]) -> Tool:
    """The ``Tool`` declared by a method: schema from its signature and docstring."""
    hints = typing.get_type_hints(fn)
    description, arg_docs = _doc(fn)
    props: dict[str, Any] = {}
    required: list[str] = []
    for name, p in inspect.signature(fn).parameters.items():
        if name == "self":
            continue
        if p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            raise TypeError(f"tool {fn.__name__}: argument {name} must be a plain keyword argument")
        if name not in hints:
            raise TypeError(f"tool {fn.__name__}: argument {name} has no type annotation")
        prop = _json_type(hints[name], f"tool {fn.__name__}, argument {name}")
        if arg_docs.get(name):
            prop["description"] = arg_docs[name]
        props[name] = prop
        if p.default is p.empty:
            required.append(name)
    unknown = set(arg_docs) - set(props)
    if unknown:
        raise TypeError(f"tool {fn.__name__}: docstring describes unknown argument(s) {', '.join(sorted(unknown))}")
    schema = {"type": "object", "properties": props, "required": required, "additionalProperties": False}
    return Tool(fn.__name__, description, schema, fn)


def collect(cls: type) -> tuple[Tool, ...]:
    """Every ``@tool`` method of ``cls`` (and its bases), in definition order."""
    seen: dict[str, Tool] = {}
    for klass in reversed(cls.__mro__):
        for name, member in vars(klass).items():
            if callable(member) and getattr(member, _MARK, False):
                seen[name] = schema_of(member)
    return tuple(seen.values())
