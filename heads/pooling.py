"""Sentence pooling: one vector per sequence from its real tokens.

`mean_pool` is sentence-transformers' `Pooling(pooling_mode="mean")`: the
average of the token features where the attention mask is 1, so padding never
changes a row's vector (a padded batch gives each row's unpadded embedding).
all-MiniLM-L6-v2 and the other sentence-transformers BERT checkpoints are
trained with it, followed by L2 normalisation, so cosine similarity is a dot
product. Checked against transformers' BertModel + the same pooling on the real
all-MiniLM-L6-v2 (tests/zoo/test_sentence_embedding.py).

ClassifierHead's "mean" pool is the other average here: timm's, over every
token after the prefix tokens of an unpadded image sequence, with no mask.

Legend: B batch, T tokens, D model width.
"""
from __future__ import annotations

import torch


def mean_pool(features: torch.Tensor, attention_mask: torch.Tensor | None = None) -> torch.Tensor:
    """features (B, T, D), attention_mask (B, T) with 1 = real token -> (B, D) mean over the real tokens."""
    if features.ndim != 3:
        raise ValueError(f"features must be (B, T, D), got shape {tuple(features.shape)}")
    if attention_mask is None:
        return features.mean(dim=1)  # (B, D)
    if attention_mask.shape != features.shape[:2]:
        raise ValueError(f"attention_mask must be (B, T) = {tuple(features.shape[:2])}, "
                         f"got shape {tuple(attention_mask.shape)}")
    weights = attention_mask.to(features.dtype).unsqueeze(-1)  # (B, T, 1)
    # clamp as sentence-transformers does: an all-padding row gives zeros, not NaN.
    counts = weights.sum(dim=1).clamp(min=1e-9)  # (B, 1)
    return (features * weights).sum(dim=1) / counts  # (B, D)

