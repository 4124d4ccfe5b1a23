"""Choosing the next token from logits: repetition penalty, temperature, top-k / top-p / min-p filters,
greedy or a draw, and the stop checks. Shared by every decoding strategy.

Legend: B batch, S tokens so far, V vocabulary.
"""
from __future__ import annotations

import torch

from zoo.generation.config import GenerationConfig


def apply_repetition_penalty(logits: torch.Tensor, seen: torch.Tensor, penalty: float) -> torch.Tensor:
    """(B, V) logits; seen (B, S) token ids of prompt + output so far."""
    if penalty == 1.0:
        return logits
    picked = logits.gather(-1, seen)
    picked = torch.where(picked > 0, picked / penalty, picked * penalty)
    return logits.scatter(-1, seen, picked)


def filter_logits(logits: torch.Tensor, config: GenerationConfig) -> torch.Tensor:
    """Temperature, top-k, top-p and min-p on (B, V) logits; filtered entries become -inf."""
    logits = logits / config.temperature
    if config.top_k:
        kth = torch.topk(logits, min(config.top_k, logits.shape[-1])).values[..., -1:]  # (B, 1)
        logits = logits.masked_fill(logits < kth, float("-inf"))
    if config.top_p < 1.0:
        sorted_logits, order = logits.sort(dim=-1, descending=True)
        cumulative = sorted_logits.softmax(-1).cumsum(-1)
        drop = cumulative - sorted_logits.softmax(-1) >= config.top_p  # keep the token that crosses top_p
        logits = logits.masked_fill(drop.scatter(-1, order, drop), float("-inf"))
    if config.min_p > 0.0:  # last, as transformers orders its warpers
        probs = logits.softmax(-1)
        logits = logits.masked_fill(probs < config.min_p * probs.amax(-1, keepdim=True), float("-inf"))
    return logits


def next_token_probs(logits: torch.Tensor, seen: torch.Tensor, config: GenerationConfig) -> torch.Tensor:
    """The distribution a sampler draws from: (B, V) logits -> (B, V) probabilities after every processor."""
    logits = apply_repetition_penalty(logits.float(), seen, config.repetition_penalty)
    return filter_logits(logits, config).softmax(-1)


def choose(logits: torch.Tensor, seen: torch.Tensor, config: GenerationConfig,
           generator: torch.Generator | None) -> torch.Tensor:
    """(B, V) logits -> (B,) next tokens: argmax (greedy) or a draw from next_token_probs."""
    if config.do_sample:
        return torch.multinomial(next_token_probs(logits, seen, config), 1, generator=generator).squeeze(1)
    if config.repetition_penalty == 1.0:
        return logits.max(-1).indices  # = argmax (first maximum), 2x faster on CPU for (8, V)
    return apply_repetition_penalty(logits.float(), seen, config.repetition_penalty).argmax(-1)


def ban_tokens(logits: torch.Tensor, seen: torch.Tensor, config: GenerationConfig, step: int) -> torch.Tensor:
    """transformers' masking processors on (B, V) logits or log-probs, for the token of step `step` (0-based)
    after seen (B, S): the last step forced to forced_eos_id; each of bad_words_ids' last token where the
    rest of it ends the row; each token that would repeat an n-gram of no_repeat_ngram_size. -> -inf there."""
    if config.forced_eos_id is not None and step == config.max_new_tokens - 1:
        forced = torch.full_like(logits, float("-inf"))
        forced[:, config.forced_eos_id] = 0.0
        return forced
    banned = torch.zeros_like(logits, dtype=torch.bool)  # (B, V)
    for bad in config.bad_words_ids:
        rows = slice(None)
        if len(bad) > 1:
            if seen.shape[1] < len(bad) - 1:
                continue
            rows = (seen[:, seen.shape[1] - len(bad) + 1:] == seen.new_tensor(bad[:-1])).all(-1)  # (B,)
        banned[rows, bad[-1]] = True
    n = config.no_repeat_ngram_size
    if n and seen.shape[1] >= n:
        grams = seen.unfold(1, n, 1)  # (B, W, n): every n-gram so far
        tail = seen[:, seen.shape[1] - n + 1:]  # (B, n-1): what the next token would extend
        repeats = (grams[:, :, :-1] == tail[:, None, :]).all(-1)  # (B, W)
        rows, windows = repeats.nonzero(as_tuple=True)
        banned[rows, grams[rows, windows, -1]] = True
    return logits.masked_fill(banned, float("-inf"))


def ends_with_stop(tokens: torch.Tensor, config: GenerationConfig) -> torch.Tensor:
    """(B, S) tokens so far -> (B,) True where the row ends with an EOS id or a stop sequence."""
    hit = torch.isin(tokens[:, -1], torch.tensor(config.eos_ids, device=tokens.device))
    for stop in config.stop_sequences:
        if tokens.shape[1] >= len(stop):
            hit |= (tokens[:, -len(stop):] == torch.tensor(stop, device=tokens.device)).all(-1)
    return hit
