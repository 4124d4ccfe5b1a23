"""Vision Transformer (Dosovitskiy et al. 2021): patches -> pre-LN encoder -> class token or mean -> linear.

Options as in timm's `VisionTransformer` (1.0.x), which it is checked against
together with transformers' ViTForImageClassification / ViTModel
(tests/zoo/test_parity_vision.py): register tokens (Darcet et al. 2024),
LayerScale (CaiT / DeiT-III), `no_embed_class` (positions on patches only),
a norm before the blocks (`pre_norm`, CLIP), and timm's `fc_norm` rule: with
mean pooling the final norm moves after the pooling (into the head), unless
`fc_norm=False`. Images of other sizes than `image_size` resample the learned
positions (timm's `dynamic_img_size=True`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import torch
from torch import nn

from backbones.block import BlockSpec
from backbones.frontends.patches import PatchEmbedding
from backbones.init import init_weights
from backbones.norms import LayerNorm
from backbones.transformer import Transformer
from heads.classification import ClassifierHead, PreLogits
from zoo.pretrained import ClassifierModel
from zoo.registry import register_family, register_model

POOLS = {"token": "cls", "avg": "mean"}  # timm's global_pool -> ClassifierHead's pool


@dataclass(frozen=True)
class VitConfig:
    family: ClassVar[str] = "vit"
    image_size: int = 224
    patch_size: int = 16
    in_chans: int = 3
    num_classes: int = 1000        # 0: the head returns the pooled features
    dim: int = 768
    depth: int = 12
    num_heads: int = 12
    mlp_ratio: float = 4.0
    qkv_bias: bool = True
    act: str = "gelu"              # gelu | gelu_tanh | quick_gelu (CLIP) | relu
    class_token: bool = True
    num_register_tokens: int = 0
    global_pool: str = "token"     # token (class token) | avg (mean of the patch tokens)
    fc_norm: bool | None = None    # norm after pooling instead of before; None: timm's rule, True for avg
    pre_norm: bool = False         # LayerNorm before the blocks, patch projection without bias (CLIP)
    pooler: bool = False           # dense + tanh on the pooled token (transformers' ViTModel pooler)
    layer_scale: float | None = None  # LayerScale init (DeiT-III: 1e-6), None: no LayerScale
    pos_embed: str = "learn"       # learn | sincos | none
    no_embed_class: bool = False   # learned positions cover the patches only (DeiT-III)
    norm_eps: float = 1e-6         # timm 1e-6, transformers' ViT 1e-12
    dropout: float = 0.0

    @property
    def use_fc_norm(self) -> bool:
        return self.global_pool == "avg" if self.fc_norm is None else self.fc_norm

    @property
    def mlp_hidden(self) -> int:
        # round, not int: a ratio read back from a checkpoint (hidden / dim) must give hidden again
        return round(self.dim * self.mlp_ratio)


class VisionTransformer(ClassifierModel):
    def __init__(self, config: VitConfig):
        super().__init__()
        if config.global_pool not in POOLS:
            raise ValueError(f"VitConfig.global_pool must be 'token' or 'avg', got {config.global_pool!r}")
        if config.global_pool == "token" and not config.class_token:
            raise ValueError("VitConfig.global_pool='token' needs class_token=True; use global_pool='avg'")
        self.config = config
        self.patch_embed = PatchEmbedding(
            config.image_size, config.patch_size, config.in_chans, config.dim, class_token=config.class_token,
            num_register_tokens=config.num_register_tokens, pos_embed=config.pos_embed,
            no_embed_class=config.no_embed_class, bias=not config.pre_norm, dropout=config.dropout)
        self.norm_pre = LayerNorm(config.dim, eps=config.norm_eps) if config.pre_norm else nn.Identity()
        spec = BlockSpec(dim=config.dim, num_heads=config.num_heads, mlp_hidden=config.mlp_hidden, act=config.act,
                         norm_eps=config.norm_eps, qkv_bias=config.qkv_bias, layer_scale=config.layer_scale,
                         dropout=config.dropout)
        self.transformer = Transformer.from_spec(spec, config.depth, final_norm=not config.use_fc_norm)
        self.head = self._make_head(config.num_classes)
        init_weights(self, std=0.02)
        self.patch_embed.reset_parameters()  # init_weights knows nothing of tokens and positions

    def _make_head(self, num_classes: int) -> ClassifierHead:
        c = self.config
        return ClassifierHead(c.dim, num_classes, pool=POOLS[c.global_pool],
                              num_prefix_tokens=self.patch_embed.num_prefix_tokens,
                              norm=LayerNorm(c.dim, eps=c.norm_eps) if c.use_fc_norm else None,
                              pre_logits=PreLogits(c.dim) if c.pooler else None, dropout=c.dropout)

    @property
    def num_prefix_tokens(self) -> int:
        return self.patch_embed.num_prefix_tokens

    def forward_features(self, pixels: torch.Tensor) -> torch.Tensor:
        """pixels (B, C, H, W) -> every token after the final norm (B, P + H/p * W/p, D), prefix first."""
        x = self.patch_embed(pixels)  # (B, N, D)
        return self.transformer(self.norm_pre(x))

    def forward_head(self, features: torch.Tensor) -> torch.Tensor:
        return self.head(features)  # (B, C), or pooled (B, D) with num_classes=0

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        """pixels (B, C, H, W) -> logits (B, num_classes)."""
        return self.forward_head(self.forward_features(pixels))

    def example_inputs(self, batch_size: int = 2, seq_len: int | None = None) -> dict[str, torch.Tensor]:
        """Valid forward() keyword arguments: random pixels (B, C, H, W).

        seq_len=None gives the configured image size. A seq_len asks for that many tokens N
        (prefix included): the image is then p*gh x p*gw with gh*gw = N - P patches, as square as
        the number allows, and the positions are resampled to it (contract tests use this).
        """
        p, prefix = self.config.patch_size, self.num_prefix_tokens
        if seq_len is None:
            gh = gw = self.config.image_size // p
        elif seq_len <= prefix:
            raise ValueError(f"seq_len must exceed the {prefix} prefix token(s) to hold a patch, got {seq_len}")
        else:
            patches = seq_len - prefix
            gh = max(d for d in range(1, math.isqrt(patches) + 1) if patches % d == 0)
            gw = patches // gh
        generator = torch.Generator().manual_seed(0)
        return {"pixels": torch.randn(batch_size, self.config.in_chans, gh * p, gw * p, generator=generator)}

    def no_weight_decay(self) -> set[str]:
        names = ("patch_embed.pos_embed", "patch_embed.cls_token", "patch_embed.reg_tokens")
        params = dict(self.named_parameters())
        return {n for n in names if n in params}


register_family(VitConfig, VisionTransformer)


@register_model
def vit_tiny_patch16_224() -> VitConfig:
    """timm vit_tiny_patch16_224 (DeiT-Ti shape), 5.7M parameters."""
    return VitConfig(dim=192, depth=12, num_heads=3)


@register_model
def vit_small_patch16_224() -> VitConfig:
    """timm vit_small_patch16_224, 22M parameters."""
    return VitConfig(dim=384, depth=12, num_heads=6)


@register_model
def vit_base_patch16_224() -> VitConfig:
    """timm vit_base_patch16_224 (ViT-B/16), 86.6M parameters."""
    return VitConfig(dim=768, depth=12, num_heads=12)


@register_model
def vit_small_patch16_224_ls() -> VitConfig:
    """DeiT-III small (timm deit3_small_patch16_224): LayerScale 1e-6, positions on the patches only."""
    return VitConfig(dim=384, depth=12, num_heads=6, layer_scale=1e-6, no_embed_class=True)


@register_model
def vit_tiny_patch4_28() -> VitConfig:
    """Fashion-MNIST: 28x28 grey images, 7x7 patches of 4 pixels, 10 classes. 4 layers x 128 wide."""
    return VitConfig(image_size=28, patch_size=4, in_chans=1, num_classes=10, dim=128, depth=4, num_heads=4,
                     mlp_ratio=2.0)


@register_model
def vit_tiny_patch4_28_gap() -> VitConfig:
    """vit_tiny_patch4_28 with no class token: mean of the patch tokens, then fc_norm (Beyer et al. 2022).
    The preset of the best Fashion-MNIST recipe here (docs/training-recipes.md)."""
    return VitConfig(image_size=28, patch_size=4, in_chans=1, num_classes=10, dim=128, depth=4, num_heads=4,
                     mlp_ratio=2.0, class_token=False, global_pool="avg")


@register_model
def vit_tiny_patch2_8() -> VitConfig:
    """scikit-learn digits: 8x8 grey images, 4x4 patches of 2 pixels, 10 classes. 2 layers x 64 wide."""
    return VitConfig(image_size=8, patch_size=2, in_chans=1, num_classes=10, dim=64, depth=2, num_heads=4,
                     mlp_ratio=2.0)
