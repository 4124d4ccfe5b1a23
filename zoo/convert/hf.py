"""Read HF checkpoints (instances or directories) and dispatch on `model_type`."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable

import torch
from torch import nn

from zoo.checkpoint import check_state_dict, load_torch_checkpoint
from zoo.registry import build_model


class UnsupportedConfigError(ValueError):
    """A foreign model (HF config, timm instance) uses a feature our families do not implement."""


def require(cfg: dict[str, Any], key: str, allowed: tuple, default: Any = None) -> None:
    value = cfg.get(key, default)
    if value not in allowed:
        raise UnsupportedConfigError(f"{cfg.get('model_type')} config has {key}={value!r}; "
                                     f"supported: {', '.join(map(repr, allowed))}")


def block_key(key: str, layers: str, block: dict[str, str]) -> str:
    """Rename a per-layer key: `layers` is the foreign prefix regex (e.g. r"encoder\.layer"), `block` maps
    the foreign sub-module name to ours; the suffix (".weight", ".bias", "" for bare parameters) is kept.
    Unknown names raise KeyError, which `rename_all` collects into one error."""
    m = re.fullmatch(layers + r"\.(\d+)\.(.+?)(\.weight|\.bias|)", key)
    if m is None or m.group(2) not in block:
        raise KeyError(key)
    layer, name, suffix = m.groups()
    return f"transformer.blocks.{layer}.{block[name]}{suffix}"


def rename_all(state: dict[str, torch.Tensor], rename: Callable[[str], str | None],
               source: str) -> dict[str, torch.Tensor]:
    """Apply a converter's key map; keys it does not know are an error (listed), None means skip."""
    out, unknown = {}, []
    for key, value in state.items():
        try:
            new = rename(key)
        except KeyError:
            unknown.append(key)
            continue
        if new is not None:
            out[new] = value
    if unknown:
        raise ValueError(f"{source}: {len(unknown)} parameter(s) this converter does not know: {unknown[:20]}")
    return out


def _read_directory(directory: Path) -> tuple[dict[str, Any], dict[str, torch.Tensor]]:
    config_path = directory / "config.json"
    if not config_path.is_file():
        raise FileNotFoundError(f"{str(directory)!r} is not an HF model directory: no config.json")
    cfg = json.loads(config_path.read_text())
    from zoo.pretrained import read_safetensors  # local: pretrained imports registry, not us

    if (directory / "model.safetensors").is_file():
        return cfg, read_safetensors(directory / "model.safetensors")[0]
    index = directory / "model.safetensors.index.json"
    if index.is_file():
        state = {}
        for shard in sorted(set(json.loads(index.read_text())["weight_map"].values())):
            state.update(read_safetensors(directory / shard)[0])
        return cfg, state
    if (directory / "pytorch_model.bin").is_file():
        return cfg, load_torch_checkpoint(directory / "pytorch_model.bin")
    raise FileNotFoundError(f"{str(directory)!r} has no weights: expected model.safetensors, "
                            "model.safetensors.index.json or pytorch_model.bin")


def _converters() -> dict[str, Any]:
    from zoo.convert import hf_bert, hf_gpt2, hf_llama, hf_vit

    return {"gpt2": hf_gpt2, "llama": hf_llama, "bert": hf_bert, "vit": hf_vit}


def from_hf(obj: Any) -> nn.Module:
    """A transformers model instance, or a path to an HF-format directory -> our model, same weights."""
    if isinstance(obj, (str, Path)):
        cfg, state = _read_directory(Path(obj))
        source = str(obj)
    elif isinstance(obj, nn.Module) and hasattr(obj, "config"):
        cfg, state = obj.config.to_dict(), dict(obj.state_dict())
        source = type(obj).__name__
    else:
        raise TypeError(f"from_hf takes a transformers model or an HF directory path, got {type(obj).__name__}")
    model_type = cfg.get("model_type")
    converters = _converters()
    if model_type not in converters:
        raise UnsupportedConfigError(f"{source}: model_type {model_type!r} is not supported by from_hf; "
                                     f"supported: {sorted(converters)}")
    converter = converters[model_type]
    config = converter.config_from_hf(cfg, state)
    ours = converter.convert_state_dict(state, cfg, source)
    model = build_model(config)
    for alias, name in model.tied_parameters().items():
        if alias not in ours and name in ours:
            ours[alias] = ours[name]
    check_state_dict(model, ours, source)
    model.load_state_dict(ours)
    return model.eval()
