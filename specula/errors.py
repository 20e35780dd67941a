"""The one errors module: every exception specula's library raises.

Exceptions carry data (paths, spans, line numbers), not formatted text; only
``specula.cli`` turns them into messages and exit codes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from specula.diagnostics import Diagnostic

__all__ = [
    "SpeculaError",
    "InputError",
    "ConfigError",
    "SpecError",
    "TraceError",
    "HarnessError",
    "EvalError",
    "ProviderError",
    "BudgetExceeded",
    "CodeError",
    "Interrupted",
    "WorkerError",
]


class SpeculaError(Exception):
    """Base of every error specula raises on purpose."""

    exit_code = 2

    def diagnostics(self) -> list["Diagnostic"]:
        from specula.diagnostics import Diagnostic

        return [Diagnostic(severity="error", code=self.code(), message=str(self))]

    def code(self) -> str:
        return "E000"


class InputError(SpeculaError):
    """A file or argument the user gave is missing or unusable."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None, *, col: int | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.line = line
        self.col = col

    def diagnostics(self) -> list["Diagnostic"]:
        from specula.diagnostics import Diagnostic

        return [
            Diagnostic(
                severity="error",
                code=self.code(),
                message=self.args[0],
                file=self.path,
                line=self.line,
                col=self.col if self.line is not None else None,
            )
        ]

    def code(self) -> str:
        return "E001"


class ConfigError(InputError):
    """A configuration file (.cfg, YAML, TOML) has a bad field or value.

    ``field`` names the offending key, ``line`` its line when known.
    """

    def __init__(
        self, message: str, path: str | None = None, line: int | None = None, field: str | None = None,
        *, col: int | None = None,
    ) -> None:
        super().__init__(message, path, line, col=col)
        self.field = field

    @classmethod
    def from_yaml(cls, exc: Exception, path: str | None, what: str = "invalid YAML") -> "ConfigError":
        """One-line error for a ``yaml.YAMLError``: the problem, at its line and column."""
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        line = mark.line + 1 if mark is not None else None
        col = mark.column + 1 if mark is not None else None
        return cls(f"{what}: {problem}", path, line, col=col)

    def diagnostics(self) -> list["Diagnostic"]:
        diags = super().diagnostics()
        if self.field and self.field not in diags[0].message:  # always name the offending field
            from dataclasses import replace

            diags[0] = replace(diags[0], message=f"{self.field}: {diags[0].message}")
        return diags

    def code(self) -> str:
        return "E002"


class TraceError(InputError):
    """A trace or window file could not be read (``line`` is 1-based)."""

    def code(self) -> str:
        return "E003"


class HarnessError(InputError):
    """A bundled system's harness (or a SysMoBench generator specula runs) failed to build, run,
    or write its traces."""

    exit_code = 1

    def code(self) -> str:
        return "E004"


class SpecError(SpeculaError):
    """A TLA+ spec has errors; carries the full list of diagnostics."""

    exit_code = 1

    def __init__(self, diagnostics: list["Diagnostic"]) -> None:
        first = diagnostics[0].message if diagnostics else "spec error"
        super().__init__(first)
        self._diagnostics = list(diagnostics)

    def diagnostics(self) -> list["Diagnostic"]:
        return list(self._diagnostics)


class EvalError(SpeculaError):
    """Evaluation of a TLA+ expression failed (TLC would report an error)."""

    exit_code = 1

    def __init__(self, message: str, span: object | None = None, state: object | None = None) -> None:
        super().__init__(message)
        self.span = span
        self.state = state

    def diagnostics(self) -> list["Diagnostic"]:
        """The message at the span (when it has a real line), the state as help."""
        from specula.diagnostics import Diagnostic

        sp = self.span
        line = getattr(sp, "line", None) or None
        where = {}
        if line is not None:
            where = dict(file=getattr(sp, "file", None), line=line, col=getattr(sp, "col", None) or None,
                         end_line=getattr(sp, "end_line", None) or None, end_col=getattr(sp, "end_col", None) or None)
        state = None if self.state is None else f"in state {self.state}"
        return [Diagnostic(severity="error", code=self.code(), message=str(self), help=state, **where)]

    def code(self) -> str:
        return "E500"


class ProviderError(SpeculaError):
    """An LLM provider failed after retries, or is not configured."""

    def code(self) -> str:
        return "E700"


class BudgetExceeded(SpeculaError):
    """A run's budget (tokens, dollars, iterations, time) is used up."""

    exit_code = 1

    def code(self) -> str:
        return "E701"


class CodeError(InputError):
    """A target repository, file or symbol could not be read or found (code index)."""

    def code(self) -> str:
        return "E800"


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) stopped the work; ``partial`` is what finished (e.g. a partial
    ``Scorecard``), never a final result. A ``KeyboardInterrupt``, so no ``except Exception``
    handler swallows it; the CLI exits 130."""

    exit_code = 130

    def __init__(self, partial: object | None = None, what: str = "") -> None:
        super().__init__(what or "interrupted")
        self.partial = partial
        self.what = what


class WorkerError(SpeculaError):
    """A worker process of a multi-process search (``check --workers N``) died or failed."""

    def code(self) -> str:
        return "E005"
