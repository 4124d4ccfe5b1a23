"""Packed token files for language-model training, read through np.memmap.

`tokenize_to_file` writes one flat array of token ids (every document followed
by the end-of-text id, as nanoGPT's prepare scripts do) plus a JSON sidecar
`<file>.json` with its dtype, length and vocabulary size. `PackedLMDataset`
maps the file and cuts it into non-overlapping blocks: example i is

    input_ids = ids[start + i*T     : start + i*T + T]
    labels    = ids[start + i*T + 1 : start + i*T + T + 1]

so consecutive blocks share one boundary token and a file of L tokens gives
(L - 1) // T examples. Documents run across block edges (packing); the eos
separators tell the model where one ends.

Checked by tests/data/test_lm_dataset.py against the tokenizer's own encoding
of each document.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import torch

from data.text import read_documents

PathLike = str | os.PathLike
FORMAT = "zoo-packed-tokens-v1"
_BATCH_DOCS = 256   # documents per encode_batch call: parallel in Rust, bounded memory


def sidecar_path(path: PathLike) -> Path:
    path = Path(path)
    return path.with_name(path.name + ".json")


def _separator_id(tokenizer: Any) -> int:
    # GPT-style tokenizers have an eos; a BERT vocab only has [SEP].
    for name in ("eos_id", "sep_id"):
        value = getattr(tokenizer, name, None)
        if value is not None:
            return int(value)
    raise ValueError("tokenizer has neither eos_id nor sep_id: cannot separate documents")


def _pick_dtype(vocab_size: int, dtype: Any) -> np.dtype:
    if dtype is None:
        dtype = np.uint16 if vocab_size <= 2**16 else np.uint32
    dtype = np.dtype(dtype)
    if dtype.kind != "u" or vocab_size - 1 > np.iinfo(dtype).max:
        raise ValueError(f"dtype {dtype} cannot hold token ids up to {vocab_size - 1}; "
                         "expected an unsigned integer type such as uint16 or uint32")
    return dtype


def _batches(texts: Iterable[str]) -> Iterator[list[str]]:
    batch: list[str] = []
    for text in texts:
        batch.append(text)
        if len(batch) == _BATCH_DOCS:
            yield batch
            batch = []
    if batch:
        yield batch


def tokenize_to_file(texts_or_path: PathLike | Iterable[str], tokenizer: Any, out_path: PathLike,
                     dtype: Any = None) -> dict:
    """Tokenize documents into a flat id file; returns the sidecar's metadata.

    texts_or_path: a text file path (documents = blank-line-separated blocks,
    see data.text.read_documents) or an iterable of document strings.
    tokenizer: anything with encode_batch(texts, add_special_tokens=False),
    vocab_size and eos_id (or sep_id), e.g. data.tokenization.Tokenizer.
    The file is written to a temporary name and renamed, so an interrupted
    run never leaves a truncated file that looks complete.
    """
    texts = read_documents(texts_or_path) if isinstance(texts_or_path, (str, os.PathLike)) else texts_or_path
    vocab_size = int(tokenizer.vocab_size)
    dtype = _pick_dtype(vocab_size, dtype)
    sep = _separator_id(tokenizer)
    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_path.with_name(out_path.name + ".tmp")
    count = docs = 0
    with open(tmp, "wb") as f:
        for batch in _batches(texts):
            for ids in tokenizer.encode_batch(batch, add_special_tokens=False):
                arr = np.asarray(list(ids) + [sep], dtype=np.int64)
                if arr.min() < 0 or arr.max() >= vocab_size:
                    raise ValueError(f"token id {int(arr.max())} outside the vocabulary (size {vocab_size})")
                arr.astype(dtype).tofile(f)
                count += arr.size
                docs += 1
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, out_path)
    meta = {"format": FORMAT, "dtype": dtype.name, "count": count, "vocab_size": vocab_size,
            "eos_id": sep, "num_documents": docs}
    sidecar_path(out_path).write_text(json.dumps(meta, indent=2) + "\n")
    return meta


def read_meta(path: PathLike) -> dict:
    """The sidecar of a token file, checked against the file's size."""
    path, side = Path(path), sidecar_path(path)
    if not path.is_file():
        raise FileNotFoundError(f"token file {str(path)!r} does not exist (write it with tokenize_to_file)")
    if not side.is_file():
        raise FileNotFoundError(f"token file {str(path)!r} has no sidecar {side.name!r} "
                                "(expected the JSON written by tokenize_to_file)")
    meta = json.loads(side.read_text())
    expected = meta["count"] * np.dtype(meta["dtype"]).itemsize
    actual = path.stat().st_size
    if actual != expected:
        raise ValueError(f"token file {str(path)!r} is truncated or corrupt: {actual} bytes, expected "
                         f"{expected} ({meta['count']} tokens of {meta['dtype']})")
    return meta


