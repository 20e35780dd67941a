"""Starting and resuming a modeling run: wires task, provider, run directory, tools and loop."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from specula.agent.evaluate import Scorer, Scoring
from specula.agent.ledger import Budget, Ledger
from specula.agent.loop import Agent, initial_prompt
from specula.agent.messages import Message
from specula.agent.prompts import render
from specula.agent.providers import RetryPolicy, make_provider, parse_model
from specula.agent.providers.base import Provider
from specula.agent.rundir import RunDir
from specula.tasks import Task
from specula.agent.tools import Session, Toolbox
from specula.errors import ProviderError

__all__ = ["RunOptions", "start_run", "resume_run", "preview_prompts", "DEFAULT_MODEL", "DEFAULT_BUDGET"]

DEFAULT_MODEL = "anthropic/claude-sonnet-4-6"
DEFAULT_BUDGET = Budget(tokens=3_000_000, dollars=10.0, iterations=80, seconds=3600)


@dataclass
class RunOptions:
    model: str | None = DEFAULT_MODEL  # None: no model (a manual workbench, or an external agent over MCP)
    runs_dir: Path = Path("runs")
    budget: Budget | None = None  # None: DEFAULT_BUDGET (start) or the run's own (resume)
    stream: bool = False
    retry: RetryPolicy = RetryPolicy()
    translate_with_model: bool = True
    env: Mapping[str, str] | None = None
    run_id: str | None = None
    face: str = "model"  # which face started the run: model | session | mcp (recorded in task.yaml)
    toolbox: type[Toolbox] = Toolbox  # the faces' WorkspaceToolbox adds model checking and validation
    on_event: Callable[[dict[str, Any]], None] | None = field(default=None, repr=False)


def _one_call(provider: Provider, ledger: Ledger, session: Session, purpose: str,
              max_tokens: int) -> Callable[[str, str], str]:
    """``complete(system, user) -> text``: one model call outside the loop (a scoring step),
    charged to the ledger under ``purpose`` and written to the transcript as that event."""

    def complete(system: str, user: str) -> str:
        t0 = time.monotonic()
        reply = provider.complete(system, [Message("user", user)], [], max_tokens=max_tokens)
        cost = ledger.record(reply.usage, time.monotonic() - t0, purpose=purpose)
        session.run.append_transcript({"event": purpose, "usage": reply.usage.to_dict(), "cost": round(cost, 6),
                                       "prompt": user, "reply": reply.message.content})
        return reply.message.content

    return complete


def _translator(provider: Provider, ledger: Ledger, session: Session):
    """Model translation of invariant templates, redone only when the spec's declared names change."""
    from specula.agent.translate import signature, translate_with_model
    from specula.phases import InvariantDef

    complete = _one_call(provider, ledger, session, "translate", 4096)

    def run(spec_path: Path, spec_text: str, templates: list[Any]) -> tuple[list[Any], list[Any]]:
        sig = signature(spec_text)
        if session.translated is not None and session.translated_for == sig:
            done = {d["name"] for d in session.translated}
            defs = [InvariantDef(d["name"], d["type"], d["definition"], d["source"]) for d in session.translated]
            return defs, [t for t in templates if t.name not in done]
        try:
            defs, untranslated, notes = translate_with_model(spec_path, spec_text, templates, complete)
        except ProviderError as exc:  # score with the static translation now; ask the model again next time
            from specula.phases import translate_static

            session.run.append_transcript({"event": "translate_failed", "error": str(exc)})
            return translate_static(templates, spec_path)
        session.translated = [{"name": d.name, "type": d.type, "definition": d.definition, "source": d.source}
                              for d in defs]
        session.translated_for = sig
        session.run.append_transcript({"event": "invariants", "translated": session.translated,
                                       "untranslated": [t.name for t in untranslated], "notes": notes})
        return defs, untranslated

    return run


def _refiner(provider: Provider, ledger: Ledger, session: Session):
    """A PGo task's refinement mapping written by the model, as SysMoBench does at scoring time;
    asked again only when the spec's declarations change."""
    from specula.agent.refinement import refinement_with_model
    from specula.phases.tracelink import declarations, unmapped_variables

    memo: dict[str, str | None] = {}

    complete = _one_call(provider, ledger, session, "refinement", 2048)

    def run(spec: Path, cfg: Path, setup: Any) -> str | None:
        if not unmapped_variables(spec, setup):
            return None  # the spec uses the reference's variable names: nothing to map
        sig = "\n".join(declarations(spec.read_text(encoding="utf-8", errors="replace"))[0])
        if sig not in memo:
            try:
                text, left = refinement_with_model(spec, cfg, setup, complete)
            except ProviderError as exc:  # phase 3 then reports the unmapped variables itself
                session.run.append_transcript({"event": "refinement_failed", "error": str(exc)})
                text, left = None, []
            if left:
                session.run.append_transcript({"event": "refinement_incomplete", "unmapped": left})
            memo[sig] = text
        return memo[sig]

    return run


