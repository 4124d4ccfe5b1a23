"""What a run's derived files were made from, so that a reused output folder never trains on other data.

A script derives files from its inputs once and reuses them on later runs into the same folder (train_text's
`tokens.bin` and `tokenizer/`, train_multimodal's `tokenizer/`). Each gets a record beside it,
`<name>.source.json`: a fingerprint of the input data (size, modification time and SHA-256 of its content;
the hash is recomputed only when size or time changed) and the settings it was made with (a tokenizer's kind
and vocabulary size; for token ids, the tokenizer's own hash). `reusable` compares the record with what this
run asks for: a fresh run rebuilds what differs, a resumed run refuses (its checkpoint was trained on the
old files), naming what changed. A file made before records existed is reused by a resumed run and rebuilt
by a fresh one.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zoo.io import atomic_write_text
from zoo.training.run_dir import RunDirError

PathLike = str | os.PathLike[str]


def record_path(target: PathLike) -> Path:
    target = Path(target)
    return target.with_name(target.name + ".source.json")


def _files(path: Path) -> list[Path]:
    return [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())


@functools.lru_cache(maxsize=16)
def _sha256(path: str, size: int, mtime_ns: int) -> str:
    """The content hash of a file or folder (names and contents); cached on (path, size, time)."""
    digest = hashlib.sha256()
    root = Path(path)
    for file in _files(root):
        digest.update(str(file.relative_to(root)).encode() + b"\0")
        with open(file, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def _stat(path: Path) -> tuple[int, int]:
    stats = [f.stat() for f in _files(path)]
    return sum(s.st_size for s in stats), max((s.st_mtime_ns for s in stats), default=0)


def fingerprint(path: PathLike) -> dict[str, Any]:
    """{"path", "bytes", "mtime_ns", "sha256"} of a data file or folder."""
    path = Path(path).resolve()
    size, mtime_ns = _stat(path)
    return {"path": str(path), "bytes": size, "mtime_ns": mtime_ns, "sha256": _sha256(str(path), size, mtime_ns)}


def same_data(recorded: dict[str, Any], path: PathLike) -> bool:
    """Whether `path` holds the content `recorded` (a fingerprint) describes; it may have moved or been touched."""
    path = Path(path).resolve()
    size, mtime_ns = _stat(path)
    if size != recorded.get("bytes"):
        return False
    if mtime_ns == recorded.get("mtime_ns") and str(path) == recorded.get("path"):
        return True
    return _sha256(str(path), size, mtime_ns) == recorded.get("sha256")


def describe(recorded: dict[str, Any]) -> str:
    return f"{recorded.get('path')!r} ({recorded.get('bytes')} bytes, sha256 {str(recorded.get('sha256'))[:12]})"


def reusable(target: PathLike, data: PathLike | None, settings: dict[str, Any], *, resume: bool) -> bool:
    """Whether `target` exists and was made from `data` with `settings` (JSON values). A resumed run gets a
    RunDirError instead of False where the record says otherwise."""
    target = Path(target)
    if not target.exists():
        return False
    record = record_path(target)
    if not record.is_file():
        return resume
    try:
        made = json.loads(record.read_text(encoding="utf-8"))
    except ValueError:  # torn: as if there were none
        return resume
    changes = [f"{key} was {made['settings'].get(key)!r}, now {value!r}" for key, value in settings.items()
               if made.get("settings", {}).get(key) != value]
    if data is not None and (made.get("data") is None or not same_data(made["data"], data)):
        before = describe(made["data"]) if made.get("data") else "unrecorded"
        changes.insert(0, f"data was {before}, now {describe(fingerprint(data))}")
    if changes and resume:
        raise RunDirError(f"{str(target)!r} was made from other inputs than this run's: {'; '.join(changes)}")
    return not changes


def remake(target: PathLike, data: PathLike | None, settings: dict[str, Any], write: Callable[[], Any]) -> None:
    """Make `target` afresh with `write()` and record what it was made from. The old record goes first and
    the new one comes last, so a crash in between leaves a target without a record (rebuilt by the next
    fresh run), never a record that describes other content."""
    target = Path(target)
    record_path(target).unlink(missing_ok=True)
    if target.is_dir():
        shutil.rmtree(target)  # nothing of the old one stays (a vocab.txt beside a new tokenizer.json)
    write()
    made = {"data": fingerprint(data) if data is not None else None, "settings": settings}
    atomic_write_text(record_path(target), json.dumps(made, indent=2) + "\n")
