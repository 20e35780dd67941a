"""Reading a YAML file with errors every command can show: path, line:col, what the file is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from specula.errors import ConfigError, InputError

__all__ = ["load_yaml_file"]


def load_yaml_file(path: str | Path, what: str) -> Any:
    """Parse ``path``; ``what`` names the file in messages ("task file", "invariant templates").

    A missing/unreadable file is an InputError; bad bytes or bad YAML a ConfigError at its line.
    """
    import yaml

    p = Path(path)
    try:
        return yaml.safe_load(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read {what}: {exc.strerror or exc}", str(p)) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{what} is not UTF-8 text (byte {exc.start})", str(p)) from None
    except yaml.YAMLError as exc:
        raise ConfigError.from_yaml(exc, str(p)) from None
