"""The ``specula`` command line: flags -> one library call -> render.

Only this module maps errors to exit codes: 0 ok, 1 check failed, 2 usage or
input error. Heavy modules (SDKs, the engine) are imported inside commands so
``specula --help`` starts fast.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

from specula import __version__
from specula.errors import SpeculaError

app = typer.Typer(
    name="specula",
    help="Model real concurrent and distributed system code in TLA+, checked against what the code does.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain click help: rich's help renderer alone costs ~80 ms of start-up
)
code_app = typer.Typer(help="Read target repositories: index, repo map, symbols.", no_args_is_help=True)
bench_app = typer.Typer(help="Benchmark tasks, traces, runs and scoring.", no_args_is_help=True)
app.add_typer(code_app, name="code")
app.add_typer(bench_app, name="bench")

JsonOpt = typer.Option(False, "--json", help="Print machine-readable JSON instead of text.")


def _console(stderr: bool = False):
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def _print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=2, default=str) + "\n")


def _output_file(path: Optional[Path], flag: str) -> None:
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


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"specula {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version_callback, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """specula: TLA+ models that conform to the implementation."""


@app.command()
def doctor(json_out: bool = JsonOpt) -> None:
    """Report what this machine offers specula (grammars, Java/TLC, LLM keys, extras)."""
    from specula.doctor import diagnose

    report = diagnose()
    if json_out:
        _print_json(report.to_dict())
    else:
        from rich.table import Table

        table = Table(title=f"specula {__version__} doctor")
        table.add_column("check")
        table.add_column("status")
        table.add_column("detail")
        for c in report.checks:
            table.add_row(c.name, "[green]ok[/]" if c.ok else "[yellow]missing[/]", c.detail)
        _console().print(table)
    raise typer.Exit(0 if report.ok else 1)


# --- tla commands (check) ---


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
    no_deadlock: bool = typer.Option(False, "--no-deadlock", help="Do not report deadlocks (like TLC -deadlock)."),
    lib: Optional[List[Path]] = typer.Option(
        None, "--lib", "-I",
        help="A folder of extra modules (repeatable; like TLC's -DTLA-Library; also SPECULA_TLA_LIBRARY, ':'-separated)."),
    json_out: bool = JsonOpt,
) -> None:
    """Model-check a TLA+ spec with specula's engine (TLC semantics) and print a TLC-like report."""
    search = [*(lib or []), *(p for p in os.environ.get("SPECULA_TLA_LIBRARY", "").split(os.pathsep) if p)]
    if syntax:
        from specula.diagnostics import render_full
        from specula.tla.modules import check_syntax

        rep = check_syntax(spec, search)
        if json_out:
            _print_json(rep.to_dict())
        elif rep.ok:
            if rep.diagnostics:  # warnings only
                _console().print(render_full(rep.diagnostics, rep.sources), markup=False)
            _console().print(f"{spec}: syntax and semantics ok ({len(rep.modules)} modules)", markup=False)
        else:
            n = len(rep.diagnostics)
            _console().print(render_full(rep.diagnostics, rep.sources) + f"\n{n} error{'s' if n != 1 else ''}", markup=False)
        raise typer.Exit(0 if rep.ok else 1)
    from specula.tla import report
    from specula.tla.checker import Limits, build_model, check

    cfg_path = config or spec.with_suffix(".cfg")
    model, cfg = build_model(spec, cfg_path, [str(p) for p in search])
    deadlock = False if no_deadlock else None
    if simulate_:
        from specula.tla.simulate import simulate

        sim = simulate(model, num=num, depth=depth, seed=seed, max_seconds=max_seconds, cfg=cfg, check_deadlock=deadlock)
        if json_out:
            _print_json(report.simulation_to_json(sim, str(spec)))
        else:
            _console().print(report.render_simulation(sim, str(spec)))
        raise typer.Exit(130 if sim.stopped == "interrupted" and sim.ok else 0 if sim.ok else 1)
    err = _console(stderr=True)
    on_progress = None if json_out else (lambda p: p.elapsed >= 1.0 and err.print(report.format_progress(p), markup=False))
    limits = Limits(max_states=max_states, max_depth=max_depth, max_seconds=max_seconds, check_deadlock=deadlock, progress_every=5.0)
    res = check(model, limits, on_progress=on_progress, cfg=cfg)
    if json_out:
        _print_json(report.check_to_json(res, str(spec), str(cfg_path)))
    else:
        _console().print(report.render_check(res, str(spec), str(cfg_path)))
    if res.stopped == "interrupted" and res.verdict in ("ok", "limit"):
        raise typer.Exit(130)  # the partial report is printed, but nothing was proved
    raise typer.Exit(0 if res.verdict in ("ok", "limit") else 1)


