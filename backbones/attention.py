"""Attention: the `attend()` dispatcher and the MultiHeadAttention module.

`attend` computes softmax(Q K^T / sqrt(Dh)) V (Vaswani et al. 2017) through one
of three backends, tried in priority order as xformers' fmha dispatcher does:

- `xformers`: memory-efficient attention (Rabe & Staats 2021; xformers 0.0.35)
  on CUDA in fp16/bf16. It wants (B, T, H, Dh) and additive biases.
- `sdpa`: `torch.nn.functional.scaled_dot_product_attention`, which on CPU has
  a flash-style kernel and on CUDA flash / memory-efficient kernels.
- `math`: the explicit formula; always available, the test oracle for the
  others, and the only one that can return the attention weights.

More backends can be registered by name (`register_backend`): `pack_for_inference`
registers `zoo_cpu`, our CPU kernels (backbones/inference/attention_kernel.py), and
sets it on the attention layers of the model it packs; `auto` never picks one.

Legend: B batch, H query heads, Hkv key/value heads (grouped-query attention:
Hkv divides H), Tq query tokens, Tk key tokens, Dh head width, D model width.
Masks follow `backbones/masks.py`: boolean, True = may attend, plus `causal`
aligned bottom-right.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from backbones.masks import combine, ensure_nonempty_rows
from backbones.modules import set_on_each
from backbones.precision import InputProjections, cast_for_autocast

BACKENDS = ("xformers", "sdpa", "math")  # built in, in `auto`'s order of preference


@dataclass(frozen=True)
class RegisteredBackend:
    """A backend outside this file. `why_not(q)`: None if it can serve inputs like q, else the reason.
    `run(q, k, v, mask, causal, dropout_p, scale)`: the output, or None for inputs its kernels do not
    take, which then go where `auto` would send them. Masks reach it as every backend sees them: None
    (with `causal`), or one explicit boolean mask with no empty row and causal False."""
    why_not: Callable[[torch.Tensor], str | None]
    run: Callable[..., torch.Tensor | None]


_REGISTERED: dict[str, RegisteredBackend] = {}


def register_backend(name: str, backend: RegisteredBackend) -> None:
    """Make `name` a backend that attend(), set_attention_backend and MultiHeadAttention accept."""
    if name in BACKENDS or name == "auto":
        raise ValueError(f"{name!r} is a built-in backend name; register another name")
    _REGISTERED[name] = backend


def backend_names() -> tuple[str, ...]:
    """Every backend attend() accepts besides "auto": the built-in ones, then the registered ones."""
    return BACKENDS + tuple(_REGISTERED)


def _check_backend_name(backend: str) -> None:
    if backend != "auto" and backend not in backend_names():
        raise ValueError(f"backend must be one of 'auto', {', '.join(map(repr, backend_names()))}; "
                         f"got {backend!r}")

try:  # xformers is optional at import time: it has no CPU kernels anyway
    import xformers.ops as _xops
    import xformers.ops.fmha.attn_bias as _xbias
    from xformers import _cpp_lib
    # Its compiled kernels load only with the torch they were built for. Without them xformers still runs,
    # as a Python dispatcher over torch's own flash / memory-efficient kernels: slower than calling SDPA
    # (measured on an H200 with torch 2.11: 1.7-7x per attend() call), so `auto` then prefers sdpa.
    XFORMERS_COMPILED = _cpp_lib._cpp_library_load_exception is None
except Exception:  # noqa: BLE001 - any import failure just disables the backend
    _xops = None
    _xbias = None
    XFORMERS_COMPILED = False


def _check_shapes(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> None:
    if q.dim() != 4 or k.dim() != 4 or v.dim() != 4:
        raise ValueError(
            f"attend expects q (B, H, Tq, Dh), k and v (B, Hkv, Tk, Dh); got q {tuple(q.shape)}, "
            f"k {tuple(k.shape)}, v {tuple(v.shape)}")
    if k.shape != v.shape or q.shape[0] != k.shape[0] or q.shape[-1] != k.shape[-1]:
        raise ValueError(f"k and v must be (B, Hkv, Tk, Dh) matching q's B and Dh; got q {tuple(q.shape)}, "
                         f"k {tuple(k.shape)}, v {tuple(v.shape)}")
    if q.shape[1] % k.shape[1]:
        raise ValueError(f"key/value heads ({k.shape[1]}) must divide query heads ({q.shape[1]})")


def _why_not(backend: str, q: torch.Tensor, need_weights: bool) -> str | None:
    """None if `backend` can run these inputs, else the reason it cannot."""
    if need_weights and backend != "math":
        return "only math returns attention weights"
    if backend in _REGISTERED:
        return _REGISTERED[backend].why_not(q)
    if backend == "xformers":
        if _xops is None:
            return "xformers is not importable"
        if q.device.type != "cuda":
            return f"xformers has no kernels for device {q.device.type}"
        if q.dtype not in (torch.float16, torch.bfloat16):
            return f"xformers runs fp16/bf16, got {q.dtype}"
    return None


def available_backends(q: torch.Tensor, need_weights: bool = False) -> dict[str, str | None]:
    """{backend: None if usable else why not} for inputs like q."""
    return {name: _why_not(name, q, need_weights) for name in backend_names()}


def _auto_backend(q: torch.Tensor, k: torch.Tensor) -> str:
    # On CPU, SDPA's flash-attention backward in bf16/fp16 is 2-3x slower than the math path for short
    # sequences (torch 2.10; the GPT-2 bf16 training step gets ~20 % faster at 128 tokens). Past a few
    # hundred keys the math path's (B, H, Tq, Tk) scores cost more than that saves.
    if q.device.type == "cpu":  # neither xformers nor anything else: decide without building the reasons
        low_precision_training = q.requires_grad and q.dtype in (torch.bfloat16, torch.float16)
        return "math" if low_precision_training and k.shape[-2] <= 256 else "sdpa"
    preferred = BACKENDS if XFORMERS_COMPILED else ("sdpa", "xformers", "math")
    return next(name for name in preferred if _why_not(name, q, False) is None)


def attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, mask: torch.Tensor | None = None,
           causal: bool = False, dropout_p: float = 0.0, scale: float | None = None,
           backend: str = "auto") -> torch.Tensor:
    """softmax(q k^T * scale + mask) v. q (B, H, Tq, Dh), k/v (B, Hkv, Tk, Dh) -> (B, H, Tq, Dh).

    backend: "auto" (first that can run the inputs), "xformers", "sdpa", "math" or a registered one.
    Forcing a backend that cannot run raises ValueError listing every backend's reason.
    """
    _check_shapes(q, k, v)
    _check_backend_name(backend)
    if backend == "auto":
        backend = _auto_backend(q, k)
    elif (reason := _why_not(backend, q, False)) is not None:
        reasons = "; ".join(f"{n}: {r or 'ok'}" for n, r in available_backends(q).items())
        raise ValueError(f"attention backend {backend!r} cannot run these inputs ({reason}). Backends: {reasons}")
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    mask, causal = _one_mask(mask, causal, q.shape[-2], k.shape[-2], q.device)
    if backend in _REGISTERED:
        out = _REGISTERED[backend].run(q, k, v, mask, causal, dropout_p, scale)
        if out is not None:
            return out
        backend = _auto_backend(q, k)
    if backend == "xformers":
        return _attend_xformers(q, k, v, mask, causal, dropout_p, scale)
    if backend == "sdpa":
        return _attend_sdpa(q, k, v, mask, causal, dropout_p, scale)
    return _attend_math(q, k, v, mask, causal, dropout_p, scale)[0]


def _one_mask(mask: torch.Tensor | None, causal: bool, tq: int, tk: int,
              device: torch.device) -> tuple[torch.Tensor | None, bool]:
    """What every backend receives: no mask (with the causal flag), or one explicit mask, causality folded
    in and no empty row (ensure_nonempty_rows), with causal False. One query row under bottom-right
    causality sees every key: nothing to mask."""
    if causal and tq == 1:
        causal = False
    if mask is None:
        return None, causal
    return ensure_nonempty_rows(combine(mask, causal, tq, tk, device)), False


def attend_math(q, k, v, *, mask=None, causal=False, dropout_p=0.0, scale=None):
    """The reference: returns (out (B, H, Tq, Dh), weights (B, H, Tq, Tk))."""
    _check_shapes(q, k, v)
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    mask, causal = _one_mask(mask, causal, q.shape[-2], k.shape[-2], q.device)
    return _attend_math(q, k, v, mask, causal, dropout_p, scale)


def _attend_math(q, k, v, mask, causal, dropout_p, scale):
    group = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(group, dim=1)  # (B, H, Tk, Dh)
    v = v.repeat_interleave(group, dim=1)  # (B, H, Tk, Dh)
    scores = (q @ k.transpose(-2, -1)) * scale  # (B, H, Tq, Tk)
    mask = combine(mask, causal, q.shape[-2], k.shape[-2], q.device)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores.float(), dim=-1).to(q.dtype)  # fp32 softmax, as every reference does
    if dropout_p > 0.0:
        weights = F.dropout(weights, p=dropout_p)
    return weights @ v, weights  # (B, H, Tq, Dh), (B, H, Tq, Tk)


def _attend_sdpa(q, k, v, mask, causal, dropout_p, scale):
    tq, tk = q.shape[-2], k.shape[-2]
    gqa = q.shape[1] != k.shape[1]
    if mask is None and (not causal or tq == tk):
        # Fast path: no explicit mask; SDPA's top-left causal is right when Tq == Tk.
        return F.scaled_dot_product_attention(q, k, v, dropout_p=dropout_p, is_causal=causal,
                                              scale=scale, enable_gqa=gqa)
    mask = combine(mask, causal, tq, tk, q.device)  # a chunk after a cache: bottom-right causal, made explicit
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=dropout_p,
                                          scale=scale, enable_gqa=gqa)


def _attend_xformers(q, k, v, mask, causal, dropout_p, scale):
    """xformers wants (B, T, heads, Dh) and one dtype (autocast does not cast its inputs, and a KV cache may
    hold another dtype than q). Grouped-query heads: without gradients (decoding) in its 5-D
    (B, T, Hkv, group, Dh) layout, keys and values expanded over the group without a copy; its backward
    kernels do not take that layout (xformers 0.0.35), so training repeats them per query head."""
    b, h, tq, dh = q.shape
    tk = k.shape[-2]
    k, v = k.to(q.dtype), v.to(q.dtype)
    grad = torch.is_grad_enabled() and (q.requires_grad or k.requires_grad or v.requires_grad)
    if grad and k.shape[1] != h:
        k = k.repeat_interleave(h // k.shape[1], dim=1)  # (B, H, Tk, Dh)
        v = v.repeat_interleave(h // v.shape[1], dim=1)  # (B, H, Tk, Dh)
    hkv = k.shape[1]
    group = h // hkv
    if mask is None:
        if not causal:
            bias = None
        elif tq == tk:
            bias = _xbias.LowerTriangularMask()
        else:  # chunk decoded against a cache: causal is bottom-right aligned
            bias = _xbias.LowerTriangularFromBottomRightMask()
    else:
        # xformers wants a dense additive bias whose last two strides are 1 and a multiple of 8: allocate a
        # padded buffer (B, Hkv, group, Tq, 8k) and hand it a view.
        padded = (tk + 7) // 8 * 8
        bias = torch.zeros(b, hkv, group, tq, padded, dtype=q.dtype, device=q.device)[..., :tk]
        mask = mask[(None,) * (4 - mask.dim())].expand(b, h, tq, tk).unflatten(1, (hkv, group))
        bias.masked_fill_(~mask, float("-inf"))
        if group == 1:
            bias = bias[:, :, 0]  # (B, H, Tq, Tk)
    q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)  # (B, T, heads, Dh)
    if group > 1:
        q = q.unflatten(2, (hkv, group))  # (B, Tq, Hkv, group, Dh)
        k = k[:, :, :, None].expand(b, tk, hkv, group, dh)
        v = v[:, :, :, None].expand(b, tk, hkv, group, dh)
    # Without gradients, its forward-only entry: the autograd one picks a backward kernel (none takes 5-D)
    # whenever an input has requires_grad, even under torch.no_grad.
    attention = _xops.memory_efficient_attention if grad else _xops.memory_efficient_attention_forward
    out = attention(q, k, v, attn_bias=bias, p=dropout_p, scale=scale)
    return out.reshape(b, tq, h, dh).transpose(1, 2)  # (B, H, Tq, Dh)


def set_attention_backend(model: nn.Module, backend: str) -> int:
    """Route every MultiHeadAttention inside `model` through `backend` ("auto", "xformers", "sdpa", "math"
    or a registered one); returns how many attention layers it set. Whether the backend can run is checked
    per call, on the actual inputs, with the reasons of every backend in the error."""
    _check_backend_name(backend)
    return set_on_each(model, MultiHeadAttention, "backend", backend, "to set a backend on")


class MultiHeadAttention(nn.Module):
    """Self- or cross-attention with separate q/k/v projections, GQA, RoPE and a KV cache.

    Built by composition: `rope` (a RotaryEmbedding or None) is plugged in, not
    switched by a flag; a decoding session hands each call its `cache` (a KVCache,
    or for cross-attention a CrossKVCache), which the layer never keeps. With
    cross=True it attends to `context` (the encoder output), whose keys and
    values the CrossKVCache keeps after the first decoding step.
    """

    def __init__(self, dim: int, num_heads: int, num_kv_heads: int | None = None, head_dim: int | None = None,
                 *, bias: bool = True, k_bias: bool | None = None, out_bias: bool | None = None,
                 kv_dim: int | None = None, cross: bool = False, rope: nn.Module | None = None,
                 dropout: float = 0.0, backend: str = "auto"):
        super().__init__()
        self.num_heads = num_heads
        self.num_kv_heads = num_kv_heads or num_heads
        self.head_dim = head_dim or dim // num_heads
        if num_heads % self.num_kv_heads:
            raise ValueError(f"num_kv_heads ({self.num_kv_heads}) must divide num_heads ({num_heads})")
        kv_dim = kv_dim or dim
        self.q_proj = nn.Linear(dim, num_heads * self.head_dim, bias=bias)
        # Whisper's k_proj has no bias while q and v do, hence the separate switch.
        self.k_proj = nn.Linear(kv_dim, self.num_kv_heads * self.head_dim, bias=bias if k_bias is None else k_bias)
        self.v_proj = nn.Linear(kv_dim, self.num_kv_heads * self.head_dim, bias=bias)
        self.o_proj = nn.Linear(num_heads * self.head_dim, dim, bias=bias if out_bias is None else out_bias)
        # Self-attention's q, k and v read one input: x cast once, then each projection (cross: None).
        self.in_proj = None if cross else InputProjections()
        self.cross = cross
        self.rope = rope
        self.dropout = dropout
        self.backend = backend

    def _heads(self, x: torch.Tensor, n: int) -> torch.Tensor:
        b, t, _ = x.shape
        return x.view(b, t, n, self.head_dim).transpose(1, 2)  # (B, n, T, Dh)

    def _project(self, x: torch.Tensor, context: torch.Tensor | None, positions, input_pos, cache):
        """q (B, H, Tq, Dh), k and v (B, Hkv, Tk, Dh): projections, RoPE and the KV cache."""
        if not self.cross:
            q, k, v = self.in_proj(x, (self.q_proj, self.k_proj, self.v_proj))
            q = self._heads(q, self.num_heads)  # (B, H, Tq, Dh)
            k = self._heads(k, self.num_kv_heads)  # (B, Hkv, Tq, Dh)
            v = self._heads(v, self.num_kv_heads)  # (B, Hkv, Tq, Dh)
            if self.rope is not None:
                q, k = self.rope(q, k, positions)
            if cache is not None:
                k, v = cache.update(0 if input_pos is None else input_pos, k, v)  # (B, Hkv, S, Dh)
            return q, k, v
        q = self._heads(self.q_proj(x), self.num_heads)  # (B, H, Tq, Dh)
        if cache is not None and cache.filled:
            k, v = cache.k, cache.v  # encoder keys computed once per input
        else:
            if context is None:
                raise ValueError("cross-attention needs `context` (the encoder output) until its cache is filled")
            context = cast_for_autocast(context)  # once for k and v
            k = self._heads(self.k_proj(context), self.num_kv_heads)  # (A, Hkv, Tk, Dh)
            v = self._heads(self.v_proj(context), self.num_kv_heads)  # (A, Hkv, Tk, Dh)
            if cache is not None:
                cache.store(k, v, session_rows=x.shape[0])
        return q, k, v

    def _merge(self, out: torch.Tensor) -> torch.Tensor:
        b, _, t, _ = out.shape
        return self.o_proj(out.transpose(1, 2).reshape(b, t, self.num_heads * self.head_dim))  # (B, Tq, D)

    def forward(self, x: torch.Tensor, context: torch.Tensor | None = None, *,
                mask: torch.Tensor | None = None, causal: bool = False,
                positions: torch.Tensor | None = None, input_pos: int | None = None,
                cache=None) -> torch.Tensor:
        """x (B, Tq, D), context (B, Tk, Dkv) or None -> (B, Tq, D).

        positions: (B, Tq) or (Tq,) position ids (or a range) for RoPE. cache: the session's KVCache
        (self-attention) or CrossKVCache (cross-attention), or None; input_pos: where this chunk starts in
        the KVCache.
        """
        q, k, v = self._project(x, context, positions, input_pos, cache)
        dropout_p = self.dropout if self.training else 0.0
        if k.shape[0] != q.shape[0]:
            out = self._grouped_cross(q, k, v, mask, dropout_p)
        else:
            out = attend(q, k, v, mask=mask, causal=causal, backend=self.backend, dropout_p=dropout_p)
        return self._merge(out)  # (B, Tq, D)

    def _grouped_cross(self, q, k, v, mask, dropout_p) -> torch.Tensor:
        """Cross-attention of B = A x G query rows on A context rows (G beams or samples per input, each
        input's rows adjacent): the G rows' queries attend as one longer query, so the context's keys and
        values are never repeated. q (B, H, Tq, Dh), k/v (A, Hkv, Tk, Dh) -> (B, H, Tq, Dh)."""
        b, h, tq, dh = q.shape
        inputs = k.shape[0]
        key_mask = mask is None or (mask.dim() == 4 and mask.shape[0] in (1, inputs) and mask.shape[2] == 1)
        if not self.cross or b % inputs or not key_mask:
            raise ValueError(f"queries of batch {b} on keys of batch {inputs}: only cross-attention with at most a "
                             "key mask (A, 1, 1, Tk) takes a whole number of query rows per context row")
        g = b // inputs
        folded = q.view(inputs, g, h, tq, dh).transpose(1, 2).reshape(inputs, h, g * tq, dh)  # (A, H, G*Tq, Dh)
        out = attend(folded, k, v, mask=mask, backend=self.backend, dropout_p=dropout_p)
        return out.view(inputs, h, g, tq, dh).transpose(1, 2).reshape(b, h, tq, dh)  # (B, H, Tq, Dh)

    def forward_with_weights(self, x: torch.Tensor, context: torch.Tensor | None = None, *,
                             mask: torch.Tensor | None = None, causal: bool = False,
                             positions: torch.Tensor | None = None,
                             input_pos: int | None = None, cache=None) -> tuple[torch.Tensor, torch.Tensor]:
        """The same through attend_math, which also returns the weights: (B, Tq, D), (B, H, Tq, Tk)."""
        q, k, v = self._project(x, context, positions, input_pos, cache)
        out, weights = attend_math(q, k, v, mask=mask, causal=causal)
        return self._merge(out), weights
