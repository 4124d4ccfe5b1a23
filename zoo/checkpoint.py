"""Atomic file writing and safe checkpoint loading.

A checkpoint is only useful if it is either the old complete file or the new
complete file, never half of one: a job killed mid-write (pre-emption, OOM,
full disk) must leave the previous checkpoint loadable. So every write goes to
a temporary file in the *same directory* (os.replace is only atomic within one
filesystem), is flushed and fsync'ed, then renamed over the target, and the
directory entry is fsync'ed so the rename itself survives a power cut. This is
the pattern of e.g. `torch.distributed.checkpoint` and SQLite's journal.

Loading uses `torch.load(weights_only=True)` only, never plain pickle, and
turns the zoo of low-level errors a damaged file produces (zip reader errors,
EOFError, unpickling errors) into one `CorruptCheckpointError` that names the
file. The file is never deleted: it may be the only copy of a long run.

It also owns the training checkpoint format (zoo/training.py decides when to
write one): model, optimizer, scheduler, scaler, step, per-rank RNG states
(as weights_only-loadable plain types) and data stream positions, and the
metrics log that a resumed run truncates back to its checkpoint.
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
import os
import random
import re
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import torch
from torch import nn

__all__ = [
    "CheckpointError",
    "CorruptCheckpointError",
    "CheckpointMismatchError",
    "atomic_write",
    "atomic_write_text",
    "atomic_torch_save",
    "load_torch_checkpoint",
    "check_state_dict",
    "rng_state",
    "set_rng_state",
    "preserved_rng",
    "seed_everything",
    "TRAINING_FORMAT",
    "save_training_state",
    "restore_training_state",
    "MetricsLog",
]


class CheckpointError(RuntimeError):
    """Base class for checkpoint problems."""


class CorruptCheckpointError(CheckpointError):
    """The file exists but cannot be read back (truncated, garbage, unsafe types)."""


class CheckpointMismatchError(CheckpointError):
    """The checkpoint's tensors do not fit the model (missing/unexpected keys, shapes)."""


def _fsync_dir(directory: Path) -> None:
    # Makes the rename durable. Not every platform lets you open a directory
    # (Windows), and some filesystems refuse fsync on one; the data file itself
    # is already synced, so failing here only weakens crash durability.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: str | os.PathLike[str], write_fn: Callable[[IO[bytes]], None]) -> None:
    """Write `path` atomically: `write_fn(f)` writes to a binary temp file that replaces `path`.

    If `write_fn` (or anything before the rename) raises, the temp file is
    removed, `path` keeps its previous content, and the exception propagates.
    """
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as f:
            write_fn(f)
            f.flush()
            os.fsync(f.fileno())
        # mkstemp creates 0600 files; give the result the usual umask-based mode.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(directory)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Atomically write a UTF-8 text file."""
    data = text.encode("utf-8")
    atomic_write(path, lambda f: f.write(data))


def atomic_torch_save(obj: Any, path: str | os.PathLike[str]) -> None:
    """`torch.save(obj, path)`, atomically.

    Store only what `torch.load(weights_only=True)` accepts: tensors, numbers,
    strings, None, and lists/tuples/dicts of those.
    """
    # Serialise into memory first: a pickling error then happens before the
    # temp file exists, and the disk write is one sequential burst.
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    payload = buffer.getbuffer()
    atomic_write(path, lambda f: f.write(payload))


