"""Linear layers that can keep an inference copy of their weight, packed for the CPU's GEMM library.

`Linear` is `nn.Linear`: the same parameters, state_dict keys and training
path. What it adds is opt-in, for inference only:

    pack_for_inference(model)          # every backbones.linear.Linear in the model
    with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16):
        model(x)                       # no per-call weight cast; oneDNN's packed GEMM

With packing on, a call made without gradients (no_grad / inference_mode)
uses a copy of the weight cast to the compute dtype (the autocast dtype, else
the input's) and, on CPU, laid out once for the kernel that serves that many
rows fastest (oneDNN's or MKL's packed layouts, or simply transposed). Why:

- under autocast, nn.Linear casts its fp32 weight to bf16 on every call,
  which costs a third of a bf16 BERT forward on a 2-core CPU; the copy is
  cast once;
- torch's own CPU GEMM runs the few-row products of decoding slowly: bf16
  at half oneDNN's packed speed, fp32 up to 2x slower than a transposed
  (K, N) copy or oneDNN's packed layout; and MKL's packed GEMM gains 5-10%
  on full batches (the table below says which when);
- bf16 one-row products (batch-1 decoding) go to our own kernel,
  zoo::gemv (backbones/gemv.py), which reads the weight in place and
  streams bf16 at twice torch's rate. It is an operator torch.compile can
  call, so a packed model keeps it inside `generate(compile=True)`.

The outputs are those of F.linear on the same dtypes up to summation order
(tested). The copy is rebuilt when the weight or bias changes (their version
counters or storage move: an optimizer step, load_state_dict, .to()), and is
never saved or pickled; one compute dtype at a time (switching between
autocast and plain calls rebuilds it). The cost is memory, only for the
layouts a model's calls use: in bf16 one half-size copy of every weight; in
fp32 one copy per layout used (MKL's packed layout takes 2.2x the weight);
fused q/k/v (FusedLinear) also keep their concatenated weight. Calls that
need gradients always take nn.Linear's path.

Legend: N output features, K input features.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from backbones import gemv

# Which kernel runs a product of R rows (the product of x's leading dims), from timing each candidate
# against F.linear on a 2-core Sapphire Rapids (scripts/benchmark*.py give the model-level numbers):
# - bf16, R = 1 (batch-1 decoding), where backbones.gemv.available(): our zoo::gemv on the weight as it
#   is: over gpt2's 73 matrices in turn, 17-19 GB/s against 9-11 for torch's GEMV, and 1.3-1.5x oneDNN's.
#   (zoo::gemv also does fp32, but there it streams 21-22 GB/s, below the transposed copy's 24: not used);
# - bf16: oneDNN with the weight packed into its blocked layout wins at every size and R (1.5-2.5x);
# - fp32, R = 1 (batch-1 decoding): the weight stored transposed, (K, N) contiguous, through addmm:
#   1.1-1.3x, and 1.3x on GPT-2's 50257-way head;
# - fp32, 8 <= R <= 256: oneDNN packed for weights of 2^20 elements or more (1.3-2.3x), the transposed
#   copy below that (1.2-1.6x: oneDNN's ~15 us per call never pays off on small weights);
# - fp32, R > 256, weights of 2^20 or more: MKL's packed GEMM, packed for 512 rows (1.05-1.10x; 1.1x on
#   a whole bert_base forward). MKL packs for one row count: for 8 rows it is 0.9-1.0x, hence oneDNN there;
# - fp32, R between 2 and 7, and weights under 2^18 elements (gpt_tiny's: the ~2 us of choosing cost
#   more than any kernel saves): nn.Linear's own call.
# Each copy is made the first time its kernel runs, so a model only holds the layouts its calls use.
_ONEDNN_ROWS_HINT = 8  # oneDNN's packing takes an expected row count; 8 served 1 to 512 rows alike
_MKL_ROWS_HINT = 512
_FP32_ROWS = range(8, 257)
_FP32_MIN_COPY = 2**18
_FP32_MIN_PACKED = 2**20
_GEMV_DTYPES = (torch.bfloat16,)  # the dtypes whose one-row products go to zoo::gemv


def _eager_inference() -> bool:
    """No gradients and no compiler tracing (a compiler picks its own GEMM layouts): the copies apply."""
    return not torch.is_grad_enabled() and not torch.compiler.is_compiling()


def _onednn_ok(dtype: torch.dtype) -> bool:
    if not torch.backends.mkldnn.is_available():
        return False
    if dtype == torch.float32:
        return True
    return dtype == torch.bfloat16 and torch.ops.mkldnn._is_mkldnn_bf16_supported()


def _mkl_ok() -> bool:
    return torch.backends.mkl.is_available() and hasattr(torch.ops.mkl, "_mkl_linear")


def _fp32_kernel(rows: int, numel: int) -> str | None:
    """The fp32 CPU kernel for `rows` rows of a weight with `numel` elements (table above); None: F.linear."""
    if numel < _FP32_MIN_COPY:
        return None
    if rows == 1:
        return "transposed"
    if rows in _FP32_ROWS:
        return "onednn" if numel >= _FP32_MIN_PACKED and _onednn_ok(torch.float32) else "transposed"
    if rows > _FP32_ROWS.stop - 1 and numel >= _FP32_MIN_PACKED and _mkl_ok():
        return "mkl"
    return None


def _compute_dtype(x: torch.Tensor, weight: torch.Tensor) -> torch.dtype | None:
    """The dtype F.linear would compute in, or None where it would raise (left to F.linear to say)."""
    device = x.device.type
    if torch.is_autocast_enabled(device) and x.is_floating_point() and x.dtype != torch.float64:
        return torch.get_autocast_dtype(device)  # autocast leaves float64 alone
    return x.dtype if x.dtype == weight.dtype else None


class InferenceWeights:
    """The inference copies of one Linear's weight and bias, keyed on what they were made from."""

    def __init__(self, one_row_kernel: bool | None = False) -> None:
        self.source: tuple | None = None  # (dtype, weight version, weight storage, bias version, bias storage)
        self.plain: tuple | None = None  # (dtype, weight dtype, on CPU) for which F.linear itself is best
        self.copies: dict[str, torch.Tensor] = {}  # kernel -> the weight laid out for it
        self.bias: torch.Tensor | None = None  # in the compute dtype
        self.dtype: torch.dtype | None = None
        # One-row bf16 products through zoo::gemv: True / False as pack_for_inference decided, None to
        # decide (build the kernel) at the first such call.
        self.gemv = one_row_kernel

    def __call__(self, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
        # Kept cheap (~1-2 us): decoding a small model makes ~25 of these calls per token.
        if self.plain is not None and self.plain == (x.dtype, weight.dtype, x.is_cpu) \
                and not torch._C._is_any_autocast_enabled():
            return F.linear(x, weight, bias)
        if torch._C._is_any_autocast_enabled():
            dtype = _compute_dtype(x, weight)
        else:
            dtype = x.dtype if x.dtype == weight.dtype else None
        if dtype is None:
            return F.linear(x, weight, bias)  # not ours to handle (F.linear names the mismatch)
        try:
            source = (dtype, weight._version, weight.data_ptr(), *((None, None) if bias is None else
                                                                  (bias._version, bias.data_ptr())))
        except RuntimeError:  # parameters made under inference_mode have no version counter to follow
            return F.linear(x, weight, bias)
        if source != self.source:  # first call, or the weights moved on (step, load, .to())
            self._reset(weight, bias, dtype)
            self.source = source
        if self.plain is not None:
            return F.linear(x, weight, bias)
        if x.dtype != dtype:
            x = x.to(dtype)
        rows = x.numel() // max(x.shape[-1], 1)
        if rows == 1 and x.is_cpu and dtype in _GEMV_DTYPES and self._gemv_ok():
            kernel = "gemv"
        elif dtype == torch.float32 and x.is_cpu:
            kernel = _fp32_kernel(rows, weight.numel())
        elif x.is_cpu and _onednn_ok(dtype):
            kernel = "onednn"
        else:
            kernel = "cast"  # fp16 on CPU, CUDA under autocast: the weight cast once
        if kernel is None:
            return F.linear(x, weight, bias)
        w = self.copies.get(kernel)
        if w is None:
            w = self.copies[kernel] = self._make(kernel, weight)
        if kernel == "onednn":
            return torch.ops.mkldnn._linear_pointwise(x, w, self.bias, "none", [], "")
        if kernel == "gemv":
            return gemv.linear(x, w, self.bias)
        if kernel == "mkl":
            return torch.ops.mkl._mkl_linear(x, w, weight, bias, _MKL_ROWS_HINT)
        if kernel == "transposed":
            x2 = x.reshape(-1, x.shape[-1])  # (R, K)
            out = torch.mm(x2, w) if bias is None else torch.addmm(bias, x2, w)
            return out.view(*x.shape[:-1], out.shape[-1])  # (..., N)
        return F.linear(x, w, self.bias)

    def _gemv_ok(self) -> bool:
        if self.gemv is None:
            self.gemv = gemv.available()
        return self.gemv

    def _reset(self, weight: torch.Tensor, bias: torch.Tensor | None, dtype: torch.dtype) -> None:
        """Forget the old copies; decide whether any kernel can beat F.linear for these dtypes."""
        self.copies, self.dtype = {}, dtype
        self.bias = None if bias is None else bias.detach().to(dtype)
        cpu = weight.device.type == "cpu"
        small_fp32 = dtype == torch.float32 and weight.numel() < _FP32_MIN_COPY
        no_kernel = dtype != torch.float32 and not _onednn_ok(dtype)  # fp16 on CPU: torch's own GEMM
        no_gain = dtype == weight.dtype and (not cpu or small_fp32 or no_kernel)
        self.plain = (dtype, weight.dtype, cpu) if no_gain else None

    def _make(self, kernel: str, weight: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            w = weight.detach().to(self.dtype)
            if kernel == "onednn":
                return torch.ops.mkldnn._reorder_linear_weight(w, _ONEDNN_ROWS_HINT)
            if kernel == "mkl":
                return torch.ops.mkl._mkl_reorder_linear_weight(w, _MKL_ROWS_HINT)
            if kernel == "transposed":
                return w.t().contiguous()  # (K, N)
            return w.contiguous()  # "gemv", "cast": the weight itself when it is already in the dtype

    # A oneDNN tensor has no storage to copy or pickle; the copy is rebuilt on first use instead.
    def __getstate__(self) -> dict:
        return {"gemv": self.gemv}

    def __setstate__(self, state: dict) -> None:
        wanted = state.get("gemv", False)
        self.__init__(gemv.available() if wanted else wanted)  # loads the kernel in a new process


class Linear(nn.Linear):
    """nn.Linear, plus the opt-in inference weight copy described in the module docstring."""

    inference_weights: InferenceWeights | None = None  # None: packing off (the default)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        weights = self.inference_weights
        if weights is None or torch.is_grad_enabled():
            return F.linear(x, self.weight, self.bias)
        if torch.compiler.is_compiling():  # the compiler picks GEMM layouts; zoo::gemv is an op it calls
            if weights.gemv and x.dtype in _GEMV_DTYPES and gemv.applies(x, self.weight, self.bias):
                return gemv.linear(x, self.weight, self.bias)
            return F.linear(x, self.weight, self.bias)
        p = self._parameters  # cheaper than .weight/.bias, which go through Module.__getattr__
        return weights(x, p["weight"], p["bias"])  # (..., N)


class FusedLinear:
    """Several Linears that read the same input (attention's q, k, v; SwiGLU's gate and up) as ONE
    product, for inference: their weights concatenated once, then handled as one Linear's (cast,
    packed). Decoding a small model is bound by per-call overhead, and one GEMM costs less than three.

    Not a Module: it holds copies, never parameters, and is rebuilt when any part changes.
    """

    def __init__(self, one_row_kernel: bool | None = False) -> None:
        self.key: list | None = None
        self.weight: torch.Tensor | None = None
        self.bias: torch.Tensor | None = None
        self.inner = InferenceWeights(one_row_kernel)

    def __call__(self, x: torch.Tensor, layers: tuple[nn.Linear, ...]) -> torch.Tensor:
        """x (..., K) -> (..., sum of the layers' N): torch.cat of their outputs."""
        # _parameters, not .weight: Module.__getattr__ would cost more than the product (small models)
        parts = [t for l in layers for t in (l._parameters["weight"], l._parameters["bias"])]
        try:
            key = [None if t is None else (t._version, t.data_ptr()) for t in parts]
        except RuntimeError:  # parameters made under inference_mode: no version counter to follow
            return torch.cat([F.linear(x, l.weight, l.bias) for l in layers], dim=-1)
        if key != self.key:  # built as normal tensors: `inner` keys on their version counters
            with torch.inference_mode(False), torch.no_grad():
                self.weight = torch.cat([l.weight.detach() for l in layers])
                biases = [l.bias for l in layers]
                self.bias = None if all(b is None for b in biases) else torch.cat([
                    b.detach() if b is not None else l.weight.new_zeros(l.out_features)
                    for b, l in zip(biases, layers)])
            self.key = key
        return self.inner(x, self.weight, self.bias)

    def __getstate__(self) -> dict:
        return self.inner.__getstate__()

    def __setstate__(self, state: dict) -> None:
        self.__init__()
        self.inner.__setstate__(state)  # FusedLinear's own fields are rebuilt on first use


def project(x: torch.Tensor, layers: tuple[nn.Linear, ...], fused: FusedLinear | None) -> tuple[torch.Tensor, ...]:
    """x through each of `layers` (Linears that read the same input): one product through `fused` when
    packing turned it on and no gradient is needed, else one call per layer. -> one output per layer."""
    if fused is not None and _eager_inference():
        return fused(x, layers).split([layer.out_features for layer in layers], dim=-1)
    return tuple(layer(x) for layer in layers)


def pack_for_inference(model: nn.Module, enabled: bool = True) -> nn.Module:
    """Turn the inference weight copies of every backbones.linear.Linear in `model` on (or off, freeing
    them), and the fused projections of the modules that have them (`fused_inference`: attention's
    q/k/v, SwiGLU's gate/up). Copies are built lazily on the first call without gradients. Returns `model`."""
    if not isinstance(model, nn.Module):
        raise TypeError(f"pack_for_inference expects an nn.Module, got {type(model).__name__}")
    # zoo::gemv serves bf16 on the CPU: built now (once per machine, 10-25 s) for a model with bf16 CPU
    # weights, so that compiled steps can call it too; otherwise decided at the first bf16 one-row call
    # (autocast, a later .to(bfloat16)), which only eager calls make.
    bf16_cpu = any(p.is_cpu and p.dtype == torch.bfloat16 for p in model.parameters())
    one_row_kernel = gemv.available() if enabled and bf16_cpu else None
    for module in model.modules():
        if isinstance(module, Linear):
            module.inference_weights = InferenceWeights(one_row_kernel) if enabled else None
        if hasattr(module, "fused_inference"):
            module.fused_inference = FusedLinear(one_row_kernel) if enabled else None
    return model
