"""The refinement loop: ask the model, run its tool calls, repeat until a stop condition.

Stop conditions are exceptions (``Converged``, ``Finished``, ``BudgetExceeded``, ``ProviderError``,
``KeyboardInterrupt``). After every model call and every tool call the message is appended to
transcript.jsonl and state.json is rewritten, in a ``finally``, so a run stopped at any point is
resumable (``Agent.resume``). The best-scoring spec version, not the last, goes to final/.

Faces other than the batch loop steer it through a ``Steering`` (``specula session``: pause,
guidance at the next turn, approve or reject each call) and make calls of their own with
``Agent.perform`` (a person at the workbench, an external agent over MCP): such a call is
recorded as an assistant turn and its result, so the run stays one conversation any face resumes.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from specula.agent.ledger import Budget, Ledger
from specula.agent.messages import FORMAT_VERSION, Message, ToolCall
from specula.agent.prompts import render
from specula.agent.providers.base import Provider
from specula.agent.tools import Finish, Session, ToolError, Toolbox, clip
from specula.errors import BudgetExceeded, ProviderError, SpeculaError

__all__ = ["Agent", "Outcome", "Converged", "Finished", "Halted", "Steering", "initial_prompt", "compact"]

CONTEXT_CHARS = 160_000  # ~40k tokens of history before old tool results and spec texts are elided
KEEP_RECENT = 12  # messages always sent in full
MAX_REPLY_TOKENS = 16000


class Stop(Exception):
    status = "stopped"


class Converged(Stop):
    status = "converged"


class Finished(Stop):
    status = "finished"


class Halted(Stop):
    """Stopped by the person steering the run; resumable."""

    status = "interrupted"


class Steering(Protocol):
    """Hooks a face gives the loop. ``before_turn`` runs before each model call (it may block
    while paused, add messages with ``agent.guide``, or raise ``Halted``); ``review`` sees each
    tool call before it runs and returns None to run it or a reason to reject it."""

    def before_turn(self, agent: "Agent") -> None: ...

    def review(self, call: ToolCall) -> str | None: ...


@dataclass
class Outcome:
    status: str  # converged | finished | budget | provider-error | interrupted | error
    reason: str
    iterations: int
    best_score: float | None
    best_version: int | None
    cost: float
    tokens: int
    run: str

    @property
    def resumable(self) -> bool:
        return self.status in ("budget", "provider-error", "interrupted", "error")

    def to_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "resumable": self.resumable}


@dataclass
class Agent:
    provider: Provider | None  # None: driven by hand or by an external agent (``perform``)
    toolbox: Toolbox
    budget: Budget
    ledger: Ledger
    system: str
    messages: list[Message] = field(default_factory=list)
    iterations: int = 0
    elapsed: float = 0.0  # wall seconds used by earlier sessions of this run
    status: str = "new"
    on_event: Callable[[dict[str, Any]], None] | None = None
    steer: Steering | None = None
    stopped: bool = False  # a stop event was written since the run (re)started

    @property
    def session(self) -> Session:
        return self.toolbox.s

    def run(self) -> Outcome:
        if self.status in ("converged", "finished"):
            return self._outcome(self.status, "the run had already ended")
        if self.provider is None:
            return self._outcome(self.status, "no model to run (a manual or external-agent run)")
        started, status, reason = time.monotonic(), "error", ""
        try:
            while True:
                if self.steer is not None:
                    self.steer.before_turn(self)
                self.budget.check(self.ledger, self.iterations, self.elapsed + time.monotonic() - started)
                self._step()
        except Stop as stop:
            status, reason = stop.status, str(stop)
        except BudgetExceeded as exc:
            status, reason = "budget", str(exc)
        except ProviderError as exc:
            status, reason = "provider-error", str(exc)
        except KeyboardInterrupt:
            status, reason = "interrupted", "interrupted (Ctrl-C)"
        except Exception as exc:
            status, reason = "error", f"{type(exc).__name__}: {exc}"
            self._event({"event": "crash", "traceback": traceback.format_exc()})
            raise
        finally:
            self.elapsed += time.monotonic() - started
            self.status = status
            self._event({"event": "stop", "status": status, "reason": reason})
            self._save(final=True)
        return self._outcome(status, reason)

    def _step(self) -> None:
        if self.provider is None:
            raise Halted("no model: this run is driven by hand or by an external agent")
        t0 = time.monotonic()
        on_delta = None
        if self.on_event is not None:
            sink = self.on_event
            on_delta = lambda d: sink({"event": "delta", **d})  # noqa: E731  (live views only, not saved)
        try:
            reply = self.provider.complete(self.system, compact(self.messages), self.toolbox.specs,
                                           max_tokens=MAX_REPLY_TOKENS, on_delta=on_delta)
        finally:
            self._save()
        self.iterations += 1
        cost = self.ledger.record(reply.usage, time.monotonic() - t0)
        self._append(reply.message, {"iteration": self.iterations, "usage": reply.usage.to_dict(),
                                     "cost": round(cost, 6), "stop_reason": reply.stop_reason})
        if not reply.tool_calls:
            cut = reply.stop_reason in ("max_tokens", "length")
            self._append(Message("user", render("nudge_cut.md" if cut else "nudge.md")))
            return
        for call in reply.tool_calls:
            reason = self.steer.review(call) if self.steer is not None else None
            if reason is not None:
                self._event({"event": "rejected", "name": call.name, "id": call.id,
                             "text": f"rejected {call.name}: {reason}"})
                self._append(Message("tool", f"not run: the user rejected this call: {reason}",
                                     tool_call_id=call.id, name=call.name, is_error=True))
                continue
            _, _, stop = self._run_call(call, "agent")
            if stop is not None:
                raise stop

    def _run_call(self, call: ToolCall, source: str) -> tuple[str, bool, Stop | None]:
        """Run one tool call and append its result; a ``finish`` or convergence comes back as the Stop."""
        self._event({"event": "tool_call", "name": call.name, "id": call.id,
                     **({"source": source} if source != "agent" else {})})
        try:
            text, is_error = self.toolbox.call(call)
        except Finish as done:
            self._append(Message("tool", "run finished", tool_call_id=call.id, name=call.name))
            return "run finished", False, Finished(done.summary)
        except SpeculaError as exc:
            text, is_error = clip(self.toolbox._short_paths(f"error: {exc}")), True
        except (KeyboardInterrupt, Stop):
            raise
        except Exception as exc:  # a bug behind a tool must not end the run silently
            self._event({"event": "tool_crash", "name": call.name, "traceback": traceback.format_exc()})
            text, is_error = f"internal error in {call.name}: {type(exc).__name__}: {exc}", True
        self._append(Message("tool", text, tool_call_id=call.id, name=call.name, is_error=is_error))
        if self.session.converged and self.status != "converged":
            return text, is_error, Converged(f"all phases pass (spec version {self.session.version})")
        return text, is_error, None

    def perform(self, call: ToolCall, source: str) -> tuple[str, bool]:
        """A tool call made outside the model loop (``source``: "user" at the workbench, "mcp" for an
        external agent), recorded as an assistant turn and its result. Reaching convergence or calling
        ``finish`` ends the run as it would end the loop (final/ written); later calls are still served."""
        self._append(Message("assistant", "", (call,)), {"source": source})
        text, is_error, stop = self._run_call(call, source)
        if stop is not None:
            self.status = stop.status
            self._event({"event": "stop", "status": stop.status, "reason": str(stop), "source": source})
            self._save(final=True)
        return text, is_error

    def record(self, event: dict[str, Any]) -> None:
        """A face's own event (an approval, a revert, a budget change) into the transcript and live views."""
        self._event(event)

    def save(self) -> None:
        """Write usage.json and state.json now (what a resume reads)."""
        self._save()

    def leave(self, reason: str, source: str) -> None:
        """A face leaves the run: one not stopped since it (re)started is stopped here, as
        "interrupted" (resumable) unless it converged or finished; final/ gets the best version so far."""
        if not self.stopped:
            if self.status not in ("converged", "finished"):
                self.status = "interrupted"
            self._event({"event": "stop", "status": self.status, "reason": reason, "source": source})
        self._save(final=True)

    def guide(self, text: str) -> None:
        """A message from the person steering the run, read by the model at its next turn."""
        self._append(Message("user", text), {"guidance": True})

    # -- persistence
    def _append(self, msg: Message, extra: dict[str, Any] | None = None) -> None:
        self.messages.append(msg)
        self._event({"event": "message", **(extra or {}), "message": msg.to_dict()})
        self._save()

    def _event(self, event: dict[str, Any]) -> None:
        if event.get("event") in ("stop", "resume"):
            self.stopped = event["event"] == "stop"
        self.session.run.append_transcript(event)
        if self.on_event is not None:
            self.on_event(event)

    def _save(self, final: bool = False) -> None:
        run, s = self.session.run, self.session
        run.write_json("usage.json", {**self.ledger.to_dict(), "iterations": self.iterations,
                                      "wall_seconds": round(self.elapsed, 3)})
        run.save_state({"format": FORMAT_VERSION, "status": self.status, "iterations": self.iterations,
                        "elapsed": self.elapsed, "system": self.system, "budget": self.budget.to_dict(),
                        "session": s.to_state(), "task": s.task.to_dict(),
                        "messages": [m.to_dict() for m in self.messages]})
        if final:
            version = s.best_version or (s.version or None)
            card = run.read_json(f"scorecard-{s.best_eval}.json") if s.best_eval else None
            run.finalize(s.task.spec_module, version, card, self._summary(version))

    def _summary(self, version: int | None) -> str:
        s = self.session
        lines = [f"# {s.task.name}: {self.status}", "",
                 f"- best spec version: {version if version else 'none written'}"
                 + ("" if s.best_version else " (never scored on all phases)" if version else ""),
                 f"- best overall score: {s.best_score:.3f}" if s.best_score >= 0 else "- best overall score: none",
                 f"- model calls: {self.iterations}; tokens: {self.ledger.usage.total}; "
                 f"cost: ${self.ledger.cost:.4f}; wall: {self.elapsed:.1f}s"]
        if s.best_eval:
            card = s.run.read_json(f"scorecard-{s.best_eval}.json")
            lines += ["", "## scores of the best version", ""]
            lines += [f"- {p}: {v:.3f}" + (f" (skipped: {card['phases'][p]['skipped']})"
                                             if card.get("phases", {}).get(p, {}).get("skipped") else "")
                      for p, v in card.get("scores", {}).items()]
            failing = [c for p in card.get("phases", {}).values() for c in
                       (p.get("detail") or {}).get("causes", [])]
            if failing:
                lines += ["", "## still failing", ""]
                lines += [f"- {c.get('action')}: {c.get('title')} ({c.get('count')} windows)" for c in failing[:10]]
        last = next((m for m in reversed(self.messages) if m.role == "assistant" and m.content), None)
        if last is not None:
            lines += ["", "## last words of the model", "", last.content[:2000]]
        return "\n".join(lines)

    def _outcome(self, status: str, reason: str) -> Outcome:
        s = self.session
        return Outcome(status, reason, self.iterations, s.best_score if s.best_score >= 0 else None,
                       s.best_version, round(self.ledger.cost, 6), self.ledger.usage.total, str(s.run.path))

    # -- resume
    @staticmethod
    def resume(state: dict[str, Any], provider: Provider | None, toolbox: Toolbox, ledger: Ledger,
               budget: Budget | None = None, on_event: Callable[[dict[str, Any]], None] | None = None) -> "Agent":
        messages = [Message.from_dict(m) for m in state.get("messages", [])]
        agent = Agent(provider, toolbox, budget or Budget.from_dict(state.get("budget", {})), ledger,
                      state.get("system", ""), messages, int(state.get("iterations", 0)),
                      float(state.get("elapsed", 0.0)), state.get("status", "new"), on_event)
        toolbox.s.restore(state.get("session", {}))
        agent._repair()
        agent._event({"event": "resume", "status": agent.status, "iterations": agent.iterations})
        return agent

    def _repair(self) -> None:
        """Answer tool calls left unanswered by an interruption, so the history is well formed."""
        answered = {m.tool_call_id for m in self.messages if m.role == "tool"}
        for i in range(len(self.messages) - 1, -1, -1):
            m = self.messages[i]
            if m.role == "assistant":
                missing = [c for c in m.tool_calls if c.id not in answered]
                for c in missing:
                    self.messages.append(Message("tool", "not run: the run was interrupted; call it again if needed",
                                                 tool_call_id=c.id, name=c.name, is_error=True))
                break


