"""Collators: lists of token-id sequences -> padded LongTensor batches.

`MLMCollator` is BERT's masking recipe (Devlin et al. 2019, section 3.1 and
appendix C.2) as transformers' DataCollatorForLanguageModeling implements it:
select each maskable position with probability 0.15; of those, 80% become
[MASK], 10% a random token, 10% stay unchanged; labels are the original ids
at selected positions and -100 (ignored by cross_entropy) everywhere else.
Special tokens and padding are never selected. Two deliberate differences:
random replacements are drawn from the non-special ids only (a stray [CLS] or
[PAD] mid-sentence teaches nothing), and a batch in which no position was
selected gets one, so the loss is never a mean over zero tokens (NaN).

`ClassificationCollator` pads (ids, label) pairs for sequence classification.

Both return input_ids (B, T), attention_mask (B, T) with 1 = real token,
0 = padding (the HF convention that backbones/masks.padding_mask consumes),
and labels. Checked by tests/data/test_collate.py (80/10/10 statistics over
~100k selections, specials and padding never touched).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import torch

IGNORE_INDEX = -100   # torch.nn.functional.cross_entropy's default ignore_index


def _as_ids(item: Any) -> list[int]:
    """Token ids from a list/tuple, 1-D tensor or array, or a dict with input_ids."""
    if isinstance(item, dict):
        item = item["input_ids"]
    if isinstance(item, (torch.Tensor, np.ndarray)):
        if item.ndim != 1:
            raise ValueError(f"each sequence must be 1-D token ids, got shape {tuple(item.shape)}")
        return [int(i) for i in item.tolist()]
    return [int(i) for i in item]


def pad_sequences(seqs: Sequence[Sequence[int]], pad_id: int, pad_to_multiple_of: int | None = None
                  ) -> tuple[torch.Tensor, torch.Tensor]:
    """Right-pad to the longest sequence -> input_ids (B, T), attention_mask (B, T)."""
    if not seqs:
        raise ValueError("cannot collate an empty batch")
    for i, s in enumerate(seqs):
        if len(s) == 0:
            # A row with nothing to attend to gives NaN attention weights.
            raise ValueError(f"sequence {i} of the batch is empty; expected at least one token")
    t = max(len(s) for s in seqs)
    if pad_to_multiple_of:
        t = -(-t // pad_to_multiple_of) * pad_to_multiple_of
    input_ids = torch.full((len(seqs), t), pad_id, dtype=torch.long)  # (B, T)
    attention_mask = torch.zeros((len(seqs), t), dtype=torch.long)    # (B, T)
    for row, s in enumerate(seqs):
        input_ids[row, :len(s)] = torch.as_tensor(s, dtype=torch.long)
        attention_mask[row, :len(s)] = 1
    return input_ids, attention_mask


def _truncate(ids: list[int], max_length: int | None, keep_last: int | None) -> list[int]:
    """Cut to max_length; when the sequence ends with keep_last ([SEP]), keep it at the end."""
    if max_length is None or len(ids) <= max_length:
        return ids
    if keep_last is not None and ids[-1] == keep_last:
        return ids[:max_length - 1] + [keep_last]
    return ids[:max_length]


class MLMCollator:
    """Pad and mask a batch of token-id sequences for masked-LM training.

    Give a tokenizer (data.tokenization.Tokenizer) or the ids directly; explicit
    ids override the tokenizer's. The generator is the collator's own, seeded
    by `seed` (use a different seed per DDP rank); `state_dict` captures it so
    a resumed run masks exactly as an uninterrupted one.
    """

    def __init__(self, tokenizer: Any = None, *, mask_id: int | None = None, vocab_size: int | None = None,
                 pad_id: int | None = None, special_ids: Iterable[int] | None = None,
                 mlm_probability: float = 0.15, seed: int = 0, max_length: int | None = None,
                 pad_to_multiple_of: int | None = None):
        mask_id = mask_id if mask_id is not None else getattr(tokenizer, "mask_id", None)
        vocab_size = vocab_size if vocab_size is not None else getattr(tokenizer, "vocab_size", None)
        pad_id = pad_id if pad_id is not None else getattr(tokenizer, "pad_id", None)
        if special_ids is None:
            special_ids = getattr(tokenizer, "special_ids", ())
        missing = [n for n, v in (("mask_id", mask_id), ("vocab_size", vocab_size), ("pad_id", pad_id)) if v is None]
        if missing:
            raise ValueError(f"MLMCollator needs {', '.join(missing)}: pass them or a tokenizer that has them")
        if not 0.0 < mlm_probability < 1.0:
            raise ValueError(f"mlm_probability must be in (0, 1), got {mlm_probability}")
        self.mask_id, self.vocab_size, self.pad_id = int(mask_id), int(vocab_size), int(pad_id)
        self.special_ids = sorted({int(i) for i in special_ids} | {self.pad_id, self.mask_id})
        self.mlm_probability = mlm_probability
        self.max_length, self.pad_to_multiple_of = max_length, pad_to_multiple_of
        keep = torch.ones(self.vocab_size, dtype=torch.bool)
        keep[self.special_ids] = False
        self._random_pool = keep.nonzero().squeeze(1)  # ids a "random token" may be
        if self._random_pool.numel() == 0:
            raise ValueError("every id in the vocabulary is special: nothing to draw random tokens from")
        self.generator = torch.Generator().manual_seed(seed)

    def state_dict(self) -> dict:
        return {"generator": self.generator.get_state()}

    def load_state_dict(self, state: dict) -> None:
        self.generator.set_state(state["generator"])

    def _check_ids(self, input_ids: torch.Tensor) -> None:
        bad = (input_ids < 0) | (input_ids >= self.vocab_size)
        if bad.any():
            raise ValueError(f"token id {int(input_ids[bad][0])} is outside the vocabulary "
                             f"[0, {self.vocab_size})")

    def __call__(self, batch: Sequence[Any]) -> dict[str, torch.Tensor]:
        seqs = [_truncate(_as_ids(item), self.max_length, None) for item in batch]
        input_ids, attention_mask = pad_sequences(seqs, self.pad_id, self.pad_to_multiple_of)  # (B, T)
        self._check_ids(input_ids)
        labels = input_ids.clone()
        maskable = attention_mask.bool() & ~torch.isin(input_ids, torch.tensor(self.special_ids))
        g = self.generator
        selected = maskable & (torch.rand(input_ids.shape, generator=g) < self.mlm_probability)
        if not selected.any() and maskable.any():
            # Force one selection so the loss has at least one target.
            candidates = maskable.flatten().nonzero().squeeze(1)
            pick = candidates[torch.randint(len(candidates), (1,), generator=g)]
            selected.view(-1)[pick] = True
        labels[~selected] = IGNORE_INDEX
        # One uniform draw splits the selected positions 80 / 10 / 10.
        u = torch.rand(input_ids.shape, generator=g)
        to_mask = selected & (u < 0.8)
        to_random = selected & (u >= 0.8) & (u < 0.9)
        input_ids[to_mask] = self.mask_id
        draws = torch.randint(len(self._random_pool), (int(to_random.sum()),), generator=g)
        input_ids[to_random] = self._random_pool[draws]
        return {"input_ids": input_ids, "attention_mask": attention_mask, "labels": labels}


class ClassificationCollator:
    """(ids, label) pairs (or dicts with input_ids and label) -> padded batch.

    Sequences longer than max_length are cut; if they end with sep_id (BERT's
    [SEP]) that token is kept as the last one.
    """

    def __init__(self, pad_id: int, max_length: int | None = None, sep_id: int | None = None,
                 pad_to_multiple_of: int | None = None):
        if max_length is not None and max_length < 1:
            raise ValueError(f"max_length must be >= 1, got {max_length}")
        self.pad_id, self.max_length, self.sep_id = int(pad_id), max_length, sep_id
        self.pad_to_multiple_of = pad_to_multiple_of

    def __call__(self, batch: Sequence[Any]) -> dict[str, torch.Tensor]:
        seqs, labels = [], []
        for item in batch:
            if isinstance(item, dict):
                ids, label = item["input_ids"], item.get("label", item.get("labels"))
            else:
                ids, label = item
            seqs.append(_truncate(_as_ids(ids), self.max_length, self.sep_id))
            labels.append(int(label))
        input_ids, attention_mask = pad_sequences(seqs, self.pad_id, self.pad_to_multiple_of)  # (B, T)
        return {"input_ids": input_ids, "attention_mask": attention_mask,
                "labels": torch.tensor(labels, dtype=torch.long)}  # (B,)
