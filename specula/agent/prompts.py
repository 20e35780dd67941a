"""Prompt templates: files under prompts/ (shipped in the wheel as specula/_prompts).

Templates use ``{{name}}`` placeholders; unknown placeholders are an error so a renamed
variable never silently sends an empty prompt.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["load", "render"]

_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")


def load(name: str) -> str:
    """Template text: from the installed package (specula/_prompts) or the repository's prompts/."""
    try:
        from importlib.resources import files

        res = files("specula").joinpath("_prompts", name)
        if res.is_file():
            return res.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        pass
    path = Path(__file__).resolve().parents[2] / "prompts" / name
    if not path.is_file():
        raise FileNotFoundError(f"prompt template {name} not found (looked in specula/_prompts and {path.parent})")
    return path.read_text(encoding="utf-8")


def render(template: str, **values: object) -> str:
    text = load(template)

    def sub(m: re.Match[str]) -> str:
        key = m.group(1)
        if key not in values:
            raise KeyError(f"prompt {template} needs {{{{{key}}}}}")
        return str(values[key])

    return _PLACEHOLDER.sub(sub, text).strip() + "\n"
