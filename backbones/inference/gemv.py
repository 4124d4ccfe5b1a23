"""One-row bf16 linear layers (batch-1 decoding) through our AVX-512 kernel, `zoo::gemv` (csrc/gemv.cpp).

Decoding one token at batch 1 multiplies one row by every weight matrix, so
the step is bound by reading the weights from memory. torch 2.10's CPU
kernels stream those matrices at 17-22 GB/s in fp32 and, for bf16, at half
that (its bf16 GEMV) or ~13 GB/s (oneDNN's packed one), so bf16 weights,
half the bytes, gave little. `zoo::gemv` reads nn.Linear's (N, K) bf16
weight in place (no copy), 4 rows per thread at a time, with AVX512-BF16 dot
products: on a 2-core Sapphire Rapids at about fp32's GB/s, i.e. twice the
rows per second. (fp32 one-row products have a faster path already: the
transposed copy in kernels.py.)

The kernel is compiled on first use (`available()`, ~10-25 s once; torch
caches the build under ~/.cache/torch_extensions) and only where it can run:
x86-64 Linux with AVX512F/BW/VL and AVX512_BF16, a C++ compiler and ninja
(the `ninja` wheel in requirements.txt).

Numerics: bf16 pairs multiplied exactly and summed in fp32, then rounded
once, as F.linear up to summation order; like every AVX512-BF16 dot product
it treats denormal (below ~1e-38) inputs and partial results as zero, where
F.linear keeps them. Where the kernel cannot run, `available()` is False,
says why in `reason()`, and callers keep torch's kernels. It is an operator
with a shape function, so torch.compile graphs call it like any other.

Callers: backbones/inference/packing.py (`pack_for_inference(gemv=True)`),
for calls with exactly one row, no gradients, on CPU, in bf16.
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

SOURCE = Path(__file__).with_name("csrc") / "gemv.cpp"
_CPU_FLAGS = ("avx512f", "avx512bw", "avx512vl", "avx512_bf16")
_CFLAGS = ["-O3", "-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512bf16", "-fopenmp"]

_state: dict = {}  # "ok": bool once decided, "reason": why not
_lock = threading.Lock()  # one build per process, however many threads ask first
_STALE_LOCK_S = 600  # a torch build lock older than this was left by a killed build


def _cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def unsupported_reason() -> str | None:
    """Why this machine cannot run the kernel at all (None: it should build it)."""
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
        return f"needs x86-64 Linux, this is {platform.system()} {platform.machine()}"
    missing = [flag for flag in _CPU_FLAGS if flag not in _cpu_flags()]
    if missing:
        return f"this CPU lacks {', '.join(missing)}"
    return None


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
    digest = hashlib.sha1(SOURCE.read_bytes() + " ".join(_CFLAGS).encode()).hexdigest()[:12]
    return f"zoo_gemv_{digest}"


def _clear_stale_lock(name: str) -> None:
    """torch's build lock is a file that a killed build leaves behind, after which every later build waits
    on it forever. One older than _STALE_LOCK_S is removed (a real build takes 10-25 s)."""
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
        load(name=name, sources=[str(SOURCE)], extra_cflags=_CFLAGS, extra_ldflags=["-fopenmp"],
             is_python_module=False, verbose=False)


def _register_fake() -> None:
    @torch.library.register_fake("zoo::gemv")
    def _(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
        torch_private.check(math.prod(x.shape[:-1]) == 1,
                            lambda: f"zoo::gemv takes one row, got x {tuple(x.shape)}")
        torch_private.check(x.shape[-1] == weight.shape[1],
                            lambda: f"zoo::gemv: x has {x.shape[-1]} features, weight {tuple(weight.shape)}")
        return x.new_empty(*x.shape[:-1], weight.shape[0])


def available() -> bool:
    """True when zoo::gemv is loaded (building it on the first call); False, with reason(), if it cannot be.
    Decided once per process."""
    with _lock:
        if "ok" not in _state:
            reason = unsupported_reason()
            if reason is None and not hasattr(torch.ops.zoo, "gemv"):
                try:
                    _build()
                    _register_fake()
                except Exception as error:  # no compiler, headers, ...: torch's kernels serve instead
                    reason = f"building {SOURCE.name} failed: {type(error).__name__}: {str(error)[-500:]}"
                    warnings.warn(f"zoo::gemv unavailable, one-row products use torch's kernels ({reason})")
            _state.update(ok=reason is None, reason=reason)
        return _state["ok"]


def reason() -> str | None:
    """Why available() is False (None when it is True or was not asked yet)."""
    return _state.get("reason")


def applies(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None) -> bool:
    """Whether zoo::gemv can take F.linear(x, weight, bias): one row on the CPU, all bf16 (availability is
    the caller's to check, once)."""
    return (x.is_cpu and x.dtype == weight.dtype == torch.bfloat16 and weight.dim() == 2
            and x.dim() >= 1 and math.prod(x.shape[:-1]) == 1 and weight.is_cpu
            and (bias is None or (bias.dtype == x.dtype and bias.is_cpu)))


def linear(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
    """x (..., K) holding one row -> (..., N): F.linear(x, weight, bias) up to summation order. Inference
    only: the operator has no gradient, so inputs that need one are refused rather than silently cut off."""
    if torch.is_grad_enabled() and any(t is not None and t.requires_grad for t in (x, weight, bias)):
        raise RuntimeError("zoo::gemv has no gradient: call it under torch.no_grad() / inference_mode, "
                           "or use F.linear where gradients are needed")
    return torch.ops.zoo.gemv(x.contiguous(), weight.contiguous(), None if bias is None else bias.contiguous())
