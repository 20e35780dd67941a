"""Which files a reader may open: the one place confinement is decided.

A ``Workspace`` is a set of roots (the target repository, a run directory) and a set of hidden
paths inside them (a task's reference spec, its mutants). Every path a tool reads — a path the
agent names, a file repository discovery lists, a file a code query opens — is resolved (symlinks
followed to their final target) and must land inside a root and outside every hidden path. A
symlink ``pw.py -> /etc/passwd`` or ``traces/leak.c -> ../ref/spin.tla`` is therefore refused
wherever it is met.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from specula.errors import CodeError

__all__ = ["Workspace", "ConfinementError"]


class ConfinementError(CodeError):
    """A path resolves outside the workspace or into a hidden path (``reason``: outside, hidden)."""

    def __init__(self, message: str, path: str | None = None, *, reason: str = "outside") -> None:
        super().__init__(message, path)
        self.reason = reason

    def code(self) -> str:
        return "E801"


def _inside(p: Path, root: Path) -> bool:
    return p == root or root in p.parents


@dataclass(frozen=True)
class Workspace:
    """Roots a reader may read under and hidden paths it may never read (all resolved)."""

    roots: tuple[Path, ...]
    hidden: tuple[Path, ...] = ()

    @staticmethod
    def of(roots: list[Path] | tuple[Path, ...], hidden: list[Path] | tuple[Path, ...] = ()) -> "Workspace":
        return Workspace(tuple(Path(r).resolve() for r in roots), tuple(Path(h).resolve() for h in hidden))

    def why_not(self, path: str | Path) -> str | None:
        """None when ``path`` (resolved) may be read, else the reason: ``outside`` or ``hidden``."""
        try:
            p = Path(path).resolve()
        except (OSError, RuntimeError):  # a symlink loop
            return "outside"
        if not any(_inside(p, r) for r in self.roots):
            return "outside"
        if any(_inside(p, h) for h in self.hidden):
            return "hidden"
        return None

    def allows(self, path: str | Path) -> bool:
        return self.why_not(path) is None

    def check(self, path: str | Path, shown: str | None = None) -> Path:
        """The resolved path, or ``ConfinementError`` naming ``shown`` (what the caller asked for)."""
        shown = str(path) if shown is None else shown
        reason = self.why_not(path)
        if reason == "hidden":
            raise ConfinementError(f"{shown} is not available to the agent", shown, reason="hidden")
        if reason is not None:
            raise ConfinementError(f"{shown} is outside the target repository and the run directory", shown)
        return Path(path).resolve()

    def resolve(self, path: str) -> Path:
        """An existing path the caller names: absolute, or relative to one of the roots (in order)."""
        raw = Path(path)
        candidates = [raw] if raw.is_absolute() else [r / raw for r in self.roots]
        for c in candidates:
            reason = self.why_not(c)
            if reason != "outside" and c.exists():
                return self.check(c, path)  # raises for a hidden path
        for c in candidates:
            if self.why_not(c) == "outside":
                self.check(c, path)
        raise CodeError(f"{path} does not exist in the target repository", path)

    def open_text(self, path: str | Path) -> str:
        """Read a file after checking it (the check and the read see the same resolved path)."""
        p = self.check(path)
        return p.read_text(encoding="utf-8", errors="replace")
