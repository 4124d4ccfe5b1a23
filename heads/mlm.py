"""BERT masked-LM head: dense -> GELU -> LayerNorm -> decoder tied to the word embeddings (+ bias).

Checked against transformers' BertOnlyMLMHead (`cls.predictions.*`).

Legend: B batch, T tokens, D model width, V vocabulary.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from backbones.ffn import make_activation


class MLMHead(nn.Module):
    def __init__(self, dim: int, vocab_size: int, act: str = "gelu", norm_eps: float = 1e-12):
        super().__init__()
        self.dense = nn.Linear(dim, dim)
        self.act = make_activation(act)
        self.norm = nn.LayerNorm(dim, eps=norm_eps)
        # The bias lives inside the Linear so the projection is one fused addmm (and stays
        # bf16 under autocast; a separate fp32 `+ bias` would upcast the whole (B, T, V) output).
        self.decoder = nn.Linear(dim, vocab_size)
        nn.init.zeros_(self.decoder.bias)

    def tie_to(self, embedding: nn.Embedding) -> None:
        self.decoder.weight = embedding.weight

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.decoder(self.norm(self.act(self.dense(features))))  # (B, T, V)

    @staticmethod
    def loss(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        """Cross-entropy over masked positions only (labels -100 elsewhere). logits (B, T, V) with labels
        (B, T), or the selected positions' (N, V) with labels (N,)."""
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(), labels.reshape(-1), ignore_index=-100)
