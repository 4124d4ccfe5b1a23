"""Decoding steps through torch.compile: one graph per model structure, dtype and batch serves every
one-token step of a session (fixed shapes: the cache slot and positions are tensors). A model whose
cross-attention context changes length from input to input (a translation's source sentences) has that
length marked dynamic: one graph serves every source length."""
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


def mark_context_dynamic(model: nn.Module, cache) -> None:
    """Before a session's first compiled step: where `model` (a decoder bound to its inputs) says its context
    varies in length (`context_length_varies`: Marian's source sentences, where Whisper's 1,500 audio frames are
    fixed), the cross-attention keys and values of `cache` (a DecoderCache) and the model's source mask get that
    length marked dynamic. Without it each new length compiles a graph of its own (seconds each), and past
    torch.compile's cache of graphs the step falls back to uncompiled code."""
    if not getattr(model, "context_length_varies", False):
        return
    for layer in cache.layers:
        if layer.cross is not None and layer.cross.filled:
            torch._dynamo.maybe_mark_dynamic(layer.cross.k, 2)  # (A, Hkv, Tk, Dh)
            torch._dynamo.maybe_mark_dynamic(layer.cross.v, 2)
    source_mask = getattr(model, "source_mask", None)
    if source_mask is not None:
        torch._dynamo.maybe_mark_dynamic(source_mask, 1)  # (A, Tk)
