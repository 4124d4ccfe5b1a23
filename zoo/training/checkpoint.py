"""The training checkpoint: what a run needs to resume exactly, and the metrics log beside it.

A checkpoint (written atomically through zoo.io) holds model, optimizer,
scheduler, scaler, step, per-rank RNG states (as weights_only-loadable plain
types) and data stream positions; the engine (zoo/training/engine.py) decides
when to write one. A LoRA run's holds its trained tensors only, and its base's
identity (zoo/training/lora.py), which a resume checks. The metrics log is JSON
lines that a resumed run truncates back to its checkpoint, and `plot_losses`
draws it.
"""
from __future__ import annotations

import dataclasses
import io
import json
import math
import os
import random
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import torch
from torch import nn

from zoo.io import (
    CheckpointMismatchError,
    CorruptCheckpointError,
    atomic_torch_save,
    atomic_write,
    atomic_write_text,
    load_torch_checkpoint,
)
from zoo.training.config import TrainConfig
from zoo.training.distributed import DistContext
from zoo.training.lora import check_base, checkpoint_state, load_checkpoint_state

TRAINING_FORMAT = "zoo.training/1"


def rng_state() -> dict[str, Any]:
    """Every RNG this process uses (torch CPU, CUDA if initialised, numpy, python), as plain types/tensors."""
    version, internal, gauss_next = random.getstate()
    state: dict[str, Any] = {
        "torch": torch.get_rng_state(),
        "python": {"version": version, "state": list(internal), "gauss_next": gauss_next},
    }
    try:
        import numpy as np

        _, keys, pos, has_gauss, cached = np.random.get_state()
        state["numpy"] = {"keys": keys.tolist(), "pos": int(pos), "has_gauss": int(has_gauss), "cached": float(cached)}
    except ImportError:
        pass
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def set_rng_state(state: Mapping[str, Any]) -> None:
    """Inverse of `rng_state()`."""
    torch.set_rng_state(state["torch"])
    py = state["python"]
    random.setstate((py["version"], tuple(py["state"]), py["gauss_next"]))
    if "numpy" in state:
        import numpy as np

        s = state["numpy"]
        np.random.set_state(("MT19937", np.array(s["keys"], dtype=np.uint32), s["pos"], s["has_gauss"], s["cached"]))
    if "cuda" in state and torch.cuda.is_available() and len(state["cuda"]) == torch.cuda.device_count():
        torch.cuda.set_rng_state_all(state["cuda"])


def seed_everything(seed: int) -> None:
    """Seed python, numpy and torch (CPU and every CUDA device)."""
    random.seed(seed)
    torch.manual_seed(seed)
    try:
        import numpy as np

        np.random.seed(seed % 2**32)
    except ImportError:
        pass


@contextmanager
def preserved_rng() -> Iterator[None]:
    """Run a block without it consuming any RNG state seen outside (e.g. evaluation during training)."""
    state = rng_state()
    try:
        yield
    finally:
        set_rng_state(state)


def save_training_state(
    path: str | os.PathLike[str], *, step: int, model: nn.Module, optimizer: torch.optim.Optimizer,
    scheduler: Any, scaler: Any, data: list[Any], rng: list[dict[str, Any]], **extra: Any,
) -> None:
    """Atomically write a training checkpoint; `data` and `rng` hold one entry per rank.

    `extra` (config, elapsed, ...) must be plain types, like everything else here. Of a LoRA model, the trained
    tensors alone are kept (zoo/training/lora.py's checkpoint_state).
    """
    atomic_torch_save({**loop_state(step=step, scheduler=scheduler, scaler=scaler, data=data, rng=rng, **extra),
                       "model": checkpoint_state(model), "model_config": _model_config(model),
                       "optimizer": optimizer.state_dict()}, path)


def loop_state(*, step: int, scheduler: Any, scaler: Any, data: list[Any], rng: list[dict[str, Any]],
               **extra: Any) -> dict[str, Any]:
    """A checkpoint's content but model and optimizer (which a sharded checkpoint keeps in its shards):
    what `restore_loop_state` reads back."""
    return {"format": TRAINING_FORMAT, "step": step, "world_size": len(rng),
            "scheduler": scheduler.state_dict() if scheduler is not None else None,
            "scaler": scaler.state_dict() if scaler is not None else None,
            "data": data, "rng": rng, **extra}


