"""Helpers every converter shares: renaming keys, refusing unsupported configs."""
from __future__ import annotations

import re
from typing import Any, Callable

import torch


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
