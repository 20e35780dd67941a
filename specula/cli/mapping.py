"""`specula mapping ...`: write and inspect mapping files (docs/mapping.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from specula.cli.app import app

mapping_app = typer.Typer(help="Mapping files: how trace fields become spec variables.", no_args_is_help=True)
app.add_typer(mapping_app, name="mapping")


@mapping_app.command("from-wv")
def from_wv_cmd(
    modules: list[Path] = typer.Argument(..., help="SysMoBench window-validation modules WV_<Action>.tla (one spec)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write the mapping here (default: print it)."),
    cfg_out: Optional[Path] = typer.Option(None, "--cfg-out", help="Also write a cfg for the spec under test: the "
                                           "first module's cfg without its INVARIANT lines."),
) -> None:
    """Write the mapping equivalent to a set of WV modules (validate --mapping gives the same counts)."""
    from specula.errors import InputError
    from specula.traces.wv import mapping_yaml, read_wv

    mods = [read_wv(m) for m in modules]
    inner = {m.inner for m in mods}
    if len(inner) > 1:
        raise InputError(f"the modules instantiate different specs ({', '.join(sorted(inner))}); give one spec's modules")
    text = mapping_yaml(mods)
    if cfg_out is not None:
        src = modules[0].with_suffix(".cfg")
        if not src.is_file():
            raise InputError("no cfg beside the first module to derive --cfg-out from", str(src))
        lines = [ln for ln in src.read_text(encoding="utf-8").splitlines()
                 if not ln.strip().startswith(("INVARIANT", "SPECIFICATION", "INIT", "NEXT"))
                 and "NeverPost" not in ln]
        cfg_out.write_text("INIT Init\nNEXT Next\n" + "\n".join(lines) + "\n", encoding="utf-8")
    if out is not None:
        out.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {out} (from {len(mods)} module{'s' if len(mods) != 1 else ''}; spec {mods[0].inner})")
    else:
        typer.echo(text, nl=False)
