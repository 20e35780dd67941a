"""Resident memory of this process, and the default ceiling a search stops at (``--max-memory``).

An exploding state space must stop with its partial figures before the machine swaps: the
checker compares ``rss_bytes()`` with ``Limits.max_memory`` a few times a second.
"""

from __future__ import annotations

import os
import re
import sys

__all__ = ["rss_bytes", "pss_bytes", "machine_bytes", "default_max_memory", "parse_memory", "memory_limit", "DEFAULT_FRACTION"]

DEFAULT_FRACTION = 0.6  # of the machine's physical memory


def rss_bytes(pid: int | None = None) -> int:
    """Resident set size now of this process, or of process ``pid`` (a worker; 0 when it is gone)
    (Linux /proc; elsewhere the peak from getrusage, of this process only)."""
    if pid is not None:
        try:
            with open(f"/proc/{pid}/statm", "rb") as fh:
                return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError, AttributeError):
            return 0
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        import resource  # lazy: a Unix-only module, needed only where there is no /proc

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def pss_bytes(pid: int) -> int:
    """Proportional set size of process ``pid`` (Linux): its resident memory with the pages it
    shares with other processes (a forked worker and the checker) counted in proportion, so the
    sum over the processes of one search is its real memory; its RSS where that is unknown."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as fh:
            for line in fh:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return rss_bytes(pid)


def machine_bytes() -> int | None:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def default_max_memory() -> int | None:
    total = machine_bytes()
    return int(total * DEFAULT_FRACTION) if total else None


_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_memory(text: str) -> int | None:
    """``4G``, ``512M``, ``75%`` (of the machine), ``0``/``none`` (no limit) -> bytes or None.
    Raises ValueError on anything else."""
    t = text.strip().lower()
    if t in ("0", "none", "off", "unlimited"):
        return None
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*%", t)
    if m:
        total = machine_bytes()
        if total is None:
            raise ValueError("the machine's memory size is unknown; give a size such as 4G")
        return int(total * float(m.group(1)) / 100)
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?", t)
    if not m:
        raise ValueError(f"{text!r} is not a memory size (e.g. 4G, 512M, 75%)")
    return int(float(m.group(1)) * _UNITS[m.group(2)])


def memory_limit(text: str | None) -> int | None:
    """The ceiling a ``--max-memory`` text asks for: ``None`` (not given) is the default fraction of
    the machine; otherwise ``parse_memory`` (``0`` = no limit). Raises ValueError on a bad text."""
    return default_max_memory() if text is None else parse_memory(text)
