"""tla room."""

__all__: list[str] = []

from specula.tla.syntax import parse_expression, parse_module  # noqa: E402
from specula.tla.loading import load, load_text  # noqa: E402
from specula.tla.modules import Definition, InstanceRef, Scope, Spec  # noqa: E402

__all__ += ["parse_module", "parse_expression", "load", "load_text", "Spec", "Scope", "Definition", "InstanceRef"]

from specula.tla.cfg import CfgModelValue, ModelConfig, load_cfg, parse_cfg  # noqa: E402
from specula.tla.checker import CheckResult, Limits, check  # noqa: E402
from specula.tla.simulate import SimResult, simulate  # noqa: E402

__all__ += ["CfgModelValue", "ModelConfig", "parse_cfg", "load_cfg"]
__all__ += ["check", "Limits", "CheckResult", "simulate", "SimResult"]

from specula.tla.model import ActionInfo, Model  # noqa: E402
from specula.tla.values import ModelValue, fingerprint, format_value, from_python, to_json, to_python  # noqa: E402

__all__ += ["Model", "ActionInfo", "ModelValue", "fingerprint", "format_value", "from_python", "to_python", "to_json"]
