"""Causal language-model head: features -> next-token logits, tied or untied.

Tied (GPT-2, small LLaMAs): the output matrix IS the token embedding matrix
(Press & Wolf 2017), so `tie_to` shares the Parameter rather than copying it.

Legend: B batch, T tokens, D model width, V vocabulary.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


class CausalLMHead(nn.Module):
    def __init__(self, dim: int, vocab_size: int, bias: bool = False):
        super().__init__()
        self.proj = nn.Linear(dim, vocab_size, bias=bias)

    def tie_to(self, embedding: nn.Embedding) -> None:
        self.proj.weight = embedding.weight

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.proj(features)  # (B, T, V)

    @staticmethod
    def loss(logits: torch.Tensor, targets: torch.Tensor, ignore_index: int = -100) -> torch.Tensor:
        """Mean cross-entropy. targets (B, T) are already the NEXT tokens (aligned with logits)."""
        return F.cross_entropy(logits.flatten(0, 1).float(), targets.flatten(), ignore_index=ignore_index)


def shift_targets(input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                  ignore_index: int = -100) -> torch.Tensor:
    """HF-style labels: targets[t] = input_ids[t+1]; the last position and padding are ignored."""
    targets = torch.full_like(input_ids, ignore_index)
    targets[:, :-1] = input_ids[:, 1:]
    if attention_mask is not None:
        targets[:, :-1][attention_mask[:, 1:] == 0] = ignore_index
    return targets