def load_torch_checkpoint(path: str | os.PathLike[str], map_location: Any = "cpu") -> Any:
    """`torch.load(path, weights_only=True)` with a clear error for damaged files.

    Raises FileNotFoundError if `path` does not exist and CorruptCheckpointError
    (naming the file and its size) if it cannot be read. The file is left in place.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"checkpoint {str(path)!r} does not exist")
    try:
        return torch.load(path, map_location=map_location, weights_only=True)
    except Exception as error:  # zip reader RuntimeError, EOFError, UnpicklingError, ...
        size = path.stat().st_size
        detail = str(error)
        # torch's weights-only message is a page long and suggests weights_only=False,
        # which is wrong advice for a damaged file: keep only the unpickler's own reason.
        match = re.search(r"WeightsUnpickler error:\s*(.*?)(?:\n\n|$)", detail, flags=re.S)
        if match:
            detail = match.group(1).strip()
        if "Unsupported global" in detail:
            reason = "it holds objects that weights_only loading refuses (not written by the zoo?)"
        else:
            reason = "it is corrupt or truncated"
        raise CorruptCheckpointError(
            f"cannot load checkpoint {str(path)!r} ({size} bytes): {reason} "
            f"[{type(error).__name__}: {detail}]. "
            "The file was left in place; move or delete it to start afresh."
        ) from error


def check_state_dict(
    model: nn.Module, state_dict: Mapping[str, Any], source: str | os.PathLike[str] = "checkpoint"
) -> None:
    """Raise CheckpointMismatchError listing every missing, unexpected or reshaped tensor.

    `model.load_state_dict` reports some of this too, but stops at the first
    size mismatch and does not say where the state dict came from.
    """
    expected = model.state_dict()
    missing = [k for k in expected if k not in state_dict]
    unexpected = [k for k in state_dict if k not in expected]
    reshaped = [
        f"{k}: checkpoint {tuple(state_dict[k].shape)} vs model {tuple(v.shape)}"
        for k, v in expected.items()
        if k in state_dict
        and isinstance(state_dict[k], torch.Tensor)
        and tuple(state_dict[k].shape) != tuple(v.shape)
    ]
    if not (missing or unexpected or reshaped):
        return

    def listing(title: str, items: list[str], limit: int = 20) -> str:
        shown = "\n    ".join(items[:limit])
        more = f"\n    ... and {len(items) - limit} more" if len(items) > limit else ""
        return f"\n  {title} ({len(items)}):\n    {shown}{more}"

    parts = [f"{str(source)!r} does not match the model ({type(model).__name__}):"]
    if missing:
        parts.append(listing("missing in checkpoint", missing))
    if unexpected:
        parts.append(listing("unexpected in checkpoint", unexpected))
    if reshaped:
        parts.append(listing("shape mismatch", reshaped))
    raise CheckpointMismatchError("".join(parts))


# --------------------------------------------------------------------------- training state

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

    `extra` (config, elapsed, ...) must be plain types, like everything else here.
    """
    atomic_torch_save({
        "format": TRAINING_FORMAT, "step": step, "world_size": len(rng),
        "model": model.state_dict(), "model_config": _model_config(model),
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict() if scheduler is not None else None,
        "scaler": scaler.state_dict() if scaler is not None else None,
        "data": data, "rng": rng, **extra,
    }, path)


def _model_config(model: nn.Module) -> dict[str, Any] | None:
    config = getattr(model, "config", None)
    if config is None or not dataclasses.is_dataclass(config) or isinstance(config, type):
        return None
    # JSON round trip: only plain types survive, as weights_only loading requires.
    return {"class": type(config).__name__, "values": json.loads(json.dumps(dataclasses.asdict(config), default=str))}


def restore_training_state(
    path: str | os.PathLike[str], model: nn.Module, optimizer: torch.optim.Optimizer,
    scheduler: Any = None, scaler: Any = None, data: Any = None, rank: int = 0, world_size: int = 1,
) -> dict[str, Any]:
    """Load a training checkpoint into model / optimizer / scheduler / scaler, and this rank's data + RNG.

    Returns the whole checkpoint dict (step, config, elapsed, ...). Data position
    and RNG are only restored when the checkpoint has the same world size (the
    caller should warn and reseed otherwise). Raises CorruptCheckpointError for
    unreadable or foreign files and CheckpointMismatchError (listing keys and
    shapes) for another model's checkpoint.
    """
    ckpt = load_torch_checkpoint(path)
    if not isinstance(ckpt, dict) or ckpt.get("format") != TRAINING_FORMAT:
        found = sorted(ckpt) if isinstance(ckpt, dict) else type(ckpt).__name__
        raise CorruptCheckpointError(f"{str(path)!r} is not a zoo training checkpoint (found {found})")
    check_state_dict(model, ckpt["model"], path)
    model.load_state_dict(ckpt["model"])
    try:
        optimizer.load_state_dict(ckpt["optimizer"])
    except (ValueError, KeyError) as error:
        raise CheckpointMismatchError(
            f"{str(path)!r}: the saved optimizer state does not fit this model's parameter groups ({error}); "
            "did the trainable parameters or no_weight_decay() change?"
        ) from error
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
    return ckpt


class MetricsLog:
    """Append-only JSON-lines log (one record per line, flushed) plus the records in memory.

    With `resume_step` it keeps the existing records up to that step and drops
    later ones (they belong to steps about to be redone after a crash, as does
    a torn last line); otherwise it starts the file empty. `enabled=False`
    (non-zero ranks) keeps records in memory only.
    """

    def __init__(self, path: str | os.PathLike[str], enabled: bool = True, resume_step: int | None = None) -> None:
        path = Path(path)
        self.records: list[dict[str, Any]] = []
        self.file: IO[str] | None = None
        if not enabled:
            return
        if resume_step is not None and path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if isinstance(record, dict) and record.get("step", math.inf) <= resume_step:
                    self.records.append(record)
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
