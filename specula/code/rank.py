"""Rank symbols for a focus: name/text relevance plus call-graph centrality (personalised PageRank).

All weights live in ``RankWeights``. The graph has a node per function, method, type and
global; edges are calls and function-value uses by name (split among same-named
definitions), method -> its type, and writer -> the type owning the written field.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Iterable

from specula.code.model import FUNCTION_KINDS, TYPE_KINDS, RepoIndex, Symbol

__all__ = ["RankWeights", "Focus", "RankedSymbol", "rank_symbols", "file_name_relevance", "split_words", "norm_ident"]


@dataclass(frozen=True)
class RankWeights:
    """Every knob of the ranking, in one place."""

    exact_name: float = 10.0  # a focus identifier equals the symbol's name (case/underscore-insensitive)
    word_match: float = 4.0  # idf-weighted share of the name's words that the focus mentions
    signature_words: float = 1.0  # idf-weighted focus words in the signature (beyond the name)
    body_words: float = 3.0  # idf-weighted share of the focus words that a function's body mentions
    parent_match: float = 2.0  # the symbol's type/receiver is named in the focus (one-word names: x single_word_exact x idf)
    file_words: float = 1.5  # idf-weighted focus words in the file's name (FastLeaderElection.java), if most of its words
    file_words_min_share: float = 0.6  # ... i.e. at least this share of the file name's words is in the focus
    file_match: float = 1.0  # added relevance when the symbol's file is named in the focus
    file_factor: float = 1.5  # and its whole score is multiplied by this (relevant code there rises most)
    single_word_exact: float = 0.4  # factor (times the word's idf) for exact matches of one-word names
    constructor_exact: float = 0.3  # factor for exact matches of constructors (named like their class)
    member_share: float = 0.5  # share of the best field's/local's relevance passed to its type/function
    centrality: float = 1.5  # weight of log(1 + N * pagerank)
    damping: float = 0.85
    iterations: int = 40
    personalization_floor: float = 0.05  # every node's share of the teleport vector, relative to relevant ones
    type_edge: float = 0.5  # method -> its type
    write_edge: float = 0.3  # function -> type whose field it writes
    edge_leak: float = 1.0  # out-weight every node keeps for the teleport vector (damps getter -> class)
    max_defs_per_name: int = 40  # call names with more definitions than this are too ambiguous to link

    def to_dict(self) -> dict:
        return asdict(self)


_STOP = frozenset(
    """a an and are as at be been but by can do does each else for from has have how if in into is it its
    itself may must no not of on or our should so such than that the their them then there these they this
    those to too use used uses using via was we were what when where which while who why will with would
    you your get set new make value values code function functions method methods type types field fields
    state spec action actions model tla module implementation system return returns true false nil null
    none self int string bool err error""".split()
)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_FILE = re.compile(r"[\w./-]+\.(?:go|rs|c|h|cc|cpp|cxx|hpp|hh|java|py)\b")


def norm_ident(name: str) -> str:
    """``become_candidate``, ``BecomeCandidate`` and ``becomeCandidate`` all -> ``becomecandidate``."""
    return name.replace("_", "").lower()


@lru_cache(maxsize=65536)
def split_words(name: str) -> tuple[str, ...]:
    """camelCase / snake_case / ALLCAPS -> lowercase words (``lookForLeader`` -> look, for, leader)."""
    return tuple(w.lower() for w in _WORD.findall(name))


@dataclass(frozen=True)
class Focus:
    """What the caller cares about: free text, extra identifiers (action names), named files."""

    text: str = ""
    identifiers: frozenset[str] = frozenset()  # normalised (see norm_ident)
    words: frozenset[str] = frozenset()
    files: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str = "", names: Iterable[str] = (), files: Iterable[str] = ()) -> "Focus":
        idents = set()
        words = set()
        file_list = [f.strip() for f in files if f.strip()]
        file_list += _FILE.findall(text)
        body = _FILE.sub(" ", text)
        for tok in list(_IDENT.findall(body)) + [n for n in names]:
            if len(tok) >= 3 and tok.lower() not in _STOP:
                idents.add(norm_ident(tok))
            for w in split_words(tok):
                if len(w) >= 3 and w not in _STOP:
                    words.add(w)
                    if len(w) > 4 and w.endswith("s") and not w.endswith("ss"):
                        words.add(w[:-1])  # "votes" names vote, "notifications" Notification
        return cls(text, frozenset(idents), frozenset(words), tuple(dict.fromkeys(file_list)))

    @property
    def empty(self) -> bool:
        return not (self.identifiers or self.words or self.files)

    def names_file(self, path: str) -> bool:
        for f in self.files:
            f = f.removeprefix("./")
            if path == f or path.endswith("/" + f):
                return True
        return False


@dataclass(frozen=True, slots=True)
class RankedSymbol:
    symbol: Symbol
    score: float
    relevance: float
    centrality: float

    def to_dict(self) -> dict:
        d = self.symbol.to_dict()
        d.update(score=round(self.score, 4), relevance=round(self.relevance, 4), centrality=round(self.centrality, 4))
        return d


def _idf(index: RepoIndex) -> dict[str, float]:
    df: dict[str, int] = {}
    names = {s.name for s in index.symbols if s.kind != "local"}
    for n in names:
        for w in set(split_words(n)):
            df[w] = df.get(w, 0) + 1
    total = max(1, len(names))
    return {w: math.log((1 + total) / (1 + c)) / math.log(1 + total) for w, c in df.items()}


def _relevance(sym: Symbol, focus: Focus, idf: dict[str, float], w: RankWeights, same_name: int = 1) -> float:
    if focus.empty:
        return 0.0
    score = 0.0
    words = set(split_words(sym.name))
    if norm_ident(sym.name) in focus.identifiers:
        # a one-word name (``term``) may just be an English word of the focus: weigh it like a word
        exact = w.exact_name if len(words) > 1 else w.exact_name * w.single_word_exact * idf.get(next(iter(words), ""), 1.0)
        if sym.parent and sym.name == sym.parent.rsplit(".", 1)[-1]:
            exact *= w.constructor_exact  # constructors share the class's name
        score += exact / math.sqrt(same_name)  # overloads and same-named definitions share the credit
    else:
        if words:
            hit = sum(idf.get(x, 1.0) for x in words & focus.words)
            score += w.word_match * hit / len(words)
    if sym.parent and sym.kind != "local":
        owner = sym.parent.rsplit(".", 1)[-1]
        if norm_ident(owner) in focus.identifiers:
            owner_words = split_words(owner)
            # a one-word class (``Leader``) may just be an English word of the focus: weigh it like a word
            score += w.parent_match * (1.0 if len(owner_words) > 1 else
                                       w.single_word_exact * idf.get(owner_words[0] if owner_words else "", 1.0))
    if focus.files and focus.names_file(sym.file):
        score += w.file_match
    if w.signature_words and sym.signature:
        sig_words = set(split_words(sym.signature)) - words
        hit = sum(idf.get(x, 1.0) for x in sig_words & focus.words)
        score += w.signature_words * min(1.0, hit / 3)
    return score


def file_name_relevance(path: str, focus: Focus, idf: dict[str, float], min_share: float = 0.6) -> float:
    """The idf-weighted sum of focus words in a file's name times the share of the name's words they
    are, when that share is at least ``min_share`` (``FastLeaderElection.java`` for "fast leader
    election ..."; ``raft.go`` for "raft"); else 0. A file matching three focus words outranks one
    matching a single common word."""
    stem = path.rsplit("/", 1)[-1].split(".", 1)[0]
    words = [x for x in dict.fromkeys(split_words(stem)) if len(x) >= 3 and x not in _STOP]
    if not words or not focus.words:
        return 0.0
    hit = [x for x in words if x in focus.words]
    if len(hit) < min_share * len(words):
        return 0.0
    return sum(idf.get(x, 1.0) for x in hit) * len(hit) / len(words)


def _body_relevance(index: RepoIndex, nodes: list[Symbol], focus: Focus, idf: dict[str, float]) -> dict[int, float]:
    """For each function, the idf-weighted share of the focus words its body mentions (in [0, 1]).

    Bodies are read from the checkout (not cached): identifiers are split into words, so a focus
    ``HandleVoteRequest`` finds the ``switch`` on ``MsgVote`` inside ``Step``."""
    fw = {x: idf.get(x, 1.0) for x in focus.words}
    total = sum(fw.values()) or 1.0
    by_file: dict[str, list[int]] = {}
    for i, s in enumerate(nodes):
        if s.kind in FUNCTION_KINDS and s.end_line > s.line:
            by_file.setdefault(s.file, []).append(i)
    out: dict[int, float] = {}
    for path, idxs in by_file.items():
        try:
            lines = (index.root / path).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        for i in idxs:
            s = nodes[i]
            words: set[str] = set()
            for ident in set(_IDENT.findall("\n".join(lines[s.line : s.end_line]))):
                words.update(split_words(ident))
            hit = sum(v for x, v in fw.items() if x in words)
            if hit:
                out[i] = hit / total
    return out


def rank_symbols(index: RepoIndex, focus: Focus | str = "", weights: RankWeights = RankWeights()) -> list[RankedSymbol]:
    """Functions, methods, types and globals of ``index``, best first."""
    if isinstance(focus, str):
        focus = Focus.parse(focus)
    w = weights
    idf = _idf(index)
    nodes = [s for s in index.symbols if s.kind in FUNCTION_KINDS or s.kind in TYPE_KINDS or s.kind == "global"]
    pos = {id(s): i for i, s in enumerate(nodes)}
    rel = [_relevance(s, focus, idf, w, len(index.by_name.get(s.name, ())) or 1) for s in nodes]
    lang_of = {p: f.language for p, f in index.files.items()}
    if w.body_words and focus.words:
        for i, score in _body_relevance(index, nodes, focus, idf).items():
            rel[i] += w.body_words * score

    if w.file_words and focus.words:
        by_path: dict[str, float] = {}
        for i, s in enumerate(nodes):
            fr = by_path.get(s.file)
            if fr is None:
                fr = by_path[s.file] = file_name_relevance(s.file, focus, idf, w.file_words_min_share)
            rel[i] += w.file_words * fr

    # members (fields, locals) lend relevance to their type / function (same file first)
    by_qual_file: dict[tuple[str, str], int] = {}
    by_qual: dict[str, int] = {}
    for i, s in enumerate(nodes):
        by_qual_file.setdefault((s.qualname, s.file), i)
        by_qual.setdefault(s.qualname, i)
        if s.kind in TYPE_KINDS:
            by_qual.setdefault(s.name, i)
    if not focus.empty:
        best_member: dict[int, float] = {}
        for s in index.symbols:
            if s.kind in ("field", "local") and s.parent:
                r = _relevance(s, focus, idf, w, len(index.by_name.get(s.name, ())) or 1)
                if r > 0:
                    i = by_qual_file.get((s.parent, s.file), by_qual.get(s.parent))
                    if i is not None and r > best_member.get(i, 0.0):
                        best_member[i] = r
        for i, r in best_member.items():
            rel[i] += w.member_share * r

    # graph
    n = len(nodes)
    out_edges: list[dict[int, float]] = [dict() for _ in range(n)]
    funcs_by_name: dict[str, list[int]] = {}
    for i, s in enumerate(nodes):
        if s.kind in FUNCTION_KINDS or s.kind in TYPE_KINDS:
            funcs_by_name.setdefault(s.name, []).append(i)
    caller_idx: dict[tuple[str, str], int] = {}
    for i, s in enumerate(nodes):
        if s.kind in FUNCTION_KINDS:
            caller_idx.setdefault((s.qualname, s.file), i)
    for c in index.calls:
        if c.caller is None:
            continue
        src = caller_idx.get((c.caller, c.file))
        targets = funcs_by_name.get(c.name)
        if src is None or not targets or len(targets) > w.max_defs_per_name:
            continue
        lang = lang_of[c.file]
        targets = [t for t in targets if t != src and lang_of[nodes[t].file] == lang]
        if not targets:
            continue
        share = 1.0 / len(targets)
        e = out_edges[src]
        for t in targets:
            e[t] = e.get(t, 0.0) + share
    type_idx: dict[str, int] = {}
    for i, s in enumerate(nodes):
        if s.kind in TYPE_KINDS:
            type_idx.setdefault(s.name, i)
    for i, s in enumerate(nodes):
        if s.kind == "method" and s.parent in type_idx:
            e = out_edges[i]
            t = type_idx[s.parent]
            e[t] = e.get(t, 0.0) + w.type_edge
    if w.write_edge:
        field_owner: dict[str, set[int]] = {}
        for s in index.symbols:
            if s.kind == "field" and s.parent in type_idx:
                field_owner.setdefault(s.name, set()).add(type_idx[s.parent])
        for wr in index.writes:
            owners = field_owner.get(wr.target)
            src = caller_idx.get((wr.function, wr.file)) if wr.function else None
            if src is None or not owners or len(owners) > 3:
                continue
            e = out_edges[src]
            for t in owners:
                e[t] = e.get(t, 0.0) + w.write_edge / len(owners)

    pr = _pagerank(out_edges, rel, w)
    results = []
    named: dict[str, bool] = {}
    for i, s in enumerate(nodes):
        cent = math.log1p(pr[i] * n)
        score = rel[i] + w.centrality * cent
        if focus.files:
            if s.file not in named:
                named[s.file] = focus.names_file(s.file)
            if named[s.file]:
                score *= w.file_factor
        results.append(RankedSymbol(s, score, rel[i], cent))
    results.sort(key=lambda r: (-r.score, r.symbol.file, r.symbol.line))
    return results


def _pagerank(out_edges: list[dict[int, float]], rel: list[float], w: RankWeights) -> list[float]:
    n = len(out_edges)
    if n == 0:
        return []
    total_rel = sum(rel)
    if total_rel > 0:
        floor = w.personalization_floor * total_rel / n
        pers = [r + floor for r in rel]
    else:
        pers = [1.0] * n
    z = sum(pers)
    pers = [p / z for p in pers]
    # each node keeps `edge_leak` of out-weight for the teleport vector, so a getter whose only
    # edge is "method -> its class" does not hand its whole rank to the class
    norm_edges: list[list[tuple[int, float]]] = []
    leak: list[float] = []
    for e in out_edges:
        tot = sum(e.values()) + w.edge_leak
        if tot <= 0:
            norm_edges.append([])
            leak.append(1.0)
            continue
        norm_edges.append([(t, v / tot) for t, v in e.items()])
        leak.append(w.edge_leak / tot)
    try:
        import numpy  # optional: 20x faster on large graphs; same result
    except ImportError:  # pragma: no cover - exercised where numpy is absent
        return _pagerank_python(norm_edges, leak, pers, w)
    return _pagerank_numpy(numpy, norm_edges, leak, pers, w)


def _pagerank_numpy(np, norm_edges: list[list[tuple[int, float]]], leak: list[float], pers: list[float],
                    w: RankWeights) -> list[float]:
    n = len(pers)
    src = np.fromiter((i for i, es in enumerate(norm_edges) for _ in es), dtype=np.int64)
    dst = np.fromiter((t for es in norm_edges for t, _ in es), dtype=np.int64)
    wt = np.fromiter((v for es in norm_edges for _, v in es), dtype=np.float64)
    lk = np.asarray(leak, dtype=np.float64)
    p = np.asarray(pers, dtype=np.float64)
    pr = p.copy()
    d = w.damping
    for _ in range(w.iterations):
        nxt = d * np.bincount(dst, weights=pr[src] * wt, minlength=n) if len(src) else np.zeros(n)
        nxt += (1.0 - d + d * float((pr * lk).sum())) * p
        delta = np.abs(nxt - pr).sum()
        pr = nxt
        if delta < 1e-7:
            break
    return pr.tolist()


def _pagerank_python(norm_edges: list[list[tuple[int, float]]], leak: list[float], pers: list[float],
                     w: RankWeights) -> list[float]:
    n = len(pers)
    pr = list(pers)
    d = w.damping
    for _ in range(w.iterations):
        nxt = [0.0] * n
        dangling = 0.0
        for i, edges in enumerate(norm_edges):
            p = pr[i]
            dangling += p * leak[i]
            if not edges:
                continue
            p *= d
            for t, v in edges:
                nxt[t] += p * v
        base = 1.0 - d + d * dangling
        delta = 0.0
        for i in range(n):
            val = nxt[i] + base * pers[i]
            delta += abs(val - pr[i])
            nxt[i] = val
        pr = nxt
        if delta < 1e-7:
            break
    return pr