def _model_config(model: nn.Module) -> dict[str, Any] | None:
    config = getattr(model, "config", None)
    if config is None or not dataclasses.is_dataclass(config) or isinstance(config, type):
        return None
    # JSON round trip: only plain types survive, as weights_only loading requires.
    return {"class": type(config).__name__, "family": getattr(config, "family", None),
            "values": json.loads(json.dumps(dataclasses.asdict(config), default=str))}


def check_model_kind(ckpt: Mapping[str, Any], model: nn.Module, path: str | os.PathLike[str]) -> None:
    """A checkpoint of another kind of model (a gpt's for a llama) is refused by name, before its keys are
    compared. Checkpoints of models without a config, or written before configs were saved, pass."""
    saved, ours = ckpt.get("model_config"), _model_config(model)
    if not saved or not ours or saved.get("class") == ours["class"]:
        return
    kind = lambda c: f"{c.get('family') or '?'} model ({c.get('class')})"  # noqa: E731
    raise CheckpointMismatchError(f"{str(path)!r} holds a {kind(saved)}, this run builds a {kind(ours)}; resume "
                                  "with the model the checkpoint was trained as, or start afresh (--overwrite)")


def restore_training_state(
    path: str | os.PathLike[str], model: nn.Module, optimizer: torch.optim.Optimizer,
    scheduler: Any = None, scaler: Any = None, data: Any = None, rank: int = 0, world_size: int = 1,
) -> dict[str, Any]:
    """Load a training checkpoint into model / optimizer / scheduler / scaler, and this rank's data + RNG.

    Returns the whole checkpoint dict (step, config, elapsed, ...). Data position
    and RNG are only restored when the checkpoint has the same world size (the
    caller should warn and reseed otherwise). Raises CorruptCheckpointError for
    unreadable or foreign files and CheckpointMismatchError (listing keys and
    shapes) for another model's checkpoint, or a LoRA run's over another base.
    """
    ckpt = load_torch_checkpoint(path)
    check_format(ckpt, path)
    check_model_kind(ckpt, model, path)
    check_base(ckpt, model, path)
    load_checkpoint_state(model, ckpt["model"], path)
    try:
        optimizer.load_state_dict(ckpt["optimizer"])
    except (ValueError, KeyError) as error:
        raise CheckpointMismatchError(
            f"{str(path)!r}: the saved optimizer state does not fit this model's parameter groups ({error}); "
            "did the trainable parameters or no_weight_decay() change?"
        ) from error
    restore_loop_state(ckpt, scheduler, scaler, data, rank, world_size, path)
    return ckpt


def check_format(ckpt: Any, path: str | os.PathLike[str]) -> None:
    if not isinstance(ckpt, dict) or ckpt.get("format") != TRAINING_FORMAT:
        found = sorted(ckpt) if isinstance(ckpt, dict) else type(ckpt).__name__
        raise CorruptCheckpointError(f"{str(path)!r} is not a zoo training checkpoint (found {found})")


def restore_loop_state(ckpt: Mapping[str, Any], scheduler: Any, scaler: Any, data: Any, rank: int, world_size: int,
                       path: str | os.PathLike[str]) -> None:
    """Everything but model and optimizer: schedule, scaler, and (same world size only) this rank's data
    position and RNG."""
    if scheduler is not None and ckpt.get("scheduler") is not None:
        scheduler.load_state_dict(ckpt["scheduler"])
    if scaler is not None and ckpt.get("scaler"):
        scaler.load_state_dict(ckpt["scaler"])
    if ckpt["world_size"] == world_size:
        data_state = ckpt["data"][rank]
        if data_state is not None and data is not None:
            if not hasattr(data, "load_state_dict"):
                raise TypeError(f"{str(path)!r} holds a data position but the stream has no load_state_dict()")
            data.load_state_dict(data_state)
        set_rng_state(ckpt["rng"][rank])


