"""Everything else through litellm (optional extra ``specula[litellm]``, imported lazily)."""

from __future__ import annotations

import os
from typing import Any, Mapping, Sequence

from specula.agent.messages import Message, Reply, ToolSpec
from specula.agent.providers.base import DeltaFn, RetryPolicy, call_with_retries, classify_status, schema_of
from specula.agent.providers.openai import from_wire, to_wire
from specula.errors import ProviderError

__all__ = ["LiteLLMProvider"]

_KEY_SUFFIXES = ("_API_KEY", "_API_TOKEN", "_SECRET_ACCESS_KEY", "_SECRET")


class LiteLLMProvider:
    provider = "litellm"

    def __init__(self, model: str, *, base_url: str | None = None, env: Mapping[str, str] | None = None,
                 retry: RetryPolicy = RetryPolicy(), stream: bool = False) -> None:
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no network fetch at import
        try:
            import litellm
        except ImportError:
            raise ProviderError("litellm models need the optional extra: pip install 'specula[litellm]'") from None
        self._litellm = litellm
        litellm.suppress_debug_info = True  # no banners on stderr; errors are ours to report
        self.model = model
        self.base_url = base_url
        self.retry = retry
        env = os.environ if env is None else env
        self._secrets = [v for k, v in env.items() if k.endswith(_KEY_SUFFIXES) and v]
        # litellm reads keys from os.environ; an explicit env passes the provider's key along
        prefix = model.split("/", 1)[0].upper().replace("-", "_") if "/" in model else ""
        self._api_key = env.get(f"{prefix}_API_KEY") if prefix else None

    def secrets(self) -> list[str]:
        return list(self._secrets)

    def _classify(self, exc: BaseException):
        return classify_status(exc, (getattr(self._litellm, "Timeout", TimeoutError),
                                     getattr(self._litellm, "APIConnectionError", ConnectionError)))

    def complete(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec],
                 max_tokens: int = 8192, on_delta: DeltaFn | None = None) -> Reply:
        """litellm replies arrive whole (``on_delta`` is not called)."""
        kwargs: dict[str, Any] = {"model": self.model, "messages": to_wire(system, messages), "max_tokens": max_tokens,
                                  "timeout": self.retry.timeout, "num_retries": 0}
        if self.base_url:
            kwargs["api_base"] = self.base_url
        if self._api_key:
            kwargs["api_key"] = self._api_key
        if tools:
            kwargs["tools"] = [{"type": "function", "function": {
                "name": t.name, "description": t.description, "parameters": schema_of(t)}} for t in tools]
        resp = call_with_retries(lambda: self._litellm.completion(**kwargs), self.retry, self._classify,
                                 f"litellm/{self.model}")
        return from_wire(resp)
