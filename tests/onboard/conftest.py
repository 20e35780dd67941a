"""Fixtures of the onboarding tests: bundled systems copied without their task.yaml, a private
cache, and the agent room's scripted LLM server (real SDK clients, no mocks)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "agent"))

SYSTEMS = Path(__file__).resolve().parents[2] / "benchmarks" / "systems"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch) -> Path:
    d = tmp_path_factory.mktemp("specula-cache")
    monkeypatch.setenv("SPECULA_CACHE_DIR", str(d))
    return d


@pytest.fixture
def bare_system(tmp_path):
    """bare_system(name) -> (copy of the bundled system without task.yaml, its original target actions)."""
    import yaml

    def make(name: str) -> tuple[Path, list[str]]:
        src = SYSTEMS / name
        want = yaml.safe_load((src / "task.yaml").read_text())["wv"]["target_actions"]
        dst = tmp_path / name
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns("task.yaml", "ref", "mutants", ".benchmarks", "__pycache__"))
        return dst, want

    return make
