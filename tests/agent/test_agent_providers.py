"""Providers through the real anthropic/openai SDK clients against the scripted server."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import FAKE_ANTHROPIC_KEY, FAKE_OPENAI_KEY, FAST_RETRY, provider_for
from scripted_server import ScriptedServer
from specula.agent.messages import Message, ToolCall, ToolSpec
from specula.agent.providers import RetryPolicy, make_provider, parse_model
from specula.errors import ConfigError, ProviderError

TOOLS = [ToolSpec("run_phase", "Run a phase.", {"type": "object", "properties": {"phase": {"type": "string"}},
                                                 "required": ["phase"]})]


def test_parse_model_strings():
    assert parse_model("anthropic/claude-sonnet-4-6").provider == "anthropic"
    ref = parse_model("openai-compatible/qwen3-coder@http://localhost:8000/v1")
    assert (ref.provider, ref.name, ref.base_url) == ("openai-compatible", "qwen3-coder", "http://localhost:8000/v1")
    assert parse_model("litellm/bedrock/anthropic.claude-3").name == "bedrock/anthropic.claude-3"
    for bad in ("gpt-5", "nosuch/x", "openai-compatible/x", "openai/x@ftp://h"):
        with pytest.raises(ConfigError):
            parse_model(bad)


def test_missing_key_is_a_clean_provider_error():
    with pytest.raises(ProviderError, match="ANTHROPIC_API_KEY"):
        make_provider("anthropic/claude-sonnet-4-6", env={})
    with pytest.raises(ProviderError, match="OPENAI_API_KEY"):
        make_provider("openai/gpt-5", env={})


def test_text_tool_calls_and_usage_roundtrip(api):
    kind, stream = api
    script = [{"text": "Drafting.", "tool_calls": [{"name": "run_phase", "arguments": {"phase": "all"}}],
               "usage": {"input": 120, "output": 30}},
              {"text": "Done."}]
    with ScriptedServer(script) as server:
        p = provider_for(server, kind, stream)
        reply = p.complete("system prompt", [Message("user", "model the spin lock")], TOOLS)
        assert reply.message.content == "Drafting."
        (call,) = reply.tool_calls
        assert (call.name, call.arguments, call.error) == ("run_phase", {"phase": "all"}, None)
        assert reply.usage.output_tokens == 30 and reply.usage.input_tokens == 120
        history = [Message("user", "model the spin lock"), reply.message,
                   Message("tool", "syntax 1.0", tool_call_id=call.id, name="run_phase")]
        second = p.complete("system prompt", history, TOOLS)
        assert second.message.content == "Done." and not second.tool_calls
        # the tool result went back on the wire, tied to the call id
        sent = server.requests[1].body
        wire = str(sent["messages"])
        assert call.id in wire and "syntax 1.0" in wire
        assert "system prompt" in str(sent.get("system", "")) + wire
        assert bool(sent.get("stream")) == stream


def test_rate_limit_then_success(api):
    kind, stream = api
    with ScriptedServer([{"status": 429}, {"status": 429}, {"text": "ok"}]) as server:
        reply = provider_for(server, kind, stream).complete("", [Message("user", "hi")], [])
        assert reply.message.content == "ok"
        assert len(server.requests) == 3


def test_server_error_storm_exhausts_retries_cleanly():
    with ScriptedServer([{"status": 500}] * 10) as server:
        p = provider_for(server, "openai")
        with pytest.raises(ProviderError, match="gave up after 4 attempts"):
            p.complete("", [Message("user", "hi")], [])
        assert len(server.requests) == FAST_RETRY.attempts


def test_client_error_is_not_retried():
    with ScriptedServer([{"status": 400, "message": "bad request"}, {"text": "never"}]) as server:
        with pytest.raises(ProviderError, match="400"):
            provider_for(server, "anthropic").complete("", [Message("user", "hi")], [])
        assert len(server.requests) == 1


def test_timeout_is_retried():
    with ScriptedServer([{"text": "slow", "delay": 1.5}, {"text": "fast"}]) as server:
        p = provider_for(server, "openai", retry=RetryPolicy(attempts=3, initial=0.01, maximum=0.02, timeout=0.5))
        assert p.complete("", [Message("user", "hi")], []).message.content == "fast"


@pytest.mark.parametrize("stream", [False, True])
def test_malformed_arguments_are_kept_with_an_error(stream):
    script = [{"tool_calls": [{"name": "run_phase", "arguments": '{"phase": "all"'}]}]
    with ScriptedServer(script) as server:
        reply = provider_for(server, "openai", stream).complete("", [Message("user", "hi")], TOOLS)
        (call,) = reply.tool_calls
        assert call.error and "not valid JSON" in call.error and call.raw == '{"phase": "all"'


def test_openai_compatible_needs_no_key_and_sends_none_of_ours():
    with ScriptedServer([{"text": "local"}]) as server:
        p = provider_for(server, "compatible")
        assert p.provider == "openai-compatible"
        assert p.complete("", [Message("user", "hi")], []).message.content == "local"
        assert FAKE_OPENAI_KEY not in str(server.requests[0].headers)


def test_keys_are_sent_only_as_auth_headers():
    with ScriptedServer([{"text": "a"}, {"text": "b"}]) as server:
        provider_for(server, "anthropic").complete("", [Message("user", "hi")], [])
        provider_for(server, "openai").complete("", [Message("user", "hi")], [])
        a, o = server.requests
        assert FAKE_ANTHROPIC_KEY in (a.headers.get("x-api-key", ""), a.headers.get("authorization", "")[7:])
        assert o.headers.get("authorization") == f"Bearer {FAKE_OPENAI_KEY}"
        assert FAKE_ANTHROPIC_KEY not in str(a.body) and FAKE_OPENAI_KEY not in str(o.body)


def test_litellm_missing_extra_is_a_clean_error():
    try:
        import litellm  # noqa: F401
        pytest.skip("litellm installed")
    except ImportError:
        pass
    with pytest.raises(ProviderError, match="specula\\[litellm\\]"):
        make_provider("litellm/ollama/llama3", env={})


def test_importing_the_agent_does_not_import_sdks():
    code = ("import sys, specula.agent, specula.agent.providers, specula.agent.loop, specula.agent.tools\n"
            "bad = [m for m in ('anthropic', 'openai', 'litellm') if m in sys.modules]\nassert not bad, bad\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_toolcall_parse_rejects_non_objects():
    assert ToolCall.parse("1", "x", "[1, 2]").error.startswith("arguments must be a JSON object")
    assert ToolCall.parse("1", "x", "").arguments == {}


def test_litellm_provider_through_an_openai_route():
    pytest.importorskip("litellm")
    script = [{"status": 429}, {"text": "hi", "tool_calls": [{"name": "run_phase", "arguments": {"phase": "all"}}],
                                "usage": {"input": 7, "output": 3}}]
    with ScriptedServer(script) as server:
        p = make_provider(f"litellm/openai/gpt-5@{server.openai_url}", env={"OPENAI_API_KEY": FAKE_OPENAI_KEY},
                          retry=FAST_RETRY)
        reply = p.complete("sys", [Message("user", "go")], TOOLS)
        assert reply.message.content == "hi" and reply.tool_calls[0].arguments == {"phase": "all"}
        assert reply.usage.input_tokens == 7 and len(server.requests) == 2
        assert FAKE_OPENAI_KEY in p.secrets()
