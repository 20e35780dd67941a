"""Fixtures of the code-index tests: tiny repositories per language under fixtures/, and a
private cache directory for every test (never ~/.cache)."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch) -> Path:
    d = tmp_path_factory.mktemp("specula-cache")
    monkeypatch.setenv("SPECULA_CACHE_DIR", str(d))
    return d


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture
def index_of():
    from specula.code import index_repo

    cache: dict[str, object] = {}

    def get(lang: str):
        if lang not in cache:
            cache[lang] = index_repo(FIXTURES / lang, use_cache=False)
        return cache[lang]

    return get
