"""The real `specula session` binary in a terminal (tmux, on its own socket): open the spin lock
with a mutant, fix it by typing, score it, see every phase pass, quit; the run directory holds it."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from specula.agent import specedit

ROOT = Path(__file__).resolve().parents[2]
SYSTEM = ROOT / "benchmarks" / "systems" / "spinlock"
FIX = specedit.find_definition((SYSTEM / "ref" / "spin.tla").read_text(), "AcquireLock").text

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_session_binary_in_tmux(tmp_path):
    sock = str(tmp_path / "tmux.sock")

    def tmux(*args: str) -> str:
        return subprocess.run(["tmux", "-S", sock, *args], capture_output=True, text=True, check=True).stdout

    def screen() -> str:
        return tmux("capture-pane", "-p", "-t", "t", "-S", "-200")

    def wait_for(cond, seconds: float = 300.0) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if cond():
                return
            time.sleep(0.3)
        raise AssertionError("timed out; screen:\n" + screen())

    runs = tmp_path / "runs"
    env = " ".join(f"-u {k}" for k in os.environ if k.endswith("_API_KEY"))  # no key: the manual workbench
    cmd = (f"cd {shlex.quote(str(tmp_path))} && env {env} PYTHONPATH={shlex.quote(str(ROOT))} "
           f"{shlex.quote(sys.executable)} -m specula session spinlock --mutant TryLockBlocks --quick "
           f"--runs-dir {shlex.quote(str(runs))}")
    tmux("new-session", "-d", "-s", "t", "-x", "200", "-y", "50", cmd)
    try:
        tmux("set-option", "-t", "t", "remain-on-exit", "on")
        tmux("resize-window", "-t", "t", "-x", "200", "-y", "50")
        wait_for(lambda: "manual workbench" in screen())
        (run,) = list(runs.iterdir())
        wait_for(lambda: (run / "spec" / "001" / "spin.tla").is_file())
        tmux("send-keys", "-t", "t", "-l", "run all")
        tmux("send-keys", "-t", "t", "Enter")
        wait_for(lambda: (run / "scorecard-1.json").is_file())
        wait_for(lambda: "conformance: 0.500" in screen(), 60)
        tmux("send-keys", "-t", "t", "-l", "edit " + " ".join(FIX.split()))
        tmux("send-keys", "-t", "t", "Enter")
        wait_for(lambda: (run / "spec" / "002" / "spin.tla").is_file())
        tmux("send-keys", "-t", "t", "-l", "run all")
        tmux("send-keys", "-t", "t", "Enter")
        wait_for(lambda: "ALL PHASES PASS" in screen())
        tmux("send-keys", "-t", "t", "-l", "quit")
        tmux("send-keys", "-t", "t", "Enter")
        wait_for(lambda: re.search(r"run \S+: converged; continue with", screen().replace("\n", "")) is not None, 60)
    finally:
        subprocess.run(["tmux", "-S", sock, "kill-server"], capture_output=True)
    state = json.loads((run / "state.json").read_text())
    assert state["status"] == "converged" and state["session"]["version"] == 2
    card = json.loads((run / "final" / "scorecard.json").read_text())
    assert card["scores"] == {"syntax": 1.0, "runtime": 1.0, "conformance": 1.0, "invariants": 1.0}
