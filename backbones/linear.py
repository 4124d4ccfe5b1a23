"""Linear layers that can keep an inference copy of their weight, packed for the CPU's GEMM library.

`Linear` is `nn.Linear`: the same parameters, state_dict keys and training
path. What it adds is opt-in, for inference only:

    pack_for_inference(model)          # every backbones.linear.Linear in the model
    with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16):
        model(x)                       # no per-call weight cast; oneDNN's packed GEMM

With packing on, a call made without gradients (no_grad / inference_mode)
uses a copy of the weight cast to the compute dtype (the autocast dtype, else
the input's) and, on CPU, reordered once into oneDNN's blocked layout. Why:

- under autocast, nn.Linear casts its fp32 weight to bf16 on every call,
  which costs a third of a bf16 BERT forward on a 2-core CPU; the copy is
  cast once;
- torch's own CPU GEMM runs the few-row products of decoding at half
  oneDNN's packed speed (bf16 at any row count; fp32 from 4 to ~100 rows).

The outputs are those of F.linear on the same dtypes up to summation order
(tested). The copy is rebuilt when the weight or bias changes (their version
counters or storage move: an optimizer step, load_state_dict, .to()), and is
never saved or pickled. The cost is memory: one more copy of every weight
(half size in bf16). Calls that need gradients always take nn.Linear's path.

Legend: N output features, K input features.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

# oneDNN's packing takes an expected row count; 8 serves batch-1..8 decoding and full batches alike (measured).
_ROWS_HINT = 8
# In fp32, oneDNN's packed GEMM beats torch's (MKL) from 2 to a few hundred rows (1.3-2x at 4-64 rows on a
# Sapphire Rapids core pair) and loses at 1 row (0.6-0.8x); outside this range the plain weight is used.
_FP32_ROWS = range(2, 257)


def _onednn_ok(dtype: torch.dtype) -> bool:
    if not torch.backends.mkldnn.is_available():
        return False
    if dtype == torch.float32:
        return True
    return dtype == torch.bfloat16 and torch.ops.mkldnn._is_mkldnn_bf16_supported()


def _compute_dtype(x: torch.Tensor, weight: torch.Tensor) -> torch.dtype | None:
    """The dtype F.linear would compute in, or None where it would raise (left to F.linear to say)."""
    device = x.device.type
    if torch.is_autocast_enabled(device) and x.is_floating_point() and x.dtype != torch.float64:
        return torch.get_autocast_dtype(device)  # autocast leaves float64 alone
    return x.dtype if x.dtype == weight.dtype else None


class InferenceWeights:
    """The packed (or just cast) weight and bias of one Linear, keyed on what they were made from."""

    def __init__(self) -> None:
        self.key: tuple | None = None
        self.weight: torch.Tensor | None = None
        self.bias: torch.Tensor | None = None
        self.onednn = False

    @staticmethod
    def _key(weight: torch.Tensor, bias: torch.Tensor | None, dtype: torch.dtype) -> tuple:
        b = (None,) if bias is None else (bias._version, bias.data_ptr(), bias.dtype)
        return (dtype, weight.device, weight._version, weight.data_ptr(), weight.dtype, *b)

    def __call__(self, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
        dtype = _compute_dtype(x, weight)
        if dtype is None:
            return F.linear(x, weight, bias)
        key = self._key(weight, bias, dtype)
        if key != self.key:
            self._build(weight, bias, dtype)
            self.key = key
        x = x.to(dtype)
        if not self.onednn:
            return F.linear(x, self.weight, self.bias)
        if dtype == torch.float32 and x.numel() // max(x.shape[-1], 1) not in _FP32_ROWS:
            return F.linear(x, weight, bias)
        return torch.ops.mkldnn._linear_pointwise(x, self.weight, self.bias, "none", [], "")

    def _build(self, weight: torch.Tensor, bias: torch.Tensor | None, dtype: torch.dtype) -> None:
        with torch.no_grad():
            w = weight.detach().to(dtype)
            self.bias = None if bias is None else bias.detach().to(dtype)
            self.onednn = weight.device.type == "cpu" and _onednn_ok(dtype)
            self.weight = torch.ops.mkldnn._reorder_linear_weight(w, _ROWS_HINT) if self.onednn else w

    def clear(self) -> None:
        self.__init__()

    # A oneDNN tensor has no storage to copy or pickle; the copy is rebuilt on first use instead.
    def __getstate__(self) -> dict:
        return {}

    def __setstate__(self, state: dict) -> None:
        self.__init__()


class Linear(nn.Linear):
    """nn.Linear, plus the opt-in inference weight copy described in the module docstring."""

    inference_weights: InferenceWeights | None = None  # None: packing off (the default)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.inference_weights is None or torch.is_grad_enabled():
            return F.linear(x, self.weight, self.bias)
        return self.inference_weights(x, self.weight, self.bias)  # (..., N)


def pack_for_inference(model: nn.Module, enabled: bool = True) -> nn.Module:
    """Turn the inference weight copies of every backbones.linear.Linear in `model` on (or off, freeing
    them). They are built lazily on the first call without gradients. Returns `model`."""
    if not isinstance(model, nn.Module):
        raise TypeError(f"pack_for_inference expects an nn.Module, got {type(model).__name__}")
    for module in model.modules():
        if isinstance(module, Linear):
            module.inference_weights = InferenceWeights() if enabled else None
    return model
