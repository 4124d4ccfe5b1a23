"""Dropout that costs nothing when it is off.

`apply_dropout(x, drop)` is `drop(x)` while training with p > 0, and `x` itself otherwise, without
the nn.Module call: decoding a small model is bound by per-call overhead, and every block, MLP and
embedding has a Dropout that inference never uses.
"""
from __future__ import annotations

import torch
from torch import nn


def apply_dropout(x: torch.Tensor, drop: nn.Dropout) -> torch.Tensor:
    return drop(x) if drop.training and drop.p > 0 else x
