"""The test suite itself: no assertion that cannot fail, no skip that hides a broken import of
specula's own code, no absolute path to shared data (it lies at ../shared beside the repository)."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent

RULES = [
    (re.compile(r"\bor\s+True\b"), "an assertion ending in an 'or TRUE' clause cannot fail"),
    (re.compile(r"importorskip\(\s*[\"']specula"), "importorskip of specula's own module hides a broken import"),
    (re.compile(r"except\s+ImportError[^\n]*\n[^\n]*pytest\.skip\([^\n]*(engine|specula|not available\s+yet)"),
     "a skip on ImportError of specula's own code hides a broken import"),
    (re.compile(r"Path\(\s*[\"']/work/|[\"']/work/shared"), "an absolute path to shared data (use ../shared beside the repository)"),
]


def test_no_test_that_cannot_fail_or_skips_silently():
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        if path == Path(__file__).resolve():
            continue
        text = path.read_text(encoding="utf-8")
        for rx, why in RULES:
            for m in rx.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{path.relative_to(TESTS)}:{line}: {why}")
    assert not found, "\n".join(found)
