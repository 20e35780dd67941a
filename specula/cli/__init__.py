"""The ``specula`` command line: flags -> one library call -> render.

One module per command group (``check``, ``validate``, ``eval``, ``code``, ``model``, ``bench``,
``doctor``); ``app`` holds the root application. Only this package maps errors to exit codes:
0 ok, 1 check failed, 2 usage or input error, 130 interrupted. Heavy modules (SDKs, the engine)
are imported inside commands so ``specula --help`` starts fast.
"""

from __future__ import annotations

import os
import sys
from typing import Optional

import typer

from specula.errors import SpeculaError
from specula.cli.app import app

# Importing a command module registers its commands on ``app`` (order = order in `--help`).
from specula.cli import doctor as _doctor  # noqa: E402,F401
from specula.cli import check as _check  # noqa: E402,F401
from specula.cli import validate as _validate  # noqa: E402,F401
from specula.cli import coverage as _coverage  # noqa: E402,F401
from specula.cli import mapping as _mapping  # noqa: E402,F401
from specula.cli import evaluate as _evaluate  # noqa: E402,F401
from specula.cli import code as _code  # noqa: E402,F401
from specula.cli import init as _init  # noqa: E402,F401
from specula.cli import model as _model  # noqa: E402,F401
from specula.cli import bench as _bench  # noqa: E402,F401
from specula.cli import session as _session  # noqa: E402,F401
from specula.cli import mcp as _mcp  # noqa: E402,F401
from specula.cli import runs as _runs  # noqa: E402,F401

__all__ = ["app", "main"]


def main(argv: Optional[list[str]] = None) -> int:
    """Console entry point: runs the app and turns specula errors into exit codes."""
    try:
        rc = app(args=argv, prog_name="specula", standalone_mode=False)
        if isinstance(rc, int) and rc:  # click returns typer.Exit codes when not standalone
            return rc
    except SpeculaError as exc:
        from specula.diagnostics import render_concise

        sys.stderr.write("".join(render_concise([d]) + (f"\n  help: {d.help}" if d.help else "") + "\n"
                                 for d in exc.diagnostics()))
        return exc.exit_code
    except typer.Exit as exc:
        return exc.exit_code
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    except Exception as exc:  # click's usage errors and aborts (typer vendors click)
        kind = type(exc).__name__
        if hasattr(exc, "show") and hasattr(exc, "exit_code"):
            exc.show()
            return 2
        if kind == "Abort":
            sys.stderr.write("aborted\n")
            return 130
        if os.environ.get("SPECULA_DEBUG"):
            raise
        sys.stderr.write(
            f"specula: internal error: {type(exc).__name__}: {exc}\n"
            "  (this is a bug in specula; rerun with SPECULA_DEBUG=1 for the traceback)\n"
        )
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
