"""This machine's ceilings, measured at torch's thread count: how fast it multiplies matrices and how
fast it streams memory. The other tables read against these: a prefill cannot multiply faster than the
matmul rows, and batch-1 decoding, which reads every weight once per token, cannot stream its weights
faster than the matvec rows.

    result = ceilings.run()          # {"probes": {name: {median, iqr, size, unit, ...}}, "skipped": ...}
    print(ceilings.tables(result))   # Markdown: one row per probe

The probes (FULL sizes; QUICK is a smoke test of the same code):

- matmul fp32 / bf16: torch.mm of two (n, n) matrices, 2 n^3 FLOP per call, at n = 2048 and 4096.
  Both are compute bound (fp32 gains little past 2048); two sizes because bf16's figure depends on the
  size unpredictably: on the shared 2-core AMX VM this was written on, oneDNN's AMX kernel ran 2048
  between 0.5x and 3x as fast as 4096 from one run to the next, so one size could report either.
  bf16 is torch's own bf16 kernel (oneDNN, on AMX tiles where the CPU has them).
- copy: copy_ between two 1 GiB fp32 buffers, counted as read + write (2 GiB per call).
- read: a sum over the 1 GiB source buffer.
- matvec fp32 / bf16, torch.mv and zoo::gemv (backbones/inference/gemv.py, where it builds and runs
  the dtype): one 1 GiB (side, side) matrix times a vector, counted as the matrix's bytes.

1 GiB is well past the largest cache Linux reports (on a VM, the host's L3, shared with other guests),
so every call streams from memory. Each group (matmuls, then streams) is timed interleaved (ABBA), after
a warm-up; the matmuls apart from the streams, which would flush their operands from the caches.
A figure is the median over the repeats of work / seconds per call, its spread the interquartile range.
"""
from __future__ import annotations

import gc
import math
import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import NamedTuple

import torch

from backbones.inference import gemv
from bench.machine import last_level_cache_bytes
from bench.report import table
from bench.timing import interleaved

DTYPE_NAMES = {torch.float32: "fp32", torch.bfloat16: "bf16"}


@dataclass(frozen=True)
class Sizes:
    gemm: tuple[int, ...]  # n of the (n, n) @ (n, n) products
    buffer_mb: int         # MiB per bandwidth buffer (and per matvec matrix)
    warmup: int            # untimed calls of each probe
    repeats: int           # timed calls of each probe


FULL = Sizes(gemm=(2048, 4096), buffer_mb=1024, warmup=1, repeats=10)
QUICK = Sizes(gemm=(256,), buffer_mb=16, warmup=1, repeats=2)  # in cache: checks the code, measures no ceiling


class Probe(NamedTuple):
    fn: Callable[[], object]
    work: int    # FLOP or bytes per call
    unit: str    # "GFLOP/s" or "GB/s"
    size: str    # what one call works on, for the table


def bandwidth_probes(megabytes: int) -> dict:
    """{name: (fn, bytes moved per call)}: copy_ (read + write), a read-only sum, and a matrix-vector
    product (batch-1 decoding's pattern: every weight read once, streamed), on fp32 buffers of
    `megabytes` MiB (the matrix is a view of the source)."""
    n = megabytes * 2**20 // 4
    src, dst = torch.rand(n), torch.empty(n)
    side = int(n ** 0.5)
    matrix, vector = src[:side * side].view(side, side), torch.rand(side)
    return {"copy": (lambda: dst.copy_(src), 2 * n * 4), "read": (lambda: src.sum(), n * 4),
            "matvec": (lambda: torch.mv(matrix, vector), side * side * 4)}


def matmul_probes(sizes: tuple[int, ...]) -> dict[str, Probe]:
    """torch.mm of two (n, n) matrices in fp32 and in bf16, for each n in sizes."""
    probes = {}
    for dtype, name in DTYPE_NAMES.items():
        for n in sizes:
            a, b = torch.rand(n, n, dtype=dtype), torch.rand(n, n, dtype=dtype)
            probes[f"matmul {name} n={n}"] = Probe(lambda a=a, b=b: torch.mm(a, b), 2 * n**3, "GFLOP/s",
                                                   f"{n}x{n} @ {n}x{n}")
    return probes


