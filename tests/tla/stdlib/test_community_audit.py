"""Every operator the upstream CommunityModules and TLCExt export is in specula's library with
the same arity, and native where TLC has Java code for it. The list (upstream_operators.txt) is
recorded from the upstream repositories by benchmarks/perf/community_audit.py --write."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from specula.tla import ast as A
from specula.tla import load
from specula.tla.builtins import native_for

LIST = Path(__file__).resolve().parent / "upstream_operators.txt"


def _upstream() -> dict[str, list[tuple[str, int, bool]]]:
    out: dict[str, list[tuple[str, int, bool]]] = defaultdict(list)
    for ln in LIST.read_text(encoding="utf-8").splitlines():
        if not ln.strip() or ln.startswith("#"):
            continue
        ref, _, java = ln.partition(" ")
        module, _, rest = ref.partition("!")
        name, _, arity = rest.rpartition("/")
        out[module].append((name, int(arity), java == "java"))
    return out


UPSTREAM = _upstream()


def test_the_list_covers_every_module() -> None:
    assert len(UPSTREAM) >= 23 and sum(map(len, UPSTREAM.values())) >= 250
    assert {"TLCExt", "SequencesExt", "Quorum", "Graphs", "IOUtils"} <= set(UPSTREAM)


@pytest.mark.parametrize("module", sorted(m for m, ops in UPSTREAM.items() if ops))
def test_specula_defines_every_upstream_operator(tmp_path: Path, module: str) -> None:
    spec = tmp_path / "Uses.tla"
    spec.write_text(f"---- MODULE Uses ----\nEXTENDS {module}\n====\n", encoding="utf-8")
    names = load(spec).root.names
    bad = []
    for name, arity, java in UPSTREAM[module]:
        d = names.get(name)
        node = getattr(d, "node", None)
        have = len(node.params) if isinstance(node, (A.OpDef, A.InstanceDef)) else 0 if node is not None else None
        if have != arity:
            bad.append(f"{name}/{arity}: " + ("missing" if d is None else f"arity {have}"))
        elif java and native_for(d.module, name) is None:
            bad.append(f"{name}: TLC has Java code for it, specula evaluates its TLA+ text")
    assert not bad, f"{module}: " + "; ".join(bad)
