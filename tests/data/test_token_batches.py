"""data.token_batches: the token bound, length bucketing, epoch coverage, exact resume, equal disjoint shards,
the pair collate."""
from __future__ import annotations

import random

import pytest
import torch

from data.collate import IGNORE_INDEX
from data.token_batches import PairCollator, TokenBatchStream, token_batches

PAD, START = 0, 1


def pairs(n: int = 60, seed: int = 0) -> list[tuple[list[int], list[int]]]:
    """Example i: a source of i+100 then filler ids, a target of filler ids, both of random length."""
    rng = random.Random(seed)
    return [([i + 100] + [5] * rng.randint(0, 14), [7] * rng.randint(1, 12)) for i in range(n)]


def lengths_of(data: list[tuple[list[int], list[int]]]) -> list[tuple[int, int]]:
    return [(len(s), len(t)) for s, t in data]


def examples(batch: dict[str, torch.Tensor]) -> list[int]:
    return [int(i) - 100 for i in batch["input_ids"][:, 0]]


def stream(data: list, max_tokens: int = 40, **kwargs) -> TokenBatchStream:
    return TokenBatchStream(data, lengths_of(data), max_tokens, PairCollator(PAD, START), **kwargs)


def test_batches_respect_the_bound_and_bucket_by_length():
    data = pairs()
    lengths = lengths_of(data)
    batches = token_batches(lengths, max_tokens=40)
    assert sorted(i for b in batches for i in b.tolist()) == list(range(len(data)))
    widths = [max(max(lengths[i]) for i in b) for b in batches]
    assert all(len(b) * w <= 40 for b, w in zip(batches, widths))
    assert widths == sorted(widths)  # length order: similar lengths share a batch
    # Greedy: a batch ends only where the next example would break the bound.
    for b, width, nxt in zip(batches, widths, batches[1:]):
        assert (len(b) + 1) * max(width, *lengths[nxt[0]]) > 40
    for batch in (next(s) for s in [stream(data)] for _ in range(20)):  # the collated tensors obey it too
        assert batch["input_ids"].numel() <= 40 and batch["labels"].numel() <= 40


def test_every_example_once_per_epoch_in_a_new_order():
    data = pairs()
    s = stream(data, seed=3)
    epochs = [[examples(next(s)) for _ in range(s.batches_per_epoch)] for _ in range(2)]
    for epoch in epochs:
        assert sorted(sum(epoch, [])) == list(range(len(data)))
    assert [sorted(b) for b in epochs[0]] != [sorted(b) for b in epochs[1]]  # the batches' order reshuffled
    assert sorted(map(sorted, epochs[0])) == sorted(map(sorted, epochs[1]))  # the batches themselves fixed
    again = stream(data, seed=3)
    assert [examples(next(again)) for _ in range(s.batches_per_epoch)] == epochs[0]  # (seed, epoch) only


@pytest.mark.parametrize("from_boundary", [-5, 0, 4])  # stopped in the first epoch, at its end, in the second
def test_resume_gives_the_same_batches_across_epochs(from_boundary):
    data = pairs()
    whole = stream(data, seed=5)
    expected = [examples(next(whole)) for _ in range(2 * whole.batches_per_epoch)]
    stop_after = whole.batches_per_epoch + from_boundary
    first = stream(data, seed=5)
    got = [examples(next(first)) for _ in range(stop_after)]
    resumed = stream(data, seed=5)
    resumed.load_state_dict(first.state_dict())
    got += [examples(next(resumed)) for _ in range(len(expected) - stop_after)]
    assert got == expected


class CountingCollator(PairCollator):
    """A collate with state of its own (as MLMCollator's generator): the batches it has made."""

    def __init__(self) -> None:
        super().__init__(PAD, START)
        self.count = 0

    def __call__(self, batch: list) -> dict[str, torch.Tensor]:
        self.count += 1
        return {**super().__call__(batch), "count": torch.tensor(self.count)}

    def state_dict(self) -> dict:
        return {"count": self.count}

    def load_state_dict(self, state: dict) -> None:
        self.count = state["count"]


def test_a_collate_with_state_is_saved_with_the_position():
    data = pairs()
    first = TokenBatchStream(data, lengths_of(data), 40, CountingCollator())
    for _ in range(4):
        next(first)
    assert first.state_dict() == {"epoch": 0, "position": 4, "collate": {"count": 4}}
    resumed = TokenBatchStream(data, lengths_of(data), 40, CountingCollator())
    resumed.load_state_dict(first.state_dict())
    assert int(next(resumed)["count"]) == int(next(first)["count"]) == 5
    assert "collate" not in stream(data).state_dict()


@pytest.mark.parametrize("world", [2, 3])
def test_ranks_get_disjoint_shards_of_equal_count(world):
    data = pairs(61)
    assert len(token_batches(lengths_of(data), 40)) % world  # the split is needed
    streams = [stream(data, seed=2, rank=r, world_size=world) for r in range(world)]
    assert len({s.batches_per_epoch for s in streams}) == 1
    for _ in range(2):
        shards = [sum((examples(next(s)) for _ in range(s.batches_per_epoch)), []) for s in streams]
        seen = sum(shards, [])
        assert sorted(seen) == list(range(len(data)))  # disjoint and, the batches split, complete
    # One example per batch, 5 batches over 2 ranks: nothing to split, one batch is left out of each epoch.
    single = [([100 + i] * 8, [7] * 8) for i in range(5)]
    ranks = [stream(single, max_tokens=15, seed=1, rank=r, world_size=2) for r in range(2)]
    assert [s.batches_per_epoch for s in ranks] == [2, 2]
    seen = [i for s in ranks for _ in range(2) for i in examples(next(s))]
    assert len(set(seen)) == 4


def test_the_pair_collate_pads_and_masks_labels():
    batch = PairCollator(PAD, START)([([4, 5, 6], [8, 9]), {"source": torch.tensor([4]), "target": [8, 9, 3]}])
    assert batch["input_ids"].tolist() == [[4, 5, 6], [4, PAD, PAD]]
    assert batch["attention_mask"].tolist() == [[1, 1, 1], [1, 0, 0]]
    assert batch["labels"].tolist() == [[8, 9, IGNORE_INDEX], [8, 9, 3]]
    assert batch["decoder_input_ids"].tolist() == [[START, 8, PAD], [START, 8, 9]]


def test_errors_name_the_example_and_the_bound():
    with pytest.raises(ValueError, match=r"example 2 has lengths \(3, 41\) .* longer than max_tokens=40 "
                                         r"\(and 1 more\)"):
        token_batches([(3, 4), (5, 6), (3, 41), (50, 1)], 40)
    with pytest.raises(ValueError, match=r"example 1 has lengths \(0, 6\)"):
        token_batches([(3, 4), (0, 6)], 40)
    with pytest.raises(ValueError, match="3 entries for a dataset of 2"):
        TokenBatchStream([1, 2], [(1, 1)] * 3, 40, PairCollator(PAD, START))
    with pytest.raises(ValueError, match="fewer than the 4 ranks"):
        stream(pairs(3), world_size=4)
    s = stream(pairs())
    with pytest.raises(ValueError, match="does not fit"):
        s.load_state_dict({"epoch": 0, "position": s.batches_per_epoch + 1})
