"""LLaMA (Touvron et al. 2023): RoPE, RMSNorm, SwiGLU, grouped-query attention, no biases.

Checked against transformers' LlamaForCausalLM (HF rotate-half RoPE layout).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from backbones.block import BlockSpec
from backbones.frontends.tokens import TokenEmbedding
from backbones.init import init_weights
from backbones.positions import RotaryEmbedding
from backbones.transformer import Transformer
from data.tokenization import load_tokenizer
from heads.lm import CausalLMHead
from zoo.causal_lm import CausalLM
from zoo.registry import register_family, register_model


@dataclass(frozen=True)
class LlamaConfig:
    family: ClassVar[str] = "llama"
    vocab_size: int = 32000
    max_positions: int = 2048
    dim: int = 4096
    depth: int = 32
    num_heads: int = 32
    num_kv_heads: int = 32
    head_dim: int | None = None
    mlp_hidden: int = 11008
    rope_base: float = 10000.0
    norm_eps: float = 1e-5
    attention_bias: bool = False
    mlp_bias: bool = False
    dropout: float = 0.0
    tie_embeddings: bool = False


class Llama(CausalLM):
    # A Llama may carry its tokenizer (`model.tokenizer`: a GGUF file's); save_pretrained writes it and
    # load_pretrained reads it back from tokenizer.json.
    load_tokenizer = staticmethod(load_tokenizer)

    def __init__(self, config: LlamaConfig):
        head_dim = config.head_dim or config.dim // config.num_heads
        spec = BlockSpec(dim=config.dim, num_heads=config.num_heads, num_kv_heads=config.num_kv_heads,
                         head_dim=head_dim, mlp_hidden=config.mlp_hidden, act="swiglu", norm="rmsnorm",
                         norm_eps=config.norm_eps, qkv_bias=config.attention_bias,
                         out_bias=config.attention_bias, mlp_bias=config.mlp_bias,
                         dropout=config.dropout, attn_dropout=config.dropout)
        rope = RotaryEmbedding(head_dim, config.max_positions, base=config.rope_base)
        super().__init__(
            config,
            TokenEmbedding(config.vocab_size, config.dim, dropout=config.dropout),
            Transformer.from_spec(spec, config.depth, rope=rope),
            CausalLMHead(config.dim, config.vocab_size),
            max_positions=config.max_positions, tie_embeddings=config.tie_embeddings)
        init_weights(self, std=0.02)


register_family(LlamaConfig, Llama)


@register_model
def llama_tiny() -> LlamaConfig:
    """4 layers x 128 wide, 4 query heads sharing 2 key/value heads, tied embeddings."""
    return LlamaConfig(vocab_size=4096, max_positions=256, dim=128, depth=4, num_heads=4, num_kv_heads=2,
                       mlp_hidden=352, tie_embeddings=True)


@register_model
def llama_135m() -> LlamaConfig:
    """The SmolLM-135M shape: 30 layers x 576, 9 heads over 3 KV heads (GQA), tied embeddings."""
    return LlamaConfig(vocab_size=49152, max_positions=2048, dim=576, depth=30, num_heads=9, num_kv_heads=3,
                       mlp_hidden=1536, rope_base=10000.0, tie_embeddings=True)
