"""`specula code ...`: read a target repository (index, repo map, symbols, call edges, writes).

Every subcommand takes the repository and the same index options; ``repo_command`` declares
them once and hands the command the built index.
"""

from __future__ import annotations

import functools
import inspect
import sys
from typing import Any, Callable, Optional, get_type_hints

import typer

from specula.cli.app import code_app
from specula.cli.common import JsonOpt, console, print_json, progress_printer

_INDEX_PARAMS = [
    inspect.Parameter("repo", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=str,
                      default=typer.Argument(..., help="Repository: a directory, a git URL, or a bare repository.")),
]
_INDEX_OPTIONS = [
    inspect.Parameter("tests", inspect.Parameter.KEYWORD_ONLY, annotation=bool,
                      default=typer.Option(False, "--tests", help="Also index test code.")),
    inspect.Parameter("vendored", inspect.Parameter.KEYWORD_ONLY, annotation=bool,
                      default=typer.Option(False, "--vendored", help="Also index vendored and generated code.")),
    inspect.Parameter("include", inspect.Parameter.KEYWORD_ONLY, annotation=list[str],
                      default=typer.Option([], "--include", help="File or folder to index even if vendored/test/ignored (repeatable).")),
    inspect.Parameter("commit", inspect.Parameter.KEYWORD_ONLY, annotation=Optional[str],
                      default=typer.Option(None, "--commit", help="Revision to check out (git repositories).")),
]


def _index(repo: str, tests: bool, vendored: bool, commit: Optional[str], include: list[str]) -> Any:
    from specula.code import IndexOptions, index_repo

    opts = IndexOptions(include_tests=tests, include_vendored=vendored, include_generated=vendored,
                        always_include=tuple(include or ()))
    return index_repo(repo, opts, commit=commit, on_progress=progress_printer())  # on stderr, also with --json


