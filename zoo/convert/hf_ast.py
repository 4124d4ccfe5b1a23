"""transformers ASTForAudioClassification / ASTModel -> zoo.ast.AudioSpectrogramTransformer.

HF's AST (model_type "audio-spectrogram-transformer") is ViT's encoder on a spectrogram: one
Conv2d(1, D, patch, stride (frequency_stride, time_stride)) over the (F, T) plane, class and
distillation tokens, learned positions for all of them, pre-LN blocks, the final `layernorm`.
ASTModel's `pooler_output` is the mean of the class and distillation tokens: with no
`classifier.*` weights we build num_classes=0 and no head norm, so forward() returns it;
ASTForAudioClassification's `classifier` (LayerNorm then dense, ASTMLPHead) becomes our
head's norm and fc.

Two naming schemes are accepted, as for ViT: checkpoint files (and transformers 4.x instances)
use `encoder.layer.N.attention.attention.query`, ...; transformers 5.x instances use
`layers.N.attention.q_proj`, ...
"""
from __future__ import annotations

from typing import Any

import torch

from zoo.ast import ASTConfig
from zoo.convert import hf_vit
from zoo.convert.common import UnsupportedConfigError, hf_activation, key_map, rename_all, square

_PREFIX = "audio_spectrogram_transformer."  # ASTForAudioClassification wraps an ASTModel under this name
_SOURCE = "audio-spectrogram-transformer config"


def config_from_hf(cfg: dict[str, Any], state: dict[str, torch.Tensor]) -> ASTConfig:
    act = hf_activation(cfg, "hidden_act", "gelu")
    dim, heads = cfg["hidden_size"], cfg["num_attention_heads"]
    if cfg.get("head_dim") not in (None, dim // heads):
        raise UnsupportedConfigError(f"{_SOURCE} has head_dim={cfg['head_dim']!r}; supported: hidden_size / "
                                     f"num_attention_heads = {dim // heads}")
    # ASTForAudioClassification's head (num_labels=0 keeps its layernorm, with no dense); ASTModel has none
    num_classes = state["classifier.dense.weight"].shape[0] if "classifier.dense.weight" in state else 0
    return ASTConfig(num_mel_bins=cfg.get("num_mel_bins", 128), max_length=cfg.get("max_length", 1024),
                     patch_size=square(cfg.get("patch_size", 16), "patch_size", _SOURCE),
                     frequency_stride=cfg.get("frequency_stride", 10), time_stride=cfg.get("time_stride", 10),
                     num_classes=num_classes, dim=dim, depth=cfg["num_hidden_layers"], num_heads=heads,
                     mlp_hidden=cfg["intermediate_size"], qkv_bias=cfg.get("qkv_bias", True), act=act,
                     norm_eps=cfg.get("layer_norm_eps", 1e-12), head_norm="classifier.layernorm.weight" in state,
                     dropout=cfg.get("hidden_dropout_prob", 0.0))


_TOP = {
    "embeddings.cls_token": "patch_embed.cls_token",
    "embeddings.distillation_token": "patch_embed.dist_token",
    "embeddings.position_embeddings": "patch_embed.pos_embed",
    "embeddings.patch_embeddings.projection.weight": "patch_embed.proj.weight",
    "embeddings.patch_embeddings.projection.bias": "patch_embed.proj.bias",
    "layernorm.weight": "transformer.norm.weight",
    "layernorm.bias": "transformer.norm.bias",
    "classifier.layernorm.weight": "head.norm.weight",
    "classifier.layernorm.bias": "head.norm.bias",
    "classifier.dense.weight": "head.fc.weight",
    "classifier.dense.bias": "head.fc.bias",
}
_RENAME = key_map(_TOP, hf_vit.LAYERS, hf_vit.BLOCK, prefix=_PREFIX)  # AST's blocks are ViT's


def convert_state_dict(state: dict[str, torch.Tensor], config: ASTConfig, source: str) -> dict[str, torch.Tensor]:
    return rename_all(state, _RENAME, source)
