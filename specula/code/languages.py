"""The six languages the code index reads: file extensions, grammars, queries, node roles.

Grammars come from the per-language wheels (``tree_sitter_go`` ...), loaded lazily and
memoised per process. Each language has one query file ``queries/<name>.scm`` with
aider-style definition and reference captures; the node-type tables here tell the
extractor which nodes enclose others (types for methods and fields, functions for calls).
"""

from __future__ import annotations

import hashlib
import importlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

__all__ = ["LanguageSpec", "LANGUAGES", "language_for_path", "load_grammar", "load_query", "EXTRACTOR_VERSION"]

QUERY_DIR = Path(__file__).with_name("queries")


@dataclass(frozen=True)
class LanguageSpec:
    name: str
    module: str
    extensions: tuple[str, ...]
    # node type -> field holding the container's name ("" = resolve specially)
    containers: dict[str, str] = field(default_factory=dict)
    functions: frozenset[str] = frozenset()
    c_family: bool = False
    line_comment: str = "//"


LANGUAGES: dict[str, LanguageSpec] = {
    "go": LanguageSpec(
        "go", "tree_sitter_go", (".go",),
        containers={"type_spec": "name"},
        functions=frozenset({"function_declaration", "method_declaration"}),
    ),
    "rust": LanguageSpec(
        "rust", "tree_sitter_rust", (".rs",),
        containers={"struct_item": "name", "enum_item": "name", "union_item": "name",
                    "trait_item": "name", "impl_item": "type"},
        functions=frozenset({"function_item"}),
    ),
    "c": LanguageSpec(
        "c", "tree_sitter_c", (".c", ".h"),
        containers={"struct_specifier": "", "union_specifier": "", "enum_specifier": ""},
        functions=frozenset({"function_definition"}),
        c_family=True,
    ),
    "cpp": LanguageSpec(
        "cpp", "tree_sitter_cpp", (".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp"),
        containers={"class_specifier": "", "struct_specifier": "", "union_specifier": "", "enum_specifier": ""},
        functions=frozenset({"function_definition"}),
        c_family=True,
    ),
    "java": LanguageSpec(
        "java", "tree_sitter_java", (".java",),
        containers={"class_declaration": "name", "interface_declaration": "name", "enum_declaration": "name",
                    "record_declaration": "name", "annotation_type_declaration": "name"},
        functions=frozenset({"method_declaration", "constructor_declaration", "compact_constructor_declaration"}),
    ),
    "python": LanguageSpec(
        "python", "tree_sitter_python", (".py", ".pyi"),
        containers={"class_definition": "name"},
        functions=frozenset({"function_definition"}),
        line_comment="#",
    ),
}

_BY_EXT = {ext: spec.name for spec in LANGUAGES.values() for ext in spec.extensions}


def language_for_path(path: str, header_language: str = "c") -> str | None:
    """The language of a file by extension (``.h`` goes to ``header_language``), or None."""
    dot = path.rfind(".")
    if dot < 0:
        return None
    ext = path[dot:].lower()
    if ext == ".h":
        return header_language
    return _BY_EXT.get(ext)


@lru_cache(maxsize=None)
def load_grammar(name: str):
    """The ``tree_sitter.Language`` for a language name (memoised per process)."""
    import tree_sitter

    mod = importlib.import_module(LANGUAGES[name].module)
    return tree_sitter.Language(mod.language())


@lru_cache(maxsize=None)
def load_query(name: str):
    import tree_sitter

    return tree_sitter.Query(load_grammar(name), query_text(name))


def query_text(name: str) -> str:
    return (QUERY_DIR / f"{name}.scm").read_text(encoding="utf-8")


# Bumped by hand when the extractor's output changes; the query texts are hashed in too, so
# editing a query file invalidates cached tags of that language.
_EXTRACTOR_REVISION = "12"


@lru_cache(maxsize=None)
def extractor_version(name: str) -> str:
    h = hashlib.sha1(_EXTRACTOR_REVISION.encode())
    h.update(query_text(name).encode())
    return h.hexdigest()[:12]


EXTRACTOR_VERSION = _EXTRACTOR_REVISION
