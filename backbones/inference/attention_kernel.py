"""Attention through our kernels, built with zoo::gemv (gemv.py): a few query rows over a long cache,
`zoo::decode_attention` (csrc/attention.cpp; AVX2 + FMA; fp32 or bf16 tensors, fp32 arithmetic), and many
rows in bf16, `zoo::bf16_attention` (csrc/attention_bf16.cpp; AVX512-BF16).

A decoding step asks for one row of attention (a few with beams folded into one query) over every cached
key: whisper_tiny's cross-attention reads 1500 keys and values per layer per token, cold. torch's CPU flash
kernel reads them at about half the machine's bandwidth in that shape (in bf16 on an AVX512-BF16 CPU without
AMX, far less: whisper_base's cross-attention took 0.48 ms a call there against ours' 0.06 ms); ours reads
each head's keys once for all its query rows, then its values once, with software prefetching.

`attend()` (backbones/attention.py) routes to it where `applies()`: fp32 or bf16 on the CPU, no mask (or causal with
one query row, which masks nothing), no dropout, no gradient, 1-16 query rows, a head width that is a
multiple of 8 up to 256, and the zoo operators already loaded in this process (`gemv.loaded()`: packing a
model, `pack_for_inference`, loads them; attention never builds them itself). Results equal torch's up to
rounding (exp is a polynomial with relative error below 2e-7); bf16 outputs are rounded once from fp32, as
torch's are.

`zoo::bf16_attention` takes what an encoder or a prompt asks for in bf16: more than 16 query rows, no mask or
causal (bottom-right, as attend() aligns it), a head width that is a multiple of 32 up to 256, on a CPU with
AVX512-BF16 and without AMX (`bf16_applies()`; with AMX, torch's kernel is 2.5-3x faster); in training too,
where its forward keeps each row's log-sum-exp and torch's CPU flash backward computes the gradients from it
(same heads for keys as queries, causal with Tq == Tk).
torch 2.10's CPU flash kernel runs bf16 there at its fp32 speed without AMX; ours does both products with the
AVX512-BF16 dot product: whisper_tiny's encoder attention (6 heads x 1500 x 1500 x 64) 10.8 ms against torch's
29.3 ms, AST base's (12 x 1214 x 1214 x 64) 16.7 against 41.7 on a 2-core Zen 4. Its error against an fp64
softmax equals torch's bf16 flash kernel's (tests).
"""
from __future__ import annotations

import torch

from backbones.inference import gemv, torch_private

# Where the CPU has AMX, torch's CPU flash kernel runs bf16 on its tiles and is faster than ours: AST base's
# 12 x 1214 x 1214 x 64 took 9.6 ms there against ours' 27.6 ms, and 12 x 256 x 256 x 64 0.38 against 1.19
# (2-core AMX Xeon, torch 2.10). attend() then leaves bf16 encoder and prompt calls to torch.
ROUTE_BF16 = not gemv.has_cpu_flag("amx_bf16")
MAX_QUERIES = 16
MAX_HEAD_DIM = 256
KERNEL_DTYPES = (torch.float32, torch.bfloat16)  # both need AVX2 + FMA only: bf16 is widened on load


def inference_only(*tensors: torch.Tensor) -> bool:
    """Whether no gradient flows through these inputs: our operators have none (bf16_attention trains
    through torch's backward)."""
    return not (torch.is_grad_enabled() and any(t.requires_grad for t in tensors))


def applies(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask, causal: bool, dropout_p: float) -> bool:
    """Whether attend() may hand these inputs to zoo::decode_attention (see the module docstring)."""
    tq, dh = q.shape[-2], q.shape[-1]
    return (mask is None and (not causal or tq == 1) and dropout_p == 0.0 and 1 <= tq <= MAX_QUERIES
            and dh % 8 == 0 and dh <= MAX_HEAD_DIM and k.shape[-2] >= 1 and q.is_cpu
            and q.dtype == k.dtype == v.dtype and q.dtype in KERNEL_DTYPES and gemv.supports(torch.float32)
            and inference_only(q, k, v) and gemv.loaded())


def bf16_applies(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask, causal: bool, dropout_p: float) -> bool:
    """Whether attend() may hand these inputs to zoo::bf16_attention (see the module docstring; never on an AMX
    CPU, where torch's kernel is faster): without a gradient any of them, with one (training) the shapes torch's
    flash backward takes (as many kv heads as query heads; causal only with Tq == Tk, where its top-left
    alignment is ours)."""
    tq, tk, dh = q.shape[-2], k.shape[-2], q.shape[-1]
    if not (ROUTE_BF16 and mask is None and dropout_p == 0.0 and tq > MAX_QUERIES and (not causal or tq <= tk)
            and dh % 32 == 0 and dh <= MAX_HEAD_DIM and q.is_cpu and q.dtype == k.dtype == v.dtype == torch.bfloat16
            and q.dim() == 4 and gemv.supports(torch.bfloat16) and gemv.loaded()):
        return False
    return inference_only(q, k, v) or (k.shape[1] == q.shape[1] and (not causal or tq == tk))


def bf16_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, scale: float, causal: bool) -> torch.Tensor:
    """softmax(q k^T * scale [causal]) v in bf16: q (B, H, Tq, Dh), k/v (B, Hkv, Tk, Dh) -> (B, H, Tq, Dh)
    contiguous. With a gradient (bf16_applies' training shapes): our forward, which also keeps each row's
    log-sum-exp, and torch's CPU flash backward from it."""
    if q.stride(-1) != 1 or k.stride(-1) != 1 or v.stride(-1) != 1:  # it reads rows of Dh contiguous values
        q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    if inference_only(q, k, v):
        return torch.ops.zoo.bf16_attention(q, k, v, scale, causal)
    return _TrainedAttention.apply(q, k, v, scale, causal)


class _TrainedAttention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, scale: float, causal: bool):
        out, lse = torch.ops.zoo.bf16_attention_lse(q, k, v, scale, causal)  # (B, H, Tq, Dh), (B, H, Tq)
        ctx.save_for_backward(q, k, v, out, lse)
        ctx.scale, ctx.causal = scale, causal
        return out

    @staticmethod
    def backward(ctx, grad_out):
        q, k, v, out, lse = ctx.saved_tensors
        dq, dk, dv = torch_private.flash_attention_backward(grad_out.contiguous(), q, k, v, out, lse, ctx.causal,
                                                            ctx.scale)
        return dq, dk, dv, None, None


def decode_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, scale: float) -> torch.Tensor:
    """softmax(q k^T * scale) v: q (B, H, Tq, Dh), k/v (B, Hkv, Tk, Dh) -> (B, H, Tq, Dh) contiguous.
    Inference only: the operator has no gradient."""
    if k.stride(-1) != 1 or v.stride(-1) != 1:  # the operator reads rows of Dh contiguous floats
        k, v = k.contiguous(), v.contiguous()
    return torch.ops.zoo.decode_attention(q.contiguous(), k, v, scale)
