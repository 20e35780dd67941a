"""Turn a tree-sitter tree with ERROR / MISSING nodes into precise syntax diagnostics (E101).

tree-sitter's error recovery often wraps a large region (sometimes the whole module) in one
ERROR node, far from the real mistake. SANY, by contrast, reports the first token it could not
consume. To get there (only when a parse failed, so the fast path is untouched):

1. Structural checks: a module header ``---- MODULE Name ----`` and a closing ``====`` line.
2. Split the module body into top-level units (a definition or declaration starts at column 1)
   and re-parse each unit alone, with every other unit blanked out (spaces, newlines kept, so
   offsets, lines and columns stay exact). The first unit that fails alone holds the mistake.
3. Inside that unit: the culprit is the token after the longest parsable stretch — the token a
   MISSING node stands before, the token skipped into an ERROR node, or, when the unit simply
   ends too early (``A == 1 +``), the start of the next unit (SANY's "Encountered 'Beginning
   of definition'").
"""

from __future__ import annotations

import re

from specula.diagnostics import Diagnostic
from specula.tla.tree_parser import parser as tla_parser

__all__ = ["find_syntax_errors"]

_EXTRAS = ("comment", "block_comment")
_HEADER = re.compile(rb"^\s*-{4,}\s*MODULE\s+(\w+)\s*-{4,}", re.M)
_FOOTER = re.compile(rb"^={4,}", re.M)
_PARTIAL_HEADER = re.compile(rb"^\s*-{4,}\s*MODULE\s+\w+\s*", re.M)
_HEADER_WORD = re.compile(rb"^([A-Za-z_]\w*)", re.M)
_UNIT_START = re.compile(
    rb"(?:LOCAL[ \t]+)?(?:"
    rb"\w+[ \t]*(?:\([^()\n]*\))?[ \t]*(?:==|\xe2\x89\x9c)"  # Op == / Op(a, b) ==  (\u225c is the Unicode ==)
    rb"|\w+[ \t]*\[[^\n]*\][ \t]*(?:==|\xe2\x89\x9c)"  # f[x \in S] ==
    rb"|\w+[ \t]+[^\s\w(]\S*[ \t]+\w+[ \t]*(?:==|\xe2\x89\x9c)"  # a \prec b ==
    rb"|INSTANCE\b)"
    rb"|(?:VARIABLES?|CONSTANTS?|ASSUME|ASSUMPTION|AXIOM|THEOREM|LEMMA|PROPOSITION|COROLLARY"
    rb"|RECURSIVE|USE|HIDE)\b"
    rb"|-{4,}"
)


