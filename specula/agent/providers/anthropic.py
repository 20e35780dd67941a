"""Anthropic Messages API through the ``anthropic`` SDK (imported at construction)."""

from __future__ import annotations

import json
import os
from typing import Any, Mapping, Sequence

from specula.agent.messages import Message, Reply, ToolCall, ToolSpec, Usage
from specula.agent.providers.base import DeltaFn, RetryPolicy, call_with_retries, classify_status, schema_of
from specula.errors import ProviderError

__all__ = ["AnthropicProvider"]


class AnthropicProvider:
    provider = "anthropic"

    def __init__(self, model: str, *, base_url: str | None = None, env: Mapping[str, str] | None = None,
                 retry: RetryPolicy = RetryPolicy(), stream: bool = False) -> None:
        env = os.environ if env is None else env
        key = env.get("ANTHROPIC_API_KEY")
        if not key:
            raise ProviderError("ANTHROPIC_API_KEY is not set (needed for anthropic/ models)")
        import anthropic

        self._sdk = anthropic
        self.model = model
        self.stream = stream
        self.retry = retry
        self._key = key
        self._client = anthropic.Anthropic(
            api_key=key, base_url=base_url or env.get("ANTHROPIC_BASE_URL") or None,
            max_retries=0, timeout=retry.timeout,
        )

    def secrets(self) -> list[str]:
        return [self._key]

    def _classify(self, exc: BaseException):
        return classify_status(exc, (self._sdk.APITimeoutError, self._sdk.APIConnectionError))

    def complete(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec],
                 max_tokens: int = 8192, on_delta: DeltaFn | None = None) -> Reply:
        kwargs: dict[str, Any] = {
            "model": self.model,
            "max_tokens": max_tokens,
            "messages": to_wire(messages),
        }
        if system:  # cached: the system prompt and tool schemas are the same on every call
            kwargs["system"] = [{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}]
        if tools:
            kwargs["tools"] = [{"name": t.name, "description": t.description, "input_schema": schema_of(t)}
                               for t in tools]
            kwargs["tools"][-1]["cache_control"] = {"type": "ephemeral"}

        def call():
            if self.stream:
                with self._client.messages.stream(**kwargs) as s:
                    if on_delta is not None:
                        on_delta({"start": True})
                        for event in s:
                            if event.type == "text":
                                on_delta({"text": event.text})
                            elif event.type == "content_block_start" and event.content_block.type == "tool_use":
                                on_delta({"tool": event.content_block.name})
                    return s.get_final_message()
            return self._client.messages.create(**kwargs)

        msg = call_with_retries(call, self.retry, self._classify, f"anthropic/{self.model}")
        return from_wire(msg)


def to_wire(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Our messages -> Anthropic ``messages`` (tool results grouped into one user turn)."""
    out: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "tool":
            block = {"type": "tool_result", "tool_use_id": m.tool_call_id, "content": m.content or "(empty)"}
            if m.is_error:
                block["is_error"] = True
            if out and out[-1]["role"] == "user" and isinstance(out[-1]["content"], list) \
                    and all(b.get("type") == "tool_result" for b in out[-1]["content"]):
                out[-1]["content"].append(block)
            else:
                out.append({"role": "user", "content": [block]})
        elif m.role == "assistant":
            blocks: list[dict[str, Any]] = []
            if m.content:
                blocks.append({"type": "text", "text": m.content})
            for c in m.tool_calls:
                blocks.append({"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments})
            out.append({"role": "assistant", "content": blocks or [{"type": "text", "text": "(no reply)"}]})
        else:
            if out and out[-1]["role"] == "user" and isinstance(out[-1]["content"], list):
                out[-1]["content"].append({"type": "text", "text": m.content})
            else:
                out.append({"role": "user", "content": [{"type": "text", "text": m.content}]})
    return out


def from_wire(msg: Any) -> Reply:
    texts: list[str] = []
    calls: list[ToolCall] = []
    for block in msg.content or []:
        kind = getattr(block, "type", None)
        if kind == "text":
            texts.append(block.text)
        elif kind == "tool_use":
            raw = block.input
            if isinstance(raw, (dict, str)):
                calls.append(ToolCall.parse(block.id, block.name, raw))
            else:
                calls.append(ToolCall(block.id, block.name, {}, json.dumps(raw, default=str),
                                      "arguments must be a JSON object"))
    u = msg.usage
    usage = Usage(
        int(getattr(u, "input_tokens", 0) or 0),
        int(getattr(u, "output_tokens", 0) or 0),
        int(getattr(u, "cache_read_input_tokens", 0) or 0),
        int(getattr(u, "cache_creation_input_tokens", 0) or 0),
    )
    return Reply(Message("assistant", "\n".join(texts), tuple(calls)), usage, str(msg.stop_reason or ""),
                 str(getattr(msg, "model", "") or ""))
