import json

from specula.diagnostics import Diagnostic, render_concise, render_full, render_json


def test_concise_and_full_render_location_and_caret(tmp_path):
    f = tmp_path / "M.tla"
    f.write_text("---- MODULE M ----\nFoo == x + 1\n====\n")
    d = Diagnostic("error", "E101", "unknown name 'x'", str(f), 2, 8, 2, 9)
    assert render_concise([d]) == f"{f}:2:8: error: unknown name 'x' [E101]"
    full = render_full([d]).splitlines()
    assert full[1].endswith("Foo == x + 1")
    caret_col = full[2].index("^")
    assert full[1][caret_col] == "x"


def test_json_has_schema_and_drops_nones():
    d = Diagnostic("warning", "W1", "m")
    data = json.loads(render_json([d]))
    assert data["schema"] == "specula.diagnostics/1"
    assert data["diagnostics"] == [{"severity": "warning", "code": "W1", "message": "m"}]


def test_no_location_prefix_without_a_file():
    d = Diagnostic("error", "E700", "ANTHROPIC_API_KEY is not set")
    assert render_concise([d]) == "error: ANTHROPIC_API_KEY is not set [E700]"
    assert render_full([d]) == "error: ANTHROPIC_API_KEY is not set [E700]"
