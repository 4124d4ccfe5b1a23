"""The one Transformer block library. No model names live here.

Every family in `zoo/` is wired from these pieces: front-ends turn inputs into
(B, N, D) tokens, `Transformer` runs a stack of `Block`s, heads turn the result
into outputs.
"""
from backbones.attention import MultiHeadAttention, attend, available_backends, set_attention_backend
from backbones.block import Block, LayerScale
from backbones.ffn import Mlp, SwiGLU
from backbones.inference import pack_for_inference
from backbones.kv_cache import CrossKVCache, KVCache
from backbones.masks import (
    block_diagonal_mask,
    cache_slots_mask,
    causal_mask,
    padding_mask,
    prefix_mask,
)
from backbones.norms import LayerNorm, RMSNorm
from backbones.positions import (
    LearnedPositions,
    RotaryEmbedding,
    resample_grid_positions,
    sincos_2d,
    sinusoid_table,
)
from backbones.transformer import Transformer

__all__ = [
    "Block", "CrossKVCache", "KVCache", "LayerNorm", "LayerScale", "LearnedPositions",
    "Mlp", "MultiHeadAttention", "RMSNorm", "RotaryEmbedding", "SwiGLU", "Transformer",
    "attend", "available_backends", "block_diagonal_mask", "cache_slots_mask", "causal_mask", "pack_for_inference",
    "padding_mask", "prefix_mask", "resample_grid_positions", "set_attention_backend", "sincos_2d", "sinusoid_table",
]