def _walk_problem(root):
    """Document-order first ERROR or MISSING node (descending only into subtrees with errors)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing or node.type == "ERROR":
            return node
        if node.has_error:
            stack.extend(reversed(node.children))
    return None


def _leaves(node):
    """Leaf tokens of ``node`` in order (comments skipped)."""
    out = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in _EXTRAS:
            continue
        if n.child_count == 0:
            if n.end_byte > n.start_byte:
                out.append(n)
            continue
        stack.extend(reversed(n.children))
    return out


def _token_at_or_after(root, offset: int):
    for leaf in _leaves(root):
        if leaf.start_byte >= offset and not leaf.is_missing:
            return leaf
    return None


class _Where:
    """A byte range to report, with the token text it covers."""

    def __init__(self, start: int, end: int, text: str, note: str = "", message: str = "") -> None:
        self.start, self.end, self.text, self.note, self.message = start, end, text, note, message


def _comment_mask(data: bytes) -> list[tuple[int, int]]:
    """Byte ranges of block comments (nested), line comments and strings: no unit starts there."""
    ranges: list[tuple[int, int]] = []
    i, n = 0, len(data)
    while i < n:
        c = data[i]
        if data.startswith(b"(*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if data.startswith(b"(*", j):
                    depth, j = depth + 1, j + 2
                elif data.startswith(b"*)", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            ranges.append((i, j))
            i = j
        elif data.startswith(b"\\*", i):
            j = data.find(b"\n", i)
            j = n if j < 0 else j
            ranges.append((i, j))
            i = j
        elif c == 0x22:  # string literal
            j = i + 1
            while j < n and data[j] != 0x22 and data[j] != 0x0A:
                j += 2 if data[j] == 0x5C else 1
            ranges.append((i, j + 1))
            i = j + 1
        else:
            i += 1
    return ranges


def _unit_starts(data: bytes, body_start: int, body_end: int) -> list[int]:
    masked = _comment_mask(data)
    starts: list[int] = []
    k = 0
    pos = body_start
    while pos < body_end:
        nl = data.find(b"\n", pos)
        line_end = body_end if nl < 0 or nl > body_end else nl
        while k < len(masked) and masked[k][1] <= pos:
            k += 1
        inside = k < len(masked) and masked[k][0] < pos
        if not inside and _UNIT_START.match(data, pos):
            starts.append(pos)
        pos = line_end + 1
    return starts


_BLANK = bytes(0x0A if i == 0x0A else 0x20 for i in range(256))


def _blank(data: bytes, keep: list[tuple[int, int]]) -> bytes:
    """``data`` with everything outside ``keep`` replaced by spaces (newlines kept)."""
    out = bytearray(data.translate(_BLANK))
    for s, e in keep:
        out[s:e] = data[s:e]
    return bytes(out)


def _is_subtree(node) -> bool:
    """A named node with named children: a complete construct tree-sitter kept on its stack
    (as opposed to a token wrapper such as ``def_eq`` or ``case_box``)."""
    return node.is_named and any(c.is_named and c.type not in _EXTRAS for c in node.children)


def _culprit_in(tree, unit_start: int, unit_end: int, next_start: int, data: bytes) -> _Where | None:
    root = tree.root_node
    problem = _walk_problem(root)
    if problem is None:
        return None
    tok = None
    note = ""
    if problem.is_missing or problem.end_byte == problem.start_byte:
        tok = _token_at_or_after(root, problem.start_byte)
        if problem.is_missing:
            note = f"expected {_pretty(problem.type)}"
    else:
        kids = [c for c in problem.children
                if c.type not in _EXTRAS and c.end_byte > unit_start and c.start_byte < unit_end]
        if not problem.children:  # an ERROR leaf: the skipped token itself
            tok = problem
        elif not kids:
            tok = _token_at_or_after(root, problem.start_byte)
        else:
            last_tree = max((i for i, c in enumerate(kids) if _is_subtree(c)), default=None)
            if last_tree is not None:
                # tree-sitter kept a complete construct; the token after it did not fit
                tok = _token_at_or_after(root, kids[last_tree].end_byte)
            else:
                # only tokens: the last one the parser skipped is where it gave up
                leaves = [lf for lf in _leaves(problem) if lf.start_byte < unit_end]
                tok = leaves[-1] if leaves else _token_at_or_after(root, problem.end_byte)
    if tok is None or tok.start_byte >= unit_end:
        return _incomplete(next_start, data, problem.type if problem.is_missing else "")
    return _Where(tok.start_byte, tok.end_byte, tok.text.decode("utf-8", "replace"), note)


# (text after the prefix, text after the closing brackets): generic ways to finish a construct
_COMPLETIONS = tuple(
    (mid, tail)
    for tail in (b"", b" : x", b" == x")
    for mid in (b"", b" x", b" : x", b" x : x", b" THEN x ELSE x", b" x THEN x ELSE x", b" ELSE x",
                b" -> x", b" x -> x", b" IN x", b" x == x IN x", b" == x IN x", b" |-> x", b" x |-> x", b" ![x] = x",
                b" = x", b" x]_x", b" x >>_x", b" x == x", b" x)")
)
_OPEN = {b"(": b")", b"[": b"]", b"{": b"}", b"<<": b">>"}
_TOKEN = re.compile(
    rb'"(?:[^"\\\n]|\\.)*"?'  # string (possibly unterminated)
    rb"|\\[A-Za-z]+"  # \in, \A, \cup ...
    rb"|\w+"
    rb"|<=>|=>|==|\|->|->|<-|<<|>>_|>>|\]_|\.\.\.|\.\.|/\\|\\/|/=|<=|>=|=<|::|:=|@@|:>|~>|-\+->|\^\+|\^\*"
    rb"|\S"
)


def _tokens(data: bytes, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of each token in data[start:end], comments skipped."""
    masked = [(a, b) for a, b in _comment_mask(data[start:end]) if data[start + a:start + a + 1] != b'"']
    out: list[tuple[int, int]] = []
    pos, k = start, 0
    while pos < end:
        while k < len(masked) and masked[k][1] + start <= pos:
            k += 1
        if k < len(masked) and masked[k][0] + start <= pos:
            pos = masked[k][1] + start
            continue
        m = _TOKEN.search(data, pos, end)
        if m is None:
            break
        if k < len(masked) and masked[k][0] + start <= m.start():
            pos = masked[k][0] + start
            continue
        out.append((m.start(), m.end()))
        pos = m.end()
    return out


