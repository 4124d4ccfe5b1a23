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
file; a file whose pickle would run code is an `UnsafeCheckpointError`. The
file is never deleted: it may be the only copy of a long run.

The training checkpoint format built on these lives in zoo/training/checkpoint.py.
"""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
import threading
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
    "TokenizerMismatchError",
    "UnsafeCheckpointError",
    "atomic_write",
    "atomic_write_text",
    "atomic_torch_save",
    "load_torch_checkpoint",
    "read_json",
    "check_state_dict",
    "loading",
]


class CheckpointError(RuntimeError):
    """Base class for checkpoint problems."""


class CorruptCheckpointError(CheckpointError):
    """The file exists but cannot be read back (truncated, garbage, unsafe types)."""


class UnsafeCheckpointError(CorruptCheckpointError):
    """The file holds pickled objects (functions, classes) that loading would call: refused, nothing run."""


class CheckpointMismatchError(CheckpointError):
    """The checkpoint's tensors do not fit the model (missing/unexpected keys, shapes)."""


class OutputFolderError(ValueError):
    """A path that cannot be a folder to write into."""


def output_folder(path: str | os.PathLike[str]) -> Path:
    """`path` as a folder that exists and takes new files (created where missing): an OutputFolderError where it
    is a file, sits under one, or cannot be created or written into. Training runs, transcripts and exports all
    check where they write with it, before any work."""
    folder, given = Path(path), repr(os.fspath(path))
    if folder.exists() and not folder.is_dir():
        raise OutputFolderError(f"{given} is a file: expected a directory to write into (an existing one or a "
                                "new path)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise OutputFolderError(f"{given} cannot be written into ({error.strerror or error}): expected a directory "
                                "that can be created and written to") from None
    return folder


class TokenizerMismatchError(CheckpointMismatchError):
    """A tokenizer loaded with a model is of another vocabulary (its size, or a token id the model names)."""


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

    Raises FileNotFoundError if `path` does not exist, UnsafeCheckpointError if it
    holds objects whose unpickling would run code, and CorruptCheckpointError
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
        # torch's weights-only message is a page long and suggests weights_only=False or allowlisting the
        # global, which would run the file's code: keep only the unpickler's own reason.
        match = re.search(r"WeightsUnpickler error:\s*(.*?)(?:\n\n|$)", detail, flags=re.S)
        if match:
            detail = match.group(1).strip()
        code = re.search(r"GLOBAL (\S+) was not an allowed global|unrecognized function `?([^`\s]+)|"
                         r"unsupported class `?([^`\s]+)", detail)
        if code:
            name = next(group for group in code.groups() if group)
            raise UnsafeCheckpointError(
                f"refused to load checkpoint {str(path)!r} ({size} bytes): it holds a pickled reference to {name}, "
                "and loading it would run code from the file. Only tensors, numbers, strings and containers of "
                "them are read; if you trust its source, save the weights alone (a state_dict, or safetensors) "
                "where it was made. The file was left in place.") from None
        raise CorruptCheckpointError(
            f"cannot load checkpoint {str(path)!r} ({size} bytes): it is corrupt or truncated "
            f"[{type(error).__name__}: {detail}]. "
            "The file was left in place; move or delete it to start afresh."
        ) from error