class MetricsLog:
    """Append-only JSON-lines log (one record per line, flushed) plus the records in memory.

    With `resume_step` it keeps the existing records up to that step and drops
    later ones (they belong to steps about to be redone after a crash, as does
    a torn last line, which a kill mid-write leaves); any other line that is not
    a JSON record is a CorruptCheckpointError naming the file and line. Without
    `resume_step` it starts the file empty. `enabled=False` (non-zero ranks)
    keeps records in memory only.
    """

    def __init__(self, path: str | os.PathLike[str], enabled: bool = True, resume_step: int | None = None) -> None:
        path = Path(path)
        self.records: list[dict[str, Any]] = []
        self.file: IO[str] | None = None
        if not enabled:
            return
        if resume_step is not None and path.exists():
            self.records = [r for r in read_records(path) if r.get("step", math.inf) <= resume_step]
        atomic_write_text(path, "".join(json.dumps(r) + "\n" for r in self.records))
        self.file = open(path, "a", encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        self.records.append(record)
        if self.file is not None:
            self.file.write(json.dumps(record) + "\n")
            self.file.flush()  # a crash loses at most the line being written

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


def read_records(path: Path) -> list[dict[str, Any]]:
    """The records of a metrics log, less a torn last line (no newline at its end: a kill mid-write)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    lines = text.split("\n")
    lines = lines[:-1]  # after the last newline: empty, or the torn line
    records = []
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        if not isinstance(record, dict):
            raise CorruptCheckpointError(f"{str(path)!r} line {number}: {line[:60]!r} is not a JSON record; "
                                         "expected one object per line (repair or remove the line to resume)")
        records.append(record)
    return records


def plot_losses(records: list[Mapping[str, Any]], path: str | os.PathLike[str]) -> None:
    """Write a PNG of train loss (and eval loss, if any) against step, atomically."""
    from matplotlib.figure import Figure  # Agg via Figure.savefig; no pyplot global state

    train = [(r["step"], r["loss"]) for r in records if r.get("split") == "train" and "loss" in r]
    evals = [(r["step"], r["eval_loss"]) for r in records if r.get("split") == "eval" and "eval_loss" in r]
    fig = Figure(figsize=(7, 4), dpi=100)
    ax = fig.add_subplot()
    if train:
        ax.plot(*zip(*train), label="train", linewidth=1)
    if evals:
        ax.plot(*zip(*evals), "o-", label="eval", markersize=3)
    ax.set(xlabel="step", ylabel="loss")
    ax.grid(alpha=0.3)
    if train or evals:
        ax.legend()
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    atomic_write(path, lambda f: f.write(buffer.getvalue()))


# Settings that shape the trajectory; a resume that changes them gets a warning.
_TRAJECTORY_FIELDS = ("steps", "lr", "schedule", "weight_decay", "betas", "eps", "warmup_steps", "min_lr_ratio",
                      "time_budget", "grad_clip", "grad_accum", "dtype", "seed")


def resume_training(path: Path, model: nn.Module, optimizer: Any, scheduler: Any, scaler: Any, data: Any,
            config: TrainConfig, ctx: DistContext, sharded: bool = False) -> tuple[int, float]:
    """The engine's resume: restore everything from `path` (a sharded checkpoint's directory with `sharded`),
    warn where the run's settings or world size differ from the checkpoint's; returns (step, elapsed seconds
    before this run)."""
    if sharded:
        from zoo.training.sharded import load_sharded

        ckpt = load_sharded(path, model, optimizer)
        check_format(ckpt, path)
        restore_loop_state(ckpt, scheduler, scaler, data, ctx.rank, ctx.world_size, path)
    else:
        ckpt = restore_training_state(path, model, optimizer, scheduler, scaler, data, ctx.rank, ctx.world_size)
    saved = ckpt.get("config") or {}
    changed = {k: (saved[k], getattr(config, k)) for k in _TRAJECTORY_FIELDS
               if k in saved and saved[k] != getattr(config, k)}
    if changed and ctx.is_main:
        warnings.warn(f"resuming {str(path)!r} with settings that differ from the checkpoint (saved, now): "
                      f"{changed}. Optimizer hyper-parameters and the LR schedule come from the checkpoint; "
                      "steps, grad_clip, grad_accum and dtype follow the new config.", stacklevel=4)
    if ckpt["world_size"] != ctx.world_size:
        warnings.warn(f"{str(path)!r} was written with world_size={ckpt['world_size']}, this run has "
                      f"{ctx.world_size}: model and optimizer resume, but data positions and RNG streams "
                      "cannot be restored exactly", stacklevel=4)
        seed_everything(config.seed + ctx.rank + ckpt["step"])
    return int(ckpt["step"]), float(ckpt.get("elapsed", 0.0))
