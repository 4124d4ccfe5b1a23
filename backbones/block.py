"""The residual block every family is made of, and the small spec that builds it.

Pre-LN (GPT-2, LLaMA, ViT, Whisper; Xiong et al. 2020):
    x = x + attn(norm1(x)); x = x + cross(norm_cross(x), ctx); x = x + ffn(norm2(x))
Post-LN (BERT, the 2017 paper):
    x = norm1(x + attn(x)); x = norm_cross(x + cross(x, ctx)); x = norm2(x + ffn(x))
Optional parts (cross-attention, LayerScale) are None; dropout runs only when training with p > 0.
LayerScale is CaiT / DeiT-III: a learned per-channel gain on each branch.

Legend: B batch, T tokens, N context tokens, D model width.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from backbones.attention import MultiHeadAttention
from backbones.dropout import apply_dropout
from backbones.ffn import Mlp, SwiGLU
from backbones.kv_cache import LayerCache
from backbones.norms import make_norm


class LayerScale(nn.Module):
    def __init__(self, dim: int, init: float = 1e-5):
        super().__init__()
        self.gamma = nn.Parameter(torch.full((dim,), init))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.gamma


class Block(nn.Module):
    def __init__(self, attn: nn.Module, ffn: nn.Module, norm1: nn.Module, norm2: nn.Module, *,
                 cross_attn: nn.Module | None = None, norm_cross: nn.Module | None = None,
                 ls1: nn.Module | None = None, ls2: nn.Module | None = None,
                 dropout: float = 0.0, post_norm: bool = False):
        super().__init__()
        self.norm1, self.attn, self.ls1 = norm1, attn, ls1
        self.norm_cross, self.cross_attn = norm_cross, cross_attn
        self.norm2, self.ffn, self.ls2 = norm2, ffn, ls2
        self.drop = nn.Dropout(dropout)
        self.post_norm = post_norm

    def _branch(self, y: torch.Tensor, ls: nn.Module | None) -> torch.Tensor:
        """LayerScale and dropout on a residual branch; absent or inactive ones cost no module call
        (decoding small models is bound by per-call overhead)."""
        if ls is not None:
            y = ls(y)
        return apply_dropout(y, self.drop)

    def forward(self, x: torch.Tensor, *, context: torch.Tensor | None = None, mask=None, causal=False,
                context_mask=None, positions=None, input_pos=None, cache: LayerCache | None = None) -> torch.Tensor:
        """x (B, T, D), context (B, N, D) for cross-attention -> (B, T, D); cache: this block's caches in a
        decoding session (input_pos: where the chunk starts in them)."""
        kv, cross = (None, None) if cache is None else (cache.kv, cache.cross)
        attn_kw = dict(mask=mask, causal=causal, positions=positions, input_pos=input_pos, cache=kv)
        cross_kw = dict(mask=context_mask, cache=cross)
        if self.post_norm:
            x = self.norm1(x + self._branch(self.attn(x, **attn_kw), self.ls1))
            if self.cross_attn is not None:
                x = self.norm_cross(x + self._branch(self.cross_attn(x, context, **cross_kw), None))
            return self.norm2(x + self._branch(self.ffn(x), self.ls2))
        x = x + self._branch(self.attn(self.norm1(x), **attn_kw), self.ls1)
        if self.cross_attn is not None:
            x = x + self._branch(self.cross_attn(self.norm_cross(x), context, **cross_kw), None)
        return x + self._branch(self.ffn(self.norm2(x)), self.ls2)


@dataclass(frozen=True)
class BlockSpec:
    """Everything that varies between the families' blocks, in one place."""
    dim: int
    num_heads: int
    mlp_hidden: int
    num_kv_heads: int | None = None
    head_dim: int | None = None
    act: str = "gelu"              # relu | gelu | gelu_tanh | quick_gelu | silu | swiglu
    norm: str = "layernorm"        # layernorm | rmsnorm
    norm_eps: float = 1e-5
    qkv_bias: bool = True
    k_bias: bool | None = None     # None: same as qkv_bias (Whisper: False)
    out_bias: bool = True
    mlp_bias: bool = True
    post_norm: bool = False
    cross_attention: bool = False
    layer_scale: float | None = None
    dropout: float = 0.0
    attn_dropout: float = 0.0

    def build(self, rope: nn.Module | None = None) -> Block:
        def attention(rope_: nn.Module | None, cross: bool = False) -> MultiHeadAttention:
            return MultiHeadAttention(self.dim, self.num_heads, self.num_kv_heads, self.head_dim,
                                      bias=self.qkv_bias, k_bias=self.k_bias, out_bias=self.out_bias,
                                      cross=cross, rope=rope_, dropout=self.attn_dropout)

        if self.act == "swiglu":
            ffn = SwiGLU(self.dim, self.mlp_hidden, bias=self.mlp_bias)
        else:
            ffn = Mlp(self.dim, self.mlp_hidden, act=self.act, bias=self.mlp_bias)
        norm = lambda: make_norm(self.norm, self.dim, self.norm_eps)  # noqa: E731
        ls = (lambda: LayerScale(self.dim, self.layer_scale)) if self.layer_scale else (lambda: None)
        return Block(attention(rope), ffn, norm(), norm(),
                     cross_attn=attention(None, cross=True) if self.cross_attention else None,
                     norm_cross=norm() if self.cross_attention else None,
                     ls1=ls(), ls2=ls(), dropout=self.dropout, post_norm=self.post_norm)
