"""LLM providers behind one interface, chosen by model string."""

from specula.agent.providers.base import Provider, RetryPolicy
from specula.agent.providers.registry import PROVIDERS, ModelRef, make_provider, parse_model

__all__ = ["Provider", "RetryPolicy", "ModelRef", "parse_model", "make_provider", "PROVIDERS"]
