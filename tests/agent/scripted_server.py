"""A scripted LLM server on 127.0.0.1 speaking the OpenAI chat-completions and Anthropic
messages HTTP APIs (tool calls; streaming and not), for driving the real SDK clients in tests.

A script is a list of steps, consumed one per request:
- ``{"status": 429}`` / ``{"status": 500, "message": "..."}``: an error response;
- ``{"text": "...", "tool_calls": [{"name": N, "arguments": {...} | "raw text"}], "usage": {"input": i, "output": o}}``;
- a callable ``f(request_body) -> step`` (to reply from what the client sent).
``router(body) -> queue name`` sends some requests to other queues (``queues={"translate": [...]}``).
Every request (path, headers, JSON body) is recorded in ``server.requests``.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

Step = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]]


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class _QuietServer(ThreadingHTTPServer):
    """A client that hangs up (a retrying SDK, a finished test) is not an error worth a traceback
    on stderr, where it would land in whichever test is capturing output at that moment."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


class ScriptedServer:
    def __init__(self, script: list[Step], queues: dict[str, list[Step]] | None = None,
                 router: Callable[[dict[str, Any]], str] | None = None) -> None:
        self.queues: dict[str, list[Step]] = {"main": list(script), **{k: list(v) for k, v in (queues or {}).items()}}
        self.router = router
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._ids = 0
        self._httpd = _QuietServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    # -- lifecycle
    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    @property
    def openai_url(self) -> str:
        return self.url + "/v1"

    def __enter__(self) -> "ScriptedServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def remaining(self, queue: str = "main") -> int:
        return len(self.queues[queue])

    # -- scripting
    def _next(self, body: dict[str, Any]) -> dict[str, Any] | None:
        with self._lock:
            name = self.router(body) if self.router else "main"
            queue = self.queues.get(name, [])
            if not queue:
                return None
            step = queue.pop(0)
        return step(body) if callable(step) else step

    def _new_id(self, prefix: str) -> str:
        with self._lock:
            self._ids += 1
            return f"{prefix}{self._ids:04d}"

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append(Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                anthropic = self.path.rstrip("/").endswith("/messages")
                step = server._next(body)
                if step is None:
                    return self._error(400, "script exhausted", anthropic)
                if "status" in step:
                    return self._error(int(step["status"]), step.get("message", "scripted error"), anthropic,
                                       step.get("headers"))
                if step.get("delay"):
                    time.sleep(float(step["delay"]))
                if anthropic:
                    server._anthropic(self, body, step)
                else:
                    server._openai(self, body, step)

            def _error(self, status: int, message: str, anthropic: bool, headers: dict | None = None) -> None:
                kind = {429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"}.get(status, "invalid_request_error")
                payload = ({"type": "error", "error": {"type": kind, "message": message}} if anthropic
                           else {"error": {"message": message, "type": kind, "code": None}})
                self._send(status, payload, headers)

            def _send(self, status: int, payload: dict, headers: dict | None = None) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def sse(self, events: list[tuple[str | None, dict | str]]) -> None:
                chunks = []
                for name, data in events:
                    text = data if isinstance(data, str) else json.dumps(data)
                    chunks.append((f"event: {name}\n" if name else "") + f"data: {text}\n\n")
                raw = "".join(chunks).encode()
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("content-length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        return Handler

    # -- wire formats
    @staticmethod
    def _calls(step: dict[str, Any]) -> list[tuple[str | None, str, Any]]:
        return [(c.get("id"), c["name"], c.get("arguments", {})) for c in step.get("tool_calls", [])]

    def _openai(self, h: Any, body: dict[str, Any], step: dict[str, Any]) -> None:
        usage = step.get("usage", {})
        u = {"prompt_tokens": usage.get("input", 10), "completion_tokens": usage.get("output", 5)}
        u["total_tokens"] = u["prompt_tokens"] + u["completion_tokens"]
        calls = [(cid or self._new_id("call_"), name,
                  args if isinstance(args, str) else json.dumps(args)) for cid, name, args in self._calls(step)]
        finish = "tool_calls" if calls else "stop"
        rid, model, created = self._new_id("chatcmpl-"), body.get("model", "scripted"), int(time.time())
        if not body.get("stream"):
            message: dict[str, Any] = {"role": "assistant", "content": step.get("text") or None}
            if calls:
                message["tool_calls"] = [{"id": cid, "type": "function", "function": {"name": n, "arguments": a}}
                                         for cid, n, a in calls]
            h._send(200, {"id": rid, "object": "chat.completion", "created": created, "model": model,
                          "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
                          "usage": u})
            return

        def chunk(delta: dict, finish_reason: str | None = None) -> tuple[None, dict]:
            return (None, {"id": rid, "object": "chat.completion.chunk", "created": created, "model": model,
                           "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]})

        events = [chunk({"role": "assistant", "content": ""})]
        text = step.get("text") or ""
        for i in range(0, len(text), 16):
            events.append(chunk({"content": text[i:i + 16]}))
        for idx, (cid, name, args) in enumerate(calls):
            events.append(chunk({"tool_calls": [{"index": idx, "id": cid, "type": "function",
                                                 "function": {"name": name, "arguments": ""}}]}))
            for i in range(0, len(args), 20):
                events.append(chunk({"tool_calls": [{"index": idx, "function": {"arguments": args[i:i + 20]}}]}))
        events.append(chunk({}, finish))
        events.append((None, {"id": rid, "object": "chat.completion.chunk", "created": created, "model": model,
                              "choices": [], "usage": u}))
        events.append((None, "[DONE]"))
        h.sse(events)

    def _anthropic(self, h: Any, body: dict[str, Any], step: dict[str, Any]) -> None:
        usage = step.get("usage", {})
        u = {"input_tokens": usage.get("input", 10), "output_tokens": usage.get("output", 5)}
        blocks: list[dict[str, Any]] = []
        if step.get("text"):
            blocks.append({"type": "text", "text": step["text"]})
        for cid, name, args in self._calls(step):
            blocks.append({"type": "tool_use", "id": cid or self._new_id("toolu_"), "name": name,
                           "input": args if not isinstance(args, str) else json.loads(args)})
        stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
        mid, model = self._new_id("msg_"), body.get("model", "scripted")
        if not body.get("stream"):
            h._send(200, {"id": mid, "type": "message", "role": "assistant", "model": model, "content": blocks,
                          "stop_reason": stop, "stop_sequence": None, "usage": u})
            return
        events: list[tuple[str | None, dict | str]] = [("message_start", {"type": "message_start", "message": {
            "id": mid, "type": "message", "role": "assistant", "model": model, "content": [], "stop_reason": None,
            "stop_sequence": None, "usage": {"input_tokens": u["input_tokens"], "output_tokens": 1}}})]
        for i, b in enumerate(blocks):
            if b["type"] == "text":
                events.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                       "content_block": {"type": "text", "text": ""}}))
                for j in range(0, len(b["text"]), 16):
                    events.append(("content_block_delta", {"type": "content_block_delta", "index": i,
                                                           "delta": {"type": "text_delta", "text": b["text"][j:j + 16]}}))
            else:
                events.append(("content_block_start", {"type": "content_block_start", "index": i, "content_block": {
                    "type": "tool_use", "id": b["id"], "name": b["name"], "input": {}}}))
                raw = json.dumps(b["input"])
                for j in range(0, len(raw), 20):
                    events.append(("content_block_delta", {"type": "content_block_delta", "index": i,
                                                           "delta": {"type": "input_json_delta", "partial_json": raw[j:j + 20]}}))
            events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
        events.append(("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                         "usage": {"output_tokens": u["output_tokens"]}}))
        events.append(("message_stop", {"type": "message_stop"}))
        h.sse(events)
