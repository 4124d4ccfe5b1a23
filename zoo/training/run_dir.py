"""The output folder of a training run (TrainConfig.out, the scripts' --out): its files, one run at a time.

What a run writes there (rank 0): `checkpoint.pt` (a sharded run: `checkpoint.dcp/`), the ones keep_last
keeps (`checkpoint-<step>.pt`), `metrics.jsonl`, `loss.png`, `train_config.json`; the scripts add their
results (`summary.json`, `model/`) and what they derive from their inputs (`tokens.bin`, `tokenizer/`,
checked by zoo/training/provenance.py).

Nothing of one run may be mixed with another's:
- `hold(out)` takes `run.lock` (the holder's pid, host and start time) under an exclusive flock for the
  whole run. A second run refuses, naming the holder. The kernel drops the flock of a process that dies
  (kill -9 included), so a lock file left behind is stale by construction and the next run takes it over.
  Held again by the same process (the CLI holds it, then `train` does), it is the same lock. Rank 0 takes
  it under DDP (the other ranks write nothing here).
- an earlier run's folder is continued (resume) or replaced (overwrite, which deletes its checkpoints,
  metrics and results first), never written over by default: `earlier_run` lists what is there.
"""
from __future__ import annotations

import errno
import json
import os
import shutil
import socket
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import torch.distributed as dist

from zoo.io import OutputFolderError, atomic_write_text, output_folder
from zoo.training.config import TrainConfig
from zoo.training.distributed import DistContext
from zoo.training.sharded import SHARDED_NAME

try:
    import fcntl
except ImportError:  # not POSIX: the lock falls back on the pid it names
    fcntl = None

CHECKPOINT_NAME = "checkpoint.pt"
METRICS_NAME = "metrics.jsonl"
PLOT_NAME = "loss.png"
CONFIG_NAME = "train_config.json"
LOCK_NAME = "run.lock"
# The training state of a run (the engine's), then the results the scripts write at its end.
TRAINING_STATE = (CHECKPOINT_NAME, "checkpoint.dcp", "checkpoint-[0-9]*.pt", "checkpoint-[0-9]*.dcp", METRICS_NAME,
                  PLOT_NAME)
RESULTS = ("summary.json", "model", "model-hf")


class RunDirError(ValueError):
    """The output folder cannot be used as asked: a file, another run's, an earlier run's without resume or
    overwrite, or derived files made from other inputs than a resumed run's."""


def previous_checkpoints(out: Path) -> list[Path]:
    """The checkpoint-<step>.pt files (.dcp/ directories, sharded) keep_last left in `out`, oldest first."""
    return sorted([*out.glob("checkpoint-[0-9]*.pt"), *out.glob("checkpoint-[0-9]*.dcp")], key=lambda p: p.stem)


def make_folder(out: str | os.PathLike[str]) -> Path:
    """`out` as a folder, created where missing; a RunDirError where it is a file or cannot be made or written."""
    try:
        return output_folder(out)
    except OutputFolderError as error:
        raise RunDirError(f"the run's output folder {error}") from None


def earlier_run(out: Path, patterns: tuple[str, ...] | None = None) -> list[str]:
    """The names in `out` matching `patterns` (None: anything but the lock), sorted: an earlier run's files."""
    if not out.is_dir():
        return []
    if patterns is None:
        return sorted(p.name for p in out.iterdir() if p.name != LOCK_NAME)
    return sorted({p.name for pattern in patterns for p in out.glob(pattern)})


def clear_earlier_run(out: Path, patterns: tuple[str, ...] = TRAINING_STATE + RESULTS) -> None:
    """Delete an earlier run's training state and results (overwrite), before this run writes any of its own."""
    for name in earlier_run(out, patterns):
        path = out / name
        shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)


def keep_previous(ckpt_path: Path, saved_step: int, keep_last: int, sharded: bool, is_main: bool) -> Path | None:
    """keep_last > 1: the checkpoint about to be replaced (this trajectory's last save, at `saved_step`) stays
    as checkpoint-<step>.pt, a hard link made before the write (no copy), or for a sharded one as
    checkpoint-<step>.dcp/, which save_sharded renames it to (returned). Rank 0 acts."""
    if keep_last <= 1 or saved_step < 0 or not ckpt_path.exists():
        return None
    kept = ckpt_path.with_name(f"checkpoint-{saved_step:08d}{ckpt_path.suffix}")
    if is_main:
        if sharded and kept.exists():  # left by an earlier trajectory through this step
            shutil.rmtree(kept)
        if not sharded and not kept.exists():
            try:
                os.link(ckpt_path, kept)
            except OSError:  # a filesystem without hard links
                shutil.copyfile(ckpt_path, kept)
    return kept


def prune_kept(out: Path, kept: Path | None, keep_last: int, is_main: bool) -> None:
    """After a successful write only (a failed one must not cost the older checkpoints): besides `kept`, the
    keep_last - 2 newest kept checkpoints stay, so keep_last in all with the new one. Rank 0 acts."""
    if kept is None or not is_main:
        return
    older = [p for p in previous_checkpoints(out) if p != kept]
    for old in older[:max(len(older) - (keep_last - 2), 0)]:
        shutil.rmtree(old) if old.is_dir() else old.unlink(missing_ok=True)


