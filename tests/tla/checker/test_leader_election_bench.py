"""Issue 19's leader-election benchmark on small constants: specula's search of
benchmarks/perf/specs/LeaderElection.tla and the hand-written BFS of the same model
(benchmarks/perf/hand_bfs.py) both give TLC's counts. Expected values are what TLC 2.18 printed
(``java tlc2.TLC -workers 1``); with SPECULA_TLA2TOOLS set, TLC is also run on one of them."""

from __future__ import annotations

import functools
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from specula.tla.checker import Limits, build_model, check

PERF = Path(__file__).resolve().parents[3] / "benchmarks" / "perf"
SPEC = PERF / "specs" / "LeaderElection.tla"

# (N, MaxTerm) -> (distinct, generated, depth), from TLC 2.18 -workers 1
TLC = {
    (2, 2): (219, 813, 11),
    (2, 3): (3_587, 18_221, 15),
    (3, 1): (263, 1_327, 10),
}


@functools.cache
def _hand_bfs():
    spec = importlib.util.spec_from_file_location("hand_bfs", PERF / "hand_bfs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["hand_bfs"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _copy(tmp_path: Path, n: int, max_term: int) -> Path:
    """The spec and a cfg with these constants in tmp_path (TLC writes its states/ beside them)."""
    text = (PERF / "specs" / "LeaderElection.cfg").read_text()
    cfg = text.replace("N = 3", f"N = {n}").replace("MaxTerm = 2", f"MaxTerm = {max_term}")
    assert cfg != text or (n, max_term) == (3, 2)
    (tmp_path / "LeaderElection.cfg").write_text(cfg)
    (tmp_path / "LeaderElection.tla").write_text(SPEC.read_text())
    return tmp_path / "LeaderElection.tla"


@pytest.mark.parametrize("n,max_term", sorted(TLC))
def test_specula_and_the_hand_bfs_give_tlc_counts(n: int, max_term: int, tmp_path: Path) -> None:
    model, cfg = build_model(_copy(tmp_path, n, max_term))
    r = check(model, Limits(max_seconds=120), cfg=cfg)
    assert r.verdict == "ok"
    assert (r.distinct, r.generated, r.depth) == TLC[(n, max_term)]
    hand = _hand_bfs().bfs(n, max_term)
    assert hand.violation is None
    assert (hand.distinct, hand.generated, hand.depth) == TLC[(n, max_term)]


def test_the_benchmark_cfgs_are_the_recorded_sizes() -> None:
    hand = _hand_bfs()
    assert hand.constants_of(PERF / "specs" / "LeaderElection.cfg") == (3, 2)
    assert hand.constants_of(PERF / "specs" / "LeaderElectionSmall.cfg") == (3, 1)
    # the counts hand_bfs.py compares itself with are TLC's as recorded here
    assert all(hand.TLC_COUNTS[key] == counts for key, counts in TLC.items())


@pytest.mark.tlc
def test_differential_tlc_counts(tmp_path: Path, tlc_jar: Path) -> None:
    tla = _copy(tmp_path, 2, 3)
    out = subprocess.run(["java", "-XX:+UseParallelGC", "-cp", str(tlc_jar), "tlc2.TLC", "-workers", "1",
                          "-config", "LeaderElection.cfg", tla.name], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300).stdout
    assert "18221 states generated, 3587 distinct states found, 0 states left on queue." in out
    assert "The depth of the complete state graph search is 15." in out
