"""Fixtures for the agent room: the scripted server and provider factories over the real SDKs."""

from __future__ import annotations

import pytest

from scripted_server import ScriptedServer  # noqa: F401  (re-exported for tests)
from specula.agent.providers import RetryPolicy, make_provider
from specula.agent.session import resume_run, start_run
from specula.bench.scoring import TaskScorer
from specula.tasks import load_target, with_code

FAKE_ANTHROPIC_KEY = "sk-ant-FAKE-0123456789-secret"
FAKE_OPENAI_KEY = "sk-proj-FAKE-9876543210-secret"
FAST_RETRY = RetryPolicy(attempts=4, initial=0.01, maximum=0.05, timeout=20)


def provider_for(server: ScriptedServer, kind: str, stream: bool = False, retry: RetryPolicy = FAST_RETRY):
    if kind == "anthropic":
        return make_provider(f"anthropic/claude-sonnet-4-6@{server.url}", env={"ANTHROPIC_API_KEY": FAKE_ANTHROPIC_KEY},
                             retry=retry, stream=stream)
    if kind == "openai":
        return make_provider(f"openai/gpt-5@{server.openai_url}", env={"OPENAI_API_KEY": FAKE_OPENAI_KEY},
                             retry=retry, stream=stream)
    return make_provider(f"openai-compatible/qwen3@{server.openai_url}", env={}, retry=retry, stream=stream)


@pytest.fixture(params=[("anthropic", False), ("anthropic", True), ("openai", False), ("openai", True)],
                ids=["anthropic", "anthropic-stream", "openai", "openai-stream"])
def api(request):
    """(provider kind, streaming) for the parametrized SDK tests."""
    return request.param


def agent_task(target: str):
    """The task as `specula model TARGET` builds it."""
    return with_code(load_target(target))


def start(task, opts, **scorer):
    """A new run scored by the task's scorer (``scorer``: TaskScorer's runtime/invariant_seconds)."""
    return start_run(task, opts, TaskScorer(task, **scorer))


def resume(ref, opts, model=None, **scorer):
    return resume_run(ref, opts, lambda t: TaskScorer(t, **scorer), model=model)
