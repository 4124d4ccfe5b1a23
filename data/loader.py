"""Batch iteration for training (infinite, shuffled, sharded, resumable) and evaluation.

`BatchStream` is a step-based replacement for DataLoader + DistributedSampler:
`next(stream)` returns a batch forever. Epoch e's order is a permutation drawn
from numpy's generator seeded by SeedSequence((seed, epoch)), so it depends on
nothing but those two numbers; rank r of W takes every W-th index of it
(perm[r::W], as DistributedSampler does), trimmed so every rank gets the same
number of batches (DDP hangs if one rank steps more). Its whole state is
(epoch, position): a run resumed from `state_dict()` sees exactly the batches
an uninterrupted run would. If the collate function has its own random state
(MLMCollator), that is saved and restored with it.

`iterate_once` is for evaluation: dataset order, every example, last partial
batch kept. Checked by tests/data/test_loader.py (resume equality across epoch
boundaries, disjoint shards, full coverage).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

import numpy as np
from torch.utils.data import default_collate


class SizedDataset(Protocol):
    def __len__(self) -> int: ...
    def __getitem__(self, i: int) -> Any: ...


def default_stack(items: list[Any]) -> Any:
    """Stack a list of examples (tensors, numbers, or dicts/tuples of them) into a batch."""
    return default_collate(items)


def epoch_indices(num_examples: int, epoch: int, seed: int, shuffle: bool = True,
                  rank: int = 0, world_size: int = 1) -> np.ndarray:
    """This rank's example indices for one epoch (equal length on every rank)."""
    if shuffle:
        order = np.random.default_rng(np.random.SeedSequence((seed, epoch))).permutation(num_examples)
    else:
        order = np.arange(num_examples)
    per_rank = num_examples // world_size
    return order[rank::world_size][:per_rank]


class BatchStream:
    """Infinite iterator of collated batches; see the module docstring."""

    def __init__(self, dataset: SizedDataset, batch_size: int, collate_fn: Callable[[list], Any] = default_stack,
                 shuffle: bool = True, seed: int = 0, drop_last: bool = True, rank: int = 0, world_size: int = 1):
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        if world_size < 1 or not 0 <= rank < world_size:
            raise ValueError(f"need 0 <= rank < world_size, got rank={rank}, world_size={world_size}")
        self.dataset, self.batch_size, self.collate_fn = dataset, batch_size, collate_fn
        self.shuffle, self.seed, self.drop_last = shuffle, seed, drop_last
        self.rank, self.world_size = rank, world_size
        per_rank = len(dataset) // world_size
        self.batches_per_epoch = per_rank // batch_size if drop_last else -(-per_rank // batch_size)
        if self.batches_per_epoch == 0:
            # Otherwise next() would spin through empty epochs forever.
            raise ValueError(f"dataset of {len(dataset)} examples over {world_size} rank(s) gives no batch of "
                             f"{batch_size} (drop_last={drop_last}); use a smaller batch_size")
        self.epoch, self.position = 0, 0
        self._indices: np.ndarray | None = None   # this epoch's order, built on demand

    def _current_indices(self) -> np.ndarray:
        if self._indices is None:
            self._indices = epoch_indices(len(self.dataset), self.epoch, self.seed, self.shuffle,
                                          self.rank, self.world_size)
        return self._indices

    def __iter__(self) -> BatchStream:
        return self

    def __next__(self) -> Any:
        if self.position >= self.batches_per_epoch:
            self.epoch, self.position, self._indices = self.epoch + 1, 0, None
        lo = self.position * self.batch_size
        idx = self._current_indices()[lo: lo + self.batch_size]
        self.position += 1
        return self.collate_fn([self.dataset[int(i)] for i in idx])

    def state_dict(self) -> dict:
        """{"epoch", "position"} (+ "collate" when the collate function has state)."""
        state: dict = {"epoch": self.epoch, "position": self.position}
        if hasattr(self.collate_fn, "state_dict"):
            state["collate"] = self.collate_fn.state_dict()
        return state

    def load_state_dict(self, state: dict) -> None:
        epoch, position = int(state["epoch"]), int(state["position"])
        if epoch < 0 or not 0 <= position <= self.batches_per_epoch:
            raise ValueError(f"stream state epoch={epoch}, position={position} does not fit "
                             f"{self.batches_per_epoch} batches per epoch (different dataset or batch size?)")
        self.epoch, self.position, self._indices = epoch, position, None
        if "collate" in state and hasattr(self.collate_fn, "load_state_dict"):
            self.collate_fn.load_state_dict(state["collate"])


def iterate_once(dataset: SizedDataset, batch_size: int, collate_fn: Callable[[list], Any] = default_stack,
                 rank: int = 0, world_size: int = 1) -> Iterator[Any]:
    """One ordered pass for evaluation: every example (rank r gets r, r+W, ...), last batch may be short."""
    if batch_size < 1:
        raise ValueError(f"batch_size must be >= 1, got {batch_size}")
    indices: Sequence[int] = range(rank, len(dataset), world_size)
    for lo in range(0, len(indices), batch_size):
        yield collate_fn([dataset[i] for i in indices[lo: lo + batch_size]])
