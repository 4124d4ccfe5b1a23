"""Sentence pooling: one vector per sequence from its real tokens.

`mean_pool` is sentence-transformers' `Pooling(pooling_mode="mean")`: the
average of the token features where the attention mask is 1, so padding never
changes a row's vector (a padded batch gives each row's unpadded embedding).
all-MiniLM-L6-v2 and the other sentence-transformers BERT checkpoints are
trained with it, followed by L2 normalisation, so cosine similarity is a dot
product. `pool` gives every mode of that Pooling module (POOLING_MODES, as its
`_forward_padded` defines them), several modes concatenated in the order given.
Checked against sentence-transformers' encode on the real all-MiniLM-L6-v2 and
on tiny random BERTs with each mode (tests/zoo/test_sentence_embedding.py).

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



# sentence-transformers' Pooling modes, in its order.
POOLING_MODES = ("cls", "max", "mean", "mean_sqrt_len_tokens", "weightedmean", "lasttoken")


def pool(features: torch.Tensor, attention_mask: torch.Tensor, modes: tuple[str, ...]) -> torch.Tensor:
    """features (B, T, D), attention_mask (B, T) with 1 = real token -> (B, len(modes) * D): each mode's vector,
    concatenated in the order of `modes` (names from POOLING_MODES):
    cls: the first real token; max: the largest value over the real tokens; mean: their average;
    mean_sqrt_len_tokens: their sum over sqrt(count); weightedmean: their average weighted 1, 2, 3, ... from the
    first real token (later tokens count more: SGPT); lasttoken: the last real token (decoder embedders)."""
    unknown = [m for m in modes if m not in POOLING_MODES]
    if unknown or not modes:
        raise ValueError(f"pooling modes {list(modes)}: expected one or more of {', '.join(POOLING_MODES)}")
    if features.ndim != 3 or attention_mask.shape != features.shape[:2]:
        raise ValueError(f"features must be (B, T, D) and attention_mask (B, T), got shapes "
                         f"{tuple(features.shape)} and {tuple(attention_mask.shape)}")
    mask = attention_mask.to(features.dtype).unsqueeze(-1)  # (B, T, 1)
    counts = mask.sum(dim=1).clamp(min=1e-9)  # (B, 1)
    first = attention_mask.to(torch.int).argmax(dim=1)  # (B,) left padding before it
    out = []
    for mode in modes:
        if mode == "cls":
            out.append(features[torch.arange(len(features)), first])  # (B, D)
        elif mode == "max":
            out.append(features.masked_fill(mask == 0, float("-inf")).max(dim=1).values)  # (B, D)
        elif mode in ("mean", "mean_sqrt_len_tokens"):
            total = (features * mask).sum(dim=1)  # (B, D)
            out.append(total / (counts if mode == "mean" else counts.sqrt()))
        elif mode == "weightedmean":
            steps = torch.arange(1, features.shape[1] + 1, device=features.device, dtype=features.dtype)
            weights = mask * (steps[None, :] - first[:, None]).unsqueeze(-1)  # (B, T, 1)
            out.append((features * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1e-9))
        else:  # lasttoken; a row with no real token gives zeros, as in sentence-transformers
            seen, back = attention_mask.flip(1).max(dim=1)  # (B,), (B,) distance of the last real token from the end
            last = features.shape[1] - 1 - torch.where(seen == 0, 0, back)
            out.append((features * mask)[torch.arange(len(features)), last])  # (B, D)
    return torch.cat(out, dim=-1)
