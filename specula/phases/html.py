"""A self-contained HTML report of a scorecard (inline CSS, no scripts, no network)."""

from __future__ import annotations

import html
import json
from typing import Any

from specula.phases.scorecard import PHASES, Scorecard

__all__ = ["render_html"]

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:1100px;color:#1d2330;padding:0 1rem}
h1{font-size:1.5rem;margin:0 0 .2rem} h2{font-size:1.15rem;margin:2rem 0 .6rem;border-bottom:1px solid #e3e6ec;padding-bottom:.3rem}
.meta{color:#667085;font-size:.9rem} .cards{display:grid;grid-template-columns:repeat(5,1fr);gap:.8rem;margin:1.2rem 0}
.card{border:1px solid #e3e6ec;border-radius:10px;padding:.8rem 1rem;background:#fafbfc}
.card .n{font-size:1.6rem;font-weight:650} .card .l{color:#667085;font-size:.85rem;text-transform:uppercase;letter-spacing:.04em}
.card.overall{background:#1d2330;color:#fff} .card.overall .l{color:#c5cad3}
.skip{color:#b54708;font-size:.8rem}
table{border-collapse:collapse;width:100%;font-size:.92rem} th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #eef0f3;vertical-align:top}
th{color:#667085;font-weight:600}
.bar{background:#eef0f3;border-radius:4px;height:12px;width:220px;overflow:hidden;display:inline-block;vertical-align:middle}
.bar i{display:block;height:100%;background:#12b76a} .bar.bad i{background:#f04438} .bar.mid i{background:#f79009}
.ok{color:#039855;font-weight:600} .bad{color:#d92d20;font-weight:600} .warn{color:#b54708;font-weight:600} .muted{color:#667085}
pre{background:#f6f7f9;border:1px solid #e3e6ec;border-radius:8px;padding:.6rem .8rem;overflow:auto;font-size:.82rem;white-space:pre-wrap}
details{margin:.4rem 0} summary{cursor:pointer}
"""


def _e(x: Any) -> str:
    return html.escape(str(x))


def _bar(frac: float) -> str:
    cls = "bar" if frac >= 0.999 else ("bar mid" if frac >= 0.5 else "bar bad")
    return f'<span class="{cls}"><i style="width:{max(0.0, min(1.0, frac)) * 100:.1f}%"></i></span>'


def _status(s: str) -> str:
    cls = {"passed": "ok", "pass": "ok", "ok": "ok", "violated": "bad", "error": "bad", "fail": "bad"}.get(s, "warn")
    return f'<span class="{cls}">{_e(s)}</span>'


def _trace(steps: list[dict[str, Any]]) -> str:
    out = []
    for i, st in enumerate(steps, 1):
        state = st.get("state", {})
        body = "\n".join(f"  {k} = {json.dumps(v, default=str)}" for k, v in state.items())
        out.append(f"{i}: {st.get('action') or 'Initial predicate'}\n{body}")
    return "<pre>" + _e("\n".join(out)) + "</pre>"


def _syntax(detail: dict[str, Any]) -> str:
    if detail.get("compiled"):
        return '<p class="ok">The module passes the parser and the semantic checks.</p>'
    rows = "".join(
        f"<tr><td>{_e(d.get('file'))}:{_e(d.get('line'))}:{_e(d.get('col'))}</td><td>{_e(d.get('message'))}</td></tr>"
        for d in detail.get("diagnostics", [])
    )
    defs = "".join(
        f"<tr><td>{_e(d['name'])}</td><td>{_status('passed' if d['ok'] else 'error')}</td>"
        f"<td>{_e(', '.join(d.get('variables_added', []) + d.get('operators_added', [])))}</td></tr>"
        for d in detail.get("definitions", [])
    )
    return (
        f"<table><tr><th>where</th><th>error</th></tr>{rows}</table>"
        f"<h3>Definitions checked alone</h3><table><tr><th>definition</th><th>result</th><th>repaired names</th></tr>{defs}</table>"
    )


def _runtime(detail: dict[str, Any]) -> str:
    chk = detail.get("check", {})
    parts = [
        f"<p>Runtime check: {_status('passed' if detail.get('check_passed') else 'error')} "
        f"<span class='muted'>({_e(chk.get('verdict'))}, {_e(chk.get('distinct', 0))} distinct states, "
        f"{_e(chk.get('elapsed', ''))} s)</span></p>"
    ]
    covered = set(detail.get("covered", []))
    errs = set(detail.get("error_actions", []))
    rows = "".join(
        f"<tr><td>{_e(a)}</td><td>{_status('error' if a in errs else ('passed' if a in covered else 'not covered'))}</td></tr>"
        for a in detail.get("all_actions", [])
    )
    parts.append(f"<table><tr><th>action</th><th>coverage</th></tr>{rows}</table>")
    for e in detail.get("errors", [])[:5]:
        parts.append(
            f"<details><summary>{_e(e.get('source'))}: {_e(e.get('verdict'))} in {_e(e.get('action'))} — "
            f"{_e(e.get('message'))}</summary>{_trace(e.get('trace', []))}</details>"
        )
    return "".join(parts)


def _conformance(detail: dict[str, Any]) -> str:
    actions = detail.get("actions", [])
    if isinstance(actions, dict):
        actions = [{"action": k, **v} for k, v in actions.items()]
    rows = []
    for a in actions:
        total = a.get("total", a.get("windows", 0)) or 0
        passed = a.get("passed", 0) or 0
        frac = passed / total if total else 0.0
        rows.append(
            f"<tr><td>{_e(a.get('action', a.get('name')))}</td><td>{_bar(frac)} {passed}/{total}</td>"
            f"<td>{_status('pass' if total and passed == total else ('no windows' if not total else 'fail'))}</td></tr>"
        )
    parts = [f"<table><tr><th>action</th><th>windows passing</th><th>leaderboard</th></tr>{''.join(rows)}</table>"]
    causes = detail.get("causes", detail.get("groups", []))
    if causes:
        parts.append("<h3>Failure causes</h3>")
        for c in causes[:20]:
            title = c.get("title") or c.get("cause") or c.get("message") or json.dumps(c)[:200]
            parts.append(
                f"<details><summary>{_e(c.get('action', ''))}: {_e(title)} "
                f"<span class='muted'>({_e(c.get('count', c.get('windows', '')))} windows)</span></summary>"
                f"<pre>{_e(json.dumps(c, indent=2, default=str)[:4000])}</pre></details>"
            )
    missing = detail.get("actions_without_windows") or detail.get("no_windows")
    if missing:
        parts.append(f"<p class='warn'>Target actions with no windows (excluded): {_e(', '.join(missing))}</p>")
    return "".join(parts)


def _invariants(detail: dict[str, Any]) -> str:
    rows = []
    traces = []
    for r in detail.get("rows", []):
        vac = f" <span class='warn'>vacuous? {_e(r['vacuous'])}</span>" if r.get("vacuous") else ""
        rows.append(
            f"<tr><td>{_e(r['name'])}</td><td>{_e(r['type'])}</td><td>{_status(r['status'])}{vac}</td>"
            f"<td>{_e(r.get('message', ''))}</td></tr>"
        )
        if r.get("counterexample"):
            traces.append(f"<details><summary>Counterexample for {_e(r['name'])}</summary>{_trace(r['counterexample'])}</details>")
    return (
        f"<table><tr><th>invariant</th><th>type</th><th>result</th><th>detail</th></tr>{''.join(rows)}</table>"
        + "".join(traces)
    )


_RENDER = {"syntax": _syntax, "runtime": _runtime, "conformance": _conformance, "invariants": _invariants}
_TITLE = {"syntax": "1 · Syntax", "runtime": "2 · Runtime", "conformance": "3 · Conformance", "invariants": "4 · Invariants"}


def render_html(card: Scorecard) -> str:
    cards = [f'<div class="card overall"><div class="l">overall</div><div class="n">{card.overall:.3f}</div></div>']
    for p in PHASES:
        ps = card.phases.get(p)
        skip = f'<div class="skip">skipped: {_e(ps.skipped)}</div>' if ps and ps.skipped else ""
        cards.append(f'<div class="card"><div class="l">{_e(p)}</div><div class="n">{card.score(p):.3f}</div>{skip}</div>')
    sections = []
    for p in PHASES:
        ps = card.phases.get(p)
        if ps is None:
            continue
        if ps.skipped:
            body = f"<p class='warn'>Skipped: {_e(ps.skipped)}</p>"
        elif "error" in ps.detail and len(ps.detail) == 1:
            body = "<pre>" + _e(json.dumps(ps.detail["error"], indent=2)) + "</pre>"
        else:
            body = _RENDER[p](ps.detail)
        sections.append(f"<h2>{_TITLE[p]} — {card.score(p):.3f}</h2>{body}")
    meta = " · ".join(
        f"{_e(k.replace('_', ' '))}: {_e(', '.join(map(str, v)) if isinstance(v, list) else v)}"
        for k, v in card.meta.items()
        if v not in (None, [], "")
    )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>specula scorecard — {_e(card.task or card.spec)}</title><style>{_CSS}</style></head><body>"
        f"<h1>specula scorecard — {_e(card.task or '')}</h1><div class='meta'>{_e(card.spec)}<br>{meta}</div>"
        f"<div class='cards'>{''.join(cards)}</div>"
        + "".join(f"<p class='warn'>not exhaustive: {_e(n)}</p>" for n in card.limit_notes())
        + f"{''.join(sections)}</body></html>\n"
    )