def read_json(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A JSON object file (config.json, a safetensors index, generation_config.json) as a dict.

    A file that is not JSON, or whose top level is not an object, is a CorruptCheckpointError naming it,
    the line and column and what was wrong; a missing one is the caller's to check.
    """
    path = Path(path)
    try:
        value = json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError as error:
        raise CorruptCheckpointError(f"{str(path)!r} is not valid JSON: byte {error.start} is not UTF-8 "
                                     "text") from None
    except json.JSONDecodeError as error:
        raise CorruptCheckpointError(f"{str(path)!r} is not valid JSON: {error.msg} at line {error.lineno} column "
                                     f"{error.colno}") from None
    if not isinstance(value, dict):
        raise CorruptCheckpointError(f"{str(path)!r} is not a config: expected a JSON object, got a "
                                     f"{'list' if isinstance(value, list) else type(value).__name__}")
    return value


def dtype_kind(dtype: torch.dtype) -> str:
    """floating-point, complex, bool or integer: what a tensor's values mean, whatever their width."""
    if dtype.is_floating_point:
        return "floating-point"
    if dtype.is_complex:
        return "complex"
    return "bool" if dtype == torch.bool else "integer"


def check_state_dict(
    model: nn.Module, state_dict: Mapping[str, Any], source: str | os.PathLike[str] = "checkpoint"
) -> None:
    """Raise CheckpointMismatchError listing every missing, unexpected, reshaped or retyped tensor.

    `model.load_state_dict` reports some of this too, but stops at the first
    size mismatch, does not say where the state dict came from, and casts any
    dtype silently. A tensor of another width of the same kind (float16 or
    bfloat16 stored for a float32 model: real checkpoints are) loads cast, as
    in the references; one of another kind (int64 where floats are expected)
    is refused. A module's `optional_state` names tensors a checkpoint may lack
    (its load fills them).
    """
    expected = model.state_dict()
    optional = {prefix + ("." if prefix else "") + name for prefix, module in model.named_modules()
                for name in getattr(module, "optional_state", ())}
    missing = [k for k in expected if k not in state_dict and k not in optional]
    unexpected = [k for k in state_dict if k not in expected]
    reshaped = [
        f"{k}: checkpoint {tuple(state_dict[k].shape)} vs model {tuple(v.shape)}"
        for k, v in expected.items()
        if k in state_dict
        and isinstance(state_dict[k], torch.Tensor)
        and tuple(state_dict[k].shape) != tuple(v.shape)
    ]
    retyped = [
        f"{k}: checkpoint {str(state_dict[k].dtype)[6:]} ({dtype_kind(state_dict[k].dtype)}) vs model "
        f"{str(v.dtype)[6:]} ({dtype_kind(v.dtype)})"
        for k, v in expected.items()
        if isinstance(state_dict.get(k), torch.Tensor) and dtype_kind(state_dict[k].dtype) != dtype_kind(v.dtype)
    ]
    if not (missing or unexpected or reshaped or retyped):
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
    if retyped:
        parts.append(listing("of another kind", retyped))
    raise CheckpointMismatchError("".join(parts))


_ON_META = threading.local()  # .depth: this thread's open parameters_on_meta blocks
_PATCH = threading.Lock()
_patched = 0  # the open blocks of every thread: the patch stays while any is open
_unpatched = nn.Module.register_parameter  # what the patch calls, and puts back when the last block closes


def _register_parameter(module: nn.Module, name: str, param: nn.Parameter | None) -> None:
    """nn.Module.register_parameter while a parameters_on_meta block is open: on meta in that block's thread only."""
    if param is not None and not param.is_meta and getattr(_ON_META, "depth", 0):
        param = nn.Parameter(param.to("meta"), requires_grad=param.requires_grad)
    _unpatched(module, name, param)


@contextmanager
def parameters_on_meta() -> Iterator[None]:
    """Modules built inside the block (in this thread; others build as usual) get their parameters on the meta
    device: nothing is allocated or initialised for weights a checkpoint replaces (load_into_empty), so a model loads
    in the memory of its checkpoint, not twice that, nor (quantised) a float32 copy first. Buffers stay real: those a
    checkpoint lacks (RoPE's and the sinusoids' non-persistent tables, a module's `optional_state`) keep their
    computed values; a quantised layer made for a meta weight (zoo.quantize.apply_quantization_config) is made on
    meta, integers and all."""
    global _patched, _unpatched
    with _PATCH:
        if not _patched:
            _unpatched = nn.Module.register_parameter
            nn.Module.register_parameter = _register_parameter
        _patched += 1
    _ON_META.depth = getattr(_ON_META, "depth", 0) + 1
    try:
        yield
    finally:
        _ON_META.depth -= 1
        with _PATCH:
            _patched -= 1
            if not _patched:
                nn.Module.register_parameter = _unpatched


def shared_names(model: nn.Module) -> dict[str, str]:
    """{alias: name} of the state dict's entries that one tensor object fills twice (a head tied to its table, a
    quantised head reading its table's integers), found by identity: meta tensors have no storage to compare."""
    first: dict[int, str] = {}
    aliases = {}
    for name, tensor in model.state_dict(keep_vars=True).items():  # every name of the saved state, tied ones too
        if id(tensor) in first:
            aliases[name] = first[id(tensor)]
        else:
            first[id(tensor)] = name
    return aliases


def _owned(value: torch.Tensor, dtype: torch.dtype, owner: dict[int, int], take: bool) -> torch.Tensor:
    """`value` as a tensor the model may hold: cast to the model's float `dtype` where stored in another width;
    taken as it is only where `take` and it is contiguous and alone in its storage, else copied. A converter's state
    holds views (q, k and v cut from one fused tensor; one zero bias for several layers) and the tensors of a live
    model (from_hf(model)): taken, they would keep a fused tensor alive, tie layers never tied, or share weights
    with the other model."""
    if value.is_floating_point() and dtype.is_floating_point and value.dtype != dtype:
        return value.to(dtype, memory_format=torch.contiguous_format)
    storage = value.untyped_storage()
    alone = take and value.is_contiguous() and storage.nbytes() == value.numel() * value.element_size()
    if alone and owner.setdefault(storage.data_ptr(), id(value)) == id(value):
        return value
    return value.clone(memory_format=torch.contiguous_format)


def load_into_empty(model: nn.Module, state: Mapping[str, torch.Tensor], source: str | os.PathLike[str],
                    take: bool = False) -> None:
    """Load `state` (checked by check_state_dict) into a model built under parameters_on_meta, cast as
    load_state_dict casts (a float stored in another width); `take`: the tensors are the caller's to give (read from
    a file just now), so each becomes the model's where it can (_owned) rather than a copy. The tensors the model
    shared share again. Anything left on meta is a CheckpointMismatchError naming it."""
    aliases = shared_names(model)
    expected = model.state_dict()
    owner: dict[int, int] = {}  # storage -> the stored tensor that takes it
    loaded = {key: _owned(value, expected[key].dtype, owner, take) for key, value in state.items()
              if key not in aliases}
    loaded.update({alias: loaded[name] for alias, name in aliases.items()})  # tied again below
    model.load_state_dict(loaded, assign=True)
    for alias, name in aliases.items():
        parent, _, leaf = alias.rpartition(".")
        module = model.get_submodule(parent)
        tied = isinstance(getattr(module, leaf), nn.Parameter)
        setattr(module, leaf, model.get_parameter(name) if tied else model.get_buffer(name))
    left = [name for name, t in [*model.named_parameters(), *model.named_buffers()] if t.is_meta]
    if left:
        raise CheckpointMismatchError(f"{str(source)!r} left {len(left)} tensor(s) of the model unloaded: "
                                      f"{left[:10]}; expected a value for each")


@contextmanager
def loading(what: str) -> Iterator[None]:
    """For the scripts: a model that fails to load (a foreign, corrupt, missing or mismatched checkpoint)
    exits with one line, `what` (the flag and its value) then the error's lines joined, and no traceback."""
    try:
        yield
    except (CheckpointError, FileNotFoundError, ValueError, TypeError) as error:
        lines = [line.strip() for line in str(error).splitlines() if line.strip()]
        raise SystemExit(f"{what}: {'; '.join(lines)}") from None
