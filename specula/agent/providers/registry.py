"""Model strings -> providers.

``anthropic/claude-sonnet-4-6``, ``openai/gpt-5``, ``openai-compatible/<name>@http://host:port/v1``,
``litellm/<litellm model id>``. Any of them may end in ``@<base URL>`` to point the SDK elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from specula.agent.providers.base import Provider, RetryPolicy
from specula.errors import ConfigError

__all__ = ["ModelRef", "parse_model", "make_provider", "PROVIDERS"]

PROVIDERS = ("anthropic", "openai", "openai-compatible", "litellm")


@dataclass(frozen=True)
class ModelRef:
    provider: str
    name: str
    base_url: str | None = None

    def __str__(self) -> str:
        return f"{self.provider}/{self.name}" + (f"@{self.base_url}" if self.base_url else "")


def parse_model(text: str) -> ModelRef:
    """Parse a model string; raise ConfigError (field ``model``) when malformed."""
    text = text.strip()
    provider, sep, rest = text.partition("/")
    if not sep or not rest:
        raise ConfigError(f"model {text!r} must look like PROVIDER/NAME (providers: {', '.join(PROVIDERS)})",
                          field="model")
    if provider not in PROVIDERS:
        raise ConfigError(f"unknown provider {provider!r} in model {text!r} (known: {', '.join(PROVIDERS)})",
                          field="model")
    name, at, url = rest.partition("@")
    if at and not (url.startswith("http://") or url.startswith("https://")):
        raise ConfigError(f"base URL {url!r} in model {text!r} must start with http:// or https://", field="model")
    if not name:
        raise ConfigError(f"model {text!r} has no model name", field="model")
    if provider == "openai-compatible" and not at:
        raise ConfigError(f"model {text!r} needs a base URL: openai-compatible/NAME@http://host:port/v1",
                          field="model")
    return ModelRef(provider, name, url or None)


def make_provider(model: str | ModelRef, *, env: Mapping[str, str] | None = None,
                  retry: RetryPolicy = RetryPolicy(), stream: bool = False) -> Provider:
    """Build the provider for a model string. SDKs are imported here, not before."""
    ref = parse_model(model) if isinstance(model, str) else model
    if ref.provider == "anthropic":
        from specula.agent.providers.anthropic import AnthropicProvider

        return AnthropicProvider(ref.name, base_url=ref.base_url, env=env, retry=retry, stream=stream)
    if ref.provider in ("openai", "openai-compatible"):
        from specula.agent.providers.openai import OpenAIProvider

        return OpenAIProvider(ref.name, base_url=ref.base_url, env=env, retry=retry, stream=stream,
                              compatible=ref.provider == "openai-compatible")
    from specula.agent.providers.litellm_provider import LiteLLMProvider

    return LiteLLMProvider(ref.name, base_url=ref.base_url, env=env, retry=retry, stream=stream)
