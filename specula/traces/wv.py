"""SysMoBench window-validation modules (``WV_<Action>.tla`` / ``TV_<Action>.tla``), read as data.

Such a module reads its windows file with ``ndJsonDeserialize``, picks one window by
``IOEnv.WINDOW_INDEX`` (``w``), instantiates the spec under test (``S == INSTANCE spec``),
fixes the spec's variables in ``Init`` (observed ones from ``w.pre``, the others to chosen
values, or free within a set: ``v \\in S``), calls one action of the spec in ``Next`` and states in ``PostReached`` what the
post-state must show; TLC runs it once per window and a window passes when ``NeverPost``
(``~PostReached``) is violated (docs/windows.md).

:func:`read_wv` finds those parts; :func:`wv_mapping` writes the mapping (docs/mapping.md) that
says the same thing to specula's window binding, so ``validate --mapping`` reaches the same
verdicts without the module; ``phases.conformance.validate_wv`` runs the module itself.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from specula.errors import InputError
from specula.traces.window import TraceIssue, Window

__all__ = ["WVModule", "is_wv_module", "read_wv", "wv_windows", "wv_mapping", "mapping_yaml"]

_NDJSON = re.compile(r"(\w+)\s*==\s*ndJsonDeserialize\(\s*\"([^\"]+)\"\s*\)")
_PICK = r"(\w+)\s*==\s*{all}\s*\[\s*atoi\(\s*IOEnv\.WINDOW_INDEX\s*\)\s*\]"
_INSTANCE = re.compile(r"^\s*(\w+)\s*==\s*INSTANCE\s+(\w+)", re.M)


@dataclass
class WVModule:
    """What one window-validation module says, as text fragments of TLA+ over the window ``w``."""

    path: Path
    name: str
    inner: str  # module name of the spec under test
    instance: str  # the INSTANCE's name (S)
    action: str  # the spec action Next calls (S!action)
    windows_file: Path
    all_def: str  # AllWindows
    window_def: str  # w
    #: inner spec variable -> TLA+ text of its Init value (helper definitions inlined as LET)
    init: dict[str, str] = field(default_factory=dict)
    #: inner spec variable -> TLA+ text of the set its Init value is chosen from (``v \in S``)
    init_domain: dict[str, str] = field(default_factory=dict)
    #: inner spec variable -> ("eq", window post field) | ("len", window post field)
    post: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: action parameter -> TLA+ text of the message it takes (bound from a one-message set)
    message_params: dict[str, str] = field(default_factory=dict)
    message_var: str | None = None
    notes: list[str] = field(default_factory=list)  # parts not translated (listed in the mapping)
    spec: Any = field(default=None, repr=False, compare=False)  # the loaded module (tla.Spec)
    inner_spec: Any = field(default=None, repr=False, compare=False)  # the loaded spec under test


def is_wv_module(path: str | Path) -> bool:
    """A .tla file that reads windows with ndJsonDeserialize and picks one by IOEnv.WINDOW_INDEX."""
    p = Path(path)
    if p.suffix != ".tla" or not p.is_file():
        return False
    try:
        text = p.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return "ndJsonDeserialize" in text and "WINDOW_INDEX" in text and "INSTANCE" in text


def _src(spec: Any, node: Any) -> str:
    """The source text of ``node`` without comments (line layout kept: bullets stay aligned)."""
    span = getattr(node, "span", None)
    text = (getattr(spec, "sources", None) or {}).get(getattr(span, "file", None), "")
    b = text.encode("utf-8")
    out = b[span.start:span.end].decode("utf-8", errors="replace") if span is not None else ""
    out = re.sub(r"\(\*.*?\*\)", "", out, flags=re.S)
    out = re.sub(r"\\\*[^\n]*", "", out)
    return "\n".join(line.rstrip() for line in out.splitlines() if line.strip())


def read_wv(path: str | Path, search_path: tuple[str, ...] = ()) -> WVModule:
    """Read a WV/TV module; raise InputError (with the file) when it does not have their shape."""
    from specula.tla import ast as A
    from specula.tla import load

    p = Path(path)
    if not p.is_file():
        raise InputError("no such file", path=str(p))
    text = p.read_text(encoding="utf-8", errors="replace")
    m = _NDJSON.search(text)
    if m is None:
        raise InputError("not a window-validation module: no `AllWindows == ndJsonDeserialize(\"...\")`", path=str(p))
    all_def, wfile = m.group(1), m.group(2)
    pm = re.search(_PICK.format(all=re.escape(all_def)), text)
    if pm is None:
        raise InputError(f"not a window-validation module: no `w == {all_def}[atoi(IOEnv.WINDOW_INDEX)]`", path=str(p))
    inst = _INSTANCE.search(text)
    if inst is None:
        raise InputError("not a window-validation module: no `S == INSTANCE <spec>`", path=str(p))
    instance, inner = inst.group(1), inst.group(2)
    wpath = Path(wfile) if Path(wfile).is_absolute() else p.parent / wfile
    spec = load(str(p), search_path=search_path)
    root = spec.root
    names = root.names

    def body(name: str) -> Any:
        d = names.get(name)
        return getattr(getattr(d, "node", None), "body", None)

    nxt = body("Next")
    if nxt is None:
        raise InputError("not a window-validation module: no Next", path=str(p))
    calls = [n for n in A.walk(nxt) if isinstance(n, A.OpApp) and n.prefix and n.prefix[0] == instance]
    if not calls:
        raise InputError(f"Next calls no action of {instance} (expected `{instance}!Action(...)`)", path=str(p))
    call = calls[0]
    mod = WVModule(p, root.module.name if getattr(root, "module", None) is not None else p.stem, inner, instance,
                   call.name, wpath, all_def, pm.group(1), spec=spec)
    mod.inner_spec = _inner_spec(p.parent / f"{inner}.tla", search_path)
    inner_vars = tuple(mod.inner_spec.variables)
    local = {n for n, d in names.items() if getattr(d, "module", None) == mod.name and getattr(d, "kind", "") == "op"}

    def inline(node: Any) -> str:
        """The text of ``node`` with the module's own helper definitions it uses put in a LET."""
        used: list[str] = []

        def collect(nd: Any) -> None:
            for x in A.walk(nd):
                nm = getattr(x, "name", None) if isinstance(x, (A.Name, A.OpApp)) else None
                if nm and nm in local and nm not in used and nm not in (all_def, mod.window_def, "Init", "Next"):
                    used.append(nm)
                    collect(names[nm].node)
        collect(node)
        out = _src(spec, node)
        if used:
            # dependencies first: a helper defined earlier in the module comes first
            used.sort(key=lambda n: names[n].node.span.start)
            defs = " ".join(_src(spec, names[n].node) for n in used)
            out = f"LET {defs} IN {out}"
        return out.replace(f"{instance}!", "")

    init = body("Init")
    for conj in (init.args if isinstance(init, A.And) else [init]) if init is not None else []:
        if isinstance(conj, A.OpApp) and conj.name == "=" and isinstance(conj.args[0], A.Name):
            var = conj.args[0].name
            if var in inner_vars:
                mod.init[var] = inline(conj.args[1])
        elif isinstance(conj, A.OpApp) and conj.name == "\\in" and isinstance(conj.args[0], A.Name):
            if conj.args[0].name in inner_vars:  # an unobserved variable free within a set
                mod.init_domain[conj.args[0].name] = inline(conj.args[1])
        elif conj is not None:
            mod.notes.append(f"Init conjunct not translated: {' '.join(_src(spec, conj).split())}")
    post = body("PostReached")
    for conj in (post.args if isinstance(post, A.And) else [post]) if post is not None else []:
        t = " ".join(_src(spec, conj).split())
        me = re.fullmatch(r"(\w+)\s*=\s*" + re.escape(mod.window_def) + r"\.post\.(\w+)", t)
        ml = re.fullmatch(r"\\A\s*(\w+)\s*\\in\s*\w+\s*:\s*Len\((\w+)\[\1\]\)\s*=\s*" + re.escape(mod.window_def)
                          + r"\.post\.(\w+)\[\1\]", t)
        if me and me.group(1) in inner_vars:
            mod.post[me.group(1)] = ("eq", me.group(2))
        elif ml and ml.group(2) in inner_vars:
            mod.post[ml.group(2)] = ("len", ml.group(3))
        elif me or ml or re.fullmatch(r"\w+\s*=\s*\d+", t):
            continue  # the module's own step counter
        else:
            mod.notes.append(f"PostReached conjunct not translated: {t}")
    # parameters bound from a one-message set the module builds (\E m \in messages : S!A(m))
    d = mod.inner_spec.root.names.get(call.name)
    formals = tuple(q.name for q in getattr(getattr(d, "node", None), "params", ()) or ())
    for q in A.walk(nxt):
        if isinstance(q, A.Quant) and q.kind == "E":
            for bd in q.bounds:
                dom = bd.domain
                if isinstance(dom, A.Name) and dom.name in mod.init:
                    for nm in bd.names:
                        for formal, arg in zip(formals, call.args):
                            if isinstance(arg, A.Name) and arg.name == nm:
                                mod.message_var = dom.name
                                mod.message_params[formal] = _one_element(mod.init[dom.name])
    return mod


