"""Decoding steps through torch.compile: one graph per model structure, dtype and batch serves every
one-token step of a session (fixed shapes: the cache slot and positions are tensors)."""
from __future__ import annotations

import torch
from torch import nn


def compiled_step(model: nn.Module) -> nn.Module:
    """torch.compile(model) for one session. Dynamo keeps the compiled code with the model class's
    forward, guarded on the model's structure and shapes, so a later session (a new wrapper, a fresh
    KV cache) reuses it; nothing here holds the model beyond the session.

    On CPU the compiled graph is called through a C++ wrapper (inductor's cpp_wrapper) rather than
    generated Python: a decode step is about a hundred small kernels, whose Python launch code costs a
    measurable share of each token (docs/notes/2026-12-06-cpu-kernels.md)."""
    first = next(iter(model.parameters()), None)
    on_cpu = first is None or first.device.type == "cpu"
    return torch.compile(model, dynamic=False, options={"cpp_wrapper": True} if on_cpu else None)


def compiled_encoder(model: nn.Module):
    """torch.compile(model.encode), for a fixed window: inductor fuses the encoder's norms, activations and
    residual adds around the matrix products and attention, which stay library kernels. The code is cached
    with the class's encode, keyed on shapes: a new batch size compiles anew."""
    first = next(iter(model.parameters()), None)
    on_cpu = first is None or first.device.type == "cpu"
    return torch.compile(model.encode, dynamic=False, options={"cpp_wrapper": True} if on_cpu else None)
