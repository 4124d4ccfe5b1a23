"""Switches that apply to every layer of one kind inside a model (attention backends, checkpointing), and swapping
one submodule for another (packing, quantisation)."""
from __future__ import annotations

from typing import Any

from torch import nn


def set_on_each(model: nn.Module, kind: type[nn.Module], name: str, value: Any, purpose: str) -> int:
    """Set attribute `name` to `value` on every `kind` module inside `model`; returns how many. ValueError,
    naming the model and `purpose`, where there is none."""
    layers = [m for m in model.modules() if isinstance(m, kind)]
    if not layers:
        raise ValueError(f"{type(model).__name__} holds no {kind.__name__} layer {purpose}")
    for layer in layers:
        setattr(layer, name, value)
    return len(layers)


def replace_module(model: nn.Module, path: str, new: nn.Module) -> None:
    """Put `new` where model.get_submodule(path) is (path "": nothing to set, the caller holds the model)."""
    if path:
        parent, _, name = path.rpartition(".")
        setattr(model.get_submodule(parent), name, new)