def _one_element(set_text: str) -> str:
    """``{TriggerMsg}`` (possibly under LET) -> the text of its only element."""
    t = set_text.strip()
    m = re.fullmatch(r"(LET .* IN )\{(.*)\}", t, re.S)
    if m:
        return m.group(1) + m.group(2)
    if t.startswith("{") and t.endswith("}"):
        return t[1:-1]
    return f"CHOOSE x_ \\in {t} : TRUE"


def _inner_spec(path: Path, search_path: tuple[str, ...]) -> Any:
    from specula.errors import SpeculaError
    from specula.tla import load

    try:
        return load(str(path), search_path=search_path)
    except SpeculaError:
        raise
    except Exception as exc:  # noqa: BLE001 - reported with the file
        raise InputError(f"cannot load the spec the module instantiates: {exc}", path=str(path)) from None


def wv_windows(mod: WVModule, issues: list[TraceIssue] | None = None) -> list[tuple[Window, Any]]:
    """The module's windows, in WINDOW_INDEX order (1-based), with their raw JSON."""
    out: list[tuple[Window, Any]] = []
    try:
        lines = mod.windows_file.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read the module's windows file: {exc.strerror or exc}", path=str(mod.windows_file)) from None
    for ln, line in enumerate(lines, 1):
        if not line.strip():
            continue
        src = f"{mod.windows_file.name}:{ln}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            if issues is not None:
                issues.append(TraceIssue(str(mod.windows_file), ln, f"not JSON: {exc.msg}"))
            raw = None
        if not isinstance(raw, dict):
            out.append((Window(len(out) + 1, "", len(out), mod.action, {}, {}, source=src), raw))
            continue
        w = Window(raw.get("id", len(out) + 1), str(raw.get("trace_id", "")), len(out), mod.action,
                   raw.get("pre") if isinstance(raw.get("pre"), dict) else {},
                   raw.get("post") if isinstance(raw.get("post"), dict) else {},
                   actor=raw.get("node", raw.get("actor")), input=raw.get("input"), source=src)
        out.append((w, raw))
    return out


