"""The root typer application and its command groups; command modules register on them."""

from __future__ import annotations

import typer

from specula import __version__

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
