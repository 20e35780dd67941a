"""Write a task folder from a proposal: the repository becomes a task `specula model` can run.

Layout (the repository root is the task folder, as for the bundled systems)::

    REPO/task.yaml                      name, specModule, wv.target_actions, source_files, focus, ...
    REPO/.specula/proposal.json          the proposal (state, actions, instrumentation points)
    REPO/.specula/mapping.yaml           mapping skeleton: one entry per proposed state variable
    REPO/.specula/invariants.yaml        invariant template skeletons (SysMoBench's format)
    REPO/.specula/harness/               trace harness skeleton + the emitter for the language
    REPO/.specula/traces/                where the harness writes trace-NNN.ndjson
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from specula.errors import InputError
from specula.yamlfile import dump_yaml
from specula.onboard.proposal import Proposal
from specula.tasks import emitters_dir

__all__ = ["write_task", "InitResult", "init_repo", "emitters_dir"]

TASK_DIR = ".specula"  # hidden: the code index (and so the agent) skips it


@dataclass
class InitResult:
    proposal: Proposal
    task_file: Path
    written: list[Path] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"schema": "specula.init/1", "task_file": str(self.task_file),
                "written": [str(p) for p in self.written], "proposal": self.proposal.to_dict()}

    def render(self) -> str:
        files = "\n".join(f"  {p}" for p in self.written)
        return f"{self.proposal.render()}\nwrote:\n{files}\nnext: specula model {self.task_file.parent}"


def _atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def _task_yaml(p: Proposal) -> str:
    data = {
        "name": p.name,
        "description": p.description,
        "system_type": p.system_type,
        "language": p.language,
        "repository": {"url": "local", "path": "."},
        "source_files": [{"path": f} for f in p.source_files],
        "specModule": p.module,
        "focus": p.focus,
        "wv": {"target_actions": p.action_names()},
        "traces": f"{TASK_DIR}/traces/",
        "mapping": f"{TASK_DIR}/mapping.yaml",
        "invariants": f"{TASK_DIR}/invariants.yaml",
    }
    harness = _harness_entry(p.language)
    if harness:
        data["harness"] = harness
    head = ("# Written by `specula init` from the code index" + (f" (refined by {p.refined_by})" if p.refined_by else "")
            + ". Edit freely: target actions are the spec's\n# actions; .specula/proposal.json says which code "
              "performs each and where to emit its trace step.\n")
    return head + dump_yaml(data)


def _harness_entry(language: str) -> dict | None:
    h = f"{TASK_DIR}/harness"
    if language == "python":
        return {"command": ["python", f"{h}/harness.py"], "timeout": 300}
    if language == "java":
        return {"build": [["javac", "-d", "{build}/classes", f"{h}/Harness.java", f"{h}/SpeculaTrace.java"]],
                "command": ["java", "-cp", "{build}/classes", "Harness"], "timeout": 300}
    if language in ("c", "cpp"):
        return {"build": [["cc", "-O2", "-pthread", "-o", "{build}/harness", f"{h}/harness.c", f"{h}/specula_trace.c"]],
                "command": ["{build}/harness"], "timeout": 300}
    return None


def _mapping(p: Proposal) -> str:
    distributed = p.system_type == "distributed"
    lines = [
        "# Mapping skeleton written by `specula init` (docs/mapping.md). Trace fields are named like the",
        "# proposed spec variables below; rename a variable here when the spec names it differently, mark",
        "# what the trace does not record `{aux: true}`, and add `abstract:` for logs recorded as summaries.",
        "version: 1",
        "nodes:",
        f"  constant: {'Server' if distributed else 'Threads'}   # the spec constant whose elements are the nodes",
        "variables:",
    ]
    for s in p.state:
        entry = {"per_node": True} if s.per_node else {}
        body = "{" + ", ".join(f"{k}: {json.dumps(v) if not isinstance(v, bool) else str(v).lower()}"
                               for k, v in entry.items()) + "}"
        lines.append(f"  {s.name}: {body}   # {s.owner + '.' if s.owner else ''}{s.field} ({s.file}:{s.line})")
    if not p.state:
        lines.append("  {}")
    lines += ["params:", f"  {'i' if distributed else 't'}: actor"]
    if distributed:
        lines.append("  m: input")
    return "\n".join(lines) + "\n"


def _invariants(p: Proposal) -> str:
    names = {s.name.lower(): s.name for s in p.state}
    acts = set(p.action_names())
    items: list[dict] = []
    if p.system_type == "concurrent" and any("Lock" in a for a in acts):
        items.append({"name": "MutualExclusion", "type": "safety",
                      "natural_language": "At most one thread holds the lock (exclusively) at any time",
                      "formal_description": "No two distinct threads are both in the critical section",
                      "tla_example": "MutualExclusion ==\n  \\A t1, t2 \\in Threads : (t1 # t2) => ~(Holds(t1) /\\ Holds(t2))\n"})
    if any(a.startswith(("Push", "Pop", "Enqueue", "Dequeue")) for a in acts):
        items.append({"name": "BoundedQueue", "type": "safety",
                      "natural_language": "The number of stored items never exceeds the capacity",
                      "formal_description": "0 <= count <= Capacity",
                      "tla_example": "BoundedQueue ==\n  0 <= Count /\\ Count <= Capacity\n"})
    if p.system_type == "distributed":
        epoch = names.get("term") or names.get("currentterm") or names.get("logicalclock") or names.get("epoch") or "term"
        items.append({"name": "ElectionSafety", "type": "safety",
                      "natural_language": "At most one node is leader in any one term / epoch",
                      "formal_description": "Two leaders have different terms",
                      "tla_example": (f"ElectionSafety ==\n  \\A i, j \\in Server :\n    (IsLeader(i) /\\ IsLeader(j) /\\ "
                                      f"{epoch}[i] = {epoch}[j]) => i = j\n")})
        items.append({"name": "EventuallyLeader", "type": "liveness",
                      "natural_language": "Under fair scheduling and no more crashes, some node eventually becomes leader",
                      "formal_description": "<>(\\E i \\in Server : IsLeader(i))",
                      "tla_example": "EventuallyLeader ==\n  <>(\\E i \\in Server : IsLeader(i))\n"})
    items.append({"name": "TypeOK", "type": "safety",
                  "natural_language": "Every variable stays within its type",
                  "formal_description": "The conjunction of the variables' domains",
                  "tla_example": "TypeOK ==\n  " + ("\n  /\\ ".join(f"{s.name} \\in {s.name.upper()}_DOMAIN"
                                                             for s in p.state[:8]) or "TRUE") + "\n"})
    head = ("# Invariant template skeletons written by `specula init` (SysMoBench's format). The tla_example\n"
            "# bodies use placeholder operators (Holds, IsLeader, *_DOMAIN): they are translated onto the\n"
            "# generated spec's own variables in phase 4; edit the natural language to state this system's rules.\n")
    return head + dump_yaml({"invariants": items})


def _harness_points(p: Proposal, comment: str) -> str:
    out = []
    for pt in p.instrumentation:
        out.append(f"{comment} {pt.action}: {pt.note} — {pt.function} ({pt.file}:{pt.line})")
    return "\n".join(out)


def _python_harness(p: Proposal) -> str:
    state = ", ".join(f'"{s.name}": None' for s in p.state[:12])
    return f'''"""Trace harness skeleton for {p.name}, written by `specula init`.

