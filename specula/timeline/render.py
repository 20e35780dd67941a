"""Renderers of a run's timeline: plain text, and a self-contained HTML page (spec diffs, an
inline-SVG plot of the scores over spec versions). Both read the same ``Timeline``."""

from __future__ import annotations

import difflib
import html
import json
import time
from typing import Any

from specula.timeline.timeline import PHASES, RunSummary, Timeline

__all__ = ["render_text", "render_list", "render_html", "spec_diff", "score_plot_svg"]

_COLORS = {"overall": "#111", "syntax": "#1f77b4", "runtime": "#2ca02c", "conformance": "#d62728",
           "invariants": "#9467bd"}


def _when(t: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) if t else "-"


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:.3f}"


def _args(args: dict[str, Any], limit: int = 70) -> str:
    parts = []
    for k, v in args.items():
        text = v if isinstance(v, str) else json.dumps(v, default=str)
        text = text.replace("\n", "⏎")
        parts.append(f"{k}={text[:40] + '…' if len(text) > 40 else text}")
    out = ", ".join(parts)
    return out[:limit] + ("…" if len(out) > limit else "")


def _first_line(text: str, limit: int = 90) -> str:
    line = next((x for x in text.splitlines() if x.strip()), "")
    return line[:limit] + ("…" if len(line) > limit else "")


def render_list(runs: list[RunSummary]) -> str:
    if not runs:
        return "no runs"
    rows = [("run", "task", "face", "model", "status", "versions", "best", "tokens", "cost")]
    for r in runs:
        rows.append((r.run, r.task, r.face, r.model or "-", r.status, str(r.versions), _fmt(r.best), f"{r.tokens:,}",
                     f"${r.cost:.4f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows)


def render_text(tl: Timeline) -> str:
    best = tl.best()
    lines = [f"run {tl.run}: task {tl.task}, {tl.face}, model {tl.model or '(none: manual or external agent)'}",
             f"status: {tl.status}" + (f" — {tl.reason}" if tl.reason else ""),
             f"from {_when(tl.started)} to {_when(tl.ended)}; {len(tl.calls)} model calls, {tl.tokens:,} tokens, "
             f"${tl.cost:.4f}; {len(tl.tools)} tool calls",
             "best: " + (f"version {best.version} (scorecard {best.n}), overall {best.overall:.3f}" if best else "none"),
             "", "spec versions (last scores of each; '-' = phase not run)"]
    per = tl.latest_per_version()
    head = ("ver", "how", "lines", *PHASES, "overall")
    rows = [head]
    for v in tl.versions:
        s = per.get(v.n)
        rows.append((str(v.n), v.how + ("" if v.source == "agent" else f" [{v.source}]"), str(len(v.tla.splitlines())),
                     *(_fmt(s.scores.get(p)) if s and p in s.ran else "-" for p in PHASES),
                     _fmt(s.overall) if s and tuple(s.ran) == PHASES else "-"))
    lines += _table(rows)
    lines += ["", "model calls"]
    rows = [("#", "iter", "purpose", "tokens", "in", "out", "cost", "secs", "tools / text")]
    for c in tl.calls:
        rows.append((str(c.n), "-" if c.iteration is None else str(c.iteration), c.purpose, f"{c.tokens:,}",
                     f"{c.input_tokens:,}", f"{c.output_tokens:,}", f"${c.cost:.4f}",
                     "-" if c.seconds is None else f"{c.seconds:.1f}",
                     ", ".join(c.tools) or _first_line(c.text, 50)))
    lines += _table(rows) if tl.calls else ["  (none)"]
    lines += ["", "tool calls"]
    for i, u in enumerate(tl.tools, 1):
        mark = "ERR " if u.is_error else ""
        src = "" if u.source == "agent" else f" [{u.source}]"
        lines.append(f"  {i:>3}. {u.name}({_args(u.arguments)}){src} -> {mark}{_first_line(u.result)}")
    if not tl.tools:
        lines.append("  (none)")
    if tl.notes:
        lines += ["", "notes"] + [f"  {_when(t)}  {x[:160]}" for t, x in tl.notes]
    if tl.bad_lines:
        lines += ["", f"warning: transcript lines skipped (not JSON): {', '.join(map(str, tl.bad_lines[:10]))}"]
    return "\n".join(lines)


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]


def spec_diff(old: str, new: str, old_name: str, new_name: str) -> list[str]:
    return list(difflib.unified_diff(old.splitlines(), new.splitlines(), old_name, new_name, lineterm="", n=2))


def score_plot_svg(tl: Timeline, width: int = 640, height: int = 240) -> str:
    """Scores over spec versions: one polyline per phase and one for overall (last scoring of each version)."""
    per = tl.latest_per_version()
    versions = sorted(per)
    pad_l, pad_r, pad_t, pad_b = 44, 120, 14, 30
    w, h = width - pad_l - pad_r, height - pad_t - pad_b
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="scores over spec versions">',
           f'<rect x="{pad_l}" y="{pad_t}" width="{w}" height="{h}" fill="#fafafa" stroke="#ccc"/>']
    for k in range(5):
        y = pad_t + h - h * k / 4
        out.append(f'<line x1="{pad_l}" y1="{y:.1f}" x2="{pad_l + w}" y2="{y:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{pad_l - 6}" y="{y + 4:.1f}" font-size="11" text-anchor="end">{k / 4:.2f}</text>')
    if not versions:
        out.append(f'<text x="{pad_l + w / 2}" y="{pad_t + h / 2}" font-size="13" text-anchor="middle">'
                   "no scored version yet</text></svg>")
        return "".join(out)
    lo, hi = versions[0], versions[-1]

    def x(v: int) -> float:
        return pad_l + (w / 2 if hi == lo else w * (v - lo) / (hi - lo))

    def y(s: float) -> float:
        return pad_t + h - h * max(0.0, min(1.0, s))

    for v in versions:
        out.append(f'<text x="{x(v):.1f}" y="{pad_t + h + 16}" font-size="11" text-anchor="middle">v{v}</text>')
    for i, key in enumerate(("overall", *PHASES)):
        pts = []
        for v in versions:
            s = per[v]
            if key == "overall":
                if tuple(s.ran) == PHASES:
                    pts.append((v, s.overall))
            elif key in s.ran and key in s.scores:
                pts.append((v, s.scores[key]))
        color = _COLORS[key]
        dash = "" if key == "overall" else f' stroke-dasharray="{2 + i},{2}"'
        if len(pts) > 1:
            path = " ".join(f"{x(v):.1f},{y(s):.1f}" for v, s in pts)
            out.append(f'<polyline points="{path}" fill="none" stroke="{color}" '
                       f'stroke-width="{2.5 if key == "overall" else 1.5}"{dash}/>')
        for v, s in pts:
            out.append(f'<circle cx="{x(v):.1f}" cy="{y(s):.1f}" r="3" fill="{color}">'
                       f"<title>v{v} {key} {s:.3f}</title></circle>")
        ly = pad_t + 10 + 16 * i
        out.append(f'<line x1="{pad_l + w + 10}" y1="{ly}" x2="{pad_l + w + 28}" y2="{ly}" stroke="{color}" '
                   f'stroke-width="2"{dash}/><text x="{pad_l + w + 32}" y="{ly + 4}" font-size="11">{key}</text>')
    out.append("</svg>")
    return "".join(out)


