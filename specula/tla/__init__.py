"""tla room."""

__all__: list[str] = []

from specula.tla.syntax import parse_expression, parse_module  # noqa: E402

__all__ += ["parse_module", "parse_expression"]

from specula.tla.cfg import CfgModelValue, ModelConfig, load_cfg, parse_cfg  # noqa: E402

__all__ += ["CfgModelValue", "ModelConfig", "parse_cfg", "load_cfg"]