def start_training(out: Path, config: TrainConfig, ctx: DistContext) -> None:
    """The engine's start in `out`: an earlier run's training state is refused unless config.resume continues it
    or config.overwrite replaces it (deleted first); then rank 0 writes train_config.json and removes what a
    crash left halfway through a checkpoint write."""
    earlier = earlier_run(out, TRAINING_STATE)  # every rank looks, so that all of them stop alike
    if earlier and not config.resume and not config.overwrite:
        raise RunDirError(f"{str(out)!r} holds an earlier run ({', '.join(earlier)}): continue it with resume=True "
                          "(--resume) or replace it with overwrite=True (--overwrite)")
    if ctx.is_distributed:
        dist.barrier()  # every rank has looked before rank 0 writes
    if not ctx.is_main:
        return
    if config.overwrite and not config.resume:
        clear_earlier_run(out, TRAINING_STATE)
    atomic_write_text(out / CONFIG_NAME, json.dumps(config.to_dict(), indent=2) + "\n")
    for torn in out.glob(f".{CHECKPOINT_NAME}.*.tmp"):  # a write killed midway (zoo.io.atomic_write)
        torn.unlink(missing_ok=True)
    swapped = out / f"{SHARDED_NAME}.old"  # save_sharded killed between its two renames: the previous one
    if swapped.is_dir() and not (out / SHARDED_NAME).exists():
        swapped.rename(out / SHARDED_NAME)


# --------------------------------------------------------------------------- the lock

_held: dict[Path, list] = {}  # folder (resolved) -> [lock file descriptor, depth]; this process's locks


@contextmanager
def hold(out: str | os.PathLike[str], enabled: bool = True) -> Iterator[None]:
    """Hold `out`'s lock for the block (a RunDirError if another live run holds it); `enabled=False`
    (ranks > 0) holds nothing."""
    if not enabled:
        yield
        return
    folder = make_folder(out).resolve()
    if folder in _held:
        _held[folder][1] += 1
    else:
        _held[folder] = [_acquire(folder / LOCK_NAME), 1]
    try:
        yield
    finally:
        _held[folder][1] -= 1
        if not _held[folder][1]:
            fd = _held.pop(folder)[0]
            try:
                (folder / LOCK_NAME).unlink(missing_ok=True)  # while still locked: see _acquire
            finally:
                os.close(fd)


def _acquire(path: Path) -> int:
    """An open, exclusively flocked `path` naming this process; raises RunDirError for a live holder."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            locked = _try_flock(fd, path)
            if locked:
                # A holder that released (and unlinked) the file while this one waited leaves us the lock of a
                # file no longer in the folder: lock the one that is.
                if os.path.exists(path) and os.path.samestat(os.fstat(fd), os.stat(path)):
                    break
            else:  # no flock on this filesystem: the pid in the file decides
                holder = _read(fd)
                if holder and _alive(holder):
                    raise RunDirError(_in_use(path, holder))
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    stale = _read(fd)
    if stale and stale.get("pid") != os.getpid():
        warnings.warn(f"{str(path)!r}: taking over the lock of a run that is gone ({_who(stale)})", stacklevel=4)
    record = json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "started": time.time()}).encode()
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, record + b"\n", 0)
        os.fsync(fd)
    except OSError as error:  # a full disk: the flock alone still holds the folder, the content only informs
        warnings.warn(f"{str(path)!r}: could not write the holder's pid ({error.strerror}); the folder is locked "
                      "all the same", stacklevel=4)
    return fd


def _try_flock(fd: int, path: Path) -> bool:
    """True when this process now holds the flock; False where the filesystem has no flock. A live holder
    is a RunDirError naming it."""
    if fcntl is None:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        raise RunDirError(_in_use(path, _read(fd))) from None
    except OSError as error:
        if error.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL):  # NFS without a lock daemon
            return False
        raise


def _read(fd: int) -> dict | None:
    try:
        holder = json.loads(os.pread(fd, 4096, 0) or b"null")
    except ValueError:  # torn by a crash or a full disk while it was written
        return None
    return holder if isinstance(holder, dict) else None


def _alive(holder: dict) -> bool:
    """Whether the holder named in a lock file may still run (another host's: assume so)."""
    if holder.get("host") != socket.gethostname():
        return True
    pid = holder.get("pid")
    if not isinstance(pid, int) or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def _who(holder: dict | None) -> str:
    if not holder:
        return "its pid is unknown"
    started = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(holder.get("started", 0)))
    return f"pid {holder.get('pid')} on {holder.get('host')}, started {started}"


def _in_use(path: Path, holder: dict | None) -> str:
    return (f"{str(path.parent)!r} is in use by another training run ({_who(holder)}; lock {path.name}); wait for "
            "it to end, or choose another output folder")
