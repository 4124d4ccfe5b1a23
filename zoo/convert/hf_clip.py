"""transformers CLIPVisionModel, and CLIPModel's vision half -> zoo.clip.ClipVisionTower.

CLIPVisionModel (model_type "clip_vision_model") is a ViT with a `pre_layrnorm` before the
blocks, a patch projection without bias, a class token stored as a (D,) vector and positions as
an Embedding (N, D), quick_gelu by default, LayerNorm eps 1e-5, and `post_layernorm` on the
pooled class token only (our head's norm, `fc_norm=True`). CLIPModel (model_type "clip") keeps its
vision config under `vision_config` and the tower under `vision_model.`; its text tower and both
contrastive projections (`visual_projection`, also in CLIPVisionModelWithProjection) are dropped:
the tower gives features, LLaVA projects them itself.

Key layouts: transformers 5 CLIPVisionModel instances and their save_pretrained directories name
`embeddings.*`, `encoder.layers.N.*`; CLIPModel, transformers 4.x CLIPVisionModel checkpoints (as on
the Hub) and Llava's tower (after its `vision_tower.`) name `vision_model.embeddings.*`, ... Both
are accepted. The feature layer and strategy are the tower's defaults (-2, "default"): set them
with ClipVisionConfig.from_vit / dataclasses.replace, or LLaVA's converter from its config.
"""
from __future__ import annotations

from typing import Any

import torch

from zoo.clip import ClipVisionConfig
from zoo.convert.common import UnsupportedConfigError, hf_activation, key_map, rename_all, square

_SOURCE = "clip vision config"


def vision_config(cfg: dict[str, Any]) -> dict[str, Any]:
    """The CLIPVisionConfig dict: `cfg` itself, or CLIPConfig's `vision_config`."""
    if cfg.get("model_type") == "clip":
        return cfg["vision_config"]
    if cfg.get("model_type", "clip_vision_model") != "clip_vision_model":
        raise UnsupportedConfigError(f"vision tower model_type {cfg.get('model_type')!r} is not supported; "
                                     "supported: 'clip_vision_model', 'clip'")
    return cfg


def config_from_hf(cfg: dict[str, Any], state: dict[str, torch.Tensor]) -> ClipVisionConfig:
    if any(k.startswith("classifier.") for k in state):
        raise UnsupportedConfigError("CLIPForImageClassification (classifier.*) is not supported; "
                                     "convert its vision tower (CLIPVisionModel) instead")
    v = vision_config(cfg)
    dim = v["hidden_size"]
    return ClipVisionConfig(image_size=square(v.get("image_size", 224), "image_size", _SOURCE),
                            patch_size=square(v.get("patch_size", 32), "patch_size", _SOURCE),
                            in_chans=v.get("num_channels", 3), dim=dim, depth=v["num_hidden_layers"],
                            num_heads=v["num_attention_heads"], mlp_ratio=v["intermediate_size"] / dim,
                            act=hf_activation(v, "hidden_act", "quick_gelu"),
                            norm_eps=v.get("layer_norm_eps", 1e-5))


_TOP = {
    "embeddings.class_embedding": "patch_embed.cls_token",
    "embeddings.position_embedding.weight": "patch_embed.pos_embed",
    "embeddings.patch_embedding.weight": "patch_embed.proj.weight",
    "pre_layrnorm.weight": "norm_pre.weight", "pre_layrnorm.bias": "norm_pre.bias",
    "post_layernorm.weight": "head.norm.weight", "post_layernorm.bias": "head.norm.bias",
}
_BLOCK = {"self_attn.q_proj": "attn.q_proj", "self_attn.k_proj": "attn.k_proj", "self_attn.v_proj": "attn.v_proj",
          "self_attn.out_proj": "attn.o_proj", "mlp.fc1": "ffn.fc1", "mlp.fc2": "ffn.fc2",
          "layer_norm1": "norm1", "layer_norm2": "norm2"}
# CLIPModel's text half and projections; position_ids, a buffer older checkpoints saved
_SKIP = r"(text_model|text_projection|visual_projection)\..*|logit_scale|embeddings\.position_ids"
_RENAME = key_map(_TOP, r"encoder\.layers", _BLOCK, prefix="vision_model.", skip=_SKIP)


def convert_state_dict(state: dict[str, torch.Tensor], config: ClipVisionConfig,
                       source: str) -> dict[str, torch.Tensor]:
    ours = rename_all(state, _RENAME, source)
    dim = config.dim
    for name in ("patch_embed.cls_token", "patch_embed.pos_embed"):  # (D,) and (N, D) -> (1, 1, D), (1, N, D)
        if name in ours:
            ours[name] = ours[name].reshape(1, -1, dim)
    return ours
