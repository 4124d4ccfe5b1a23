"""Batches and losses as the training engine sees them: moving a (nested) batch to the device, counting
its samples and tokens, checking what a loss function returns, and `make_eval_fn`.

A loss function returns a scalar loss or (loss, metrics); a loss that is a mean over a varying number of
items (labelled tokens) names that number in metrics[LOSS_WEIGHT], which the engine uses to weigh the
ranks under DDP (and does not log).
"""
from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Protocol

import torch
from torch import Tensor, nn

# A loss function's metric naming how many items its (mean) loss averages: see engine._Run.weigh_ranks.
LOSS_WEIGHT = "loss_weight"

Batch = Any
LossOutput = Tensor | tuple[Tensor, Mapping[str, Any]]


class BatchStreamLike(Protocol):
    def __next__(self) -> Batch: ...
    def state_dict(self) -> dict[str, Any]: ...
    def load_state_dict(self, state: dict[str, Any]) -> None: ...


# --------------------------------------------------------------------------- batches, seeds


def move_to_device(batch: Batch, device: torch.device) -> Batch:
    """Move every tensor in a (nested) dict / list / tuple / namedtuple to `device`."""
    if isinstance(batch, Tensor):
        return batch.to(device, non_blocking=device.type == "cuda")
    if isinstance(batch, Mapping):
        return type(batch)({k: move_to_device(v, device) for k, v in batch.items()})
    if isinstance(batch, tuple) and hasattr(batch, "_fields"):
        return type(batch)(*(move_to_device(v, device) for v in batch))
    if isinstance(batch, (list, tuple)):
        return type(batch)(move_to_device(v, device) for v in batch)
    return batch


def count_batch(batch: Batch) -> tuple[int, Tensor | int | None]:
    """(samples, tokens); tokens: attention_mask.sum() (a tensor: no host sync until logging), else
    input_ids.numel(), else an integer (B, T) first tuple element's numel, else None (no token ids)."""
    if isinstance(batch, Mapping):
        ids, mask = batch.get("input_ids"), batch.get("attention_mask")
        first = ids if isinstance(ids, Tensor) else next((v for v in batch.values() if isinstance(v, Tensor)), None)
        samples = int(first.shape[0]) if first is not None and first.ndim else 1
        if isinstance(mask, Tensor):
            return samples, mask.sum()
        return samples, ids.numel() if isinstance(ids, Tensor) else None
    first = batch[0] if isinstance(batch, (list, tuple)) and batch else batch
    if not isinstance(first, Tensor) or first.ndim == 0:
        return 1, None
    is_ids = first.ndim == 2 and not first.is_floating_point() and not first.is_complex()
    return int(first.shape[0]), first.numel() if is_ids else None


def autocast_for(device: torch.device, dtype: str) -> AbstractContextManager[Any]:
    if dtype == "fp32":
        return nullcontext()
    return torch.autocast(device.type, dtype=torch.bfloat16 if dtype == "bf16" else torch.float16)


def split_loss(output: LossOutput) -> tuple[Tensor, Mapping[str, Any]]:
    loss, metrics = output if isinstance(output, tuple) else (output, {})
    if not isinstance(loss, Tensor) or loss.numel() != 1:
        got = f"a tensor of shape {tuple(loss.shape)}" if isinstance(loss, Tensor) else type(loss).__name__
        raise TypeError(f"loss_fn must return a scalar loss tensor or (loss, metrics); got {got}")
    return loss.reshape(()), metrics


# --------------------------------------------------------------------------- evaluation, metrics, plot


def make_eval_fn(
    data: BatchStreamLike, loss_fn: Callable[[nn.Module, Batch], LossOutput], num_batches: int, perplexity: bool = False
) -> Callable[[nn.Module], dict[str, float]]:
    """An eval_fn averaging loss_fn (and its metrics) over `num_batches` batches of `data`.

    The stream is rewound to its current position before every evaluation, so
    each eval sees the same batches and numbers are comparable across steps.
    With `perplexity=True` it also reports ppl = exp(loss) (token-level CE losses).
    """
    if num_batches < 1:
        raise ValueError(f"make_eval_fn: num_batches={num_batches!r}, expected >= 1")
    start = copy.deepcopy(data.state_dict())

    def eval_fn(model: nn.Module) -> dict[str, float]:
        data.load_state_dict(copy.deepcopy(start))  # copy: a stream may mutate the tensors it is given
        device = next(model.parameters()).device
        sums: dict[str, float] = {}
        for _ in range(num_batches):
            loss, metrics = split_loss(loss_fn(model, move_to_device(next(data), device)))
            for name, value in {"loss": loss, **metrics}.items():
                if name != LOSS_WEIGHT:
                    sums[name] = sums.get(name, 0.0) + float(value)
        result = {name: total / num_batches for name, total in sums.items()}
        if perplexity:
            result["ppl"] = math.exp(min(result["loss"], 80.0))  # cap: exp overflows past ~709
        return result

    return eval_fn