def _closers(chunk: bytes) -> bytes:
    """Closing brackets for the brackets ``chunk`` leaves open (comments and strings skipped)."""
    masked = _comment_mask(chunk)
    stack: list[bytes] = []
    i, k = 0, 0
    while i < len(chunk):
        while k < len(masked) and masked[k][1] <= i:
            k += 1
        if k < len(masked) and masked[k][0] <= i < masked[k][1]:
            i = masked[k][1]
            continue
        two = chunk[i:i + 2]
        if two == b"<<":
            stack.append(b">>")
            i += 2
            continue
        if two == b">>" and stack and stack[-1] == b">>":
            stack.pop()
            i += 2
            continue
        ch = chunk[i:i + 1]
        if ch in _OPEN:
            stack.append(_OPEN[ch])
        elif ch in (b")", b"]", b"}") and stack and stack[-1] == ch:
            stack.pop()
        i += 1
    return b" ".join(reversed(stack))


def _viable(prefix: bytes) -> tuple[bytes, bytes, bytes] | None:
    """A completion (text, closing brackets, tail) turning ``prefix`` — a unit's text cut after
    some token — into a valid unit, or None when no generic completion works."""
    parser = tla_parser()
    closers = _closers(prefix)
    for mid, tail in _COMPLETIONS:
        text = (b"---- MODULE __P ----\n" + prefix + b"\n" + b" " * 60 + mid
                + (b" " + closers if closers else b"") + tail + b"\n====\n")
        if not parser.parse(text).root_node.has_error:
            return mid, closers, tail
    return None


def _expected(completion: tuple[bytes, bytes, bytes] | None) -> str:
    """What the parser wanted next, read off the completion that made the prefix valid."""
    if completion is None:
        return ""
    mid, closers, tail = completion
    word = (mid.split() or closers.split() or tail.split() or [b""])[0]
    m = _TOKEN.match(word)
    first = (m.group(0) if m else word).decode("utf-8", "replace")
    if not first:
        return ""
    if first == "x":
        return "expected an expression"
    return f"expected '{first}'" if not first.isalpha() else f"expected {first}"


def _first_bad_token(data: bytes, unit_start: int, unit_end: int) -> tuple[int, int] | None:
    """The first token after which the unit can no longer be completed (None: every prefix,
    including the whole unit, is viable — the unit is merely cut short)."""
    toks = _tokens(data, unit_start, unit_end)
    if not toks:
        return None
    if _viable(data[unit_start:toks[-1][1]]) is not None:
        return None
    lo, hi = 0, len(toks) - 1  # invariant: prefix through toks[hi] is not viable
    while lo < hi:
        mid = (lo + hi) // 2
        if _viable(data[unit_start:toks[mid][1]]) is not None:
            lo = mid + 1
        else:
            hi = mid
    return toks[hi]


