"""Bundled example systems: discovery of ``benchmarks/systems/*/task.yaml`` and running harnesses.

A system's ``task.yaml`` has a ``harness`` entry::

    harness:
      build:                       # optional: argv lists run in order, in the system directory
        - ["gcc", "-O2", "-pthread", "-o", "{build}/spin", "spinlock.c", "harness.c"]
      command: ["{build}/spin"]    # run once, with `--runs N --seed S --out DIR` appended
      timeout: 120                 # optional, seconds for each build step and for the command

Placeholders in every argv element: ``{build}`` (a scratch build directory, never inside the
repository), ``{system}`` (the system directory), ``{root}`` (the repository root),
``{emitters}`` (``<root>/tools/emitters``). An argv starting with ``python`` runs with the current
interpreter. The command must write exactly the N files ``DIR/trace-000.ndjson`` …
``trace-<N-1>.ndjson`` (run i seeded with S + i), each in the NDJSON event schema of
docs/traces.md. See docs/systems.md.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

from specula.errors import ConfigError, HarnessError, InputError
from specula.tasks import Task, emitters_dir, list_tasks, load_task

__all__ = ["run_harness", "trace_file_name", "harness_systems", "resolve_task"]

IMPL_COVERAGE_FILE = "impl-coverage.json"  # = specula.coverage.IMPL_COVERAGE_FILE (kept import-free here)


def trace_file_name(index: int) -> str:
    """Name of the index-th trace file a harness writes (``trace-000.ndjson``)."""
    return f"trace-{index:03d}.ndjson"


def harness_systems(systems_dir: Path | None = None) -> dict[str, Task]:
    """The bundled tasks that have a harness, by task name (sorted)."""
    return {t.name: t for t in list_tasks(systems_dir=systems_dir) if t.harness is not None}


def resolve_task(system: str | Task, systems_dir: Path | None) -> Task:
    if isinstance(system, Task):
        return system
    try:
        return load_task(system, systems_dir=systems_dir)
    except InputError:
        known = ", ".join(sorted(harness_systems(systems_dir))) or "none"
        raise InputError(f"unknown system {system!r} (known: {known})") from None


def _build_dir(task: Task) -> Path:
    """A per-system, per-source-version scratch directory outside the repository."""
    digest = hashlib.sha256(str(task.dir.resolve()).encode()).hexdigest()[:12]
    base = Path(os.environ.get("SPECULA_BUILD_DIR") or Path(tempfile.gettempdir()) / "specula-build")
    path = base / f"{task.dir.name}-{digest}"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _expand(argv: tuple[str, ...], subs: dict[str, str]) -> list[str]:
    out = []
    for arg in argv:
        for key, value in subs.items():
            arg = arg.replace("{" + key + "}", value)
        out.append(arg)
    if out and out[0] in ("python", "python3"):
        out[0] = sys.executable
    return out


def _run(argv: list[str], cwd: Path, timeout: float, task: Task, stage: str,
         env: dict[str, str] | None = None) -> None:
    """Run one build or harness step. Waits in short slices, so a Ctrl-C (delivered to the
    command's worker thread between bytecodes) stops the step at once; the child is killed."""
    import time

    try:
        proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, **env} if env else None)
    except FileNotFoundError:
        raise HarnessError(f"{stage}: program not found: {argv[0]}", path=str(task.task_file)) from None
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                out, err = proc.communicate(timeout=min(0.5, max(deadline - time.monotonic(), 0.01)))
                break
            except subprocess.TimeoutExpired:
                if time.monotonic() >= deadline:
                    raise HarnessError(f"{stage}: timed out after {timeout:g}s: {' '.join(argv)}",
                                       path=str(task.task_file)) from None
    except BaseException:  # a timeout or Ctrl-C: the step does not outlive the command
        proc.kill()
        proc.wait()
        raise
    if proc.returncode != 0:
        tail = (err or out or "").strip().splitlines()[-8:]
        detail = "; ".join(tail) if tail else "no output"
        raise HarnessError(
            f"{stage} failed (exit {proc.returncode}): {' '.join(argv)}: {detail}", path=str(task.task_file)
        )


