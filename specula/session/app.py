"""The ``specula session`` screen (textual): the agent's text and tool calls streamed live on the
left; on the right the spec (with its diff against the previous version), the scorecard with
per-action window bars, failing windows and invariant counterexamples to browse, and an editor;
a command line at the bottom (``help`` lists the commands). A view over ``Controller``: every
action the screen takes is the controller's, so it is saved in the run directory."""

from __future__ import annotations

import threading
from typing import Any

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Footer, Header, Input, RichLog, Static, TabbedContent, TabPane, TextArea

from specula.errors import SpeculaError
from specula.agent.liveview import LiveState, compact_args
from specula.timeline.render import spec_diff
from specula.session.controller import COMMANDS, Controller, parse_command

__all__ = ["SessionApp"]

PHASES = ("syntax", "runtime", "conformance", "invariants")


def _bar(passed: int, total: int, width: int = 24) -> Text:
    full = round(width * passed / total) if total else 0
    t = Text()
    t.append("█" * full, style="green")
    t.append("░" * (width - full), style="red" if passed < total else "green")
    return t


class SessionApp(App[None]):
    TITLE = "specula session"
    CSS = """
    #left { width: 45%; }
    #log { height: 1fr; border: round $primary; }
    #right { width: 55%; }
    #status { height: auto; max-height: 3; background: $boost; padding: 0 1; }
    #stream { height: auto; max-height: 6; color: $text-muted; padding: 0 1; }
    #cmd { dock: bottom; }
    #editor { height: 1fr; }
    .pane-scroll { height: 1fr; }
    #window-detail, #cex-detail { height: auto; }
    """
    BINDINGS = [Binding("ctrl+s", "save_edit", "save edit"), Binding("ctrl+p", "toggle_pause", "pause/resume"),
                Binding("ctrl+q", "quit", "quit")]

    def __init__(self, controller: Controller, start_agent: bool = False) -> None:
        super().__init__()
        self.ctl = controller
        self.start_agent = start_agent
        a = controller.agent
        self.live = LiveState.of(a, str(a.provider.model if a.provider else "manual workbench"))
        self.live.status = a.status
        self.shown_version = a.session.version
        self.editing: str | None = None
        self.messages: list[str] = []  # what the log showed, for tests and tmux captures alike

    # -- layout
    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal():
            with Vertical(id="left"):
                yield RichLog(id="log", wrap=True, markup=False, highlight=False)
                yield Static(id="stream")
            with TabbedContent(id="right"):
                with TabPane("Spec", id="tab-spec"):
                    with VerticalScroll(classes="pane-scroll"):
                        yield Static(id="spec")
                with TabPane("Scorecard", id="tab-card"):
                    with VerticalScroll(classes="pane-scroll"):
                        yield Static(id="card")
                with TabPane("Windows", id="tab-windows"):
                    yield DataTable(id="windows", cursor_type="row")
                    with VerticalScroll(classes="pane-scroll"):
                        yield Static(id="window-detail")
                with TabPane("Invariants", id="tab-inv"):
                    yield DataTable(id="invariants", cursor_type="row")
                    with VerticalScroll(classes="pane-scroll"):
                        yield Static(id="cex-detail")
                with TabPane("Edit", id="tab-edit"):
                    yield Static("edit NAME opens a definition here; ctrl+s saves it as a new spec version",
                                 id="edit-head")
                    yield TextArea(id="editor", language=None)
        yield Static(id="status")
        yield Input(placeholder="command (help lists them): run all | edit NAME == ... | guide ... | agent | reject ...",
                    id="cmd")
        yield Footer()

    def on_mount(self) -> None:
        self._ui_thread = threading.get_ident()
        self.ctl.on_event = self._sink
        self.query_one("#windows", DataTable).add_columns("action", "n", "window", "cause")
        self.query_one("#invariants", DataTable).add_columns("invariant", "type", "status")
        run = self.ctl.agent.session.run.path
        self.say("note", f"run directory {run}")
        self.say("note", "model: " + (self.live.model if self.ctl.has_model else
                                      "none — manual workbench (give --model or set its API key for the agent)"))
        self.refresh_all()
        self.query_one("#cmd", Input).focus()
        if self.start_agent and self.ctl.has_model:
            self.ctl.start_agent()
            self.say("note", "agent started")

    # -- output
    def say(self, kind: str, text: str) -> None:
        style = {"call": "cyan", "result": "dim", "error": "red", "cost": "yellow", "score": "green",
                 "guidance": "magenta", "note": "bold blue", "approval": "bold yellow", "stop": "bold"}.get(kind, "")
        log = self.query_one("#log", RichLog)
        for line in text.splitlines() or [""]:
            self.messages.append(line)
            log.write(Text(line, style=style))

    def _sink(self, e: dict[str, Any]) -> None:
        """Events arrive from the agent's and the workers' threads, and from the UI's own."""
        if threading.get_ident() == self._ui_thread:
            self._on_event(e)
        else:
            self.call_from_thread(self._on_event, e)

    def _on_event(self, e: dict[str, Any]) -> None:
        kind = e.get("event")
        before = len(self.live.log)
        self.live.on_event(e)
        for k, text in list(self.live.log)[before:]:
            self.say(k, text)
        if kind == "delta":
            self._status()
            return
        if kind == "approval":
            self.say("approval", f"the agent wants to {e.get('name')}({compact_args(e.get('arguments') or {})}) — "
                                 "'approve' or 'reject REASON'")
            if e.get("name") == "edit_definition":
                args = e.get("arguments") or {}
                self.say("approval", str(args.get("text", ""))[:1200])
        elif kind == "user_result":  # its first line is already in the log (the tool message)
            rest = "\n".join(str(e.get("text") or "").splitlines()[1:])
            if rest.strip():
                self.say("error" if e.get("is_error") else "result", rest[:3000])
        elif kind == "agent_done":
            out = e.get("outcome") or {}
            self.say("stop", f"agent: {out.get('status')} — {out.get('reason')}")
        elif kind == "queued":
            self.say("note", "queued: runs at the agent's next turn")
        elif kind in ("paused", "resumed"):
            self.say("note", kind)
        self.refresh_all()

    def _status(self) -> None:
        c = self.ctl
        s = self.live
        state = ("agent running" + (" (paused)" if c.paused else "")) if c.running else (
            f"agent {c.agent.status}" if c.has_model else "manual workbench")
        pend = f"   waiting for approval: {c.pending.call.name}" if c.pending is not None else ""
        conf = "   confirm mode" if c.confirm else ""
        self.query_one("#status", Static).update(
            f"{state}{conf}{pend}\nspec v{c.agent.session.version}   {s.budget_line()}")
        # the reply being streamed, as it arrives (the log gets it whole when it is complete)
        self.query_one("#stream", Static).update(Text("\n".join(s.streaming.strip().splitlines()[-5:]), style="italic"))

    def refresh_all(self) -> None:
        self._status()
        self._spec()
        self._card()

    def _spec(self) -> None:
        v = self.shown_version if self.shown_version else self.ctl.agent.session.version
        widget = self.query_one("#spec", Static)
        if not v:
            widget.update("no spec yet (write_spec, or open the session with --spec / --mutant)")
            return
        tla, cfg = self.ctl.version_text(v)
        out = Text()
        out.append(f"version {v} of {self.ctl.agent.session.version}\n", style="bold")
        for i, line in enumerate(tla.splitlines(), 1):
            out.append(f"{i:>4}  {line}\n")
        out.append(f"--- cfg\n{cfg}\n")
        if v > 1:
            prev, prev_cfg = self.ctl.version_text(v - 1)
            out.append(f"\ndiff against version {v - 1}\n", style="bold")
            for line in spec_diff(prev, tla, f"v{v - 1}", f"v{v}") + spec_diff(prev_cfg, cfg, f"v{v - 1}.cfg", f"v{v}.cfg"):
                style = "green" if line.startswith("+") else "red" if line.startswith("-") else "magenta" if line.startswith("@@") else ""
                out.append(line + "\n", style=style)
        widget.update(out)

    def _card(self) -> None:
        ev = self.ctl.agent.session.last
        widget = self.query_one("#card", Static)
        if ev is None:
            widget.update("not scored yet: 'run all'")
            return
        t = Table(title=f"scorecard {self.ctl.agent.session.evaluations} (spec v{ev.card.to_dict().get('version', '') or self.ctl.agent.session.version})")
        t.add_column("phase")
        t.add_column("score", justify="right")
        t.add_column("note")
        for p in PHASES:
            ps = ev.card.phases.get(p)
            if ps is None:
                continue
            t.add_row(p, f"{ps.score:.3f}", f"skipped: {ps.skipped}" if ps.skipped else "")
        bars = Table(title="conformance windows per action")
        bars.add_column("action")
        bars.add_column("windows")
        bars.add_column("pass", justify="right")
        conf = ev.detail("conformance")
        for a in conf.get("actions", []):
            total, passed = int(a.get("total") or 0), int(a.get("passed") or 0)
            bars.add_row(a.get("action", "?"), _bar(passed, total) if total else Text("no windows", style="yellow"),
                         f"{passed}/{total}")
        from rich.console import Group

        overall = f"overall {ev.overall:.3f}" + ("   ALL PHASES PASS" if self.ctl.agent.session.converged else "")
        widget.update(Group(Text(overall, style="bold green" if self.ctl.agent.session.converged else "bold"), t, bars))
        wt = self.query_one("#windows", DataTable)
        wt.clear()
        counts: dict[str, int] = {}
        for w in conf.get("windows", []):
            if w.get("ok"):
                continue
            n = counts.get(w.get("action", ""), 0)
            counts[w.get("action", "")] = n + 1
            if n < 50:
                wt.add_row(w.get("action", "?"), str(n), str(w.get("id")), str(w.get("cause", ""))[:80],
                           key=f"{w.get('action')}|{n}")
        it = self.query_one("#invariants", DataTable)
        it.clear()
        for r in ev.detail("invariants").get("rows", []):
            it.add_row(r.get("name", "?"), r.get("type", ""), r.get("status", ""), key=r.get("name", "?"))

    # -- browsing (read-only tools, not recorded)
    @on(DataTable.RowSelected, "#windows")
    def _window_selected(self, event: DataTable.RowSelected) -> None:
        action, n = str(event.row_key.value).split("|")
        text, _ = self.ctl.agent.toolbox.invoke("show_window", {"action": action, "n": int(n)})
        self.query_one("#window-detail", Static).update(Text(text))

    @on(DataTable.RowSelected, "#invariants")
    def _inv_selected(self, event: DataTable.RowSelected) -> None:
        text, _ = self.ctl.agent.toolbox.invoke("show_counterexample", {"invariant": str(event.row_key.value)})
        self.query_one("#cex-detail", Static).update(Text(text))

    # -- commands
    @on(Input.Submitted, "#cmd")
    def _submitted(self, event: Input.Submitted) -> None:
        line = event.value.strip()
        event.input.value = ""
        if not line:
            return
        self.say("note", f"> {line}")
        try:
            self.command(line)
        except SpeculaError as exc:
            self.say("error", str(exc))

    def command(self, line: str) -> None:
        word, rest = parse_command(line)
        c = self.ctl
        if word == "help":
            for text in COMMANDS.values():
                self.say("note", "  " + text)
        elif word == "quit":
            self.exit()
        elif word == "run":
            self._background(lambda: c.run_phase(rest or "all"))
        elif word == "edit":
            name, eq, text = rest.partition("==")
            name = name.strip()
            if not name:
                raise SpeculaError("edit NAME [== TEXT]")
            if eq:
                head = name.split("(")[0].strip()
                self._background(lambda: c.edit(head, f"{name} =={text}"))
            else:
                self.editing = name.split("(")[0]
                self.query_one("#edit-head", Static).update(f"editing {self.editing} — ctrl+s saves")
                self.query_one("#editor", TextArea).text = c.definition(self.editing)
                self.query_one("#right", TabbedContent).active = "tab-edit"
                self.query_one("#editor", TextArea).focus()
        elif word == "guide":
            c.guide(rest)
            self.say("guidance", f"guidance for the agent's next turn: {rest}")
        elif word == "agent":
            c.start_agent()
            self.say("note", "agent started")
        elif word == "pause":
            c.pause()
        elif word == "resume":
            c.resume()
        elif word == "stop":
            c.stop()
        elif word == "confirm":
            c.confirm = rest.strip().lower() not in ("off", "no", "false", "0")
            self.say("note", f"confirm mode {'on' if c.confirm else 'off'}")
        elif word == "approve":
            self.say("note", "approved" if c.approve() else "nothing waits for approval")
        elif word == "reject":
            self.say("note", "rejected" if c.reject(rest) else "nothing waits for approval")
        elif word == "revert":
            c.revert(_int(rest, "revert N"))
            self.shown_version = 0
        elif word == "budget":
            c.set_budget(rest)
            self.live.budget = c.agent.budget.to_dict()  # the view shows the new limits at once
        elif word == "window":
            parts = rest.split()
            if not parts:
                raise SpeculaError("window ACTION [N]")
            text, _ = c.agent.toolbox.invoke("show_window", {"action": parts[0], "n": _int(parts[1], "N") if len(parts) > 1 else 0})
            self.say("result", text)
        elif word == "cex":
            text, _ = c.agent.toolbox.invoke("show_counterexample", {"invariant": rest})
            self.say("result", text)
        elif word == "check":
            args = {"max_states": _int(rest, "check [MAX_STATES]")} if rest else {}
            self._background(lambda: c.tool("check_spec", args))
        elif word == "validate":
            self._background(lambda: c.tool("validate_traces", {"action": rest} if rest else {}))
        elif word == "version":
            v = _int(rest, "version N")
            c.version_text(v)
            self.shown_version = v
            self.query_one("#right", TabbedContent).active = "tab-spec"
        self.refresh_all()

    @work(thread=True, exclusive=False)
    def _background(self, job: Any) -> None:
        try:
            job()
        except SpeculaError as exc:
            self.call_from_thread(self.say, "error", str(exc))
        self.call_from_thread(self.refresh_all)

    def action_save_edit(self) -> None:
        if self.editing is None:
            return
        name, text = self.editing, self.query_one("#editor", TextArea).text
        self.editing = None
        self.query_one("#edit-head", Static).update(f"saved {name}; edit NAME opens another definition")
        self.shown_version = 0
        self._background(lambda: self.ctl.edit(name, text))
        self.query_one("#cmd", Input).focus()

    def action_toggle_pause(self) -> None:
        (self.ctl.resume if self.ctl.paused else self.ctl.pause)()

    async def action_quit(self) -> None:
        self.exit()


def _int(text: str, usage: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise SpeculaError(f"usage: {usage}") from None
