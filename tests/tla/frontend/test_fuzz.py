"""Mutated specs never crash the front end: every outcome is a Spec or a SpecError whose
diagnostics carry a code, a message and a location."""

from __future__ import annotations

import random
import re
from pathlib import Path

from specula.errors import SpecError
from specula.tla.loading import load_text

SOURCE = (Path(__file__).resolve().parent.parent / "fixtures" / "valid" / "AllConstructs.tla").read_text()
TOKEN = re.compile(r"\\[A-Za-z]+|\w+|<=>|=>|==|\|->|->|<<|>>|/\\|\\/|\S")
PIECES = ["(", ")", "[", "]", "{", "}", "<<", ">>", "==", "=", "'", "\\A", ":", ",", "IF", "THEN", "ELSE",
          "LET", "IN", "CASE", "->", "[]", "<>", "!", "@", "EXCEPT", "INSTANCE", "LAMBDA", "\\in", "/\\",
          "\\/", "\"", "(*", "x", "1", "RECURSIVE", "====", "WF_", "..", ".", "|->", "\n/\\ "]


def test_mutations_never_crash(tmp_path: Path) -> None:
    rng = random.Random(20261130)
    outcomes = {"ok": 0, "error": 0}
    for _ in range(50):
        text = SOURCE
        for _ in range(rng.randint(1, 3)):
            spans = [m.span() for m in TOKEN.finditer(text)]
            s, e = rng.choice(spans)
            r = rng.random()
            if r < 0.4:
                text = text[:s] + text[e:]
            elif r < 0.8:
                text = text[:e] + " " + rng.choice(PIECES) + " " + text[e:]
            else:
                text = text[:s] + rng.choice(PIECES) + text[e:]
        try:
            load_text(text, "AllConstructs.tla", root_dir=tmp_path)
            outcomes["ok"] += 1
        except SpecError as exc:
            outcomes["error"] += 1
            for d in exc.diagnostics():
                assert d.code and d.message and d.line, d
    assert outcomes["error"] > 25  # the mutations do break most specs
