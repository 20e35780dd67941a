"""Text rendering of a scorecard on a rich console (the HTML report is in html.py)."""

from __future__ import annotations

from typing import Any

from specula.phases.scorecard import Scorecard

PHASE_NAMES = ("syntax", "runtime", "conformance", "invariants")


def render_scorecard(card: Scorecard, console: Any) -> None:
    """The four phases' scores and notes as a table, then the summary of every phase below 1."""
    from rich.table import Table

    table = Table(title=f"scorecard: {card.task or card.spec}")
    table.add_column("phase")
    table.add_column("score", justify="right")
    table.add_column("note")
    for name in PHASE_NAMES:
        ps = card.phases.get(name)
        note = "not run" if ps is None else (f"skipped: {ps.skipped}" if ps.skipped else (ps.summary.splitlines()[0] if ps.summary else ""))
        table.add_row(name, f"{card.score(name):.3f}", note)
        cov = card.meta.get("coverage") if name == "conformance" else None
        if cov:
            table.add_row("  coverage", "", cov.get("error") or (
                f"{cov['actions_covered']}/{cov['actions']} spec actions and {cov['branches_covered']}/"
                f"{cov['branches']} branches exercised by the {cov['windows']} scored windows"))
    table.add_row("[bold]overall[/]", f"[bold]{card.overall:.3f}[/]", "")
    console.print(table)
    for note in card.limit_notes():  # a pass by a limit is said plainly, also when the phase scored 1
        console.print(f"not exhaustive: {note}", markup=False)
    for name in PHASE_NAMES:
        ps = card.phases.get(name)
        if ps and not ps.skipped and ps.score < 1.0 and ps.summary:
            console.print(f"[bold]{name}[/]")
            console.print(ps.summary, markup=False)
