"""transformers ViTForImageClassification / ViTModel -> zoo.vit.VisionTransformer.

HF ViT is the original ViT-B/16 recipe: class token, learned positions for
every token, pre-LN blocks, the final `layernorm` before the class-token
head, LayerNorm eps 1e-12 by default (kept in the config; timm uses 1e-6).
The head is chosen from the weights present: `classifier.*` -> a classifier
with its classes; ViTModel's `pooler.*` (dense + tanh on the class token) ->
our head's pre-logits with num_classes=0, so forward() returns HF's
`pooler_output`; neither -> num_classes=0, forward() returns the normed class
token. ViTModel's `mask_token` (masked image modelling input) is dropped.

Two naming schemes are accepted: checkpoint files (and transformers 4.x
instances) use `vit.encoder.layer.N.attention.attention.query`, ...;
transformers 5.x instances use `vit.layers.N.attention.q_proj`, ...
"""
from __future__ import annotations

from typing import Any

import torch

from zoo.convert.common import (
    HF_ACTIVATIONS,
    UnsupportedConfigError,
    hf_activation,
    key_map,
    rename_all,
    require,
    square,
)
from zoo.vit import VitConfig

_PREFIX = "vit."  # ViTFor* wrap a ViTModel named `vit`


def config_from_hf(cfg: dict[str, Any], state: dict[str, torch.Tensor]) -> VitConfig:
    act = hf_activation(cfg, "hidden_act", "gelu")
    require(cfg, "pooler_act", ("tanh",), "tanh")
    keys = {k.removeprefix(_PREFIX) for k in state}
    if any(k.startswith("decoder.") for k in keys):
        raise UnsupportedConfigError("ViTForMaskedImageModeling (decoder.*) is not supported; "
                                     "convert its ViTModel (model.vit) instead")
    pooler = "pooler.dense.weight" in keys
    if pooler and cfg.get("pooler_output_size") not in (None, cfg["hidden_size"]):
        raise UnsupportedConfigError(f"vit config has pooler_output_size={cfg['pooler_output_size']!r}; "
                                     f"supported: the hidden size {cfg['hidden_size']}")
    if "classifier.weight" in keys:
        if pooler:
            raise UnsupportedConfigError("ViT checkpoint has both a pooler and a classifier")
        num_classes = state["classifier.weight"].shape[0]
    else:
        num_classes = 0
    dim = cfg["hidden_size"]
    return VitConfig(image_size=square(cfg["image_size"], "image_size", "vit config"),
                     patch_size=square(cfg["patch_size"], "patch_size", "vit config"),
                     in_chans=cfg.get("num_channels", 3), num_classes=num_classes, dim=dim,
                     depth=cfg["num_hidden_layers"], num_heads=cfg["num_attention_heads"],
                     mlp_ratio=cfg["intermediate_size"] / dim, qkv_bias=cfg.get("qkv_bias", True),
                     act=act, pooler=pooler,
                     norm_eps=cfg.get("layer_norm_eps", 1e-12), dropout=cfg.get("hidden_dropout_prob", 0.0))


def hf_config_kwargs(config: VitConfig) -> dict[str, Any]:
    """transformers ViTConfig arguments for our config: the inverse of config_from_hf (num_labels: the classes of a
    ViTForImageClassification; a ViT of a layout HF's cannot hold, such as mean pooling, is not checked here)."""
    return dict(hidden_size=config.dim, num_hidden_layers=config.depth, num_attention_heads=config.num_heads,
                intermediate_size=config.mlp_hidden, image_size=config.image_size,
                hidden_act=next(hf for hf, ours in HF_ACTIVATIONS.items() if ours == config.act),
                patch_size=config.patch_size, num_channels=config.in_chans, num_labels=config.num_classes,
                qkv_bias=config.qkv_bias, layer_norm_eps=config.norm_eps, hidden_dropout_prob=config.dropout,
                attention_probs_dropout_prob=0.0)


_TOP = {
    "embeddings.cls_token": "patch_embed.cls_token",
    "embeddings.position_embeddings": "patch_embed.pos_embed",
    "embeddings.patch_embeddings.projection.weight": "patch_embed.proj.weight",
    "embeddings.patch_embeddings.projection.bias": "patch_embed.proj.bias",
    "embeddings.mask_token": None,
    "layernorm.weight": "transformer.norm.weight",
    "layernorm.bias": "transformer.norm.bias",
    "pooler.dense.weight": "head.pre_logits.fc.weight",
    "pooler.dense.bias": "head.pre_logits.fc.bias",
    "classifier.weight": "head.fc.weight",
    "classifier.bias": "head.fc.bias",
}
BLOCK = {  # checkpoint names, then transformers 5.x module names (hf_ast's blocks are the same)
    "attention.attention.query": "attn.q_proj", "attention.attention.key": "attn.k_proj",
    "attention.attention.value": "attn.v_proj", "attention.output.dense": "attn.o_proj",
    "intermediate.dense": "ffn.fc1", "output.dense": "ffn.fc2",
    "attention.q_proj": "attn.q_proj", "attention.k_proj": "attn.k_proj", "attention.v_proj": "attn.v_proj",
    "attention.o_proj": "attn.o_proj", "mlp.fc1": "ffn.fc1", "mlp.fc2": "ffn.fc2",
    "layernorm_before": "norm1", "layernorm_after": "norm2",
}
LAYERS = r"(?:encoder\.layer|layers)"  # checkpoint names | transformers 5.x
_RENAME = key_map(_TOP, LAYERS, BLOCK, prefix=_PREFIX)


def convert_state_dict(state: dict[str, torch.Tensor], config: VitConfig, source: str) -> dict[str, torch.Tensor]:
    return rename_all(state, _RENAME, source)
