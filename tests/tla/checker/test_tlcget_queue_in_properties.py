"""TLCGet("queue") in a temporal property reads, at each state, TLC's queue size right after that
state's successors were generated (TLC evaluates the state predicates of temporal properties as
it explores): trace-validation specs (etcd's TraceMatched) use it to ask that the search reached
the end of the log. Expected verdicts from TLC 2.18 (-lncheck final): Matched holds when the
trace reaches l = 6, is violated when the search stops at l = 3."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from specula.tla.checker import check_spec

HERE = Path(__file__).resolve().parent / "queue"
TLC_VERDICTS = {"TraceQueueMatched": "ok", "TraceQueueStuck": "liveness"}


@pytest.mark.parametrize("cfg,verdict", sorted(TLC_VERDICTS.items()))
def test_queue_is_read_per_state(cfg: str, verdict: str) -> None:
    r = check_spec(HERE / "TraceQueue.tla", HERE / f"{cfg}.cfg")
    assert r.verdict == verdict, r.message
    assert (r.distinct, r.generated) == ((6, 6) if verdict == "ok" else (3, 3))


@pytest.mark.tlc
@pytest.mark.parametrize("cfg,verdict", sorted(TLC_VERDICTS.items()))
def test_tlc_agrees(tlc_jar: Path, tmp_path: Path, cfg: str, verdict: str) -> None:
    for name in ("TraceQueue.tla", f"{cfg}.cfg"):  # TLC writes trace files beside the spec
        (tmp_path / name).write_text((HERE / name).read_text())
    out = subprocess.run(["java", "-XX:+UseParallelGC", "-cp", str(tlc_jar), "tlc2.TLC", "-workers", "1",
                          "-lncheck", "final", "-metadir", str(tmp_path / "states"), "-config", f"{cfg}.cfg",
                          "TraceQueue.tla"], cwd=tmp_path, capture_output=True, text=True, timeout=300).stdout
    assert ("Temporal properties were violated" in out) == (verdict == "liveness"), out[-2000:]
