"""transformers GPT2LMHeadModel / GPT2Model -> zoo.gpt.GPT.

GPT-2 stores its projections as Conv1D with weight (in, out): transpose into
Linear's (out, in). The fused c_attn (D, 3D) splits into q, k, v.
"""
from __future__ import annotations

from typing import Any

import torch

from zoo.convert.common import hf_activation, key_map, rename_all, require, split_fused_qkv
from zoo.gpt import GPTConfig


def config_from_hf(cfg: dict[str, Any], state: dict[str, torch.Tensor]) -> GPTConfig:
    act = hf_activation(cfg, "activation_function", "gelu_new")
    require(cfg, "scale_attn_by_inverse_layer_idx", (False, None))
    require(cfg, "reorder_and_upcast_attn", (False, None))
    require(cfg, "scale_attn_weights", (True, None))
    dim = cfg["n_embd"]
    return GPTConfig(vocab_size=cfg["vocab_size"], max_positions=cfg["n_positions"], dim=dim,
                     depth=cfg["n_layer"], num_heads=cfg["n_head"],
                     mlp_hidden=cfg.get("n_inner") or 4 * dim,
                     norm_eps=cfg.get("layer_norm_epsilon", 1e-5), act=act,
                     tie_embeddings=cfg.get("tie_word_embeddings", True))


_TOP = {"wte.weight": "embed.tokens.weight", "wpe.weight": "embed.positions.weight",
        "ln_f.weight": "transformer.norm.weight", "ln_f.bias": "transformer.norm.bias",
        "lm_head.weight": "head.proj.weight"}
_BLOCK = {"attn.c_attn": "attn.qkv", "ln_1": "norm1", "ln_2": "norm2", "attn.c_proj": "attn.o_proj",
          "mlp.c_fc": "ffn.fc1", "mlp.c_proj": "ffn.fc2"}
_RENAME = key_map(_TOP, r"h", _BLOCK, prefix="transformer.",
                  skip=r"h\.\d+\.attn\.(bias|masked_bias)")  # old checkpoints' causal-mask buffers


def convert_state_dict(state: dict[str, torch.Tensor], config: GPTConfig, source: str) -> dict[str, torch.Tensor]:
    out = {}
    for key, value in rename_all(state, _RENAME, source).items():
        conv1d = key.endswith(".weight") and (".attn." in key or ".ffn." in key)
        out[key] = value.t() if conv1d else value  # Conv1D (in, out) -> Linear (out, in)
    return {key: value.contiguous() for key, value in split_fused_qkv(out).items()}