# --- traces/validate commands ---


@app.command("validate")
def validate_cmd(
    spec: Path = typer.Argument(..., help="The spec (.tla)."),
    files: Optional[list[Path]] = typer.Argument(None, help="More window/trace files (after --windows)."),
    config: Optional[Path] = typer.Option(None, "--config", "-c", help="Model config (default: SPEC.cfg)."),
    windows: Optional[list[Path]] = typer.Option(None, "--windows", "-w", help="Window or trace files (any format in docs/traces.md)."),
    traces: Optional[Path] = typer.Option(None, "--traces", "-t", help="Directory of traces/windows (*.ndjson, *.jsonl, *.json)."),
    mapping: Optional[Path] = typer.Option(None, "--mapping", "-m", help="Mapping YAML (docs/mapping.md)."),
    actions: Optional[str] = typer.Option(None, "--actions", help="Target actions, comma-separated (cut windows for these; report those without windows)."),
    whole: bool = typer.Option(False, "--whole-trace", help="Also follow each whole trace and report the first step the spec cannot take."),
    json_out: bool = JsonOpt,
) -> None:
    """Phase 3: validate observed transition windows against the spec's actions (exit 1 if any fails)."""
    from specula.phases.conformance import validate_files

    targets = [a.strip() for a in actions.split(",") if a.strip()] if actions else None
    res = validate_files(spec, config, list(windows or []) + list(files or []), traces, mapping,
                         targets=targets, whole_trace=whole)
    if json_out:
        _print_json(res.to_dict())
    else:
        from specula.traces.render import render_conformance

        render_conformance(res, _console())
    raise typer.Exit(0 if res.ok else 1)

# --- phases/eval commands ---


def _render_scorecard(card) -> None:
    from rich.table import Table

    table = Table(title=f"scorecard: {card.task or card.spec}")
    table.add_column("phase")
    table.add_column("score", justify="right")
    table.add_column("note")
    for name in ("syntax", "runtime", "conformance", "invariants"):
        ps = card.phases.get(name)
        note = "" if ps is None else (f"skipped: {ps.skipped}" if ps.skipped else (ps.summary.splitlines()[0] if ps.summary else ""))
        table.add_row(name, f"{card.score(name):.3f}", note)
    table.add_row("[bold]overall[/]", f"[bold]{card.overall:.3f}[/]", "")
    con = _console()
    con.print(table)
    for name in ("syntax", "runtime", "conformance", "invariants"):
        ps = card.phases.get(name)
        if ps and not ps.skipped and ps.score < 1.0 and ps.summary:
            con.print(f"[bold]{name}[/]")
            con.print(ps.summary, markup=False)


