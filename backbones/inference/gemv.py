"""Few-row linear layers (decoding at batch 1 or a small batch) through our kernel, `zoo::gemv`
(csrc/gemv.cpp): bf16 with AVX512-BF16, fp32 with AVX2 + FMA.

Decoding one token multiplies a few rows by every weight matrix, so the step is bound by reading the weights
from memory. `zoo::gemv` takes 1 to MAX_ROWS (8) input rows a call and reads nn.Linear's (N, K) weight in
place (no copy), each weight row once for all the input rows (bf16 streams 4 weight rows together, fp32 one at
a time, each thread over its share of the rows). In bf16 it computes with AVX512-BF16 dot products, which
torch 2.10's CPU kernels do not use for a GEMV; in fp32 it streams the cold matrices of a decoding step faster
than torch's GEMV (the timings are in docs/notes/2026-12-06-cpu-kernels.md).

The kernel is compiled on first use (`available()`, once; torch caches the build under
~/.cache/torch_extensions; `make venv` builds it) and only where it can run: x86-64 Linux with AVX2 and FMA
(fp32; AVX512F/BW/VL and AVX512_BF16 for bf16), a C++ compiler and ninja (the `ninja` wheel in
requirements.txt). Each dtype's code is compiled for its own instruction set, so one build serves any x86-64
CPU; `supports(dtype)` says which it runs here.

Numerics: products summed in fp32 in another order than torch's, then (bf16) rounded once, as F.linear up to
summation order; like every AVX512-BF16 dot product the bf16 path treats denormal (below ~1e-38) inputs and
partial results as zero, where F.linear keeps them. Where the kernel cannot run, `available()` is False, says
why in `reason()`, and callers keep torch's kernels. It is an operator with a shape function, so
torch.compile graphs call it like any other.

Callers: backbones/inference/kernels.py and packing.py (`pack_for_inference(gemv=True)`), for calls of 1 to
kernels.GEMV_ROWS rows, no gradients, on CPU, in bf16 or fp32.
"""
from __future__ import annotations

import contextlib
import hashlib
import math
import os
import platform
import shutil
import sys
import threading
import time
import warnings
from pathlib import Path

import torch

from backbones.inference import torch_private

CSRC = Path(__file__).with_name("csrc")
# One extension holds the zoo operators: zoo::gemv here, zoo::gemv_int8, zoo::gemv_grouped and zoo::gemm_int8
# (integer weights: backbones/quantized.py), zoo::decode_attention, zoo::bf16_attention and zoo::f32_attention
# (attention_kernel.py).
SOURCES = (CSRC / "gemv.cpp", CSRC / "gemv_int8.cpp", CSRC / "gemv_grouped.cpp", CSRC / "gemm_int8.cpp",
           CSRC / "attention.cpp", CSRC / "attention_bf16.cpp", CSRC / "attention_f32.cpp")
# What the sources include: part of the build name.
INCLUDED = (CSRC / "gemv_rows.inc", CSRC / "gemv_int8_rows.inc", CSRC / "gemv_grouped_rows.inc",
            CSRC / "int_weights.inc", CSRC / "quantize_rows.inc", CSRC / "cephes_exp.inc", CSRC / "avx2_reduce.inc",
            CSRC / "attention_shapes.h")
# The CPU flags (as /proc/cpuinfo names them) each dtype's kernel needs; the build needs the first set.
_CPU_FLAGS = {torch.float32: ("avx2", "fma"), torch.bfloat16: ("avx512f", "avx512bw", "avx512vl", "avx512_bf16")}
MAX_ROWS = 8  # input rows one call takes (csrc/gemv.cpp's kMaxRows): every weight row is read once for all
_CFLAGS = ["-O3", "-fopenmp"]  # no -m flags: each kernel carries its own target (csrc/gemv.cpp)

_state: dict = {}  # "ok": bool once decided, "reason": why not
_lock = threading.Lock()  # one build per process, however many threads ask first
_STALE_LOCK_S = 600  # a torch build lock older than this was left by a killed build


