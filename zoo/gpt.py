"""GPT-2 (Radford et al. 2019): learned positions, pre-LN blocks with tanh-GELU MLPs, tied LM head.

Checked against transformers' GPT2LMHeadModel (tests/zoo/test_parity_text.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from backbones.block import BlockSpec
from backbones.frontends.tokens import TokenEmbedding
from backbones.init import init_weights
from backbones.transformer import Transformer
from heads.lm import CausalLMHead
from zoo.causal_lm import CausalLM
from zoo.registry import register_family, register_model


@dataclass(frozen=True)
class GPTConfig:
    family: ClassVar[str] = "gpt"
    vocab_size: int = 50257
    max_positions: int = 1024
    dim: int = 768
    depth: int = 12
    num_heads: int = 12
    mlp_hidden: int = 3072      # the MLP's hidden width (HF's n_inner; 4 x dim in every GPT-2 release)
    norm_eps: float = 1e-5
    dropout: float = 0.0
    act: str = "gelu_tanh"
    tie_embeddings: bool = True


class GPT(CausalLM):
    def __init__(self, config: GPTConfig):
        spec = BlockSpec(dim=config.dim, num_heads=config.num_heads, mlp_hidden=config.mlp_hidden,
                         act=config.act, norm_eps=config.norm_eps, dropout=config.dropout,
                         attn_dropout=config.dropout)
        super().__init__(
            config,
            TokenEmbedding(config.vocab_size, config.dim, max_positions=config.max_positions, dropout=config.dropout),
            Transformer.from_spec(spec, config.depth),
            CausalLMHead(config.dim, config.vocab_size),
            max_positions=config.max_positions, tie_embeddings=config.tie_embeddings)
        init_weights(self, std=0.02, depth=config.depth)

    def no_weight_decay(self) -> set[str]:
        return {"embed.positions.weight"}


register_family(GPTConfig, GPT)


@register_model
def gpt_tiny() -> GPTConfig:
    """4 layers x 128 wide: trains on 2 CPU cores in minutes (make demo)."""
    return GPTConfig(vocab_size=4096, max_positions=256, dim=128, depth=4, num_heads=4, mlp_hidden=512)


@register_model
def gpt2() -> GPTConfig:
    """GPT-2 small, 124M parameters."""
    return GPTConfig()


@register_model
def gpt2_medium() -> GPTConfig:
    """GPT-2 medium, 355M parameters."""
    return GPTConfig(dim=1024, depth=24, num_heads=16, mlp_hidden=4096)
