"""A repository argument -> a local checkout: a directory as is, a git URL cloned into the cache."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from specula.code.cache import code_cache_dir
from specula.errors import CodeError

__all__ = ["resolve_repo", "is_git_url"]

_URL = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|[\w.-]+@[\w.-]+:)", re.IGNORECASE)


def _is_bare_repo(path: Path) -> bool:
    return path.is_dir() and (path / "HEAD").is_file() and (path / "objects").is_dir() and not (path / ".git").exists()


def is_git_url(spec: str) -> bool:
    """``https://``, ``ssh://``, ``file://``, ``git@host:path``, or a local bare repository."""
    if _URL.match(spec):
        return True
    return _is_bare_repo(Path(spec).expanduser())


def resolve_repo(spec: str | Path, commit: str | None = None, cache_dir: Path | None = None) -> Path:
    """The local directory to index for ``spec``.

    A git URL (or a bare repository) is cloned with GitPython into ``<cache>/repos/`` once and
    fetched again on later calls; ``commit`` (any revision) is checked out detached there. A local
    working tree with ``commit`` is cloned into the cache too, so the user's checkout never moves.
    """
    text = str(spec)
    url = text
    if not is_git_url(text):
        path = Path(text).expanduser()
        if path.is_file():
            raise CodeError("is a file; give the repository's folder (or a git URL)", path=text)
        if not path.is_dir():
            raise CodeError(f"repository not found: {text} (give a directory or a git URL)", path=text)
        if commit is None:
            return path.resolve()
        if not (path / ".git").exists():
            raise CodeError(f"not a git repository, cannot check out {commit}: {text}", path=text)
        url = str(path.resolve())  # never move the user's own checkout: clone it into the cache
    elif _is_bare_repo(Path(text).expanduser()):
        url = str(Path(text).expanduser().resolve())
    base = (cache_dir or code_cache_dir()) / "repos"
    name = re.sub(r"[^\w.-]", "_", url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")) or "repo"
    dest = base / f"{name}-{hashlib.sha1(url.encode()).hexdigest()[:12]}"
    import git

    try:
        if (dest / ".git").is_dir():
            repo = git.Repo(dest)
            try:
                repo.remotes.origin.fetch()
            except git.GitCommandError:
                pass  # offline: use what we have
            if commit is None:
                try:
                    repo.git.checkout("--detach", "origin/HEAD")
                except git.GitCommandError:
                    pass
        else:
            base.mkdir(parents=True, exist_ok=True)
            repo = git.Repo.clone_from(url, dest, env={"GIT_TERMINAL_PROMPT": "0"})  # never wait for a password
        if commit is not None:
            _checkout(dest, commit, text)
    except git.GitCommandError as exc:
        raise CodeError(f"git failed for {text}: {_git_message(exc)}", path=text) from exc
    return dest


def _git_message(exc: Exception) -> str:
    """git's own complaint on one line (its 'fatal:'/'error:' line), not GitPython's dump."""
    raw = str(getattr(exc, "stderr", "") or exc).strip()
    if raw.startswith("stderr: '") and raw.endswith("'"):  # GitPython's wrapping
        raw = raw[len("stderr: '"):-1]
    lines = [ln.strip() for ln in raw.splitlines() if ln.strip()]
    best = [ln for ln in lines if ln.startswith(("fatal:", "error:"))]
    return (best or lines or ["unknown error"])[-1]


def _checkout(path: Path, commit: str, label: str) -> None:
    import git

    try:
        git.Repo(path).git.checkout("--detach", commit)
    except git.GitCommandError as exc:
        raise CodeError(f"cannot check out {commit} in {label}: {_git_message(exc)}", path=label) from exc
