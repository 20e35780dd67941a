"""Renderers for checker and simulation results: TLC-like text (rich markup) and JSON.

Text and JSON are built from the same result objects so they never disagree. Error traces show
each state with its action label (``State 2: <Acquire(t1)>``), changed variables marked with
``*`` and highlighted, like TLC's ``/\\ x = ...`` listing.
"""

from __future__ import annotations

from typing import Any, Sequence

from specula.tla.checker import CheckResult, Progress
from specula.tla.simulate import SimResult
from specula.tla.values import format_value, tlc_string_order, to_json

__all__ = [
    "CHECK_SCHEMA",
    "SIM_SCHEMA",
    "format_progress",
    "render_check",
    "render_simulation",
    "render_trace",
    "check_to_json",
    "simulation_to_json",
]

CHECK_SCHEMA = "specula.check/1"
SIM_SCHEMA = "specula.simulate/1"


def _fmt(v: Any) -> str:
    try:
        return format_value(v)
    except Exception:  # toy models in tests use plain Python values
        if v is True:
            return "TRUE"
        if v is False:
            return "FALSE"
        return repr(v)


def _json_value(v: Any) -> Any:
    try:
        return to_json(v)
    except Exception:
        if isinstance(v, (bool, int, str)) or v is None:
            return v
        if isinstance(v, (tuple, list)):
            return [_json_value(x) for x in v]
        if isinstance(v, (set, frozenset)):
            return sorted((_json_value(x) for x in v), key=repr)
        return str(v)


def _esc(text: str) -> str:
    # lazy: rich.markup costs ~16 ms (CPU) to import and only the text renderers need it (not --json, nor the
    # progress lines of the phases)
    from rich.markup import escape

    return escape(text)


def _n(x: int) -> str:
    return f"{x:,}"


def format_progress(p: Progress) -> str:
    if getattr(p, "note", ""):
        return f"Checking temporal properties at {p.elapsed:.0f}s: {p.note}"
    rate = p.generated / p.elapsed * 60 if p.elapsed > 0 else 0.0
    return (
        f"Progress({p.depth}) at {p.elapsed:.0f}s: {_n(p.generated)} states generated "
        f"({rate:,.0f} s/min), {_n(p.distinct)} distinct states found, {_n(p.queue)} states left on queue."
    )


def render_trace(
    trace: Sequence[tuple[str | None, tuple]], variables: Sequence[str], markup: bool = True
) -> list[str]:
    """``State N: <label>`` blocks; variables that changed since the previous state are marked."""
    lines: list[str] = []
    prev: tuple | None = None
    esc = _esc if markup else (lambda s: s)
    for i, (label, st) in enumerate(trace, 1):
        head = "<Initial predicate>" if i == 1 and label is None else f"<{label or '?'}>"
        lines.append(f"[bold]State {i}:[/] {esc(head)}" if markup else f"State {i}: {head}")
        for j, var in enumerate(variables):
            val = st[j] if j < len(st) else None
            text = f"{var} = {_fmt(val)}"
            changed = prev is not None and (j >= len(prev) or prev[j] != val or type(prev[j]) is not type(val))
            if changed:
                lines.append(f"[yellow]*/\\ {esc(text)}[/]" if markup else f"*/\\ {text}")
            else:
                lines.append(f" /\\ {esc(text)}")
        lines.append("")
        prev = st
    return lines


_HEADLINES = {
    "ok": "Model checking completed. No error has been found.",
    "deadlock": "Error: Deadlock reached.",
    "assumption": "Error: an assumption is false.",
}


def render_check(result: CheckResult, spec: str = "", cfg: str = "", markup: bool = True) -> str:
    """TLC's report of a check; values printed in TLC's order (records' fields, sets)."""
    with tlc_string_order(result.string_order):
        return _render_check(result, spec, cfg, markup)


