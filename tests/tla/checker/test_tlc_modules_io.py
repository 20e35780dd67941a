"""Json (de)serialization natives, TLCGet("config"), and ``specula check --lib`` (extra module
folders, while the modules specula implements still come from its own library)."""

from __future__ import annotations

import json
from pathlib import Path

from specula.cli import main
from specula.tla.checker import check_spec


def _spec(tmp_path: Path, name: str, body: str, cfg: str = "") -> Path:
    p = tmp_path / f"{name}.tla"
    p.write_text(f"---- MODULE {name} ----\n{body}\n====\n", encoding="utf-8")
    (tmp_path / f"{name}.cfg").write_text(cfg, encoding="utf-8")
    return p


def test_json_and_ndjson_deserialize_read_records_and_sequences(tmp_path, monkeypatch):
    (tmp_path / "log.ndjson").write_text('{"n": 2, "tag": "a"}\n\n{"n": 3, "vc": [1, 2]}\n')
    (tmp_path / "one.json").write_text('{"ok": true, "xs": [{"k": 1}]}')
    monkeypatch.chdir(tmp_path)  # relative names are read from the working directory, as TLC
    spec = _spec(tmp_path, "J", """EXTENDS Json, Sequences, Naturals
Log == ndJsonDeserialize("log.ndjson")
ASSUME Len(Log) = 2 /\\ Log[1].n = 2 /\\ Log[1].tag = "a" /\\ Log[2].vc = <<1, 2>>
ASSUME JsonDeserialize("one.json") = [ok |-> TRUE, xs |-> <<[k |-> 1]>>]
ASSUME ToJson([a |-> <<1, "x">>]) = "{\\"a\\":[1,\\"x\\"]}"
ASSUME ndJsonSerialize("out.ndjson", <<[a |-> 1], 2>>)""")
    r = check_spec(spec)
    assert r.verdict == "ok", r.message
    assert [json.loads(x) for x in (tmp_path / "out.ndjson").read_text().splitlines()] == [{"a": 1}, 2]


def test_json_deserialize_of_a_missing_file_names_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = _spec(tmp_path, "J2", 'EXTENDS Json\nASSUME JsonDeserialize("nope.json") = 1')
    r = check_spec(spec)
    assert r.verdict in ("error", "assumption")
    assert "nope.json" in r.message


def test_tlcget_config_reports_mode_and_deadlock(tmp_path):
    spec = _spec(tmp_path, "C", """EXTENDS TLC, Naturals
VARIABLE x
ASSUME TLCGet("config").mode = "bfs"
Init == x = 0
Next == x < 2 /\\ x' = x + 1
Inv == TLCGet("config").deadlock = FALSE""", "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n")
    assert check_spec(spec).verdict == "ok"
    (tmp_path / "C.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    assert check_spec(spec).verdict == "invariant"  # deadlock checking is on by default


def test_check_lib_option_finds_modules_in_extra_folders(tmp_path, capsys):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "Helpers.tla").write_text("---- MODULE Helpers ----\nEXTENDS Naturals\nDouble(n) == n + n\n====\n")
    # a library copy of a module specula implements must not replace specula's own
    (lib / "Json.tla").write_text("---- MODULE Json ----\nndJsonDeserialize(f) == CHOOSE v : TRUE\n====\n")
    (tmp_path / "d.ndjson").write_text("1\n2\n")
    spec = _spec(tmp_path, "L", 'EXTENDS Naturals, Helpers, Json\nASSUME Double(2) = 4\n'
                 f'ASSUME ndJsonDeserialize("{tmp_path / "d.ndjson"}") = <<1, 2>>')
    assert main(["check", str(spec)]) != 0  # Helpers not found without --lib
    assert "cannot find module 'Helpers'" in capsys.readouterr().err
    assert main(["check", str(spec), "--lib", str(lib)]) == 0
    assert "No error has been found" in capsys.readouterr().out


def test_postcondition_reads_final_stats(tmp_path):
    """TLC evaluates POSTCONDITION after a complete search; TLCGet("stats") then holds its
    figures (TLC 2.18 prints diameter 4, 4 distinct, 4 generated, 1 initial here)."""
    body = """EXTENDS Naturals, TLC
VARIABLE x
Init == x = 0
Next == x < 3 /\\ x' = x + 1
Post == LET st == TLCGet("stats") IN
        st.diameter = 4 /\\ st.distinct = 4 /\\ st.generated = 4 /\\ st.initial = 1 /\\ st.queue = 0
Wrong == TLCGet("stats").diameter = 2"""
    spec = _spec(tmp_path, "P", body, "INIT Init\nNEXT Next\nPOSTCONDITION Post\nCHECK_DEADLOCK FALSE\n")
    assert check_spec(spec).verdict == "ok"
    (tmp_path / "P.cfg").write_text("INIT Init\nNEXT Next\nPOSTCONDITION Wrong\nCHECK_DEADLOCK FALSE\n")
    r = check_spec(spec)
    assert r.verdict == "assumption" and r.violated == "Wrong"
    from specula.tla.report import render_check

    text = render_check(r, markup=False)  # the search ran: its figures are printed, as TLC
    assert "Postcondition Wrong is violated." in text and "4 states generated, 4 distinct" in text


def test_alias_shows_records_in_the_error_trace(tmp_path, capsys):
    """cfg ALIAS: each trace state printed as the alias record, primes reading the next state
    (the last state: itself) and TLCGet("level") its position, as TLC 2.18 prints it."""
    body = """EXTENDS Naturals, TLC
VARIABLE x
Init == x = 0
Next == x < 3 /\\ x' = x + 1
Inv == x < 2
Alias == [x |-> x, nextx |-> x', lvl |-> TLCGet("level")]"""
    spec = _spec(tmp_path, "AL", body, "INIT Init\nNEXT Next\nINVARIANT Inv\nALIAS Alias\n")
    r = check_spec(spec)
    assert r.verdict == "invariant" and r.alias_variables == ("x", "nextx", "lvl")
    assert [st for _, st in r.alias_trace] == [(0, 1, 1), (1, 2, 2), (2, 2, 3)]
    assert main(["check", str(spec)]) == 1
    out = capsys.readouterr().out
    assert "nextx = 2" in out and "lvl = 3" in out
