"""Shared test fixtures. Tests mirror modules: tests/tla, tests/phases, tests/code, ...

Fast tests run by default; mark long ones ``@pytest.mark.slow``. Tests that need a real TLC jar
are marked ``@pytest.mark.tlc`` and use the ``tlc_jar`` fixture, which skips unless
SPECULA_TLA2TOOLS points at tla2tools.jar.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def tlc_jar() -> Path:
    path = os.environ.get("SPECULA_TLA2TOOLS")
    if not path or not Path(path).is_file():
        pytest.skip("SPECULA_TLA2TOOLS not set")
    return Path(path)


@pytest.fixture
def repo_root() -> Path:
    return REPO_ROOT


# Shared data lies beside the repository (../shared, in a session and in CI alike).
SYSMOBENCH_DATA = REPO_ROOT.parent / "shared" / "data" / "sysmobench"


@pytest.fixture
def sysmobench_data() -> Path:
    """The shared SysMoBench samples; a test that needs them fails (never skips) without them."""
    if not SYSMOBENCH_DATA.is_dir():
        pytest.fail(f"shared SysMoBench samples missing: {SYSMOBENCH_DATA} (../shared beside the repository)")
    return SYSMOBENCH_DATA
