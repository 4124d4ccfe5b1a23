"""CLIP's vision tower (Radford et al. 2021) as LLaVA uses it: ViT blocks, features from a chosen layer.

    pixels (B, C, S, S) -> patches + class token + learned positions -> LayerNorm (pre_norm)
        -> blocks 1..L of depth (quick_gelu MLP; L from vision_feature_layer) -> hidden state L
        -> drop the class token ("default") or keep it ("full") -> image features (B, [1 +] gh*gw, D)

The tower IS our VisionTransformer (zoo/vit.py), with CLIP's settings as its config's defaults
(`ClipVisionConfig` extends `VitConfig`): a norm before the blocks and a patch projection without
bias, quick_gelu, LayerNorm eps 1e-5, the class token, and the final norm after the pooling
(`fc_norm=True`): transformers' `post_layernorm` applies to the pooled class token only, so
`forward_features` is CLIPVisionModel's `last_hidden_state` and `forward` its `pooler_output`.
Everything a ViT does (other image sizes in forward_features, reset_head, training) it does too.

What it adds is `image_features`, LLaVA's view. Layers are numbered as transformers'
`hidden_states`: 0 is the embeddings after the pre-norm, i the output of block i, negative
counts from the end (-1 the last block, -2 the one before: LLaVA's choice). No final norm
applies to a hidden state, and only the blocks up to the chosen one run. "default" drops the
prefix tokens (CLIP has one, the class token; transformers' Llava drops exactly the first).

Checked against transformers 5 CLIPVisionModel / CLIPModel (`output_hidden_states=True`) and
timm 1.0's CLIP ViTs (`forward_intermediates`), tests/zoo/test_parity_clip.py; converters in
zoo/convert/hf_clip.py and zoo/convert/timm_vit.py.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

import torch

from zoo.registry import register_family, register_model
from zoo.vit import VisionTransformer, VitConfig

STRATEGIES = ("default", "full")  # LLaVA's vision_feature_select_strategy: drop the class token | keep it


@dataclass(frozen=True)
class ClipVisionConfig(VitConfig):
    family: ClassVar[str] = "clip"
    num_classes: int = 0           # the head returns the pooled, normed class token (CLIP's pooler_output)
    act: str = "quick_gelu"
    fc_norm: bool | None = True    # CLIP's post_layernorm: on the pooled token, not on the hidden states
    pre_norm: bool = True          # CLIP's pre_layrnorm; the patch projection has no bias
    norm_eps: float = 1e-5
    vision_feature_layer: int = -2               # hidden state image_features returns (transformers' numbering)
    vision_feature_select_strategy: str = "default"  # default: patch tokens only | full: prefix tokens too

    @classmethod
    def from_vit(cls, config: VitConfig, **overrides) -> "ClipVisionConfig":
        """A ViT's config as a tower's (same fields, same weights); overrides set the feature fields."""
        fields = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}
        return cls(**{**fields, **overrides})


def blocks_to_run(layer: int, depth: int, what: str = "vision_feature_layer") -> int:
    """transformers' hidden-state index (negative counts from the end) -> how many blocks produce it."""
    if isinstance(layer, bool) or not isinstance(layer, int):
        raise ValueError(f"{what} must be an int (a hidden-state index), got {layer!r}")
    if not -(depth + 1) <= layer <= depth:
        raise ValueError(f"{what}={layer} is out of range for a tower of depth {depth}: expected "
                         f"{-(depth + 1)}..{depth} (hidden states 0..{depth}; 0 is the embeddings after the "
                         f"pre-norm, -1 the last block's output)")
    return layer % (depth + 1)


class ClipVisionTower(VisionTransformer):
    def __init__(self, config: ClipVisionConfig):
        blocks_to_run(config.vision_feature_layer, config.depth)  # refuse before building anything
        if config.vision_feature_select_strategy not in STRATEGIES:
            raise ValueError(f"vision_feature_select_strategy must be one of {STRATEGIES}, "
                             f"got {config.vision_feature_select_strategy!r}")
        super().__init__(config)

    @property
    def num_image_tokens(self) -> int:
        """Tokens image_features gives per image (LLaVA's placeholders per image)."""
        gh, gw = self.patch_embed.grid_size
        keep_prefix = self.config.vision_feature_select_strategy == "full"
        return gh * gw + (self.num_prefix_tokens if keep_prefix else 0)

    def hidden_state(self, pixels: torch.Tensor, layer: int) -> torch.Tensor:
        """pixels (B, C, H, W) -> hidden state `layer` (B, P + gh*gw, D), prefix tokens first: transformers'
        `hidden_states[layer]`. Only blocks 1..layer run; no final norm applies."""
        count = blocks_to_run(layer, self.config.depth, "layer")
        x = self.norm_pre(self.patch_embed(pixels))  # (B, N, D)
        return self.transformer.run_blocks(x, count)

    def image_features(self, pixels: torch.Tensor) -> torch.Tensor:
        """pixels (B, C, S, S) at the configured image size S -> (B, num_image_tokens, D): hidden state
        `vision_feature_layer`, class token dropped ("default") or kept ("full").

        Unlike forward_features, another image size is refused: LLaVA's prompts hold a fixed number of
        placeholders per image, so a resized grid would not fit them."""
        self._check_image(pixels)
        x = self.hidden_state(pixels, self.config.vision_feature_layer)  # (B, P + gh*gw, D)
        if self.config.vision_feature_select_strategy == "default":
            x = x[:, self.num_prefix_tokens:]  # (B, gh*gw, D)
        return x

    def _check_image(self, pixels: torch.Tensor) -> None:
        self.patch_embed.grid_for(pixels)  # dims, dtype and channels, each named in its error
        size, (h, w) = self.config.image_size, pixels.shape[-2:]
        if (h, w) != (size, size):
            raise ValueError(f"pixels are {h}x{w} images (shape {tuple(pixels.shape)}) but the vision tower "
                             f"takes {size}x{size}: resize (and crop) them to {size}x{size} as its processor does")


register_family(ClipVisionConfig, ClipVisionTower)


@register_model
def clip_vit_tiny_patch8_32() -> ClipVisionConfig:
    """A tiny tower for tests and training here: 32x32 images, a 4x4 grid of 8-pixel patches (16 image
    tokens), 3 layers x 64 wide, features from the second-to-last layer."""
    return ClipVisionConfig(image_size=32, patch_size=8, dim=64, depth=3, num_heads=4, mlp_ratio=2.0)


@register_model
def clip_vit_large_patch14_336() -> ClipVisionConfig:
    """openai/clip-vit-large-patch14-336's vision half, LLaVA-1.5's tower: 336x336 images, a 24x24 grid of
    14-pixel patches (576 image tokens), 24 layers x 1024, 16 heads, MLP 4096, 303.5M parameters.
    Build it on the meta device to count them without allocating."""
    return ClipVisionConfig(image_size=336, patch_size=14, dim=1024, depth=24, num_heads=16)
