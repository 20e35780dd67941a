"""Propose a system's actions, state and instrumentation points from its code index alone.

Evidence, strongest first:

1. **traced** — the code already emits trace steps: a call of an emitter-like function
   (``trace``, ``step``, ``observe``, ``on_event``, ``emit``, ``record``, ...) whose line passes a
   CamelCase string literal (``self.on_event("HandleNotification", ...)``), or an ``*ACTION*``
   table of such literals; the action's entry is the enclosing function.
2. **names** — functions of the focus-relevant part of the code, classified by the words of their
   names: lock entry points (``lock``/``tryLock``/``unlock``, ``read``/``write`` on a lock type),
   message handlers (``handleX``, ``onX``, ``receive(n Notification)``, and the message types a
   dispatcher such as etcd's ``Step`` switches on: ``MsgVote`` → ``HandleVoteRequest``), timers
   (``tickElection`` → ``ElectionTimeout``), role transitions (``becomeLeader``), client
   operations (``propose``), queue operations (``push``/``pop``).
3. **core** — the most focus-relevant remaining functions, named after themselves.

State = fields and globals (and focus-named locals) written by the action functions or the
functions they call (two levels, resolved by name within the same file or type).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from specula.code.model import FUNCTION_KINDS, TYPE_KINDS, RepoIndex, Symbol
from specula.code.rank import Focus, rank_symbols, split_words
from specula.onboard.proposal import InstrumentationPoint, Proposal, ProposedAction, StateVar

__all__ = ["ProposeOptions", "propose", "module_name", "is_harness"]


@dataclass(frozen=True)
class ProposeOptions:
    max_actions: int = 14
    max_state: int = 24
    core_files: int = 6  # files holding the best-ranked symbols: where actions are looked for
    core_functions: int = 3  # focus-relevant functions added as "core" actions when nothing names them
    small_repo_files: int = 30  # at most this many files: every file is core
    candidate_rank: int = 150  # in bigger repositories, only the best-ranked functions are classified
    traced: bool = True  # read action names the code already emits (False: names and messages only)


_EMITTER_WORDS = frozenset({"trace", "tracer", "step", "observe", "observer", "emit", "event", "record", "spt"})
_CAMEL_LITERAL = re.compile(r"""(["'])([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*)\1""")
_ASSIGNED = re.compile(r"^\s*(?:[\w.<>\[\], ]*\s)?(\w+)\s*(?::[^=]*)?=[^=]")
_MSG_CONST = re.compile(r"\bMsg([A-Z][A-Za-z]*)\b")
_MESSAGE_TYPE_WORDS = frozenset({"message", "msg", "notification", "request", "response", "packet", "event",
                                 "envelope", "rpc", "command", "proposal"})
_LOCK_TYPE_WORDS = frozenset({"lock", "mutex", "rw", "rwlock", "rwmutex", "spin", "spinlock", "sem", "semaphore", "latch"})
_HANDLER_VERBS = frozenset({"handle", "on", "recv", "receive", "received", "process", "deliver"})
_QUEUE_VERBS = {"push": "Push", "pop": "Pop", "enqueue": "Enqueue", "dequeue": "Dequeue", "produce": "Produce",
                "consume": "Consume"}
_CLIENT_VERBS = {"propose": "ClientProposal", "submit": "ClientRequest"}
# etcd/raft-style message type abbreviations (Msg<X>): what a handler of each is called
_MSG_NAMES = {"App": "HandleAppendEntries", "AppResp": "HandleAppendEntriesResponse", "Prop": "ClientProposal",
              "Vote": "HandleVoteRequest", "VoteResp": "HandleVoteResponse", "PreVote": "HandleVoteRequest",
              "PreVoteResp": "HandleVoteResponse", "Heartbeat": "HandleHeartbeat",
              "HeartbeatResp": "HandleHeartbeatResponse", "Snap": "HandleSnapshot", "Hup": "ElectionTimeout",
              "Beat": "SendHeartbeat", "TimeoutNow": "HandleTimeoutNow", "TransferLeader": "HandleTransferLeader",
              "ReadIndex": "HandleReadIndex", "ReadIndexResp": "HandleReadIndexResponse"}
_LIFECYCLE = frozenset({"shutdown", "halt", "close", "destroy", "dispose", "cleanup", "teardown", "stop"})
_GENERIC = frozenset({"run", "process", "handle", "apply", "execute", "call", "step", "loop", "work", "tick"})
_NOT_ACTIONS = frozenset({"is", "has", "get", "can", "should", "to", "string", "equals", "hash", "new", "init",
                          "test", "main", "close", "dump", "print", "format", "parse", "len", "size", "observe"})


def _camel(words: list[str] | tuple[str, ...]) -> str:
    return "".join(w[:1].upper() + w[1:] for w in words if w)


def module_name(name: str) -> str:
    """A TLA+ module name from a repository or task name (``etcd-io+raft`` -> ``raft``)."""
    base = re.split(r"[+/]", name)[-1]
    out = re.sub(r"[^A-Za-z0-9_]", "_", base).strip("_") or "System"
    return out if out[0].isalpha() else "M" + out


def _lines(index: RepoIndex, path: str, cache: dict[str, list[str]]) -> list[str]:
    if path not in cache:
        try:
            cache[path] = (index.root / path).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            cache[path] = []
    return cache[path]


def _enclosing(index: RepoIndex, path: str, line: int) -> Symbol | None:
    best = None
    for s in index.files[path].symbols:
        if s.kind in FUNCTION_KINDS and s.line <= line <= s.end_line:
            if best is None or s.line >= best.line:
                best = s
    return best


def _traced(index: RepoIndex, files: list[str], cache: dict[str, list[str]]) -> list[ProposedAction]:
    """Action names the code already emits (strongest evidence)."""
    out: dict[str, ProposedAction] = {}
    types = {s.name for s in index.symbols if s.kind in TYPE_KINDS}
    by_emitter: dict[str, list[ProposedAction]] = {}
    for path in files:  # pass 1: literals passed to emitter calls
        fi = index.files[path]
        lines = _lines(index, path, cache)
        seen_lines: set[int] = set()
        for c in fi.calls:
            words = set(split_words(c.name)) | set(split_words((c.receiver or "").rsplit(".", 1)[-1]))
            if not words & _EMITTER_WORDS or c.line in seen_lines or c.line > len(lines):
                continue
            seen_lines.add(c.line)
            for m in _CAMEL_LITERAL.finditer(lines[c.line - 1]):
                name = m.group(2)
                fn = _enclosing(index, path, c.line)
                by_emitter.setdefault(c.name, []).append(
                    ProposedAction(name, "traced", fn.qualname if fn else "", path, c.line,
                                   f"emitted by {c.name}() at {path}:{c.line}", fn.end_line if fn else c.line))
    for acts in by_emitter.values():
        if len({a.name for a in acts}) < 2:  # a tracer emits several actions; one literal is a log message
            continue
        for a in acts:
            out.setdefault(a.name, a)
    if not out:
        return []
    for path in files:  # pass 2, where the code traces: TARGET_ACTIONS = (...), ACTION_OF = {...}
        lines = _lines(index, path, cache)
        for i, text in enumerate(lines):
            m = _ASSIGNED.match(text)
            if not m or not {"action", "actions"} & set(split_words(m.group(1))):
                continue
            depth, j = 0, i
            while j < len(lines):
                seg = lines[j]
                for m in _CAMEL_LITERAL.finditer(seg):
                    name = m.group(2)
                    if name not in out and not name.startswith("Msg") and name not in types:
                        out[name] = ProposedAction(name, "traced", "", path, j + 1, f"listed in {path}:{i + 1}", j + 1)
                depth += seg.count("(") + seg.count("[") + seg.count("{") - seg.count(")") - seg.count("]") - seg.count("}")
                if depth <= 0:
                    break
                j += 1
    return list(out.values())


def _owner_words(s: Symbol) -> set[str]:
    owner = (s.parent or "").rsplit(".", 1)[-1]
    stem = s.file.rsplit("/", 1)[-1].split(".", 1)[0]
    return set(split_words(owner)) | set(split_words(stem))


def _classify(s: Symbol, index: RepoIndex) -> list[tuple[str, str, str]]:
    """(action name, kind, evidence) for one function, from its name, owner and signature."""
    words = [w for w in split_words(s.name) if w]
    if not words or words[0] in _NOT_ACTIONS or s.name.startswith("__"):
        return []
    ws = set(words)
    lockish = bool(_owner_words(s) & _LOCK_TYPE_WORDS) or "lock" in ws
    out: list[tuple[str, str, str]] = []
    # lock / unlock entry points
    if ws & {"unlock", "release"} and (lockish or "unlock" in ws):
        out.append(("ReleaseLock", "lock", f"{s.name}: unlock/release"))
    elif lockish and ws & {"lock", "acquire", "read", "write", "upread"} and not ws & {"locked", "wait", "guard"}:
        mode = next((_camel([w]) for w in ("upread", "read", "write") if w in ws), "")
        mode = "UpRead" if mode == "Upread" else mode
        name = ("TryAcquire" if "try" in ws else "Acquire") + mode + "Lock"
        out.append((name, "lock", f"{s.name}: lock entry point"))
    if out:
        return out
    # timers
    if words[0] == "tick" and len(words) > 1:
        return [(_camel(words[1:]) + "Timeout", "timer", f"{s.name}: tick handler")]
    if "timeout" in ws or "expire" in ws or "timer" in ws:
        core = [w for w in words if w not in ("on", "handle", "timer")]
        name = _camel(core)
        return [(name if name.endswith("Timeout") or "expire" in ws else name + "Timeout", "timer", f"{s.name}: timer")]
    # role transitions
    if words[0] == "become" and len(words) > 1:
        return [(_camel(words), "transition", f"{s.name}: role transition")]
    # client operations, queue operations
    if len(words) == 1 and words[0] in _CLIENT_VERBS:
        return [(_CLIENT_VERBS[words[0]], "client", f"{s.name}: client operation")]
    if len(words) == 1 and words[0] in _QUEUE_VERBS:
        return [(_QUEUE_VERBS[words[0]], "queue", f"{s.name}: queue operation")]
    # message handlers
    if words[0] in _HANDLER_VERBS:
        rest = words[1:]
        msg_type = _message_param(s, index)
        if rest:
            return [("Handle" + _camel(rest), "handler", f"{s.name}: handler")]
        if msg_type:
            return [("Handle" + msg_type, "handler", f"{s.name}({msg_type}): handler")]
    return []


def _message_param(s: Symbol, index: RepoIndex) -> str:
    """The message-like type among a function's parameters (``Notification``), or ""."""
    sig = s.signature.split("(", 1)[-1] if "(" in s.signature else ""
    for ident in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", sig):
        if ident[:1].isupper() and set(split_words(ident)) & _MESSAGE_TYPE_WORDS:
            return ident.rsplit(".", 1)[-1]
    return ""


def _dispatched(s: Symbol, index: RepoIndex, cache: dict[str, list[str]]) -> list[tuple[str, str, int]]:
    """Message types a dispatcher (``step``, ``Step``, ``handle``) switches on: (action, type, line)."""
    words = split_words(s.name)
    if not words or words[0] not in ({"step"} | _HANDLER_VERBS):
        return []
    lines = _lines(index, s.file, cache)[s.line - 1 : s.end_line]
    out = []
    seen = set()
    for k, text in enumerate(lines):
        if not re.search(r"\bcase\b|==|\bis\b|\bin\b", text):
            continue
        for m in _MSG_CONST.finditer(text):
            t = m.group(1)
            name = _MSG_NAMES.get(t) or ("Handle" + t.replace("Resp", "Response"))
            if name not in seen:
                seen.add(name)
                out.append((name, "Msg" + t, s.line + k))
    return out


def is_harness(path: str) -> bool:
    """A driver or test file of the system (not the system): ``harness.py``, ``MutexHarness.java``."""
    name = path.rsplit("/", 1)[-1].lower()
    return ("harness" in name or name.startswith("test") or "/test" in path.lower()
            or path.startswith((".specula/", "specula/")))  # what `specula init` wrote


def _core_files(index: RepoIndex, ranked, opts: ProposeOptions) -> list[str]:
    if len(index.files) <= opts.small_repo_files:
        return [p for p in index.files if not is_harness(p)]
    files: list[str] = []
    for r in ranked:
        if is_harness(r.symbol.file):
            continue
        if r.symbol.file not in files:
            files.append(r.symbol.file)
        if len(files) >= opts.core_files:
            break
    return files


def _language(index: RepoIndex, files: list[str]) -> str:
    counts: dict[str, int] = {}
    for p in files:
        lang = index.files[p].language
        counts[lang] = counts.get(lang, 0) + index.files[p].lines
    return max(counts, key=counts.__getitem__) if counts else ""


def _callees(index: RepoIndex, fn: Symbol, depth: int) -> list[Symbol]:
    """Functions ``fn`` calls, resolved by name within its file or type, to ``depth`` levels."""
    out: list[Symbol] = []
    frontier = [fn]
    seen = {id(fn)}
    for _ in range(depth):
        nxt = []
        for f in frontier:
            for c in index.calls_by_caller.get(f.qualname, ()):
                if c.file != f.file:
                    continue
                for t in index.by_name.get(c.name, ()):
                    if t.kind in FUNCTION_KINDS and id(t) not in seen and (t.file == f.file or t.parent == f.parent):
                        seen.add(id(t))
                        nxt.append(t)
        out.extend(nxt)
        frontier = nxt
    return out


def _spec_var(name: str) -> str:
    name = name.lstrip("_")
    parts = name.split("_")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:]) if len(parts) > 1 else name


