"""Causal language-model head: features -> next-token logits, tied or untied.

Tied (GPT-2, small LLaMAs): the output matrix IS the token embedding matrix
(Press & Wolf 2017), so `tie_to` shares the Parameter rather than copying it.

Legend: B batch, T tokens, D model width, V vocabulary.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.checkpoint import checkpoint


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

    def features_loss(self, features: torch.Tensor, targets: torch.Tensor, chunk: int | None = None,
                      ignore_index: int = -100) -> torch.Tensor:
        """Mean cross-entropy of the logits of features (B, T, D) against targets (B, T), as `loss`. With
        `chunk`, over that many tokens at a time, each chunk's logits recomputed in backward
        (torch.utils.checkpoint): the (B*T, V) logits and their gradient never exist whole, which with a
        50k vocabulary is most of a checkpointed step's peak memory (gpt2, 1024 tokens: 200 MB each)."""
        if chunk is None:
            return self.loss(self(features), targets, ignore_index)
        flat, labels = features.flatten(0, 1), targets.flatten()  # (N, D), (N,)
        total = features.new_zeros((), dtype=torch.float32)
        for start in range(0, flat.shape[0], chunk):
            total = total + checkpoint(self._summed_loss, flat[start:start + chunk], labels[start:start + chunk],
                                       ignore_index, use_reentrant=False)
        return total / (labels != ignore_index).sum().clamp(min=1)

    def _summed_loss(self, features: torch.Tensor, targets: torch.Tensor, ignore_index: int) -> torch.Tensor:
        return F.cross_entropy(self(features).float(), targets, ignore_index=ignore_index, reduction="sum")


def shift_targets(input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                  ignore_index: int = -100) -> torch.Tensor:
    """HF-style labels: targets[t] = input_ids[t+1]; the last position and padding are ignored."""
    targets = torch.full_like(input_ids, ignore_index)
    targets[:, :-1] = input_ids[:, 1:]
    if attention_mask is not None:
        targets[:, :-1][attention_mask[:, 1:] == 0] = ignore_index
    return targets
