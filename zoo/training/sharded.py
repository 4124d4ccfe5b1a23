"""FSDP2 for the training engine (TrainConfig.fsdp, the scripts' --fsdp): every Transformer Block and then the
whole model wrapped with torch.distributed.fsdp.fully_shard, so each rank holds 1/world_size of the
parameters, gradients and optimizer state; sharded checkpoints through torch.distributed.checkpoint (DCP);
and, at the end, the plain model (every parameter whole, on the CPU) that save_pretrained writes.

A LoRA run (zoo/training/lora.py) shards as any other: fully_shard (FSDP2) takes frozen and trained parameters in
the same Block's group (FSDP1 wanted use_orig_params=True for that), all-gathers both for the forward and
reduce-scatters the gradients of the trained ones; its sharded checkpoint holds the trained parameters and their
optimizer state only, and the gathered plain model gets the same adapters back (lora.adapt_like).

A sharded checkpoint is a directory, `checkpoint.dcp/`: DCP's shard files (every rank writes its own) and
training_state.pt (step, schedule, scaler, data positions and RNG per rank, config), written by rank 0. It
is written as `checkpoint.dcp.tmp/` and renamed into place when every rank has finished, so a crash
mid-write leaves the previous checkpoint whole.
"""
from __future__ import annotations

import shutil
import warnings
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed.checkpoint import CheckpointException
from torch.distributed.checkpoint.state_dict import (
    StateDictOptions,
    get_model_state_dict,
    get_state_dict,
    set_state_dict,
)
from torch.distributed.fsdp import FSDPModule, fully_shard

from backbones.block import Block
from zoo.io import CorruptCheckpointError, atomic_torch_save, load_torch_checkpoint
from zoo.training.distributed import DistContext
from zoo.training.lora import adapt_like, base_reference, check_base, trained_keys

SHARDED_NAME = "checkpoint.dcp"
STATE_NAME = "training_state.pt"


def shard(model: nn.Module) -> nn.Module:
    """fully_shard every Block (each all-gathers its parameters just before it runs and frees them after),
    then the model itself (embeddings, heads, final norm); in place."""
    for module in model.modules():
        if isinstance(module, Block):
            fully_shard(module)
    fully_shard(model)
    return model


def is_sharded(model: nn.Module) -> bool:
    return isinstance(model, FSDPModule)


def save_sharded(directory: Path, model: nn.Module, optimizer: torch.optim.Optimizer, state: dict[str, Any],
                 ctx: DistContext, keep: Path | None = None) -> None:
    """Every rank writes its shards into directory.tmp, rank 0 the training state; then rank 0 swaps it in.
    The checkpoint it replaces becomes `keep` (a rename, no copy) where given, and is deleted otherwise.

    A write that fails on any rank (a full disk, a file-size limit) raises ShardWriteError on every rank,
    with the temporary directory removed and the previous checkpoint untouched."""
    tmp = directory.with_name(directory.name + ".tmp")
    if ctx.is_main and tmp.exists():
        shutil.rmtree(tmp)  # a write a crash interrupted
    dist.barrier()
    error: BaseException | None = None
    try:
        model_state, optim_state = state_dicts(model, optimizer)
        with warnings.catch_warnings():  # DCP's own use of the deprecated TypedStorage
            warnings.filterwarnings("ignore", message="TypedStorage is deprecated")
            dcp.save({"model": model_state, "optimizer": optim_state}, checkpoint_id=str(tmp))
        if ctx.is_main:
            atomic_torch_save(state, tmp / STATE_NAME)
    except (OSError, CheckpointException) as caught:  # DCP raises on every rank when one rank's write fails
        error = caught
    failed = torch.tensor([error is not None], dtype=torch.int32)
    dist.all_reduce(failed, op=dist.ReduceOp.MAX)  # every shard is on disk, or every rank knows it is not
    if failed.item():
        if ctx.is_main:
            shutil.rmtree(tmp, ignore_errors=True)
        dist.barrier()
        raise ShardWriteError(_first_line(error) if error is not None else "another rank could not write its shards")
    if ctx.is_main:
        old = keep if keep is not None else directory.with_name(directory.name + ".old")
        if directory.exists():
            directory.rename(old)
        tmp.rename(directory)
        if keep is None:
            shutil.rmtree(old, ignore_errors=True)
    dist.barrier()


