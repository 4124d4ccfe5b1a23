"""timm `VisionTransformer` instance -> zoo.vit.VisionTransformer with the same weights and outputs.

CLIP's recipe (a norm before the blocks: timm's vit_*_clip_* models) becomes a
zoo.clip.ClipVisionTower, the same ViT with CLIP's layer features (`image_features`);
timm's final `norm` stays where timm has it (on every token), so forward_features
is timm's.

The config is read from the instance's modules (timm keeps no config object
on it): patch_embed, cls_token / reg_token, pos_embed, norm_pre, the blocks,
norm / fc_norm and head. Features we do not implement raise
UnsupportedConfigError naming them, rather than converting into a model that
computes something else. Training-only parts (drop path, patch dropout) are
not carried over. Checked against timm 1.0.x vision_transformer.py.

Names: fused `attn.qkv` (3D, D) splits into q, k, v in that order (timm
reshapes qkv output as (B, N, 3, H, Dh)); `attn.proj` -> `attn.o_proj`;
`mlp.fc1/fc2` -> `ffn.fc1/fc2`; `ls1/ls2.gamma` keep their names; `norm`
(the final norm) -> `transformer.norm`; `fc_norm` -> `head.norm`; `head` -> `head.fc`.
"""
from __future__ import annotations

import torch
from torch import nn

from zoo.clip import ClipVisionConfig
from zoo.convert.common import (
    TIMM_ACTIVATIONS,
    UnsupportedConfigError,
    build_converted,
    key_map,
    rename_all,
    split_fused_qkv,
    square,
)
from zoo.vit import VisionTransformer, VitConfig

_SOURCE = "timm VisionTransformer"


def _unsupported(what: str, supported: str = "") -> UnsupportedConfigError:
    return UnsupportedConfigError(f"{_SOURCE} with {what} is not supported by from_timm"
                                  + (f"; supported: {supported}" if supported else ""))


def _activation(act: nn.Module) -> str:
    name = type(act).__name__
    if name == "GELU" and getattr(act, "approximate", "none") == "tanh":
        name = "GELUTanh"
    if name not in TIMM_ACTIVATIONS:
        raise _unsupported(f"MLP activation {name}", ", ".join(sorted(TIMM_ACTIVATIONS)))
    return TIMM_ACTIVATIONS[name]


def _check_supported(model: nn.Module) -> None:
    from timm.layers import Attention, LayerNorm, LayerScale, Mlp, PatchEmbed
    from timm.models.vision_transformer import Block

    def identity(module, what):
        if module is not None and not isinstance(module, nn.Identity):
            raise _unsupported(what)

    if getattr(model, "dist_token", None) is not None:
        raise _unsupported("a distillation token (DeiT distilled)")
    if model.global_pool not in ("token", "avg"):
        raise _unsupported(f"global_pool={model.global_pool!r}", "'token', 'avg'")
    if getattr(model, "attn_pool", None) is not None or getattr(model, "pool_include_prefix", False):
        raise _unsupported("attention pooling or pool_include_prefix=True")
    if isinstance(model.norm, nn.Identity) and isinstance(model.fc_norm, nn.Identity):
        raise _unsupported("final_norm=False")
    pe = model.patch_embed
    if type(pe) is not PatchEmbed or not isinstance(pe.proj, nn.Conv2d):
        raise _unsupported(f"patch embedding {type(pe).__name__} (only a plain PatchEmbed)")
    if pe.proj.kernel_size != pe.proj.stride or pe.proj.padding != (0, 0):
        raise _unsupported(f"overlapping patches (kernel {pe.proj.kernel_size}, stride {pe.proj.stride})")
    identity(pe.norm, "a norm in the patch embedding (embed_norm_layer)")
    if pe.dynamic_img_pad:
        raise _unsupported("dynamic_img_pad=True")
    if (pe.proj.bias is None) != (not isinstance(model.norm_pre, nn.Identity)):
        raise _unsupported("a patch projection bias that does not follow pre_norm")
    for i, block in enumerate(model.blocks):
        if type(block) is not Block or type(block.attn) is not Attention or type(block.mlp) is not Mlp:
            raise _unsupported(f"block {i} of types {type(block).__name__}/{type(block.attn).__name__}/"
                               f"{type(block.mlp).__name__} (only Block/Attention/Mlp)")
        identity(block.attn.q_norm, "qk_norm=True")
        identity(getattr(block.attn, "norm", None), "scale_attn_norm=True")
        identity(getattr(block.mlp, "norm", None), "scale_mlp_norm=True")
        if getattr(block.attn, "gate", None) is not None:
            raise _unsupported("gated attention")
        if block.attn.proj.bias is None or block.mlp.fc1.bias is None:
            raise _unsupported("proj_bias=False")
        for ls in (block.ls1, block.ls2):
            if not isinstance(ls, (nn.Identity, LayerScale)):
                raise _unsupported(f"layer scale {type(ls).__name__}")
    norms = [model.norm, model.fc_norm, model.norm_pre] + [n for b in model.blocks for n in (b.norm1, b.norm2)]
    for norm in norms:
        if isinstance(norm, nn.Identity):
            continue
        if type(norm) not in (nn.LayerNorm, LayerNorm) or not norm.elementwise_affine or norm.bias is None:
            raise _unsupported(f"norm layer {type(norm).__name__} (only an affine LayerNorm with bias)")


