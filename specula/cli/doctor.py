"""`specula doctor`: what this machine offers specula."""

from __future__ import annotations

import typer

from specula import __version__
from specula.cli.app import app
from specula.cli.common import JsonOpt, console, print_json


@app.command()
def doctor(json_out: bool = JsonOpt) -> None:
    """Report what this machine offers specula (grammars, Java/TLC, LLM keys, extras)."""
    from specula.doctor import diagnose

    report = diagnose()
    if json_out:
        print_json(report.to_dict())
    else:
        from rich.table import Table

        table = Table(title=f"specula {__version__} doctor")
        table.add_column("check")
        table.add_column("status")
        table.add_column("detail")
        for c in report.checks:
            table.add_row(c.name, "[green]ok[/]" if c.ok else "[yellow]missing[/]", c.detail)
        console().print(table)
    raise typer.Exit(0 if report.ok else 1)
