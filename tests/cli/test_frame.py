import json
import subprocess
import sys

from specula import __version__
from specula.cli import main


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "specula", *args], capture_output=True, text=True)


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"specula {__version__}"


def test_unknown_command_is_usage_error():
    proc = run("no-such-command")
    assert proc.returncode == 2
    assert "No such command" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_unknown_option_is_usage_error():
    proc = run("doctor", "--no-such-flag")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr


def test_doctor_json_lists_grammars_and_never_key_values(monkeypatch):
    env_secret = "sk-test-SECRET-value-123"
    proc = subprocess.run(
        [sys.executable, "-m", "specula", "doctor", "--json"],
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "ANTHROPIC_API_KEY": env_secret},
    )
    data = json.loads(proc.stdout)
    assert data["schema"] == "specula.doctor/1"
    names = {c["name"]: c for c in data["checks"]}
    for lang in ("tlaplus", "go", "rust", "c", "cpp", "java", "python"):
        assert names[f"grammar:{lang}"]["ok"], names[f"grammar:{lang}"]
    assert names["provider:anthropic"]["ok"]
    assert "ANTHROPIC_API_KEY" in names["provider:anthropic"]["detail"]
    assert env_secret not in proc.stdout
    assert proc.returncode == 0


def test_help_does_not_import_sdks():
    code = (
        "import sys; from specula.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "bad = [m for m in ('anthropic', 'openai', 'litellm') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_internal_errors_print_one_line_not_a_traceback(monkeypatch, capsys):
    import specula.cli as cli

    def boom() -> None:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(cli, "app", lambda **kw: boom())
    monkeypatch.delenv("SPECULA_DEBUG", raising=False)
    assert cli.main(["doctor"]) == 2
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: kaboom" in err and "Traceback" not in err
