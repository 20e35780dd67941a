"""TLCExt's TLCFP is TLC's fingerprint (FP64 over TLC's encoding of values, with -fp 0) during a
model check, where sets of strings and record fields are ordered as TLC interned the strings.
The expected values are those TLC 2.18 printed for this spec with ``-fp 0`` (constant cases are
in cases/TLCExt.txt); the ``tlc`` test runs TLC again."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from specula.tla.checker import check_spec
from specula.tla.fp64 import fp64, tlcfp

SPEC = """---- MODULE FS ----
EXTENDS TLCExt, TLC, Integers
VARIABLE x
Init == x \\in {"zz", "yy"}
Next == x' = IF x = "zz" THEN "yy" ELSE "zz"
Row == <<x, TLCFP({"zz", "yy"}), TLCFP([zz |-> 1, yy |-> x]), TLCFP(<<x>>), TLCFP({<<"yy", 1>>, <<"zz", 0>>})>>
Inv == Row \\in Rows
Show == PrintT(Row)
====
"""
# "zz" is interned before "yy" (its first occurrence in the text): TLC orders {"zz", "yy"} so
TLC_ROWS = {
    ("zz", 656447037, 874007742, -1066653584, -1384246662),
    ("yy", 656447037, 2020883938, -1946134228, -1384246662),
}


def _rows_tla() -> str:
    return "{" + ", ".join("<<" + ", ".join(f'"{v}"' if isinstance(v, str) else str(v) for v in r) + ">>"
                           for r in sorted(TLC_ROWS)) + "}"


def _write(tmp: Path, inv: str) -> tuple[Path, Path]:
    spec = tmp / "FS.tla"
    spec.write_text(SPEC.replace("Inv == Row \\in Rows", f"Rows == {_rows_tla()}\nInv == Row \\in Rows"),
                    encoding="utf-8")
    cfg = tmp / "FS.cfg"
    cfg.write_text(f"INIT Init\nNEXT Next\nINVARIANT {inv}\n", encoding="utf-8")
    return spec, cfg


def test_tlcfp_in_a_check_is_tlcs(tmp_path: Path) -> None:
    spec, cfg = _write(tmp_path, "Inv")
    result = check_spec(spec, cfg)
    assert result.verdict == "ok", result.message
    assert result.distinct == 2


def test_a_wrong_fingerprint_is_caught(tmp_path: Path) -> None:
    spec, cfg = _write(tmp_path, "Inv")
    spec.write_text(spec.read_text(encoding="utf-8").replace("656447037", "656447038"), encoding="utf-8")
    assert check_spec(spec, cfg).verdict == "invariant"


def test_fp64_low_and_high_bits() -> None:
    # the full 64 bits (DotDiGraph names nodes by them) and TLCFP's low 32, both printed by TLC
    assert fp64(1) == (-686636423115914061) % (1 << 64)
    assert fp64((1,)) == 6481851652007346054
    assert tlcfp(1) == -1504394061
    assert tlcfp(frozenset({3, 1, 2})) == tlcfp(frozenset(range(1, 4))) == 2005681404


@pytest.mark.tlc
def test_tlc_prints_the_same_rows(tlc_jar: Path, tmp_path: Path) -> None:
    spec, cfg = _write(tmp_path, "Show")
    out = subprocess.run(["java", "-cp", str(tlc_jar), "tlc2.TLC", "-fp", "0", "-workers", "1", "-metadir",
                          str(tmp_path / "meta"), "-config", cfg.name, spec.name],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300).stdout
    rows = set()
    for line in out.splitlines():
        m = re.fullmatch(r'<<"(\w+)", (-?\d+), (-?\d+), (-?\d+), (-?\d+)>>', line.strip())
        if m:
            rows.add((m.group(1), *map(int, m.groups()[1:])))
    assert rows == TLC_ROWS