def wv_mapping(mods: list[WVModule]) -> dict[str, Any]:
    """The mapping (as a YAML-ready dict) equivalent to a set of modules over one spec: what all
    modules agree on goes to ``variables``, the rest to ``action_variables`` per action."""
    per: dict[str, dict[str, dict[str, Any]]] = {}
    inputs: dict[str, str] = {}
    aparams: dict[str, dict[str, str]] = {}
    for mod in mods:
        vs: dict[str, dict[str, Any]] = {}
        for var, text in mod.init.items():
            if var == mod.message_var and mod.message_params:
                continue  # the rebuilt input message is put there (docs/mapping.md, messages)
            kind = mod.post.get(var)
            pre_field = re.fullmatch(re.escape(mod.window_def) + r"\.pre\.(\w+)", text.strip())
            if kind and kind[0] == "eq" and pre_field and pre_field.group(1) == kind[1]:
                vs[var] = {"field": kind[1]}
            elif kind and kind[0] == "len":
                vs[var] = {"per_node": True, "abstract": {"length": kind[1]}, "value": {"tla": _w(text, mod)}}
            else:
                vs[var] = {"value": {"tla": _w(text, mod)}}
        for var, text in mod.init_domain.items():
            vs[var] = {"aux": True, "domain": _w(text, mod)}
        per[mod.action] = vs
        for formal, text in mod.message_params.items():
            inputs[mod.action] = _w(text, mod)
            aparams.setdefault(mod.action, {})[formal] = "input"
    common: dict[str, dict[str, Any]] = {}
    if per:
        first = next(iter(per.values()))
        for var, spec in first.items():
            if all(vs.get(var) == spec for vs in per.values()):
                common[var] = spec
    doc: dict[str, Any] = {"version": 1, "variables": common}
    avs = {a: {v: s for v, s in vs.items() if v not in common} for a, vs in per.items()}
    avs = {a: vs for a, vs in avs.items() if vs}
    if avs:
        doc["action_variables"] = avs
    mvars = {m.message_var for m in mods if m.message_var and m.message_params}
    if len(mvars) == 1:
        doc["message_var"] = mvars.pop()
    if inputs:
        doc["action_input"] = {a: {"tla": t} for a, t in inputs.items()}
    if aparams:
        doc["action_params"] = aparams
    return doc


def _w(text: str, mod: WVModule) -> str:
    """The module's window name is ``w`` in mapping text."""
    return text if mod.window_def == "w" else re.sub(rf"\b{re.escape(mod.window_def)}\b", "w", text)


def mapping_yaml(mods: list[WVModule]) -> str:
    """:func:`wv_mapping` as YAML text, with the untranslated parts listed as comments."""
    from specula.yamlfile import dump_yaml

    head = ["# written by `specula mapping from-wv` from " + ", ".join(m.path.name for m in mods),
            "# (docs/mapping.md; TLA+ text over the window `w` and its input message `input`)"]
    for m in mods:
        for n in m.notes:
            head.append(f"# {m.path.name}: {n}")
    body = dump_yaml(wv_mapping(mods), width=1000, block_strings=True)
    return "\n".join(head) + "\n" + body
