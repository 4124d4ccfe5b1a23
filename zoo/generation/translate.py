"""Translating sentences with a text encoder-decoder (zoo.marian) and its tokenizer: the one loop behind
`zoo.translate`, `zoo translate` (zoo/cli/translate.py) and train-translation's held-out scores.

    zoo.translate(model, ["In the beginning God created the heaven and the earth."], num_beams=4)

Sentences are decoded `batch_size` at a time, longest first (batches of like lengths pad little, and one too
big for memory fails at once), and come back in their order; an empty sentence gives "". The budget of new
tokens is one for the whole call (default 2 x the longest source + 10, within the decoder's positions), so that
batching never changes a translation: beam search's result depends on the budget when a hypothesis reaches it.
"""
from __future__ import annotations

import warnings
from collections.abc import Iterator, Sequence

import torch
from torch import nn
from tqdm import tqdm

from data.collate import pad_sequences
from zoo.generation import generate


def source_ids(tokenizer, sentences: Sequence[str], max_positions: int, truncate: bool = False,
               names: Sequence[str] | None = None) -> list[list[int] | None]:
    """Each sentence's source ids (EOS last), None for an empty one. One longer than `max_positions` is a
    ValueError naming it (names[i], default "sentence i"), or with `truncate` cut to fit (EOS kept), warning."""
    ids: list[list[int] | None] = [None] * len(sentences)
    nonempty = [i for i, s in enumerate(sentences) if s.strip()]
    for i, row in zip(nonempty, tokenizer.encode([sentences[i] for i in nonempty]) if nonempty else []):
        if len(row) > max_positions:
            name = names[i] if names is not None else f"sentence {i}"
            what = f"{name} has {len(row)} tokens (EOS included) and the model reads at most {max_positions}"
            if not truncate:
                raise ValueError(f"{what}: split that sentence, or truncate it (truncate=True, --truncate)")
            warnings.warn(f"{what}: cut to its first {max_positions}", stacklevel=2)
            row = row[:max_positions - 1] + [tokenizer.eos_id]
        ids[i] = row
    return ids


def new_token_budget(lengths: Sequence[int], max_positions: int, given: int | None = None) -> int:
    """`given`, or 2 x the longest source + 10; at most max_positions - 1 (the decoder start's position)."""
    most = max_positions - 1
    if given is not None and given > most:
        raise ValueError(f"max_new_tokens {given}: the decoder has {max_positions} positions, one for its start "
                         f"token, so at most {most}")
    return given if given is not None else min(2 * max(lengths, default=0) + 10, most)


def longest_first(ids: Sequence[list[int] | None], batch_size: int) -> Iterator[list[int]]:
    """The indices of the non-empty rows, longest first (stable), in runs of `batch_size`."""
    order = sorted((i for i, row in enumerate(ids) if row is not None), key=lambda i: -len(ids[i]))
    for first in range(0, len(order), batch_size):
        yield order[first:first + batch_size]


@torch.no_grad()
def translate_ids(model: nn.Module, tokenizer, ids: Sequence[list[int] | None], max_new_tokens: int, *,
                  num_beams: int = 4, length_penalty: float = 0.6, batch_size: int = 16,
                  progress: bool = False) -> list[str]:
    """The translation of each row of source ids, in their order ("" for None: an empty sentence)."""
    device = next(model.parameters()).device
    texts = [""] * len(ids)
    with tqdm(total=sum(row is not None for row in ids), unit="sentence", desc="translating",
              disable=not progress) as bar:
        for batch in longest_first(ids, batch_size):
            input_ids, mask = pad_sequences([ids[i] for i in batch], tokenizer.pad_id)  # (B, S) right-padded
            out = generate(model, input_ids.to(device), max_new_tokens, attention_mask=mask.to(device),
                           num_beams=num_beams, length_penalty=length_penalty)  # (B, 1 + new)
            for i, row in zip(batch, out.cpu().tolist()):
                texts[i] = tokenizer.decode(row).replace("\n", " ")  # one translation a line
            bar.update(len(batch))
    return texts


def translate(model: nn.Module, sentences: Sequence[str], *, num_beams: int = 4, length_penalty: float = 0.6,
              batch_size: int = 16, max_new_tokens: int | None = None, truncate: bool = False,
              tokenizer=None, progress: bool = False) -> list[str]:
    """The translation of each sentence, in their order. The model's tokenizer (model.tokenizer) unless one is
    given; beam search of num_beams (1: greedy), scores sum log p / length ** length_penalty (transformers').
    The model keeps its train/eval mode; decoding runs in eval mode."""
    tokenizer = tokenizer if tokenizer is not None else getattr(model, "tokenizer", None)
    if tokenizer is None:
        raise ValueError(f"{type(model).__name__} carries no tokenizer (model.tokenizer): pass tokenizer=, or load "
                         "a Marian directory with source.spm, target.spm and vocab.json")
    positions = model.config.max_positions
    ids = source_ids(tokenizer, sentences, positions, truncate)
    budget = new_token_budget([len(row) for row in ids if row is not None], positions, max_new_tokens)
    return translate_ids(model, tokenizer, ids, budget, num_beams=num_beams, length_penalty=length_penalty,
                         batch_size=batch_size, progress=progress)
