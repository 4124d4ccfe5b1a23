"""CTranslate2's `model.bin`, read with our own code (no ctranslate2 import).

The layout, as CTranslate2's `ModelSpec` writes it (little-endian):

    uint32 binary version (6)   string spec name ("WhisperSpec")   uint32 spec revision
    uint32 count, then per variable:
        string name   uint8 rank   rank x uint32 dims   uint8 dtype   uint32 byte count   raw bytes
    uint32 count, then per alias: string alias   string target

A string is a uint16 length (counting its NUL), the UTF-8 bytes and the NUL.
dtype ids: 0 float32, 1 int8, 2 int16, 3 int32, 4 float16, 5 bfloat16. An
int8-quantized weight `w` comes with `w_scale` (per output row, 127 / amax):
`dequantized` turns it back into floats. Aliases (tied weights) are resolved
to the same tensor.
"""
from __future__ import annotations

import math
import os
import struct
from dataclasses import dataclass
from typing import BinaryIO

import torch

from zoo.io import CorruptCheckpointError

SUPPORTED_BINARY_VERSIONS = range(1, 7)
DTYPES = {0: torch.float32, 1: torch.int8, 2: torch.int16, 3: torch.int32, 4: torch.float16, 5: torch.bfloat16}


@dataclass
class CT2File:
    """What a model.bin holds: the spec it was written for and its variables by name."""

    spec: str
    revision: int
    variables: dict[str, torch.Tensor]
    aliases: dict[str, str]

    def dequantized(self) -> dict[str, torch.Tensor]:
        """Every variable as stored, except int8 weights, which come back as float32 (`w / w_scale`)
        and lose their `_scale` entry; aliases appear under both names."""
        out = {}
        for name, value in self.variables.items():
            if name.endswith("_scale") and name[:-len("_scale")] in self.variables:
                continue
            scale = self.variables.get(name + "_scale")
            if scale is not None and value.dtype == torch.int8:
                rows = value.reshape(value.shape[0], -1).float() / scale.float().reshape(-1, 1)
                value = rows.reshape(value.shape)
            out[name] = value
        for alias, target in self.aliases.items():
            out[alias] = out[target]
        return out


class _Reader:
    def __init__(self, handle: BinaryIO, path: str, size: int):
        self.handle, self.path, self.size = handle, path, size

    def take(self, count: int, what: str) -> bytes:
        data = self.handle.read(count)
        if len(data) != count:
            raise CorruptCheckpointError(
                f"{self.path!r} is truncated: {what} needs {count} bytes at offset {self.handle.tell() - len(data)}, "
                f"the file has {self.size} bytes in all")
        return data

    def unpack(self, fmt: str, what: str) -> tuple:
        return struct.unpack("<" + fmt, self.take(struct.calcsize("<" + fmt), what))

    def string(self, what: str) -> str:
        (length,) = self.unpack("H", what)
        raw = self.take(length, what)
        if length == 0 or raw[-1] != 0:
            raise CorruptCheckpointError(f"{self.path!r}: {what} is not a NUL-terminated string at offset "
                                         f"{self.handle.tell() - length}: not a CTranslate2 model.bin")
        return raw[:-1].decode("utf-8", errors="replace")


def read_ct2_file(path: str | os.PathLike) -> CT2File:
    """Read a CTranslate2 model.bin; a truncated or foreign file raises CorruptCheckpointError naming
    the file, the variable being read and the offset."""
    path = os.fspath(path)
    with open(path, "rb") as handle:
        reader = _Reader(handle, path, os.fstat(handle.fileno()).st_size)
        (version,) = reader.unpack("I", "the binary version")
        if version not in SUPPORTED_BINARY_VERSIONS:
            raise CorruptCheckpointError(f"{path!r} has binary version {version}: expected a CTranslate2 model.bin "
                                         f"of version {SUPPORTED_BINARY_VERSIONS[0]}..{SUPPORTED_BINARY_VERSIONS[-1]}")
        spec, revision = "", 1
        if version >= 2:
            spec, revision = reader.string("the spec name"), reader.unpack("I", "the spec revision")[0]
        (count,) = reader.unpack("I", "the variable count")
        variables = {}
        for index in range(count):
            name = reader.string(f"the name of variable {index}")
            variables[name] = _variable(reader, name, version)
        aliases = {}
        if version >= 3:
            (count,) = reader.unpack("I", "the alias count")
            for index in range(count):
                alias, target = reader.string(f"alias {index}"), reader.string(f"the target of alias {index}")
                if target not in variables:
                    raise CorruptCheckpointError(f"{path!r}: alias {alias!r} points to {target!r}, "
                                                 "which is not a variable in the file")
                aliases[alias] = target
        if trailing := reader.size - handle.tell():
            raise CorruptCheckpointError(f"{path!r} has {trailing} bytes after its last alias: "
                                         "expected the file to end there (two files concatenated?)")
    return CT2File(spec, revision, variables, aliases)


def _variable(reader: _Reader, name: str, version: int) -> torch.Tensor:
    what = f"variable {name!r}"
    (rank,) = reader.unpack("B", what)
    shape = reader.unpack(f"{rank}I", what) if rank else ()
    if version >= 4:
        (dtype_id,) = reader.unpack("B", what)
        if dtype_id not in DTYPES:
            raise CorruptCheckpointError(f"{reader.path!r}: {what} has dtype id {dtype_id}: expected one of "
                                         f"{sorted(DTYPES)} ({', '.join(str(t) for t in DTYPES.values())})")
        dtype = DTYPES[dtype_id]
        (num_bytes,) = reader.unpack("I", what)
    else:  # versions 1-3 stored an item size and a count, float32 or int8 by size
        (item_size,) = reader.unpack("B", what)
        dtype = {4: torch.float32, 1: torch.int8, 2: torch.int16}.get(item_size)
        if dtype is None:
            raise CorruptCheckpointError(f"{reader.path!r}: {what} has item size {item_size}: expected 1, 2 or 4")
        num_bytes = item_size * reader.unpack("I", what)[0]
    expected = dtype.itemsize * math.prod(shape)
    if num_bytes != expected:
        raise CorruptCheckpointError(f"{reader.path!r}: {what} of shape {list(shape)} and {dtype} declares "
                                     f"{num_bytes} bytes, expected {expected}")
    data = bytearray(reader.take(num_bytes, what))
    return torch.frombuffer(data, dtype=dtype).reshape(shape) if num_bytes else torch.empty(shape, dtype=dtype)
