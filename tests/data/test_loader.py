"""data.loader: epoch coverage, shuffling, DDP sharding, exact resume, evaluation pass."""
from __future__ import annotations

import random

import pytest
import torch

from data.collate import MLMCollator
from data.loader import BatchStream, epoch_indices, iterate_once


class Numbers:
    """Dataset whose example i is tensor(i), so a batch shows which examples it holds."""

    def __init__(self, n: int):
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> torch.Tensor:
        return torch.tensor(i)


def take(stream: BatchStream, k: int) -> list[list[int]]:
    return [next(stream).tolist() for _ in range(k)]


def test_each_epoch_is_a_permutation():
    stream = BatchStream(Numbers(20), batch_size=5, seed=3)
    assert stream.batches_per_epoch == 4
    epoch0, epoch1 = take(stream, 4), take(stream, 4)
    flat0, flat1 = sum(epoch0, []), sum(epoch1, [])
    assert sorted(flat0) == sorted(flat1) == list(range(20))
    assert flat0 != flat1 and flat0 != list(range(20))   # reshuffled, not identity
    assert stream.epoch == 1 and stream.position == 4
    # Same seed, same order; another seed, another order.
    assert take(BatchStream(Numbers(20), 5, seed=3), 4) == epoch0
    assert take(BatchStream(Numbers(20), 5, seed=4), 4) != epoch0


def test_drop_last_and_unshuffled():
    kept = BatchStream(Numbers(7), batch_size=3, shuffle=False, drop_last=False)
    assert take(kept, 4) == [[0, 1, 2], [3, 4, 5], [6], [0, 1, 2]]
    dropped = BatchStream(Numbers(7), batch_size=3, shuffle=False)
    assert take(dropped, 3) == [[0, 1, 2], [3, 4, 5], [0, 1, 2]]
    with pytest.raises(ValueError, match="no batch"):
        BatchStream(Numbers(3), batch_size=4)


def test_ranks_get_disjoint_equal_shards():
    n, world = 23, 3
    for epoch in range(3):
        shards = [epoch_indices(n, epoch, seed=0, rank=r, world_size=world).tolist() for r in range(world)]
        assert all(len(s) == n // world for s in shards)
        seen = sum(shards, [])
        assert len(set(seen)) == len(seen)           # disjoint
    streams = [BatchStream(Numbers(n), 2, seed=9, rank=r, world_size=world) for r in range(world)]
    assert len({s.batches_per_epoch for s in streams}) == 1   # ranks step in lockstep
    first = [sum(take(s, s.batches_per_epoch), []) for s in streams]
    assert not (set(first[0]) & set(first[1])) and not (set(first[1]) & set(first[2]))


# 26 examples over 2 ranks in batches of 5: 2 batches per epoch. Stop mid-epoch,
# exactly at an epoch's end (before the rollover), and three epochs in.
@pytest.mark.parametrize("stop_after", [1, 2, 7])
def test_resume_gives_the_same_batches(stop_after):
    uninterrupted = BatchStream(Numbers(26), batch_size=5, seed=7, rank=1, world_size=2)
    reference = take(uninterrupted, stop_after + 12)

    run = BatchStream(Numbers(26), batch_size=5, seed=7, rank=1, world_size=2)
    assert run.batches_per_epoch == 2
    assert take(run, stop_after) == reference[:stop_after]
    state = run.state_dict()
    assert set(state) == {"epoch", "position"}
    resumed = BatchStream(Numbers(26), batch_size=5, seed=7, rank=1, world_size=2)
    resumed.load_state_dict(state)
    assert take(resumed, 12) == reference[stop_after:]


def test_resume_restores_mlm_masking():
    rng = random.Random(0)
    data = [[2] + [rng.randrange(5, 60) for _ in range(rng.randrange(4, 12))] + [3] for _ in range(40)]

    def stream() -> BatchStream:
        coll = MLMCollator(mask_id=4, vocab_size=60, pad_id=0, special_ids=[1, 2, 3], seed=0)
        return BatchStream(data, batch_size=4, collate_fn=coll, seed=1)

    uninterrupted = stream()
    reference = [next(uninterrupted) for _ in range(15)]
    run = stream()
    for _ in range(6):
        next(run)
    state = run.state_dict()
    assert "collate" in state
    resumed = stream()
    resumed.load_state_dict(state)
    for expected in reference[6:]:
        got = next(resumed)
        assert torch.equal(got["input_ids"], expected["input_ids"])
        assert torch.equal(got["labels"], expected["labels"])


def test_load_state_rejects_mismatch():
    stream = BatchStream(Numbers(10), batch_size=5)
    with pytest.raises(ValueError, match="position"):
        stream.load_state_dict({"epoch": 0, "position": 7})


def test_default_stack_handles_dicts():
    data = [{"input_ids": torch.arange(3) + i, "labels": torch.arange(3)} for i in range(4)]
    batch = next(BatchStream(data, batch_size=2, shuffle=False))
    assert batch["input_ids"].shape == (2, 3) and batch["input_ids"][1].tolist() == [1, 2, 3]


def test_iterate_once_keeps_order_and_tail():
    batches = [b.tolist() for b in iterate_once(Numbers(7), batch_size=3)]
    assert batches == [[0, 1, 2], [3, 4, 5], [6]]
    shards = [sum((b.tolist() for b in iterate_once(Numbers(7), 2, rank=r, world_size=2)), []) for r in (0, 1)]
    assert shards == [[0, 2, 4, 6], [1, 3, 5]]
