"""Inputs that feed several projections: one autocast cast, and the module that runs the projections.

Under `torch.autocast` every Linear casts its input to the autocast dtype on
its own, so an input that feeds several projections (attention's q, k and v;
SwiGLU's gate and up) is cast once per projection. `cast_for_autocast` casts
it once up front; autocast then sees the right dtype and copies nothing. It
only acts when no gradient is needed: in training, autocast's per-projection
casts make the three gradients meet in fp32, and we keep that numerics as the
references have it.

`InputProjections` runs those projections: a parameterless module, so that a
model transform can swap it for one that computes them differently (inference
packing, backbones/inference, runs them as one fused product) while the
Linears, their parameters and state_dict keys stay where they are.
"""
from __future__ import annotations

import torch
from torch import nn


def cast_for_autocast(x: torch.Tensor) -> torch.Tensor:
    """x in the autocast dtype when autocast is on for its device and x needs no gradient; else x itself."""
    if x.requires_grad or not x.is_floating_point():
        return x
    device = x.device.type
    if not torch.is_autocast_enabled(device):
        return x
    dtype = torch.get_autocast_dtype(device)
    return x if x.dtype == dtype else x.to(dtype)


def compute_dtype(x: torch.Tensor, weight: torch.Tensor) -> torch.dtype | None:
    """The dtype a product of x with weight (F.linear, a convolution) computes in: autocast's where it is on
    for x's device (it leaves float64 alone), else x's if weight has it too, else None (the op would raise)."""
    device = x.device.type
    if torch.is_autocast_enabled(device) and x.is_floating_point() and x.dtype != torch.float64:
        return torch.get_autocast_dtype(device)
    return x.dtype if x.dtype == weight.dtype else None


def in_weight_dtype(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """A float model input (pixels, a spectrogram) of another precision than the weights it meets first, cast
    to theirs, as transformers' ViT casts pixel_values; unchanged where autocast or a matching dtype decides."""
    return x if compute_dtype(x, weight) is not None else x.to(weight.dtype)


class InputProjections(nn.Module):
    """x through several Linears that read it: cast once for autocast, then each layer."""

    def forward(self, x: torch.Tensor, layers: tuple[nn.Linear, ...]) -> tuple[torch.Tensor, ...]:
        """x (..., K) -> one (..., N_i) output per layer."""
        x = cast_for_autocast(x)
        return tuple(layer(x) for layer in layers)
