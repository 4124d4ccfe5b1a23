"""Checkpoint averaging (zoo/training/averaging.py): the mean of the weights, computed here on its own, and the
errors for checkpoints that cannot be averaged."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from zoo.io import CheckpointMismatchError, CorruptCheckpointError
from zoo.training import TrainConfig, average_checkpoints, last_checkpoints, train
from zoo.training.checkpoint import rng_state, save_training_state


class Tiny(nn.Module):
    """fp32 and bf16 weights, a float buffer and an integer one (BatchNorm's count of batches)."""

    def __init__(self, hidden: int = 4) -> None:
        super().__init__()
        self.fc = nn.Linear(3, hidden)
        self.norm = nn.BatchNorm1d(hidden)
        self.scale = nn.Parameter(torch.zeros(hidden, dtype=torch.bfloat16))


def save(path: Path, model: nn.Module, step: int) -> Path:
    save_training_state(path, step=step, model=model, optimizer=torch.optim.SGD(model.parameters(), lr=0.1),
                        scheduler=None, scaler=None, data=[None], rng=[rng_state()])
    return path


def randomised(seed: int, **kwargs: int) -> Tiny:
    model = Tiny(**kwargs)
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for tensor in model.state_dict().values():
            if tensor.is_floating_point():
                tensor.copy_(torch.randn(tensor.shape, generator=g).to(tensor.dtype))
    model.norm.num_batches_tracked.fill_(10 * seed)
    return model


def test_average_is_the_mean_of_the_weights(tmp_path: Path) -> None:
    models = [randomised(seed) for seed in (1, 2, 3)]
    paths = [save(tmp_path / f"checkpoint-{i}.pt", m, i) for i, m in enumerate(models)]
    averaged = average_checkpoints(paths)
    states = [m.state_dict() for m in models]
    assert list(averaged) == list(states[0])
    for key, value in averaged.items():
        if key.endswith("num_batches_tracked"):
            assert torch.equal(value, states[-1][key])  # an integer buffer: the last checkpoint's
            continue
        exact = (states[0][key].double() + states[1][key].double() + states[2][key].double()) / 3
        assert value.dtype == states[0][key].dtype and torch.equal(value, exact.to(value.dtype)), key
    assert averaged["scale"].dtype == torch.bfloat16
    model = Tiny()
    model.load_state_dict(averaged)
    one = average_checkpoints(paths[:1])
    assert all(torch.equal(one[k], v) for k, v in states[0].items())


def test_last_checkpoints_of_a_run_with_keep_last(tmp_path: Path) -> None:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(16, 3, generator=g)
    y = x.sum(1, keepdim=True)
    stream = iter(lambda: (x, y), None)
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    out = tmp_path / "run"
    train(model, stream, lambda m, b: F.mse_loss(m(b[0]), b[1]),
          TrainConfig(steps=8, lr=1e-2, device="cpu", out=str(out), progress=False, eval_every=0, save_every=2,
                      keep_last=3))
    found = last_checkpoints(out, 3)
    assert [p.name for p in found] == ["checkpoint-00000004.pt", "checkpoint-00000006.pt", "checkpoint.pt"]
    assert [p.name for p in last_checkpoints(out, 1)] == ["checkpoint.pt"]
    weights = [torch.load(p, weights_only=True)["model"]["weight"].double() for p in found]
    expected = ((weights[0] + weights[1] + weights[2]) / 3).float()
    assert torch.equal(average_checkpoints(found)["weight"], expected)
    with pytest.raises(ValueError, match=r"holds 3 checkpoint\(s\) .*--keep-last >= 4"):
        last_checkpoints(out, 4)
    # A failed write leaves the checkpoint it was keeping as a hard link to checkpoint.pt: counted once.
    os.link(out / "checkpoint.pt", out / "checkpoint-00000008.pt")
    assert [p.name for p in last_checkpoints(out, 3)] == [p.name for p in found]
    with pytest.raises(ValueError, match="same file"):
        average_checkpoints([out / "checkpoint.pt", out / "checkpoint-00000008.pt"])
    with pytest.raises(ValueError, match=r"holds 0 checkpoint\(s\) \(none\)"):
        last_checkpoints(tmp_path / "empty", 1)


def test_checkpoints_that_cannot_be_averaged_are_named(tmp_path: Path) -> None:
    first = save(tmp_path / "a.pt", randomised(1), 1)
    wider = save(tmp_path / "wide.pt", randomised(2, hidden=5), 2)
    with pytest.raises(CheckpointMismatchError, match=r"(?s)wide\.pt.*\n.*fc\.weight: \(5, 3\) float32 vs \(4, 3\)"):
        average_checkpoints([first, wider])

    extra = Tiny()
    extra.head = nn.Linear(4, 2)
    with pytest.raises(CheckpointMismatchError, match=r"(?s)extra\.pt.*\n.*head\.weight: not in a\.pt"):
        average_checkpoints([first, save(tmp_path / "extra.pt", extra, 3)])
    with pytest.raises(CheckpointMismatchError, match=r"(?s)a\.pt.*\n.*head\.bias: missing"):
        average_checkpoints([tmp_path / "extra.pt", first])

    retyped = randomised(3).to(torch.float64)
    with pytest.raises(CheckpointMismatchError, match=r"fc\.bias: \(4,\) float64 vs \(4,\) float32"):
        average_checkpoints([first, save(tmp_path / "f64.pt", retyped, 4)])

    bare = tmp_path / "weights.pt"
    torch.save(Tiny().state_dict(), bare)  # a state dict, not a training checkpoint
    with pytest.raises(CorruptCheckpointError, match=r"weights\.pt' is not a zoo training checkpoint"):
        average_checkpoints([first, bare])
    (tmp_path / "shards.dcp").mkdir()
    with pytest.raises(ValueError, match="is a directory"):
        average_checkpoints([tmp_path / "shards.dcp"])
    with pytest.raises(ValueError, match="got none"):
        average_checkpoints([])