def repo_command(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register a `code` subcommand whose first parameter ``ix`` receives the repository's index.

    The command's own parameters follow REPO; --tests/--vendored/--include/--commit are added.
    """

    def deco(fn: Callable[..., None]) -> Callable[..., None]:
        own = [p for p in inspect.signature(fn).parameters.values() if p.name != "ix"]
        hints = {k: v for k, v in get_type_hints(fn).items() if k not in ("ix", "return")}

        @functools.wraps(fn)
        def wrapper(**kw: Any) -> None:
            opts = {p.name: kw.pop(p.name) for p in _INDEX_PARAMS + _INDEX_OPTIONS}
            fn(_index(opts["repo"], opts["tests"], opts["vendored"], opts["commit"], opts["include"]), **kw)

        params = _INDEX_PARAMS + [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own] + _INDEX_OPTIONS
        wrapper.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        wrapper.__annotations__ = {**{p.name: p.annotation for p in _INDEX_PARAMS + _INDEX_OPTIONS}, **hints}
        del wrapper.__wrapped__  # typer must read the new signature, not the wrapped one
        return code_app.command(name)(wrapper)

    return deco


def _out(result: Any, json_out: bool, found: bool = True) -> None:
    if json_out:
        print_json(result.to_dict())
    else:
        sys.stdout.write(result.render() + "\n")
    raise typer.Exit(0 if found else 1)


@repo_command("index")
def code_index(ix: Any, symbols: bool = typer.Option(False, "--symbols", help="With --json: also every symbol."),
               json_out: bool = JsonOpt) -> None:
    """Index a repository (functions, types, fields, globals, calls, writes); cached by content hash."""
    summary = ix.summary()
    if json_out:
        if symbols:
            summary["symbol_list"] = [s.to_dict() for s in ix.symbols]
        print_json(summary)
        raise typer.Exit(0)
    st = summary["stats"]
    con = console()
    con.print(f"{summary['root']}: {summary['files']} files {summary['languages']} in {st['seconds']:.2f}s "
              f"({st['parsed']} parsed, {st['cached']} from cache, {st['workers']} worker(s))")
    con.print("symbols: " + ", ".join(f"{k} {v}" for k, v in summary["symbols"].items()))
    con.print(f"calls {summary['calls']}, writes {summary['writes']}; skipped {st['skipped'] or 'nothing'}")
    if summary["files_with_syntax_errors"]:
        con.print(f"{len(summary['files_with_syntax_errors'])} file(s) with syntax errors (kept what parsed): "
                  + ", ".join(summary["files_with_syntax_errors"][:8]))
    raise typer.Exit(0)


@repo_command("map")
def code_map(ix: Any,
             focus: str = typer.Option("", "--focus", help="Task text to rank by."),
             budget: int = typer.Option(4000, "--budget", min=1, help="Approximate token budget."),
             name: list[str] = typer.Option([], "--name", help="Identifier to favour (repeatable)."),
             file: list[str] = typer.Option([], "--file", help="File to favour (repeatable)."),
             json_out: bool = JsonOpt) -> None:
    """Ranked repo map for a focus: signatures with elided bodies, fitted to a token budget."""
    from specula.code import repo_map

    _out(repo_map(ix, focus, budget, names=name, files=file), json_out)


@repo_command("show")
def code_show(ix: Any, symbol: str = typer.Argument(..., help="Name, Type.name or file:name."),
              max_lines: int = typer.Option(250, "--max-lines"), json_out: bool = JsonOpt) -> None:
    """Show a symbol's source with line numbers."""
    from specula.code import show_symbol

    _out(show_symbol(ix, symbol, max_lines=max_lines), json_out)


@repo_command("search")
def code_search(ix: Any, pattern: str = typer.Argument(...),
                symbol: bool = typer.Option(False, "--symbol", help="Search symbol names instead of lines."),
                literal: bool = typer.Option(False, "--literal", help="Pattern is plain text, not a regex."),
                ignore_case: bool = typer.Option(False, "-i", "--ignore-case"),
                path: str = typer.Option("", "--path", help="Only under this folder or file."),
                json_out: bool = JsonOpt) -> None:
    """Search code lines by regex, or symbols by name (--symbol). Exit 1 when nothing matches."""
    from specula.code import find_symbols, search_code

    if symbol:
        found = find_symbols(ix, pattern)
        _out(found, json_out, bool(found.symbols))
    res = search_code(ix, pattern, regex=not literal, ignore_case=ignore_case, path=path)
    _out(res, json_out, bool(res.matches))


@repo_command("symbols")
def code_symbols(ix: Any, file: str = typer.Argument(..., help="File path (a unique suffix works)."),
                 json_out: bool = JsonOpt) -> None:
    """List a file's symbols."""
    from specula.code import file_symbols

    _out(file_symbols(ix, file), json_out)


@repo_command("callers")
def code_callers(ix: Any, name: str = typer.Argument(...), json_out: bool = JsonOpt) -> None:
    """Who calls NAME (by name; also uses as a function value)."""
    from specula.code import callers

    res = callers(ix, name)
    _out(res, json_out, bool(res.calls))


@repo_command("callees")
def code_callees(ix: Any, name: str = typer.Argument(...), json_out: bool = JsonOpt) -> None:
    """What function NAME calls, with where each callee is defined."""
    from specula.code import callees

    _out(callees(ix, name), json_out)


@repo_command("fields")
def code_fields(ix: Any, type_name: str = typer.Argument(..., metavar="TYPE"), json_out: bool = JsonOpt) -> None:
    """The fields of a type and where each is written."""
    from specula.code import type_fields

    _out(type_fields(ix, type_name), json_out)


@repo_command("effects")
def code_effects(ix: Any, function: str = typer.Argument(...),
                 depth: int = typer.Option(1, "--depth", help="Also the writes of callees this deep."),
                 json_out: bool = JsonOpt) -> None:
    """What a function writes (fields, globals), with its unambiguous callees' writes."""
    from specula.code import effects

    _out(effects(ix, function, depth=depth), json_out)


@repo_command("writes")
def code_writes(ix: Any, name: str = typer.Argument(..., help="field, Type.field or function.local"),
                json_out: bool = JsonOpt) -> None:
    """Where a field or variable is assigned or mutated."""
    from specula.code import writes_to

    res = writes_to(ix, name)
    _out(res, json_out, bool(res.writes))
