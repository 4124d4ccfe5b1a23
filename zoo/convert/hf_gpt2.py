"""transformers GPT2LMHeadModel / GPT2Model -> zoo.gpt.GPT.

GPT-2 stores its projections as Conv1D with weight (in, out): transpose into
Linear's (out, in). The fused c_attn (D, 3D) splits into q, k, v.
"""
from __future__ import annotations

import re
from typing import Any

import torch

from zoo.convert.common import block_key, rename_all, require
from zoo.gpt import GPTConfig

ACTIVATIONS = {"gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "gelu": "gelu", "relu": "relu",
               "quick_gelu": "quick_gelu"}


def config_from_hf(cfg: dict[str, Any], state: dict[str, torch.Tensor]) -> GPTConfig:
    require(cfg, "activation_function", tuple(ACTIVATIONS), "gelu_new")
    require(cfg, "scale_attn_by_inverse_layer_idx", (False, None))
    require(cfg, "reorder_and_upcast_attn", (False, None))
    require(cfg, "scale_attn_weights", (True, None))
    dim = cfg["n_embd"]
    return GPTConfig(vocab_size=cfg["vocab_size"], max_positions=cfg["n_positions"], dim=dim,
                     depth=cfg["n_layer"], num_heads=cfg["n_head"],
                     mlp_hidden=cfg.get("n_inner") or 4 * dim,
                     norm_eps=cfg.get("layer_norm_epsilon", 1e-5),
                     act=ACTIVATIONS[cfg.get("activation_function", "gelu_new")],
                     tie_embeddings=cfg.get("tie_word_embeddings", True))


_BLOCK = {"attn.c_attn": "attn.qkv", "ln_1": "norm1", "ln_2": "norm2", "attn.c_proj": "attn.o_proj", "mlp.c_fc": "ffn.fc1",
          "mlp.c_proj": "ffn.fc2"}


def _rename(key: str) -> str | None:
    key = key.removeprefix("transformer.")
    if key in ("wte.weight", "wpe.weight", "ln_f.weight", "ln_f.bias", "lm_head.weight"):
        return {"wte.weight": "embed.tokens.weight", "wpe.weight": "embed.positions.weight",
                "ln_f.weight": "transformer.norm.weight", "ln_f.bias": "transformer.norm.bias",
                "lm_head.weight": "head.proj.weight"}[key]
    if re.fullmatch(r"h\.\d+\.attn\.(bias|masked_bias)", key):
        return None  # old checkpoints' causal-mask buffers
    return block_key(key, r"h", _BLOCK)  # attn.c_attn -> attn.qkv, split below


def convert_state_dict(state: dict[str, torch.Tensor], cfg: dict[str, Any], source: str) -> dict[str, torch.Tensor]:
    renamed = rename_all(state, _rename, source)
    out = {}
    for key, value in renamed.items():
        conv1d = key.endswith(".weight") and (".attn." in key or ".ffn." in key)
        value = value.t() if conv1d else value  # Conv1D (in, out) -> Linear (out, in)
        if ".attn.qkv." in key:
            prefix, kind = key.split(".attn.qkv.")
            for name, part in zip(("q_proj", "k_proj", "v_proj"), value.chunk(3, dim=0)):
                out[f"{prefix}.attn.{name}.{kind}"] = part.contiguous()
        else:
            out[key] = value.contiguous()
    return out