_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:24px;max-width:1100px;color:#222}
h1{font-size:20px} h2{font-size:16px;margin-top:28px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:8px 0} td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3} .num{text-align:right;font-variant-numeric:tabular-nums}
pre{background:#f7f7f7;padding:8px;overflow-x:auto;font-size:12px}
.add{color:#116329;background:#e6ffec;display:block} .del{color:#82071e;background:#ffebe9;display:block}
.hunk{color:#6f42c1;display:block} .err{color:#b00} details{margin:6px 0}
.pass{color:#116329} .fail{color:#b00}
"""


def _score_cell(v: float | None) -> str:
    if v is None:
        return '<td class="num">-</td>'
    cls = "pass" if v >= 1.0 else "fail"
    return f'<td class="num {cls}">{v:.3f}</td>'


def _diff_html(lines: list[str]) -> str:
    out = []
    for line in lines:
        e = html.escape(line)
        if line.startswith(("+++", "---")):
            out.append(f"<b>{e}</b>")
        elif line.startswith("@@"):
            out.append(f'<span class="hunk">{e}</span>')
        elif line.startswith("+"):
            out.append(f'<span class="add">{e}</span>')
        elif line.startswith("-"):
            out.append(f'<span class="del">{e}</span>')
        else:
            out.append(e)
    return "<pre>" + "\n".join(out) + "</pre>"


def render_html(tl: Timeline) -> str:
    e = html.escape
    best = tl.best()
    per = tl.latest_per_version()
    parts = ["<!doctype html><html><head><meta charset='utf-8'>",
             f"<title>specula run {e(tl.run)}</title><style>{_CSS}</style></head><body>",
             f"<h1>run {e(tl.run)} — {e(tl.task)}</h1>",
             "<table>",
             f"<tr><th>model</th><td>{e(tl.model or '(none: manual or external agent)')}</td></tr>",
             f"<tr><th>status</th><td>{e(tl.status)}{(' — ' + e(tl.reason)) if tl.reason else ''}</td></tr>",
             f"<tr><th>time</th><td>{_when(tl.started)} to {_when(tl.ended)}</td></tr>",
             f"<tr><th>model calls</th><td>{len(tl.calls)}; {tl.tokens:,} tokens; ${tl.cost:.4f}</td></tr>",
             f"<tr><th>tool calls</th><td>{len(tl.tools)}</td></tr>",
             "<tr><th>best</th><td>" + (f"version {best.version} (scorecard {best.n}), overall {best.overall:.3f}"
                                        if best else "none") + "</td></tr></table>",
             "<h2>scores over spec versions</h2>", score_plot_svg(tl),
             "<h2>spec versions</h2><table><tr><th>version</th><th>how</th><th>lines</th>"
             + "".join(f"<th>{p}</th>" for p in PHASES) + "<th>overall</th></tr>"]
    for v in tl.versions:
        s = per.get(v.n)
        parts.append(f"<tr><td><a href='#v{v.n}'>v{v.n}</a></td><td>{e(v.how)}"
                     + (f" [{e(v.source)}]" if v.source != "agent" else "") + f"</td>"
                     f"<td class='num'>{len(v.tla.splitlines())}</td>"
                     + "".join(_score_cell(s.scores.get(p) if s and p in s.ran else None) for p in PHASES)
                     + _score_cell(s.overall if s and tuple(s.ran) == PHASES else None) + "</tr>")
    parts.append("</table>")
    prev_tla, prev_cfg, prev_name = "", "", "(empty)"
    for v in tl.versions:
        name = f"v{v.n}/{tl.module or 'spec'}"
        diff = spec_diff(prev_tla, v.tla, prev_name + ".tla", name + ".tla")
        diff += spec_diff(prev_cfg, v.cfg, prev_name + ".cfg", name + ".cfg")
        parts.append(f"<h3 id='v{v.n}'>version {v.n}: {e(v.how)} ({_when(v.t)})</h3>")
        parts.append(f"<details{' open' if v.n > 1 else ''}><summary>diff against "
                     f"{'version ' + str(v.n - 1) if v.n > 1 else 'nothing'} ({sum(1 for d in diff if d[:1] in '+-' and d[:3] not in ('+++', '---'))} lines changed)</summary>"
                     + _diff_html(diff) + "</details>")
        parts.append(f"<details><summary>full text</summary><pre>{e(v.tla)}</pre><pre>{e(v.cfg)}</pre></details>")
        prev_tla, prev_cfg, prev_name = v.tla, v.cfg, name
    parts.append("<h2>scorecards</h2><table><tr><th>#</th><th>version</th><th>ran</th>"
                 + "".join(f"<th>{p}</th>" for p in PHASES) + "<th>overall</th></tr>")
    for s in tl.scorings:
        parts.append(f"<tr><td class='num'>{s.n}</td><td>v{s.version}</td><td>{e(', '.join(s.ran))}</td>"
                     + "".join(_score_cell(s.scores.get(p) if p in s.ran else None) for p in PHASES)
                     + _score_cell(s.overall if tuple(s.ran) == PHASES else None) + "</tr>")
    parts.append("</table><h2>model calls</h2><table><tr><th>#</th><th>iteration</th><th>purpose</th>"
                 "<th>tokens</th><th>in</th><th>out</th><th>cost</th><th>seconds</th><th>tools</th><th>text</th></tr>")
    for c in tl.calls:
        parts.append(f"<tr><td class='num'>{c.n}</td><td class='num'>{'' if c.iteration is None else c.iteration}</td>"
                     f"<td>{e(c.purpose)}</td><td class='num'>{c.tokens:,}</td><td class='num'>{c.input_tokens:,}</td>"
                     f"<td class='num'>{c.output_tokens:,}</td><td class='num'>${c.cost:.4f}</td>"
                     f"<td class='num'>{'' if c.seconds is None else f'{c.seconds:.1f}'}</td>"
                     f"<td>{e(', '.join(c.tools))}</td><td>{e(c.text[:300])}</td></tr>")
    parts.append("</table><h2>tool calls</h2><table><tr><th>#</th><th>tool</th><th>by</th><th>arguments</th>"
                 "<th>result</th></tr>")
    for i, u in enumerate(tl.tools, 1):
        args = json.dumps(u.arguments, indent=1, default=str)
        parts.append(f"<tr><td class='num'>{i}</td><td>{e(u.name)}</td><td>{e(u.source)}</td>"
                     f"<td><details><summary>{e(_args(u.arguments, 60))}</summary><pre>{e(args)}</pre></details></td>"
                     f"<td{' class=err' if u.is_error else ''}><details><summary>{e(_first_line(u.result))}</summary>"
                     f"<pre>{e(u.result)}</pre></details></td></tr>")
    parts.append("</table>")
    if tl.notes:
        parts.append("<h2>notes</h2><ul>" + "".join(f"<li>{_when(t)} {e(x)}</li>" for t, x in tl.notes) + "</ul>")
    parts.append("</body></html>")
    return "\n".join(parts)
