"""``specula mcp``: the modeling agent's tools served over MCP (the official SDK's low-level
server), over one workspace — a task, or a repository plus a spec.

The tools are the ones the built-in agent gets, enumerated from the toolbox's registry (same
names, arguments and compact text), plus ``check_spec`` and ``validate_traces``
(``WorkspaceToolbox``). Each call runs through ``Agent.perform`` exactly as a call of the built-in
loop runs, so file access is confined the same way, hidden paths stay hidden, and the run
directory gets the same transcript, spec versions and scorecards. When the client goes away the
run is finalized (final/, summary) and, with a results store, recorded as a leaderboard entry.
"""

from __future__ import annotations

import re
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from specula.agent.loop import Agent
from specula.agent.messages import ToolCall

__all__ = ["Workspace", "build_server", "serve_stdio", "serve_http", "OUTPUT_SCHEMA"]

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "tool": {"type": "string"},
        "text": {"type": "string", "description": "the compact text the built-in agent gets"},
        "is_error": {"type": "boolean"},
        "spec_version": {"type": "integer"},
        "scorecard": {"type": ["integer", "null"]},
        "scores": {"type": ["object", "null"], "description": "phase scores of the latest scorecard"},
        "overall": {"type": ["number", "null"]},
        "converged": {"type": "boolean"},
        "run": {"type": "string", "description": "the run directory"},
    },
    "required": ["tool", "text", "is_error", "spec_version", "converged", "run"],
}


@dataclass
class Workspace:
    """One agent run without a model, driven by MCP calls; calls are serialized."""

    agent: Agent
    entry: str = "mcp/external"
    results: Path | None = None  # results store to record the run in when it ends
    log: Callable[[str], None] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _calls: int = 0
    closed: bool = False

    @property
    def tools(self) -> list[Any]:
        return list(self.agent.toolbox.registry)

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Run one tool call; the structured result (``text`` is what the built-in agent would see)."""
        with self._lock:
            self._calls += 1
            call = ToolCall(f"mcp-{len(self.agent.messages) + 1:04d}", name, dict(arguments or {}))
            text, is_error = self.agent.perform(call, "mcp")
            s = self.agent.session
            last = s.last
            out: dict[str, Any] = {"tool": name, "text": text, "is_error": is_error, "spec_version": s.version,
                                   "scorecard": s.evaluations or None, "scores": None, "overall": None,
                                   "converged": bool(s.converged), "run": str(s.run.path)}
            if last is not None:
                out["scores"] = {p: last.score(p) for p in last.ran}
                out["overall"] = last.overall if len(last.ran) == 4 else None
            if self.log is not None:
                self.log(f"{name}: {_first_line(text)}")
            return out

    def close(self, reason: str = "the MCP client disconnected") -> None:
        """Finalize the run (final/, summary) and record it in the results store."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
            a = self.agent
            a.leave(reason, "mcp")
            if self.results is not None and self._calls:
                record(a, self.entry, self.results, "finished" if a.status == "interrupted" else a.status, reason)


def record(agent: Agent, entry: str, results: Path, status: str, reason: str) -> Any:
    """Append the run's record (best scorecard) to a results store under the next free run number."""
    from specula.bench.results import ResultStore
    from specula.bench.runner import record_of_run

    store = ResultStore(results)
    task = agent.session.task
    n = 1 + max((r.run for r in store.records() if r.entry == entry and r.task == task.name), default=0)
    rec = record_of_run(entry, task, n, agent.session.run.path, None, agent.budget.to_dict(), None, None, status,
                        reason, agent.toolbox.scoring.scorer)
    store.append(rec)
    return rec


def _first_line(text: str) -> str:
    return next((x for x in text.splitlines() if x.strip()), "")[:160]


def build_server(ws: Workspace, instructions: str = "") -> Any:
    """The MCP server over a workspace: tools/list from the registry, tools/call through the agent."""
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server

    from specula import __version__

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=[
            types.Tool(name=t.name, description=t.description, input_schema=t.parameters,
                       output_schema=OUTPUT_SCHEMA) for t in ws.tools])

    async def call_tool(ctx: Any, params: Any) -> Any:
        name, args = params.name, dict(params.arguments or {})
        if name not in {t.name for t in ws.tools}:
            text = f"error: unknown tool {name!r}; tools: {', '.join(t.name for t in ws.tools)}"
            return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)
        out = await anyio.to_thread.run_sync(ws.call, name, args)
        return types.CallToolResult(content=[types.TextContent(type="text", text=out["text"])],
                                    structured_content=out, is_error=out["is_error"])

    return Server("specula", version=__version__, instructions=instructions or None,
                  on_list_tools=list_tools, on_call_tool=call_tool)


