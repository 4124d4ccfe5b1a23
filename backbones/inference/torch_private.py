"""The private torch APIs (leading underscore) that inference packing and the zoo::gemv build use.

torch may rename or drop any of these in a release without notice, so they are reached only through
this file, and tests/backbones/test_torch_private.py fails, naming the API, when the installed torch
lacks one that its build should have. Everything else in backbones/inference uses public torch API.

Checked on torch CHECKED_ON. oneDNN (mkldnn) and MKL are the CPU libraries x86 builds of torch ship;
their ops exist only in builds with that library (`torch.backends.mkldnn/mkl.is_available()`).
"""
from __future__ import annotations

import importlib
import operator
from collections.abc import Callable

import torch
from torch import nn

CHECKED_ON = "2.10.0"


def _mkldnn() -> bool:
    return torch.backends.mkldnn.is_available()


def _mkl() -> bool:
    return torch.backends.mkl.is_available()


def _always() -> bool:
    return True


# Dotted name -> (what we use it for, whether this build of torch should have it).
APIS: dict[str, tuple[str, Callable[[], bool]]] = {
    "torch.ops.mkldnn._linear_pointwise": ("oneDNN's linear on a weight in its packed layout", _mkldnn),
    "torch.ops.mkldnn._reorder_linear_weight": ("packs a weight into oneDNN's blocked layout", _mkldnn),
    "torch.ops.mkldnn._is_mkldnn_bf16_supported": ("whether oneDNN runs bf16 on this CPU", _mkldnn),
    "torch.ops.mkl._mkl_linear": ("MKL's packed GEMM (fp32, many rows)", _mkl),
    "torch.ops.mkl._mkl_reorder_linear_weight": ("packs a weight for MKL's packed GEMM", _mkl),
    "torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward": (
        "the backward of zoo::bf16_attention's training forward: torch's CPU flash backward", _always),
    "torch._C._is_any_autocast_enabled": ("one cheap autocast test per call, for every device", _always),
    "torch._check": ("zoo::gemv's shape function checks its inputs while tracing", _always),
    "torch.utils.cpp_extension._get_build_directory": ("where a killed build left its lock", _always),
    "torch.Tensor._version": ("a weight's in-place version counter: copies follow optimizer steps", _always),
    "torch.nn.Module._parameters": ("the parameter dict, read without Module.__getattr__'s cost", _always),
}


def _exists(dotted: str) -> bool:
    if dotted == "torch.Tensor._version":  # an attribute of instances, not of the class
        return hasattr(torch.zeros(1), "_version")
    if dotted == "torch.nn.Module._parameters":
        return "_parameters" in vars(nn.Linear(1, 1))
    parts = dotted.split(".")
    obj = torch
    for i, part in enumerate(parts[1:], start=2):
        try:
            obj = getattr(obj, part)  # an unknown op in a torch.ops namespace raises AttributeError too
        except AttributeError:
            try:  # a submodule not imported yet (torch.utils.cpp_extension)
                obj = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                return False
    return True


def missing() -> list[str]:
    """The APIs above that this torch build should have but lacks."""
    return [name for name, (_, needed) in APIS.items() if needed() and not _exists(name)]


# --- the accessors (hot ones bound once: decoding a small model calls them ~100 times per token) ---

is_any_autocast_enabled: Callable[[], bool] = torch._C._is_any_autocast_enabled
tensor_version: Callable[[torch.Tensor], int] = operator.attrgetter("_version")  # RuntimeError: inference tensor
module_parameters: Callable[[nn.Module], dict] = operator.attrgetter("_parameters")
check: Callable[..., None] = torch._check


def mkldnn_bf16_supported() -> bool:
    return _mkldnn() and torch.ops.mkldnn._is_mkldnn_bf16_supported()


def mkl_linear_available() -> bool:
    return _mkl() and hasattr(torch.ops.mkl, "_mkl_linear")


def onednn_pack(weight: torch.Tensor, rows_hint: int) -> torch.Tensor:
    """weight (N, K) in oneDNN's blocked layout for about `rows_hint` rows: an opaque mkldnn tensor."""
    return torch.ops.mkldnn._reorder_linear_weight(weight, rows_hint)


def onednn_linear(x: torch.Tensor, packed: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
    """x (..., K) -> (..., N) through oneDNN, `packed` from onednn_pack."""
    return torch.ops.mkldnn._linear_pointwise(x, packed, bias, "none", [], "")


def mkl_pack(weight: torch.Tensor, rows: int) -> torch.Tensor:
    """weight (N, K) packed by MKL for products of exactly `rows` rows (others still run, slower)."""
    return torch.ops.mkl._mkl_reorder_linear_weight(weight, rows)


def mkl_linear(x: torch.Tensor, packed: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None,
               rows: int) -> torch.Tensor:
    """x (..., K) -> (..., N) through MKL's packed GEMM; `weight` is the unpacked original it falls back to."""
    return torch.ops.mkl._mkl_linear(x, packed, weight, bias, rows)


def flash_attention_backward(grad_out: torch.Tensor, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                             out: torch.Tensor, logsumexp: torch.Tensor, causal: bool, scale: float):
    """(dq, dk, dv) of out = softmax(q k^T * scale [causal, top-left]) v, q/k/v/out (B, H, T, Dh), from out and
    each row's log-sum-exp (B, H, Tq) fp32, through torch's CPU flash-attention backward kernel."""
    return torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward(
        grad_out, q, k, v, out, logsumexp, 0.0, causal, scale=scale)


def build_directory(name: str) -> str:
    """The folder torch.utils.cpp_extension.load builds extension `name` in."""
    from torch.utils.cpp_extension import _get_build_directory

    return _get_build_directory(name, verbose=False)
