"""Reading a YAML file with errors every command can show: path, line:col, what the file is."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from specula.errors import ConfigError, InputError

__all__ = ["load_yaml_file", "load_yaml_text", "load_yaml_mapping", "key_lines", "dump_yaml", "too_deep"]


def load_yaml_file(path: str | Path, what: str) -> Any:
    """Parse ``path``; ``what`` names the file in messages ("task file", "invariant templates").

    A missing/unreadable file is an InputError; bad bytes or bad YAML a ConfigError at its line.
    """
    import yaml

    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
        return yaml.safe_load(text)
    except RecursionError:
        raise too_deep(text, str(p), what) from None
    except OSError as exc:
        raise InputError(f"cannot read {what}: {exc.strerror or exc}", str(p)) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{what} is not UTF-8 text (byte {exc.start})", str(p)) from None
    except yaml.YAMLError as exc:
        raise ConfigError.from_yaml(exc, str(p)) from None


def load_yaml_text(text: str, path: str | None, what: str, *, key: Callable[[Any], Any] | None = None) -> Any:
    """Parse YAML text; ``key`` rewrites every mapping key as it is read (the mapping keeps
    ``true``/``false`` keys apart from ``1``/``0``). Bad YAML, or YAML nested deeper than the
    parser's stack, is a ConfigError at its line."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    if key is not None:
        def construct_mapping(loader: Any, node: Any, deep: bool = False) -> dict[Any, Any]:
            loader.flatten_mapping(node)
            return {key(loader.construct_object(k, deep=True)): loader.construct_object(v, deep=True)
                    for k, v in node.value}

        Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    try:
        return yaml.load(text, Loader=Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise ConfigError.from_yaml(exc, path, f"{what} is not valid YAML") from None
    except RecursionError:
        raise too_deep(text, path, what) from None


def key_lines(text: str) -> dict[str, int]:
    """Dotted key paths (``variables.pc.field``) -> 1-based line numbers; {} for text that does
    not parse (its error comes from :func:`load_yaml_text`)."""
    import yaml

    lines: dict[str, int] = {}
    try:
        root = yaml.compose(text)
    except (yaml.YAMLError, RecursionError):
        return lines
    todo = [(root, "")]
    while todo:
        node, prefix = todo.pop()
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                path = f"{prefix}.{k.value}" if prefix else str(k.value)
                lines[path] = k.start_mark.line + 1
                todo.append((v, path))
    return lines


def load_yaml_mapping(path: str | Path, what: str, *, lenient: bool = False) -> dict[str, Any]:
    """A YAML file whose top level is a mapping (a task.yaml of a run, say).

    ``lenient``: a missing, unreadable or malformed file, or another top level, reads as ``{}``
    (for views that show what they can); otherwise those are the errors of :func:`load_yaml_file`.
    """
    try:
        data = load_yaml_file(path, what)
    except (InputError, ConfigError):
        if lenient:
            return {}
        raise
    if data is None:
        return {}
    if not isinstance(data, dict):
        if lenient:
            return {}
        raise ConfigError(f"{what} must be a YAML mapping", str(path))
    return data


def dump_yaml(data: Any, *, width: int = 110, block_strings: bool = False) -> str:
    """YAML text of plain data, keys in their given order, Unicode kept; ``block_strings`` writes
    multi-line strings as ``|`` blocks (TLA+ text stays readable)."""
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    if block_strings:
        def text(dumper: Any, s: str) -> Any:
            return dumper.represent_scalar("tag:yaml.org,2002:str", s, style="|" if "\n" in s else None)

        Dumper.add_representer(str, text)
    return yaml.dump(data, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=width)


def too_deep(text: str, path: str | None, what: str) -> ConfigError:
    """The error for YAML nested deeper than the parser's stack, at the line nested deepest."""
    depth, best, best_line = 0, -1, 1
    for lineno, line in enumerate(text.splitlines(), 1):
        start = depth + (len(line) - len(line.lstrip(" "))) // 2
        for ch in line:
            if ch in "[{":
                depth += 1
            elif ch in "]}":
                depth -= 1
            start = max(start, depth)
        if start > best:
            best, best_line = start, lineno
    return ConfigError(f"{what} is nested too deeply to read (about {best} levels)", path, best_line)
