"""Peak memory of one call above what was allocated before it (CPU and CUDA), and the analytic peak of the
`math` attention backend, which stands in for a measurement where running it would not fit.

    peak_bytes(lambda: attend(q, k, v, backend="sdpa"), "cpu")   # bytes above q, k, v at the call's peak
    math_forward_bytes(batch=1, heads=4, length=16384, head_dim=64, dtype=torch.bfloat16, causal=True)

CPU: torch.profiler with profile_memory=True, which records every allocation and free that goes through
c10's CPU allocator (every tensor, oneDNN's tensors included) with its size and a nanosecond timestamp;
the peak is the maximum of the running sum of those sizes in time order. Chosen over the process's peak
resident memory (VmHWM) because that one counts what glibc keeps after a free (its heap grows past its
mmap threshold, and freed blocks stay resident: bench/scale.py has to pin the threshold and run each
measurement in a fresh process to get around it), counts pages only once touched, and resolves 4 KiB
pages of everything in the process; the profiler's sum is exact in bytes for tensors, needs no
subprocess, and ignores tensors that existed before the call (the inputs), since their frees were never
recorded. What it cannot see is memory that bypasses torch's allocator (a library's own malloc: OpenMP
stacks, oneDNN's primitive caches), a few MiB at most here, which is why it is exact to well under a
percent for tensors of MBs to GBs (tests/zoo/test_bench_attention.py: a 64 MiB tensor reads 64 MiB).
CUDA: the caching allocator's own peak counter (bench.timing.peak_bytes).
"""
from __future__ import annotations

import warnings
from collections.abc import Callable

import torch

from bench import timing

GIB = 2**30


def cpu_peak_bytes(fn: Callable[[], object]) -> int:
    """The most bytes that tensors allocated by one call of fn held at once (its result included)."""
    from torch.autograd import DeviceType
    from torch.profiler import ProfilerActivity, profile

    host = (DeviceType.CPU, DeviceType.MKLDNN, DeviceType.IDEEP)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
            fn()
    events = [e for e in prof.profiler.kineto_results.events() if e.name() == "[memory]" and e.device_type() in host]
    live = peak = 0
    for event in sorted(events, key=lambda e: e.start_ns()):  # stable: same-instant events keep their order
        live += event.nbytes()  # negative for a free
        peak = max(peak, live)
    return peak


def peak_bytes(fn: Callable[[], object], device: str) -> int | None:
    """Bytes one call of fn allocated at its peak above what was allocated before it: the profiler's
    allocation events on CPU, the allocator's peak on CUDA, None on other devices."""
    if torch.device(device).type == "cpu":
        return cpu_peak_bytes(fn)
    return timing.peak_bytes(fn, device)


def math_forward_bytes(batch: int, heads: int, length: int, head_dim: int, dtype: torch.dtype, causal: bool) -> int:
    """What attend(backend="math") holds at its peak in a forward without gradients, from the shape.

    Per score element (B, H, T, T), at the softmax: the scores in the inputs' dtype, and, below fp32,
    their fp32 copy and the fp32 softmax beside them (2 + 4 + 4 bytes in bf16); in fp32 the scores and
    the softmax (4 + 4). Causal adds the (T, T) boolean mask, one byte per query-key pair. Linear in T:
    the keys and values repeated to every query head (a copy even without GQA), and in fp32 the output,
    allocated while the scores and softmax are still held (below fp32 the peak comes before it).
    """
    size = torch.finfo(dtype).bits // 8
    per_score = size + 8 if size < 4 else 2 * size
    per_row = head_dim * size * (2 if size < 4 else 3)
    return batch * length * (length * (heads * per_score + (1 if causal else 0)) + heads * per_row)