def config_from_timm(model: nn.Module) -> VitConfig:
    """Read a VitConfig off a timm VisionTransformer; UnsupportedConfigError for what we lack."""
    from timm.models.vision_transformer import VisionTransformer as TimmViT

    if not isinstance(model, TimmViT):
        raise TypeError(f"from_timm takes a timm VisionTransformer instance, got {type(model).__name__}")
    _check_supported(model)
    block, pe = model.blocks[0], model.patch_embed
    dim = model.embed_dim
    ls = block.ls1
    return VitConfig(
        image_size=square(pe.img_size, "img_size", _SOURCE), patch_size=square(pe.patch_size, "patch_size", _SOURCE),
        in_chans=pe.proj.in_channels, num_classes=model.num_classes if isinstance(model.head, nn.Linear) else 0,
        dim=dim, depth=len(model.blocks), num_heads=block.attn.num_heads,
        mlp_ratio=block.mlp.fc1.out_features / dim, qkv_bias=block.attn.qkv.bias is not None,
        act=_activation(block.mlp.act), class_token=model.cls_token is not None,
        num_register_tokens=model.num_reg_tokens, global_pool=model.global_pool,
        fc_norm=not isinstance(model.fc_norm, nn.Identity), pre_norm=not isinstance(model.norm_pre, nn.Identity),
        layer_scale=None if isinstance(ls, nn.Identity) else float(getattr(ls, "init_values", ls.gamma[0])),
        pos_embed="none" if model.pos_embed is None else "learn", no_embed_class=model.no_embed_class,
        norm_eps=block.norm1.eps, dropout=model.head_drop.p)


_TOP = {"cls_token": "patch_embed.cls_token", "reg_token": "patch_embed.reg_tokens",
        "pos_embed": "patch_embed.pos_embed", "patch_embed.proj.weight": "patch_embed.proj.weight",
        "patch_embed.proj.bias": "patch_embed.proj.bias", "norm_pre.weight": "norm_pre.weight",
        "norm_pre.bias": "norm_pre.bias", "norm.weight": "transformer.norm.weight",
        "norm.bias": "transformer.norm.bias", "fc_norm.weight": "head.norm.weight",
        "fc_norm.bias": "head.norm.bias", "head.weight": "head.fc.weight", "head.bias": "head.fc.bias"}
_BLOCK = {"norm1": "norm1", "norm2": "norm2", "attn.qkv": "attn.qkv", "attn.proj": "attn.o_proj",
          "mlp.fc1": "ffn.fc1", "mlp.fc2": "ffn.fc2", "ls1.gamma": "ls1.gamma", "ls2.gamma": "ls2.gamma"}
_RENAME = key_map(_TOP, r"blocks", _BLOCK)


def convert_state_dict(state: dict[str, torch.Tensor], source: str = _SOURCE) -> dict[str, torch.Tensor]:
    """timm state dict -> ours: renamed, fused qkv (3D, D) split into q_proj, k_proj, v_proj.
    The tensors are copies: the result shares no memory with the timm model."""
    return {key: value.detach().clone() for key, value in split_fused_qkv(rename_all(state, _RENAME, source)).items()}


def from_timm(model: nn.Module) -> VisionTransformer:
    """A timm VisionTransformer instance -> our VisionTransformer with the same weights, in eval mode;
    a ClipVisionTower (a VisionTransformer too) for CLIP's pre-norm recipe."""
    config = config_from_timm(model)
    if config.pre_norm:
        config = ClipVisionConfig.from_vit(config)
    ours = convert_state_dict(dict(model.state_dict()), type(model).__name__)
    return build_converted(config, ours, f"timm {type(model).__name__}")