# ZOO_CPU_ISA=avx2 hides the CPU's later vector extensions from the zoo's kernel choices (AVX-512, VNNI, AMX), so
# an AVX-512 host runs the paths an AVX2-only one would: benchmarks set it with torch's, oneDNN's, MKL's and
# CTranslate2's own switches (bench/machine.py FORCED_ISA).
ISA_VARIABLE = "ZOO_CPU_ISA"
_LATER_THAN_AVX2 = ("avx512", "amx", "avx_vnni")


def _read_cpu_flags() -> frozenset[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return frozenset()
    forced = os.environ.get(ISA_VARIABLE, "").lower()
    if forced not in ("", "avx2"):
        raise ValueError(f"{ISA_VARIABLE}={forced!r}: expected 'avx2' (or unset: all the CPU has)")
    for line in text.splitlines():
        if line.startswith("flags"):
            flags = line.split(":", 1)[1].split()
            return frozenset(f for f in flags if not (forced and f.startswith(_LATER_THAN_AVX2)))
    return frozenset()


def unsupported_reason(dtype: torch.dtype = torch.bfloat16) -> str | None:
    """Why this machine cannot run the kernel for `dtype` (bf16 or fp32) at all (None: it should build it
    and run it)."""
    if dtype not in _CPU_FLAGS:
        return f"zoo::gemv computes in {sorted(map(str, _CPU_FLAGS))}, not {dtype}"
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
        return f"needs x86-64 Linux, this is {platform.system()} {platform.machine()}"
    missing = [flag for flag in _CPU_FLAGS[dtype] if flag not in _FLAGS]
    if missing:
        return f"{dtype} needs {', '.join(missing)}, which this CPU lacks"
    return None


_FLAGS = _read_cpu_flags()  # read once, at import: applies() runs inside torch.compile's tracing too
_SUPPORTED = {dtype: unsupported_reason(dtype) is None for dtype in _CPU_FLAGS}


def has_cpu_flag(flag: str) -> bool:
    """Whether /proc/cpuinfo lists `flag` (e.g. "amx_bf16") for this CPU."""
    return flag in _FLAGS


def supports(dtype: torch.dtype) -> bool:
    """Whether the kernel runs `dtype` on this CPU (not whether it is built: available() builds it)."""
    return _SUPPORTED.get(dtype, False)


@contextlib.contextmanager
def _ninja_on_path():
    """torch builds extensions with ninja, found on PATH; the `ninja` wheel (requirements.txt) puts it beside
    this interpreter, which is not on PATH when the venv's python is run without activating the venv."""
    saved = os.environ.get("PATH")
    if shutil.which("ninja") is None:
        os.environ["PATH"] = os.pathsep.join(p for p in (str(Path(sys.executable).parent), saved) if p)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("PATH", None)
        else:
            os.environ["PATH"] = saved


def build_name() -> str:
    """The extension's name, hence its build folder: one per source and flags, so two checkouts with
    different kernels never load each other's build."""
    sources = b"".join(path.read_bytes() for path in (*SOURCES, *INCLUDED))
    digest = hashlib.sha1(sources + " ".join(_CFLAGS).encode()).hexdigest()[:12]
    return f"zoo_gemv_{digest}"


def _clear_stale_lock(name: str) -> None:
    """torch's build lock is a file that a killed build leaves behind, after which every later build waits
    on it forever. One older than _STALE_LOCK_S is removed (a real build takes far less)."""
    lock = Path(torch_private.build_directory(name)) / "lock"
    with contextlib.suppress(OSError):
        age = time.time() - lock.stat().st_mtime
        if age > _STALE_LOCK_S:
            warnings.warn(f"removing {lock}, left {age:.0f} s ago by an interrupted build")
            lock.unlink()


def _build() -> None:
    from torch.utils.cpp_extension import load

    name = build_name()
    _clear_stale_lock(name)
    with _ninja_on_path():
        load(name=name, sources=[str(path) for path in SOURCES], extra_cflags=_CFLAGS, extra_ldflags=["-fopenmp"],
             is_python_module=False, verbose=False)


def _register_fake() -> None:
    @torch.library.register_fake("zoo::gemv")
    def _(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
        torch_private.check(1 <= math.prod(x.shape[:-1]) <= MAX_ROWS,
                            lambda: f"zoo::gemv takes 1 to {MAX_ROWS} rows, got x {tuple(x.shape)}")
        torch_private.check(x.shape[-1] == weight.shape[1],
                            lambda: f"zoo::gemv: x has {x.shape[-1]} features, weight {tuple(weight.shape)}")
        return x.new_empty(*x.shape[:-1], weight.shape[0])

    for name in ("gemv_int8", "gemv_grouped"):  # integer weights: (..., K) rows -> (..., N)
        def integer_fake(x: torch.Tensor, qweight: torch.Tensor, scales: torch.Tensor, bias: torch.Tensor | None,
                         mode: int, name: str = name) -> torch.Tensor:
            torch_private.check(1 <= math.prod(x.shape[:-1]) <= MAX_ROWS,
                                lambda: f"zoo::{name} takes 1 to {MAX_ROWS} rows, got x {tuple(x.shape)}")
            return x.new_empty(*x.shape[:-1], qweight.shape[0])
        torch.library.register_fake(f"zoo::{name}")(integer_fake)

    @torch.library.register_fake("zoo::gemm_int8")
    def _(x: torch.Tensor, qweight: torch.Tensor, scales: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
        return x.new_empty(*x.shape[:-1], qweight.shape[0])

    @torch.library.register_fake("zoo::decode_attention")
    def _(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, scale: float) -> torch.Tensor:
        return q.new_empty(q.shape)  # contiguous, as the operator returns

    @torch.library.register_fake("zoo::bf16_attention")
    def _(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, scale: float, causal: bool) -> torch.Tensor:
        return q.new_empty(q.shape)

    @torch.library.register_fake("zoo::f32_attention")
    def _(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, scale: float, causal: bool) -> torch.Tensor:
        return q.new_empty(q.shape)

    @torch.library.register_fake("zoo::bf16_attention_lse")
    def _(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, scale: float, causal: bool):
        return q.new_empty(q.shape), q.new_empty(q.shape[:-1], dtype=torch.float32)


def loaded() -> bool:
    """Whether the zoo operators are built and loaded in this process (available() was asked and succeeded):
    what decides, without building anything, whether attention may use zoo::decode_attention."""
    return _state.get("ok", False)


def available(dtype: torch.dtype = torch.bfloat16) -> bool:
    """True when zoo::gemv is loaded (building it on the first call) and runs `dtype` here; False, with
    reason(dtype), if it cannot. The build is decided once per process."""
    if not supports(dtype):
        return False
    with _lock:
        if "ok" not in _state:
            reason = unsupported_reason(torch.float32)  # every CPU that can build it has AVX2
            if reason is None and not hasattr(torch.ops.zoo, "gemv"):
                try:
                    _build()
                    _register_fake()
                except Exception as error:  # no compiler, headers, ...: torch's kernels serve instead
                    reason = (f"building {', '.join(p.name for p in SOURCES)} failed: "
                              f"{type(error).__name__}: {str(error)[-500:]}")
                    warnings.warn(f"zoo::gemv unavailable, few-row products use torch's kernels ({reason})")
            _state.update(ok=reason is None, reason=reason)
        return _state["ok"]


def reason(dtype: torch.dtype = torch.bfloat16) -> str | None:
    """Why available(dtype) is False (None when it is True or the build was not tried yet)."""
    return unsupported_reason(dtype) or _state.get("reason")


def applies(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None) -> bool:
    """Whether zoo::gemv can take F.linear(x, weight, bias): 1 to MAX_ROWS rows on the CPU, all in one dtype
    the kernel runs here (supports(); whether it is built is the caller's to check, once)."""
    return (x.is_cpu and x.dtype == weight.dtype and _SUPPORTED.get(x.dtype, False)
            and weight.dim() == 2 and x.dim() >= 1 and 1 <= math.prod(x.shape[:-1]) <= MAX_ROWS and weight.is_cpu
            and (bias is None or (bias.dtype == x.dtype and bias.is_cpu)))


def linear(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
    """x (..., K) holding 1 to MAX_ROWS rows -> (..., N): F.linear(x, weight, bias) up to summation order. Inference
    only: the operator has no gradient, so inputs that need one are refused rather than silently cut off."""
    if torch.is_grad_enabled() and any(t is not None and t.requires_grad for t in (x, weight, bias)):
        raise RuntimeError("zoo::gemv has no gradient: call it under torch.no_grad() / inference_mode, "
                           "or use F.linear where gradients are needed")
    return torch.ops.zoo.gemv(x.contiguous(), weight.contiguous(), None if bias is None else bias.contiguous())


# zoo::gemv_int8's ways to multiply (csrc/gemv_int8.cpp) and the CPU flags each needs.
INT8_MODES = {"weight_only": 0, "vnni": 1, "avx2": 2}
_INT8_FLAGS = {"weight_only": ("avx2", "fma"), "vnni": ("avx512f", "avx512bw", "avx512vl", "avx512_vnni"),
               "avx2": ("avx2", "fma")}


def int8_unsupported_reason(mode: str) -> str | None:
    """Why zoo::gemv_int8 cannot run `mode` on this machine (None: it can, once built)."""
    if mode not in INT8_MODES:
        return f"zoo::gemv_int8 modes are {list(INT8_MODES)}, not {mode!r}"
    reason = unsupported_reason(torch.float32)
    if reason is not None:
        return reason
    missing = [flag for flag in _INT8_FLAGS[mode] if flag not in _FLAGS]
    return f"int8 mode {mode!r} needs {', '.join(missing)}, which this CPU lacks" if missing else None


def linear_int8(x: torch.Tensor, qweight: torch.Tensor, scales: torch.Tensor, bias: torch.Tensor | None,
                mode: str) -> torch.Tensor:
    """x (..., K) fp32 or bf16, qweight int8 (N, K), scales and bias fp32 (N,) -> (..., N) in x's dtype:
    x (q * s)^T + b up to summation order ("weight_only"), or with x quantised to int8 per row first ("vnni", "avx2":
    integer dot products). More than MAX_ROWS rows go MAX_ROWS at a time (_by_chunks). Inference only; the caller
    checks available()."""
    return _by_chunks(torch.ops.zoo.gemv_int8, x, qweight, scales, bias, mode)


def linear_grouped(x: torch.Tensor, qweight: torch.Tensor, scales: torch.Tensor, bias: torch.Tensor | None,
                   mode: str) -> torch.Tensor:
    """x (..., K) fp32 or bf16; qweight uint8 (N, K / 2) of int4 nibbles or int8 (N, K); scales fp32 (N, K / G); bias
    fp32 (N,) -> (..., N) in x's dtype: with x quantised to int8 per row, integer dot products ("vnni", "avx2" as
    gemv_int8's dynamic modes). More than MAX_ROWS rows go MAX_ROWS at a time (each weight read once a chunk: still
    ahead of torch's int4 kernel, 10-100x slower in fp32, 2-4x in bf16; docs/notes/2026-12-07-int8-kernels.md).
    Inference only; the caller checks available()."""
    return _by_chunks(torch.ops.zoo.gemv_grouped, x, qweight, scales, bias, mode)


def gemm_int8(x: torch.Tensor, qweight: torch.Tensor, scales: torch.Tensor, bias: torch.Tensor | None
              ) -> torch.Tensor:
    """x (..., K) fp32 or bf16 of any number of rows, qweight int8 (N, K), scales and bias fp32 (N,) -> (..., N) in
    x's dtype, as QuantizedLinear's path through torch's int8 GEMM computes it (each row quantised to 253 steps about
    a centre that is a whole step, integer products, then scaled back), on AVX2 + FMA: the many-row products of CPUs
    where torch's int8 GEMM has no VNNI or AMX to run on. Inference only; the caller checks available()."""
    return torch.ops.zoo.gemm_int8(x.contiguous(), qweight, scales, bias)


def _by_chunks(op, x: torch.Tensor, qweight: torch.Tensor, scales: torch.Tensor, bias: torch.Tensor | None,
               mode: str) -> torch.Tensor:
    """op (zoo::gemv_int8 or zoo::gemv_grouped) on x (..., K), MAX_ROWS rows a call -> (..., N)."""
    if math.prod(x.shape[:-1]) <= MAX_ROWS:
        return op(x.contiguous(), qweight, scales, bias, INT8_MODES[mode])
    rows = x.reshape(-1, x.shape[-1]).contiguous()  # (R, K)
    chunks = [op(rows[i:i + MAX_ROWS], qweight, scales, bias, INT8_MODES[mode])
              for i in range(0, rows.shape[0], MAX_ROWS)]
    return torch.cat(chunks).view(*x.shape[:-1], qweight.shape[0])
