"""Rich rendering of a conformance result (the ``specula validate`` screen)."""

from __future__ import annotations

from typing import Any

__all__ = ["render_conformance"]


def render_conformance(res: Any, console: Any) -> None:
    from rich.table import Table

    table = Table(title=f"conformance: score {res.score:.3f} — {res.passed}/{res.total} windows pass")
    table.add_column("action")
    table.add_column("windows", justify="right")
    table.add_column("pass", justify="right")
    table.add_column("rate", justify="right")
    table.add_column("leaderboard")
    for a in res.actions:
        if not a.total:
            table.add_row(a.action, "0", "-", "-", "[yellow]no windows (excluded)[/]")
            continue
        lb = "[green]1[/]" if a.leaderboard else "[red]0[/]"
        table.add_row(a.action, str(a.total), str(a.passed), f"{a.rate:.1%}", lb)
    console.print(table)
    if not res.total:
        console.print("[yellow]no windows to validate (check --actions, the mapping's action names, and the files)[/]")
    if res.causes:
        console.print("[bold]Failure causes[/] (failing windows grouped by cause)")
        for c in res.causes:
            where = f" [dim]{c.location}[/]" if c.location else ""
            console.print(f"[red]✗[/] {c.action}: {_esc(c.title)}{where} — {c.count} window{'s' if c.count != 1 else ''}")
            for k, v in list(c.detail.items())[:8]:
                console.print(f"    {_esc(str(k))} = {_esc(str(v))}")
            if c.sources:
                console.print(f"    [dim]e.g. {_esc(c.sources[0])}[/]")
    for t in res.traces:
        mark = "[green]✓[/]" if t.ok else "[red]✗[/]"
        console.print(f"{mark} trace {_esc(t.trace_id)}: {_esc(t.message)}")
    if res.no_windows:
        console.print(f"[yellow]target actions with no windows (excluded from the score):[/] {', '.join(res.no_windows)}")
    if res.unexercised:
        console.print(f"[dim]spec actions no window exercises: {', '.join(res.unexercised)}[/]")
    relax = getattr(res, "relaxations", None) or []
    if relax:
        head = "relaxations refused (--strict)" if getattr(res, "strict", False) else "relaxations that applied"
        console.print(f"[bold]{head}[/] (abstractions weaker than exact):")
        for r in relax[:12]:
            subj = f" {r['subject']}" if r["subject"] else ""
            console.print(f"  [yellow]{r['strength']}[/] {r['kind']}{_esc(subj)}: {_esc(r['meaning'])} ({r['windows']} windows)")
    elif res.total:
        console.print("[green]every window checked exactly[/] (no relaxation applied)")
    if res.choices:
        console.print("[dim]binding choices:[/]")
        for k, n in list(res.choices.items())[:10]:
            console.print(f"[dim]  {_esc(k)} ({n} windows)[/]")
    for i in res.issues:
        if i.severity == "warning":
            console.print(f"[dim]{_esc((i.path + ': ') if i.path else '')}{_esc(i.message)}[/]")
    errs = [i for i in res.issues if i.severity == "error"]
    for i in errs[:10]:
        console.print(f"[yellow]{_esc(i.location())}: {_esc(i.message)}[/]")
    if len(errs) > 10:
        console.print(f"[yellow]... {len(errs) - 10} more unreadable lines[/]")


def _esc(s: str) -> str:
    from rich.markup import escape

    return escape(s)
