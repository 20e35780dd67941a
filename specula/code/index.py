"""Index a repository: discover files, reuse cached tags by content hash, extract the rest.

Extraction of many uncached files runs in a small process pool (it is CPU-bound C work plus
Python naming); a few files run inline, where starting workers would cost more than it saves.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Callable

from specula.code.cache import TagCache
from specula.code.discover import IndexOptions, discover, is_generated
from specula.code.extract import content_sha, extract_file
from specula.code.languages import extractor_version
from specula.code.model import FileIndex, IndexStats, RepoIndex
from specula.code.repo import resolve_repo

__all__ = ["index_repo", "PARALLEL_MIN_FILES"]

PARALLEL_MIN_FILES = 120  # below this many uncached files, extraction runs inline
_CHUNK = 24


def _extract_safe(src: bytes, lang: str, path: str, sha: str) -> FileIndex | None:
    """Extraction never raises on bad syntax; anything else (a grammar bug) skips just this file."""
    try:
        return extract_file(src, lang, path, sha)
    except Exception:  # noqa: BLE001 - one odd file must not stop indexing a repository
        return None


def _extract_chunk(items: list[tuple[bytes, str, str, str]]) -> list[dict | None]:
    out = []
    for src, lang, path, sha in items:
        fi = _extract_safe(src, lang, path, sha)
        out.append(fi.to_cache() if fi is not None else None)
    return out


def _default_workers() -> int:
    """Up to 4 workers, one per usable CPU; one when the machine is already saturated (load average
    at least twice the CPUs), where extra processes only add pickling and start-up cost."""
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - non-Linux
        n = os.cpu_count() or 1
    try:
        if os.getloadavg()[0] >= 2 * n:
            return 1
    except OSError:  # pragma: no cover - no load average available
        pass
    return max(1, min(n, 4))


def _progress(say: Callable[[str], None] | None, total: int, every: float = 5.0) -> Callable[[int], None]:
    """``tick(n)``: n more files parsed; a line for ``say`` every ``every`` seconds."""
    if say is None:
        return lambda n: None
    t0 = time.monotonic()
    state = {"done": 0, "due": t0 + every}

    def tick(n: int) -> None:
        state["done"] += n
        now = time.monotonic()
        if now >= state["due"]:
            state["due"] = now + every
            say(f"indexing: {state['done']}/{total} files parsed ({state['done'] / max(now - t0, 1e-9):.0f}/s)")

    return tick


def index_repo(
    repo: str | Path,
    options: IndexOptions = IndexOptions(),
    *,
    commit: str | None = None,
    cache: TagCache | None = None,
    use_cache: bool = True,
    workers: int | None = None,
    on_progress: Callable[[str], None] | None = None,
) -> RepoIndex:
    """Index ``repo`` (a directory or a git URL) and return its ``RepoIndex``.

    Re-indexing is incremental: files whose content hash is in the cache are not parsed again.
    ``on_progress`` gets a line when the files are known and every few seconds while they are
    parsed (files indexed, rate).
    """
    t0 = time.perf_counter()
    root = resolve_repo(repo, commit)
    sources, skipped = discover(root, options)
    tag_cache = (cache or TagCache()) if use_cache else None

    pending: list[tuple[bytes, str, str, str, str]] = []  # src, lang, path, sha, key
    for sf in sources:
        try:
            data = (root / sf.path).read_bytes()
        except OSError:
            skipped["unreadable"] = skipped.get("unreadable", 0) + 1
            continue
        if len(data) > options.max_file_bytes:
            skipped["too-large"] = skipped.get("too-large", 0) + 1
            continue
        if not options.include_generated and not options.forces(sf.path) and is_generated(sf.path, data[:2048]):
            skipped["generated"] = skipped.get("generated", 0) + 1
            continue
        sha = content_sha(data)
        pending.append((data, sf.language, sf.path, sha, f"{sha}:{sf.language}:{extractor_version(sf.language)}"))

    hits = tag_cache.get_many([p[4] for p in pending]) if tag_cache is not None else {}
    files: list[FileIndex] = []
    misses = []
    for src, lang, path, sha, key in pending:
        cached = hits.get(key)
        if cached is not None:
            files.append(FileIndex.from_cache(cached, path, lang, sha))
        else:
            misses.append((src, lang, path, sha, key))

    tick = _progress(on_progress, len(misses))
    if on_progress is not None and len(misses) >= PARALLEL_MIN_FILES:  # a parse that takes a while
        on_progress(f"indexing {len(pending)} files: {len(pending) - len(misses)} from cache, {len(misses)} to parse")
    n_workers = workers if workers is not None else _default_workers()
    fresh: dict[str, dict] = {}
    used_workers = 1
    if len(misses) >= PARALLEL_MIN_FILES and n_workers > 1:
        used_workers = n_workers
        # biggest files first so no worker is left with a large file at the end; results are
        # hydrated here while the workers go on with later chunks
        ordered = sorted(misses, key=lambda m: -len(m[0]))
        chunks = [[m[:4] for m in ordered[i : i + _CHUNK]] for i in range(0, len(ordered), _CHUNK)]
        with ProcessPoolExecutor(max_workers=n_workers) as pool:
            results = pool.map(_extract_chunk, chunks)
            for chunk, datas in zip(chunks, results):
                for (src, lang, path, sha), data in zip(chunk, datas):
                    if data is None:
                        skipped["extract-error"] = skipped.get("extract-error", 0) + 1
                        continue
                    files.append(FileIndex.from_cache(data, path, lang, sha))
                    fresh[f"{sha}:{lang}:{extractor_version(lang)}"] = data
                tick(len(chunk))
    else:
        for src, lang, path, sha, key in misses:
            tick(1)
            fi = _extract_safe(src, lang, path, sha)
            if fi is None:
                skipped["extract-error"] = skipped.get("extract-error", 0) + 1
                continue
            files.append(fi)
            if tag_cache is not None:
                fresh[key] = fi.to_cache()
    if tag_cache is not None and fresh:
        tag_cache.put_many(fresh)
        tag_cache.prune_stale({lang: extractor_version(lang) for lang in {m[1] for m in misses}})
    if not options.include_tests:
        files = [f.without_tests() for f in files]

    stats = IndexStats(
        files=len(files),
        cached=len(pending) - len(misses),
        parsed=len(misses) - skipped.get("extract-error", 0),
        with_errors=sum(1 for f in files if f.has_errors),
        skipped=dict(sorted(skipped.items())),
        workers=used_workers,
    )
    index = RepoIndex(root, files, stats)
    stats.seconds = round(time.perf_counter() - t0, 3)
    return index
