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
import math
import os
from typing import Any, Callable

import torch
from torch import nn

# Most bytes a model built here may take (parameters and buffers); default: this machine's memory.
MAX_BYTES_ENV = "ZOO_MAX_MODEL_BYTES"

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


class ModelTooLargeError(ValueError):
    """A config asks for more parameters than this machine can hold; nothing was allocated."""


def build_model(config: Any) -> nn.Module:
    """The family's model for `config`, after the config is checked: no negative or non-finite sizes, and
    (unless the default device is meta, where nothing is allocated) a model that fits in memory: it is first
    built on the meta device and its bytes counted, so an absurd config.json costs nothing."""
    family = getattr(config, "family", None)
    if family not in _FAMILIES:
        raise ValueError(f"no model family {family!r} is registered; families: {list_families()}")
    model_cls = _FAMILIES[family][1]
    check_sizes(config)
    if torch.get_default_device().type != "meta":
        with torch.device("meta"):
            probe = model_cls(config)
        check_fits(config, model_bytes(probe))
    return model_cls(config)


# Integer config fields that are sizes, by how their names end: never negative; the POSITIVE ones never zero
# either (a width, a head count or a patch of zero divides by zero further on). Ids and layer indices
# (pad_id, image_token_id, vision_feature_layer = -2) are not sizes.
SIZE_SUFFIXES = ("dim", "depth", "heads", "hidden", "size", "ctx", "positions", "length", "chans", "mels", "bins",
                 "classes", "stride", "tokens")
POSITIVE_SUFFIXES = ("dim", "heads", "patch_size", "vocab_size")


def check_sizes(config: Any, prefix: str = "") -> None:
    """ValueError naming the field for a negative (or, where it must be positive, zero) size, or a
    non-finite float, anywhere in `config` (nested configs included: LLaVA's text and vision)."""
    name = prefix or type(config).__name__
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            check_sizes(value, f"{name}.{f.name}")
        elif isinstance(value, int) and not isinstance(value, bool) and f.name.endswith(SIZE_SUFFIXES):
            least = 1 if f.name.endswith(POSITIVE_SUFFIXES) else 0
            if value < least:
                raise ValueError(f"{name}.{f.name}={value}: expected a size >= {least}")
        elif isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{name}.{f.name}={value}: expected a finite number")


def model_bytes(model: nn.Module) -> int:
    """Bytes of a model's parameters and buffers, a tied tensor once (it is one Parameter object; works on
    the meta device)."""
    unique = {id(t): t for t in [*model.parameters(), *model.buffers()]}
    return sum(t.numel() * t.element_size() for t in unique.values())


def memory_limit() -> int:
    """ZOO_MAX_MODEL_BYTES if set, else this machine's physical memory."""
    if os.environ.get(MAX_BYTES_ENV):
        return int(float(os.environ[MAX_BYTES_ENV]))
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def check_fits(config: Any, nbytes: int) -> None:
    limit = memory_limit()
    if nbytes > limit:
        raise ModelTooLargeError(
            f"{type(config).__name__} asks for a model of {nbytes / 2**30:,.1f} GiB ({nbytes:,} bytes of parameters "
            f"and buffers), more than the {limit / 2**30:,.1f} GiB this machine can hold ({MAX_BYTES_ENV} "
            "overrides the limit; build it under `with torch.device('meta')` to inspect it); nothing was allocated")


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
