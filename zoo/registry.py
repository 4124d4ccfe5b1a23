"""The model registry: presets are tiny registered functions that return a config.

    @register_model
    def gpt_tiny() -> GPTConfig: ...

`create_model(name, **overrides)` fills the preset's frozen config, applies
the overrides and builds the family's model. Families register once with
`register_family(config_cls, model_cls)`, which also lets `load_pretrained`
rebuild a model from the config saved beside its weights.

Every config is checked here before a model is built, whatever made it (a preset and its overrides, a saved
config.json, a converter): each field against its dataclass annotation, the sizes against their ranges, and
the bytes the model would take against the machine's memory. A saved config.json must name every field but
those the config class lists in `optional_fields`.
"""
from __future__ import annotations

import copy
import dataclasses
import fnmatch
import math
import os
import types
import typing
from collections.abc import Mapping
from typing import Any, Callable, Union

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
    check_values(type(config), overrides, type(config).__name__)
    return dataclasses.replace(config, **overrides)


class ConfigError(ValueError):
    """A config field that is unknown, missing, of the wrong type or out of range; the message names it."""


class ModelTooLargeError(ValueError):
    """A config asks for more parameters than this machine can hold; nothing was allocated."""


def build_model(config: Any, source: str | None = None) -> nn.Module:
    """The family's model for `config`, after the config is checked: every field of its annotated type, no
    negative or non-finite sizes, and (unless the default device is meta, where nothing is allocated) a model
    that fits in memory, its bytes counted on the meta device first (estimated_bytes), so an absurd config.json
    costs nothing. `source` (the file the config came from) starts a ConfigError's message."""
    family = getattr(config, "family", None)
    if family not in _FAMILIES:
        raise ValueError(f"no model family {family!r} is registered; families: {list_families()}")
    model_cls = _FAMILIES[family][1]
    where = f"{source}: {type(config).__name__}" if source else type(config).__name__
    check_values(type(config), {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}, where)
    check_sizes(config, where)
    if torch.get_default_device().type != "meta":
        check_fits(config, estimated_bytes(config))
    return model_cls(config)


# A config of more blocks than this (all stacks together) is counted from small builds instead of built whole on
# the meta device: a block takes milliseconds to build even there, so a million of them took minutes.
EXACT_BLOCKS = 256
PROBE_DEPTH = 2  # the depth each deep stack is probed at (and one more): enough for a feature layer of -2


def _depths(config: Any, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], int]:
    """{path: blocks} of every stack's depth field (depth, audio_depth, ...), nested configs included."""
    found = {}
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            found.update(_depths(value, (*path, f.name)))
        elif f.name.endswith("depth") and isinstance(value, int):
            found[(*path, f.name)] = value
    return found


def _with_depths(config: Any, depths: dict[tuple[str, ...], int]) -> Any:
    """`config` with the depth fields at `path` set, unchecked: __post_init__ would refuse an alignment head or a
    layer index past the probe's depth, which changes no parameter count."""
    config = copy.copy(config)
    for (name, *rest), depth in depths.items():
        object.__setattr__(config, name, _with_depths(getattr(config, name), {tuple(rest): depth}) if rest else depth)
    return config


def estimated_bytes(config: Any) -> int:
    """The bytes of the model `config` builds (parameters and buffers), counted on the meta device before anything
    is allocated. A model is affine in each stack's depth, so a deep config is counted from a build with every deep
    stack at PROBE_DEPTH blocks plus one build per stack with one block more; its constructor refusing the probe (a
    layer index past the probe) counts the whole model instead."""
    model_cls = _FAMILIES[config.family][1]

    def count(depths: dict[tuple[str, ...], int]) -> int:
        with torch.device("meta"):
            return model_bytes(model_cls(_with_depths(config, depths)))

    deep = {path: depth for path, depth in _depths(config).items() if depth > PROBE_DEPTH}
    if sum(_depths(config).values()) > EXACT_BLOCKS and deep:
        probe = dict.fromkeys(deep, PROBE_DEPTH)
        try:
            base = count(probe)
            per_block = {path: count({**probe, path: PROBE_DEPTH + 1}) - base for path in deep}
            return base + sum((depth - PROBE_DEPTH) * per_block[path] for path, depth in deep.items())
        except ValueError:
            pass
    with torch.device("meta"):
        return model_bytes(model_cls(config))


# Integer config fields that are sizes, by how their names end: never negative; the POSITIVE ones never zero
# either (a width, a head count or a patch of zero divides by zero further on). Ids and layer indices
# (pad_id, image_token_id, vision_feature_layer = -2) are not sizes.
SIZE_SUFFIXES = ("dim", "depth", "heads", "hidden", "size", "ctx", "positions", "length", "chans", "mels", "bins",
                 "classes", "stride", "tokens")
POSITIVE_SUFFIXES = ("dim", "heads", "patch_size", "vocab_size")


def _union_members(annotation: Any) -> tuple | None:
    """The members of a union annotation (`int | None`), None for any other."""
    return typing.get_args(annotation) if typing.get_origin(annotation) in (Union, types.UnionType) else None


def _type_name(annotation: Any) -> str:
    if (members := _union_members(annotation)) is not None:
        return " | ".join(map(_type_name, members))
    if annotation is type(None):
        return "None"
    return annotation.__name__ if isinstance(annotation, type) else str(annotation)


