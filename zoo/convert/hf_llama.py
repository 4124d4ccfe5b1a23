"""transformers LlamaForCausalLM / LlamaModel -> zoo.llama.Llama.

HF's checkpoints already use the rotate-half RoPE layout that our
RotaryEmbedding implements (Meta's originals interleave pairs and are
permuted by HF's own conversion script), so q/k need no permutation here.
"""
from __future__ import annotations

from typing import Any

import torch

from zoo.convert.common import UnsupportedConfigError, key_map, rename_all, require
from zoo.llama import LlamaConfig


def _rope_theta(cfg: dict[str, Any]) -> float:
    # transformers 5 keeps RoPE settings in `rope_parameters`; 4.x had rope_theta + rope_scaling.
    params = cfg.get("rope_parameters") or {}
    scaling = cfg.get("rope_scaling") or {}
    rope_type = params.get("rope_type", scaling.get("rope_type", scaling.get("type", "default")))
    if rope_type != "default":
        raise UnsupportedConfigError(f"llama config uses RoPE scaling {rope_type!r}; supported: 'default'")
    return float(params.get("rope_theta", cfg.get("rope_theta", 10000.0)))


def config_from_hf(cfg: dict[str, Any], state: dict[str, torch.Tensor]) -> LlamaConfig:
    require(cfg, "hidden_act", ("silu",), "silu")
    require(cfg, "pretraining_tp", (1, None))
    return LlamaConfig(vocab_size=cfg["vocab_size"], max_positions=cfg["max_position_embeddings"],
                       dim=cfg["hidden_size"], depth=cfg["num_hidden_layers"],
                       num_heads=cfg["num_attention_heads"],
                       num_kv_heads=cfg.get("num_key_value_heads") or cfg["num_attention_heads"],
                       head_dim=cfg.get("head_dim"), mlp_hidden=cfg["intermediate_size"],
                       rope_base=_rope_theta(cfg), norm_eps=cfg.get("rms_norm_eps", 1e-6),
                       attention_bias=cfg.get("attention_bias", False), mlp_bias=cfg.get("mlp_bias", False),
                       tie_embeddings=cfg.get("tie_word_embeddings", False))


_TOP = {"embed_tokens.weight": "embed.tokens.weight", "norm.weight": "transformer.norm.weight",
        "lm_head.weight": "head.proj.weight"}
_BLOCK = {"input_layernorm": "norm1", "post_attention_layernorm": "norm2",
          "self_attn.q_proj": "attn.q_proj", "self_attn.k_proj": "attn.k_proj",
          "self_attn.v_proj": "attn.v_proj", "self_attn.o_proj": "attn.o_proj",
          "mlp.gate_proj": "ffn.gate", "mlp.up_proj": "ffn.up", "mlp.down_proj": "ffn.down"}
_RENAME = key_map(_TOP, r"layers", _BLOCK, prefix="model.",
                  skip=r"layers\.\d+\.self_attn\.rotary_emb\.inv_freq")  # a buffer we recompute from rope_theta


def convert_state_dict(state: dict[str, torch.Tensor], config: LlamaConfig,
                       source: str) -> dict[str, torch.Tensor]:
    return rename_all(state, _RENAME, source)
