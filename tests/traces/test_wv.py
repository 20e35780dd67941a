"""SysMoBench window-validation modules: run as they are (`validate WV_X.tla`), and through the
equivalent mapping (`mapping from-wv`). The module, spec and windows under tests/traces/wv/ are
written for these tests in SysMoBench's style; the expected verdicts are TLC's (window 1 and 4
pass, 2 fails on the last-term guard, 3 on votedFor), re-checked by the slow test below when
SPECULA_TLA2TOOLS is set."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from specula.cli import main
from specula.phases.conformance import validate_files, validate_wv
from specula.traces.mapping import parse_mapping
from specula.traces.wv import mapping_yaml, read_wv

WV = Path(__file__).parent / "wv"
MODULE = WV / "WV_HandleVote.tla"
TLC_PASSED = [1, 4]
RETRY = WV / "WV_Acquire.tla"  # an unobserved variable free within a set (`budget \\in 0..2`)
RETRY_PASSED = [1, 4, 5]  # TLC: 2 fails on pc[t] = "trying", 3 on held = FALSE


def test_module_run_per_window_with_diagnosis():
    res = validate_wv([MODULE])
    assert (res.total, res.passed) == (4, 2)
    assert [w.id for w in res.windows if w.ok] == TLC_PASSED
    kinds = {c.kind: c for c in res.causes}
    assert kinds["conjunct"].title == "guard false: m.lastTerm >= LastTerm(n)"
    assert kinds["conjunct"].location.endswith("Vote.tla:19:11") and kinds["conjunct"].windows == [2]
    assert kinds["mismatch"].detail == {"votedFor[2]'": "trace says 3; spec can produce only 1"}


def test_validate_cli_json(capsys):
    code = main(["validate", str(MODULE), "--json"])
    d = json.loads(capsys.readouterr().out)
    assert code == 1
    assert (d["windows_total"], d["windows_passed"]) == (4, 2)
    assert sorted(w["id"] for w in d["windows"]) == [2, 3]


def test_read_module_parts():
    mod = read_wv(MODULE)
    assert (mod.inner, mod.instance, mod.action, mod.window_def) == ("Vote", "S", "HandleVote", "w")
    assert mod.post == {"term": ("eq", "term"), "votedFor": ("eq", "votedFor"), "log": ("len", "logLen")}
    assert mod.message_var == "msgs" and set(mod.message_params) == {"m"}
    assert "w.input.src" in mod.message_params["m"] and "LET Trigger ==" in mod.message_params["m"]


def test_from_wv_mapping_gives_the_module_verdicts(tmp_path, capsys):
    out, cfg = tmp_path / "m.yaml", tmp_path / "Vote.cfg"
    assert main(["mapping", "from-wv", str(MODULE), "-o", str(out), "--cfg-out", str(cfg)]) == 0
    m = parse_mapping(out.read_text(), str(out))
    assert m.variables["term"].field == "term" and m.variables["log"].abstract.length == "logLen"
    assert m.action_params == {"HandleVote": {"m": "input"}}
    res = validate_files(WV / "Vote.tla", cfg, [WV / "windows_HandleVote.ndjson"], mapping=m)
    assert [w.id for w in res.windows if w.ok] == TLC_PASSED, res.summary()
    # the module's input fields are renamed (src -> from): without the rebuilt input the guard
    # reads fields the window's message lacks
    del m.action_input["HandleVote"]
    res = validate_files(WV / "Vote.tla", cfg, [WV / "windows_HandleVote.ndjson"], mapping=m)
    assert res.passed == 0


def test_not_a_module_is_an_input_error(tmp_path):
    from specula.errors import InputError

    p = tmp_path / "X.tla"
    p.write_text("---- MODULE X ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n")
    with pytest.raises(InputError, match="ndJsonDeserialize"):
        read_wv(p)


def _lit(v):
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "<<" + ", ".join(_lit(x) for x in v) + ">>"
    return "[" + ", ".join(f"{k} |-> {_lit(x)}" for k, x in v.items()) + "]"


@pytest.mark.slow
@pytest.mark.parametrize("module, spec, windows, expected", [
    (MODULE, "Vote.tla", "windows_HandleVote.ndjson", TLC_PASSED),
    (RETRY, "Retry.tla", "windows_Acquire.ndjson", RETRY_PASSED),
])
def test_tlc_gives_the_same_verdicts(tmp_path, module, spec, windows, expected):
    """TLC per window, the window inlined as a literal (TLC's CommunityModules are not installed)."""
    jar = os.environ.get("SPECULA_TLA2TOOLS")
    if not jar:
        pytest.skip("SPECULA_TLA2TOOLS not set")
    text = module.read_text()
    text = text.replace("TLC, Json, IOUtils", "TLC")
    text = re.sub(r'AllWindows == ndJsonDeserialize\("[^"]+"\)\n', "", text)
    passed = []
    for i, line in enumerate((WV / windows).read_text().splitlines(), 1):
        d = tmp_path / f"w{i}"
        d.mkdir()
        shutil.copy(WV / spec, d)
        shutil.copy(module.with_suffix(".cfg"), d)
        (d / module.name).write_text(text.replace("w == AllWindows[atoi(IOEnv.WINDOW_INDEX)]",
                                                  "w == " + _lit(json.loads(line))))
        r = subprocess.run(["java", "-cp", jar, "tlc2.TLC", "-deadlock", "-workers", "1", "-metadir",
                            str(d / "meta"), "-config", module.with_suffix(".cfg").name, module.name],
                           cwd=d, capture_output=True, text=True, timeout=300)
        if r.returncode == 12:  # NeverPost violated: the window passes
            passed.append(i)
    assert passed == expected


def test_unobserved_variable_free_within_the_modules_set(tmp_path, capsys):
    """WV_Acquire fixes the unobserved budget with `budget \\in 0..2` (Retry's TypeOK says Nat):
    the module run and the derived mapping (budget: aux, domain 0..2) give TLC's verdicts; without
    the domain the budget has no finite domain and no window could pass."""
    res = validate_wv([RETRY])
    assert [w.id for w in res.windows if w.ok] == RETRY_PASSED
    mod = read_wv(RETRY)
    assert mod.init_domain == {"budget": "0..2"} and not mod.notes
    out, cfg = tmp_path / "m.yaml", tmp_path / "Retry.cfg"
    assert main(["mapping", "from-wv", str(RETRY), "-o", str(out), "--cfg-out", str(cfg)]) == 0
    capsys.readouterr()
    m = parse_mapping(out.read_text(), str(out))
    assert m.variables["budget"].aux and m.variables["budget"].domain == "0..2"
    res = validate_files(WV / "Retry.tla", cfg, [WV / "windows_Acquire.ndjson"], mapping=m)
    assert [w.id for w in res.windows if w.ok] == RETRY_PASSED, res.summary()


def test_sysmobench_spin_example(tmp_path, capsys):
    """SysMoBench's wv-eval spin example (ai_spec_1, AcquireLock), run unchanged and through the
    derived mapping: TLC's figure is 123/210. Needs a copy of SysMoBench's
    tla_eval/skills/wv-eval/examples folder in SPECULA_SYSMOBENCH_EXAMPLES."""
    root = os.environ.get("SPECULA_SYSMOBENCH_EXAMPLES")
    if not root:
        pytest.skip("SPECULA_SYSMOBENCH_EXAMPLES not set (SysMoBench's tla_eval/skills/wv-eval/examples)")
    src = Path(root) / "spin" / "ai_spec_1"
    if not (src / "WV_AcquireLock.tla").is_file():
        pytest.skip(f"no spin/ai_spec_1/WV_AcquireLock.tla under {root}")
    d = tmp_path / "ai_spec_1"
    shutil.copytree(src, d)
    if not (d / "WV_AcquireLock.cfg").is_file():  # SysMoBench's run_wv.py names one it does not ship
        (d / "WV_AcquireLock.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT NeverPost\n"
                                              "CONSTANT Threads = {1, 2, 3}\n")
    assert main(["validate", str(d / "WV_AcquireLock.tla"), "--json"]) == 1
    got = json.loads(capsys.readouterr().out)
    assert (got["windows_total"], got["windows_passed"]) == (210, 123)
    out, cfg = tmp_path / "m.yaml", tmp_path / "spin.cfg"
    assert main(["mapping", "from-wv", str(d / "WV_AcquireLock.tla"), "-o", str(out), "--cfg-out", str(cfg)]) == 0
    capsys.readouterr()
    assert "not translated" not in out.read_text()
    assert main(["validate", str(d / "spin.tla"), "-c", str(cfg), "-m", str(out), "-w",
                 str(d / "windows_AcquireLock.ndjson"), "--json"]) == 1
    via = json.loads(capsys.readouterr().out)
    assert (via["windows_total"], via["windows_passed"]) == (210, 123)
    assert sorted(w["id"] for w in via["windows"]) == sorted(w["id"] for w in got["windows"])


def test_relaxations_listed_and_refused_by_strict(tmp_path, capsys):
    """Issue 21.4: every abstraction weaker than exact is listed with its strength; --strict
    refuses them (each window that needs one fails as `relaxed`)."""
    res = validate_wv([MODULE])
    kinds = {(r["kind"], r["subject"]): r for r in res.relaxations}
    assert set(kinds) == {("summary", "log"), ("fixed", "timer"), ("input", "HandleVote")}
    assert all(r["strength"] == "weaker" and r["windows"] == 4 for r in res.relaxations)
    strict = validate_wv([MODULE], strict=True)
    assert strict.passed == 0 and {c.kind for c in strict.causes} == {"relaxed"} and strict.strict
    # the same relaxations through the equivalent mapping
    out, cfg = tmp_path / "m.yaml", tmp_path / "Vote.cfg"
    assert main(["mapping", "from-wv", str(MODULE), "-o", str(out), "--cfg-out", str(cfg)]) == 0
    capsys.readouterr()
    m = parse_mapping(out.read_text(), str(out))
    res = validate_files(WV / "Vote.tla", cfg, [WV / "windows_HandleVote.ndjson"], mapping=m)
    assert {(r["kind"], r["subject"]) for r in res.relaxations} == {("summary", "log"), ("fixed", "timer"),
                                                                    ("input", "HandleVote")}
    code = main(["validate", str(WV / "Vote.tla"), "-c", str(cfg), "-m", str(out), "-w",
                 str(WV / "windows_HandleVote.ndjson"), "--strict", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert code == 1 and d["windows_passed"] == 0 and d["strict"] and d["causes"][0]["kind"] == "relaxed"


def test_eval_takes_wv_modules_as_phase_3_input(tmp_path):
    from specula.phases import RuntimeSettings
    from specula.phases.evaluate import EvalInputs, evaluate

    cfg = tmp_path / "Vote.cfg"
    cfg.write_text("INIT Init\nNEXT Next\nCONSTANTS\n    Nodes = {1, 2, 3}\n    None = 0\n")
    card = evaluate(EvalInputs(spec=WV / "Vote.tla", cfg=cfg, wv_modules=[MODULE], only=["conformance"],
                               runtime=RuntimeSettings(check_seconds=2, runs=1, traces_per_run=2, depth=3,
                                                       run_seconds=2, seed=1)))
    p3 = card.phases["conformance"]
    assert p3.detail["windows_total"] == 4 and p3.detail["windows_passed"] == 2, p3.summary
    assert {r["kind"] for r in p3.detail["relaxations"]} == {"summary", "fixed", "input"}
