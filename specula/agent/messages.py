"""Typed messages exchanged with a model: ``Message``, ``ToolCall``, ``Usage``, ``Reply``.

Provider-neutral: each provider converts these to and from its own wire format.
``to_dict``/``from_dict`` give the JSON form used in transcripts and run state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["FORMAT_VERSION", "Message", "ToolCall", "ToolSpec", "Usage", "Reply", "Role"]

FORMAT_VERSION = 1
Role = Literal["user", "assistant", "tool"]


@dataclass(frozen=True)
class ToolCall:
    """One tool call asked for by the model.

    ``arguments`` is the parsed JSON object; when the model sent something that is not a JSON
    object, ``arguments`` is empty, ``raw`` holds what was sent and ``error`` says why.
    """

    id: str
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    raw: str = field(default="", compare=False)
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "name": self.name, "arguments": self.arguments}
        if self.error is not None:
            d["raw"] = self.raw
            d["error"] = self.error
        return d

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "ToolCall":
        return ToolCall(d["id"], d["name"], dict(d.get("arguments") or {}), d.get("raw", ""), d.get("error"))

    @staticmethod
    def parse(id: str, name: str, raw: str | dict | None) -> "ToolCall":
        """Build a call from wire arguments (a JSON text or an already parsed object)."""
        import json

        if isinstance(raw, dict):
            return ToolCall(id, name, raw, json.dumps(raw))
        text = raw or ""
        if not text.strip():
            return ToolCall(id, name, {}, text)
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            return ToolCall(id, name, {}, text, f"arguments are not valid JSON: {exc.msg} at char {exc.pos}")
        if not isinstance(value, dict):
            return ToolCall(id, name, {}, text, f"arguments must be a JSON object, got {type(value).__name__}")
        return ToolCall(id, name, value, text)


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens + self.cache_read_tokens + self.cache_write_tokens

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_read_tokens + other.cache_read_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
        )

    def to_dict(self) -> dict[str, int]:
        return {
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cache_read_tokens": self.cache_read_tokens,
            "cache_write_tokens": self.cache_write_tokens,
        }

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "Usage":
        return Usage(*(int(d.get(k, 0) or 0) for k in Usage().to_dict()))


@dataclass(frozen=True)
class Message:
    """A conversation turn. ``tool`` messages answer one call (``tool_call_id``)."""

    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None  # tool name, for tool messages
    is_error: bool = False  # tool messages: the call failed

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            d["tool_calls"] = [c.to_dict() for c in self.tool_calls]
        if self.tool_call_id is not None:
            d["tool_call_id"] = self.tool_call_id
        if self.name is not None:
            d["name"] = self.name
        if self.is_error:
            d["is_error"] = True
        return d

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "Message":
        return Message(
            d["role"],
            d.get("content", "") or "",
            tuple(ToolCall.from_dict(c) for c in d.get("tool_calls", ())),
            d.get("tool_call_id"),
            d.get("name"),
            bool(d.get("is_error", False)),
        )


@dataclass(frozen=True)
class ToolSpec:
    """A tool offered to the model: name, description and a JSON schema for its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(frozen=True)
class Reply:
    """What a provider returns for one completion."""

    message: Message
    usage: Usage
    stop_reason: str = ""
    model: str = ""

    @property
    def tool_calls(self) -> tuple[ToolCall, ...]:
        return self.message.tool_calls