class ShardWriteError(OSError):
    """A sharded checkpoint could not be written on some rank; raised on every rank alike."""


def _first_line(error: BaseException) -> str:
    """What went wrong, in a line: for DCP's CheckpointException, the first failing rank's own error."""
    if isinstance(error, CheckpointException) and error.failures:
        rank, (inner, _) = min(error.failures.items())
        return f"rank {rank}: {_first_line(inner)}"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    text = str(error).strip()
    return text.splitlines()[0][:300] if text else type(error).__name__


def state_dicts(model: nn.Module, optimizer: torch.optim.Optimizer) -> tuple[dict[str, Any], dict[str, Any]]:
    """The model's and optimizer's sharded state dicts; of a LoRA model (zoo/training/lora.py), its trained
    parameters alone (torch's ignore_frozen_params keeps a frozen head tied to a frozen table: filtered here)."""
    if base_reference(model) is None:
        return get_state_dict(model, optimizer)
    model_state, optim_state = get_state_dict(model, optimizer, options=StateDictOptions(ignore_frozen_params=True))
    trained = trained_keys(model)
    return {name: value for name, value in model_state.items() if name in trained}, optim_state


def load_sharded(directory: Path, model: nn.Module, optimizer: torch.optim.Optimizer) -> dict[str, Any]:
    """Read the model's and optimizer's shards back (every rank its own) and return the training state. A LoRA
    checkpoint over another base than the model's is a CheckpointMismatchError (lora.check_base)."""
    state_path = directory / STATE_NAME
    if not state_path.is_file():
        raise CorruptCheckpointError(f"{str(directory)!r} is not a whole sharded checkpoint: {STATE_NAME} is "
                                     "missing (written last, so the write never finished)")
    state = load_torch_checkpoint(state_path)
    check_base(state, model, directory)
    model_state, optim_state = state_dicts(model, optimizer)
    loaded = {"model": model_state, "optimizer": optim_state}
    try:
        dcp.load(loaded, checkpoint_id=str(directory))
    except Exception as error:  # DCP names the missing or mismatched key
        raise CorruptCheckpointError(f"cannot load the sharded checkpoint {str(directory)!r} into this model: "
                                     f"{str(error).splitlines()[0][:300]}") from error
    partial = StateDictOptions(strict=base_reference(model) is None)  # a LoRA model: its trained part
    set_state_dict(model, optimizer, model_state_dict=loaded["model"], optim_state_dict=loaded["optimizer"],
                   options=partial)
    return state


def plain_model(model: nn.Module, ctx: DistContext) -> nn.Module | None:
    """The sharded model gathered whole: a new unsharded model of the same structure on the CPU, on rank 0
    (None on the others; every rank must call this, as it gathers). What save_pretrained and evaluation take.

    A zoo model is rebuilt from its config; a training wrapper around one (a model with an extra head)
    rebuilds itself through its `unsharded_copy()`."""
    full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
    if not ctx.is_main:
        return None
    plain = rebuild(model)
    plain.load_state_dict(full)
    return plain.train(model.training)


def can_rebuild(model: nn.Module) -> bool:
    """Whether `plain_model` can rebuild this model whole after sharding (checked before training starts)."""
    return getattr(model, "config", None) is not None or callable(getattr(model, "unsharded_copy", None))


def rebuild(model: nn.Module) -> nn.Module:
    """A new model of `model`'s structure (fresh weights): from its config, or its own unsharded_copy(); with the
    quantised layers and LoRA adapters `model` has (lora.adapt_like)."""
    if callable(getattr(model, "unsharded_copy", None)):
        return adapt_like(model.unsharded_copy(), model)
    from zoo.registry import build_model

    config = getattr(model, "config", None)
    if config is None:
        raise TypeError(f"{type(model).__name__} has no config and no unsharded_copy(): FSDP training can gather "
                        "only zoo models (or wrappers that rebuild themselves) whole")
    plain = build_model(config)
    if getattr(model, "tokenizer", None) is not None:  # families whose models carry their tokenizer
        plain.tokenizer = model.tokenizer
    return adapt_like(plain, model)
