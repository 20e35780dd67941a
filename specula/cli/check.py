"""`specula check`: syntax checks (SANY's) and model checking (TLC's semantics) with specula's engine."""

from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional

import typer

from specula.cli.app import app
from specula.cli.common import EXIT_LIMIT, JsonOpt, MaxMemoryOpt, console, memory_flag, print_json

@app.command("check")
def check_cmd(
    spec: Path = typer.Argument(..., help="The spec to check (SPEC.tla)."),
    config: Optional[Path] = typer.Option(None, "--config", "-c", help="Model config (default: SPEC.cfg)."),
    syntax: bool = typer.Option(False, "--syntax", help="Only parse and analyse the spec (no model checking)."),
    simulate_: bool = typer.Option(False, "--simulate", help="Random simulation instead of exhaustive search."),
    num: int = typer.Option(50, "--num", min=1, help="Simulation: number of traces."),
    depth: int = typer.Option(100, "--depth", min=1, help="Simulation: maximum states per trace."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Simulation: random seed (printed when not given)."),
    max_states: Optional[int] = typer.Option(None, "--max-states", min=1, help="Stop after this many distinct states."),
    max_depth: Optional[int] = typer.Option(None, "--max-depth", min=1, help="Do not explore beyond this depth."),
    max_seconds: Optional[float] = typer.Option(None, "--max-seconds", help="Stop after this many seconds."),
    max_memory: Optional[str] = MaxMemoryOpt,
    no_deadlock: bool = typer.Option(False, "--no-deadlock", help="Do not report deadlocks (like TLC -deadlock)."),
    lib: Optional[List[Path]] = typer.Option(
        None, "--lib", "-I",
        help="A folder of extra modules (repeatable; like TLC's -DTLA-Library; also SPECULA_TLA_LIBRARY, ':'-separated)."),
    workers: Optional[str] = typer.Option(
        None, "--workers", "-w", metavar="N|auto",
        help="Worker processes of the search (default auto: all cores, as TLC's -workers auto; small models are "
             "searched in one process). Results are the same with any number; on a loaded machine one process "
             "can be faster (docs/checker.md)."),
    json_out: bool = JsonOpt,
) -> None:
    """Model-check a TLA+ spec with specula's engine (TLC semantics) and print a TLC-like report."""
    memory_text = memory_flag(max_memory)
    n_workers = _workers(workers or "auto")
    search = [*(lib or []), *(p for p in os.environ.get("SPECULA_TLA_LIBRARY", "").split(os.pathsep) if p)]
    if syntax:
        from specula.diagnostics import render_full
        from specula.tla.loading import check_syntax

        rep = check_syntax(spec, search)
        if json_out:
            print_json(rep.to_dict())
        elif rep.ok:
            if rep.diagnostics:  # warnings only
                console().print(render_full(rep.diagnostics, rep.sources), markup=False)
            console().print(f"{spec}: syntax and semantics ok ({len(rep.modules)} modules)", markup=False)
        else:
            n = len(rep.diagnostics)
            console().print(render_full(rep.diagnostics, rep.sources) + f"\n{n} error{'s' if n != 1 else ''}", markup=False)
        raise typer.Exit(0 if rep.ok else 1)
    from specula.tla import report
    from specula.tla.checker import Limits, build_model, check

    cfg_path = config or spec.with_suffix(".cfg")
    model, cfg = build_model(spec, cfg_path, [str(p) for p in search])
    from specula.tla.cfg import unknown_constants

    for name, line in unknown_constants(cfg, model.spec):  # TLC ignores these silently
        console(stderr=True).print(f"{cfg_path}{f':{line}' if line else ''}: warning: CONSTANT {name} is not declared "
                                   "in the spec (ignored, as TLC does; misspelt?)", markup=False)
    deadlock = False if no_deadlock else None
    from specula.tla.memory import memory_limit

    memory = memory_limit(memory_text)
    if simulate_:
        from specula.tla.simulate import simulate

        sim = simulate(model, num=num, depth=depth, seed=seed, max_seconds=max_seconds, cfg=cfg, check_deadlock=deadlock,
                       max_memory=memory, on_run=_simulation_progress(num))
        if json_out:
            print_json(report.simulation_to_json(sim, str(spec)))
        else:
            console().print(report.render_simulation(sim, str(spec)))
        if sim.ok and sim.stopped in ("interrupted", "max_memory"):
            raise typer.Exit(130 if sim.stopped == "interrupted" else EXIT_LIMIT)
        raise typer.Exit(0 if sim.ok else 1)
    err = console(stderr=True)
    # progress goes to stderr, with --json too (stdout holds only the JSON)
    on_progress = (lambda p: p.elapsed >= 1.0 and err.print(report.format_progress(p), markup=False))
    limits = Limits(max_states=max_states, max_depth=max_depth, max_seconds=max_seconds, max_memory=memory,
                    check_deadlock=deadlock, progress_every=5.0)
    res = check(model, limits, on_progress=on_progress, cfg=cfg, workers=n_workers)
    if res.workers_note and workers is not None:  # (only when asked for: the default is every core)
        err.print(res.workers_note, markup=False)
    if json_out:
        print_json(report.check_to_json(res, str(spec), str(cfg_path)))
    else:
        console().print(report.render_check(res, str(spec), str(cfg_path)))
    if res.stopped == "interrupted" and res.verdict in ("ok", "limit"):
        raise typer.Exit(130)  # the partial report is printed, but nothing was proved
    if res.verdict == "limit":  # no error within the limit, but not exhaustive: its own exit code
        raise typer.Exit(EXIT_LIMIT)
    raise typer.Exit(0 if res.verdict == "ok" else 1)


def _workers(text: str) -> int:
    """``--workers N|auto``: a count of processes, or every core this process may use."""
    if text.strip().lower() == "auto":
        from specula.tla.parallel import default_workers

        return default_workers()
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise typer.BadParameter(f"{text!r} is not a positive number of workers or 'auto'", param_hint="'--workers'")
    return n


def _simulation_progress(num: int):
    """``check --simulate``: a line on stderr every few seconds (runs done, states, rate), also with --json."""
    import time

    from specula.cli.common import progress_printer

    say, t0 = progress_printer(), time.monotonic()
    due = [t0 + 5.0]

    def on_run(run: int, res) -> None:
        now = time.monotonic()
        if now >= due[0]:
            due[0] = now + 5.0
            say(f"simulation: {run + 1}/{num} runs, {res.generated:,} states generated "
                f"({res.generated / max(now - t0, 1e-9):,.0f}/s), {res.steps:,} steps")

    return on_run
