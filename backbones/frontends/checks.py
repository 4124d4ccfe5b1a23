"""Checks at a model's input boundary, shared by the front-ends: each raises one clear error naming the
argument, what came and what was expected, before anything deeper could fail with a shape error.

Skipped inside torch.compile / torch.export tracing (a data-dependent check would break the graph; the
eager call that precedes a compiled decoding loop has checked its inputs already).
"""
from __future__ import annotations

import torch


def tracing() -> bool:
    return torch.compiler.is_compiling() or torch.compiler.is_exporting()


def check_tensor(x, name: str, layout: str) -> None:
    """x is a torch.Tensor: a list or a NumPy array is refused by name, not met later as an AttributeError."""
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor {layout}, got {type(x).__name__} "
                        "(torch.as_tensor converts one)")


def check_token_layout(input_ids: torch.Tensor, name: str = "input_ids", max_positions: int | None = None,
                       start=None) -> None:
    """Integer ids shaped (batch, tokens) with at least one token, and (given max_positions) no more tokens
    than the positions left after `start` cached ones (an int; a tensor start, a compiled step, is not read)."""
    if tracing():
        return
    check_tensor(input_ids, name, "of token ids (batch, tokens)")
    if input_ids.dtype not in (torch.int64, torch.int32):
        raise TypeError(f"{name} must be an integer tensor, got {input_ids.dtype}")
    if input_ids.dim() != 2:
        hint = f" (one sequence: add the batch axis, {name}[None])" if input_ids.dim() == 1 else ""
        raise ValueError(f"{name} must be (batch, tokens), got shape {tuple(input_ids.shape)}{hint}")
    if input_ids.shape[0] == 0 or input_ids.shape[1] == 0:
        raise ValueError(f"{name} is empty (shape {tuple(input_ids.shape)}); expected at least one sequence "
                         "of at least one token")
    cached = start if isinstance(start, int) else 0
    if max_positions is not None and cached + input_ids.shape[1] > max_positions:
        after = f" after {cached} cached" if cached else ""
        raise ValueError(f"{name} is too long: {input_ids.shape[1]} tokens{after} (shape {tuple(input_ids.shape)}) "
                         f"but the model has {max_positions} positions; expected at most "
                         f"{max_positions - cached} tokens")


def check_finite(x: torch.Tensor, name: str) -> None:
    """Floating-point model inputs (pixels, spectrograms) hold no NaN or infinity."""
    if tracing() or not x.is_floating_point():
        return
    bad = ~torch.isfinite(x)
    if bool(bad.any()):
        raise ValueError(f"{name} holds {int(bad.sum())} NaN or infinite value(s) out of {x.numel()} "
                         f"(shape {tuple(x.shape)}); expected finite values")


def check_mask(attention_mask: torch.Tensor | None, batch: int, keys: int, name: str = "attention_mask") -> None:
    """A (batch, keys) padding mask: an encoder's, or one that positions are counted from (LLaVA's). A decoder's
    otherwise, over cache and new tokens: its shape checked by backbones.masks.decoder_mask, its values by
    check_mask_values at the chunk that starts the sequence."""
    if attention_mask is None or tracing():
        return
    check_mask_values(attention_mask, name)
    if tuple(attention_mask.shape) != (batch, keys):
        raise ValueError(f"{name} must be (batch, keys) = ({batch}, {keys}), one entry per token; got shape "
                         f"{tuple(attention_mask.shape)}")


def check_mask_values(attention_mask: torch.Tensor, name: str = "attention_mask") -> None:
    """An HF-style mask is a tensor of 1 (a token) and 0 (padding) only, in any dtype: another value (a length,
    a token type) would be read as a token."""
    check_tensor(attention_mask, name, "(batch, keys) of 1 (token) and 0 (padding)")
    if tracing() or attention_mask.dtype == torch.bool:
        return
    bad = (attention_mask != 0) & (attention_mask != 1)
    if bool(bad.any()):
        values = sorted({float(v) for v in attention_mask[bad].unique()[:5]})
        raise ValueError(f"{name} must hold 1 (token) and 0 (padding) only; got {int(bad.sum())} other value(s), "
                         f"{', '.join(f'{v:g}' for v in values)} (shape {tuple(attention_mask.shape)})")


def check_labels(labels: torch.Tensor, input_ids: torch.Tensor, vocab_size: int, ignore_index: int = -100) -> None:
    """Training targets shaped like input_ids, each a token id in [0, vocab_size) or ignore_index: another
    value fails inside the loss (on CUDA as a device-side assert that ends the process)."""
    if tracing():
        return
    check_token_layout(labels, "labels")
    if labels.shape != input_ids.shape:
        raise ValueError(f"labels must be shaped like input_ids {tuple(input_ids.shape)}; got shape "
                         f"{tuple(labels.shape)}")
    bad = (labels != ignore_index) & ((labels < 0) | (labels >= vocab_size))
    if bool(bad.any()):
        raise ValueError(f"labels must lie in [0, {vocab_size}) (the vocabulary size) or be {ignore_index} "
                         f"(ignored); got {int(bad.sum())} other value(s), e.g. {int(labels[bad][0])}")
