"""Which CPU kernel serves an inference linear product, and the weight copies laid out for it.

`InferenceWeights` is what a packed layer (packing.py) calls instead of F.linear when no gradient is needed.
It uses a copy of the weight cast to the compute dtype (the autocast dtype, else the input's) and, on CPU,
laid out once for the kernel that serves that many rows (the table below). Why a copy:

- under autocast, nn.Linear casts its fp32 weight to bf16 on every call; the copy is cast once;
- torch's own CPU GEMM runs the few-row products of decoding slowly, in bf16 and in fp32, next to oneDNN's
  packed layout or a transposed (K, N) copy; MKL's packed GEMM is a little faster on full batches;
- products of 1 to GEMV_ROWS rows (decoding at batch 1 or a small batch) can go to our own kernel, zoo::gemv
  (gemv.py), which reads the weight in place, once for all rows.

The timings that chose each kernel are in docs/notes/2026-12-06-cpu-kernels.md.

The outputs are those of F.linear on the same dtypes up to summation order. The copies are rebuilt when the
weight or bias changes (their version counters or storage move: an optimizer step, load_state_dict, .to()),
and are never saved or pickled; one compute dtype at a time (switching between autocast and plain calls
rebuilds them). The cost is memory, only for the layouts a model's calls use: in bf16 one half-size copy of
every weight; in fp32 one copy per layout used (MKL's packed layout is larger than the weight).

Legend: R rows (the product of x's leading dims), N output features, K input features.
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from backbones.inference import gemv
from backbones.inference.torch_private import (
    is_any_autocast_enabled,
    mkl_linear,
    mkl_linear_available,
    mkl_pack,
    mkldnn_bf16_supported,
    module_parameters,
    onednn_linear,
    onednn_pack,
    tensor_version,
)
from backbones.precision import compute_dtype

# Which kernel runs a product of R rows (docs/notes/2026-12-06-cpu-kernels.md has the timings behind each line):
# - 1 <= R <= GEMV_ROWS, bf16 or fp32, where packing chose zoo::gemv (`gemv=True`) and it runs here: our kernel
#   on the weight as it is, which reads each weight row once for all R rows;
# - bf16 otherwise: oneDNN with the weight packed into its blocked layout, where the CPU runs oneDNN's bf16
#   (AVX512-BF16 or AMX); elsewhere the weight is cast once and F.linear runs it;
# - fp32, R = 1 without zoo::gemv: the weight stored transposed, (K, N) contiguous, through addmm;
# - fp32, 2 <= R <= 4 without zoo::gemv, weights of FP32_MIN_PACKED elements or more (Whisper's prefill keeps
#   a few rows of logits): the transposed copy;
# - fp32, R in FP32_ROWS: oneDNN packed for weights of FP32_MIN_PACKED elements or more, the transposed copy
#   below that (oneDNN's per-call cost never pays off on small weights);
# - fp32, R above FP32_ROWS, weights of FP32_MIN_PACKED or more: MKL's packed GEMM, packed for MKL_ROWS_HINT
#   rows (MKL packs for one row count, so oneDNN serves the small batches);
# - fp32 otherwise (weights under FP32_MIN_COPY elements; R from 2 to 4, or above FP32_ROWS, on weights under
#   FP32_MIN_PACKED): nn.Linear's own call (choosing a kernel would cost more than any kernel saves).
# Each copy is made the first time its kernel runs, so a model only holds the layouts its calls use.
ONEDNN_ROWS_HINT = 8  # oneDNN's packing takes an expected row count; 8 served 1 to 512 rows alike
MKL_ROWS_HINT = 512
FP32_ROWS = range(5, 257)
GEMV_ROWS = 4  # products of up to this many rows go to zoo::gemv where it runs (a call takes gemv.MAX_ROWS)
FP32_MIN_COPY = 2**18
FP32_MIN_PACKED = 2**20


def few_rows(x: torch.Tensor) -> bool:
    """Whether x (..., K) holds 1 to GEMV_ROWS rows (the product of its leading dims): zoo::gemv's calls, in
    eager packed calls and inside torch.compile alike."""
    return 1 <= math.prod(x.shape[:-1]) <= GEMV_ROWS


def onednn_ok(dtype: torch.dtype) -> bool:
    """Whether oneDNN runs `dtype` on this CPU (bf16 needs AVX512-BF16 or AMX)."""
    if not torch.backends.mkldnn.is_available():
        return False
    return dtype == torch.float32 or (dtype == torch.bfloat16 and mkldnn_bf16_supported())


def fp32_kernel(rows: int, numel: int) -> str | None:
    """The fp32 CPU kernel for `rows` rows of a weight with `numel` elements (table above); None: F.linear."""
    if numel < FP32_MIN_COPY:
        return None
    if rows == 1 or (rows < FP32_ROWS.start and numel >= FP32_MIN_PACKED):
        return "transposed"
    if rows in FP32_ROWS:
        return "onednn" if numel >= FP32_MIN_PACKED and onednn_ok(torch.float32) else "transposed"
    if rows > FP32_ROWS.stop - 1 and numel >= FP32_MIN_PACKED and mkl_linear_available():
        return "mkl"
    return None


class InferenceWeights:
    """The inference copies of one weight and bias, keyed on what they were made from: called as
    F.linear(x, weight, bias) is, under no_grad / inference_mode."""

    def __init__(self, use_gemv: bool | None = False) -> None:
        self.source: tuple | None = None  # (dtype, weight version, weight storage, bias version, bias storage)
        self.plain: tuple | None = None  # (dtype, weight dtype, on CPU) for which F.linear itself is best
        self.copies: dict[str, torch.Tensor] = {}  # kernel -> the weight laid out for it
        self.bias: torch.Tensor | None = None  # in the compute dtype
        self.dtype: torch.dtype | None = None
        # Few-row products through zoo::gemv: True / False as pack_for_inference decided; None: not decided
        # yet (a model without CPU weights at packing), so the first such call decides (builds the kernel).
        self.gemv = use_gemv

    def __call__(self, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
        """x (..., K), weight (N, K), bias (N,) or None -> (..., N)."""
        # Kept cheap: decoding a small model makes a few dozen of these calls per token.
        autocast = is_any_autocast_enabled()
        if self.plain is not None and not autocast and self.plain == (x.dtype, weight.dtype, x.is_cpu):
            return F.linear(x, weight, bias)
        dtype = compute_dtype(x, weight) if autocast else (x.dtype if x.dtype == weight.dtype else None)
        if dtype is None:
            return F.linear(x, weight, bias)  # not ours to handle (F.linear names the mismatch)
        try:
            source = (dtype, tensor_version(weight), weight.data_ptr(), *(
                (None, None) if bias is None else (tensor_version(bias), bias.data_ptr())))
        except RuntimeError:  # parameters made under inference_mode have no version counter to follow
            return F.linear(x, weight, bias)
        if source != self.source:  # first call, or the weights moved on (step, load, .to())
            self._reset(weight, bias, dtype)
            self.source = source
        if self.plain is not None:
            return F.linear(x, weight, bias)
        if x.dtype != dtype:
            x = x.to(dtype)
        kernel = self._kernel(x, weight, dtype)
        if kernel is None:
            return F.linear(x, weight, bias)
        w = self.copies.get(kernel)
        if w is None:
            w = self.copies[kernel] = self._make(kernel, weight)
        if kernel == "onednn":
            return onednn_linear(x, w, self.bias)
        if kernel == "gemv":
            return gemv.linear(x, w, self.bias)
        if kernel == "mkl":
            return mkl_linear(x, w, weight, bias, MKL_ROWS_HINT)
        if kernel == "transposed":
            x2 = x.reshape(-1, x.shape[-1])  # (R, K)
            out = torch.mm(x2, w) if bias is None else torch.addmm(bias, x2, w)  # (R, N)
            return out.view(*x.shape[:-1], out.shape[-1])  # (..., N)
        return F.linear(x, w, self.bias)  # "cast"

    def _kernel(self, x: torch.Tensor, weight: torch.Tensor, dtype: torch.dtype) -> str | None:
        """The table above, for x already in the compute dtype; None: F.linear on the weight as it is."""
        if few_rows(x) and x.is_cpu and self._gemv_ok(dtype):
            return "gemv"
        rows = x.numel() // max(x.shape[-1], 1)
        if dtype == torch.float32 and x.is_cpu:
            return fp32_kernel(rows, weight.numel())
        if x.is_cpu and onednn_ok(dtype):
            return "onednn"
        return "cast"  # bf16 where oneDNN cannot run it, fp16 on CPU, CUDA under autocast: cast once

    def _gemv_ok(self, dtype: torch.dtype) -> bool:
        """Whether zoo::gemv takes few-row products in `dtype` (deciding, i.e. building, it if undecided)."""
        if not self._may_gemv(dtype):
            return False
        if self.gemv is None:
            self.gemv = gemv.available(torch.float32)  # the build runs both dtypes where the CPU does
        return self.gemv and gemv.available(dtype)

    def _may_gemv(self, dtype: torch.dtype) -> bool:
        """Whether zoo::gemv may serve `dtype` here: packing did not rule it out and the CPU runs it."""
        return self.gemv is not False and dtype in (torch.float32, torch.bfloat16) and gemv.supports(dtype)

    def _reset(self, weight: torch.Tensor, bias: torch.Tensor | None, dtype: torch.dtype) -> None:
        """Forget the old copies; decide whether any kernel can beat F.linear for these dtypes."""
        self.copies, self.dtype = {}, dtype
        self.bias = None if bias is None else bias.detach().to(dtype)
        cpu = weight.device.type == "cpu"
        # A small fp32 weight gains from no copy, but its few-row products gain from zoo::gemv where it runs.
        small_fp32 = dtype == torch.float32 and weight.numel() < FP32_MIN_COPY and not self._may_gemv(dtype)
        # fp16, and bf16 on CPUs without oneDNN's bf16 (hence without zoo::gemv's AVX512-BF16): torch's GEMM
        no_kernel = dtype != torch.float32 and not onednn_ok(dtype)
        no_gain = dtype == weight.dtype and (not cpu or small_fp32 or no_kernel)
        self.plain = (dtype, weight.dtype, cpu) if no_gain else None

    def _make(self, kernel: str, weight: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            w = weight.detach().to(self.dtype)
            if kernel == "onednn":
                return onednn_pack(w, ONEDNN_ROWS_HINT)
            if kernel == "mkl":
                return mkl_pack(w, MKL_ROWS_HINT)
            if kernel == "transposed":
                return w.t().contiguous()  # (K, N)
            return w.contiguous()  # "gemv", "cast": the weight itself when it is already in the dtype

    # A oneDNN tensor has no storage to copy or pickle; the copy is rebuilt on first use instead.
    def __getstate__(self) -> dict:
        return {"gemv": self.gemv}

    def __setstate__(self, state: dict) -> None:
        wanted = state.get("gemv", False)
        self.__init__(gemv.available() if wanted else wanted)  # loads the kernel in a new process


class FusedWeights:
    """Several Linears that read the same input (attention's q, k, v; SwiGLU's gate and up) as ONE
    product: their weights concatenated once, then handled as one Linear's (cast, packed). Holds copies,
    never parameters, rebuilt when any part changes."""

    def __init__(self, use_gemv: bool | None = False) -> None:
        self.key: list | None = None
        self.weight: torch.Tensor | None = None  # (sum of the layers' N, K)
        self.bias: torch.Tensor | None = None
        self.inner = InferenceWeights(use_gemv)

    def __call__(self, x: torch.Tensor, layers: tuple[nn.Linear, ...]) -> torch.Tensor:
        """x (..., K) -> (..., sum of the layers' N): torch.cat of their outputs."""
        # module_parameters, not .weight: Module.__getattr__ would cost more than the product (small models)
        params = [module_parameters(layer) for layer in layers]
        parts = [t for p in params for t in (p["weight"], p["bias"])]
        try:
            key = [None if t is None else (tensor_version(t), t.data_ptr()) for t in parts]
        except RuntimeError:  # parameters made under inference_mode: no version counter to follow
            return torch.cat([F.linear(x, layer.weight, layer.bias) for layer in layers], dim=-1)
        if key != self.key:  # built as normal tensors: `inner` keys on their version counters
            with torch.inference_mode(False), torch.no_grad():
                self.weight = torch.cat([layer.weight.detach() for layer in layers])
                biases = [layer.bias for layer in layers]
                self.bias = None if all(b is None for b in biases) else torch.cat([
                    b.detach() if b is not None else layer.weight.new_zeros(layer.out_features)
                    for b, layer in zip(biases, layers)])
            self.key = key
        return self.inner(x, self.weight, self.bias)

    def __getstate__(self) -> dict:
        return self.inner.__getstate__()

    def __setstate__(self, state: dict) -> None:
        self.__init__()
        self.inner.__setstate__(state)  # the concatenated weights are rebuilt on first use