def _render_check(result: CheckResult, spec: str, cfg: str, markup: bool) -> str:
    """The TLC-like report: verdict, error trace, statistics and per-action coverage."""
    esc = _esc if markup else (lambda s: s)
    out: list[str] = []
    if spec:
        out.append(f"Model checking {esc(spec)}" + (f" with {esc(cfg)}" if cfg else ""))
    if result.verdict == "ok":
        out.append(("[green]" if markup else "") + _HEADLINES["ok"] + ("[/]" if markup else ""))
        if result.fp_collision is not None:  # (--workers N: a seen set of fingerprints, as TLC's)
            out.append("  Estimates of the probability that specula did not check all reachable states\n"
                       "  because two distinct states had the same fingerprint:\n"
                       f"  calculated (optimistic):  val = {result.fp_collision:.1E}")
    elif result.verdict == "limit":
        out.append(esc(result.message or "stopped"))
    else:
        msg = result.message if result.verdict != "deadlock" else _HEADLINES["deadlock"]
        if not msg.startswith("Error"):
            msg = f"Error: {msg}"
        out.append(f"[bold red]{esc(msg)}[/]" if markup else msg)
        if result.span is not None and getattr(result.span, "line", 0):  # no "<builtin>:0:0"
            out.append(f"  at {esc(str(result.span))}")
        for d in result.diagnostics:
            loc = d.location() if hasattr(d, "location") else ""
            out.append(f"  {esc(loc)}: {esc(getattr(d, 'message', str(d)))}")
        if result.counterexample:
            out.append("Error: The following behavior constitutes a counter-example:" if result.verdict == "liveness"
                       else "Error: The behavior up to this point is:" if result.verdict != "error"
                       else "The behavior up to the error is:")
            if result.alias_trace:  # cfg ALIAS: the records instead of the variables, as TLC
                out.extend(render_trace(result.alias_trace, result.alias_variables, markup))
            else:
                out.extend(render_trace(result.counterexample, result.variables, markup))
            if result.alias_error:
                out.append(f"Warning: {esc(result.alias_error)}; the variables are shown")
            if result.stuttering:
                out.append(f"State {len(result.counterexample) + 1}: Stuttering")
            elif result.loop_to is not None:
                via = f": <{result.loop_label}>" if result.loop_label else ""
                out.append(f"Back to state {result.loop_to}{esc(via)}")
    for p in result.properties:
        if p.status == "not checked":
            out.append(f"Property {esc(p.name)}: not checked ({esc(p.detail)})")
        elif p.status == "violated":
            out.append(f"Property {esc(p.name)}: violated")
        elif p.status == "ok" and p.detail:
            out.append(f"Property {esc(p.name)}: {esc(p.detail)}")
        elif p.status == "ok":
            out.append(f"Property {esc(p.name)}: holds")
    if result.verdict != "assumption" or result.generated:  # a false POSTCONDITION follows a search
        out.append(
            f"{_n(result.generated)} states generated, {_n(result.distinct)} distinct states found, "
            f"{_n(result.queue_left)} states left on queue."
        )
        out.append(f"The depth of the complete state graph search is {result.depth}.")
        if result.elapsed > 0:
            rate = result.generated / result.elapsed
            out.append(f"Finished in {result.elapsed:.2f}s ({rate:,.0f} states/s).")
    if result.coverage:
        out.append("Coverage (distinct new states : states generated):")
        width = max(len(c.label) for c in result.coverage)
        for c in result.coverage:
            flag = "  [yellow](never enabled)[/]" if (markup and c.generated == 0) else ("  (never enabled)" if c.generated == 0 else "")
            out.append(f"  {esc(c.label.ljust(width))}  {_n(c.distinct):>10} : {_n(c.generated):<10}{flag}")
    return "\n".join(out)


def check_to_json(result: CheckResult, spec: str = "", cfg: str = "") -> dict:
    with tlc_string_order(result.string_order):
        return _check_to_json(result, spec, cfg)


def _check_to_json(result: CheckResult, spec: str, cfg: str) -> dict:
    return {
        "schema": CHECK_SCHEMA,
        "spec": spec,
        "cfg": cfg,
        "verdict": result.verdict,
        "message": result.message,
        "violated": result.violated,
        "span": str(result.span) if result.span is not None else None,
        "distinct": result.distinct,
        "generated": result.generated,
        "depth": result.depth,
        "queue_left": result.queue_left,
        "initial_states": result.init_states,
        "stopped": result.stopped,
        "elapsed": round(result.elapsed, 4),
        "coverage": [c.to_dict() for c in result.coverage],
        "properties": [p.to_dict() for p in result.properties],
        "diagnostics": [d.to_dict() if hasattr(d, "to_dict") else str(d) for d in result.diagnostics],
        "counterexample": [
            {"action": a, "state": {v: _json_value(x) for v, x in zip(result.variables, st)}}
            for a, st in result.counterexample
        ],
        "alias": [{v: _json_value(x) for v, x in zip(result.alias_variables, st)} for _, st in result.alias_trace],
        "loop_to": result.loop_to,
        "loop_action": result.loop_label,
        "stuttering": result.stuttering,
    }


def render_simulation(result: SimResult, spec: str = "", markup: bool = True) -> str:
    esc = _esc if markup else (lambda s: s)
    out: list[str] = []
    if spec:
        out.append(f"Simulating {esc(spec)} (seed {result.seed})")
    else:
        out.append(f"Simulation (seed {result.seed})")
    if result.errors:
        for err in result.errors:
            msg = err.message if err.message.startswith("Error") else f"Error: {err.message}"
            out.append((f"[bold red]{esc(msg)}[/]" if markup else msg) + f" (run {err.run + 1})")
            if err.span is not None and getattr(err.span, "line", 0):
                out.append(f"  at {esc(str(err.span))}")
            out.extend(render_trace(err.trace, result.variables, markup))
    else:
        out.append(("[green]" if markup else "") + "No error found." + ("[/]" if markup else ""))
    if result.stopped:
        out.append(f"stopped: {result.stopped}")
    out.append(
        f"{_n(result.runs)} traces, {_n(result.steps)} steps, {_n(result.generated)} states generated, "
        f"{_n(result.distinct)} distinct states seen, longest trace {result.max_depth} states, {result.elapsed:.2f}s."
    )
    if result.coverage:
        out.append("Coverage (distinct new states : states generated):")
        width = max(len(c.label) for c in result.coverage)
        for c in result.coverage:
            out.append(f"  {esc(c.label.ljust(width))}  {_n(c.distinct):>10} : {_n(c.generated):<10}")
    return "\n".join(out)


def simulation_to_json(result: SimResult, spec: str = "") -> dict:
    return {
        "schema": SIM_SCHEMA,
        "spec": spec,
        "seed": result.seed,
        "verdict": result.verdict,
        "runs": result.runs,
        "steps": result.steps,
        "generated": result.generated,
        "distinct": result.distinct,
        "max_depth": result.max_depth,
        "stopped": result.stopped,
        "elapsed": round(result.elapsed, 4),
        "coverage": [c.to_dict() for c in result.coverage],
        "errors": [
            {
                "verdict": e.verdict,
                "message": e.message,
                "violated": e.violated,
                "run": e.run,
                "span": str(e.span) if e.span is not None else None,
                "trace": [
                    {"action": a, "state": {v: _json_value(x) for v, x in zip(result.variables, st)}}
                    for a, st in e.trace
                ],
            }
            for e in result.errors
        ],
    }
