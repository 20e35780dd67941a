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

    def __init__(self, message: str, path: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.line = line

    def diagnostics(self) -> list["Diagnostic"]:
        from specula.diagnostics import Diagnostic

        return [
            Diagnostic(
                severity="error",
                code=self.code(),
                message=self.args[0],
                file=self.path,
                line=self.line,
            )
        ]

    def code(self) -> str:
        return "E001"


class ConfigError(InputError):
    """A configuration file (.cfg, YAML, TOML) has a bad field or value.

    ``field`` names the offending key, ``line`` its line when known.
    """

    def __init__(
        self, message: str, path: str | None = None, line: int | None = None, field: str | None = None
    ) -> None:
        super().__init__(message, path, line)
        self.field = field

    def code(self) -> str:
        return "E002"


class TraceError(InputError):
    """A trace or window file could not be read (``line`` is 1-based)."""

    def code(self) -> str:
        return "E003"


class HarnessError(InputError):
    """A bundled system's harness failed to build, run, or write its traces."""

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