Run: python .specula/harness/harness.py --runs N --seed S --out DIR (what `specula bench traces` does).
Each run drives the system with a seeded schedule and writes DIR/trace-NNN.ndjson with the
emitter beside this file (specula_trace.TraceWriter; format in docs/traces.md).

Instrumentation points proposed from the code index:
{_harness_points(p, "   ")}
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from specula_trace import TraceWriter  # noqa: E402


def observe(system) -> dict:
    """The observed state: one entry per spec variable (per-node values keyed by node id)."""
    return {{{state}}}  # TODO read these from the system


def run_one(path: Path, seed: int) -> None:
    rng = random.Random(seed)
    with TraceWriter.open(path, system="{p.name}", nodes=["n1", "n2", "n3"], seed=seed) as tw:
        system = None  # TODO build the system under test (nodes, network, threads)
        tw.init(observe(system))
        for _ in range(50):
            action = rng.choice({p.action_names()!r})
            # TODO perform `action` on the system, then record the step:
            # tw.step(action, actor="n1", state=observe(system), params={{}}, input=None)
            raise NotImplementedError("fill in the harness: see the instrumentation points above")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for i in range(args.runs):
        run_one(out / f"trace-{{i:03d}}.ndjson", args.seed + i)
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''


def _java_harness(p: Proposal) -> str:
    acts = ", ".join(f'"{a}"' for a in p.action_names())
    return f'''// Trace harness skeleton for {p.name}, written by `specula init`.
// Build and run: javac -d out .specula/harness/*.java && java -cp out Harness --runs N --seed S --out DIR
// Writes DIR/trace-NNN.ndjson with SpeculaTrace (beside this file; format in docs/traces.md).
//
// Instrumentation points proposed from the code index:
{_harness_points(p, "//")}
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

public final class Harness {{
    static final String[] ACTIONS = {{{acts}}};

    static void runOne(Path path, long seed) {{
        Random rng = new Random(seed);
        SpeculaTrace tr = new SpeculaTrace(path, "{p.name}", List.of("n1", "n2", "n3"), seed);
        // TODO build the system under test; tr.initField("var", json) for each observed variable
        for (int i = 0; i < 50; i++) {{
            String action = ACTIONS[rng.nextInt(ACTIONS.length)];
            // TODO perform `action`, then: tr.step(action, actor, paramsJson, "var", json, ...);
            throw new UnsupportedOperationException("fill in the harness: see the instrumentation points above");
        }}
        tr.close();
    }}

    public static void main(String[] args) {{
        int runs = 1; long seed = 0; String out = ".";
        for (int i = 0; i + 1 < args.length; i += 2) {{
            switch (args[i]) {{
                case "--runs" -> runs = Integer.parseInt(args[i + 1]);
                case "--seed" -> seed = Long.parseLong(args[i + 1]);
                case "--out" -> out = args[i + 1];
                default -> throw new IllegalArgumentException(args[i]);
            }}
        }}
        for (int r = 0; r < runs; r++) runOne(Path.of(out, String.format("trace-%03d.ndjson", r)), seed + r);
    }}
}}
'''