def matvec_probes(megabytes: int, dtype: torch.dtype) -> tuple[dict[str, Probe], dict[str, str]]:
    """torch.mv and zoo::gemv on one (side, side) matrix of `megabytes` MiB in `dtype`, and
    {probe: why it was not measured} for zoo::gemv where it does not run `dtype` here."""
    itemsize = torch.empty((), dtype=dtype).element_size()
    side = math.isqrt(megabytes * 2**20 // itemsize)
    matrix, vector = torch.rand(side, side, dtype=dtype), torch.rand(side, dtype=dtype)
    nbytes, name = side * side * itemsize, DTYPE_NAMES[dtype]
    size = f"{side}x{side} {name} ({nbytes / 2**20:.0f} MiB)"
    probes = {f"matvec {name} torch.mv": Probe(lambda: torch.mv(matrix, vector), nbytes, "GB/s", size)}
    if not gemv.available(dtype):
        return probes, {f"matvec {name} zoo::gemv": gemv.reason(dtype) or "unavailable"}
    row = vector[None]  # (1, side): one row, as batch-1 decoding's linear layers see it
    probes[f"matvec {name} zoo::gemv"] = Probe(lambda: gemv.linear(row, matrix, None), nbytes, "GB/s", size)
    return probes, {}


def stream_probes(megabytes: int) -> tuple[dict[str, Probe], dict[str, str]]:
    """copy and read (bandwidth_probes), and the matvec probes in fp32 and bf16; the skipped ones, why."""
    size = f"{megabytes} MiB fp32"
    copy = bandwidth_probes(megabytes)
    probes = {"copy": Probe(*copy["copy"], "GB/s", f"{size} -> {size}"), "read": Probe(*copy["read"], "GB/s", size)}
    skipped = {}
    for dtype in DTYPE_NAMES:
        more, why = matvec_probes(megabytes, dtype)
        probes.update(more)
        skipped.update(why)
    return probes, skipped


def figure(probe: Probe, seconds: list[float]) -> dict:
    """A probe's rates over its timed calls: median and interquartile range, in probe.unit."""
    rates = [probe.work / s / 1e9 for s in seconds]
    q = statistics.quantiles(rates, n=4, method="inclusive") if len(rates) > 1 else rates * 3
    return {"size": probe.size, "unit": probe.unit, "work": probe.work, "median": statistics.median(rates),
            "iqr": [q[0], q[2]], "seconds": seconds}


def timed(probes: dict[str, Probe], sizes: Sizes) -> dict[str, dict]:
    times = interleaved({name: p.fn for name, p in probes.items()}, sizes.warmup, sizes.repeats)
    return {name: figure(p, times[name]) for name, p in probes.items()}


@torch.no_grad()
def run(quick: bool = False) -> dict:
    """Every probe's figure ({name: {median, iqr, unit, size, work, seconds}}), the sizes used, torch's
    thread count, the largest cache reported, and {probe: why} for probes this machine cannot run."""
    sizes = QUICK if quick else FULL
    figures = timed(matmul_probes(sizes.gemm), sizes)
    gc.collect()  # the matmul operands, before the 4 GiB of stream buffers
    streams, skipped = stream_probes(sizes.buffer_mb)
    figures.update(timed(streams, sizes))
    del streams
    gc.collect()
    return {"sizes": asdict(sizes), "quick": quick, "threads": torch.get_num_threads(),
            "last_level_cache_bytes": last_level_cache_bytes(), "probes": figures, "skipped": skipped}


def cache_note(result: dict) -> str:
    """Whether the stream buffers were well past the largest cache: if not, the figures are partly the cache's."""
    llc, buffer_mb = result["last_level_cache_bytes"], result["sizes"]["buffer_mb"]
    if llc is None:
        return f"Buffers of {buffer_mb} MiB; Linux reports no cache size here."
    if buffer_mb * 2**20 > 2 * llc:
        return (f"Buffers of {buffer_mb} MiB, well past the largest cache Linux reports ({llc / 2**20:.0f} MiB; on a "
                "VM, the host's, shared): the stream figures are memory's.")
    return (f"Buffers of {buffer_mb} MiB, within reach of the largest cache Linux reports ({llc / 2**20:.0f} MiB): "
            "the stream figures are partly the cache's, not memory's.")


def tables(result: dict) -> str:
    """Markdown: a heading, how it was measured, one row per probe, and a line per probe not measured."""
    sizes = result["sizes"]
    lines = [f"\n### Machine ceilings (torch threads: {result['threads']})\n",
             f"Medians of {sizes['repeats']} calls after {sizes['warmup']} warm-up, interleaved within the matmul "
             "and within the stream probes; spread: interquartile range. Matmul: 2 n^3 FLOP per call; copy: "
             "bytes read + written; read and matvec: bytes read. " + cache_note(result), ""]
    rows = [[name, f["size"], f"**{f['median']:.1f}**", f"{f['iqr'][0]:.1f}-{f['iqr'][1]:.1f}", f["unit"]]
            for name, f in result["probes"].items()]
    lines.append(table(["probe", "shape/size", "median", "spread (IQR)", "unit"], rows))
    lines += [f"\nNot measured: {name} ({why})." for name, why in result["skipped"].items()]
    return "\n".join(lines)
