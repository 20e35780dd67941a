"""What every command module shares: the JSON flag, consoles, output files.

Kept import-light (typer only): ``specula --help`` imports every command module.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

# exit codes: 0 ok, 1 a check failed, 2 usage or input error, 3 stopped by a limit (no error found
# within it, not exhaustive), 130 interrupted (docs/reliability.md)
EXIT_LIMIT = 3

JsonOpt = typer.Option(False, "--json", help="Print machine-readable JSON instead of text.")
SysMoBenchOpt = typer.Option(
    None, "--sysmobench", help="SysMoBench checkout for its tasks: a path, or a git URL[@REV] cloned into the cache.")
ResultsOpt = typer.Option(Path("bench-results/results.jsonl"), "--results", help="Results store (JSON lines).")
RunsDirOpt = typer.Option(Path("runs"), "--runs-dir", help="Where run directories go.")
# every command that runs a search takes it; the text goes to the library (specula.tla.memory.memory_limit)
MaxMemoryOpt = typer.Option(
    None, "--max-memory", metavar="SIZE",
    help="Stop a search when specula's resident memory reaches SIZE (4G, 512M, 75% of the machine; 0 = no "
         "limit; default 60% of the machine): it ends with its figures so far, exit 3.")


def memory_flag(text: Optional[str]) -> Optional[str]:
    """``--max-memory`` checked before any work (a bad size is a usage error naming the flag);
    returns the text for the library (``None``: the default)."""
    if text is not None:
        from specula.errors import InputError
        from specula.tla.memory import parse_memory

        try:
            parse_memory(text)
        except ValueError as exc:
            raise InputError(str(exc), "--max-memory") from None
    return text


def console(stderr: bool = False):
    # lazy: rich's console costs start-up time of `--help`
    return _console_class()(stderr=stderr, highlight=False, soft_wrap=True)


def print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=2, default=str) + "\n")


def output_file(path: Optional[Path], flag: str) -> None:
    """Make sure an output file can be written (creating its folder) before any work is done."""
    if path is None:
        return
    from specula.errors import InputError

    if path.is_dir():
        raise InputError(f"{flag} names a folder; give a file name", str(path))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{flag}: cannot create the folder: {exc.strerror or exc}", str(path)) from None


def quick_runtime() -> tuple[object, float]:
    """``--quick``: (runtime settings, invariant seconds) for faster, smaller checks while iterating;
    bounded by counts, the time limits only guard against hangs (a busy machine keeps coverage)."""
    from specula.phases import RuntimeSettings

    return RuntimeSettings(check_seconds=30, runs=4, traces_per_run=20, depth=30, run_seconds=30), 30.0


def session_runtime(quick: bool, max_memory: Optional[str]) -> tuple[object, float]:
    """(runtime settings, invariant seconds) of a session's phases: ``--quick``'s or the defaults,
    with ``--max-memory`` checked and applied to every search."""
    import dataclasses

    from specula.phases import RuntimeSettings

    settings, seconds = quick_runtime() if quick else (RuntimeSettings(), 60.0)
    return dataclasses.replace(settings, max_memory=memory_flag(max_memory)), seconds


def _console_class():
    from rich.console import Console

    class QuietPipeConsole(Console):
        """rich exits 1 when the reader of stdout went away; specula ends quietly (see ``main``)."""

        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

    return QuietPipeConsole


def progress_printer():
    """Progress lines on stderr (also with --json: stdout holds only the result), time-stamped."""
    import time

    err = console(stderr=True)
    t0 = time.monotonic()
    return lambda line: err.print(f"[{time.monotonic() - t0:6.0f}s] {line}", markup=False, highlight=False)