def compact(messages: list[Message], limit: int = CONTEXT_CHARS, keep: int = KEEP_RECENT) -> list[Message]:
    """The history as sent to the model: when it is longer than ``limit`` characters, old tool
    results shrink to their first lines and old spec texts in tool arguments to a pointer (the
    full history stays in state.json and the transcript). The first message (the task) and the
    last ``keep`` messages are always sent whole."""
    size = sum(len(m.content) + sum(len(c.raw) or len(str(c.arguments)) for c in m.tool_calls) for m in messages)
    if size <= limit:
        return list(messages)
    out = list(messages)
    for i in range(1, max(1, len(out) - keep)):
        m = out[i]
        if m.role == "tool" and len(m.content) > 400:
            head = "\n".join(m.content.splitlines()[:4])[:400]
            out[i] = Message("tool", head + "\n... (older result elided; run the tool again for details)",
                             tool_call_id=m.tool_call_id, name=m.name, is_error=m.is_error)
        elif m.role == "assistant" and m.tool_calls:
            calls = []
            for c in m.tool_calls:
                args = {k: (v if not isinstance(v, str) or len(v) <= 300 else
                            f"(elided {len(v)} characters; read_spec shows the current spec)")
                        for k, v in c.arguments.items()}
                calls.append(ToolCall(c.id, c.name, args, "" if not c.error else c.raw[:300], c.error))
            out[i] = Message("assistant", m.content[:2000], tuple(calls))
    return out