def _fits(value: Any, annotation: Any) -> bool:
    """Whether `value` is of the annotated type as JSON gives it: a list for a tuple, an int for a float (as
    Python's numeric tower has it), a dict or an instance for a nested config; a bool is never an int here."""
    if (members := _union_members(annotation)) is not None:
        return any(_fits(value, member) for member in members)
    if typing.get_origin(annotation) is tuple:
        args = typing.get_args(annotation)
        if not isinstance(value, (list, tuple)):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(item, args[0]) for item in value)
        return len(value) == len(args) and all(map(_fits, value, args))
    if isinstance(typing.get_origin(annotation), type):  # list[int], Iterable[int]: the container, then its items
        items = typing.get_args(annotation)[0]
        # an iterator's items are not read here (that would use them up)
        return isinstance(value, typing.get_origin(annotation)) and (
            not isinstance(value, (list, tuple, set, frozenset)) or all(_fits(item, items) for item in value))
    if annotation is Any:
        return True
    if annotation is type(None):
        return value is None
    if isinstance(value, bool) or annotation is bool:
        return isinstance(value, bool) and annotation is bool
    if annotation is float:
        return isinstance(value, (int, float))
    if dataclasses.is_dataclass(annotation):
        return isinstance(value, (annotation, dict))
    return isinstance(value, annotation)


def _nested_config(annotation: Any) -> type | None:
    """The config dataclass an annotation names (LlavaConfig.text: LlamaConfig; vision: ClipVisionConfig | None)."""
    return next((m for m in _union_members(annotation) or (annotation,) if dataclasses.is_dataclass(m)), None)


def check_values(config_cls: type, values: Mapping[str, Any], where: str, *, complete: bool = False) -> None:
    """ConfigError for the first field of `values` that `config_cls` does not have or whose value is not of its
    annotated type, and (complete: a whole config read from a file) for the fields it lacks, bar the class's
    `optional_fields`. `where` (the class, after the file it came from) starts the message; nested configs,
    given as dicts or instances, are checked the same way."""
    fields = [f.name for f in dataclasses.fields(config_cls)]
    unknown = sorted(set(values) - set(fields))
    if unknown:
        raise ConfigError(f"{where} has no field(s) {unknown}; fields are {sorted(fields)}")
    optional = getattr(config_cls, "optional_fields", ())
    missing = [name for name in fields if name not in values and name not in optional] if complete else []
    if missing:
        raise ConfigError(f"{where} is missing field(s) {missing}: a saved config names every architecture field "
                          "(a default would build another shape than the weights')")
    hints = typing.get_type_hints(config_cls)
    for name, value in values.items():
        nested = _nested_config(hints[name])
        if nested is not None and isinstance(value, (dict, nested)):
            given = value if isinstance(value, dict) else {f.name: getattr(value, f.name)
                                                            for f in dataclasses.fields(value)}
            check_values(nested, given, f"{where}.{name}", complete=complete and isinstance(value, dict))
        elif not _fits(value, hints[name]):
            raise ConfigError(f"{where}.{name}={value!r} ({type(value).__name__}): expected {_type_name(hints[name])}")


def check_ranges(options: Any, ranges: list[tuple[str, Callable[[Any], bool], str]]) -> None:
    """ConfigError `Class.name=value: expected ...` for the first (field name, check, what is expected) of
    `ranges` whose value on `options` fails its check; a NaN or infinite float fails every check. Run after
    check_values: each check may take its value to be of the annotated type."""
    for name, ok, expected in ranges:
        value = getattr(options, name)
        if (isinstance(value, float) and not math.isfinite(value)) or not ok(value):
            raise ConfigError(f"{type(options).__name__}.{name}={value!r}: expected {expected}")


def check_sizes(config: Any, prefix: str = "") -> None:
    """ConfigError naming the field for a negative (or, where it must be positive, zero) size, or a
    non-finite float, anywhere in `config` (nested configs included: LLaVA's text and vision)."""
    name = prefix or type(config).__name__
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            check_sizes(value, f"{name}.{f.name}")
        elif isinstance(value, int) and not isinstance(value, bool) and f.name.endswith(SIZE_SUFFIXES):
            least = 1 if f.name.endswith(POSITIVE_SUFFIXES) else 0
            if value < least:
                raise ConfigError(f"{name}.{f.name}={value}: expected a size >= {least}")
        elif isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(f"{name}.{f.name}={value}: expected a finite number")


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


def config_from_dict(family: str, values: dict[str, Any], source: str | None = None) -> Any:
    """The family's config from a saved dict (dataclasses.asdict's), every field checked first: none unknown,
    none missing (but `optional_fields`), each of its type. `source` (the file) starts a ConfigError's message."""
    prefix = f"{source}: " if source else ""
    if family not in _FAMILIES:
        raise ConfigError(f"{prefix}no model family {family!r} is registered; families: {list_families()}")
    config_cls = _FAMILIES[family][0]
    if not isinstance(values, Mapping):
        raise ConfigError(f"{prefix}the {family} config is a {type(values).__name__}; expected a JSON object of "
                          "its fields")
    check_values(config_cls, values, prefix + config_cls.__name__, complete=True)
    return config_cls(**values)


def create_model(name: str, **overrides: Any) -> nn.Module:
    """Build a registered model; overrides replace fields of its config (e.g. vocab_size=4096)."""
    return build_model(config_with(_preset(name), **overrides))


def model_info(name: str) -> dict[str, Any]:
    config = _preset(name)
    return {"name": name, "family": config.family, "config": dataclasses.asdict(config)}
