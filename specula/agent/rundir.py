"""Run directories: ``runs/<id>/`` with every artifact of one ``specula model`` run.

Layout::

    task.yaml            what was asked (task fields, model, budget, focus, guidance, inputs)
    spec/NNN/<Module>.tla|.cfg   every spec version the agent wrote (NNN = 001, 002, ...)
    scorecard-N.json     the N-th evaluation (N counts phase runs)
    transcript.jsonl     every message, tool call and event (format version in the first line)
    usage.json           tokens, cost, per call
    state.json           what --resume needs (messages, counters, best version)
    final/               the best-scoring spec, its cfg and scorecard, summary.md

Every write is atomic (temp file + rename) and goes through ``scrub`` so no secret (API keys
from the provider or the environment) is ever written.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from specula.agent.messages import FORMAT_VERSION
from specula.errors import InputError

__all__ = ["RunDir", "REDACTED", "env_secrets"]

REDACTED = "[REDACTED]"
_SECRET_ENV = re.compile(r".*(_API_KEY|_API_TOKEN|_AUTH_TOKEN|_SECRET|_SECRET_KEY|_ACCESS_KEY)$")


def env_secrets(env: dict[str, str] | None = None) -> list[str]:
    """Values of environment variables that look like credentials (8+ chars)."""
    env = dict(os.environ) if env is None else env
    return [v for k, v in env.items() if _SECRET_ENV.match(k.upper()) and v and len(v) >= 8]


def atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


@dataclass
class RunDir:
    path: Path
    secrets: list[str] = field(default_factory=list)

    # -- creation
    @staticmethod
    def create(root: Path, task: dict[str, Any], run_id: str | None = None,
               secrets: Iterable[str] = ()) -> "RunDir":
        root = Path(root)
        base = run_id or time.strftime("%Y%m%d-%H%M%S") + "-" + re.sub(r"[^A-Za-z0-9_.-]+", "-", str(task.get("name", "run")))
        path, n = root / base, 1
        while path.exists():
            n += 1
            path = root / f"{base}-{n}"
        path.mkdir(parents=True)
        run = RunDir(path, _secrets(secrets))
        from specula.yamlfile import dump_yaml

        run.write_text("task.yaml", dump_yaml(task))
        run.append_transcript({"event": "start", "format": FORMAT_VERSION, "run": path.name})
        return run

    @staticmethod
    def open(ref: str | Path, root: Path | None = None, secrets: Iterable[str] = ()) -> "RunDir":
        """An existing run, by path or by id under ``root``; it must have state.json."""
        path = Path(ref)
        if not path.is_dir() and root is not None:
            path = Path(root) / str(ref)
        if not (path / "state.json").is_file():
            raise InputError(f"no resumable run at {path} (state.json missing)", path=str(path))
        return RunDir(path, _secrets(secrets))

    # -- writing
    def scrub(self, text: str) -> str:
        for s in self.secrets:
            if s in text:
                text = text.replace(s, REDACTED)
        return text

    def write_text(self, rel: str, text: str) -> Path:
        target = self.path / rel
        atomic_write(target, self.scrub(text))
        return target

    def write_json(self, rel: str, data: Any) -> Path:
        return self.write_text(rel, json.dumps(data, indent=2, default=str) + "\n")

    def read_json(self, rel: str) -> Any:
        return json.loads((self.path / rel).read_text(encoding="utf-8"))

    def append_transcript(self, event: dict[str, Any]) -> None:
        """Append one JSON line and flush it to disk at once."""
        line = self.scrub(json.dumps({"t": round(time.time(), 3), **event}, default=str))
        with open(self.path / "transcript.jsonl", "a", encoding="utf-8") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())

    # -- artifacts
    def spec_dir(self, version: int) -> Path:
        return self.path / "spec" / f"{version:03d}"

    def save_spec(self, version: int, module: str, tla: str, cfg: str) -> tuple[Path, Path]:
        rel = f"spec/{version:03d}/{module}"
        return self.write_text(rel + ".tla", tla), self.write_text(rel + ".cfg", cfg)

    def save_scorecard(self, n: int, card: dict[str, Any]) -> Path:
        return self.write_json(f"scorecard-{n}.json", card)

    def save_state(self, state: dict[str, Any]) -> None:
        self.write_json("state.json", state)

    def load_state(self) -> dict[str, Any]:
        return self.read_json("state.json")

    def finalize(self, module: str, version: int | None, scorecard: dict[str, Any] | None, summary: str) -> None:
        """Copy the best spec version (if any) to final/ with its scorecard and a summary."""
        if version is not None:
            src = self.spec_dir(version)
            for ext in ("tla", "cfg"):
                f = src / f"{module}.{ext}"
                if f.is_file():
                    self.write_text(f"final/{module}.{ext}", f.read_text(encoding="utf-8"))
        if scorecard is not None:
            self.write_json("final/scorecard.json", scorecard)
        self.write_text("final/summary.md", summary.rstrip() + "\n")


def _secrets(extra: Iterable[str]) -> list[str]:
    seen = [s for s in [*extra, *env_secrets()] if s]
    # longest first so a key containing another is redacted whole
    return sorted(set(seen), key=len, reverse=True)