def _build(task: Task, scorer: Scorer, run: RunDir, provider: Provider | None, ledger: Ledger,
           opts: RunOptions) -> Toolbox:
    session = Session(task, run)
    scoring = Scoring(scorer, translate=_translator(provider, ledger, session)
                      if opts.translate_with_model and provider is not None else None,
                      refine=_refiner(provider, ledger, session) if provider is not None else None)
    def on_evaluation(ev: Any) -> None:
        if opts.on_event is not None:
            causes = [c.get("action", "") + ": " + c.get("title", "")
                      for c in ev.detail("conformance").get("causes", [])[:5]]
            for p in ("syntax", "runtime", "invariants"):
                ps = ev.card.phases.get(p)
                if ps is not None and not ps.skipped and ps.score < 1.0 and ps.summary:
                    causes.append(f"{p}: " + ps.summary.splitlines()[-1][:160])
            opts.on_event({"event": "evaluation", "version": session.version, "overall": ev.overall,
                           "scores": {p: ev.score(p) for p in ev.ran},  # only the phases this evaluation holds
                           "skipped": {p: ps.skipped for p, ps in ev.card.phases.items() if ps.skipped},
                           "causes": causes, "converged": session.converged})

    return opts.toolbox(session, scoring, on_evaluation)


def start_run(task: Task, opts: RunOptions, scorer: Scorer) -> Agent:
    """A new run directory and the agent over it, its spec versions scored by ``scorer``; with
    ``opts.model`` None there is no model and the run is driven by ``Agent.perform`` (the
    workbench, an MCP client)."""
    ref = parse_model(opts.model) if opts.model else None
    provider = make_provider(ref, env=opts.env, retry=opts.retry, stream=opts.stream) if ref else None
    budget = opts.budget or DEFAULT_BUDGET
    run = RunDir.create(opts.runs_dir, {**task.to_dict(), "model": str(ref) if ref else None, "face": opts.face,
                                        "budget": budget.to_dict()},
                        run_id=opts.run_id, secrets=provider.secrets() if provider else ())
    ledger = Ledger(ref.provider, ref.name) if ref else Ledger("none", opts.face)
    box = _build(task, scorer, run, provider, ledger, opts)
    agent = Agent(provider, box, budget, ledger, render("system.md"), on_event=opts.on_event)
    agent._append(Message("user", initial_prompt(box)))
    return agent


def resume_run(ref: str | Path, opts: RunOptions, scorer_for: Callable[[Task], Scorer],
               model: str | None = None, manual: bool = False) -> Agent:
    """Continue a stopped run; ``scorer_for`` gives the scorer of the run's task; the model
    defaults to the run's own (``manual``: no model at all). Token and cost counters continue
    from usage.json."""
    probe = RunDir.open(ref, opts.runs_dir)
    state = probe.load_state()
    from specula.yamlfile import load_yaml_mapping

    asked = load_yaml_mapping(probe.path / "task.yaml", "the run's task file")
    wanted = None if manual else (model or asked.get("model") or opts.model)
    mref = parse_model(wanted) if wanted else None
    provider = make_provider(mref, env=opts.env, retry=opts.retry, stream=opts.stream) if mref else None
    run = RunDir.open(probe.path, secrets=provider.secrets() if provider else ())
    usage = run.read_json("usage.json") if (run.path / "usage.json").is_file() else None
    ledger = Ledger.from_dict(usage) if usage else Ledger(mref.provider if mref else "none", mref.name if mref else opts.face)
    if mref is not None:
        ledger.provider, ledger.model = mref.provider, mref.name  # earlier calls keep their recorded cost
    task = Task.from_dict(state["task"])
    box = _build(task, scorer_for(task), run, provider, ledger, opts)
    return Agent.resume(state, provider, box, ledger, opts.budget, opts.on_event)


def preview_prompts(task: Task, scorer: Scorer) -> tuple[str, str]:
    """(system prompt, task prompt) exactly as a run would send them; needs no model or key."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="specula-preview-") as tmp:
        run = RunDir.create(Path(tmp), {"name": task.name})
        box = Toolbox(Session(task, run), Scoring(scorer))
        return render("system.md"), initial_prompt(box)
