"""Turn a tree-sitter tree with ERROR / MISSING nodes into precise syntax diagnostics (E101).

tree-sitter's error recovery often wraps a large region (sometimes the whole module) in one
ERROR node. The culprit is the first token the parser could not fit: the first leaf inside the
first ERROR node in document order, or a MISSING node's position.
"""

from __future__ import annotations

from specula.diagnostics import Diagnostic

__all__ = ["find_syntax_errors"]


def _first_problem(root):
    """Document-order first ERROR or MISSING node (descending only into subtrees with errors)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing or node.type == "ERROR":
            return node
        if node.has_error:
            stack.extend(reversed(node.children))
    return None


def _first_leaf(node):
    while node.child_count:
        named = [c for c in node.children if c.type not in ("comment", "block_comment")]
        if not named:
            break
        node = named[0]
    return node


def _describe(text: str) -> str:
    text = text.strip()
    if not text:
        return "end of input"
    if len(text) > 30:
        text = text[:27] + "..."
    return f"'{text}'"


def find_syntax_errors(root, src) -> list[Diagnostic]:
    problem = _first_problem(root)
    if problem is None:  # has_error but nothing found: report the root
        return [Diagnostic("error", "E101", "syntax error", src.file, 1, 1)]
    if problem.is_missing:
        what = problem.type
        sp = src.span(problem)
        return [Diagnostic("error", "E101", f"syntax error: missing {what!r}", sp.file, sp.line, sp.col,
                           sp.end_line, sp.end_col)]
    leaf = _first_leaf(problem)
    sp = src.span(leaf)
    token = leaf.text.decode("utf-8", errors="replace") if leaf.text is not None else ""
    return [Diagnostic("error", "E101", f"syntax error: unexpected {_describe(token)}", sp.file, sp.line,
                       sp.col, sp.end_line, sp.end_col)]
