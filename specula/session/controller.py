"""What ``specula session`` does, without the screen: one run directory, the agent (with a model,
or none: the manual workbench), and the person's commands — run a phase, edit a definition,
guide the agent, pause and resume, approve or reject each spec edit, revert to version N, change
the budget. The textual app is a view over this; tests drive it directly or through the app.

Every action goes through ``Agent.perform`` (source "user") or the loop's ``Steering`` hooks, so
it lands in the same transcript and state.json as a ``specula model`` run, and either face can
continue the other's run. While the agent runs, the person's actions wait for its next turn (the
conversation must not interleave); while it is paused or absent they run at once.
"""

from __future__ import annotations

import queue
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from specula.agent.ledger import parse_budget
from specula.agent.loop import Agent, Halted, Outcome
from specula.agent.messages import ToolCall
from specula.errors import InputError

__all__ = ["Controller", "Pending", "EDIT_TOOLS", "parse_command", "COMMANDS"]

EDIT_TOOLS = ("write_spec", "edit_definition")
COMMANDS = {
    "run": "run [1|2|3|4|all] — score the current spec (default all)",
    "edit": "edit NAME [== TEXT] — replace or add a definition (without TEXT: open the editor)",
    "guide": "guide TEXT — a message the agent reads at its next turn",
    "agent": "agent — start (or continue) the agent",
    "pause": "pause — the agent stops before its next turn",
    "resume": "resume — the agent continues",
    "stop": "stop — end the agent's run (resumable)",
    "confirm": "confirm on|off — ask before each spec edit of the agent",
    "approve": "approve — run the edit the agent is waiting on",
    "reject": "reject [REASON] — refuse that edit; the agent gets the reason",
    "revert": "revert N — make spec version N the current spec (a new version)",
    "budget": "budget tokens=..,dollars=..,iterations=..,time=.. — change the agent's budget",
    "window": "window ACTION [N] — show failing window N of an action",
    "cex": "cex INVARIANT — show an invariant's counterexample",
    "check": "check [MAX_STATES] — model-check the current spec under limits",
    "validate": "validate [ACTION] — validate the traces against the current spec",
    "version": "version N — show spec version N and its diff",
    "help": "help — list commands",
    "quit": "quit — leave (the run directory keeps everything)",
}


def parse_command(line: str) -> tuple[str, str]:
    """``"edit Foo == x"`` -> ("edit", "Foo == x"); an unknown word raises InputError."""
    line = line.strip()
    word, _, rest = line.partition(" ")
    word = word.lower()
    if word not in COMMANDS:
        raise InputError(f"unknown command {word!r}; commands: {', '.join(COMMANDS)}")
    return word, rest.strip()


@dataclass
class Pending:
    """An edit of the agent waiting for approval."""

    call: ToolCall
    decided: threading.Event = field(default_factory=threading.Event)
    reason: str | None = None  # None: approved


