"""Batches of sequence pairs by token count, with length bucketing (fairseq's --max-tokens).

The 2017 Transformer trained on batches of about 25,000 source and 25,000 target tokens, "sentence pairs batched
together by approximate sequence length" (Vaswani et al., "Attention is all you need", section 5.1). fairseq's
--max-tokens is the reference: data_utils.batch_by_size cuts the length-sorted order into batches whose padded
size stays under the bound, EpochBatchIterator shuffles the batches' order every epoch, and each rank takes every
W-th batch.

    lengths = [(len(src), len(tgt)) for src, tgt in pairs]
    stream = TokenBatchStream(pairs, lengths, max_tokens=25_000, collate_fn=PairCollator(pad_id, start_id),
                              seed=0, rank=rank, world_size=world_size)
    batch = next(stream)  # input_ids, attention_mask (B, S); decoder_input_ids, labels (B, T)

`token_batches` makes the batches once: examples sorted by (max(source, target) length, source length, target
length, index), cut greedily so that rows * max(longest source, longest target) <= max_tokens, which bounds
both padded tensors of the batch. Under W ranks the number of batches is brought to a multiple of W by cutting
the batches of most rows in two (fewer rows, so the bound still holds): every rank then steps the same number
of times (DDP hangs otherwise) and every example is still seen once per epoch. Where every batch is a single
example and that cannot be done, the N mod W batches left over are dropped from each epoch (a different few
every epoch), as data/loader.BatchStream drops its remainder; fairseq pads the shorter shards with empty batches
instead, which the engine has no use for.

`TokenBatchStream` is a data/loader.BatchStream whose examples are those batches: epoch e's order of the batches
is drawn from (seed, e) only, rank r takes every W-th of it, and its state is (epoch, position), so a resumed
stream gives exactly the batches an uninterrupted one does. Checked by tests/data/test_token_batches.py.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import torch

from data.collate import IGNORE_INDEX, _as_ids, pad_sequences
from data.loader import BatchStream, SizedDataset


def token_batches(lengths: Sequence[tuple[int, int]] | np.ndarray, max_tokens: int,
                  world_size: int = 1) -> list[np.ndarray]:
    """Example indices (N,) per batch, from each example's (source length, target length) (N, 2), in
    length order; see the module docstring. An example that alone exceeds max_tokens is a ValueError naming it."""
    sizes = _checked_lengths(lengths, max_tokens)
    if world_size < 1:
        raise ValueError(f"world_size must be >= 1, got {world_size}")
    longest = sizes.max(axis=1)
    order = np.lexsort((np.arange(len(sizes)), sizes[:, 1], sizes[:, 0], longest))  # last key sorts first
    cuts, rows = [], 0
    for position, width in enumerate(longest[order].tolist()):
        # Sorted by `longest`, so the newest example is the widest of its batch: the batch pads to it.
        if (rows + 1) * width > max_tokens:
            cuts.append(position)
            rows = 0
        rows += 1
    batches = np.split(order, cuts)
    while len(batches) % world_size:
        most = max(range(len(batches)), key=lambda j: len(batches[j]))  # the first of those with most rows
        if len(batches[most]) < 2:
            break
        batches[most: most + 1] = np.array_split(batches[most], 2)
    return batches


def _checked_lengths(lengths: Sequence[tuple[int, int]] | np.ndarray, max_tokens: int) -> np.ndarray:
    sizes = np.asarray(lengths, dtype=np.int64)
    if sizes.ndim != 2 or sizes.shape[1] != 2 or len(sizes) == 0:
        raise ValueError(f"lengths must be one (source length, target length) pair per example, got an array of "
                         f"shape {sizes.shape}")
    if max_tokens < 1:
        raise ValueError(f"max_tokens must be >= 1, got {max_tokens}")
    empty = np.flatnonzero(sizes.min(axis=1) < 1)
    if len(empty):
        i = int(empty[0])
        raise ValueError(f"example {i} has lengths {tuple(sizes[i].tolist())} (source, target): every example needs "
                         f"at least one source and one target token ({len(empty)} example(s) do not)")
    over = np.flatnonzero(sizes.max(axis=1) > max_tokens)
    if len(over):
        i = int(over[0])
        others = f" (and {len(over) - 1} more)" if len(over) > 1 else ""
        raise ValueError(f"example {i} has lengths {tuple(sizes[i].tolist())} (source, target), longer than "
                         f"max_tokens={max_tokens}{others}: raise max_tokens or leave such examples out")
    return sizes


class TokenBatchStream(BatchStream):
    """Infinite, shuffled, sharded, resumable batches of at most `max_tokens` padded tokens per side.

    `lengths[i]` is (source length, target length) of `dataset[i]`, as `collate_fn` will pad them; see the
    module docstring. `batches` holds every batch's example indices; `batches_per_epoch` is this rank's count,
    the same on every rank. state_dict() / load_state_dict() are BatchStream's.
    """

    def __init__(self, dataset: SizedDataset, lengths: Sequence[tuple[int, int]] | np.ndarray, max_tokens: int,
                 collate_fn: Callable[[list], Any], shuffle: bool = True, seed: int = 0, rank: int = 0,
                 world_size: int = 1):
        if len(lengths) != len(dataset):
            raise ValueError(f"lengths has {len(lengths)} entries for a dataset of {len(dataset)} examples; "
                             "expected one (source length, target length) pair per example")
        self.batches = token_batches(lengths, max_tokens, world_size)
        self.max_tokens = max_tokens
        if len(self.batches) < world_size:
            raise ValueError(f"{len(dataset)} examples make {len(self.batches)} batch(es) of max_tokens={max_tokens}"
                             f", fewer than the {world_size} ranks: every rank needs one")
        super().__init__(_Batches(dataset, self.batches), 1, _WholeBatch(collate_fn), shuffle=shuffle, seed=seed,
                         rank=rank, world_size=world_size)


class _Batches:
    """A dataset whose item j is the list of examples of batch j."""

    def __init__(self, dataset: SizedDataset, batches: list[np.ndarray]):
        self.dataset, self.batches = dataset, batches

    def __len__(self) -> int:
        return len(self.batches)

    def __getitem__(self, j: int) -> list[Any]:
        return [self.dataset[int(i)] for i in self.batches[j]]


class _WholeBatch:
    """BatchStream's collate over `_Batches`: it receives [batch] and collates the batch. The inner collate's
    state_dict / load_state_dict, where it has them, are this one's, so BatchStream saves them."""

    def __init__(self, collate_fn: Callable[[list], Any]):
        self.collate_fn = collate_fn

    def __call__(self, items: list[list[Any]]) -> Any:
        return self.collate_fn(items[0])

    def __getattr__(self, name: str) -> Any:
        if name in ("state_dict", "load_state_dict") and "collate_fn" in vars(self):
            return getattr(self.collate_fn, name)
        raise AttributeError(name)


