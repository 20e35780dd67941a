"""TLCExt's operators that depend on the search: TLCEvalDefinition (the root module's definition
on the current states), TLCCache (a constant expression evaluated once per closure value; one of
the state evaluated each time, as TLC 2.18) and TLCDefer (in simulation, evaluated on the
successor the simulator picks only; never when model checking).

Expected lines are those TLC printed for these specs: TLC 2.18 for TLCCache and TLCDefer (the
``tlc`` tests run it again), and TLC's TLCExt of tlaplus 2360829d9 (2024-10) built against 2.18
for TLCEvalDefinition, which 2.18 lacks."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from specula.tla.checker import Limits, build_model, check_spec
from specula.tla.simulate import simulate

EVAL_DEF = """---- MODULE EvalDef ----
EXTENDS TLCExt, TLC, Integers
VARIABLE x
Double == 2 * x
Sum == x + x'
Init == x = 0
Next == x < 2 /\\ x' = x + 1 /\\ PrintT(<<"next", x, TLCEvalDefinition("Sum")>>)
Inv == PrintT(<<"inv", x, TLCEvalDefinition("Double")>>)
====
"""
TLC_EVAL_DEF = ['<<"inv", 0, 0>>', '<<"next", 0, 1>>', '<<"inv", 1, 2>>', '<<"next", 1, 3>>', '<<"inv", 2, 4>>']

CACHE = """---- MODULE Cache ----
EXTENDS TLCExt, TLC, Integers
Traced(tag, v) == IF PrintT(<<tag, v>>) THEN v ELSE v
Evens == TLCCache(Traced("const", {n \\in 0..6 : n % 2 = 0}), "k")
VARIABLE x
Tenfold == TLCCache(Traced("state", 10 * x), {x})
Init == x \\in Evens
Next == x' \\in Evens /\\ x' > x
Inv == Tenfold = 10 * x /\\ Tenfold + 1 > 10 * x
====
"""
TLC_CACHE = ['<<"const", {0, 2, 4, 6}>>'] + [f'<<"state", {v}>>' for v in (0, 0, 20, 20, 40, 40, 60, 60)]

DEFER = """---- MODULE Defer ----
EXTENDS TLCExt, TLC, Integers
VARIABLE x
Init == x = 0
Next == x < 20 /\\ \\E d \\in {1, 2} : x' = x + d /\\ TLCDefer(PrintT(<<"picked", x, d, x'>>))
====
"""
CFG = "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n"


def _write(tmp: Path, text: str, cfg: str = CFG) -> tuple[Path, Path]:
    name = text.split()[2]
    spec, cfg_path = tmp / f"{name}.tla", tmp / f"{name}.cfg"
    spec.write_text(text, encoding="utf-8")
    cfg_path.write_text(cfg, encoding="utf-8")
    return spec, cfg_path


def _printed(out: str) -> list[str]:
    return [ln.strip() for ln in out.splitlines() if ln.startswith("<<")]


def test_tlc_eval_definition_reads_the_current_states(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    spec, cfg = _write(tmp_path, EVAL_DEF)
    result = check_spec(spec, cfg)
    assert result.verdict == "ok" and result.distinct == 3
    assert _printed(capsys.readouterr().out) == TLC_EVAL_DEF


def test_tlc_eval_definition_of_an_unknown_name_is_an_error(tmp_path: Path) -> None:
    spec, cfg = _write(tmp_path, EVAL_DEF.replace('"Double"', '"Triple"'))
    result = check_spec(spec, cfg)
    assert result.verdict == "error"
    assert "TLCEvalDefinition" in result.message and "Triple" in result.message


def test_tlc_cache_evaluates_a_constant_once(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    spec, cfg = _write(tmp_path, CACHE)
    result = check_spec(spec, cfg)
    assert (result.verdict, result.distinct, result.generated) == ("ok", 4, 10)
    assert _printed(capsys.readouterr().out) == TLC_CACHE


def _chains(lines: list[str]) -> list[list[tuple[int, int, int]]]:
    """The "picked" lines split into behaviours (each starts at x = 0)."""
    out: list[list[tuple[int, int, int]]] = []
    for ln in lines:
        x, d, x1 = (int(v) for v in ln[len('<<"picked", '):-2].split(", "))
        if x == 0:
            out.append([])
        out[-1].append((x, d, x1))
    return out


def test_tlc_defer_runs_on_the_picked_successor_in_simulation(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture) -> None:
    spec, cfg = _write(tmp_path, DEFER, "INIT Init\nNEXT Next\n")
    model, c = build_model(spec, cfg)
    res = simulate(model, num=3, depth=6, seed=7, cfg=c)
    assert not res.errors
    chains = _chains(_printed(capsys.readouterr().out))
    # as TLC -simulate prints: one line per step taken (not per successor generated), each
    # step starting where the previous one ended
    assert len(chains) == 3 and all(len(ch) == 5 for ch in chains)
    for ch in chains:
        assert all(x + d == x1 for x, d, x1 in ch)
        assert all(a[2] == b[0] for a, b in zip(ch, ch[1:]))


def test_tlc_defer_is_never_evaluated_when_model_checking(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    spec, cfg = _write(tmp_path, DEFER, "INIT Init\nNEXT Next\n")
    result = check_spec(spec, cfg, Limits())
    # TLC 2.18: deadlock, 41 states generated, 22 distinct, nothing printed
    assert (result.verdict, result.generated, result.distinct) == ("deadlock", 41, 22)
    assert _printed(capsys.readouterr().out) == []


def _tlc(jar: Path, tmp: Path, spec: Path, cfg: Path, *extra: str) -> list[str]:
    out = subprocess.run(["java", "-cp", str(jar), "tlc2.TLC", "-workers", "1", *extra, "-metadir",
                          str(tmp / "meta"), "-config", cfg.name, spec.name],
                         cwd=tmp, capture_output=True, text=True, timeout=300).stdout
    return _printed(out)


@pytest.mark.tlc
def test_tlc_prints_the_same_for_tlccache(tlc_jar: Path, tmp_path: Path) -> None:
    spec, cfg = _write(tmp_path, CACHE)
    assert _tlc(tlc_jar, tmp_path, spec, cfg) == TLC_CACHE


@pytest.mark.tlc
def test_tlc_defers_as_specula_does(tlc_jar: Path, tmp_path: Path) -> None:
    spec, cfg = _write(tmp_path, DEFER, "INIT Init\nNEXT Next\n")
    assert _tlc(tlc_jar, tmp_path, spec, cfg) == []
    chains = _chains(_tlc(tlc_jar, tmp_path, spec, cfg, "-simulate", "num=3", "-depth", "5"))
    assert len(chains) == 3 and all(len(ch) == 5 for ch in chains)
    for ch in chains:
        assert all(x + d == x1 for x, d, x1 in ch) and all(a[2] == b[0] for a, b in zip(ch, ch[1:]))
