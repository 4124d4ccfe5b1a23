"""Decoding for every decoder in the zoo, on the preallocated KV cache.

Prefill the prompt once, then feed one token per step: nothing recomputes the
prefix. Prompts of different lengths are left-padded; their positions skip
the padding (for learned positions and RoPE alike) and the attention mask
hides it. The decoding options are a frozen dataclass, as in openai-whisper.

Legend: B batch, T prompt length, V vocabulary.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import torch
from torch import nn


@dataclass(frozen=True)
class GenerationConfig:
    max_new_tokens: int = 32
    do_sample: bool = False
    temperature: float = 1.0
    top_k: int = 0            # 0 = off
    top_p: float = 1.0        # nucleus; 1.0 = off
    eos_id: int | None = None

    def __post_init__(self):
        if self.max_new_tokens < 1:
            raise ValueError(f"max_new_tokens must be >= 1, got {self.max_new_tokens}")
        if not 0.0 < self.top_p <= 1.0:
            raise ValueError(f"top_p must be in (0, 1], got {self.top_p}")
        if self.do_sample and self.temperature <= 0:
            raise ValueError(f"temperature must be > 0 when sampling, got {self.temperature}")
        if self.top_k < 0:
            raise ValueError(f"top_k must be >= 0, got {self.top_k}")


def filter_logits(logits: torch.Tensor, config: GenerationConfig) -> torch.Tensor:
    """Temperature, top-k and top-p on (B, V) logits; filtered entries become -inf."""
    logits = logits / config.temperature
    if config.top_k:
        kth = torch.topk(logits, min(config.top_k, logits.shape[-1])).values[..., -1:]  # (B, 1)
        logits = logits.masked_fill(logits < kth, float("-inf"))
    if config.top_p < 1.0:
        sorted_logits, order = logits.sort(dim=-1, descending=True)
        cumulative = sorted_logits.softmax(-1).cumsum(-1)
        drop = cumulative - sorted_logits.softmax(-1) >= config.top_p  # keep the token that crosses top_p
        logits = logits.masked_fill(drop.scatter(-1, order, drop), float("-inf"))
    return logits


def _check_prompt(model: nn.Module, input_ids: torch.Tensor, max_new_tokens: int) -> None:
    if input_ids.dim() != 2 or input_ids.shape[1] == 0:
        raise ValueError(f"input_ids must be a non-empty (batch, tokens) prompt, got shape {tuple(input_ids.shape)}")
    total = input_ids.shape[1] + max_new_tokens
    if total > model.max_positions:
        raise ValueError(f"prompt ({input_ids.shape[1]}) + max_new_tokens ({max_new_tokens}) = {total} exceeds "
                         f"the model's {model.max_positions} positions")


@torch.no_grad()
def stream(model: nn.Module, input_ids: torch.Tensor, config: GenerationConfig,
           attention_mask: torch.Tensor | None = None,
           generator: torch.Generator | None = None) -> Iterator[torch.Tensor]:
    """Yield the next (B,) tokens one step at a time."""
    _check_prompt(model, input_ids, config.max_new_tokens)
    b, t = input_ids.shape
    device = input_ids.device
    mask = torch.ones_like(input_ids) if attention_mask is None else attention_mask.to(device)
    positions = (mask.cumsum(-1) - 1).clamp(min=0)  # (B, T): left padding does not count
    padded = attention_mask is not None and bool((mask == 0).any())
    was_training = model.training
    model.eval()
    model.setup_cache(b, t + config.max_new_tokens)
    try:
        logits = model(input_ids, attention_mask=mask if padded else None, positions=positions, input_pos=0)
        done = torch.zeros(b, dtype=torch.bool, device=device)
        for step in range(config.max_new_tokens):
            next_logits = logits[:, -1].float()  # (B, V)
            if config.do_sample:
                probs = filter_logits(next_logits, config).softmax(-1)
                token = torch.multinomial(probs, 1, generator=generator).squeeze(1)  # (B,)
            else:
                token = next_logits.argmax(-1)  # (B,)
            if config.eos_id is not None:
                token = token.masked_fill(done, config.eos_id)
                done |= token == config.eos_id
            yield token
            if (config.eos_id is not None and bool(done.all())) or step == config.max_new_tokens - 1:
                return
            mask = torch.cat([mask, torch.ones(b, 1, dtype=mask.dtype, device=device)], dim=1)
            positions = positions[:, -1:] + 1  # (B, 1)
            logits = model(token[:, None], attention_mask=mask if padded else None, positions=positions,
                           input_pos=t + step)
    finally:
        model.clear_cache()
        model.train(was_training)


def generate(model: nn.Module, input_ids: torch.Tensor, max_new_tokens: int = 32, *,
             attention_mask: torch.Tensor | None = None, generator: torch.Generator | None = None,
             **options) -> torch.Tensor:
    """(B, T) prompt -> (B, T + new) tokens. options: do_sample, temperature, top_k, top_p, eos_id."""
    config = GenerationConfig(max_new_tokens=max_new_tokens, **options)
    new = list(stream(model, input_ids, config, attention_mask, generator))
    return torch.cat([input_ids, torch.stack(new, dim=1)], dim=1)
