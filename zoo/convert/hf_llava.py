"""transformers LlavaForConditionalGeneration -> zoo.llava.Llava, through the CLIP and LLaMA converters.

The config nests a CLIPVisionConfig (`vision_config`) and a LlamaConfig (`text_config`); the top level has
the placeholder id (`image_token_index`, newer files `image_token_id`), the feature layer and strategy
(one layer only: a list of layers, concatenated, is refused), the projector's activation and bias, and
`tie_word_embeddings` (which may also sit in the text config).

Key layouts, both accepted:
- transformers 5 instances: `model.vision_tower.*`, `model.multi_modal_projector.*`,
  `model.language_model.*` (LlamaModel's names), `lm_head.weight`;
- checkpoints as saved (transformers 4.x, and 5's save_pretrained, which writes the old names back):
  `vision_tower.*`, `multi_modal_projector.*`, `language_model.model.*`, `language_model.lm_head.weight`.
The tower's keys may carry CLIPVisionModel's `vision_model.` (Hub checkpoints) or not (transformers 5).
Tower blocks after the feature layer and `post_layernorm` are dropped: our tower does not build them.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

import torch

from zoo.clip import blocks_to_run
from zoo.convert import hf_clip, hf_llama
from zoo.convert.common import UnsupportedConfigError, hf_activation
from zoo.llava import LlavaConfig

# foreign prefix -> (part, the prefix the part's own converter expects); longest first where one contains another
_PARTS = (("model.vision_tower.", "vision", ""), ("vision_tower.", "vision", ""),
          ("model.multi_modal_projector.", "projector", ""), ("multi_modal_projector.", "projector", ""),
          ("model.language_model.", "text", "model."), ("language_model.model.", "text", "model."),
          ("language_model.lm_head.", "text", "lm_head."), ("lm_head.", "text", "lm_head."))
_PROJECTOR = {"linear_1.weight": "fc1.weight", "linear_1.bias": "fc1.bias",
              "linear_2.weight": "fc2.weight", "linear_2.bias": "fc2.bias"}


def config_from_hf(cfg: dict[str, Any], state: dict[str, torch.Tensor]) -> LlavaConfig:
    vision, text = cfg.get("vision_config"), cfg.get("text_config")
    if not vision or not text:
        raise UnsupportedConfigError("llava config without vision_config or text_config is not supported")
    if text.get("model_type", "llama") != "llama":
        raise UnsupportedConfigError(f"llava text_config model_type {text.get('model_type')!r} is not supported; "
                                     "supported: 'llama'")
    layer = cfg.get("vision_feature_layer", -2)
    if not isinstance(layer, int) or isinstance(layer, bool):
        raise UnsupportedConfigError(f"llava config has vision_feature_layer={layer!r} (several layers concatenated); "
                                     "supported: one layer (an int)")
    tower = dataclasses.replace(hf_clip.config_from_hf(vision, {}), vision_feature_layer=layer,
                                vision_feature_select_strategy=cfg.get("vision_feature_select_strategy", "default"))
    tie = bool(cfg.get("tie_word_embeddings") or text.get("tie_word_embeddings", False))
    language = dataclasses.replace(hf_llama.config_from_hf(text, {}), tie_embeddings=tie)
    image_token_id = cfg.get("image_token_id", cfg.get("image_token_index", 32000))
    return LlavaConfig(text=language, vision=tower, image_token_id=image_token_id, projector="mlp",
                       projector_act=hf_activation(cfg, "projector_hidden_act", "gelu"),
                       projector_bias=cfg.get("multimodal_projector_bias", True))


def _split(state: dict[str, torch.Tensor], source: str) -> dict[str, dict[str, torch.Tensor]]:
    """The checkpoint's tensors per part, keyed as that part's own converter expects them."""
    parts: dict[str, dict[str, torch.Tensor]] = {"vision": {}, "projector": {}, "text": {}}
    unknown = []
    for key, value in state.items():
        for prefix, part, theirs in _PARTS:
            if key.startswith(prefix):
                parts[part][theirs + key.removeprefix(prefix)] = value
                break
        else:
            unknown.append(key)
    if unknown:
        raise ValueError(f"{source}: {len(unknown)} parameter(s) outside the tower, projector and language model: "
                         f"{unknown[:20]}")
    return parts


def tower_unused(config: LlavaConfig, key: str) -> bool:
    """Whether the vision tower's tensor `key` (our name inside the tower) is one our LLaVA does not build: its
    post_layernorm (`head.`) and the blocks after the feature layer, which never run."""
    block = re.match(r"transformer\.blocks\.(\d+)\.", key)
    kept = blocks_to_run(config.vision.vision_feature_layer, config.vision.depth)
    return key.startswith("head.") or (block is not None and int(block.group(1)) >= kept)


def convert_state_dict(state: dict[str, torch.Tensor], config: LlavaConfig, source: str) -> dict[str, torch.Tensor]:
    parts = _split(state, source)
    ours = {f"vision_tower.{key}": value
            for key, value in hf_clip.convert_state_dict(parts["vision"], config.vision, source).items()
            if not tower_unused(config, key)}
    unknown = sorted(set(parts["projector"]) - set(_PROJECTOR))
    if unknown:
        raise ValueError(f"{source}: {len(unknown)} projector parameter(s) this converter does not know: {unknown}")
    ours.update({f"projector.{_PROJECTOR[k]}": v for k, v in parts["projector"].items()})
    for key, value in hf_llama.convert_state_dict(parts["text"], config.text, source).items():
        ours[f"language_model.{key}"] = value
    return ours
