"""Side-by-side timing: calls of two (or more) sides alternated ABBA, their medians, the speed-up as
the median over pairs, and how much of a side's time its GEMMs take (the Amdahl ceiling).

    times = interleaved({"ours": f, "ref": g}, warmup=2, repeats=10)
    row = summarize(times, work=batch * seq)     # medians, and ours' speed-up as the median over pairs
"""
from __future__ import annotations

import statistics
import time
import warnings
from collections.abc import Callable
from contextlib import nullcontext

import torch

from bench.workers import Remote

DTYPES = {"fp32": None, "bf16": torch.bfloat16}


def autocast(dtype: str, device: str = "cpu"):
    """torch.autocast on `device`'s type for "bf16", nothing for "fp32"."""
    if dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {list(DTYPES)}, got {dtype!r}")
    return torch.autocast(torch.device(device).type, dtype=DTYPES[dtype]) if DTYPES[dtype] else nullcontext()


def synchronized(fn: Callable[[], object], device: str) -> Callable[[], object]:
    """fn, then wait for the device's queued kernels (CUDA runs asynchronously: the clock must see them)."""
    if torch.device(device).type != "cuda":
        return fn

    def call():
        out = fn()
        torch.cuda.synchronize()
        return out
    return call


def peak_bytes(fn: Callable[[], object], device: str) -> int | None:
    """Bytes one call of fn allocated at its peak above what was allocated before it (CUDA's allocator;
    None on other devices)."""
    if torch.device(device).type != "cuda":
        return None
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    fn()
    torch.cuda.synchronize()
    return torch.cuda.max_memory_allocated() - base


def timed(fn: Callable[[], object]) -> tuple[object, float]:
    """fn() and its seconds: measured here, or for a side in a worker process (bench.workers.Remote) there,
    around the call alone."""
    if isinstance(fn, Remote):
        return fn.timed()
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def interleaved(fns: dict[str, Callable[[], object]], warmup: int, repeats: int) -> dict[str, list[float]]:
    """Seconds per call for each fn (`timed`), alternating ABBA so neither side always runs first. On a GPU,
    wrap each fn in `synchronized` first."""
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    times: dict[str, list[float]] = {name: [] for name in fns}
    names = list(fns)
    for r in range(repeats):
        for name in names if r % 2 == 0 else names[::-1]:
            times[name].append(timed(fns[name])[1])
    return times


def summarize(times: dict[str, list[float]], work: int, ours: str = "ours", ref: str = "ref") -> dict:
    """Medians of two sides of an interleaved run (`work` units per call, e.g. tokens) and the speed-up of
    side `ours` over side `ref` as the median over interleaved pairs, with its interquartile range
    (robust to load that drifts). The keys say ours/ref whichever two sides were named."""
    ours_s, ref_s = statistics.median(times[ours]), statistics.median(times[ref])
    pairs = [r / o for o, r in zip(times[ours], times[ref])]  # ours' speed-up in each pair
    q = statistics.quantiles(pairs, n=4, method="inclusive") if len(pairs) > 1 else pairs * 3
    return {"ours_s": ours_s, "ref_s": ref_s, "ours_tok_s": work / ours_s, "ref_tok_s": work / ref_s,
            "ratio": q[1], "pair_ratio_iqr": [q[0], q[2]], "times": {ours: times[ours], ref: times[ref]}}


# The ops that carry a Transformer's arithmetic on CPU: GEMMs, attention kernels, convolutions.
MATMUL_OPS = frozenset({
    "aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::_addmm_activation",
    "aten::_scaled_dot_product_flash_attention_for_cpu", "aten::_scaled_dot_product_flash_attention_for_cpu_backward",
    "aten::mkldnn_convolution", "aten::convolution_backward",
})


def matmul_seconds(fn: Callable[[], object], repeats: int = 3) -> float:
    """Seconds per call that `fn` spends inside MATMUL_OPS (torch.profiler, self CPU time).

    An implementation that runs the same GEMMs cannot take less time than this, so for a
    reference measured at `ref_s` per call, ref_s / matmul_seconds(ref) bounds the speed-up
    anything can have over it (Amdahl): the "ceiling" column of the benchmark tables.
    """
    from torch.profiler import ProfilerActivity, profile

    fn()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Profiler clears events at the end of each cycle": one cycle here
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            for _ in range(repeats):
                fn()
    micros = sum(e.self_cpu_time_total for e in prof.key_averages() if e.key in MATMUL_OPS)
    return micros / 1e6 / repeats


def ceiling(times: dict[str, list[float]], ref_fn: Callable[[], object]) -> dict:
    """The most any implementation of the reference's GEMMs could gain over it: its median time / the
    time it spends in those GEMMs (matmul_seconds). A target above this cannot be met by writing the
    same model better; only by doing less arithmetic or using faster kernels."""
    ref_matmul_s = matmul_seconds(ref_fn)
    return {"ref_matmul_s": ref_matmul_s, "ceiling": statistics.median(times["ref"]) / ref_matmul_s}
