"""mcp room: ``specula mcp`` — the modeling agent's tools served over the Model Context Protocol
(official ``mcp`` SDK; stdio, or streamable HTTP) for external agents (Claude Code, Codex, Cursor).

Typical use::

    from specula.mcp import open_workspace, serve_stdio
    ws, instructions = open_workspace(load_task("spinlock"))
    serve_stdio(ws, instructions)
"""

from specula.mcp.server import (
    OUTPUT_SCHEMA,
    Workspace,
    build_server,
    open_workspace,
    parse_hostport,
    record,
    serve_http,
    serve_stdio,
)

__all__ = ["Workspace", "open_workspace", "build_server", "serve_stdio", "serve_http", "parse_hostport", "record",
           "OUTPUT_SCHEMA"]
