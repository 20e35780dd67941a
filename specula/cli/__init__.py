"""The ``specula`` command line: flags -> one library call -> render.

One module per command group (``check``, ``validate``, ``eval``, ``code``, ``model``, ``bench``,
``doctor``); ``app`` holds the root application. Only this package maps errors to exit codes:
0 ok, 1 check failed, 2 usage or input error, 130 interrupted. Heavy modules (SDKs, the engine)
are imported inside commands so ``specula --help`` starts fast.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Any, NoReturn, Optional

__all__ = ["app", "console", "main"]


def main(argv: Optional[list[str]] = None) -> int:
    """Console entry point: runs the command and turns specula errors into exit codes.

    The command runs on a large-stack thread (``specula.deep``) so deeply nested specs, traces
    and mappings parse; Ctrl-C and SIGTERM stop it with exit 130 (also while it is still
    importing: nothing has started, so it ends at once and quietly); a closed stdout (``| head``)
    ends it quietly; with ``--json`` an error is also printed on stdout as a JSON object.
    """
    restore = _quit_while_starting()  # first: a signal during the imports below is exit 130
    try:
        _load_commands()
        from specula.deep import call_deep

        args = list(sys.argv[1:] if argv is None else argv)
        restore = _sigterm_as_interrupt(restore)
        if next((a for a in args if not a.startswith("-")), None) in _MAIN_THREAD_COMMANDS:
            return _run(args)  # a terminal UI owns the main thread (its own signal handling)
        return call_deep(_run, args)
    except KeyboardInterrupt:  # reported by _run (or before the command started)
        return 130
    finally:
        restore()


def console() -> NoReturn:
    """The process entry point (the ``specula`` script and ``python -m specula``): ``main``,
    then exit with its code. What the command built (a model check's stored states and memos,
    millions of objects) is left to the operating system: without the ``gc.freeze()``, the
    cyclic GC's collections at interpreter exit traverse all of it (~2 s of 26 s of CPU after
    MCLamportMutex's 724,274 states). Exit handlers still run and output is still flushed.
    ``main`` itself does not freeze: tests and library callers run it in their own process."""
    code = main()
    gc.freeze()
    sys.exit(code)


_MAIN_THREAD_COMMANDS = frozenset({"session"})


def _load_commands() -> None:
    """Import the root application and every command module (registering their commands).

    Done by ``main`` after its start-up signal handler is in place, not when this package is
    imported, so the console script imports next to nothing before that handler exists.
    """
    from specula.cli.app import app as root

    # Importing a command module registers its commands on ``app`` (order = order in `--help`).
    from specula.cli import doctor, check, validate, coverage, mapping  # noqa: F401
    from specula.cli import evaluate, code, init, model, bench, session, mcp, runs  # noqa: F401

    if isinstance(globals().get("app"), type(sys)) or "app" not in globals():
        globals()["app"] = root  # the application, not its module (a test may have put its own here)


def __getattr__(name: str) -> Any:  # ``specula.cli.app``: the root application, loaded on first use
    if name == "app":
        _load_commands()
        return globals()["app"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _run(args: list[str]) -> int:
    import typer

    from specula.errors import SpeculaError

    app = globals()["app"]
    json_out = "--json" in args
    try:
        rc = app(args=args, prog_name="specula", standalone_mode=False)
        sys.stdout.flush()  # a reader that went away is noticed here, not at interpreter exit
        if rc == 130:  # also when click turned a Ctrl-C into 130 without a word
            sys.stderr.write("interrupted\n")
        if isinstance(rc, int) and rc:  # click returns typer.Exit codes when not standalone
            return rc
    except SpeculaError as exc:
        from specula.diagnostics import render_concise

        diags = exc.diagnostics()
        sys.stderr.write("".join(render_concise([d]) + (f"\n  help: {d.help}" if d.help else "") + "\n"
                                 for d in diags))
        if json_out:
            _json_error(diags[0].code if diags else exc.code(), str(exc), exc.exit_code,
                        [d.to_dict() for d in diags])
        return exc.exit_code
    except typer.Exit as exc:
        if exc.exit_code == 0:
            try:
                sys.stdout.flush()
            except BrokenPipeError:
                return _quiet_broken_pipe()
        return exc.exit_code
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    except BrokenPipeError:
        return _quiet_broken_pipe()
    except SystemExit as exc:
        if type(sys.stdout).__name__ == "PacifyFlushWrapper":  # click's own handling of a closed stdout
            return _quiet_broken_pipe()
        raise
    except Exception as exc:  # click's usage errors and aborts (typer vendors click)
        kind = type(exc).__name__
        if hasattr(exc, "show") and hasattr(exc, "exit_code"):
            exc.show()
            if json_out:
                _json_error("usage", exc.format_message() if hasattr(exc, "format_message") else str(exc), 2)
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
        if json_out:
            _json_error("internal", f"{type(exc).__name__}: {exc}", 2)
        return 2
    return 0


def _json_error(code: str, message: str, exit_code: int, diagnostics: list[dict] | None = None) -> None:
    """The error as one JSON object on stdout (``--json``): code, message, location, diagnostics."""
    import json

    first = (diagnostics or [{}])[0]
    location = {k: first[k] for k in ("file", "line", "col") if first.get(k) is not None} or None
    body = {"schema": "specula.error/1", "ok": False,
            "error": {"code": code, "message": first.get("message", message), "location": location},
            "exit_code": exit_code}
    if diagnostics:
        body["diagnostics"] = diagnostics
    try:
        sys.stdout.write(json.dumps(body, indent=2, default=str) + "\n")
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):
        pass


def _quiet_broken_pipe() -> int:
    """stdout was closed by the reader (``specula ... | head``): stop without a traceback."""
    try:  # further writes (and the interpreter's final flush) go nowhere
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 0


def _quit_while_starting():
    """Until the command runs, Ctrl-C and SIGTERM end the process at once with exit 130 and one
    line (no traceback from the middle of an import); returns the undo. Signals a parent set
    to be ignored stay ignored."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def quit_now(signum, frame):  # noqa: ARG001
        try:
            os.write(2, b"interrupted\n")
        finally:
            os._exit(130)

    old: dict[int, Any] = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            if signal.getsignal(sig) is not signal.SIG_IGN:
                old[sig] = signal.signal(sig, quit_now)
        except (ValueError, OSError):
            pass

    def undo() -> None:
        for sig, handler in old.items():
            signal.signal(sig, handler)

    return undo


def _sigterm_as_interrupt(starting):
    """While the command runs, Ctrl-C is ``KeyboardInterrupt`` (Python's own handler) and SIGTERM
    behaves the same; ``starting`` is the undo of ``_quit_while_starting``. Returns the undo."""
    import signal
    import threading

    starting()  # SIGINT (and SIGTERM) back to what they were
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(signum, frame):  # noqa: ARG001
        raise KeyboardInterrupt

    try:
        if signal.getsignal(signal.SIGTERM) is signal.SIG_IGN:
            return lambda: None
        old = signal.signal(signal.SIGTERM, handler)
    except (ValueError, OSError):
        return lambda: None
    return lambda: signal.signal(signal.SIGTERM, old)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
