"""On-disk tag cache: one SQLite file keyed by (content hash, language, extractor version).

Lives under a versioned folder, ``~/.cache/specula/code/v1`` by default; ``SPECULA_CACHE_DIR``
replaces ``~/.cache/specula``. Keys never include paths, so renamed or copied files hit.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

__all__ = ["cache_root", "code_cache_dir", "TagCache", "CACHE_FORMAT"]

CACHE_FORMAT = "v1"


def cache_root() -> Path:
    env = os.environ.get("SPECULA_CACHE_DIR")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "specula"


def code_cache_dir() -> Path:
    return cache_root() / "code" / CACHE_FORMAT


class TagCache:
    """Per-file extraction results keyed by content; safe to share between processes."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else code_cache_dir()
        self._db: sqlite3.Connection | None = None

    def _conn(self) -> sqlite3.Connection | None:
        if self._db is None:
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.directory / "tags.sqlite", timeout=30)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute("CREATE TABLE IF NOT EXISTS tags (key TEXT PRIMARY KEY, data TEXT NOT NULL)")
                self._db = db
            except (OSError, sqlite3.Error):
                return None  # an unusable cache only costs speed
        return self._db

    def get_many(self, keys: list[str]) -> dict[str, dict]:
        db = self._conn()
        out: dict[str, dict] = {}
        if db is None or not keys:
            return out
        try:
            for i in range(0, len(keys), 500):
                chunk = keys[i : i + 500]
                marks = ",".join("?" * len(chunk))
                for key, data in db.execute(f"SELECT key, data FROM tags WHERE key IN ({marks})", chunk):
                    out[key] = json.loads(data)
        except sqlite3.Error:
            return out
        return out

    def put_many(self, items: dict[str, dict]) -> None:
        db = self._conn()
        if db is None or not items:
            return
        try:
            with db:
                db.executemany(
                    "INSERT OR REPLACE INTO tags (key, data) VALUES (?, ?)",
                    [(k, json.dumps(v, separators=(",", ":"))) for k, v in items.items()],
                )
        except sqlite3.Error:
            pass

    def prune_stale(self, versions: dict[str, str]) -> int:
        """Drop entries of ``language`` made by another extractor version; returns how many."""
        db = self._conn()
        if db is None:
            return 0
        removed = 0
        try:
            with db:
                for lang, version in versions.items():
                    cur = db.execute("DELETE FROM tags WHERE key LIKE ? AND key NOT LIKE ?",
                                     (f"%:{lang}:%", f"%:{lang}:{version}"))
                    removed += cur.rowcount
        except sqlite3.Error:
            return 0
        return removed

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