def _state(index: RepoIndex, actions: list[ProposedAction], focus: Focus, opts: ProposeOptions) -> tuple[list[StateVar], str]:
    fields: dict[tuple[str, str], Symbol] = {}
    for s in index.symbols:
        if s.kind == "field" and s.parent:
            fields.setdefault((s.parent, s.name), s)
        elif s.kind == "global":
            fields.setdefault((s.parent or "", s.name), s)
    writers: dict[tuple[str, str], list[str]] = {}
    fns: dict[str, Symbol] = {}
    for a in actions:
        for s in index.by_qualname.get(a.entry, ()):
            if s.kind in FUNCTION_KINDS and s.file == a.file:
                fns.setdefault(s.qualname, s)
                for c in _callees(index, s, 2):
                    fns.setdefault(c.qualname, c)
    for q, fn in fns.items():
        if is_harness(fn.file) or (fn.parent and fn.name == fn.parent.rsplit(".", 1)[-1]) or fn.name == "__init__":
            continue  # constructors initialise; they are not steps
        if set(split_words(fn.name)) & _LIFECYCLE:
            continue  # shutdown(), halt(): the process's life, not the protocol's state
        lang = index.files[fn.file].language
        own_locals = {x.name for x in index.files[fn.file].symbols if x.kind == "local" and x.parent == q}
        for w in index.files[fn.file].writes:
            if w.function != q:
                continue
            if w.base and w.base.split(".", 1)[0].split("[", 1)[0] in own_locals:
                continue  # `n.leader = ...` on a local: building a message, not the node's state
            owner = fn.parent or ""
            key = (owner, w.target) if (owner, w.target) in fields else None
            if key is None:
                # a bare name (``rb = self.rb``) is a local or a global; only writes through an object
                # (``r.term = ...``) reach another type's field
                cands = [k for k in fields if k[1] == w.target and (not k[0] if w.base is None else True)
                         and index.files[fields[k].file].language == lang]
                same_file = [k for k in cands if fields[k].file == fn.file]
                key = (same_file or cands or [None])[0]
            if key is None:
                local = f"{q}.{w.target}"
                loc = [s for s in index.by_qualname.get(local, ()) if s.kind == "local"]
                if loc and (w.target.lower() in focus.identifiers or w.target.lower() in focus.words):
                    fields.setdefault((q, w.target), loc[0])
                    key = (q, w.target)
            if key is not None and not (key[1].isupper() and len(key[1]) > 1):  # CONSTANTS, metrics
                ws = writers.setdefault(key, [])
                if q not in ws:
                    ws.append(q)
    ranked = sorted(writers.items(), key=lambda kv: (-len(kv[1]), fields[kv[0]].file, fields[kv[0]].line))
    owners: dict[str, int] = {}
    for (owner, _), ws in ranked:
        if owner:
            owners[owner] = owners.get(owner, 0) + len(ws)
    node_type = max(owners, key=owners.__getitem__) if owners else ""
    out: list[StateVar] = []
    used: set[str] = set()
    for (owner, name), ws in ranked[: opts.max_state]:
        sym = fields[(owner, name)]
        var = _spec_var(name)
        if var in used:
            var = _spec_var(f"{owner.rsplit('.', 1)[-1]}_{name}")
        used.add(var)
        per_node = bool(owner) and (owner == node_type or owner.startswith(node_type + "."))  # a node's local
        out.append(StateVar(var, owner, name, sym.file, sym.line, ws, per_node=per_node))
    return out, node_type


