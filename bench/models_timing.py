"""The model table's timed rows for one preset at one shape (models_cases.Case): forward and training step,
every attention backend that can run, ours (and ours packed) against the reference, interleaved.

    rows = forward_rows("gpt2", case, packed, config, peaks) + train_rows("gpt2", case, config, peaks)

Forward: torch.inference_mode; "fp32", "bf16" (torch.autocast) and "bf16_packed" (autocast on a copy after
zoo.pack_for_inference) are timed in ONE interleaved run per autocast dtype and region with the reference;
every side's output is checked against the reference's (without one, against ours on the math backend)
first. bf16 runs either with an autocast region per call (the weight casts are part of every call) or with
one region around the whole run (autocast caches the casts of the weights after the first call).
Training step: forward + cross-entropy + backward + fused AdamW, an autocast region per step (one region
around several steps would reuse casts the optimizer step has made stale); each dtype on fresh copies of
both sides, whose first losses are checked equal.

Peak memory: what one call allocates at its peak above what was allocated before it, measured after the
timed calls (packed copies and cached casts already exist): on CUDA the caching allocator's peak
(timing.peak_bytes); on the CPU the running sum of torch.profiler's memory events (profile_memory=True)
over one call (a training step: the second of two, cpu_peak_bytes says why): every tensor the CPU
allocator hands out and takes back during the call, in order; scratch space that oneDNN or MKL allocate
for themselves is not in it.
"""
from __future__ import annotations

import copy
import statistics
import warnings
from contextlib import nullcontext

import torch

from backbones import set_attention_backend
from backbones.attention import BACKENDS, available_backends
from bench.models_cases import Case, cross_entropy
from bench.references import check_close
from bench.timing import autocast, interleaved, peak_bytes, summarize, synchronized

AUTOCAST = {"fp32": "fp32", "bf16": "bf16", "bf16_packed": "bf16"}  # table dtype -> autocast dtype
REGIONS = ("per call", "one region")
MEASURED = "bench.models: measured call"  # the profiler range cpu_peak_bytes reads


def cpu_peak_bytes(fn, calls: int = 2) -> int:
    """Peak bytes the CPU allocator held during one call of fn above what it held before the call
    (torch.profiler's memory events, summed in time order).

    fn runs `calls` times in one profiling session and the last call is measured: the profiler reports no
    free of a block allocated before it started, so a first call would miss the frees of what an earlier
    call left (a training step's gradients, freed by zero_grad) and overstate the peak by them. A forward
    frees nothing an earlier call left: calls=1 measures it exactly."""
    from torch.autograd import DeviceType
    from torch.profiler import ProfilerActivity, profile, record_function

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
            for _ in range(calls - 1):
                fn()
            with record_function(MEASURED):
                fn()
    events = prof.profiler.kineto_results.events()
    call = next(e for e in events if e.name() == MEASURED)
    begin, end = call.start_ns(), call.start_ns() + call.duration_ns()
    cpu = (DeviceType.CPU, DeviceType.MKLDNN, DeviceType.IDEEP)
    memory = sorted((e.start_ns(), e.nbytes()) for e in events if e.name() == "[memory]" and e.device_type() in cpu)
    held = sum(nbytes for t, nbytes in memory if t < begin)
    start, peak = held, held
    for t, nbytes in memory:
        if begin <= t <= end:
            held += nbytes
            peak = max(peak, held)
    return peak - start


def peak_memory(fn, device: str, kind: str) -> int:
    if torch.device(device).type == "cuda":
        return peak_bytes(fn, device)
    return cpu_peak_bytes(fn, calls=2 if kind == "train" else 1)


def backends(device: str, amp: str, wanted: tuple[str, ...] | None) -> list[str]:
    """The attention backends that can run this device and autocast dtype (and that `wanted` names)."""
    probe = torch.zeros(1, 1, 1, 8, device=device, dtype=torch.bfloat16 if amp == "bf16" else torch.float32)
    why = available_backends(probe)
    return [b for b in BACKENDS if why[b] is None and (wanted is None or b in wanted)]


def _forward(out, model, backend: str | None, amp: str, device: str):
    if backend is not None:
        set_attention_backend(model, backend)
    with torch.inference_mode(), autocast(amp, device):
        return out(model)


def _forward_fns(name: str, case: Case, packed, labels: list[str], amp: str, config) -> tuple[dict, dict]:
    """({(dtype, backend): fn}, {(dtype, backend): max abs diff}), the reference's fn as (amp, "ref")."""
    device, fns, diffs = config.device, {}, {}
    if case.ref is not None:
        want = _forward(case.ref_out, case.ref, None, amp, device)
        fns[(amp, "ref")] = synchronized(lambda: _forward(case.ref_out, case.ref, None, amp, device), device)
    else:
        want = _forward(case.ours_out, case.ours, "math", amp, device)
    for label in labels:
        model = packed if label == "bf16_packed" else case.ours
        for backend in backends(device, amp, config.backends):
            got = _forward(case.ours_out, model, backend, amp, device)
            diffs[(label, backend)] = check_close(f"{name} {label} {backend}", amp, got, want)
            fns[(label, backend)] = synchronized(
                lambda m=model, b=backend: _forward(case.ours_out, m, b, amp, device), device)
    return fns, diffs


