"""Patch front-ends: images or spectrograms -> (B, N, D) tokens, prefix tokens and positions.

ViT (Dosovitskiy et al. 2021): a Conv2d with kernel = stride = patch cuts the
image into patches and projects each to D. Prefix tokens come first, in timm's
order [class, distillation, registers..., patches] (distillation: DeiT, Touvron
et al. 2021; registers: Darcet et al. 2024). Positions:

- "learn": one learned vector per token. It covers the prefix tokens too,
  unless `no_embed_class` (DeiT-III, big_vision), where it covers the patches
  only and the prefix tokens are concatenated after the addition.
- "sincos": fixed MAE 2-D sincos positions on the patches; prefix tokens get none.
- "none": no positions (e.g. a model that adds its own).

`stride` smaller than the patch gives overlapping patches (AST: 16 x 16 patches
every 10 bins and 10 frames); the grid is then (size - p) // stride + 1 per side
and, as in a Conv2d, a remainder too short for a patch is dropped. With
stride = patch (the default) a size the patch does not divide is refused.

Inputs of another size than the configured one work as long as they hold a
patch grid: learned grid positions are resampled bicubically
(`resample_grid_positions`, timm's `dynamic_img_size=True`), sincos ones are
recomputed for the new grid. Checked against timm 1.0 `VisionTransformer`.

`SpectrogramPatchEmbedding` takes log-mel frames (B, T, F) and patches the
(F, T) plane as one grey image, frequency rows first: the Audio Spectrogram
Transformer's layout (Gong et al. 2021; transformers' `ASTEmbeddings`).

Legend: B batch, C channels, H x W image, p patch, s stride, gh x gw patch grid,
P prefix tokens (class + distillation + registers), N tokens (P + gh*gw), D model width,
T spectrogram frames, F mel bins.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from backbones.frontends.checks import check_finite, check_tensor
from backbones.positions import resample_grid_positions, sincos_2d
from backbones.precision import compute_dtype, in_weight_dtype

POS_EMBEDS = ("learn", "sincos", "none")


def _pair(size: int | tuple[int, int]) -> tuple[int, int]:
    return (int(size), int(size)) if isinstance(size, int) else (int(size[0]), int(size[1]))


class PatchEmbedding(nn.Module):
    def __init__(self, image_size: int | tuple[int, int], patch_size: int, in_chans: int, dim: int, *,
                 stride: int | tuple[int, int] | None = None, class_token: bool = True,
                 distill_token: bool = False, num_register_tokens: int = 0, pos_embed: str = "learn",
                 no_embed_class: bool = False, bias: bool = True, dropout: float = 0.0):
        super().__init__()
        if pos_embed not in POS_EMBEDS:
            raise ValueError(f"pos_embed must be one of {POS_EMBEDS}, got {pos_embed!r}")
        self.image_size, self.patch_size, self.in_chans = _pair(image_size), int(patch_size), in_chans
        self.stride = _pair(patch_size if stride is None else stride)
        self.grid_size = self._grid(self.image_size, "image_size")
        self.proj = nn.Conv2d(in_chans, dim, kernel_size=patch_size, stride=self.stride, bias=bias)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim)) if class_token else None
        self.dist_token = nn.Parameter(torch.zeros(1, 1, dim)) if distill_token else None
        self.reg_tokens = nn.Parameter(torch.zeros(1, num_register_tokens, dim)) if num_register_tokens else None
        self.num_prefix_tokens = int(class_token) + int(distill_token) + num_register_tokens
        # Learned positions for the prefix tokens too, or for the patches only (prefix tokens carry none).
        self.pos_prefix = self.num_prefix_tokens if pos_embed == "learn" and not no_embed_class else 0
        num_patches = self.grid_size[0] * self.grid_size[1]
        self.pos_embed = nn.Parameter(torch.zeros(1, self.pos_prefix + num_patches, dim)) \
            if pos_embed == "learn" else None
        if pos_embed == "sincos":  # a buffer, not saved: it is a function of the grid
            self.register_buffer("sincos", sincos_2d(*self.grid_size, dim)[None], persistent=False)  # (1, gh*gw, D)
        else:
            self.sincos = None
        self.drop = nn.Dropout(dropout)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """timm's init: positions trunc-normal(0.02), class, distillation and register tokens normal(1e-6)."""
        if self.pos_embed is not None:
            nn.init.trunc_normal_(self.pos_embed, std=0.02)
        for token in (self.cls_token, self.dist_token, self.reg_tokens):
            if token is not None:
                nn.init.normal_(token, std=1e-6)

    def _grid(self, size: tuple[int, int], what: str, detail: str = "") -> tuple[int, int]:
        p, (sh, sw) = self.patch_size, self.stride
        if (sh, sw) != (p, p):  # overlapping (or spaced) patches: whatever holds one patch, remainder dropped
            if size[0] < p or size[1] < p:
                raise ValueError(f"{what} {size[0]}x{size[1]}{detail} is smaller than the patch size {p}; "
                                 f"use at least {p} on both sides")
            return (size[0] - p) // sh + 1, (size[1] - p) // sw + 1
        if size[0] % p or size[1] % p:
            near = f"{size[0] // p * p or p}x{size[1] // p * p or p}"
            raise ValueError(f"{what} {size[0]}x{size[1]}{detail} is not divisible by the patch size {p}; "
                             f"use a multiple of {p} on both sides (e.g. {near})")
        return size[0] // p, size[1] // p

    def grid_for(self, pixels: torch.Tensor) -> tuple[int, int]:
        """Check pixels (B, C, H, W) and return their patch grid (gh, gw); errors name the shape."""
        check_tensor(pixels, "pixels", "(B, C, H, W)")
        shape = tuple(pixels.shape)
        if pixels.dim() != 4:
            raise ValueError(f"pixels must be (B, C, H, W); got shape {shape}")
        if not pixels.is_floating_point():
            raise TypeError(f"pixels must be a floating-point tensor (normalised images); got {pixels.dtype} "
                            f"with shape {shape}")
        if shape[1] != self.in_chans:
            raise ValueError(f"pixels have {shape[1]} channel(s) (shape {shape}) but the model expects "
                             f"in_chans={self.in_chans}")
        check_finite(pixels, "pixels")
        return self._grid(shape[2:], "image size", f" (pixels shape {shape})")

    def num_tokens(self, grid: tuple[int, int] | None = None) -> int:
        gh, gw = grid or self.grid_size
        return self.num_prefix_tokens + gh * gw

    def positions(self, grid: tuple[int, int]) -> torch.Tensor | None:
        """(1, P + gh*gw, D) positions for every token of this grid (zero rows where a token has none)."""
        if self.sincos is not None:
            pos = self.sincos if grid == self.grid_size else \
                sincos_2d(*grid, self.sincos.shape[-1])[None].to(self.sincos)  # (1, gh*gw, D)
        elif self.pos_embed is not None:
            pos = resample_grid_positions(self.pos_embed, self.grid_size, grid, self.pos_prefix)
        else:
            return None
        missing = self.num_prefix_tokens - self.pos_prefix  # prefix tokens without positions
        return F.pad(pos, (0, 0, missing, 0))  # (1, P + gh*gw, D)

    def prefix(self, batch_size: int) -> list[torch.Tensor]:
        tokens = [t for t in (self.cls_token, self.dist_token, self.reg_tokens) if t is not None]
        return [t.expand(batch_size, -1, -1) for t in tokens]  # [(B, 1, D), (B, 1, D), (B, R, D)]

    def tokens(self, patches: torch.Tensor) -> torch.Tensor:
        """Projected patches (B, D, gh, gw) -> tokens (B, P + gh*gw, D): prefix tokens first, positions added."""
        grid = (patches.shape[2], patches.shape[3])
        x = patches.flatten(2).transpose(1, 2)  # (B, gh*gw, D)
        x = torch.cat([*self.prefix(x.shape[0]), x], dim=1)  # (B, P + gh*gw, D)
        pos = self.positions(grid)
        return self.drop(x if pos is None else x + pos)

    def project(self, pixels: torch.Tensor, grid: tuple[int, int] | None = None) -> torch.Tensor:
        """pixels (B, C, H, W) -> projected patches (B, D, gh, gw) (grid: (gh, gw) where the caller checked the
        pixels with grid_for; else worked out here): the Conv2d, or for overlapping patches
        computed in bf16 on the CPU the same product as one F.linear over the unfolded patches, because
        oneDNN's bf16 convolution is slow in that shape; in fp32 the Conv2d is the faster, and non-overlapping
        image patches are no faster unfolded (timings: docs/notes/2026-12-06-cpu-kernels.md)."""
        weight = self.proj.weight
        pixels = in_weight_dtype(pixels, weight)
        if not (pixels.is_cpu and self.stride != (self.patch_size, self.patch_size)
                and compute_dtype(pixels, weight) == torch.bfloat16):
            return self.proj(pixels)
        gh, gw = grid or self._grid(tuple(pixels.shape[2:]), "image size")
        columns = F.unfold(pixels.to(torch.bfloat16), self.patch_size, stride=self.stride)  # (B, C*p*p, gh*gw)
        out = F.linear(columns.mT, weight.flatten(1), self.proj.bias)  # (B, gh*gw, D), bias in the one rounding
        return out.mT.unflatten(-1, (gh, gw))  # (B, D, gh, gw)

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        """pixels (B, C, H, W) -> tokens (B, P + gh*gw, D), prefix tokens first."""
        return self.tokens(self.project(pixels, self.grid_for(pixels)))  # (B, D, gh, gw)


