"""Front-end speed: parse + semantic check of a 500-line spec after start-up (target < 50 ms).

Generates a self-contained 500-line spec (actions with junction lists, quantifiers, records,
EXCEPT, sequences, CASE, LET), warms up once (imports, grammar, standard library), then times
``load_text`` (parse, module system, name and level checks) over several runs and prints the
median. Also times the largest .tla files of tlaplus/Examples when present.

    python benchmarks/perf/frontend_speed.py [--runs 20] [--examples /work/ext/examples]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from specula.tla.loading import load_text
from specula.tla.syntax import parse_module


def synthetic_spec(target_lines: int = 500) -> str:
    head = [
        "---- MODULE Big ----",
        "EXTENDS Naturals, Sequences, FiniteSets, TLC",
        "CONSTANTS Nodes, Values, MaxTerm",
        "VARIABLES term, log, votes, state, msgs",
        "vars == <<term, log, votes, state, msgs>>",
        "TypeOK ==",
        "  /\\ term \\in [Nodes -> 0..MaxTerm]",
        "  /\\ log \\in [Nodes -> Seq([term : 0..MaxTerm, val : Values])]",
        "  /\\ votes \\in [Nodes -> SUBSET Nodes]",
        "  /\\ state \\in [Nodes -> {\"follower\", \"candidate\", \"leader\"}]",
        "Init ==",
        "  /\\ term = [n \\in Nodes |-> 0]",
        "  /\\ log = [n \\in Nodes |-> <<>>]",
        "  /\\ votes = [n \\in Nodes |-> {}]",
        "  /\\ state = [n \\in Nodes |-> \"follower\"]",
        "  /\\ msgs = {}",
    ]
    body: list[str] = []
    i = 0
    while len(head) + len(body) < target_lines - 8:
        body += [
            f"Step{i}(n, m) ==",
            f"  /\\ state[n] \\in {{\"follower\", \"candidate\"}}",
            f"  /\\ \\E v \\in Values : \\A k \\in Nodes \\ {{n}} :",
            f"        LET entry{i} == [term |-> term[n], val |-> v]",
            f"            next{i} == Append(log[n], entry{i})",
            f"        IN /\\ Len(next{i}) <= MaxTerm + {i % 3}",
            f"           /\\ log' = [log EXCEPT ![n] = next{i}]",
            f"  /\\ \\/ term' = [term EXCEPT ![n] = @ + 1]",
            f"     \\/ /\\ term[m] > term[n]",
            f"        /\\ term' = [term EXCEPT ![n] = term[m]]",
            f"  /\\ votes' = [votes EXCEPT ![n] = IF Cardinality(@) > {i % 4} THEN {{}} ELSE @ \\cup {{m}}]",
            f"  /\\ state' = [state EXCEPT ![n] = CASE term'[n] > term[n] -> \"candidate\" [] OTHER -> @]",
            f"  /\\ msgs' = msgs \\cup {{[type |-> \"step{i}\", src |-> n, dst |-> m]}}",
            "",
        ]
        i += 1
    tail = [
        "Next == \\E n, m \\in Nodes : " + " \\/ ".join(f"Step{k}(n, m)" for k in range(min(i, 8))),
        "Spec == Init /\\ [][Next]_vars /\\ WF_vars(Next)",
        "Safety == \\A n, m \\in Nodes : state[n] = \"leader\" /\\ state[m] = \"leader\" => n = m",
        "THEOREM Spec => []Safety",
        "====",
    ]
    return "\n".join(head + body + tail) + "\n"


def time_it(fn, runs: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds (CPU time is what the front end costs on a busy machine)."""
    wall, cpu = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--examples", default="/work/ext/examples")
    args = ap.parse_args()
    text = synthetic_spec()
    lines = text.count("\n")
    t0 = time.perf_counter()
    load_text(text, "Big.tla", root_dir=".")  # start-up: imports, grammar, standard library
    startup = (time.perf_counter() - t0) * 1000
    parse_wall, parse_cpu = time_it(lambda: parse_module(text, "Big.tla"), args.runs)
    from specula.tla.modules import _parse_cached

    def cold() -> None:
        _parse_cached.cache_clear()  # parse for real every time (load keeps a small text->AST cache)
        load_text(text, "Big.tla", root_dir=".")

    load_wall, load_cpu = time_it(cold, args.runs)
    warm_wall, warm_cpu = time_it(lambda: load_text(text, "Big.tla", root_dir="."), args.runs)
    print(f"synthetic spec: {lines} lines; first load (start-up) {startup:.1f} ms; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"  parse_module          median wall {parse_wall:6.1f} ms  cpu {parse_cpu:6.1f} ms")
    print(f"  parse + check (load)  median wall {load_wall:6.1f} ms  cpu {load_cpu:6.1f} ms   "
          f"target < 50 ms: {'OK' if min(load_wall, load_cpu) < 50 else 'SLOW'}")
    print(f"  reload, same text     median wall {warm_wall:6.1f} ms  cpu {warm_cpu:6.1f} ms   (cached AST; checks only)")
    ex = Path(args.examples)
    if ex.is_dir():
        from specula.tla.loading import load

        biggest = sorted(ex.rglob("*.tla"), key=lambda p: p.stat().st_size)[-5:]
        for p in biggest:
            n = p.read_text(encoding="utf-8", errors="replace").count("\n")
            try:
                def cold_load(p: Path = p) -> None:
                    _parse_cached.cache_clear()
                    load(p, search_path=[ex.parent / "cmtla"])

                wall, cpu = time_it(cold_load, max(3, args.runs // 4))
                print(f"  {p.name:40s} {n:5d} lines  load median wall {wall:6.1f} ms  cpu {cpu:6.1f} ms")
            except Exception as exc:  # a module missing locally: report, keep going
                print(f"  {p.name:40s} {n:5d} lines  {type(exc).__name__}")


if __name__ == "__main__":
    main()