def _iqr(values: list[float]) -> list[float]:
    q = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else values * 3
    return [q[0], q[2]]


def _timed(fns: dict, diffs: dict, case: Case, kind: str, region: str, config, peak_flops: float | None) -> list[dict]:
    """Interleave fns (inside one autocast region when region says so), then each side's row."""
    names = {f"{label} {backend}": (label, backend) for label, backend in fns}
    outer = autocast("bf16", config.device) if region == "one region" else nullcontext()
    with outer:
        times = interleaved({n: fns[k] for n, k in names.items()}, config.warmup, config.repeats)
        peaks = {n: peak_memory(fns[k], config.device, kind) for n, k in names.items()}
    ref = next((n for n, (_, backend) in names.items() if backend == "ref"), None)
    flops = case.flops * (3 if kind == "train" else 1)
    rows = []
    for n, (label, backend) in names.items():
        seconds = statistics.median(times[n])
        ratio = summarize(times, case.samples, ours=n, ref=ref) if ref is not None and n != ref else None
        rows.append({
            "kind": kind, "dtype": label, "region": region, "backend": backend, "seconds": seconds,
            "samples_s": case.samples / seconds, "tokens_s": case.tokens / seconds,
            "samples_s_iqr": [case.samples / s for s in reversed(_iqr(times[n]))], "flops": flops,
            "mfu": flops / seconds / peak_flops if peak_flops else None,
            "ratio": ratio["ratio"] if ratio else None, "ratio_iqr": ratio["pair_ratio_iqr"] if ratio else None,
            "peak_bytes": peaks[n], "max_abs_diff": diffs.get((label, backend))})
    return rows


def forward_rows(name: str, case: Case, packed, config, peaks: dict[str, float] | None) -> list[dict]:
    """Forward rows for each dtype of config.dtypes, backend and (bf16) region of config.regions."""
    rows = []
    for amp in ("fp32", "bf16"):
        labels = [d for d in config.dtypes if AUTOCAST[d] == amp]
        if not labels:
            continue
        fns, diffs = _forward_fns(name, case, packed, labels, amp, config)
        for region in config.regions if amp == "bf16" else ("-",):
            rows += _timed(fns, diffs, case, "forward", region, config, (peaks or {}).get(amp))
    return rows


def _step(model, optimizer, loss_fn, backend: str | None, amp: str, device: str) -> torch.Tensor:
    """forward + loss + backward + optimizer step; returns the loss."""
    if backend is not None:
        set_attention_backend(model, backend)
    optimizer.zero_grad(set_to_none=True)
    with autocast(amp, device):
        loss = loss_fn(model)
    loss.backward()
    optimizer.step()
    return loss.detach()


def _train_fns(name: str, case: Case, amp: str, config) -> tuple[dict, dict]:
    """({(dtype, backend): step}, {...: first-step loss diff}) on fresh copies of both sides."""
    device, fns = config.device, {}
    sides = {"ours": copy.deepcopy(case.ours).train()}
    if case.ref is not None:
        sides["ref"] = copy.deepcopy(case.ref).train()
    opts = {k: torch.optim.AdamW(m.parameters(), lr=1e-5, fused=True) for k, m in sides.items()}
    ours_loss = case.ours_loss or (lambda m: cross_entropy(case.ours_out(m), case.targets))
    for backend in backends(device, amp, config.backends):
        fns[(amp, backend)] = synchronized(
            lambda b=backend: _step(sides["ours"], opts["ours"], ours_loss, b, amp, device), device)
    diffs = {}
    if case.ref is not None:
        def ref_step():
            return _step(sides["ref"], opts["ref"], lambda m: cross_entropy(case.ref_out(m), case.targets), None,
                         amp, device)
        first = next(iter(fns))  # the first steps of both sides run on the same weights: their losses agree
        diffs[first] = check_close(f"{name} {amp} training loss", amp, fns[first](), ref_step())
        fns[(amp, "ref")] = synchronized(ref_step, device)
    return fns, diffs


def train_rows(name: str, case: Case, config, peaks: dict[str, float] | None) -> list[dict]:
    """Training-step rows for fp32 and bf16 (where config.dtypes has them), each backend and the reference."""
    rows = []
    for amp in [d for d in ("fp32", "bf16") if d in config.dtypes]:
        fns, diffs = _train_fns(name, case, amp, config)
        region = "-" if amp == "fp32" else "per call"
        rows += _timed(fns, diffs, case, "train", region, config, (peaks or {}).get(amp))
    return rows
