"""Classification head shared by text, vision and audio: pool -> norm -> pre-logits -> dropout -> linear.

Pooling: "cls" takes the first token (BERT, ViT), "cls+dist" averages the first
two, the class and distillation tokens (DeiT's distilled inference, AST's pooler),
"mean" averages the tokens after the prefix tokens (timm's `global_pool='avg'`),
"none" keeps every token.
`pre_logits` is BERT's pooler (dense + tanh) where a family has one.
With num_classes=0 the head returns the pooled features (timm's convention).

Legend: B batch, N tokens, D model width, C classes.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

POOLS = ("cls", "cls+dist", "mean", "none")


class PreLogits(nn.Module):
    """BERT's pooler: dense + tanh on the pooled token."""

    def __init__(self, dim: int):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.act = nn.Tanh()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(self.fc(x))


class ClassifierHead(nn.Module):
    def __init__(self, dim: int, num_classes: int, pool: str = "cls", *, num_prefix_tokens: int = 1,
                 norm: nn.Module | None = None, pre_logits: nn.Module | None = None, dropout: float = 0.0):
        super().__init__()
        if pool not in POOLS:
            raise ValueError(f"pool must be 'cls', 'cls+dist', 'mean' or 'none', got {pool!r}")
        self.dim, self.pool, self.num_prefix_tokens = dim, pool, num_prefix_tokens
        self.norm = norm or nn.Identity()
        self.pre_logits = pre_logits or nn.Identity()
        self.drop = nn.Dropout(dropout)
        self.fc = nn.Linear(dim, num_classes) if num_classes else nn.Identity()

    @property
    def num_classes(self) -> int:
        return self.fc.out_features if isinstance(self.fc, nn.Linear) else 0

    def reset(self, num_classes: int) -> None:
        ref = next(self.parameters(), None)
        fc = nn.Linear(self.dim, num_classes) if num_classes else nn.Identity()
        self.fc = fc.to(ref.device, ref.dtype) if ref is not None else fc

    def pooled(self, features: torch.Tensor) -> torch.Tensor:
        if self.pool == "cls":
            return features[:, 0]  # (B, D)
        if self.pool == "cls+dist":
            return (features[:, 0] + features[:, 1]) / 2  # (B, D)
        if self.pool == "mean":
            return features[:, self.num_prefix_tokens:].mean(dim=1)  # (B, D)
        return features  # (B, N, D)

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        """features (B, N, D) -> logits (B, C), or pooled features (B, D) when num_classes == 0."""
        return self.fc(self.drop(self.pre_logits(self.norm(self.pooled(features)))))

    @staticmethod
    def loss(logits: torch.Tensor, labels: torch.Tensor, label_smoothing: float = 0.0) -> torch.Tensor:
        return F.cross_entropy(logits.float(), labels, label_smoothing=label_smoothing)
