"""`zoo_cpu`, the attention backend of our CPU kernels, built with zoo::gemv (gemv.py):

- `zoo::decode_attention` (csrc/attention.cpp; AVX2 + FMA; fp32 or bf16 tensors, fp32 arithmetic): a few
  query rows over a long cache, what a decoding step asks for. It reads each head's keys once for all its
  query rows, then its values once, with software prefetching.
- `zoo::bf16_attention` (csrc/attention_bf16.cpp; AVX512-BF16): many query rows in bf16 (an encoder, a
  prompt), with no mask or bottom-right causal, on a CPU without AMX (with AMX torch's kernel is the
  faster); in training too, where its forward keeps each row's log-sum-exp and torch's CPU flash backward
  computes the gradients from it (same heads for keys as queries, causal with Tq == Tk);
- `zoo::f32_attention` (csrc/attention_f32.cpp; AVX2 + FMA): many query rows in fp32, no mask or bottom-right
  causal, inference only, on a CPU without AVX-512 (the only kind it was measured on). There it takes 0.5-0.7x
  torch's time from 17 to a few hundred keys, where torch's flash kernel pays its per-call and per-block costs,
  and the same time on Whisper's 1,500 (both near the FMA units' rate; docs/notes/2026-12-08-f32-attention.md).

Importing this module registers the backend with backbones.attention (`register_backend`);
`pack_for_inference` builds the operators and sets `zoo_cpu` on the attention layers of the model it
packs, so only packed models use it. Inputs the kernels do not take (a mask, dropout, CUDA, shapes
outside `applies`, `bf16_applies` and `f32_applies`) go where `auto` sends them. Results equal torch's up to
rounding (exp is a polynomial with relative error below 2e-7); bf16 outputs are rounded once from fp32, as
torch's are.
"""
from __future__ import annotations

import torch

from backbones.attention import RegisteredBackend, register_backend
from backbones.inference import gemv, torch_private

BACKEND = "zoo_cpu"
# Where the CPU has AMX, torch's CPU flash kernel runs bf16 on its tiles and is faster than ours
# (docs/notes/2026-12-06-cpu-kernels.md): bf16 encoder and prompt calls then stay with torch.
ROUTE_BF16 = not gemv.has_cpu_flag("amx_bf16")
# Measured on an AVX2-only CPU only; where the CPU has AVX-512, torch's fp32 kernel runs it and ours would not.
ROUTE_F32 = not gemv.has_cpu_flag("avx512f")
MAX_QUERIES = 16
MAX_HEAD_DIM = 256
KERNEL_DTYPES = (torch.float32, torch.bfloat16)  # both need AVX2 + FMA only: bf16 is widened on load


def inference_only(*tensors: torch.Tensor) -> bool:
    """Whether no gradient flows through these inputs: our operators have none (bf16_attention trains
    through torch's backward)."""
    return not (torch.is_grad_enabled() and any(t.requires_grad for t in tensors))


def applies(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask, causal: bool, dropout_p: float) -> bool:
    """Whether zoo::decode_attention takes these inputs (see the module docstring); attend() has made a
    one-row causal call unmasked already."""
    tq, dh = q.shape[-2], q.shape[-1]
    return (mask is None and not causal and dropout_p == 0.0 and 1 <= tq <= MAX_QUERIES
            and dh % 8 == 0 and dh <= MAX_HEAD_DIM and k.shape[-2] >= 1 and q.is_cpu
            and q.dtype == k.dtype == v.dtype and q.dtype in KERNEL_DTYPES and gemv.supports(torch.float32)
            and inference_only(q, k, v) and gemv.loaded())


def bf16_applies(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask, causal: bool, dropout_p: float) -> bool:
    """Whether zoo::bf16_attention takes these inputs (see the module docstring; never on an AMX
    CPU, where torch's kernel is faster): without a gradient any of them, with one (training) the shapes torch's
    flash backward takes (as many kv heads as query heads; causal only with Tq == Tk, where its top-left
    alignment is ours)."""
    tq, tk, dh = q.shape[-2], k.shape[-2], q.shape[-1]
    if not (ROUTE_BF16 and mask is None and dropout_p == 0.0 and tq > MAX_QUERIES and (not causal or tq <= tk)
            and dh % 32 == 0 and dh <= MAX_HEAD_DIM and q.is_cpu and q.dtype == k.dtype == v.dtype == torch.bfloat16
            and q.dim() == 4 and gemv.supports(torch.bfloat16) and gemv.loaded()):
        return False
    return inference_only(q, k, v) or (k.shape[1] == q.shape[1] and (not causal or tq == tk))


def f32_applies(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask, causal: bool, dropout_p: float) -> bool:
    """Whether zoo::f32_attention takes these inputs (see the module docstring): fp32 inference, more query rows
    than the decoding kernel takes, on a CPU without AVX-512."""
    tq, tk, dh = q.shape[-2], k.shape[-2], q.shape[-1]
    return (ROUTE_F32 and mask is None and dropout_p == 0.0 and tq > MAX_QUERIES and (not causal or tq <= tk)
            and dh % 8 == 0 and dh <= MAX_HEAD_DIM and q.is_cpu and q.dtype == k.dtype == v.dtype == torch.float32
            and q.dim() == 4 and gemv.supports(torch.float32) and inference_only(q, k, v) and gemv.loaded())


def f32_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, scale: float, causal: bool) -> torch.Tensor:
    """softmax(q k^T * scale [causal]) v in fp32: q (B, H, Tq, Dh), k/v (B, Hkv, Tk, Dh) -> (B, H, Tq, Dh)
    contiguous. Inference only: the operator has no gradient."""
    if q.stride(-1) != 1 or k.stride(-1) != 1 or v.stride(-1) != 1:  # it reads rows of Dh contiguous floats
        q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    return torch.ops.zoo.f32_attention(q, k, v, scale, causal)


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


def why_not(q: torch.Tensor) -> str | None:
    """None once the operators are loaded in this process (pack_for_inference builds and loads them)."""
    if gemv.loaded():
        return None
    return ("the zoo operators are not loaded in this process: pack_for_inference(model) builds them and sets "
            f"this backend ({gemv.reason(torch.float32) or 'not built yet'})")


def attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask, causal: bool, dropout_p: float,
           scale: float) -> torch.Tensor | None:
    """The backend's entry (backbones.attention.RegisteredBackend.run): our kernel's output where one takes
    the inputs, else None (attend() then sends them where `auto` would)."""
    if applies(q, k, v, mask, causal, dropout_p):  # decoding: a few rows over a long cache
        return decode_attention(q, k, v, scale)
    if bf16_applies(q, k, v, mask, causal, dropout_p):  # many rows in bf16, AVX512-BF16, no AMX
        return bf16_attention(q, k, v, scale, causal)
    if f32_applies(q, k, v, mask, causal, dropout_p):  # many rows in fp32, AVX2 without AVX-512
        return f32_attention(q, k, v, scale, causal)
    return None


register_backend(BACKEND, RegisteredBackend(why_not=why_not, run=attend))
