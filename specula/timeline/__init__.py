"""timeline room: a run directory read back as a timeline (spec versions, scores per phase per
version, model calls with tokens and cost, tool calls), rendered as text or a self-contained HTML page.

Typical use::

    from specula.timeline import load_timeline, render_html
    page = render_html(load_timeline("20260101-120000-spinlock", runs_dir=Path("runs")))
"""

from specula.timeline.render import render_html, render_list, render_text, score_plot_svg, spec_diff
from specula.timeline.timeline import (
    ModelCall,
    RunSummary,
    Scoring,
    Timeline,
    ToolUse,
    Version,
    find_run,
    list_runs,
    load_timeline,
)

__all__ = ["Timeline", "Version", "Scoring", "ModelCall", "ToolUse", "RunSummary", "load_timeline", "list_runs",
           "find_run", "render_text", "render_list", "render_html", "score_plot_svg", "spec_diff"]