@dataclass
class Controller:
    agent: Agent
    on_event: Callable[[dict[str, Any]], None] | None = None  # the view's sink (called from worker threads)
    confirm: bool = False
    pending: Pending | None = None
    outcome: Outcome | None = None
    _paused: threading.Event = field(default_factory=threading.Event)  # set = paused
    _stop: bool = False
    _queue: "queue.Queue[Callable[[], None]]" = field(default_factory=queue.Queue)
    _thread: threading.Thread | None = None
    _lock: threading.RLock = field(default_factory=threading.RLock)  # one action on the run at a time

    def __post_init__(self) -> None:
        self.agent.steer = self

    # -- state
    @property
    def has_model(self) -> bool:
        return self.agent.provider is not None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def paused(self) -> bool:
        return self._paused.is_set()

    def _emit(self, e: dict[str, Any]) -> None:
        if self.on_event is not None:
            self.on_event(e)

    def _note(self, text: str, kind: str = "note") -> None:
        self.agent.record({"event": kind, "text": text})

    # -- Steering (called by the agent's thread)
    def before_turn(self, agent: Agent) -> None:
        while True:
            self._drain()
            if self._stop:
                self._stop = False
                raise Halted("stopped by the user")
            if not self._paused.is_set():
                return
            try:
                self._queue.get(timeout=0.1)()
            except queue.Empty:
                pass

    def review(self, call: ToolCall) -> str | None:
        if not self.confirm or call.name not in EDIT_TOOLS:
            return None
        p = Pending(call)
        self.pending = p
        self._emit({"event": "approval", "name": call.name, "arguments": call.arguments, "id": call.id})
        while not p.decided.wait(0.1):
            if self._stop:
                p.reason = "the user stopped the run"
                break
        self.pending = None
        if p.reason is None:
            self.agent.record({"event": "approved", "name": call.name, "id": call.id, "text": f"approved {call.name}"})
        return p.reason

    def _drain(self) -> None:
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                return
            job()

    def _submit(self, job: Callable[[], None]) -> None:
        """Run now when the agent is not mid-turn, else at its next turn."""
        if self.running and not self.paused:
            self._queue.put(job)
            self._emit({"event": "queued"})
        elif self.running:  # paused: the agent's thread runs it while it waits
            self._queue.put(job)
        else:
            with self._lock:
                job()

    # -- the person's actions (blocking when nothing runs; call them off the UI thread)
    def tool(self, name: str, arguments: dict[str, Any]) -> None:
        def job() -> None:
            n = len(self.agent.messages) + 1
            text, is_error = self.agent.perform(ToolCall(f"user-{n:04d}", name, arguments), "user")
            self._emit({"event": "user_result", "name": name, "text": text, "is_error": is_error})

        self._submit(job)

    def run_phase(self, phase: str = "all") -> None:
        self.tool("run_phase", {"phase": phase or "all"})

    def edit(self, name: str, text: str) -> None:
        self.tool("edit_definition", {"name": name, "text": text})

    def write(self, tla: str, cfg: str) -> None:
        self.tool("write_spec", {"tla": tla, "cfg": cfg})

    def revert(self, version: int) -> None:
        run, module = self.agent.session.run, self.agent.session.task.spec_module
        if not 1 <= version <= self.agent.session.version:
            raise InputError(f"no spec version {version} (versions 1..{self.agent.session.version})")
        d = run.spec_dir(version)
        tla, cfg = (d / f"{module}.tla").read_text(encoding="utf-8"), (d / f"{module}.cfg").read_text(encoding="utf-8")

        def job() -> None:
            self._note(f"revert to spec version {version}", "revert")
        self._submit(job)
        self.write(tla, cfg)

    def guide(self, text: str) -> None:
        self._submit(lambda: self.agent.guide(text))

    def set_budget(self, text: str) -> None:
        budget = parse_budget(text, self.agent.budget)  # a bad budget raises here, on the caller's side

        def job() -> None:
            self.agent.budget = budget
            self._note("budget: " + ", ".join(f"{k}={v}" for k, v in budget.to_dict().items() if v is not None),
                       "budget")
            self.agent.save()
        self._submit(job)

    def approve(self) -> bool:
        p = self.pending
        if p is None:
            return False
        p.reason = None
        p.decided.set()
        return True

    def reject(self, reason: str = "") -> bool:
        p = self.pending
        if p is None:
            return False
        p.reason = reason or "rejected"
        p.decided.set()
        return True

    def pause(self) -> None:
        self._paused.set()
        self._emit({"event": "paused"})

    def resume(self) -> None:
        self._paused.clear()
        self._emit({"event": "resumed"})

    def stop(self) -> None:
        self._stop = True
        self._paused.clear()

    def start_agent(self) -> None:
        """Run the agent in a background thread until it stops (converged, budget, stop...)."""
        if not self.has_model:
            raise InputError("no model: give --model (and its API key) to run the agent; without one the "
                             "session is a manual workbench")
        if self.running:
            return
        self._stop = False
        if self.agent.status in ("converged", "finished", "budget", "interrupted", "provider-error", "error"):
            self.agent.status = "running"  # continue: the loop's own check would end at once

        def work() -> None:
            with self._lock:
                self.outcome = self.agent.run()
            self._emit({"event": "agent_done", "outcome": self.outcome.to_dict()})

        self._thread = threading.Thread(target=work, name="specula-agent", daemon=True)
        self._thread.start()

    def wait(self, timeout: float | None = None) -> Outcome | None:
        if self._thread is not None:
            self._thread.join(timeout)
        return self.outcome

    def close(self) -> None:
        """Leave: stop the agent if it runs, then save (final/ as a stopped run keeps it)."""
        if self.running:
            self.stop()
            self.wait(30)
        with self._lock:
            self.agent.leave("the session was closed", "user")

    # -- reading (for the view)
    def version_text(self, version: int) -> tuple[str, str]:
        s = self.agent.session
        d = s.run.spec_dir(version)
        try:
            return ((d / f"{s.task.spec_module}.tla").read_text(encoding="utf-8"),
                    (d / f"{s.task.spec_module}.cfg").read_text(encoding="utf-8"))
        except OSError:
            raise InputError(f"no spec version {version}") from None

    def definition(self, name: str) -> str:
        from specula.agent import specedit

        d = specedit.find_definition(self.agent.session.tla, name) if self.agent.session.tla else None
        return d.text if d is not None else f"{name} ==\n    TRUE"


def mutant_spec(task: Any, name: str) -> tuple[str, str]:
    """A bundled task's mutant (by name) as text with the task's module name, and the reference cfg.
    For the person at the workbench only: the agent never sees mutants."""
    bt = task  # the one Task: its mutants are listed with it
    base = Path(bt.dir)
    names = {Path(m["spec"]).stem: base / m["spec"] for m in bt.mutants if "spec" in m}
    if name not in names:
        raise InputError(f"task {task.name} has no mutant {name!r}; mutants: {', '.join(names) or 'none'}")
    text = names[name].read_text(encoding="utf-8")
    text = re.sub(r"^(-+\s*MODULE\s+)\w+", lambda m: m.group(1) + task.spec_module, text, count=1, flags=re.M)
    cfg_path = bt.reference_cfg or names[name].with_suffix(".cfg")
    cfg = Path(cfg_path).read_text(encoding="utf-8") if cfg_path and Path(cfg_path).is_file() else ""
    return text, cfg
