"""The model registry: presets are tiny registered functions that return a config.

    @register_model
    def gpt_tiny() -> GPTConfig: ...

`create_model(name, **overrides)` fills the preset's frozen config, applies
the overrides and builds the family's model. Families register once with
`register_family(config_cls, model_cls)`, which also lets `load_pretrained`
rebuild a model from the config saved beside its weights.
"""
from __future__ import annotations

import dataclasses
import fnmatch
from typing import Any, Callable

from torch import nn

_PRESETS: dict[str, Callable[[], Any]] = {}
_FAMILIES: dict[str, tuple[type, type[nn.Module]]] = {}


def register_family(config_cls: type, model_cls: type[nn.Module]) -> None:
    """config_cls must be a frozen dataclass with a ClassVar `family` name."""
    _FAMILIES[config_cls.family] = (config_cls, model_cls)


def register_model(fn: Callable[[], Any]) -> Callable[[], Any]:
    if fn.__name__ in _PRESETS:
        raise ValueError(f"model {fn.__name__!r} is registered twice")
    _PRESETS[fn.__name__] = fn
    return fn


def list_models(pattern: str = "*") -> list[str]:
    return sorted(n for n in _PRESETS if fnmatch.fnmatch(n, pattern))


def list_families() -> list[str]:
    return sorted(_FAMILIES)


def _preset(name: str) -> Any:
    if name not in _PRESETS:
        close = [n for n in _PRESETS if name.split("_")[0] in n]
        raise ValueError(f"unknown model {name!r}; registered: {', '.join(close or list_models())}")
    return _PRESETS[name]()


def config_with(config: Any, **overrides: Any) -> Any:
    fields = {f.name for f in dataclasses.fields(config)}
    unknown = sorted(set(overrides) - fields)
    if unknown:
        raise ValueError(f"{type(config).__name__} has no field(s) {unknown}; fields are {sorted(fields)}")
    return dataclasses.replace(config, **overrides)


def build_model(config: Any) -> nn.Module:
    family = getattr(config, "family", None)
    if family not in _FAMILIES:
        raise ValueError(f"no model family {family!r} is registered; families: {list_families()}")
    return _FAMILIES[family][1](config)


def config_from_dict(family: str, values: dict[str, Any]) -> Any:
    if family not in _FAMILIES:
        raise ValueError(f"no model family {family!r} is registered; families: {list_families()}")
    config_cls = _FAMILIES[family][0]
    fields = {f.name for f in dataclasses.fields(config_cls)}
    unknown = sorted(set(values) - fields)
    if unknown:
        raise ValueError(f"config for family {family!r} has unknown field(s) {unknown}")
    return config_cls(**values)


def create_model(name: str, **overrides: Any) -> nn.Module:
    """Build a registered model; overrides replace fields of its config (e.g. vocab_size=4096)."""
    return build_model(config_with(_preset(name), **overrides))


def model_info(name: str) -> dict[str, Any]:
    config = _preset(name)
    return {"name": name, "family": config.family, "config": dataclasses.asdict(config)}