class PairCollator:
    """(source ids, target ids) pairs, or dicts with "source" and "target", -> a padded batch, right-padded
    with `pad_id`:

    - input_ids, attention_mask (B, S): the sources, 1 = real token, 0 = padding;
    - labels (B, T): the targets (what the decoder predicts, its end token included), -100 at padding;
    - decoder_input_ids (B, T): `start_id`, then the targets but the last (teacher forcing), `pad_id` at padding.

    Position t of the decoder reads decoder_input_ids[:, t] and predicts labels[:, t], as transformers'
    seq2seq models and fairseq (prev_output_tokens, target) do.
    """

    def __init__(self, pad_id: int, start_id: int):
        self.pad_id, self.start_id = int(pad_id), int(start_id)

    def __call__(self, batch: Sequence[Any]) -> dict[str, torch.Tensor]:
        sources, targets = [], []
        for item in batch:
            source, target = (item["source"], item["target"]) if isinstance(item, Mapping) else item
            sources.append(_as_ids(source))
            targets.append(_as_ids(target))
        input_ids, attention_mask = pad_sequences(sources, self.pad_id)  # (B, S)
        labels, target_mask = pad_sequences(targets, self.pad_id)  # (B, T)
        decoder_input_ids, _ = pad_sequences([[self.start_id, *t[:-1]] for t in targets], self.pad_id)  # (B, T)
        return {"input_ids": input_ids, "attention_mask": attention_mask, "decoder_input_ids": decoder_input_ids,
                "labels": labels.masked_fill(target_mask == 0, IGNORE_INDEX)}