class SpectrogramPatchEmbedding(PatchEmbedding):
    """Log-mel frames (B, T, F) -> tokens (B, P + gf*gt, D): the (F, T) plane as a one-channel image.

    The patch grid is gf frequency rows by gt time columns, flattened frequency-major (AST's order).
    `image_size` is (num_mel_bins, num_frames); other keyword arguments are PatchEmbedding's.
    """

    def __init__(self, num_frames: int, num_mel_bins: int, patch_size: int, dim: int, **kwargs):
        super().__init__((num_mel_bins, num_frames), patch_size, 1, dim, **kwargs)

    def grid_for(self, spectrogram: torch.Tensor) -> tuple[int, int]:
        """Check a spectrogram (B, T, F) and return its patch grid (gf, gt); errors name the shape.

        F must be the configured mel bins (another filterbank is another input, not a resized one) and T
        at most the configured frames, the positions there are (fewer resample them, as a smaller image does).
        """
        check_tensor(spectrogram, "spectrogram", "(B, frames, mel bins)")
        shape, (bins, frames) = tuple(spectrogram.shape), self.image_size
        if spectrogram.dim() != 3:
            raise ValueError(f"spectrogram must be (B, frames, mel bins); got shape {shape}")
        if not spectrogram.is_floating_point():
            raise TypeError(f"spectrogram must be a floating-point tensor; got {spectrogram.dtype} "
                            f"with shape {shape}")
        if shape[2] != bins:
            transposed = " (it looks like (B, mel bins, frames), Whisper's layout: pass spectrogram.transpose(1, 2))" \
                if shape[1] == bins else ""
            raise ValueError(f"spectrogram has {shape[2]} mel bins (shape {shape}); expected (B, frames, {bins} "
                             f"mel bins){transposed}")
        if shape[1] > frames:
            raise ValueError(f"spectrogram has {shape[1]} frames (shape {shape}) but the model has positions for "
                             f"{frames}; expected at most {frames} frames (cut longer audio into pieces)")
        check_finite(spectrogram, "spectrogram")
        return self._grid((shape[2], shape[1]), "spectrogram (mel bins x frames)", f" (shape {shape})")

    def forward(self, spectrogram: torch.Tensor) -> torch.Tensor:
        """spectrogram (B, T, F) -> tokens (B, P + gf*gt, D), prefix tokens first."""
        grid = self.grid_for(spectrogram)
        image = spectrogram.transpose(1, 2).unsqueeze(1)  # (B, 1, F, T)
        return self.tokens(self.project(image, grid))  # (B, D, gf, gt)