def _c_harness(p: Proposal) -> str:
    acts = ", ".join(f'"{a}"' for a in p.action_names())
    return f'''/* Trace harness skeleton for {p.name}, written by `specula init`.
 * Build: cc -O2 -pthread -o harness .specula/harness/harness.c .specula/harness/specula_trace.c <system sources>
 * Run: ./harness --runs N --seed S --out DIR  -> DIR/trace-NNN.ndjson (format in docs/traces.md)
 *
 * Instrumentation points proposed from the code index:
{_harness_points(p, " *")}
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "specula_trace.h"

static const char *ACTIONS[] = {{{acts}}};

static int run_one(const char *path, unsigned seed) {{
    static const char *const nodes[] = {{"n1", "n2", "n3"}};
    spt_trace *tr = spt_open(path, "{p.name}", nodes, 3, seed);
    if (!tr) return 1;
    srand(seed);
    /* TODO build the system under test; spt_init_field(tr, "var", "json") per observed variable */
    const char *action = ACTIONS[rand() % (int)(sizeof ACTIONS / sizeof *ACTIONS)];
    /* TODO perform `action`, then spt_step(tr, action, actor, params_json, n, "var", "json", ...) */
    fprintf(stderr, "fill in the harness (%s): see the instrumentation points above\\n", action);
    spt_close(tr);
    return 1;
}}

int main(int argc, char **argv) {{
    int runs = 1; unsigned seed = 0; const char *out = ".";
    for (int i = 1; i + 1 < argc; i += 2) {{
        if (!strcmp(argv[i], "--runs")) runs = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed")) seed = (unsigned)strtoul(argv[i + 1], 0, 10);
        else if (!strcmp(argv[i], "--out")) out = argv[i + 1];
    }}
    for (int r = 0; r < runs; r++) {{
        char path[4096];
        snprintf(path, sizeof path, "%s/trace-%03d.ndjson", out, r);
        if (run_one(path, seed + (unsigned)r)) return 1;
    }}
    return 0;
}}
'''


