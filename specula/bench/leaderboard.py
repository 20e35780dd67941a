"""Leaderboard with SysMoBench's aggregation.

Per entry and task, the best run (highest overall; of up to ``best_of`` runs, in run order) is
kept. An entry's score is the mean over *all* tasks of the suite — a fixed denominator: a task
the entry has no run for counts 0. Per-phase columns are the means of the best runs' phase
scores over the same denominator.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from specula.bench.results import RunRecord

__all__ = ["Row", "Leaderboard", "build_leaderboard", "render_markdown", "render_html_board"]

PHASES = ("syntax", "runtime", "conformance", "invariants")


@dataclass
class Row:
    entry: str
    overall: float
    phases: dict[str, float]
    per_task: dict[str, float]  # best overall per task (missing tasks absent)
    runs: int
    cost_usd: float | None = None
    models: list[str] = field(default_factory=list)
    versions: list[str] = field(default_factory=list)


@dataclass
class Leaderboard:
    suite: list[str]
    rows: list[Row]

    def to_dict(self) -> dict:
        return {
            "schema": "specula.leaderboard/1",
            "suite": self.suite,
            "rows": [r.__dict__ for r in self.rows],
        }


def build_leaderboard(records: Iterable[RunRecord], suite: Sequence[str], best_of: int = 5) -> Leaderboard:
    suite = list(suite)
    by_entry: dict[str, dict[str, list[RunRecord]]] = {}
    latest: dict[tuple[str, str, int], RunRecord] = {}  # a re-scored run (bench eval --rescore) replaces the old
    for r in records:
        if r.task in suite:
            latest[(r.entry, r.task, r.run)] = r
    for r in latest.values():
        by_entry.setdefault(r.entry, {}).setdefault(r.task, []).append(r)
    rows: list[Row] = []
    n = len(suite) or 1
    for entry, tasks in by_entry.items():
        best: dict[str, RunRecord] = {}
        runs = 0
        cost = 0.0
        has_cost = False
        models: set[str] = set()
        versions: set[str] = set()
        for task, recs in tasks.items():
            recs = sorted(recs, key=lambda r: r.run)[:best_of]
            runs += len(recs)
            for r in recs:
                if r.cost_usd is not None:
                    cost += r.cost_usd
                    has_cost = True
                if r.model:
                    models.add(r.model)
                if r.specula_version:
                    versions.add(r.specula_version)
            best[task] = max(recs, key=lambda r: (r.overall, -r.run))
        overall = sum(b.overall for b in best.values()) / n
        phases = {p: sum(b.scores.get(p, 0.0) for b in best.values()) / n for p in PHASES}
        rows.append(
            Row(
                entry=entry,
                overall=overall,
                phases=phases,
                per_task={t: b.overall for t, b in best.items()},
                runs=runs,
                cost_usd=round(cost, 4) if has_cost else None,
                models=sorted(models),
                versions=sorted(versions),
            )
        )
    rows.sort(key=lambda r: (-r.overall, r.entry))
    return Leaderboard(suite=suite, rows=rows)


def render_markdown(board: Leaderboard) -> str:
    head = "| # | entry | overall | " + " | ".join(PHASES) + " | " + " | ".join(board.suite) + " |"
    sep = "|" + "---|" * (3 + len(PHASES) + len(board.suite))
    lines = [head, sep]
    for i, r in enumerate(board.rows, 1):
        cells = [str(i), r.entry, f"{r.overall:.3f}"]
        cells += [f"{r.phases[p]:.3f}" for p in PHASES]
        cells += [f"{r.per_task[t]:.3f}" if t in r.per_task else "—" for t in board.suite]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def render_html_board(board: Leaderboard) -> str:
    e = html.escape
    bars = []
    for r in board.rows:
        bars.append(
            f"<tr><td>{e(r.entry)}</td><td><span class='bar'><i style='width:{r.overall * 100:.1f}%'></i></span> "
            f"{r.overall:.3f}</td>" + "".join(f"<td>{r.phases[p]:.3f}</td>" for p in PHASES)
            + "".join(f"<td>{r.per_task[t]:.3f}</td>" if t in r.per_task else "<td>—</td>" for t in board.suite)
            + f"<td>{e(', '.join(r.models))}</td><td>{'' if r.cost_usd is None else f'${r.cost_usd:.2f}'}</td></tr>"
        )
    head = "".join(f"<th>{e(p)}</th>" for p in PHASES) + "".join(f"<th>{e(t)}</th>" for t in board.suite)
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>specula leaderboard</title><style>"
        "body{font:14px system-ui,sans-serif;margin:2rem auto;max-width:1200px}table{border-collapse:collapse}"
        "td,th{padding:.35rem .6rem;border-bottom:1px solid #eee;text-align:left}"
        ".bar{display:inline-block;width:200px;height:12px;background:#eef0f3;border-radius:4px;overflow:hidden;vertical-align:middle}"
        ".bar i{display:block;height:100%;background:#2e90fa}</style></head><body>"
        f"<h1>specula leaderboard</h1><p>Suite of {len(board.suite)} tasks; a missing task counts 0.</p>"
        f"<table><tr><th>entry</th><th>overall</th>{head}<th>models</th><th>cost</th></tr>{''.join(bars)}</table></body></html>\n"
    )


def render_table(board: Leaderboard, suite_size: int) -> Any:
    """The leaderboard as a rich table (for the terminal)."""
    from rich.table import Table

    table = Table(title=f"leaderboard ({suite_size} tasks; missing = 0)")
    for col in ("#", "entry", "overall", *PHASES, "runs", "cost"):
        table.add_column(col)
    for i, r in enumerate(board.rows, 1):
        table.add_row(str(i), r.entry, f"{r.overall:.3f}", *(f"{r.phases[p]:.3f}" for p in PHASES), str(r.runs),
                      "" if r.cost_usd is None else f"${r.cost_usd:.2f}")
    return table