def _interrupt_on_sigterm() -> None:
    """A client (or uvicorn, which re-raises the signal it caught) ending the server with SIGTERM
    still lets the run be finalized: the signal becomes a KeyboardInterrupt."""
    import signal

    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, handler)


def serve_stdio(ws: Workspace, instructions: str = "") -> None:
    """Serve on stdin/stdout until the client closes them; then finalize the run."""
    import anyio
    from mcp.server.stdio import stdio_server

    server = build_server(ws, instructions)
    _interrupt_on_sigterm()

    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        ws.close()


def parse_hostport(text: str) -> tuple[str, int]:
    from specula.errors import InputError

    m = re.fullmatch(r"(?:\[?([^\]]*)\]?:)?(\d{1,5})", text.strip())
    if not m or not 0 < int(m.group(2)) < 65536:
        raise InputError(f"--http wants HOST:PORT or PORT, not {text!r}")
    return (m.group(1) or "127.0.0.1"), int(m.group(2))


def serve_http(ws: Workspace, host: str, port: int, instructions: str = "") -> None:
    """Serve streamable HTTP at http://HOST:PORT/mcp until interrupted; then finalize the run."""
    import uvicorn

    server = build_server(ws, instructions)
    app = server.streamable_http_app(host=host)
    if ws.log is not None:
        ws.log(f"serving MCP at http://{host}:{port}/mcp (run {ws.agent.session.run.path})")
        if host not in ("127.0.0.1", "localhost", "::1"):
            ws.log(f"warning: {host} is not loopback: whoever reaches this port can read the task's code "
                   "and run the tools (no authentication)")
    _interrupt_on_sigterm()
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning")
    finally:
        ws.close("the server was stopped")


def stderr_log(line: str) -> None:
    sys.stderr.write(f"specula mcp: {line}\n")
    sys.stderr.flush()


def open_workspace(task: Any = None, *, resume: str | Path | None = None, runs_dir: Path = Path("runs"),
                   spec: Path | None = None, cfg: Path | None = None, entry: str = "mcp/external",
                   results: Path | None = None, runtime: Any = None, invariant_seconds: float = 60.0,
                   log: Callable[[str], None] | None = None) -> tuple[Workspace, str]:
    """A workspace over a task (a new run directory) or an earlier run (``resume``), and the
    instructions for the client (the task prompt the built-in agent starts from). ``spec`` (and
    ``cfg``, default SPEC.cfg) becomes the first spec version, through write_spec and its checks."""
    from specula.agent.session import RunOptions, resume_run, start_run
    from specula.agent.workspace import WorkspaceToolbox
    from specula.errors import InputError

    from specula.bench.scoring import TaskScorer
    from specula.phases import RuntimeSettings

    def scorer_for(t: Any) -> Any:
        return TaskScorer(t, runtime or RuntimeSettings(), invariant_seconds)

    opts = RunOptions(model=None, runs_dir=runs_dir, face="mcp", toolbox=WorkspaceToolbox)
    agent = resume_run(resume, opts, scorer_for, manual=True) if resume else start_run(task, opts, scorer_for(task))
    ws = Workspace(agent, entry=entry, results=results, log=log)
    if spec is not None:
        cfg = cfg or spec.with_suffix(".cfg")
        for p in (spec, cfg):
            if not p.is_file():
                raise InputError("file not found", str(p))
        text, is_error = agent.perform(ToolCall("user-spec", "write_spec", {
            "tla": spec.read_text(encoding="utf-8"), "cfg": cfg.read_text(encoding="utf-8")}), "user")
        if is_error:
            raise InputError(f"the spec was not accepted: {text}", str(spec))
    first = next((m.content for m in agent.messages if m.role == "user"), "")
    instructions = ("specula: model this system in TLA+ with the tools below. Write the spec with write_spec, "
                    "score it with run_phase, read failing windows with show_window and fix them with "
                    "edit_definition until every phase passes.\n\n" + first)
    return ws, instructions
