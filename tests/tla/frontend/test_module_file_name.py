"""SANY refuses a spec file whose module has another name; so does specula (E206), for both
``specula check --syntax`` and model checking, pointing at the module header."""

from __future__ import annotations

import pytest

from specula.errors import SpecError
from specula.tla import load
from specula.tla.loading import check_syntax


def test_module_name_must_match_file_name(tmp_path):
    p = tmp_path / "Mis.tla"
    p.write_text("\n---- MODULE Other ----\nVARIABLE x\n====\n")
    rep = check_syntax(p)
    assert not rep.ok
    d = rep.diagnostics[0]
    assert (d.code, d.line, d.col) == ("E206", 2, 1) and "'Other'" in d.message
    with pytest.raises(SpecError):
        load(p)
    ok = tmp_path / "Other.tla"
    ok.write_text(p.read_text())
    assert check_syntax(ok).ok
