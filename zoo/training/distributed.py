"""Process-group plumbing for the training engine: who am I (rank, world size, device) under torchrun, and the
three collectives the loop needs (mean of metrics, max of the clock, gather of per-rank state to rank 0).
gloo on CPU, nccl on CUDA.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import torch
import torch.distributed as dist
from torch import Tensor


@dataclass(frozen=True)
class DistContext:
    rank: int = 0
    local_rank: int = 0
    world_size: int = 1

    @property
    def is_distributed(self) -> bool:
        return self.world_size > 1

    @property
    def is_main(self) -> bool:
        return self.rank == 0


def distributed_context(device_type: str = "cpu") -> DistContext:
    """Rank/world size of this process; joins the process group if torchrun launched it.

    With WORLD_SIZE > 1 in the environment and no process group yet, this calls
    `init_process_group` (nccl for CUDA, gloo for CPU) from the torchrun env
    variables. An already initialised group is used as it is.
    """
    if dist.is_available() and dist.is_initialized():
        local = int(os.environ.get("LOCAL_RANK", dist.get_rank()))
        return DistContext(dist.get_rank(), local, dist.get_world_size())
    world_size = int(os.environ.get("WORLD_SIZE", "1"))
    if world_size <= 1:
        return DistContext()
    if not dist.is_available():
        raise RuntimeError(f"WORLD_SIZE={world_size} but this torch build has no torch.distributed")
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    if device_type == "cuda":
        torch.cuda.set_device(local_rank)  # before init, so NCCL binds the right GPU
    dist.init_process_group(backend="nccl" if device_type == "cuda" else "gloo")
    return DistContext(dist.get_rank(), local_rank, dist.get_world_size())


def resolve_device(device: str, dtype: str) -> tuple[torch.device, DistContext]:
    """The device a training process runs on (TrainConfig.device, .dtype), and its rank context (joining
    torchrun's process group)."""
    name = device
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError(f"TrainConfig.device={device!r} but CUDA is not available; use 'cpu' or 'auto'")
    device_type = name.split(":")[0]
    ctx = distributed_context(device_type)
    if dtype == "fp16" and device_type != "cuda":
        raise ValueError("TrainConfig.dtype='fp16' needs CUDA (GradScaler); use 'bf16' or 'fp32' on CPU")
    if device_type != "cuda":
        return torch.device("cpu"), ctx
    index = ctx.local_rank if ctx.is_distributed else (int(name[5:]) if ":" in name else None)
    return torch.device("cuda", torch.cuda.current_device() if index is None else index), ctx


def is_main_process() -> bool:
    """True on rank 0, and in any non-distributed process."""
    if dist.is_available() and dist.is_initialized():
        return dist.get_rank() == 0
    return int(os.environ.get("RANK", "0")) == 0


def mean_over_ranks(values: Tensor, ctx: DistContext) -> Tensor:
    if ctx.is_distributed:
        values = values.clone()
        dist.all_reduce(values, op=dist.ReduceOp.SUM)  # gloo has no AVG
    return values / ctx.world_size


def max_over_ranks(value: float, ctx: DistContext, device: torch.device) -> float:
    if not ctx.is_distributed:
        return value
    t = torch.tensor([value], dtype=torch.float64, device=device)
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    return float(t.item())


def gather_to_main(obj: Any, ctx: DistContext) -> list[Any] | None:
    if not ctx.is_distributed:
        return [obj]
    gathered: list[Any] | None = [None] * ctx.world_size if ctx.is_main else None
    dist.gather_object(obj, gathered, dst=0)
    return gathered
