"""The community modules of specula's standard library against TLC's values.

Each case of cases/*.txt is evaluated by specula and compared (as a value, so record field order
and set printing do not matter) with the value TLC printed for it, recorded by record_tlc.py
with TLC 2.18 and the CommunityModules. The ``tlc`` test evaluates every case with TLC again
(SPECULA_TLA2TOOLS, plus SPECULA_COMMUNITY_MODULES: see tlc_values.py).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from specula.tla import Model, load
from specula.tla.cfg import parse_cfg
from specula.tla.modules import STANDARD_MODULES, STDLIB_DIR
from specula.tla.values import format_value, tla_eq

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tlc_values import PENDING, case_files, community_classpath, tlc_values  # noqa: E402

# cases specula evaluates differently from TLC by design (none at present; the reasons would be
# in docs/checker.md)
NOT_COMPARED: set[tuple[str, str]] = set()

COMMUNITY = ["BagsExt", "Bitwise", "Combinatorics", "CSV", "DifferentialEquations", "DyadicRationals",
             "FiniteSetsExt", "Folds", "Functions", "Graphs", "GraphViz", "HTML", "IOUtils", "Json",
             "Relation", "SequencesExt", "ShiViz", "Statistics", "SVG", "TLCExt", "UndirectedGraphs",
             "VectorClocks", "Quorum"]


def _model(tmp: Path, extends: list[str]) -> Model:
    spec = tmp / "Cases.tla"
    spec.write_text(f"---- MODULE Cases ----\nEXTENDS {', '.join(dict.fromkeys(extends + ['TLC', 'Sequences']))}\n"
                    "VARIABLE cases_x\n====\n", encoding="utf-8")
    return Model(load(spec), parse_cfg("", "Cases.cfg"))


def _value(model: Model, text: str) -> object:
    """The value TLC printed, read back (inside a tuple: a bare TRUE is not an expression
    Model.evaluate compiles)."""
    return model.evaluate(f"<< {text} >>", {"cases_x": 0})[0]


def _all_cases() -> list:
    return [pytest.param(cf, c, id=f"{cf.module}:{c.line}") for cf in case_files() for c in cf.cases]


def test_every_community_module_is_in_the_library_and_has_cases() -> None:
    assert set(COMMUNITY) <= STANDARD_MODULES
    with_cases = {cf.module for cf in case_files()}
    # ShiViz reads the Toolbox's trace (_TETrace) and DifferentialEquations is about the reals:
    # neither can be evaluated by TLC outside a trace exploration; both must load
    assert set(COMMUNITY) - with_cases == {"ShiViz", "DifferentialEquations"}
    for cf in case_files():
        assert all(c.expected != PENDING for c in cf.cases), f"{cf.path}: run record_tlc.py"


@pytest.mark.parametrize("module", sorted(p.stem for p in STDLIB_DIR.glob("*.tla")))
def test_every_library_module_loads(tmp_path: Path, module: str) -> None:
    spec = tmp_path / "Uses.tla"
    spec.write_text(f"---- MODULE Uses ----\nEXTENDS {module}\n====\n", encoding="utf-8")
    load(spec)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cases")


@pytest.mark.parametrize("cf,case", _all_cases())
def test_case_matches_tlc(cf, case, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if (cf.module, case.expr) in NOT_COMPARED:
        pytest.skip("differs from TLC by design")
    monkeypatch.chdir(workdir)  # file operators write relative to the working directory, as TLC
    for f in workdir.glob("cases_*"):
        f.unlink()  # the file cases append: start from what TLC started from
    model = _model(workdir, cf.extends)
    if case.expected.startswith("!!"):
        with pytest.raises(Exception):
            model.evaluate(case.expr, {"cases_x": 0})
        return
    got = model.evaluate(case.expr, {"cases_x": 0})
    want = _value(model, case.expected)
    assert tla_eq(got, want), f"specula {format_value(got)} / TLC {case.expected}"


@pytest.mark.tlc
def test_tlc_agrees_with_specula_now(tlc_jar: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jars, dirs = community_classpath()
    if not jars:
        pytest.skip("SPECULA_COMMUNITY_MODULES not set (a CommunityModules jar for TLC)")
    monkeypatch.chdir(tmp_path)
    bad = []
    for cf in case_files():
        wd = tmp_path / cf.module
        wd.mkdir()
        values = tlc_values(str(tlc_jar), cf.extends, [c.expr for c in cf.tlc_cases], wd)
        model = _model(wd, cf.extends)
        monkeypatch.chdir(wd)
        for c, v in zip(cf.tlc_cases, values):
            if (cf.module, c.expr) in NOT_COMPARED or v.startswith("!!"):
                continue
            for f in wd.glob("cases_*"):
                f.unlink()  # the file cases append: start from what TLC started from
            got = model.evaluate(c.expr, {"cases_x": 0})
            if not tla_eq(got, _value(model, v)):
                bad.append(f"{cf.module}: {c.expr}: specula {format_value(got)} / TLC {v}")
    assert not bad, "\n".join(bad)


def test_ioexec_needs_the_opt_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from specula.errors import EvalError
    from specula.tla.natives_community import IOEXEC_ENV

    model = _model(tmp_path, ["IOUtils"])
    monkeypatch.delenv(IOEXEC_ENV, raising=False)
    with pytest.raises(EvalError, match=IOEXEC_ENV):
        model.evaluate('IOExec(<<"echo", "hi">>)', {"cases_x": 0})
    monkeypatch.setenv(IOEXEC_ENV, "1")
    r = model.evaluate('IOExec(<<"echo", "hi">>)', {"cases_x": 0})
    assert format_value(r) == '[exitValue |-> 0, stderr |-> "", stdout |-> "hi\\n"]'
    r = model.evaluate('IOEnvExecTemplate([V |-> "x"], <<"sh", "-c", "echo %1$s$V">>, <<"a">>)', {"cases_x": 0})
    assert r["stdout"] == "ax\n"
    assert os.environ.get(IOEXEC_ENV) == "1"
