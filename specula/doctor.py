"""What this machine offers specula: grammars, Java and TLC, LLM keys, extras.

Pure data; ``specula.cli`` renders it. Key *names* only, never values.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import subprocess
from dataclasses import dataclass, field

__all__ = ["Check", "DoctorReport", "diagnose", "GRAMMARS", "PROVIDER_KEYS"]

GRAMMARS: dict[str, str] = {
    "tlaplus": "tree_sitter_tlaplus",
    "go": "tree_sitter_go",
    "rust": "tree_sitter_rust",
    "c": "tree_sitter_c",
    "cpp": "tree_sitter_cpp",
    "java": "tree_sitter_java",
    "python": "tree_sitter_python",
}

PROVIDER_KEYS: dict[str, tuple[str, ...]] = {
    "anthropic": ("ANTHROPIC_API_KEY",),
    "openai": ("OPENAI_API_KEY",),
    "openai-compatible": ("OPENAI_BASE_URL", "SPECULA_OPENAI_BASE_URL"),
}


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


@dataclass
class DoctorReport:
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Required pieces present (grammars); optional ones only inform."""
        return all(c.ok for c in self.checks if c.name.startswith("grammar:"))

    def to_dict(self) -> dict:
        return {
            "schema": "specula.doctor/1",
            "ok": self.ok,
            "checks": [{"name": c.name, "ok": c.ok, "detail": c.detail} for c in self.checks],
        }


def _grammar(lang: str, module: str) -> Check:
    try:
        import tree_sitter

        mod = importlib.import_module(module)
        fn = getattr(mod, "language", None)
        if fn is None:
            return Check(f"grammar:{lang}", False, f"{module} has no language()")
        lang_obj = tree_sitter.Language(fn())
        return Check(f"grammar:{lang}", True, f"{module} (ABI {lang_obj.abi_version})")
    except Exception as exc:  # noqa: BLE001 - report any load failure as data
        return Check(f"grammar:{lang}", False, f"{module}: {type(exc).__name__}: {exc}")


def _java() -> Check:
    java = shutil.which("java")
    if java is None:
        return Check("java", False, "not found (optional: only for differential runs against TLC)")
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=10)
        first = (out.stderr or out.stdout).splitlines()[0] if (out.stderr or out.stdout) else java
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Check("java", False, f"{java}: {exc}")
    return Check("java", True, first.strip())


def _compiler(name: str, args: list[str], needed_by: str) -> Check:
    """A compiler a bundled system's harness builds with (gcc for C, javac for Java)."""
    exe = shutil.which(name)
    if exe is None:
        return Check(name, False, f"not found (needed by {needed_by}: `specula bench traces`)")
    try:
        out = subprocess.run([exe, *args], capture_output=True, text=True, timeout=10)
        text = (out.stdout or out.stderr).strip()
        first = text.splitlines()[0] if text else exe
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Check(name, False, f"{exe}: {exc}")
    return Check(name, out.returncode == 0, first.strip())


def _tlc() -> Check:
    path = os.environ.get("SPECULA_TLA2TOOLS")
    if not path:
        return Check("tlc", False, "SPECULA_TLA2TOOLS not set (optional: specula has its own engine)")
    if not os.path.isfile(path):
        return Check("tlc", False, f"SPECULA_TLA2TOOLS={path} is not a file")
    return Check("tlc", True, path)


def _providers() -> list[Check]:
    checks = []
    for name, keys in PROVIDER_KEYS.items():
        present = [k for k in keys if os.environ.get(k)]
        detail = ", ".join(present) + " set" if present else "no " + " / ".join(keys)
        checks.append(Check(f"provider:{name}", bool(present), detail))
    return checks


def _extra(module: str, label: str) -> Check:
    spec = importlib.util.find_spec(module)
    return Check(label, spec is not None, "installed" if spec else "not installed (optional extra)")


def diagnose() -> DoctorReport:
    report = DoctorReport()
    report.checks.extend(_grammar(lang, mod) for lang, mod in GRAMMARS.items())
    report.checks.append(_java())
    report.checks.append(_compiler("gcc", ["--version"], "the bundled C system (spinlock)"))
    report.checks.append(_compiler("javac", ["-version"], "the bundled Java system (mutex)"))
    report.checks.append(_tlc())
    report.checks.extend(_providers())
    report.checks.append(_extra("anthropic", "sdk:anthropic"))
    report.checks.append(_extra("openai", "sdk:openai"))
    report.checks.append(_extra("litellm", "extra:litellm"))
    return report
