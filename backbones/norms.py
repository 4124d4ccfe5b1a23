"""Normalisation layers: LayerNorm (Ba et al. 2016) and RMSNorm (Zhang & Sennrich 2019).

RMSNorm follows transformers' LlamaRMSNorm: normalise in fp32, cast back to
the input dtype, then scale, so bf16 runs match the reference.

Legend: B batch, T tokens, D model width.
"""
from __future__ import annotations

import torch
from torch import nn

LayerNorm = nn.LayerNorm  # torch's is exactly the reference (weight, bias, eps); kept under our name


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        xf = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)  # (B, T, D)
        return self.weight * xf.to(x.dtype)


def make_norm(kind: str, dim: int, eps: float) -> nn.Module:
    if kind == "layernorm":
        return LayerNorm(dim, eps=eps)
    if kind == "rmsnorm":
        return RMSNorm(dim, eps=eps)
    raise ValueError(f"norm must be 'layernorm' or 'rmsnorm', got {kind!r}")
