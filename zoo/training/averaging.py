"""Checkpoint averaging: the element-wise mean of the model weights of several training checkpoints.

The Transformer's recipe ("Attention is all you need", Vaswani et al. 2017, section 6.1: the base models are
the average of their last 5 checkpoints, the big ones of their last 20), as fairseq's
scripts/average_checkpoints.py does it: every file is loaded in turn and added to a running sum, so memory holds
one checkpoint and the sums, not K checkpoints.

    paths = last_checkpoints("runs/wmt", 5)      # oldest first; the run trained with --keep-last 5 or more
    model.load_state_dict(average_checkpoints(paths))

Floating-point tensors are summed in float64 (complex ones in complex128) and the mean cast back to the stored
dtype, so the result does not depend on the order of the files and K bf16 checkpoints do not lose bits to
rounding in every addition. Integer and bool tensors are taken from the LAST path, not averaged: in a model's
state they are counters, such as BatchNorm's num_batches_tracked, which differs between any two checkpoints of a
run and whose newest value belongs to the newest weights, or constants (position ids, masks), equal in every
file. The mean of a count is no count any checkpoint had (fairseq floor-divides the sum), and requiring them
equal would refuse every model with BatchNorm. Anything else in the state (a module's `_extra_state`) is
taken from the last path too.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import torch

from zoo.io import CheckpointMismatchError, load_torch_checkpoint
from zoo.training.checkpoint import check_format
from zoo.training.run_dir import CHECKPOINT_NAME, previous_checkpoints
from zoo.training.sharded import SHARDED_NAME

Signature = dict[str, tuple[Any, ...]]  # key -> (shape, dtype) of a tensor, or (type name,) of anything else


def last_checkpoints(run_dir: str | os.PathLike[str], k: int) -> list[Path]:
    """The `k` newest checkpoints of a training run's folder, oldest first: the checkpoint-<step>.pt files that
    --keep-last kept, then checkpoint.pt (the newest). A kept file that is checkpoint.pt itself (a hard link
    left by a checkpoint write that failed) is counted once.

    Fewer than `k` is a ValueError saying how many there are: the run must be trained with --keep-last >= k.
    Sharded runs (checkpoint.dcp/) are refused: their weights are spread over the ranks' shard files.
    """
    if k < 1:
        raise ValueError(f"k (the number of checkpoints to average) must be >= 1, got {k}")
    out = Path(run_dir)
    newest = out / CHECKPOINT_NAME
    if not newest.is_file() and (out / SHARDED_NAME).is_dir():
        raise ValueError(f"{str(out)!r} holds a sharded checkpoint ({SHARDED_NAME}/, an --fsdp run): its weights "
                         "are in every rank's shards, and averaging reads whole checkpoint files "
                         f"({CHECKPOINT_NAME}, checkpoint-<step>.pt)")
    found = [newest] if newest.is_file() else []
    found = [p for p in previous_checkpoints(out) if p.suffix == ".pt" and not _same_file(p, newest)] + found
    if len(found) < k:
        names = ", ".join(p.name for p in found) or "none"
        raise ValueError(f"{str(out)!r} holds {len(found)} checkpoint(s) ({names}); averaging the last {k} needs "
                         f"a run trained with --keep-last >= {k} (TrainConfig.keep_last) that saved at least {k} "
                         "times (--save-every)")
    return found[len(found) - k:]


def average_checkpoints(paths: Iterable[str | os.PathLike[str]]) -> dict[str, Any]:
    """The mean of the model weights of the training checkpoints `paths` (as the engine writes them), as a state
    dict for `model.load_state_dict`; see the module docstring for what is averaged and what is taken from the
    last path.

    Every file must be a zoo training checkpoint (CorruptCheckpointError otherwise, naming it; a file that would
    run code is an UnsafeCheckpointError) of the same kind of model with the same keys, shapes and dtypes as the
    first (CheckpointMismatchError naming the file and the keys). A path given twice is a ValueError: its weights
    would count double.
    """
    paths = [Path(p) for p in paths]
    if not paths:
        raise ValueError("average_checkpoints needs at least one checkpoint path, got none")
    _check_distinct(paths)
    sums: dict[str, Any] = {}
    reference: tuple[Path, Signature, Any] | None = None
    for path in paths:
        state, model_class = _model_state(path)
        signature = _signature(state)
        if reference is None:
            reference = (path, signature, model_class)
        else:
            _check_matches(path, signature, model_class, *reference)
        for key, value in state.items():
            if isinstance(value, torch.Tensor) and (value.is_floating_point() or value.is_complex()):
                wide = torch.complex128 if value.is_complex() else torch.float64
                if key in sums:
                    sums[key].add_(value.to(wide))
                else:  # a copy even where already float64: tied keys share one tensor in the file
                    sums[key] = value.to(wide, copy=True)
            else:
                sums[key] = value  # integer, bool or other: the last path's
        del state
    assert reference is not None
    dtypes = {key: entry[1] for key, entry in reference[1].items() if len(entry) == 2}
    return {key: (value / len(paths)).to(dtypes[key]) if _is_sum(value, dtypes.get(key)) else value
            for key, value in sums.items()}


def _is_sum(value: Any, dtype: torch.dtype | None) -> bool:
    return isinstance(value, torch.Tensor) and dtype is not None and (dtype.is_floating_point or dtype.is_complex)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _check_distinct(paths: list[Path]) -> None:
    for i, path in enumerate(paths):
        for earlier in paths[:i]:
            if _same_file(path, earlier):
                raise ValueError(f"{str(path)!r} and {str(earlier)!r} are the same file: averaging it twice would "
                                 "weigh its weights double")


def _model_state(path: Path) -> tuple[Mapping[str, Any], Any]:
    """(model state dict, model class name or None) of the training checkpoint `path`."""
    if path.is_dir():
        raise ValueError(f"{str(path)!r} is a directory (a sharded checkpoint, {SHARDED_NAME}/?): averaging reads "
                         f"checkpoint files ({CHECKPOINT_NAME}, checkpoint-<step>.pt)")
    ckpt = load_torch_checkpoint(path)
    check_format(ckpt, path)
    state = ckpt.get("model")
    if not isinstance(state, Mapping):
        raise CheckpointMismatchError(f"{str(path)!r} holds no model state dict (its 'model' is "
                                      f"{type(state).__name__})")
    return state, (ckpt.get("model_config") or {}).get("class")


def _signature(state: Mapping[str, Any]) -> Signature:
    return {key: (tuple(v.shape), v.dtype) if isinstance(v, torch.Tensor) else (type(v).__name__,)
            for key, v in state.items()}


def _check_matches(path: Path, signature: Signature, model_class: Any,
                   first: Path, expected: Signature, first_class: Any) -> None:
    """A CheckpointMismatchError naming `path` and every key whose presence, shape, dtype or kind differs from
    the first checkpoint's."""
    if model_class and first_class and model_class != first_class:
        raise CheckpointMismatchError(f"{str(path)!r} holds a {model_class} model, {str(first)!r} a {first_class}: "
                                      "only checkpoints of one model can be averaged")
    problems = [f"{key}: missing" for key in expected if key not in signature]
    problems += [f"{key}: not in {first.name}" for key in signature if key not in expected]
    for key, entry in signature.items():
        if key in expected and entry != expected[key]:
            problems.append(f"{key}: {_describe(entry)} vs {_describe(expected[key])} in {first.name}")
    if problems:
        shown = "\n    ".join(problems[:20])
        more = f"\n    ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise CheckpointMismatchError(f"{str(path)!r} does not match {str(first)!r}, the first checkpoint averaged "
                                      f"({len(problems)} key(s)):\n    {shown}{more}")


def _describe(entry: tuple[Any, ...]) -> str:
    return f"{entry[0]} {str(entry[1]).removeprefix('torch.')}" if len(entry) == 2 else entry[0]
