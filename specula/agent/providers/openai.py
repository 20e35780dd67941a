"""OpenAI chat completions through the ``openai`` SDK; also any OpenAI-compatible server
(vLLM, Ollama, llama.cpp) given by base URL. The SDK is imported at construction."""

from __future__ import annotations

import os
from typing import Any, Mapping, Sequence

from specula.agent.messages import Message, Reply, ToolCall, ToolSpec, Usage
from specula.agent.providers.base import DeltaFn, RetryPolicy, call_with_retries, classify_status, schema_of
from specula.errors import ProviderError

__all__ = ["OpenAIProvider"]


class OpenAIProvider:
    def __init__(self, model: str, *, base_url: str | None = None, env: Mapping[str, str] | None = None,
                 retry: RetryPolicy = RetryPolicy(), stream: bool = False, compatible: bool = False) -> None:
        env = os.environ if env is None else env
        self.provider = "openai-compatible" if compatible else "openai"
        if compatible:
            if not base_url:
                raise ProviderError("openai-compatible models need a base URL: openai-compatible/NAME@http://host:port/v1")
            key = env.get("OPENAI_COMPATIBLE_API_KEY") or "not-needed"
        else:
            key = env.get("OPENAI_API_KEY") or ""
            if not key:
                raise ProviderError("OPENAI_API_KEY is not set (needed for openai/ models)")
            base_url = base_url or env.get("OPENAI_BASE_URL") or None
        import openai

        self._sdk = openai
        self.model = model
        self.stream = stream
        self.retry = retry
        self._key = key
        self._client = openai.OpenAI(api_key=key, base_url=base_url, max_retries=0, timeout=retry.timeout)

    def secrets(self) -> list[str]:
        return [self._key] if self._key != "not-needed" else []

    def _classify(self, exc: BaseException):
        return classify_status(exc, (self._sdk.APITimeoutError, self._sdk.APIConnectionError))

    def complete(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec],
                 max_tokens: int = 8192, on_delta: DeltaFn | None = None) -> Reply:
        kwargs: dict[str, Any] = {"model": self.model, "messages": to_wire(system, messages)}
        if self.provider == "openai":
            kwargs["max_completion_tokens"] = max_tokens
        else:
            kwargs["max_tokens"] = max_tokens
        if tools:
            kwargs["tools"] = [{"type": "function", "function": {
                "name": t.name, "description": t.description, "parameters": schema_of(t)}} for t in tools]

        def call():
            if self.stream:
                extra = {"stream_options": {"include_usage": True}} if self.provider == "openai" else {}
                return _collect_stream(self._client.chat.completions.create(stream=True, **extra, **kwargs), on_delta)
            return from_wire(self._client.chat.completions.create(**kwargs))

        return call_with_retries(call, self.retry, self._classify, f"{self.provider}/{self.model}")


def to_wire(system: str, messages: Sequence[Message]) -> list[dict[str, Any]]:
    import json

    out: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    for m in messages:
        if m.role == "tool":
            out.append({"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content or "(empty)"})
        elif m.role == "assistant":
            d: dict[str, Any] = {"role": "assistant", "content": m.content or None}
            if m.tool_calls:
                d["tool_calls"] = [{"id": c.id, "type": "function", "function": {
                    "name": c.name, "arguments": json.dumps(c.arguments)}}
                    for c in m.tool_calls]
            out.append(d)
        else:
            out.append({"role": "user", "content": m.content})
    return out


def _usage(u: Any) -> Usage:
    if u is None:
        return Usage()
    details = getattr(u, "prompt_tokens_details", None)
    cached = int(getattr(details, "cached_tokens", 0) or 0) if details is not None else 0
    return Usage(int(u.prompt_tokens or 0) - cached, int(u.completion_tokens or 0), cached, 0)


def from_wire(resp: Any) -> Reply:
    if not resp.choices:
        raise ProviderError("the server returned no choices")
    choice = resp.choices[0]
    msg = choice.message
    calls = tuple(ToolCall.parse(tc.id, tc.function.name, tc.function.arguments) for tc in (msg.tool_calls or [])
                  if getattr(tc, "function", None) is not None)
    return Reply(Message("assistant", msg.content or "", calls), _usage(resp.usage), str(choice.finish_reason or ""),
                 str(resp.model or ""))


def _collect_stream(stream: Any, on_delta: DeltaFn | None = None) -> Reply:
    if on_delta is not None:
        on_delta({"start": True})
    text: list[str] = []
    calls: dict[int, dict[str, str]] = {}
    usage = Usage()
    finish = ""
    model = ""
    for chunk in stream:
        model = chunk.model or model
        if getattr(chunk, "usage", None) is not None:
            usage = _usage(chunk.usage)
        for choice in chunk.choices or []:
            delta = choice.delta
            if delta is not None:
                if delta.content:
                    text.append(delta.content)
                    if on_delta is not None:
                        on_delta({"text": delta.content})
                for tc in delta.tool_calls or []:
                    slot = calls.setdefault(tc.index, {"id": "", "name": "", "arguments": ""})
                    if tc.id:
                        slot["id"] = tc.id
                    if tc.function is not None:
                        if tc.function.name and not slot["name"] and on_delta is not None:
                            on_delta({"tool": tc.function.name})
                        slot["name"] += tc.function.name or ""
                        slot["arguments"] += tc.function.arguments or ""
            if choice.finish_reason:
                finish = choice.finish_reason
    tool_calls = tuple(ToolCall.parse(s["id"] or f"call_{i}", s["name"], s["arguments"]) for i, s in sorted(calls.items()))
    return Reply(Message("assistant", "".join(text), tool_calls), usage, finish, model)
