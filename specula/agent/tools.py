"""The tools the modeling agent calls (docs/agent-tools.md): each is one ``@tool`` method of
``Toolbox`` whose JSON schema is derived from its signature and docstring (``specula.agent.declare``).
``TOOLS`` is the public registry every front end (the loop, the MCP server, the TUI) enumerates;
``Toolbox.invoke(name, arguments)`` runs one.

Results are compact text sized for a context window (``MAX_RESULT`` characters): grouped causes
and excerpts, never raw dumps. A handler raises ``ToolError`` for a bad request (the message goes
back to the model as an error result and the loop continues) and ``Finish`` to end the run.
Guard rails live here: file access is confined to the target repository and the run directory
(hidden paths such as the reference spec excluded); a spec may not drop or rename a required
action, take it out of ``Next``, or redefine a checked invariant.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal

from specula.agent import specedit
from specula.agent.declare import Tool, ToolError, collect, tool
from specula.agent.evaluate import PHASES, Evaluation, Scoring, phase_names
from specula.agent.messages import ToolCall, ToolSpec
from specula.agent.rundir import RunDir
from specula.tasks import Task
from specula.code.workspace import Workspace
from specula.errors import CodeError, SpeculaError

__all__ = ["ToolError", "Finish", "Session", "Toolbox", "Tool", "TOOLS", "TOOL_SPECS", "tool_named", "MAX_RESULT"]

MAX_RESULT = 6000
_SOURCE_EXT = {".go", ".rs", ".c", ".h", ".cc", ".cpp", ".hpp", ".java", ".py", ".js", ".ts", ".tla", ".cfg",
               ".md", ".txt", ".yaml", ".yml", ".toml", ".json", ".ndjson", ".jsonl"}
_SKIP_DIRS = {".git", "node_modules", "target", "build", "__pycache__", ".venv", "vendor", "runs"}


class Finish(Exception):
    """The model called ``finish``."""

    def __init__(self, summary: str) -> None:
        super().__init__(summary)
        self.summary = summary


@dataclass
class Session:
    """Mutable state of one run, shared by the tools and the loop; saved in state.json."""

    task: Task
    run: RunDir
    tla: str = ""
    cfg: str = ""
    version: int = 0
    evaluations: int = 0
    best_score: float = -1.0
    best_version: int | None = None
    best_eval: int | None = None
    converged: bool = False
    last: Evaluation | None = field(default=None, repr=False)
    translated: list[dict[str, Any]] | None = None
    translated_for: str | None = None

    def to_state(self) -> dict[str, Any]:
        return {"version": self.version, "evaluations": self.evaluations, "best_score": self.best_score,
                "best_version": self.best_version, "best_eval": self.best_eval, "converged": self.converged,
                "translated": self.translated, "translated_for": self.translated_for}

    def restore(self, state: dict[str, Any]) -> None:
        for k in ("version", "evaluations", "best_score", "best_version", "best_eval", "converged",
                  "translated", "translated_for"):
            if k in state:
                setattr(self, k, state[k])
        if self.version:
            d = self.run.spec_dir(self.version)
            self.tla = (d / f"{self.task.spec_module}.tla").read_text(encoding="utf-8")
            self.cfg = (d / f"{self.task.spec_module}.cfg").read_text(encoding="utf-8")
        card = self.run.path / f"scorecard-{self.evaluations}.json"
        if self.evaluations and card.is_file():  # the last evaluation, for show_window / show_counterexample
            self.last = Evaluation.from_dict(self.run.read_json(card.name))

    def spec_paths(self) -> tuple[Path, Path]:
        d = self.run.spec_dir(self.version)
        return d / f"{self.task.spec_module}.tla", d / f"{self.task.spec_module}.cfg"


def clip(text: str, limit: int = MAX_RESULT) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - 60].rstrip() + f"\n... ({len(text) - limit + 60} more characters cut)"


class Toolbox:
    """Dispatches tool calls for one session."""

    def __init__(self, session: Session, scoring: Scoring,
                 on_evaluation: Callable[[Evaluation], None] | None = None) -> None:
        self.s = session
        self.scoring = scoring
        self._on_evaluation = on_evaluation
        self._index: Any = None

    registry: tuple[Tool, ...] = ()  # TOOLS; a subclass that declares more tools has its own

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.registry = collect(cls)

    @property
    def specs(self) -> list[ToolSpec]:
        return [t.spec for t in self.registry]

    def _tool(self, name: str) -> Tool | None:
        return next((t for t in self.registry if t.name == name), None)

    # -- dispatch
    def call(self, call: ToolCall) -> tuple[str, bool]:
        """Run one call from the model; return (result text, is_error). Raises Finish."""
        t = self._tool(call.name)
        if t is not None and call.error:
            hint = (" The reply was probably cut at the output token limit: send smaller pieces "
                    "(a short write_spec, then edit_definition)." if len(call.raw) > 2000 else "")
            sent = call.raw if len(call.raw) <= 200 else call.raw[:100] + " ... " + call.raw[-60:]
            return (f"error: the arguments of {call.name} could not be read ({call.error}).{hint} "
                    f"You sent: {sent!r}. "
                    f"Send a JSON object matching the schema: {json.dumps(t.parameters['properties'])}"), True
        return self.invoke(call.name, call.arguments)

    def invoke(self, name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        """Run tool ``name`` with ``arguments`` (a JSON object); return (result text, is_error).
        A bad request is an error result, never an exception; ``finish`` raises ``Finish``."""
        t = self._tool(name)
        if t is None:
            return f"error: unknown tool {name!r}; tools: {', '.join(x.name for x in self.registry)}", True
        try:
            text = t.fn(self, **t.bind(arguments))
            return clip(self._short_paths(text)), False
        except (ToolError, SpeculaError) as exc:  # a bad request, or a bad input it named
            return clip(self._short_paths(f"error: {exc}")), True

    def _short_paths(self, text: str) -> str:
        """Paths relative to the run directory (spec versions) and the repository."""
        for root in (self.s.run.path.resolve(), self.s.task.code_dir.resolve()):
            text = text.replace(str(root) + "/", "")
        return text

    # -- files and code
    def _workspace(self) -> Workspace:
        """What tools may read: the repository and the run directory, minus the hidden paths."""
        return Workspace.of([self.s.task.code_dir, self.s.run.path], self.s.task.hidden)

    def _resolve(self, path: str) -> Path:
        try:
            return self._workspace().resolve(path)
        except CodeError as exc:
            raise ToolError(str(exc)) from None

    def _source_files(self, under: Path | None = None) -> list[Path]:
        ws = self._workspace()
        root = (under or self.s.task.code_dir).resolve()
        if root.is_file():
            return [root] if ws.allows(root) else []
        out: list[Path] = []
        for p in sorted(root.rglob("*")):
            if any(part in _SKIP_DIRS for part in p.relative_to(root).parts) or not ws.allows(p):
                continue
            if p.is_file() and p.suffix in _SOURCE_EXT and p.stat().st_size < 2_000_000:
                out.append(p)
        return out

    def _rel(self, p: Path) -> str:
        try:
            return str(p.resolve().relative_to(self.s.task.code_dir.resolve()))
        except ValueError:
            return str(p)

    def _code_index(self) -> Any:
        """The code room's index of the target repository, built once. An indexing failure is the
        tool's error result (and is tried again on the next call), never a silent substitute."""
        if self._index is None:
            from specula.code import IndexOptions, index_repo

            # the task's files are indexed even where vendored (redisraft's deps/raft/...);
            # what the task hides (reference spec, mutants) never is
            opts = IndexOptions(always_include=tuple(self.s.task.source_files),
                                exclude=tuple(self._rel(h) for h in self.s.task.hidden))
            try:
                self._index = index_repo(self.s.task.code_dir, opts)
            except SpeculaError as exc:
                raise ToolError(f"the code index of {self.s.task.code_dir} could not be built: {exc}") from None
        return self._index

    def _visible(self, text: str) -> str:
        """Drop lines of a code-room result that point into hidden paths."""
        hidden = [self._rel(h) for h in self.s.task.hidden]
        return "\n".join(line for line in text.split("\n")
                         if not any(line.lstrip().startswith(h + "/") or line.lstrip().startswith(h + ":")
                                    for h in hidden))

    @tool
    def code_map(self, focus: str = "", budget: int = 2000) -> str:
        """Ranked map of the target repository: the files, types and functions most relevant to a
        focus, as signatures with file:line. Start here.

        Args:
            focus: words to rank by (e.g. 'vote quorum epoch')
            budget: approximate tokens (default 2000)
        """
        from specula.code import repo_map

        focus = " ".join(x for x in (focus, self.s.task.focus) if x)
        m = repo_map(self._code_index(), focus=focus, budget=budget, names=self.s.task.target_actions,
                     files=self.s.task.source_files)
        return self._visible(m.text)

    @tool
    def code_search(self, pattern: str, path: str = "") -> str:
        """Search the repository for a regular expression or a symbol name; returns file:line hits.

        Args:
            pattern: a regular expression or a symbol name
            path: optional sub-folder or file
        """
        from specula.code import search_code

        ix = self._code_index()
        if path:
            self._resolve(path)
        return self._visible(search_code(ix, pattern, path=path).render()) or f"no match for {pattern!r}"

    @tool
    def code_show(self, symbol: str) -> str:
        """Show the source of a function, method or type by name, with line numbers.

        Args:
            symbol: a function, method or type name (Type.method for a method)
        """
        from specula.code import show_symbol

        ix = self._code_index()
        try:
            return self._visible(show_symbol(ix, symbol).render())
        except SpeculaError as exc:
            raise ToolError(f"{exc}; try code_search or code_query find") from None

    @tool
    def code_query(self, what: Literal["callers", "callees", "fields", "writes", "file_symbols", "find"],
                   name: str) -> str:
        """Code index queries: callers/callees of a function, fields of a type, writes to a field or
        variable, symbols of a file, or find symbols by name.

        Args:
            what: the query
            name: function, type, field, file path or name query
        """
        import specula.code as code_room

        ix = self._code_index()
        fn = {"callers": code_room.callers, "callees": code_room.callees, "fields": code_room.type_fields,
              "writes": code_room.writes_to, "file_symbols": code_room.file_symbols,
              "find": code_room.find_symbols}[what]
        try:
            return self._visible(fn(ix, name).render())
        except CodeError as exc:
            raise ToolError(str(exc)) from None

    @tool
    def read_file(self, path: str, start: int = 1, end: int = 0) -> str:
        """Read lines of a file of the target repository (or the run directory).

        Args:
            path: file path, relative to the repository (or the run directory)
            start: first line (default 1)
            end: last line (default: 200 lines from start)
        """
        p = self._resolve(path)
        if p.is_dir():
            return "\n".join(self._rel(f) for f in self._source_files(p)[:200])
        lines = p.read_text(errors="replace").splitlines()
        start = max(1, start)
        end = len(lines) if end <= 0 else min(end, len(lines))
        end = min(end, start + 199)
        body = "\n".join(f"{i:>5}  {lines[i - 1]}" for i in range(start, end + 1))
        more = f"\n... ({len(lines) - end} more lines; read with start={end + 1})" if end < len(lines) else ""
        return f"{self._rel(p)} lines {start}-{end} of {len(lines)}\n{body}{more}"

    # -- the spec
    def _check_guard_rails(self, tla: str) -> list[str]:
        problems: list[str] = []
        module = specedit.module_name(tla)
        if module != self.s.task.spec_module:
            problems.append(f"the module must be named {self.s.task.spec_module!r} "
                            f"(found {module!r}): '---- MODULE {self.s.task.spec_module} ----'")
        defs = {d.name: d for d in specedit.definitions(tla)}
        nxt = defs.get("Next")
        for action in self.s.task.target_actions:
            d = defs.get(action)
            if d is None:
                problems.append(f"required action {action} is not defined (define it with exactly this name)")
                continue
            body = d.text.split("==", 1)[1].strip() if "==" in d.text else ""
            if body in ("FALSE", "TRUE", "UNCHANGED vars", "UNCHANGED <<>>"):
                problems.append(f"required action {action} may not be reduced to {body!r}")
            if nxt is not None and not re.search(rf"\b{re.escape(action)}\b", nxt.text):
                problems.append(f"required action {action} must be a disjunct of Next")
        if nxt is None and self.s.task.target_actions:
            problems.append("the spec must define Next (a disjunction of the required actions) and Spec")
        for name in self._invariant_names():
            if name in defs and name not in self.s.task.target_actions:
                problems.append(f"{name} is an invariant phase 4 checks; the spec may not define it (phase 4 adds "
                                "its own definition)")
        return problems

    def _invariant_names(self) -> list[str]:
        if self.s.task.invariants is None:
            return []
        try:
            return [t.name for t in self.scoring.data().templates]
        except Exception:
            return []

    def _save(self, tla: str, cfg: str, how: str) -> str:
        problems = self._check_guard_rails(tla)
        if problems:
            raise ToolError("spec not saved:\n- " + "\n- ".join(problems))
        self.s.version += 1
        self.s.tla, self.s.cfg = tla, cfg
        tla_path, _ = self.s.run.save_spec(self.s.version, self.s.task.spec_module, tla, cfg)
        self.s.run.append_transcript({"event": "spec", "version": self.s.version, "how": how,
                                      "path": str(tla_path.relative_to(self.s.run.path))})
        notes = []
        if re.search(r"^\s*(INVARIANTS?|PROPERTY|PROPERTIES)\b", cfg, re.M):
            notes.append("note: the cfg should not list INVARIANT/PROPERTY (phase 4 checks invariants itself)")
        return "\n".join([f"saved spec version {self.s.version} ({len(tla.splitlines())} lines). "
                          "Run run_phase to score it.", *notes])

    @tool
    def write_spec(self, tla: str, cfg: str) -> str:
        """Write the whole TLA+ module and its .cfg (a new spec version). The module must be named as
        the task says and define every required action, each used in Next.

        Args:
            tla: full module text
            cfg: full .cfg text (SPECIFICATION Spec, CONSTANTS)
        """
        return self._save(_strip_fence(tla), _strip_fence(cfg), "write_spec")

    @tool
    def edit_definition(self, name: str, text: str) -> str:
        """Replace one top-level definition of the current spec by name (or add it if new). Give the
        complete new definition text, starting with its head ('Name(p) ==').

        Args:
            name: the definition's name
            text: the complete new definition
        """
        if not self.s.tla:
            raise ToolError("there is no spec yet; use write_spec first")
        text = _strip_fence(text)
        head = specedit.definitions(text + "\n")
        if not head or head[0].name != name:
            raise ToolError(f"the text must be one definition of {name} starting with '{name} ==' or '{name}(...) =='")
        existed = specedit.find_definition(self.s.tla, name) is not None
        new = specedit.replace_definition(self.s.tla, name, text)
        msg = self._save(new, self.s.cfg, f"edit_definition {name}")
        return f"{'replaced' if existed else 'added'} {name}; {msg}"

    @tool
    def read_spec(self, name: str = "") -> str:
        """Show the current spec (and cfg) with line numbers, or one definition by name.

        Args:
            name: optional definition name
        """
        if not self.s.tla:
            return "there is no spec yet; use write_spec"
        if name:
            d = specedit.find_definition(self.s.tla, name)
            if d is None:
                raise ToolError(f"no definition {name!r}; definitions: {', '.join(specedit.defined_names(self.s.tla))}")
            return specedit.with_line_numbers(d.text, d.start + 1)
        return (f"version {self.s.version}\n{specedit.with_line_numbers(self.s.tla)}\n\n"
                f"--- {self.s.task.spec_module}.cfg\n{self.s.cfg}")

    # -- phases
    def windows(self) -> list[Any]:
        return list(self.scoring.data().windows or [])

    @tool
    def run_phase(self, phase: Literal["1", "2", "3", "4", "syntax", "runtime", "conformance", "invariants",
                                       "all"]) -> str:
        """Score the current spec: 1 syntax, 2 runtime, 3 conformance, 4 invariants, or all (earlier
        phases run too; they gate later ones). Returns scores and grouped failure causes.

        Args:
            phase: which phase to run (earlier ones run too)
        """
        if not self.s.tla:
            raise ToolError("there is no spec yet; use write_spec first")
        try:
            names = phase_names(phase)
        except ValueError as exc:
            raise ToolError(str(exc)) from None
        spec_path, cfg_path = self.s.spec_paths()
        ev = self.scoring.run(spec_path, cfg_path, self.s.tla, names, version=self.s.version)
        self.s.evaluations += 1
        self.s.last = ev
        data = ev.to_dict()
        self.s.run.save_scorecard(self.s.evaluations, data)
        if ev.converged():  # every phase evaluated on this version, every one passes: this is the final spec
            self.s.converged = True
            self.s.best_score, self.s.best_version, self.s.best_eval = ev.overall, self.s.version, self.s.evaluations
        elif ev.ran == PHASES and ev.overall > self.s.best_score and not self.s.converged:
            self.s.best_score, self.s.best_version, self.s.best_eval = ev.overall, self.s.version, self.s.evaluations
        self.s.run.append_transcript({"event": "evaluation", "n": self.s.evaluations, "version": self.s.version,
                                      "ran": list(ev.ran), "scores": data["scores"],
                                      "overall": data["overall"], "converged": self.s.converged})
        if self._on_evaluation is not None:
            self._on_evaluation(ev)
        head = f"spec version {self.s.version}, scorecard {self.s.evaluations}\n"
        tail = ""
        if self.s.converged:
            tail = "\nALL PHASES PASS."
        else:
            failing = _failing_actions(ev.detail("conformance"))
            if failing:
                tail = "\nNext: show_window with one of: " + ", ".join(failing[:8])
            elif ev.ran != PHASES and ev.passed() == ev.ran:
                tail = (f"\n{', '.join(ev.ran)} pass on version {self.s.version}; "
                        f"{', '.join(p for p in PHASES if p not in ev.ran)} not run: run_phase all to finish")
        return head + ev.card.summary(MAX_RESULT - 400) + tail

    def _detail(self, phase: str, how: str) -> tuple[dict[str, Any], str]:
        """The last evaluation's detail of ``phase`` and a note when it scored an older version."""
        ev = self.s.last
        d = ev.detail(phase) if ev is not None else {}
        if not d or "error" in d and len(d) == 1:
            raise ToolError(f"no {phase} results for the current spec yet; {how} first")
        note = ""
        if ev is not None and ev.version and ev.version != self.s.version:
            note = (f"(results of spec version {ev.version}; the current version is {self.s.version}: "
                    f"{how} for its own)\n")
        return d, note

    @tool
    def show_window(self, action: str, n: int = 0) -> str:
        """Show a failing conformance window of an action: observed pre/post state, the step's
        actor/input, and the diagnosis (false conjunct with values, or mismatched variables).

        Args:
            action: the spec action
            n: which failing window (0 = first)
        """
        d, note = self._detail("conformance", "run_phase 3 (or all)")
        failing = [w for w in d.get("windows", []) if not w.get("ok") and w.get("action") == action]
        if not failing:
            acts = _failing_actions(d)
            raise ToolError(f"no failing window for {action}" + (
                f"; failing actions: {', '.join(acts)}" if acts else "; every window passes"))
        if not 0 <= n < len(failing):
            raise ToolError(f"{action} has {len(failing)} failing windows; n must be in 0..{len(failing) - 1}")
        row = failing[n]
        lines = [note + f"failing window {n + 1} of {len(failing)} for {action}: id {row.get('id')} "
                 f"(trace {row.get('trace_id')}{', ' + row['source'] if row.get('source') else ''})"]
        raw = self._raw_window(row)
        if raw is not None:
            for key in ("actor", "params", "input"):
                if getattr(raw, key, None) not in (None, {}, []):
                    lines.append(f"{key}: {json.dumps(getattr(raw, key), default=str)}")
            changed = {k for k in set(raw.pre) | set(raw.post) if raw.pre.get(k) != raw.post.get(k)}
            lines.append("observed pre:  " + json.dumps(raw.pre, default=str))
            lines.append("observed post: " + json.dumps(raw.post, default=str))
            lines.append("changed: " + (", ".join(sorted(changed)) or "nothing"))
        cause = next((c for c in d.get("causes", [])
                      if f"{c.get('action')}|{c.get('kind')}|{c.get('title')}" == row.get("cause")), None)
        if cause is not None:
            where = f" at {cause['location']}" if cause.get("location") else ""
            lines.append(f"diagnosis ({cause.get('kind')}){where}: {cause.get('title')} "
                         f"[{cause.get('count')} windows share it]")
            for k, v in (cause.get("detail") or {}).items():
                lines.append(f"  {k}: {v if isinstance(v, str) else json.dumps(v, default=str)}")
        elif row.get("cause"):
            lines.append(f"diagnosis: {row['cause']}")
        return "\n".join(lines)

    def _raw_window(self, row: dict[str, Any]) -> Any:
        for w in self.windows():
            if str(w.id) == str(row.get("id")) and str(w.trace_id) == str(row.get("trace_id")):
                return w
        return None

    @tool
    def show_counterexample(self, invariant: str) -> str:
        """Show the counterexample trace of a violated invariant (states with action labels).

        Args:
            invariant: the invariant's name
        """
        d, note = self._detail("invariants", "run_phase 4 (or all)")
        rows = d.get("rows", [])
        row = next((r for r in rows if r.get("name") == invariant), None)
        if row is None:
            raise ToolError(f"no result for invariant {invariant!r}; invariants: "
                            + ", ".join(r.get("name", "?") for r in rows))
        lines = [note + f"{invariant} [{row.get('type')}]: {row.get('status')}"
                 + (f": {row['message']}" if row.get("message") else "")]
        trace = row.get("counterexample") or []
        if not trace:
            lines.append("no counterexample (the invariant was not violated)")
        prev: dict[str, Any] = {}
        for i, step in enumerate(trace[-12:]):
            state = step.get("state") or {}
            if isinstance(state, dict) and prev:
                shown = {k: v for k, v in state.items() if prev.get(k) != v}
                text = "changed " + json.dumps(shown, default=str)
            else:
                text = json.dumps(state, default=str)
            lines.append(f"{i + 1}. {step.get('action') or 'Init'}: {text}")
            prev = state if isinstance(state, dict) else {}
        return "\n".join(lines)

    # -- traces and mapping
    @tool
    def read_traces(self, action: str = "", limit: int = 3) -> str:
        """Show observed trace windows for an action (raw trace fields, before mapping): a count per
        action and a few samples.

        Args:
            action: only windows of this action (default: all)
            limit: how many samples (default 3, at most 10)
        """
        ws = self.windows()
        counts: dict[str, int] = {}
        for w in ws:
            counts[w.action] = counts.get(w.action, 0) + 1
        lines = [f"{len(ws)} windows; per action: " + ", ".join(f"{a} {c}" for a, c in sorted(counts.items()))]
        missing = [a for a in self.s.task.target_actions if a not in counts]
        if missing:
            lines.append("required actions without windows (trace names may differ; see read_mapping): "
                         + ", ".join(missing))
        sample = [w for w in ws if not action or w.action == action][: max(1, min(limit, 10))]
        for w in sample:
            lines.append(json.dumps(w.to_dict(), default=str))
        return "\n".join(lines)

    @tool
    def read_mapping(self) -> str:
        """Show the mapping from trace fields to spec variables, actions and parameters."""
        if self.s.task.mapping is None:
            return "no mapping file: trace fields are compared with spec variables of the same name"
        return self.s.task.mapping.read_text(encoding="utf-8")

    @tool
    def finish(self, summary: str) -> str:
        """End the run with a short summary of the model and what remains wrong, if anything.

        Args:
            summary: what the model covers and what is still wrong
        """
        raise Finish(summary)


def _strip_fence(text: str) -> str:
    m = re.match(r"^\s*```[a-zA-Z+]*\n(.*?)\n```\s*$", text, re.S)
    return (m.group(1) if m else text).rstrip() + "\n"


def _failing_actions(conformance_detail: dict[str, Any]) -> list[str]:
    return [a["action"] for a in conformance_detail.get("actions", []) if a.get("passed", 0) < a.get("total", 0)]


TOOLS: tuple[Tool, ...] = collect(Toolbox)
"""Every tool, in the order the model sees them."""
TOOL_SPECS: tuple[ToolSpec, ...] = tuple(t.spec for t in TOOLS)
_BY_NAME: dict[str, Tool] = {t.name: t for t in TOOLS}
Toolbox.registry = TOOLS


def tool_named(name: str) -> Tool:
    """The tool called ``name``; ``KeyError`` lists the known names."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown tool {name!r}; tools: {', '.join(_BY_NAME)}") from None