def initial_prompt(toolbox: Toolbox) -> str:
    """The task prompt: task fields, code map, trace summary, invariant templates."""
    t = toolbox.s.task

    def safe(fn: Callable[[], str], limit: int = 6000) -> str:
        try:
            return toolbox._short_paths(fn())[:limit]
        except (SpeculaError, ToolError) as exc:
            return f"(unavailable: {exc})"

    invariants = "(none given)"
    if t.invariants is not None and t.invariants.is_file():
        from specula.phases import load_templates

        invariants = "\n".join(f"- {x.name} ({x.type}): {x.natural_language}" for x in load_templates(t.invariants))
    return render(
        "task.md", name=t.name, description=t.description or "(no description)", module=t.spec_module,
        language=t.language or "?", system_type=t.system_type or "?",
        actions=", ".join(t.target_actions) or "(none given: model the steps the code takes)",
        files=", ".join(t.source_files) or "(see the code map)",
        focus="\n\n".join(x for x in (t.focus, t.guidance) if x) or "(none)",
        code_map=safe(lambda: toolbox.code_map(budget=1500)),
        traces=safe(lambda: toolbox.read_traces(limit=2)) if t.trace_paths() else "(no traces given)",
        invariants=invariants,
        mapping=safe(toolbox.read_mapping, 2500) if t.mapping else "(none: trace fields are spec variables)",
    )
