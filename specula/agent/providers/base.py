"""The provider interface, retry policy (tenacity) and the error classification it uses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence, TypeVar

from specula.agent.messages import Message, Reply, ToolSpec
from specula.errors import ProviderError

__all__ = ["Provider", "RetryPolicy", "call_with_retries", "Transient", "DeltaFn"]

T = TypeVar("T")
DeltaFn = Callable[[dict[str, Any]], None]
"""Receives pieces of a streamed reply as they arrive: ``{"start": True}`` when an attempt begins
(a retry starts the reply over), ``{"text": "..."}`` for text, ``{"tool": NAME}`` when a tool call begins."""


class Provider(Protocol):
    """One model behind one API. ``complete`` is a single (retried) request."""

    provider: str  # "anthropic" | "openai" | "openai-compatible" | "litellm"
    model: str

    def complete(
        self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec], max_tokens: int = 8192,
        on_delta: DeltaFn | None = None,
    ) -> Reply:
        """``on_delta`` sees the reply as it streams (only when the provider streams)."""
        ...

    def secrets(self) -> list[str]:
        """Values that must never be written anywhere (API keys)."""
        ...


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with jitter for rate limits, 5xx, timeouts and connection errors."""

    attempts: int = 6
    initial: float = 1.0
    maximum: float = 60.0
    timeout: float = 300.0  # per request, seconds


class Transient(Exception):
    """Wraps a retryable failure; ``status`` is the HTTP status when there was one."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def call_with_retries(fn: Callable[[], T], policy: RetryPolicy, classify: Callable[[BaseException], Transient | None],
                      what: str) -> T:
    """Run ``fn``; retry while ``classify`` says the failure is transient; then ProviderError."""
    import tenacity

    def attempt() -> T:
        try:
            return fn()
        except (KeyboardInterrupt, ProviderError):
            raise
        except Exception as exc:  # SDK errors: classify, else fail at once
            transient = classify(exc)
            if transient is not None:
                raise transient from exc
            raise ProviderError(f"{what}: {_describe(exc)}") from exc

    retrying = tenacity.Retrying(
        stop=tenacity.stop_after_attempt(max(1, policy.attempts)),
        wait=tenacity.wait_exponential_jitter(multiplier=policy.initial, max=policy.maximum, jitter=policy.initial),
        retry=tenacity.retry_if_exception_type(Transient),
        reraise=True,
    )
    try:
        return retrying(attempt)
    except Transient as exc:
        raise ProviderError(
            f"{what}: gave up after {policy.attempts} attempts; last error: {exc}"
        ) from exc


def _describe(exc: BaseException) -> str:
    status = getattr(exc, "status_code", None)
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if len(text) > 300:
        text = text[:300] + "..."
    return f"HTTP {status}: {text}" if status else f"{type(exc).__name__}: {text}"


def classify_status(exc: BaseException, timeout_types: tuple[type, ...]) -> Transient | None:
    """Common rule: 408/409/425/429/5xx, timeouts and connection errors are transient."""
    status = getattr(exc, "status_code", None)
    if isinstance(status, int) and (status in (408, 409, 425, 429) or status >= 500):
        return Transient(_describe(exc), status)
    if timeout_types and isinstance(exc, timeout_types):
        return Transient(_describe(exc))
    return None


def schema_of(tool: ToolSpec) -> dict[str, Any]:
    return tool.parameters or {"type": "object", "properties": {}}
