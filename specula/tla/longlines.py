"""Break very long lines before tree-sitter parses them, without changing what they mean.

tree-sitter-tlaplus's scanner asks for the column of every token (junction lists are aligned by
column), and tree-sitter computes a column by scanning back to the start of the line: a line of
n tokens costs O(n^2) (a 20,000-term inline ``/\\`` chain took 77 s). ``split_long_lines`` puts a
line break after an infix ``/\\``, ``\\/`` or a comma every ``CHUNK`` bytes of a long line, and
indents the continuation deeper than the line's first token and every ``/\\``/``\\/`` on it that
could open a junction list, so no list is opened or closed by the break: the parse tree is the
same, and ``insertions`` lets the parser map every offset back to the original text.
"""

from __future__ import annotations

__all__ = ["split_long_lines", "LONG_LINE", "CHUNK"]

LONG_LINE = 2000  # bytes: shorter lines are parsed as they are
CHUNK = 160  # bytes between breaks in a long line
_MAX_INDENT = 200  # a continuation indented deeper than this would not help: the line is left alone

_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
# words after which a /\ or \/ starts a junction list rather than continuing an expression
_KEYWORDS = frozenset({b"IF", b"THEN", b"ELSE", b"LET", b"IN", b"CASE", b"OTHER", b"CHOOSE", b"EXCEPT",
                       b"SUBSET", b"UNION", b"DOMAIN", b"ENABLED", b"UNCHANGED", b"LAMBDA", b"ASSUME",
                       b"ASSUMPTION", b"AXIOM", b"THEOREM", b"LEMMA", b"PROPOSITION", b"COROLLARY",
                       b"INSTANCE", b"WITH", b"LOCAL", b"RECURSIVE", b"SF_", b"WF_"})


def split_long_lines(data: bytes, limit: int = LONG_LINE,
                     chunk: int = CHUNK) -> tuple[bytes, list[tuple[int, int]]] | None:
    """(new text, insertions as (offset in the new text, bytes inserted)) or None when no line is
    longer than ``limit``. Only ASCII lines outside block comments are broken."""
    if len(data) <= limit or all(len(line) <= limit for line in data.split(b"\n")):
        return None
    out: list[bytes] = []
    inserted: list[tuple[int, int]] = []
    size = 0
    depth = 0  # block comment nesting carried across lines
    for line in data.split(b"\n"):
        pieces, depth = _split_line(line, depth, limit, chunk)
        for brk, piece in pieces:
            if brk:  # the break (newline + indent) that precedes this piece
                inserted.append((size, len(brk)))
                out.append(brk)
                size += len(brk)
            out.append(piece)
            size += len(piece)
        out.append(b"\n")
        size += 1
    text = b"".join(out)[:-1]  # the last line had no newline of its own
    return (text, inserted) if inserted else None


def _split_line(line: bytes, depth: int, limit: int, chunk: int) -> tuple[list[tuple[bytes, bytes]], int]:
    """The line as [(break, text)] pieces (the first break empty) and the comment depth after it."""
    n = len(line)
    breaks: list[int] = []
    first = len(line) - len(line.lstrip(b" \t"))
    deepest_bullet = -1
    prev_operand = False  # the last significant token ends an operand (so /\ here is infix)
    last_break = 0
    long = n > limit and line.isascii()
    i = 0
    while i < n:
        c = line[i]
        if depth:
            if line.startswith(b"*)", i):
                depth -= 1
                i += 2
            elif line.startswith(b"(*", i):
                depth += 1
                i += 2
            else:
                i += 1
            continue
        if line.startswith(b"(*", i):
            depth += 1
            i += 2
            continue
        if line.startswith(b"\\*", i):  # line comment: nothing after it is code
            break
        if c == 0x22:  # a string
            j = i + 1
            while j < n and line[j] != 0x22:
                j += 2 if line[j] == 0x5C else 1
            i = j + 1
            prev_operand = True
            continue
        if c in _WORD:
            j = i
            while j < n and line[j] in _WORD:
                j += 1
            prev_operand = line[i:j] not in _KEYWORDS
            i = j
            continue
        if c in b" \t":
            i += 1
            continue
        if line.startswith(b"/\\", i) or line.startswith(b"\\/", i):
            if not prev_operand:  # could open a junction list: continuations must go deeper
                deepest_bullet = max(deepest_bullet, i)
            elif long and i + 2 - last_break >= chunk and _next_is_safe(line, i + 2):
                breaks.append(i + 2)
                last_break = i + 2
            prev_operand = False
            i += 2
            continue
        if c == 0x2C:  # a comma
            if long and i + 1 - last_break >= chunk and _next_is_safe(line, i + 1):
                breaks.append(i + 1)
                last_break = i + 1
            prev_operand = False
            i += 1
            continue
        if line.startswith(b">>", i):
            prev_operand = True
            i += 2
            continue
        prev_operand = c in b")]}'"
        i += 1
    if not breaks:
        return [(b"", line)], depth
    # deeper than the first token and every /\ or \/ that may open a list; breaks only after the
    # last such bullet, which must keep its column (later lines may be aligned with it)
    indent = 1 + max(first, deepest_bullet)
    if indent > _MAX_INDENT:
        return [(b"", line)], depth
    breaks = [b for b in breaks if b > deepest_bullet]
    if not breaks:
        return [(b"", line)], depth
    brk = b"\n" + b" " * indent
    pieces = [(b"", line[:breaks[0]])]
    for a, b in zip(breaks, breaks[1:] + [n]):
        pieces.append((brk, line[a:b]))
    return pieces, depth


def _next_is_safe(line: bytes, i: int) -> bool:
    """The text after a break must not start a junction list or be only a comment."""
    rest = line[i:].lstrip(b" \t")
    return bool(rest) and not rest.startswith((b"/\\", b"\\/", b"\\*", b"(*"))
