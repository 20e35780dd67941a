"""The tools the modeling agent calls: JSON schemas (docs/agent-tools.md) and their handlers.

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
from typing import Any, Callable

from specula.agent import specedit
from specula.agent.evaluate import PHASES, Evaluation, Scoring, phase_names
from specula.agent.messages import ToolCall, ToolSpec
from specula.agent.rundir import RunDir
from specula.agent.task import Task
from specula.errors import SpeculaError

__all__ = ["ToolError", "Finish", "Session", "Toolbox", "TOOL_SPECS", "MAX_RESULT"]

MAX_RESULT = 6000
_SOURCE_EXT = {".go", ".rs", ".c", ".h", ".cc", ".cpp", ".hpp", ".java", ".py", ".js", ".ts", ".tla", ".cfg",
               ".md", ".txt", ".yaml", ".yml", ".toml", ".json", ".ndjson", ".jsonl"}
_SKIP_DIRS = {".git", "node_modules", "target", "build", "__pycache__", ".venv", "vendor", "runs"}


class ToolError(Exception):
    """A bad tool request; the text goes back to the model."""


class Finish(Exception):
    """The model called ``finish``."""

    def __init__(self, summary: str) -> None:
        super().__init__(summary)
        self.summary = summary


def _obj(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


_S = {"type": "string"}
_I = {"type": "integer"}
TOOL_SPECS: list[ToolSpec] = [
    ToolSpec("code_map", "Ranked map of the target repository: the files, types and functions most relevant to a "
             "focus, as signatures with file:line. Start here.",
             _obj({"focus": {**_S, "description": "words to rank by (e.g. 'vote quorum epoch')"},
                   "budget": {**_I, "description": "approximate tokens (default 2000)"}}, [])),
    ToolSpec("code_search", "Search the repository for a regular expression or a symbol name; returns file:line hits.",
             _obj({"pattern": _S, "path": {**_S, "description": "optional sub-folder or file"}}, ["pattern"])),
    ToolSpec("code_show", "Show the source of a function, method or type by name, with line numbers.",
             _obj({"symbol": _S}, ["symbol"])),
    ToolSpec("code_query", "Code index queries: callers/callees of a function, fields of a type, writes to a "
             "field or variable, symbols of a file, or find symbols by name.",
             _obj({"what": {**_S, "enum": ["callers", "callees", "fields", "writes", "file_symbols", "find"]},
                   "name": {**_S, "description": "function, type, field, file path or name query"}},
                  ["what", "name"])),
    ToolSpec("read_file", "Read lines of a file of the target repository (or the run directory).",
             _obj({"path": _S, "start": _I, "end": _I}, ["path"])),
    ToolSpec("write_spec", "Write the whole TLA+ module and its .cfg (a new spec version). The module must be "
             "named as the task says and define every required action, each used in Next.",
             _obj({"tla": {**_S, "description": "full module text"},
                   "cfg": {**_S, "description": "full .cfg text (SPECIFICATION Spec, CONSTANTS)"}}, ["tla", "cfg"])),
    ToolSpec("edit_definition", "Replace one top-level definition of the current spec by name (or add it if new). "
             "Give the complete new definition text, starting with its head ('Name(p) ==').",
             _obj({"name": _S, "text": _S}, ["name", "text"])),
    ToolSpec("read_spec", "Show the current spec (and cfg) with line numbers, or one definition by name.",
             _obj({"name": {**_S, "description": "optional definition name"}}, [])),
    ToolSpec("run_phase", "Score the current spec: 1 syntax, 2 runtime, 3 conformance, 4 invariants, or all "
             "(earlier phases run too; they gate later ones). Returns scores and grouped failure causes.",
             _obj({"phase": {**_S, "enum": ["1", "2", "3", "4", "syntax", "runtime", "conformance", "invariants",
                                            "all"]}}, ["phase"])),
    ToolSpec("show_window", "Show a failing conformance window of an action: observed pre/post state, the step's "
             "actor/input, and the diagnosis (false conjunct with values, or mismatched variables).",
             _obj({"action": _S, "n": {**_I, "description": "which failing window (0 = first)"}}, ["action"])),
    ToolSpec("show_counterexample", "Show the counterexample trace of a violated invariant (states with action labels).",
             _obj({"invariant": _S}, ["invariant"])),
    ToolSpec("read_traces", "Show observed trace windows for an action (raw trace fields, before mapping): "
             "a count per action and a few samples.",
             _obj({"action": _S, "limit": _I}, [])),
    ToolSpec("read_mapping", "Show the mapping from trace fields to spec variables, actions and parameters.",
             _obj({}, [])),
    ToolSpec("finish", "End the run with a short summary of the model and what remains wrong, if anything.",
             _obj({"summary": _S}, ["summary"])),
]
_SPEC_BY_NAME = {t.name: t for t in TOOL_SPECS}


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
            self.tla = (d / f"{self.task.module}.tla").read_text(encoding="utf-8")
            self.cfg = (d / f"{self.task.module}.cfg").read_text(encoding="utf-8")

    def spec_paths(self) -> tuple[Path, Path]:
        d = self.run.spec_dir(self.version)
        return d / f"{self.task.module}.tla", d / f"{self.task.module}.cfg"


def clip(text: str, limit: int = MAX_RESULT) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - 60].rstrip() + f"\n... ({len(text) - limit + 60} more characters cut)"


class Toolbox:
    """Dispatches tool calls for one session."""

    def __init__(self, session: Session, scoring: Scoring | None = None,
                 on_evaluation: Callable[[Evaluation], None] | None = None) -> None:
        self.s = session
        self.scoring = scoring or Scoring(session.task)
        self._on_evaluation = on_evaluation
        self._index: Any = None

    @property
    def specs(self) -> list[ToolSpec]:
        return list(TOOL_SPECS)

    # -- dispatch
    def call(self, call: ToolCall) -> tuple[str, bool]:
        """Run one call; return (result text, is_error). Raises Finish."""
        spec = _SPEC_BY_NAME.get(call.name)
        if spec is None:
            return f"error: unknown tool {call.name!r}; tools: {', '.join(_SPEC_BY_NAME)}", True
        if call.error:
            hint = (" The reply was probably cut at the output token limit: send smaller pieces "
                    "(a short write_spec, then edit_definition)." if len(call.raw) > 2000 else "")
            sent = call.raw if len(call.raw) <= 200 else call.raw[:100] + " ... " + call.raw[-60:]
            return (f"error: the arguments of {call.name} could not be read ({call.error}).{hint} "
                    f"You sent: {sent!r}. "
                    f"Send a JSON object matching the schema: {json.dumps(spec.parameters['properties'])}"), True
        try:
            args = _validate(spec, call.arguments)
            text = getattr(self, "t_" + call.name)(**args)
            return clip(self._short_paths(text)), False
        except ToolError as exc:
            return clip(self._short_paths(f"error: {exc}")), True

    def _short_paths(self, text: str) -> str:
        """Paths relative to the run directory (spec versions) and the repository."""
        for root in (self.s.run.path.resolve(), self.s.task.repo.resolve()):
            text = text.replace(str(root) + "/", "")
        return text

    # -- files and code
    def _resolve(self, path: str) -> Path:
        raw = Path(path)
        roots = [self.s.task.repo.resolve(), self.s.run.path.resolve()]
        candidates = [raw] if raw.is_absolute() else [roots[0] / raw, roots[1] / raw]
        for c in candidates:
            p = c.resolve()
            if any(p == r or r in p.parents for r in roots) and p.exists():
                if any(p == h or h in p.parents for h in self.s.task.hidden):
                    raise ToolError(f"{path} is not available to the agent")
                return p
        for c in candidates:
            p = c.resolve()
            if not any(p == r or r in p.parents for r in roots):
                raise ToolError(f"{path} is outside the target repository and the run directory")
        raise ToolError(f"{path} does not exist in the target repository")

    def _is_hidden(self, p: Path) -> bool:
        p = p.resolve()
        return any(p == h or h in p.parents for h in self.s.task.hidden)

    def _source_files(self, under: Path | None = None) -> list[Path]:
        root = (under or self.s.task.repo).resolve()
        if root.is_file():
            return [root]
        out: list[Path] = []
        for p in sorted(root.rglob("*")):
            if any(part in _SKIP_DIRS for part in p.relative_to(root).parts) or self._is_hidden(p):
                continue
            if p.is_file() and p.suffix in _SOURCE_EXT and p.stat().st_size < 2_000_000:
                out.append(p)
        return out

    def _rel(self, p: Path) -> str:
        try:
            return str(p.resolve().relative_to(self.s.task.repo.resolve()))
        except ValueError:
            return str(p)

    def _code_index(self) -> Any:
        """The code room's index of the target repo, or None (then plain-text fallbacks are used)."""
        if self._index is None:
            try:
                from specula.code import IndexOptions, index_repo

                # the task's files are indexed even where vendored (redisraft's deps/raft/...);
                # what the task hides (reference spec, mutants) never is
                opts = IndexOptions(always_include=tuple(self.s.task.source_files),
                                    exclude=tuple(self._rel(h) for h in self.s.task.hidden))
                self._index = index_repo(self.s.task.repo, opts)
            except Exception:  # an unindexable repo still gets the text fallbacks
                self._index = False
        return self._index or None

    def _visible(self, text: str) -> str:
        """Drop lines of a code-room result that point into hidden paths."""
        hidden = [self._rel(h) for h in self.s.task.hidden]
        return "\n".join(line for line in text.split("\n")
                         if not any(line.lstrip().startswith(h + "/") or line.lstrip().startswith(h + ":")
                                    for h in hidden))

    def t_code_map(self, focus: str = "", budget: int = 2000) -> str:
        focus = " ".join(x for x in (focus, self.s.task.focus) if x)
        ix = self._code_index()
        if ix is not None:
            from specula.code import repo_map

            m = repo_map(ix, focus=focus, budget=budget, names=self.s.task.required_actions,
                         files=self.s.task.source_files)
            return self._visible(m.text)
        files = self._source_files()
        named = [f for f in files if self._rel(f) in self.s.task.source_files]
        lines = [f"repository {self.s.task.repo.name}: {len(files)} files (task files first)"]
        sig = re.compile(r"^\s*(?:pub\s+|static\s+|public\s+|private\s+|protected\s+|async\s+)*"
                         r"(?:func|fn|def|class|struct|type|impl|enum|trait|interface)\b.*|^[A-Za-z_][\w\s\*]*\(.*\)\s*\{?\s*$")
        for f in named + [f for f in files if f not in named]:
            lines.append(f"{self._rel(f)}")
            if f in named or len(lines) < budget // 10:
                try:
                    for i, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
                        if sig.match(line) and not line.strip().startswith(("//", "#", "*", "return")):
                            lines.append(f"  {i}: {line.strip()[:120]}")
                except OSError:
                    pass
            if sum(len(x) for x in lines) > budget * 4:
                lines.append("... (budget reached; use code_search / code_show)")
                break
        return "\n".join(lines)

    def t_code_search(self, pattern: str, path: str = "") -> str:
        ix = self._code_index()
        if ix is not None:
            from specula.code import search_code

            if path:
                self._resolve(path)
            return self._visible(search_code(ix, pattern, path=path).render()) or f"no match for {pattern!r}"
        try:
            rx = re.compile(pattern)
        except re.error:
            rx = re.compile(re.escape(pattern))
        under = self._resolve(path) if path else None
        hits: list[str] = []
        for f in self._source_files(under):
            try:
                for i, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
                    if rx.search(line):
                        hits.append(f"{self._rel(f)}:{i}: {line.strip()[:160]}")
                        if len(hits) >= 60:
                            return "\n".join(hits) + "\n... (more hits; narrow the pattern or give a path)"
            except OSError:
                continue
        return "\n".join(hits) if hits else f"no match for {pattern!r}"

    def t_code_show(self, symbol: str) -> str:
        ix = self._code_index()
        if ix is not None:
            from specula.code import show_symbol

            try:
                return self._visible(show_symbol(ix, symbol).render())
            except SpeculaError:  # unknown to the index: fall back to a text search
                pass
        name = symbol.split(".")[-1].split("::")[-1]
        rx = re.compile(r"(?:func\s*(?:\([^)]*\)\s*)?|fn\s+|def\s+|class\s+|struct\s+|type\s+|enum\s+|interface\s+|"
                        r"[\w\*\s<>,\[\]]+\s+)" + re.escape(name) + r"\s*[(<{:\[]|^(?:struct|class)\s+" + re.escape(name))
        for f in self._source_files():
            lines = f.read_text(errors="replace").splitlines()
            for i, line in enumerate(lines):
                if rx.search(line) and not line.strip().startswith(("//", "#", "*")) and not line.rstrip().endswith(";"):
                    end = _block_end(lines, i)
                    return f"{self._rel(f)}:{i + 1}\n" + "\n".join(
                        f"{j + 1:>5}  {lines[j]}" for j in range(i, end))
        raise ToolError(f"no definition of {symbol!r} found; try code_search")

    def t_code_query(self, what: str, name: str) -> str:
        ix = self._code_index()
        if ix is None:
            raise ToolError("the code index is not available for this repository; use code_search")
        import specula.code as code_room

        fn = {"callers": code_room.callers, "callees": code_room.callees, "fields": code_room.type_fields,
              "writes": code_room.writes_to, "file_symbols": code_room.file_symbols,
              "find": code_room.find_symbols}[what]
        return self._visible(fn(ix, name).render())

    def t_read_file(self, path: str, start: int = 1, end: int = 0) -> str:
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
        if module != self.s.task.module:
            problems.append(f"the module must be named {self.s.task.module!r} "
                            f"(found {module!r}): '---- MODULE {self.s.task.module} ----'")
        defs = {d.name: d for d in specedit.definitions(tla)}
        nxt = defs.get("Next")
        for action in self.s.task.required_actions:
            d = defs.get(action)
            if d is None:
                problems.append(f"required action {action} is not defined (define it with exactly this name)")
                continue
            body = d.text.split("==", 1)[1].strip() if "==" in d.text else ""
            if body in ("FALSE", "TRUE", "UNCHANGED vars", "UNCHANGED <<>>"):
                problems.append(f"required action {action} may not be reduced to {body!r}")
            if nxt is not None and not re.search(rf"\b{re.escape(action)}\b", nxt.text):
                problems.append(f"required action {action} must be a disjunct of Next")
        if nxt is None and self.s.task.required_actions:
            problems.append("the spec must define Next (a disjunction of the required actions) and Spec")
        for name in self._invariant_names():
            if name in defs and name not in self.s.task.required_actions:
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
        tla_path, _ = self.s.run.save_spec(self.s.version, self.s.task.module, tla, cfg)
        self.s.run.append_transcript({"event": "spec", "version": self.s.version, "how": how,
                                      "path": str(tla_path.relative_to(self.s.run.path))})
        notes = []
        if re.search(r"^\s*(INVARIANTS?|PROPERTY|PROPERTIES)\b", cfg, re.M):
            notes.append("note: the cfg should not list INVARIANT/PROPERTY (phase 4 checks invariants itself)")
        return "\n".join([f"saved spec version {self.s.version} ({len(tla.splitlines())} lines). "
                          "Run run_phase to score it.", *notes])

    def t_write_spec(self, tla: str, cfg: str) -> str:
        return self._save(_strip_fence(tla), _strip_fence(cfg), "write_spec")

    def t_edit_definition(self, name: str, text: str) -> str:
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

    def t_read_spec(self, name: str = "") -> str:
        if not self.s.tla:
            return "there is no spec yet; use write_spec"
        if name:
            d = specedit.find_definition(self.s.tla, name)
            if d is None:
                raise ToolError(f"no definition {name!r}; definitions: {', '.join(specedit.defined_names(self.s.tla))}")
            return specedit.with_line_numbers(d.text, d.start + 1)
        return (f"version {self.s.version}\n{specedit.with_line_numbers(self.s.tla)}\n\n"
                f"--- {self.s.task.module}.cfg\n{self.s.cfg}")

    # -- phases
    def windows(self) -> list[Any]:
        return list(self.scoring.data().windows or [])

    def t_run_phase(self, phase: str) -> str:
        if not self.s.tla:
            raise ToolError("there is no spec yet; use write_spec first")
        try:
            names = phase_names(phase)
        except ValueError as exc:
            raise ToolError(str(exc)) from None
        spec_path, cfg_path = self.s.spec_paths()
        ev = self.scoring.run(spec_path, cfg_path, self.s.tla, names)
        self.s.evaluations += 1
        self.s.last = ev
        data = ev.to_dict()
        data["version"] = self.s.version
        self.s.run.save_scorecard(self.s.evaluations, data)
        if ev.ran == PHASES and ev.overall > self.s.best_score:
            self.s.best_score, self.s.best_version, self.s.best_eval = ev.overall, self.s.version, self.s.evaluations
        if ev.converged():
            self.s.converged = True
        self.s.run.append_transcript({"event": "evaluation", "n": self.s.evaluations, "version": self.s.version,
                                      "scores": data["scores"], "overall": data["overall"],
                                      "converged": self.s.converged})
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
        return head + ev.card.summary(MAX_RESULT - 400) + tail

    def _detail(self, phase: str, how: str) -> dict[str, Any]:
        ev = self.s.last
        d = ev.detail(phase) if ev is not None else {}
        if not d or "error" in d and len(d) == 1:
            raise ToolError(f"no {phase} results for the current spec yet; {how} first")
        return d

    def t_show_window(self, action: str, n: int = 0) -> str:
        d = self._detail("conformance", "run_phase 3 (or all)")
        failing = [w for w in d.get("windows", []) if not w.get("ok") and w.get("action") == action]
        if not failing:
            acts = _failing_actions(d)
            raise ToolError(f"no failing window for {action}" + (
                f"; failing actions: {', '.join(acts)}" if acts else "; every window passes"))
        if not 0 <= n < len(failing):
            raise ToolError(f"{action} has {len(failing)} failing windows; n must be in 0..{len(failing) - 1}")
        row = failing[n]
        lines = [f"failing window {n + 1} of {len(failing)} for {action}: id {row.get('id')} "
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

    def t_show_counterexample(self, invariant: str) -> str:
        d = self._detail("invariants", "run_phase 4 (or all)")
        rows = d.get("rows", [])
        row = next((r for r in rows if r.get("name") == invariant), None)
        if row is None:
            raise ToolError(f"no result for invariant {invariant!r}; invariants: "
                            + ", ".join(r.get("name", "?") for r in rows))
        lines = [f"{invariant} [{row.get('type')}]: {row.get('status')}"
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
    def t_read_traces(self, action: str = "", limit: int = 3) -> str:
        ws = self.windows()
        counts: dict[str, int] = {}
        for w in ws:
            counts[w.action] = counts.get(w.action, 0) + 1
        lines = [f"{len(ws)} windows; per action: " + ", ".join(f"{a} {c}" for a, c in sorted(counts.items()))]
        missing = [a for a in self.s.task.required_actions if a not in counts]
        if missing:
            lines.append("required actions without windows (trace names may differ; see read_mapping): "
                         + ", ".join(missing))
        sample = [w for w in ws if not action or w.action == action][: max(1, min(limit, 10))]
        for w in sample:
            lines.append(json.dumps(w.to_dict(), default=str))
        return "\n".join(lines)

    def t_read_mapping(self) -> str:
        if self.s.task.mapping is None:
            return "no mapping file: trace fields are compared with spec variables of the same name"
        return self.s.task.mapping.read_text(encoding="utf-8")

    def t_finish(self, summary: str) -> str:
        raise Finish(summary)


def _validate(spec: ToolSpec, args: dict[str, Any]) -> dict[str, Any]:
    props = spec.parameters.get("properties", {})
    unknown = [k for k in args if k not in props]
    if unknown:
        raise ToolError(f"{spec.name}: unknown argument(s) {', '.join(unknown)}; expected {', '.join(props) or 'none'}")
    missing = [k for k in spec.parameters.get("required", []) if k not in args]
    if missing:
        raise ToolError(f"{spec.name}: missing required argument(s) {', '.join(missing)}")
    out: dict[str, Any] = {}
    for k, v in args.items():
        kind = props[k].get("type")
        if kind == "integer":
            if isinstance(v, str) and re.fullmatch(r"-?\d+", v.strip()):
                v = int(v)
            if not isinstance(v, int) or isinstance(v, bool):
                raise ToolError(f"{spec.name}: argument {k} must be an integer, got {v!r}")
        elif kind == "string":
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                v = str(v)
            if not isinstance(v, str):
                raise ToolError(f"{spec.name}: argument {k} must be a string, got {type(v).__name__}")
            enum = props[k].get("enum")
            if enum and v not in enum:
                raise ToolError(f"{spec.name}: argument {k} must be one of {', '.join(enum)}")
        out[k] = v
    return out


def _strip_fence(text: str) -> str:
    m = re.match(r"^\s*```[a-zA-Z+]*\n(.*?)\n```\s*$", text, re.S)
    return (m.group(1) if m else text).rstrip() + "\n"


def _block_end(lines: list[str], i: int) -> int:
    depth, seen = 0, False
    for j in range(i, min(len(lines), i + 250)):
        depth += lines[j].count("{") - lines[j].count("}")
        seen = seen or "{" in lines[j]
        if seen and depth <= 0:
            return j + 1
        if not seen and j > i and lines[j].strip() and not lines[j][:1].isspace() and lines[i].lstrip().startswith(("def ", "class ")):
            return j
    return min(len(lines), i + 80)


def _failing_actions(conformance_detail: dict[str, Any]) -> list[str]:
    return [a["action"] for a in conformance_detail.get("actions", []) if a.get("passed", 0) < a.get("total", 0)]
