"""traces room: trace and window formats, readers, the mapping file, cutting windows.

Formats are documented in docs/traces.md and docs/mapping.md.
"""

from specula.traces.cut import cut_windows
from specula.traces.mapping import Mapping, load_mapping, parse_mapping
from specula.traces.readers import (
    detect_format,
    find_trace_files,
    iter_action_windows,
    iter_sysmobench_windows,
    iter_windows,
    read_event_trace,
    read_tlc_trace,
    read_trace,
)
from specula.traces.window import Step, Trace, TraceIssue, Window

__all__ = [
    "Window",
    "Step",
    "Trace",
    "TraceIssue",
    "Mapping",
    "load_mapping",
    "parse_mapping",
    "cut_windows",
    "detect_format",
    "find_trace_files",
    "iter_windows",
    "iter_sysmobench_windows",
    "iter_action_windows",
    "read_event_trace",
    "read_tlc_trace",
    "read_trace",
    "follow_trace",
    "TraceFollow",
    "spec_info",
]


def __getattr__(name: str):  # engine-backed parts load on first use (they import specula.tla)
    if name in ("follow_trace", "TraceFollow"):
        from specula.traces import follow

        return getattr(follow, name)
    if name == "spec_info":
        from specula.traces.shape import spec_info

        return spec_info
    raise AttributeError(name)