class PackedLMDataset(torch.utils.data.Dataset):
    """Blocks of block_size tokens (inputs) and their next tokens (labels) from
    the token range [start, stop) of a packed file; the file stays on disk."""

    def __init__(self, path: PathLike, block_size: int, start: int = 0, stop: int | None = None):
        self.path = Path(path)
        self.meta = read_meta(self.path)
        count = int(self.meta["count"])
        stop = count if stop is None else stop
        if block_size < 1:
            raise ValueError(f"block_size must be >= 1, got {block_size}")
        if not 0 <= start < stop <= count:
            raise ValueError(f"need 0 <= start < stop <= {count} (tokens in {self.path.name}), "
                             f"got start={start}, stop={stop}")
        self.block_size, self.start, self.stop = block_size, start, stop
        self.vocab_size = int(self.meta["vocab_size"])
        self._length = (stop - start - 1) // block_size
        if self._length == 0:
            raise ValueError(f"{self.path.name}[{start}:{stop}] has {stop - start} tokens, fewer than one "
                             f"block of block_size + 1 = {block_size + 1}")
        self._tokens: np.memmap | None = None

    @property
    def tokens(self) -> np.memmap:
        # Opened lazily and dropped from pickles (see __getstate__), so each
        # DataLoader worker or DDP process maps the file itself instead of
        # receiving a copy of it.
        if self._tokens is None:
            self._tokens = np.memmap(self.path, dtype=np.dtype(self.meta["dtype"]), mode="r")
        return self._tokens

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state["_tokens"] = None
        return state

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, i: int) -> dict[str, torch.Tensor]:
        if i < 0:
            i += self._length
        if not 0 <= i < self._length:
            raise IndexError(f"block {i} out of range for {self._length} blocks")
        lo = self.start + i * self.block_size
        chunk = torch.from_numpy(self.tokens[lo: lo + self.block_size + 1].astype(np.int64))  # (T+1,)
        return {"input_ids": chunk[:-1], "labels": chunk[1:]}

    def __repr__(self) -> str:
        return (f"PackedLMDataset({self.path.name!r}, block_size={self.block_size}, "
                f"tokens=[{self.start}:{self.stop}], blocks={self._length})")


def train_val_split(path: PathLike, block_size: int, val_fraction: float = 0.1
                    ) -> tuple[PackedLMDataset, PackedLMDataset]:
    """Train on the head of the file and validate on its last val_fraction of tokens."""
    if not 0.0 < val_fraction < 1.0:
        raise ValueError(f"val_fraction must be in (0, 1), got {val_fraction}")
    count = int(read_meta(path)["count"])
    boundary = count - int(round(count * val_fraction))
    return (PackedLMDataset(path, block_size, 0, boundary),
            PackedLMDataset(path, block_size, boundary, count))


class SpecialWrapped(torch.utils.data.Dataset):
    """BERT pre-training sequences: [CLS] + a block of the packed file + [SEP], as id lists.

    Wraps a PackedLMDataset built with block_size = max_length - 2; MLMCollator
    then pads and masks them.
    """

    def __init__(self, blocks: PackedLMDataset, cls_id: int, sep_id: int):
        self.blocks, self.cls_id, self.sep_id = blocks, int(cls_id), int(sep_id)

    def __len__(self) -> int:
        return len(self.blocks)

    def __getitem__(self, i: int) -> list[int]:
        return [self.cls_id, *self.blocks[i]["input_ids"].tolist(), self.sep_id]