def _generic_harness(p: Proposal) -> str:
    return f"""# Trace harness for {p.name} ({p.language or 'unknown language'})

specula ships emitters for Python, Java and C (tools/emitters); for {p.language or 'this language'}
write the NDJSON events of docs/traces.md directly: one `{{"kind": "meta", ...}}` line, one
`{{"kind": "init", "state": {{...}}}}` line, then one line per step:

    {{"kind": "step", "seq": 1, "action": "<Action>", "actor": "<node>", "params": {{}}, "input": null, "state": {{...}}}}

The harness takes `--runs N --seed S --out DIR` and writes `DIR/trace-000.ndjson` ... (docs/systems.md).

Instrumentation points proposed from the code index:

{_harness_points(p, "-")}
"""


def write_task(p: Proposal, repo: Path, *, force: bool = False) -> InitResult:
    """Write the task folder for ``p`` into ``repo``; an existing task.yaml needs ``force``."""
    repo = Path(repo)
    task_file = repo / "task.yaml"
    if task_file.exists() and not force:
        raise InputError("task.yaml exists; pass --force to replace it", path=str(task_file))
    base = repo / TASK_DIR
    written: list[Path] = []

    def put(path: Path, text: str) -> None:
        _atomic_write(path, text)
        written.append(path)

    put(task_file, _task_yaml(p))
    put(base / "proposal.json", json.dumps(p.to_dict(), indent=2) + "\n")
    put(base / "mapping.yaml", _mapping(p))
    put(base / "invariants.yaml", _invariants(p))
    (base / "traces").mkdir(parents=True, exist_ok=True)
    harness = base / "harness"
    em = emitters_dir()
    copies: list[str] = []
    if p.language == "python":
        put(harness / "harness.py", _python_harness(p))
        copies = ["python/specula_trace.py"]
    elif p.language == "java":
        put(harness / "Harness.java", _java_harness(p))
        copies = ["java/SpeculaTrace.java"]
    elif p.language in ("c", "cpp"):
        put(harness / "harness.c", _c_harness(p))
        copies = ["c/specula_trace.h", "c/specula_trace.c"]
    else:
        put(harness / "README.md", _generic_harness(p))
    for rel in copies:
        src = em / rel if em is not None else None
        if src is not None and src.is_file():
            dst = harness / Path(rel).name
            shutil.copyfile(src, dst)
            written.append(dst)
    return InitResult(p, task_file, written)


def init_repo(repo: str | Path, focus: str = "", *, name: str | None = None, provider=None, force: bool = False,
              write: bool = True, on_event=None, on_progress=None) -> InitResult:
    """Index ``repo``, propose (refined by ``provider`` when given) and write the task folder.
    ``on_progress`` gets the indexing's progress lines (files parsed, rate) and one per step."""
    from specula.code import index_repo
    from specula.onboard.scan import propose
    from specula.onboard.llm import refine

    root = Path(repo)
    if not root.is_dir():
        raise InputError("not a repository directory", path=str(repo))
    say = on_progress or (lambda line: None)
    index = index_repo(root, on_progress=on_progress)
    p = propose(index, focus, name=name)
    if provider is not None:
        say(f"refining the proposal with {provider.model}")
        p = refine(p, provider, index, on_event=on_event)
    if not write:
        return InitResult(p, root / "task.yaml", [])
    return write_task(p, root, force=force)
