"""Audio Spectrogram Transformer (Gong et al. 2021): overlapping spectrogram patches -> ViT encoder -> head.

    spectrogram (B, T, F) -> 16 x 16 patches every 10 bins and 10 frames over the (F, T) plane
        -> [class, distillation, gf*gt patches] + learned positions -> depth x pre-LN Block -> final norm
        -> (class + distillation) / 2 -> LayerNorm -> Linear -> logits (B, num_classes)

The blocks are ViT's (GELU MLP, LayerNorm eps 1e-12 as transformers' default). The AudioSet
model takes 1024 frames x 128 bins (data.ast_features): a 12 x 101 grid, 1212 patches, 1214
tokens. Checked against transformers' ASTForAudioClassification and ASTModel
(tests/zoo/test_parity_ast.py); zoo.from_hf converts both (zoo/convert/hf_ast.py).

A spectrogram must have num_mel_bins bins and at most max_length frames (the positions there are);
fewer frames resample the learned grid positions, as ViT does for a smaller image (transformers'
AST takes max_length frames only). An input that looks like Whisper's (B, F, T) layout is refused
rather than read transposed (backbones.frontends.patches.SpectrogramPatchEmbedding checks them all).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import torch

from backbones.block import BlockSpec
from backbones.frontends.patches import SpectrogramPatchEmbedding
from backbones.init import init_weights
from backbones.norms import LayerNorm
from backbones.transformer import Transformer
from heads.classification import ClassifierHead
from zoo.pretrained import ClassifierModel
from zoo.registry import register_family, register_model


@dataclass(frozen=True)
class ASTConfig:
    family: ClassVar[str] = "ast"
    num_mel_bins: int = 128        # F: mel bins per frame
    max_length: int = 1024         # T: frames (10 ms each) the positions are learned for
    patch_size: int = 16           # square patches, bins x frames
    frequency_stride: int = 10     # bins between patch rows
    time_stride: int = 10          # frames between patch columns
    num_classes: int = 527         # 0: the head returns the pooled features
    dim: int = 768
    depth: int = 12
    num_heads: int = 12
    mlp_hidden: int = 3072
    qkv_bias: bool = True
    act: str = "gelu"              # gelu | gelu_tanh | quick_gelu | relu
    norm_eps: float = 1e-12
    head_norm: bool = True         # LayerNorm on the pooled tokens (ASTMLPHead); False: ASTModel's pooler_output
    dropout: float = 0.0

    @property
    def grid_size(self) -> tuple[int, int]:
        """(frequency rows, time columns) of the patch grid at the configured size."""
        return ((self.num_mel_bins - self.patch_size) // self.frequency_stride + 1,
                (self.max_length - self.patch_size) // self.time_stride + 1)


class AudioSpectrogramTransformer(ClassifierModel):
    def __init__(self, config: ASTConfig):
        super().__init__()
        self.config = config
        self.patch_embed = SpectrogramPatchEmbedding(
            config.max_length, config.num_mel_bins, config.patch_size, config.dim,
            stride=(config.frequency_stride, config.time_stride), distill_token=True, dropout=config.dropout)
        spec = BlockSpec(dim=config.dim, num_heads=config.num_heads, mlp_hidden=config.mlp_hidden, act=config.act,
                         norm_eps=config.norm_eps, qkv_bias=config.qkv_bias, dropout=config.dropout)
        self.transformer = Transformer.from_spec(spec, config.depth)
        self.head = self._make_head(config.num_classes)
        init_weights(self, std=0.02)
        self.patch_embed.reset_parameters()  # init_weights knows nothing of tokens and positions

    def _make_head(self, num_classes: int) -> ClassifierHead:
        c = self.config
        return ClassifierHead(c.dim, num_classes, pool="cls+dist", num_prefix_tokens=self.num_prefix_tokens,
                              norm=LayerNorm(c.dim, eps=c.norm_eps) if c.head_norm else None, dropout=c.dropout)

    @property
    def num_prefix_tokens(self) -> int:
        return self.patch_embed.num_prefix_tokens  # 2: class and distillation

    @property
    def min_seq_len(self) -> int:
        """The fewest tokens a spectrogram makes: the prefix tokens and one time column of patches."""
        return self.num_prefix_tokens + self.config.grid_size[0]

    def forward_features(self, spectrogram: torch.Tensor) -> torch.Tensor:
        """spectrogram (B, T, F) -> every token after the final norm (B, 2 + gf*gt, D), class and distillation first."""
        return self.transformer(self.patch_embed(spectrogram))  # (B, N, D)

    def forward_head(self, features: torch.Tensor) -> torch.Tensor:
        return self.head(features)  # (B, C), or the pooled tokens (B, D) with num_classes=0

    def forward(self, spectrogram: torch.Tensor) -> torch.Tensor:
        """spectrogram (B, T, F), e.g. data.ast_features(...) -> logits (B, num_classes)."""
        return self.forward_head(self.forward_features(spectrogram))

    def example_inputs(self, batch_size: int = 2, seq_len: int | None = None) -> dict[str, torch.Tensor]:
        """Valid forward() keyword arguments: a random spectrogram (B, T, F).

        seq_len=None gives the configured (max_length, num_mel_bins). A seq_len asks for about that many
        tokens N (the 2 prefix tokens included): the bins are fixed, so the spectrogram holds the gf rows
        and as many time columns as fit N - 2 patches, at least one and at most the configured ones (exactly
        N tokens where gf divides N - 2; contract tests ask for max(8, min_seq_len)).
        """
        c = self.config
        rows, columns = c.grid_size
        if seq_len is not None:
            if seq_len < self.min_seq_len:
                raise ValueError(f"seq_len must be at least {self.min_seq_len} (the prefix tokens and one time "
                                 f"column of {rows} patches), got {seq_len}")
            columns = min(columns, (seq_len - self.num_prefix_tokens) // rows)
        frames = c.patch_size + c.time_stride * (columns - 1) if seq_len is not None else c.max_length
        generator = torch.Generator().manual_seed(0)
        return {"spectrogram": torch.randn(batch_size, frames, c.num_mel_bins, generator=generator)}

    def no_weight_decay(self) -> set[str]:
        return {"patch_embed.pos_embed", "patch_embed.cls_token", "patch_embed.dist_token"}


register_family(ASTConfig, AudioSpectrogramTransformer)


@register_model
def ast_tiny() -> ASTConfig:
    """A tiny AST for tests and keyword spotting here: 128 frames (1.28 s) x 128 bins, a 12 x 12 grid,
    2 layers x 64 wide, 35 classes (Speech Commands v2's keywords; reset_head for others)."""
    return ASTConfig(max_length=128, num_classes=35, dim=64, depth=2, num_heads=4, mlp_hidden=128)


@register_model
def ast_base_audioset() -> ASTConfig:
    """MIT/ast-finetuned-audioset-10-10-0.4593's shape: 1024 frames x 128 bins, ViT-B (768 x 12), 527 AudioSet
    classes, 86.6M parameters."""
    return ASTConfig()