def _emitters(root: Path) -> Path:
    """tools/emitters beside a bundled system, else this checkout's (a system outside it)."""
    here = root / "tools" / "emitters"
    if here.is_dir():
        return here
    return emitters_dir() or here


def _check_trace(path: Path) -> None:
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                event = json.loads(line)
            except json.JSONDecodeError as exc:
                raise HarnessError(f"not JSON: {exc.msg}", path=str(path), line=lineno) from None
            if not isinstance(event, dict) or "kind" not in event:
                raise HarnessError("event without a 'kind'", path=str(path), line=lineno)
            return
    raise HarnessError("trace file has no events", path=str(path))


def run_harness(
    system: str | Task,
    runs: int,
    seed: int,
    out_dir: Path,
    systems_dir: Path | None = None,
    *,
    options: dict[str, str] | None = None,
    impl_coverage: bool = False,
    on_progress: Callable[[str], None] | None = None,
) -> list[Path]:
    """Build (if needed) and run a system's harness; return the N trace files it wrote.

    ``options`` are extra command-line options of the harness (``{"--steps": "300"}``: schedules,
    fault rates). ``impl_coverage`` writes the implementation branches the runs reached to
    ``DIR/impl-coverage.json``: a Python harness runs under ``specula.bench.pycov``; a C or Java
    harness is built for coverage in a scratch directory of its own (``specula.bench.implcov``:
    gcov, or javac on instrumented sources) and its counters read after the run.

    ``system`` is a task name, a system directory, or a loaded Task.
    """
    if runs < 1:
        raise InputError(f"--runs must be at least 1, got {runs}")
    task = resolve_task(system, systems_dir)
    if task.harness is None:
        raise ConfigError(f"system {task.name!r} has no harness entry", path=str(task.task_file), field="harness")
    out = Path(out_dir).resolve()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create the output folder: {exc.strerror or exc}", path=str(out_dir)) from None
    root = task.dir.resolve().parent.parent.parent
    subs = {
        "build": str(_build_dir(task)),
        "system": str(task.dir.resolve()),
        "root": str(root),
        "emitters": str(root / "tools" / "emitters"),
    }
    say = on_progress or (lambda line: None)
    steps = [_expand(step, subs) for step in task.harness.build]
    covbuild = None
    if impl_coverage and steps:
        from specula.bench.implcov import coverage_build

        cov_dir = _build_dir(task) / "impl-coverage"
        cov_dir.mkdir(parents=True, exist_ok=True)
        covbuild = coverage_build([_expand(step, {**subs, "build": str(cov_dir)}) for step in task.harness.build],
                                  task.dir, cov_dir, _emitters(root))
        if covbuild is not None:
            subs["build"] = str(cov_dir)
            steps = covbuild.build
    for i, step in enumerate(steps):
        say(f"{task.name}: build step {i + 1}/{len(steps)}")
        _run(step, task.dir, task.harness.timeout, task, f"build step {i + 1}")
    expected = [out / trace_file_name(i) for i in range(runs)]
    for path in expected:
        if path.exists():
            path.unlink()
    argv = _expand(task.harness.command, subs) + ["--runs", str(runs), "--seed", str(seed), "--out", str(out)]
    for key, value in (options or {}).items():
        argv += [key, str(value)]
    if impl_coverage and argv and argv[0] == sys.executable and len(argv) > 1 and argv[1].endswith(".py"):
        argv = [sys.executable, "-m", "specula.bench.pycov", "--out", str(out / IMPL_COVERAGE_FILE),
                "--root", str(task.dir.resolve()), "--", *argv[1:]]
    say(f"{task.name}: recording {runs} trace(s), seeds {seed}..{seed + runs - 1}")
    if covbuild is not None:
        covbuild.prepare()
    _run(argv, task.dir, task.harness.timeout, task, "harness", covbuild.env if covbuild else None)
    if covbuild is not None:
        report = covbuild.report()
        (out / IMPL_COVERAGE_FILE).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    missing = [p.name for p in expected if not p.is_file()]
    if missing:
        raise HarnessError(
            f"harness wrote {runs - len(missing)} of {runs} trace files (missing {', '.join(missing[:3])})",
            path=str(task.task_file),
        )
    for path in expected:
        _check_trace(path)
    return expected