def _header_culprit(data: bytes, start: int, end: int) -> _Where | None:
    """Between the module header and the first unit only EXTENDS (and comments) may appear."""
    masked = _comment_mask(data)
    for m in _HEADER_WORD.finditer(data, start, end):
        if any(a <= m.start() < b for a, b in masked):
            continue
        word = m.group(1)
        if word != b"EXTENDS":
            return _Where(m.start(), m.end(), word.decode("utf-8", "replace"),
                          "expected EXTENDS or a definition" + ("; did you mean EXTENDS?" if word.upper().startswith(b"EXTEND") else ""))
    return None


def _lexical_errors(data: bytes, start: int, end: int) -> _Where | None:
    """Unterminated strings and block comments, which SANY reports as lexical errors."""
    i = start
    while i < end:
        if data.startswith(b"(*", i):
            depth, j = 1, i + 2
            while j < len(data) and depth:
                if data.startswith(b"(*", j):
                    depth, j = depth + 1, j + 2
                elif data.startswith(b"*)", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            if depth:
                return _Where(i, i + 2, "(*", message="unterminated comment: '(*' is never closed by '*)'")
            i = j
        elif data.startswith(b"\\*", i):
            j = data.find(b"\n", i)
            i = len(data) if j < 0 else j
        elif data[i] == 0x22:
            j = i + 1
            while j < len(data) and data[j] not in (0x22, 0x0A):
                if data[j] == 0x5C:
                    if j + 1 < len(data) and data[j + 1] not in b'"\\ntfr':
                        return _Where(j, j + 2, data[j:j + 2].decode("utf-8", "replace"),
                                      message="invalid escape in string: use \\\" \\\\ \\n \\t \\r or \\f")
                    j += 2
                else:
                    j += 1
            if j >= len(data) or data[j] != 0x22:
                return _Where(i, j, data[i:j].decode("utf-8", "replace"),
                              message="unterminated string: a string must end with '\"' on the same line")
            i = j + 1
        else:
            i += 1
    return None


def _incomplete(next_start: int, data: bytes, missing: str) -> _Where:
    end = data.find(b"\n", next_start)
    end = len(data) if end < 0 else end
    word = re.match(rb"\S+", data[next_start:end])
    text = word.group(0).decode("utf-8", "replace") if word else "end of input"
    note = "the definition before it is incomplete"
    if missing:
        note = f"expected {_pretty(missing)}; the definition before it is incomplete"
    return _Where(next_start, next_start + (len(word.group(0)) if word else 0), text, note)


def _pretty(kind: str) -> str:
    return {"identifier_ref": "an expression", "identifier": "a name", "rangle_bracket": "'>>'",
            "def_eq": "'=='", "double_line": "'===='"}.get(kind, f"'{kind}'" if not kind.isidentifier() else kind.replace("_", " "))


def _whole_chars(data: bytes, start: int, end: int) -> tuple[int, str]:
    """``data[start:end]`` widened to whole UTF-8 characters (a token cut inside a multi-byte
    character decoded to U+FFFD): (new end, text)."""
    while end < len(data) and 0x80 <= data[end] < 0xC0:
        end += 1
    return end, data[start:end].decode("utf-8", "replace")


def _diag(src, where: _Where) -> Diagnostic:
    text = where.text
    if "\ufffd" in text and where.end > where.start:
        end, text = _whole_chars(src.data, where.start, where.end)
        where = _Where(where.start, end, text, where.note, where.message)
    line, col = _line_col(src, where.start)
    end_line, end_col = _line_col(src, max(where.end, where.start))
    if not where.note and text.strip() and not text.strip().isascii():
        where = _Where(where.start, where.end, text, "TLA+ names and operators are ASCII; non-ASCII characters "
                                                      "may appear only in strings and comments", where.message)
    text = text.strip() or "end of input"
    if len(text) > 30:
        text = text[:27] + "..."
    msg = f"syntax error: unexpected '{text}'" if text != "end of input" else "syntax error: unexpected end of input"
    if where.note:
        msg += f" ({where.note})"
    if where.message:
        msg = where.message
    return Diagnostic("error", "E101", msg, src.file, line, col, end_line, end_col)


def _line_col(src, offset: int) -> tuple[int, int]:
    data = src.data
    line_start = data.rfind(b"\n", 0, offset) + 1
    line = data.count(b"\n", 0, offset) + 1
    col = len(data[line_start:offset].decode("utf-8", "replace")) + 1
    return line - src.line_base, col


def find_syntax_errors(root, src) -> list[Diagnostic]:
    data: bytes = src.data
    base = src.byte_base
    header = _HEADER.search(data, base)
    if header is None:
        partial = _PARTIAL_HEADER.search(data, base)
        if partial is not None:
            m = re.match(rb"\S+", data[partial.end():])
            bad = m.group(0) if m else b""
            return [_diag(src, _Where(partial.end(), partial.end() + len(bad), bad.decode("utf-8", "replace"),
                                      "a module header is '---- MODULE Name ----' with at least 4 dashes"))]
        tok = _token_at_or_after(root, base)
        start = tok.start_byte if tok is not None else base
        return [_diag(src, _Where(start, tok.end_byte if tok is not None else start,
                                  tok.text.decode("utf-8", "replace") if tok is not None else "",
                                  "expected a module header '---- MODULE Name ----'"))]
    footer = _FOOTER.search(data, header.end())
    if footer is None:
        # SANY: Encountered <EOF> after the last token
        last = _leaves(root)
        end = last[-1].end_byte if last else len(data)
        return [_diag(src, _Where(end, end, "", f"missing '====' at the end of module "
                                              f"{header.group(1).decode('utf-8', 'replace')}"))]
    lexical = _lexical_errors(data, header.end(), footer.start())
    if lexical is not None:
        return [_diag(src, lexical)]
    body_start = data.find(b"\n", header.end())
    body_start = footer.start() if body_start < 0 else body_start + 1
    starts = _unit_starts(data, body_start, footer.start())
    parser = tla_parser()
    head = (0, starts[0] if starts else footer.start())
    tail = (footer.start(), len(data))
    tree = parser.parse(_blank(data, [head, tail]))
    if tree.root_node.has_error:
        where = _header_culprit(data, header.end(), head[1]) or _culprit_in(tree, 0, head[1], head[1], data)
        if where is not None:
            return [_diag(src, where)]
    bounds = starts + [footer.start()]
    for i, s in enumerate(starts):
        e = bounds[i + 1]
        # the unit alone (header + unit + footer, compacted: only has_error is needed here)
        tree = parser.parse(data[head[0]:head[1]] + data[s:e] + data[tail[0]:tail[1]])
        if tree.root_node.has_error:
            bad = _first_bad_token(data, s, e)
            if bad is None:
                where = _incomplete(e, data, "")
                hint = _expected(_viable(data[s:e].rstrip()))
                if hint:
                    where.note = f"the definition before it is incomplete; {hint}"
                return [_diag(src, where)]
            before = data[s:bad[0]].rstrip()
            hint = _expected(_viable(before)) if before else ""
            where = _Where(bad[0], bad[1], data[bad[0]:bad[1]].decode("utf-8", "replace"), hint)
            if where is not None:
                return [_diag(src, where)]
    # every unit parses alone: the problem is between units (or the splitter misread the layout)
    where = _culprit_in(parser.parse(data), 0, footer.start(), footer.start(), data)
    if where is None:
        return [Diagnostic("error", "E101", "syntax error", src.file, 1, 1)]
    return [_diag(src, where)]