def propose(index: RepoIndex, focus: str = "", *, name: str | None = None,
            opts: ProposeOptions = ProposeOptions()) -> Proposal:
    """The index's proposal for modelling the repository (no LLM)."""
    foc = Focus.parse(focus)
    ranked = [r for r in rank_symbols(index, foc) if r.symbol.kind in FUNCTION_KINDS or r.symbol.kind in TYPE_KINDS]
    files = _core_files(index, ranked, opts)
    cache: dict[str, list[str]] = {}
    actions: list[ProposedAction] = []
    by_name: dict[str, ProposedAction] = {}

    def add(a: ProposedAction) -> None:
        if a.name not in by_name:
            by_name[a.name] = a
            actions.append(a)

    rank_of = {id(r.symbol): i for i, r in enumerate(ranked)}
    rank_by_entry: dict[tuple[str, str], int] = {}
    for i, r in enumerate(ranked):
        rank_by_entry.setdefault((r.symbol.qualname, r.symbol.file), i)
    small = len(index.files) <= opts.small_repo_files
    fn_syms = [s for p in files for s in index.files[p].symbols if s.kind in FUNCTION_KINDS
               and (small or rank_of.get(id(s), len(rank_of)) < opts.candidate_rank)]
    fn_syms.sort(key=lambda s: rank_of.get(id(s), len(rank_of)))
    named: list[ProposedAction] = []
    for s in fn_syms:
        for act, kind, why in _classify(s, index):
            named.append(ProposedAction(act, kind, s.qualname, s.file, s.line, why, s.end_line))
        for act, msg, line in _dispatched(s, index, cache):
            named.append(ProposedAction(act, "handler", s.qualname, s.file, line, f"{s.name} handles {msg}", s.end_line))
    emitted: dict[str, tuple[str, int]] = {}
    if opts.traced:
        first_named = {}
        for a in named:
            first_named.setdefault(a.name, a)
        for a in _traced(index, sorted(index.files), cache):
            emitted[a.name] = (a.file, a.end_line)
            code = first_named.get(a.name)
            if code is not None:  # the code entry point the names found; the trace call stays the evidence
                a.entry, a.file, a.line, a.end_line = code.entry, code.file, code.line, code.end_line
            elif not a.entry or is_harness(a.file):
                hit = next((s for s in fn_syms if _camel(split_words(s.name)) == a.name), None)
                if hit is not None:
                    a.entry, a.file, a.line, a.end_line = hit.qualname, hit.file, hit.line, hit.end_line
            add(a)
    traced = set(by_name)
    for a in named:
        add(a)
    if not foc.empty:
        n = 0
        covered = {a.entry for a in actions}
        for r in ranked:
            s = r.symbol
            if n >= opts.core_functions or r.relevance <= 0:
                break
            if s.kind not in FUNCTION_KINDS or s.qualname in covered or s.name[:1] == "_" or not _classify_ok(s):
                continue
            if is_harness(s.file) or not _is_step(index, s):
                continue
            words = list(split_words(s.name))
            if len(words) == 1 and words[0] in _GENERIC and s.parent:  # WorkerReceiver.run -> WorkerReceiverRun
                words = list(split_words(s.parent.rsplit(".", 1)[-1])) + words
            add(ProposedAction(_camel(words), "core", s.qualname, s.file, s.line,
                               f"focus-relevant ({r.relevance:.1f})", s.end_line))
            n += 1
    if not small and not foc.empty:  # keep what is about the focus: entries at least 0.4 of the best relevance
        rel_of = {(r.symbol.qualname, r.symbol.file): r.relevance for r in ranked}
        best = max((rel_of.get((a.entry, a.file), 0.0) for a in actions), default=0.0)
        actions = [a for a in actions if a.name in traced or rel_of.get((a.entry, a.file), 0.0) >= 0.4 * best]
    # the code's own action names first (in the order it emits them), then by the rank of the entry
    order = {id(a): i for i, a in enumerate(actions)}
    actions.sort(key=lambda a: (a.name not in traced,
                                order[id(a)] if a.name in traced else rank_by_entry.get((a.entry, a.file), len(ranked)),
                                order[id(a)]))
    actions = actions[: max(opts.max_actions, len(traced))]
    state, node_type = _state(index, actions, foc, opts)
    lang = _language(index, files)
    kinds = {a.kind for a in actions}
    distributed = bool(kinds & {"handler"}) or any(set(split_words(a.name)) & {"message", "notification", "request",
                                                                                 "leader", "vote", "election"}
                                                  for a in actions)
    system_type = "distributed" if distributed and "lock" not in kinds else "concurrent"
    src: list[str] = []
    for a in actions:
        if a.file and a.file not in src and not is_harness(a.file):
            src.append(a.file)
    for s in state:
        if s.file not in src:
            src.append(s.file)
    points = []
    for a in actions:
        if a.name in emitted:
            points.append(InstrumentationPoint(a.name, emitted[a.name][0], emitted[a.name][1], a.entry,
                                               "already emitted here"))
        elif a.entry:
            points.append(InstrumentationPoint(a.name, a.file, a.end_line or a.line, a.entry,
                                               "emit the step after the state change, before the function returns"))
    repo_name = name or index.root.name
    desc = (f"{repo_name}: proposed by `specula init` from the code index"
            + (f" for the focus: {focus}" if focus else ""))
    return Proposal(name=repo_name, module=module_name(repo_name), language=lang, system_type=system_type,
                    focus=focus, description=desc, source_files=src[:8], actions=actions, state=state,
                    instrumentation=points, node_type=node_type)


def _is_step(index: RepoIndex, s: Symbol) -> bool:
    """A step changes state: the function writes a field or global (through an object, or a global
    name), and is not a function nested in another function."""
    if s.parent and any(p.kind in FUNCTION_KINDS for p in index.by_qualname.get(s.parent, ())):
        return False
    globals_ = {g.name for g in index.files[s.file].symbols if g.kind == "global"}

    def writes(fn: Symbol) -> bool:
        return any(w.function == fn.qualname and (w.base is not None or w.target in globals_)
                   for w in index.files[fn.file].writes)

    return writes(s) or any(writes(c) for c in _callees(index, s, 1))  # campaign() -> becomeCandidate()


def _classify_ok(s: Symbol) -> bool:
    words = split_words(s.name)
    return bool(words) and words[0] not in _NOT_ACTIONS and s.parent != s.name
