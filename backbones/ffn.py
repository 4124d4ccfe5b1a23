"""Position-wise feed-forward networks: Mlp (fc1 -> act -> fc2) and SwiGLU.

Activations: relu (2017 paper), gelu (exact erf form: BERT, ViT, Whisper),
gelu_tanh (GPT-2's approximation), quick_gelu (CLIP: x * sigmoid(1.702 x)),
silu. SwiGLU is Shazeer 2020, as used by LLaMA: down(silu(gate(x)) * up(x)).

Legend: B batch, T tokens, D model width, F hidden width.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from backbones.dropout import apply_dropout
from backbones.precision import InputProjections


class QuickGELU(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.sigmoid(1.702 * x)


ACTIVATIONS = {
    "relu": nn.ReLU,
    "gelu": nn.GELU,
    "gelu_tanh": lambda: nn.GELU(approximate="tanh"),
    "quick_gelu": QuickGELU,
    "silu": nn.SiLU,
}


def make_activation(name: str) -> nn.Module:
    if name not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {sorted(ACTIVATIONS)}, got {name!r}")
    return ACTIVATIONS[name]()


class Mlp(nn.Module):
    def __init__(self, dim: int, hidden: int, act: str = "gelu", bias: bool = True, dropout: float = 0.0):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden, bias=bias)
        self.act = make_activation(act)
        self.fc2 = nn.Linear(hidden, dim, bias=bias)
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.fc2(self.act(self.fc1(x)))  # (B, T, D)
        return apply_dropout(x, self.drop)


class SwiGLU(nn.Module):
    def __init__(self, dim: int, hidden: int, bias: bool = False, dropout: float = 0.0):
        super().__init__()
        self.gate = nn.Linear(dim, hidden, bias=bias)
        self.up = nn.Linear(dim, hidden, bias=bias)
        self.down = nn.Linear(hidden, dim, bias=bias)
        self.in_proj = InputProjections()  # gate and up: x cast once, then each projection
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        gate, up = self.in_proj(x, (self.gate, self.up))
        x = self.down(F.silu(gate) * up)  # (B, T, D)
        return apply_dropout(x, self.drop)
