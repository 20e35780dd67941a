"""Properties of the extractor's helpers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from specula.code.discover import IgnoreRules
from specula.code.extract import _collapse_braces, _Ranges
from specula.code.rank import norm_ident, split_words


@st.composite
def nested_ranges(draw):
    """Properly nested ranges, as definitions in a syntax tree are."""
    items = []

    def build(lo: int, hi: int, depth: int) -> None:
        pos = lo
        for _ in range(draw(st.integers(0, 3 if depth < 3 else 0))):
            a = pos + draw(st.integers(0, 3))
            b = a + draw(st.integers(2, 12))
            if b > hi:
                return
            items.append((a, b, f"r{len(items)}"))
            build(a + 1, b - 1, depth + 1)
            pos = b + 1

    build(0, 200, 0)
    return items


@settings(max_examples=200, deadline=None)
@given(nested_ranges(), st.integers(0, 200), st.integers(0, 5))
def test_innermost_matches_brute_force(items, start, width):
    end = start + width
    ranges = _Ranges(items)
    enclosing = [(s, e, q) for s, e, q in items if s <= start and end <= e and (s, e) != (start, end)]
    expect = min(enclosing, key=lambda x: x[1] - x[0]) if enclosing else None
    got = ranges.innermost(start, end)
    assert got == ((expect[0], expect[2]) if expect else None)


@given(st.text(alphabet="ab{} ;", max_size=40))
def test_collapse_braces_keeps_the_outside(text):
    out = _collapse_braces(text)
    assert out.count("{") <= text.count("{")
    if "{" not in text:
        assert out == text


def test_collapse_braces_examples():
    assert _collapse_braces("union { int a; struct { int b; } c; } r;") == "union {…} r;"
    assert _collapse_braces("self.votes = {}") == "self.votes = {}"
    assert _collapse_braces("var x = T{a: 1") == "var x = T{…"


def test_words_and_identifiers():
    assert split_words("lookForLeader") == ("look", "for", "leader")
    assert split_words("HTTPServer_handle2") == ("http", "server", "handle", "2")
    assert norm_ident("Become_Candidate") == norm_ident("becomeCandidate")


def test_gitignore_globs(tmp_path):
    (tmp_path / ".gitignore").write_text("**/gen/**\n*.tmp.go\n[ab]x.go\n\\#lit.go\n")
    r = IgnoreRules()
    r.add_file(tmp_path / ".gitignore", "")
    assert r.ignored("x/gen/y/z.go", False) and r.ignored("gen/a.go", False)
    assert r.ignored("deep/f.tmp.go", False) and r.ignored("ax.go", False) and not r.ignored("cx.go", False)
    assert r.ignored("#lit.go", False) and not r.ignored("generate.go", False)
