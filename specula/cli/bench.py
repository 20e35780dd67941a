"""`specula bench ...` (tasks, traces, runs, scoring) and `specula leaderboard`."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from specula.cli.app import app, bench_app
from specula.cli.common import (JsonOpt, MaxMemoryOpt, ResultsOpt, RunsDirOpt, SysMoBenchOpt, console, memory_flag,
                                output_file, print_json, progress_printer)


class ExecutorKind(str, Enum):
    local = "local"
    ray = "ray"


ExecutorOpt = typer.Option(ExecutorKind.local, "--executor",
                           help="Where runs go: this machine's pool, or a Ray cluster (extra specula[ray]).")
AddressOpt = typer.Option(None, "--address", help="Ray cluster: auto (a `ray start` cluster here) or ray://HOST:PORT.")


def _executor(kind: "ExecutorKind", jobs: int, address: Optional[str]):
    from specula.bench.executors import make_executor

    return make_executor(kind.value, jobs=jobs, address=address)


def _progress_line(e: dict) -> str:
    return (f"[{e['executor']}] queued {e['queued']}, running {e['running']}, done {e['done']}, "
            f"failed {e['failed']}, cost ${e['cost_usd']:.4f}")


class BoardFormat(str, Enum):
    table = "table"
    markdown = "markdown"
    html = "html"

@bench_app.command("traces")
def bench_traces(
    system: str = typer.Argument(..., help="Bundled system name (benchmarks/systems/<name>), a system directory, "
                                 "or a SysMoBench task (with --sysmobench)."),
    runs: int = typer.Option(5, "--runs", min=1, help="Number of traces to record."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first run (run i uses seed + i)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Directory the trace files are written (or imported) to."),
    until_coverage: bool = typer.Option(False, "--until-coverage", help="Record rounds of --batch runs, steering "
                                        "seeds and the harness's explore options toward uncovered spec actions/branches "
                                        "and implementation branches, until coverage stops growing."),
    impl_coverage: bool = typer.Option(False, "--impl-coverage", help="Also record the implementation branches the "
                                       "runs reach (impl-coverage.json in --out; Python, C and Java harnesses)."),
    batch: int = typer.Option(3, "--batch", min=1, help="Runs per round (--until-coverage)."),
    patience: int = typer.Option(2, "--patience", min=1, help="Stop after this many rounds without new coverage."),
    max_rounds: int = typer.Option(12, "--max-rounds", min=1, help="At most this many rounds."),
    spec: Optional[Path] = typer.Option(None, "--spec", help="Spec to measure coverage on (default: the task's reference)."),
    sysmobench: Optional[str] = typer.Option(None, "--sysmobench", help="A SysMoBench checkout (path or git URL[@REV]): "
                                             "SYSTEM is one of its tasks."),
    imports: Optional[list[Path]] = typer.Option(None, "--import", help="Import traces recorded elsewhere (repeatable): "
                                                 "window files, action_windows.jsonl, event traces, TraceLink run "
                                                 "folders, or folders of them; copied into --out."),
    go: Optional[str] = typer.Option(None, "--go", help="SysMoBench etcd: the go command that builds SysMoBench's "
                                     "trace generator (default: SPECULA_GO, else `go` on PATH)."),
    raft: Optional[Path] = typer.Option(None, "--raft", help="SysMoBench etcd: an etcd-io/raft checkout (default: "
                                        "SPECULA_ETCD_RAFT, else <checkout>/data/repositories/etcd)."),
    duration: int = typer.Option(10, "--duration", min=1, help="SysMoBench etcd: seconds each generator run lasts."),
    fault_rate: float = typer.Option(0.0, "--fault-rate", min=0.0, max=1.0, help="SysMoBench etcd: the generator's "
                                     "chance, every 5-15 s, to isolate a random node for 1-3 s (SysMoBench's default "
                                     "scenario: 0)."),
    json_out: bool = JsonOpt,
) -> None:
    """Record a bundled system's traces (its harness), say what a SysMoBench task's recording needs
    (for etcd: build and run SysMoBench's generator when Go and the raft sources are here),
    or import traces recorded elsewhere (--import)."""
    from specula.errors import InputError
    from specula.tasks import SYSMOBENCH_TARGET_ACTIONS

    if imports:
        _import_traces(system, sysmobench, imports, out, json_out)
        return
    if sysmobench is not None or system in SYSMOBENCH_TARGET_ACTIONS and not _is_bundled(system):
        from specula.bench.systraces import recording_needs
        from specula.tasks import load_task

        task = load_task(system, sysmobench) if sysmobench is not None else None
        if task is not None and task.kind == "sysmobench" and task.name == "etcd":
            _etcd_traces(task, out, runs, seed, go, raft, duration, fault_rate, json_out)
            return
        if task is None or task.kind == "sysmobench":
            needs = recording_needs(task if task is not None else system)
            if json_out:
                print_json(needs.to_dict())
            else:
                sys.stderr.write(needs.render() + "\n")
            raise typer.Exit(2)
    if out is None:
        raise InputError("give --out DIR: the folder the traces are written to")
    from specula.bench.harness import run_harness

    if until_coverage:
        from specula.bench.steer import until_coverage as steer

        say = progress_printer()  # on stderr, also with --json
        res = steer(system, out, seed=seed, batch=batch, patience=patience, max_rounds=max_rounds, spec=spec,
                    on_round=lambda r: say(f"round {r.index}: +{len(r.new)} spec, +{r.new_impl} impl"))
        if json_out:
            print_json(res.to_dict())
        else:
            console().print(res.render(), markup=False)
        return
    files = run_harness(system, runs=runs, seed=seed, out_dir=out, on_progress=progress_printer(),
                        impl_coverage=impl_coverage)
    impl = None
    if impl_coverage and (out / "impl-coverage.json").is_file():
        import json

        impl = json.loads((out / "impl-coverage.json").read_text(encoding="utf-8"))
    if json_out:
        print_json({"schema": "specula.bench.traces/1", "system": system, "seed": seed, "files": [str(f) for f in files],
                    **({"impl_branches": impl.get("branches"), "impl_covered": impl.get("covered")} if impl else {})})
    else:
        console().print(f"recorded {len(files)} trace(s) of {system} in {out}"
                        + (f"; implementation branches reached: {impl.get('covered')}/{impl.get('branches')}"
                           if impl else ""))


def _etcd_traces(task, out: Optional[Path], runs: int, seed: int, go: Optional[str], raft: Optional[Path],
                 duration: int, fault_rate: float, json_out: bool) -> None:
    """SysMoBench etcd: build and run its generator when go and the raft sources are here (and
    --out is given), else say exactly what is missing (exit 2)."""
    from specula.bench.etcdgen import locate, record_traces
    from specula.bench.systraces import recording_needs

    needs = recording_needs(task)
    setup = locate(needs.generator, go=go, raft=raft)
    if not setup.ready or out is None:
        if json_out:
            print_json({**needs.to_dict(), "etcd_generator": setup.to_dict()})
        else:
            lines = [needs.render(runs_generator=True), "SysMoBench's etcd generator (built and run here by specula):"]
            lines += [f"  go:     {setup.go or 'MISSING'}", f"  raft:   {setup.raft or 'MISSING'}"]
            lines += [f"  needed: {p}" for p in setup.problems]
            if setup.ready:
                lines.append(f"  ready: give --out DIR to record: specula bench traces etcd --sysmobench "
                             f"{needs.generator.parents[3]} --out DIR [--runs N] [--duration S]")
            sys.stderr.write("\n".join(lines) + "\n")
        raise typer.Exit(2)
    rec = record_traces(setup, out, runs=runs, seed=seed, duration=duration, fault_rate=fault_rate)
    if json_out:
        print_json(rec.to_dict())
    else:
        console().print(rec.render(), markup=False)
    if not any(r.trace for r in rec.runs):
        raise typer.Exit(1)


def _is_bundled(name: str) -> bool:
    from specula.tasks import bundled_systems_dir

    return (bundled_systems_dir() / name / "task.yaml").is_file() or (Path(name) / "task.yaml").is_file()


def _import_traces(system: str, sysmobench: Optional[str], imports: list[Path], out: Optional[Path],
                   json_out: bool) -> None:
    """`bench traces TASK --import ... --out DIR`: exit 0 when something was imported, else 2."""
    from specula.bench.systraces import import_traces
    from specula.errors import InputError
    from specula.tasks import SYSMOBENCH_TARGET_ACTIONS, load_task

    if out is None:
        raise InputError("give --out DIR: the folder the imported traces are copied to")
    try:
        task = load_task(system, sysmobench)
        name, targets = task.name, task.target_actions
    except InputError:
        if system not in SYSMOBENCH_TARGET_ACTIONS:
            raise
        name, targets = system, tuple(SYSMOBENCH_TARGET_ACTIONS[system])
    report = import_traces(name, imports, out, targets)
    if json_out:
        print_json(report.to_dict())
    else:
        for line in report.problems():
            sys.stderr.write(line + "\n")
        sys.stdout.write(report.render() + "\n")
    if not report.copied:
        raise typer.Exit(2)


@bench_app.command("list")
def bench_list(
    sysmobench: Optional[str] = typer.Option(None, "--sysmobench", help="A SysMoBench checkout: list its tasks too: a path, or a git URL[@REV]."),
    json_out: bool = JsonOpt,
) -> None:
    """List benchmark tasks: language, files, required actions, traces, what is missing."""
    from specula.tasks import list_tasks

    tasks = list_tasks(sysmobench)
    if json_out:
        print_json({"schema": "specula.bench.tasks/1", "tasks": [t.summary() for t in tasks]})
        return
    from rich.table import Table

    table = Table(title="benchmark tasks")
    for col in ("task", "kind", "lang", "module", "required actions", "traces", "windows", "missing"):
        table.add_column(col, no_wrap=col not in ("required actions", "missing"), overflow="fold")
    for t in tasks:
        d = t.summary()  # the same figures as --json
        table.add_row(t.name, t.kind, t.language, t.spec_module, ", ".join(t.target_actions), str(d["traces"]),
                      str(len(d["window_files"])), "; ".join(d["missing"]))
    console().print(table)


@bench_app.command("eval")
def bench_eval(
    spec_dir: Path = typer.Option(..., "--spec-dir", help="Folder of specs: DIR/<task>/<Module>.tla or DIR/<task>/<run>/<Module>.tla."),
    entry: str = typer.Option(..., "--entry", help="Leaderboard entry name for these specs (e.g. external/mytool)."),
    tasks: Optional[list[str]] = typer.Option(None, "--task", help="Tasks to score (default: every task with specs)."),
    sysmobench: Optional[str] = SysMoBenchOpt,
    results: Path = ResultsOpt,
    seed: int = typer.Option(0, "--seed", help="Base seed of runtime coverage runs."),
    executor: ExecutorKind = ExecutorOpt,
    address: Optional[str] = AddressOpt,
    jobs: int = typer.Option(1, "--jobs", min=1, help="Specs scored in parallel (local executor)."),
    rescore: bool = typer.Option(False, "--rescore", help="Score specs again even when the results store has "
                                 "them (the new result replaces the old on the leaderboard)."),
    strict: bool = typer.Option(False, "--strict", help="A search cut by its time or memory limit is incomplete, not "
                                "a pass (SysMoBench passes it); the records say they were scored strictly."),
    max_memory: Optional[str] = MaxMemoryOpt,
    json_out: bool = JsonOpt,
) -> None:
    """Score existing specs (another tool's output, say) without an LLM; results are resumable."""
    from specula.bench.results import ResultStore
    from specula.bench.scoring import eval_spec_dir
    from specula.tasks import list_tasks, load_task
    from specula.phases import RuntimeSettings

    from specula.errors import InputError

    if not spec_dir.is_dir():
        raise InputError("spec folder not found", str(spec_dir))
    chosen = [load_task(t, sysmobench) for t in tasks] if tasks else list_tasks(sysmobench)
    from specula.bench.scoring import find_specs

    if not any(find_specs(spec_dir, t) for t in chosen):
        want = ", ".join(f"{t.name}/{t.spec_module}.tla" for t in chosen[:6])
        raise InputError(f"no specs to score here (expected DIR/<task>/<Module>.tla, e.g. {want})", str(spec_dir))
    store = ResultStore(results)
    con = console(stderr=True)
    if not tasks:
        known = {t.name for t in chosen}
        for d in sorted(x for x in spec_dir.iterdir() if x.is_dir() and x.name not in known):
            con.print(f"{d}: warning: not a task name; skipped", markup=False)
    last: list[str] = []

    def on_progress(p) -> None:
        line = _progress_line(p.to_dict())
        if line != (last[-1] if last else None):
            last.append(line)
            con.print(line, markup=False)

    kept: list[tuple[str, int]] = []
    def on_record(r) -> None:
        con.print(f"{r.task} run {r.run}: overall {r.overall:.3f}" + (" (--strict)" if r.strict else ""), markup=False)
        for note in r.not_exhaustive:  # a pass by a limit is said plainly
            con.print(f"  not exhaustive: {note}", markup=False)

    recs = eval_spec_dir(
        spec_dir.resolve(), chosen, entry, store, RuntimeSettings(seed=seed, strict=strict,
                                                                  max_memory=memory_flag(max_memory)),
        on_record=on_record,
        executor=_executor(executor, jobs, address), on_progress=on_progress,
        on_failure=lambda key, err: con.print(f"{key[1]} run {key[2]}: failed: {err}", markup=False),
        rescore=rescore, kept=kept, on_line=progress_printer(),
    )
    if kept:  # never silent: results already stored were not scored again
        shown = ", ".join(f"{t} run {r}" for t, r in kept[:6]) + (" ..." if len(kept) > 6 else "")
        con.print(f"kept {len(kept)} stored result(s) of entry {entry!r} ({shown}); "
                  "pass --rescore to score them again", markup=False)
    if json_out:
        print_json({"schema": "specula.bench.eval/1", "records": [r.to_dict() for r in recs],
                    "kept": [{"task": t, "run": r} for t, r in kept]})
    else:
        console().print(f"scored {len(recs)} spec(s), kept {len(kept)} stored; results in {results}")


@bench_app.command("run")
def bench_run(
    model: str = typer.Option(..., "--model", "-m", help="Model string, e.g. anthropic/claude-sonnet-4-6."),
    tasks: Optional[list[str]] = typer.Option(None, "--task", help="Tasks to run (default: every bundled task)."),
    runs: int = typer.Option(5, "--runs", min=1, help="Runs per task (best one counts)."),
    jobs: int = typer.Option(1, "--jobs", min=1, help="Runs in parallel."),
    sysmobench: Optional[str] = SysMoBenchOpt,
    results: Path = ResultsOpt,
    runs_dir: Path = RunsDirOpt,
    budget: Optional[str] = typer.Option(None, "--budget", help="Per-run budget, e.g. 'tokens=2M,dollars=5,iterations=40,time=30m'."),
    entry: Optional[str] = typer.Option(None, "--entry", help="Leaderboard entry name (default specula-agent/MODEL)."),
    executor: ExecutorKind = ExecutorOpt,
    address: Optional[str] = AddressOpt,
    max_memory: Optional[str] = MaxMemoryOpt,
    json_out: bool = JsonOpt,
) -> None:
    """Run the modeling agent on each task (best of N); interrupted runs resume, done runs are kept."""
    from specula.agent.ledger import parse_budget
    from specula.bench.results import ResultStore
    from specula.bench.runner import BenchPlan, run_bench
    from specula.phases import RuntimeSettings
    from specula.tasks import list_tasks, load_task

    memory = memory_flag(max_memory)
    chosen = [load_task(t, sysmobench) for t in tasks] if tasks else list_tasks(sysmobench)
    plan = BenchPlan(tasks=chosen, model=model, runs=runs, jobs=jobs, runs_dir=runs_dir.resolve(),
                     budget=parse_budget(budget) if budget else None, entry=entry,
                     runtime=RuntimeSettings(max_memory=memory) if memory is not None else None)
    con = console(stderr=True)

    def on_event(e: dict) -> None:
        kind = e.get("event")
        if kind == "bench-plan":
            con.print(f"{e['entry']}: {len(e['todo'])} run(s) to do")
        elif kind == "evaluation":
            s = e.get("scores", {})
            con.print(f"  {e['task']} r{e['run']} v{e.get('version')}: overall {e.get('overall', 0):.3f} "
                      + " ".join(f"{k[:4]} {v:.2f}" for k, v in s.items()))
        elif kind == "stop":
            con.print(f"  {e['task']} r{e['run']}: {e.get('status')} ({e.get('reason', '')})")
        elif kind == "bench-run-stopped":
            con.print(f"  {e['task']} r{e['run']}: stopped ({e['status']}); run `specula bench run` again to resume")
        elif kind == "bench-run-failed":
            con.print(f"  {e['task']} r{e['run']}: failed: {e['error']}", markup=False)
        elif kind == "bench-progress":
            con.print(_progress_line(e), markup=False)

    recs = run_bench(plan, ResultStore(results), on_event, executor=_executor(executor, jobs, address))
    if json_out:
        print_json({"schema": "specula.bench.run/1", "records": [r.to_dict() for r in recs]})
    else:
        console().print(f"{len(recs)} run(s) recorded in {results}; see `specula leaderboard --results {results}`")


@app.command()
def leaderboard(
    results: Path = ResultsOpt,
    suite: Optional[list[str]] = typer.Option(None, "--task", help="Tasks of the suite (default: every bundled task)."),
    sysmobench: Optional[str] = typer.Option(None, "--sysmobench", help="Use the SysMoBench checkout's tasks as the suite: a path, or a git URL[@REV]."),
    fmt: BoardFormat = typer.Option(BoardFormat.table, "--format", help="How to render the board."),
    best_of: int = typer.Option(5, "--best-of", min=1, help="Runs per task considered (best one counts)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the rendering here."),
    json_out: bool = JsonOpt,
) -> None:
    """Rank entries with SysMoBench's aggregation (best of N per task, mean over the whole suite)."""
    from specula.bench.leaderboard import build_leaderboard, render_html_board, render_markdown, render_table
    from specula.bench.results import ResultStore
    from specula.tasks import list_tasks
    from specula.errors import InputError

    output_file(out, "--out")
    if suite:
        names = list(suite)
    elif sysmobench:
        names = [t.name for t in list_tasks(sysmobench) if t.kind == "sysmobench"]
    else:
        names = [t.name for t in list_tasks()]
    if not results.is_file():
        raise InputError("no results file yet (score specs with `specula bench eval` or `specula bench run`)", str(results))
    store = ResultStore(results)
    board = build_leaderboard(store.records(), names, best_of)
    for bad in store.skipped:  # bad lines are skipped, never fatal: show where they are
        sys.stderr.write(f"{bad.path}:{bad.line}: warning: {bad}\n")
    if json_out:
        print_json(board.to_dict())
        return
    if fmt is BoardFormat.markdown:
        text = render_markdown(board)
    elif fmt is BoardFormat.html:
        text = render_html_board(board)
    else:
        text = None
    if out and text is not None:
        out.write_text(text + "\n", encoding="utf-8")
        console().print(f"wrote {out}")
        return
    if text is not None:
        sys.stdout.write(text + "\n")
        return
    console().print(render_table(board, len(names)))