@app.command("eval")
def eval_cmd(
    spec: Path = typer.Argument(..., help="The spec to score (SPEC.tla)."),
    task: str = typer.Option(..., "--task", "-t", help="Bundled task name, task folder, or SysMoBench task name."),
    config: Optional[Path] = typer.Option(None, "--config", "-c", help="Model config (default: SPEC.cfg)."),
    sysmobench: Optional[str] = typer.Option(None, "--sysmobench", help="SysMoBench checkout for its tasks: a path, or a git URL[@REV] cloned into the cache."),
    traces: Optional[list[Path]] = typer.Option(None, "--traces", help="Trace or window files (default: the task's)."),
    mapping: Optional[Path] = typer.Option(None, "--mapping", help="Mapping YAML (default: the task's)."),
    translations: Optional[Path] = typer.Option(None, "--translations", help="Invariant translations YAML."),
    phase: Optional[list[str]] = typer.Option(None, "--phase", help="Run only these phases (cascade still applies)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Base seed of the runtime coverage runs."),
    runs: int = typer.Option(20, "--runs", min=1, help="Simulation runs for runtime coverage."),
    check_seconds: float = typer.Option(60.0, "--check-seconds", help="Time limit of the runtime check."),
    invariant_seconds: float = typer.Option(60.0, "--invariant-seconds", help="Time limit per invariant."),
    html: Optional[Path] = typer.Option(None, "--html", help="Write a self-contained HTML report here."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the scorecard JSON here."),
    fail_under: Optional[float] = typer.Option(None, "--fail-under", help="Exit 1 when overall < this."),
    json_out: bool = JsonOpt,
) -> None:
    """Score SPEC on all four SysMoBench phases for TASK (no LLM needed)."""
    from specula.bench.scoring import eval_spec, task_data
    from specula.bench.tasks import load_task
    from specula.errors import InputError
    from specula.phases import RuntimeSettings

    if not spec.is_file():
        raise InputError("spec file not found", str(spec))
    if config is not None and not config.is_file():
        raise InputError("model config not found (--config)", str(config))
    bad = [p for p in phase or () if p not in ("syntax", "runtime", "conformance", "invariants")]
    if bad:
        raise InputError(f"--phase must be syntax, runtime, conformance or invariants, not {bad[0]!r}")
    _output_file(html, "--html")
    _output_file(out, "--out")
    t = load_task(task, sysmobench)
    data = task_data(t, mapping, traces or ())
    settings = RuntimeSettings(check_seconds=check_seconds, runs=runs, seed=seed)
    card = eval_spec(
        spec, t, config, data=data, translations=translations, runtime=settings,
        invariant_seconds=invariant_seconds, only=phase or (),
    )
    if out:
        out.write_text(card.to_json() + "\n", encoding="utf-8")
    if html:
        from specula.phases.html import render_html

        html.write_text(render_html(card), encoding="utf-8")
    if json_out:
        _print_json(card.to_dict())
    else:
        _render_scorecard(card)
        if html:
            _console().print(f"HTML report: {html}")
    raise typer.Exit(1 if fail_under is not None and card.overall < fail_under else 0)

# --- code commands ---
_RepoArg = typer.Argument(..., help="Repository: a directory, a git URL, or a bare repository.")
_TestsOpt = typer.Option(False, "--tests", help="Also index test code.")
_VendoredOpt = typer.Option(False, "--vendored", help="Also index vendored and generated code.")
_CommitOpt = typer.Option(None, "--commit", help="Revision to check out (git repositories).")
_IncludeOpt = typer.Option([], "--include", help="File or folder to index even if vendored/test/ignored (repeatable).")


def _code_index(repo: str, tests: bool, vendored: bool, commit: Optional[str], include: Optional[list[str]] = None):
    from specula.code import IndexOptions, index_repo

    opts = IndexOptions(include_tests=tests, include_vendored=vendored, include_generated=vendored,
                        always_include=tuple(include or ()))
    return index_repo(repo, opts, commit=commit)


def _code_out(result, json_out: bool, found: bool = True) -> None:
    if json_out:
        _print_json(result.to_dict())
    else:
        sys.stdout.write(result.render() + "\n")
    raise typer.Exit(0 if found else 1)


@code_app.command("index")
def code_index(repo: str = _RepoArg, tests: bool = _TestsOpt, vendored: bool = _VendoredOpt, include: list[str] = _IncludeOpt,
               commit: Optional[str] = _CommitOpt,
               symbols: bool = typer.Option(False, "--symbols", help="With --json: also every symbol."),
               json_out: bool = JsonOpt) -> None:
    """Index a repository (functions, types, fields, globals, calls, writes); cached by content hash."""
    index = _code_index(repo, tests, vendored, commit, include)
    summary = index.summary()
    if json_out:
        if symbols:
            summary["symbol_list"] = [s.to_dict() for s in index.symbols]
        _print_json(summary)
        raise typer.Exit(0)
    st = summary["stats"]
    con = _console()
    con.print(f"{summary['root']}: {summary['files']} files {summary['languages']} in {st['seconds']:.2f}s "
              f"({st['parsed']} parsed, {st['cached']} from cache, {st['workers']} worker(s))")
    con.print("symbols: " + ", ".join(f"{k} {v}" for k, v in summary["symbols"].items()))
    con.print(f"calls {summary['calls']}, writes {summary['writes']}; skipped {st['skipped'] or 'nothing'}")
    if summary["files_with_syntax_errors"]:
        con.print(f"{len(summary['files_with_syntax_errors'])} file(s) with syntax errors (kept what parsed): "
                  + ", ".join(summary["files_with_syntax_errors"][:8]))
    raise typer.Exit(0)


@code_app.command("map")
def code_map(repo: str = _RepoArg,
             focus: str = typer.Option("", "--focus", help="Task text to rank by."),
             budget: int = typer.Option(4000, "--budget", help="Approximate token budget."),
             name: list[str] = typer.Option([], "--name", help="Identifier to favour (repeatable)."),
             file: list[str] = typer.Option([], "--file", help="File to favour (repeatable)."),
             tests: bool = _TestsOpt, vendored: bool = _VendoredOpt, include: list[str] = _IncludeOpt, commit: Optional[str] = _CommitOpt,
             json_out: bool = JsonOpt) -> None:
    """Ranked repo map for a focus: signatures with elided bodies, fitted to a token budget."""
    from specula.code import repo_map

    if budget <= 0:
        raise typer.BadParameter("--budget must be positive", param_hint="--budget")
    _code_out(repo_map(_code_index(repo, tests, vendored, commit, include), focus, budget, names=name, files=file), json_out)


@code_app.command("show")
def code_show(repo: str = _RepoArg, symbol: str = typer.Argument(..., help="Name, Type.name or file:name."),
              max_lines: int = typer.Option(250, "--max-lines"), tests: bool = _TestsOpt,
              vendored: bool = _VendoredOpt, include: list[str] = _IncludeOpt, commit: Optional[str] = _CommitOpt, json_out: bool = JsonOpt) -> None:
    """Show a symbol's source with line numbers."""
    from specula.code import show_symbol

    _code_out(show_symbol(_code_index(repo, tests, vendored, commit, include), symbol, max_lines=max_lines), json_out)


@code_app.command("search")
def code_search(repo: str = _RepoArg, pattern: str = typer.Argument(...),
                symbol: bool = typer.Option(False, "--symbol", help="Search symbol names instead of lines."),
                literal: bool = typer.Option(False, "--literal", help="Pattern is plain text, not a regex."),
                ignore_case: bool = typer.Option(False, "-i", "--ignore-case"),
                path: str = typer.Option("", "--path", help="Only under this folder or file."),
                tests: bool = _TestsOpt, vendored: bool = _VendoredOpt, include: list[str] = _IncludeOpt, commit: Optional[str] = _CommitOpt,
                json_out: bool = JsonOpt) -> None:
    """Search code lines by regex, or symbols by name (--symbol). Exit 1 when nothing matches."""
    from specula.code import find_symbols, search_code

    ix = _code_index(repo, tests, vendored, commit, include)
    if symbol:
        res = find_symbols(ix, pattern)
        _code_out(res, json_out, bool(res.symbols))
    res = search_code(ix, pattern, regex=not literal, ignore_case=ignore_case, path=path)
    _code_out(res, json_out, bool(res.matches))


@code_app.command("symbols")
def code_symbols(repo: str = _RepoArg, file: str = typer.Argument(..., help="File path (a unique suffix works)."),
                 tests: bool = _TestsOpt, vendored: bool = _VendoredOpt, include: list[str] = _IncludeOpt, commit: Optional[str] = _CommitOpt,
                 json_out: bool = JsonOpt) -> None:
    """List a file's symbols."""
    from specula.code import file_symbols

    _code_out(file_symbols(_code_index(repo, tests, vendored, commit, include), file), json_out)


@code_app.command("callers")
def code_callers(repo: str = _RepoArg, name: str = typer.Argument(...), tests: bool = _TestsOpt,
                 vendored: bool = _VendoredOpt, include: list[str] = _IncludeOpt, commit: Optional[str] = _CommitOpt, json_out: bool = JsonOpt) -> None:
    """Who calls NAME (by name; also uses as a function value)."""
    from specula.code import callers

    res = callers(_code_index(repo, tests, vendored, commit, include), name)
    _code_out(res, json_out, bool(res.calls))


@code_app.command("callees")
def code_callees(repo: str = _RepoArg, name: str = typer.Argument(...), tests: bool = _TestsOpt,
                 vendored: bool = _VendoredOpt, include: list[str] = _IncludeOpt, commit: Optional[str] = _CommitOpt, json_out: bool = JsonOpt) -> None:
    """What function NAME calls, with where each callee is defined."""
    from specula.code import callees

    _code_out(callees(_code_index(repo, tests, vendored, commit, include), name), json_out)


@code_app.command("fields")
def code_fields(repo: str = _RepoArg, type_name: str = typer.Argument(..., metavar="TYPE"), tests: bool = _TestsOpt,
                vendored: bool = _VendoredOpt, include: list[str] = _IncludeOpt, commit: Optional[str] = _CommitOpt, json_out: bool = JsonOpt) -> None:
    """The fields of a type and where each is written."""
    from specula.code import type_fields

    _code_out(type_fields(_code_index(repo, tests, vendored, commit, include), type_name), json_out)


@code_app.command("effects")
def code_effects(repo: str = _RepoArg, function: str = typer.Argument(...),
                 depth: int = typer.Option(1, "--depth", help="Also the writes of callees this deep."),
                 tests: bool = _TestsOpt, vendored: bool = _VendoredOpt, include: list[str] = _IncludeOpt, commit: Optional[str] = _CommitOpt,
                 json_out: bool = JsonOpt) -> None:
    """What a function writes (fields, globals), with its unambiguous callees' writes."""
    from specula.code import effects

    _code_out(effects(_code_index(repo, tests, vendored, commit, include), function, depth=depth), json_out)


@code_app.command("writes")
def code_writes(repo: str = _RepoArg, name: str = typer.Argument(..., help="field, Type.field or function.local"),
                tests: bool = _TestsOpt, vendored: bool = _VendoredOpt, include: list[str] = _IncludeOpt, commit: Optional[str] = _CommitOpt,
                json_out: bool = JsonOpt) -> None:
    """Where a field or variable is assigned or mutated."""
    from specula.code import writes_to

    res = writes_to(_code_index(repo, tests, vendored, commit, include), name)
    _code_out(res, json_out, bool(res.writes))


# --- agent/model commands ---


class _ModelView:
    """Live view of a modeling run: iteration, phase scores, tokens and cost, failing causes."""

    def __init__(self, model: str) -> None:
        self.model, self.iteration, self.tokens, self.cost = model, 0, 0, 0.0
        self.scores: dict = {}
        self.skipped: dict = {}
        self.causes: list = []
        self.last_tool, self.version, self.status = "", 0, "running"

    def on_event(self, e: dict) -> None:
        kind = e.get("event")
        if kind == "message" and "iteration" in e:
            self.iteration = e["iteration"]
            u = e.get("usage", {})
            self.tokens += sum(int(v or 0) for v in u.values())
            self.cost += float(e.get("cost", 0.0))
        elif kind == "tool_call":
            self.last_tool = e.get("name", "")
        elif kind == "evaluation":
            self.scores, self.skipped = e["scores"], e.get("skipped", {})
            self.causes, self.version = e.get("causes", []), e.get("version", 0)
        elif kind == "stop":
            self.status = e.get("status", "")

    def __rich__(self):
        from rich.table import Table

        t = Table(title=f"specula model ({self.model})", show_header=False, expand=False)
        t.add_column(style="bold")
        t.add_column()
        t.add_row("iteration", f"{self.iteration}   last tool: {self.last_tool or '-'}   status: {self.status}")
        t.add_row("tokens / cost", f"{self.tokens:,} / ${self.cost:.4f}")
        for p in ("syntax", "runtime", "conformance", "invariants"):
            if p in self.scores:
                note = f" (skipped: {self.skipped[p]})" if p in self.skipped else ""
                t.add_row(p, f"{self.scores[p]:.3f}{note}   [dim]spec v{self.version}[/]")
        for c in self.causes[:6]:
            t.add_row("[red]failing[/]", str(c)[:140])
        return t


@app.command("model")
def model_cmd(
    target: Optional[str] = typer.Argument(None, help="Bundled task name, task folder/task.yaml, or a repository path."),
    model: Optional[str] = typer.Option(None, "--model", "-m", help="PROVIDER/NAME, e.g. anthropic/claude-sonnet-4-6, "
                                        "openai/gpt-5, openai-compatible/NAME@http://host:port/v1, litellm/..."),
    traces: Optional[list[Path]] = typer.Option(None, "--traces", help="Trace or window files/folders (default: the task's)."),
    mapping: Optional[Path] = typer.Option(None, "--mapping", help="Mapping YAML (default: the task's)."),
    invariants: Optional[Path] = typer.Option(None, "--invariants", help="invariants.yaml templates (default: the task's)."),
    focus: str = typer.Option("", "--focus", help="What to concentrate on (ranks the code map, goes in the prompt)."),
    guidance: Optional[Path] = typer.Option(None, "--guidance", help="A text file of extra guidance for the model."),
    budget: Optional[str] = typer.Option(None, "--budget", help="e.g. 'dollars=2,tokens=500k,iterations=40,time=30m'."),
    resume: Optional[str] = typer.Option(None, "--resume", help="Continue a stopped run (id under --runs-dir, or a path)."),
    repo: Optional[str] = typer.Option(None, "--repo", help="The system's source (folder or git URL) if not the task's."),
    module: Optional[str] = typer.Option(None, "--module", help="TLA+ module name (required for a bare repository)."),
    action: Optional[list[str]] = typer.Option(None, "--action", help="Required action names (default: the task's)."),
    runs_dir: Path = typer.Option(Path("runs"), "--runs-dir", help="Where run directories go."),
    stream: bool = typer.Option(False, "--stream", help="Stream model replies."),
    retries: int = typer.Option(6, "--retries", min=1, help="Attempts per model request (429/5xx/timeouts)."),
    quick: bool = typer.Option(False, "--quick", help="Faster, smaller runtime checks while iterating."),
    no_translate: bool = typer.Option(False, "--no-translate", help="Translate invariant templates without the model."),
    print_prompt: bool = typer.Option(False, "--print-prompt", help="Print the system and task prompts and exit."),
    sysmobench: Optional[str] = typer.Option(None, "--sysmobench", help="SysMoBench checkout for its tasks: a path, or a git URL[@REV] cloned into the cache."),
    json_out: bool = JsonOpt,
) -> None:
    """Model a system in TLA+ with an LLM agent that runs the four phases as tools and refines the spec."""
    from specula.agent.ledger import parse_budget
    from specula.agent.session import DEFAULT_BUDGET, DEFAULT_MODEL, RunOptions, resume_run, start_run
    from specula.agent.task import load_task
    from specula.errors import InputError

    if not target and not resume:
        raise InputError("give a task or repository to model, or --resume RUN")
    view = _ModelView(model or DEFAULT_MODEL)
    from specula.agent.providers import RetryPolicy

    opts = RunOptions(model=model or DEFAULT_MODEL, runs_dir=runs_dir, stream=stream,
                      retry=RetryPolicy(attempts=retries, initial=0.2 if retries <= 2 else 1.0),
                      translate_with_model=not no_translate, on_event=view.on_event)
    if quick:
        from specula.phases import RuntimeSettings

        # bounded by counts; the time limits only guard against hangs (a busy machine keeps coverage)
        opts.runtime = RuntimeSettings(check_seconds=30, runs=4, traces_per_run=20, depth=30, run_seconds=30)
        opts.invariant_seconds = 30
    if resume:
        opts.budget = parse_budget(budget) if budget else None
        agent = resume_run(resume, opts, model=model)
    else:
        opts.budget = parse_budget(budget, DEFAULT_BUDGET)
        text = guidance.read_text(encoding="utf-8") if guidance and guidance.is_file() else ""
        if guidance and not guidance.is_file():
            raise InputError("guidance file not found", str(guidance))
        task = load_task(target, module=module, actions=action, traces=[str(t) for t in traces or []],
                         mapping=str(mapping) if mapping else None,
                         invariants=str(invariants) if invariants else None, focus=focus, guidance=text,
                         sysmobench=str(sysmobench) if sysmobench else None, repo=repo)
        if print_prompt:
            from specula.agent.session import preview_prompts

            system, prompt = preview_prompts(task)
            if json_out:
                _print_json({"system": system, "task": prompt})
            else:
                sys.stdout.write(f"=== system prompt\n{system}\n=== task prompt\n{prompt}")
            raise typer.Exit(0)
        agent = start_run(task, opts)
    if json_out:
        outcome = agent.run()
        _print_json(outcome.to_dict())
    else:
        from rich.live import Live

        con = _console()
        with Live(view, console=con, refresh_per_second=4, transient=False):
            outcome = agent.run()
        con.print()
        con.print(f"run {outcome.run}: {outcome.status} — {outcome.reason}", markup=False)
        if outcome.best_version:
            con.print(f"best spec: version {outcome.best_version}, overall {outcome.best_score:.3f}; "
                      f"final/ holds it", markup=False)
        if outcome.resumable:
            con.print(f"resume with: specula model --resume {outcome.run}", markup=False)
    codes = {"converged": 0, "interrupted": 130, "provider-error": 2}
    raise typer.Exit(codes.get(outcome.status, 1))


# --- bench commands ---


@bench_app.command("traces")
def bench_traces(
    system: str = typer.Argument(..., help="Bundled system name (benchmarks/systems/<name>) or a system directory."),
    runs: int = typer.Option(5, "--runs", min=1, help="Number of traces to record."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first run (run i uses seed + i)."),
    out: Path = typer.Option(..., "--out", help="Directory the trace files are written to."),
    json_out: bool = JsonOpt,
) -> None:
    """Run a bundled system's harness and record N NDJSON event traces."""
    from specula.bench.harness import run_harness

    files = run_harness(system, runs=runs, seed=seed, out_dir=out)
    if json_out:
        _print_json({"schema": "specula.bench.traces/1", "system": system, "seed": seed, "files": [str(f) for f in files]})
    else:
        _console().print(f"recorded {len(files)} trace(s) of {system} in {out}")


@bench_app.command("list")
def bench_list(
    sysmobench: Optional[str] = typer.Option(None, "--sysmobench", help="A SysMoBench checkout: list its tasks too: a path, or a git URL[@REV]."),
    json_out: bool = JsonOpt,
) -> None:
    """List benchmark tasks: language, files, required actions, traces, what is missing."""
    from specula.bench.tasks import list_tasks

    tasks = list_tasks(sysmobench)
    if json_out:
        _print_json({"schema": "specula.bench.tasks/1", "tasks": [t.to_dict() for t in tasks]})
        return
    from rich.table import Table

    table = Table(title="benchmark tasks")
    for col in ("task", "kind", "lang", "module", "required actions", "traces", "missing"):
        table.add_column(col)
    for t in tasks:
        n = len(t.trace_files()) + len(t.window_files)
        table.add_row(t.name, t.kind, t.language, t.spec_module, ", ".join(t.target_actions), str(n), "; ".join(t.missing()))
    _console().print(table)


@bench_app.command("eval")
def bench_eval(
    spec_dir: Path = typer.Option(..., "--spec-dir", help="Folder of specs: DIR/<task>/<Module>.tla or DIR/<task>/<run>/<Module>.tla."),
    entry: str = typer.Option(..., "--entry", help="Leaderboard entry name for these specs (e.g. external/mytool)."),
    tasks: Optional[list[str]] = typer.Option(None, "--task", help="Tasks to score (default: every task with specs)."),
    sysmobench: Optional[str] = typer.Option(None, "--sysmobench", help="SysMoBench checkout for its tasks: a path, or a git URL[@REV] cloned into the cache."),
    results: Path = typer.Option(Path("bench-results/results.jsonl"), "--results", help="Results store (JSON lines)."),
    seed: int = typer.Option(0, "--seed", help="Base seed of runtime coverage runs."),
    json_out: bool = JsonOpt,
) -> None:
    """Score existing specs (another tool's output, say) without an LLM; results are resumable."""
    from specula.bench.results import ResultStore
    from specula.bench.scoring import eval_spec_dir
    from specula.bench.tasks import list_tasks, load_task
    from specula.phases import RuntimeSettings

    if not spec_dir.is_dir():
        from specula.errors import InputError

        raise InputError("spec folder not found", str(spec_dir))
    chosen = [load_task(t, sysmobench) for t in tasks] if tasks else list_tasks(sysmobench)
    from specula.bench.scoring import find_specs

    if not any(find_specs(spec_dir, t) for t in chosen):
        from specula.errors import InputError

        want = ", ".join(f"{t.name}/{t.spec_module}.tla" for t in chosen[:6])
        raise InputError(f"no specs to score here (expected DIR/<task>/<Module>.tla, e.g. {want})", str(spec_dir))
    store = ResultStore(results)
    con = _console(stderr=True)
    if not tasks:
        known = {t.name for t in chosen}
        for d in sorted(x for x in spec_dir.iterdir() if x.is_dir() and x.name not in known):
            con.print(f"{d}: warning: not a task name; skipped", markup=False)
    recs = eval_spec_dir(
        spec_dir, chosen, entry, store, RuntimeSettings(seed=seed),
        on_record=lambda r: con.print(f"{r.task} run {r.run}: overall {r.overall:.3f}"),
    )
    if json_out:
        _print_json({"schema": "specula.bench.eval/1", "records": [r.to_dict() for r in recs]})
    else:
        _console().print(f"scored {len(recs)} spec(s); results in {results}")


@bench_app.command("run")
def bench_run(
    model: str = typer.Option(..., "--model", "-m", help="Model string, e.g. anthropic/claude-sonnet-4-6."),
    tasks: Optional[list[str]] = typer.Option(None, "--task", help="Tasks to run (default: every bundled task)."),
    runs: int = typer.Option(5, "--runs", min=1, help="Runs per task (best one counts)."),
    jobs: int = typer.Option(1, "--jobs", min=1, help="Runs in parallel."),
    sysmobench: Optional[str] = typer.Option(None, "--sysmobench", help="SysMoBench checkout for its tasks: a path, or a git URL[@REV] cloned into the cache."),
    results: Path = typer.Option(Path("bench-results/results.jsonl"), "--results", help="Results store (JSON lines)."),
    runs_dir: Path = typer.Option(Path("runs"), "--runs-dir", help="Where run directories go."),
    budget: Optional[str] = typer.Option(None, "--budget", help="Per-run budget, e.g. 'tokens=2M,dollars=5,iterations=40,time=30m'."),
    entry: Optional[str] = typer.Option(None, "--entry", help="Leaderboard entry name (default specula-agent/MODEL)."),
    json_out: bool = JsonOpt,
) -> None:
    """Run the modeling agent on each task (best of N); interrupted runs resume, done runs are kept."""
    from specula.agent.ledger import parse_budget
    from specula.bench.results import ResultStore
    from specula.bench.runner import BenchPlan, run_bench
    from specula.bench.tasks import list_tasks, load_task

    chosen = [load_task(t, sysmobench) for t in tasks] if tasks else list_tasks(sysmobench)
    plan = BenchPlan(tasks=chosen, model=model, runs=runs, jobs=jobs, runs_dir=runs_dir,
                     budget=parse_budget(budget) if budget else None, entry=entry)
    con = _console(stderr=True)

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

    recs = run_bench(plan, ResultStore(results), on_event)
    if json_out:
        _print_json({"schema": "specula.bench.run/1", "records": [r.to_dict() for r in recs]})
    else:
        _console().print(f"{len(recs)} run(s) recorded in {results}; see `specula leaderboard --results {results}`")


@app.command()
def leaderboard(
    results: Path = typer.Option(Path("bench-results/results.jsonl"), "--results", help="Results store (JSON lines)."),
    suite: Optional[list[str]] = typer.Option(None, "--task", help="Tasks of the suite (default: every bundled task)."),
    sysmobench: Optional[str] = typer.Option(None, "--sysmobench", help="Use the SysMoBench checkout's tasks as the suite: a path, or a git URL[@REV]."),
    fmt: str = typer.Option("table", "--format", help="table | markdown | html"),
    best_of: int = typer.Option(5, "--best-of", min=1, help="Runs per task considered (best one counts)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the rendering here."),
    json_out: bool = JsonOpt,
) -> None:
    """Rank entries with SysMoBench's aggregation (best of N per task, mean over the whole suite)."""
    from specula.bench.leaderboard import build_leaderboard, render_html_board, render_markdown, PHASES
    from specula.bench.results import ResultStore
    from specula.bench.tasks import list_tasks
    from specula.errors import InputError

    if fmt not in ("table", "markdown", "html"):
        raise InputError(f"--format must be table, markdown or html, not {fmt!r}")
    _output_file(out, "--out")
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
        _print_json(board.to_dict())
        return
    if fmt == "markdown":
        text = render_markdown(board)
    elif fmt == "html":
        text = render_html_board(board)
    else:
        text = None
    if out and text is not None:
        out.write_text(text + "\n", encoding="utf-8")
        _console().print(f"wrote {out}")
        return
    if text is not None:
        sys.stdout.write(text + "\n")
        return
    from rich.table import Table

    table = Table(title=f"leaderboard ({len(names)} tasks; missing = 0)")
    for col in ("#", "entry", "overall", *PHASES, "runs", "cost"):
        table.add_column(col)
    for i, r in enumerate(board.rows, 1):
        table.add_row(str(i), r.entry, f"{r.overall:.3f}", *(f"{r.phases[p]:.3f}" for p in PHASES), str(r.runs),
                      "" if r.cost_usd is None else f"${r.cost_usd:.2f}")
    _console().print(table)


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
