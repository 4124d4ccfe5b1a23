"""Vision-language fusion (LLaVA, Liu et al. 2023): project image features into the language model's
embedding space and write them where the prompt holds image placeholders.

    image features (M, N, Dv) -> Projector -> (M, N, D)
    token embeddings (B, T, D), input_ids (B, T) -> splice_images -> (B, T, D): placeholder slots replaced

The projector is LLaVA-1's single linear layer or LLaVA-1.5's linear -> GELU -> linear (transformers'
LlavaMultiModalProjector: `linear_1`, `act`, `linear_2`, biases per `multimodal_projector_bias`).

Placeholders: a prompt holds one `image_token_id` per image feature, as transformers' processor (and
data/llava_processor.py) expands each `<image>`. Images belong to samples in order: the M images of
pixel_values fill sample 0's placeholders first, then sample 1's, ...; a sample may have any number of
images, none included. The splice is transformers' `masked_scatter` over the flattened batch; what it
adds is the check that every sample's placeholders match its images' features exactly, with an error
that names the sample and both counts.

Legend: B batch, T tokens, M images, N features per image, Dv tower width, D language-model width.
"""
from __future__ import annotations

import torch
from torch import nn

from backbones.ffn import make_activation
from backbones.frontends.checks import tracing

PROJECTORS = ("linear", "mlp")  # LLaVA-1 | LLaVA-1.5 (mlp2x_gelu)


class Projector(nn.Module):
    """(M, N, Dv) -> (M, N, D): fc1, or fc1 -> act -> fc2 ("mlp")."""

    def __init__(self, vision_dim: int, dim: int, kind: str = "mlp", act: str = "gelu", bias: bool = True):
        super().__init__()
        if kind not in PROJECTORS:
            raise ValueError(f"projector must be one of {PROJECTORS}, got {kind!r}")
        self.fc1 = nn.Linear(vision_dim, dim, bias=bias)
        mlp = kind == "mlp"
        self.act = make_activation(act) if mlp else nn.Identity()
        self.fc2 = nn.Linear(dim, dim, bias=bias) if mlp else nn.Identity()

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.fc2(self.act(self.fc1(features)))  # (M, N, D)


def placeholder_counts(input_ids: torch.Tensor, image_token_id: int) -> list[int]:
    """input_ids (B, T) -> how many image placeholders each sample holds."""
    return (input_ids == image_token_id).sum(-1).tolist()


def check_placeholders(counts: list[int], num_images: int, tokens_per_image: int, image_token_id: int) -> None:
    """Every sample's placeholders must be a whole number of images, and all samples together must take the
    num_images images exactly, in order. The error names the first sample that does not fit and both counts:
    its placeholders and the image features left for it."""
    left = num_images  # images not yet taken by the samples before
    for sample, count in enumerate(counts):
        last = sample == len(counts) - 1
        images, partial = divmod(count, tokens_per_image)
        if partial or images > left or (last and images != left):
            raise ValueError(
                f"sample {sample}: {count} image placeholder(s) (id {image_token_id}) but {left * tokens_per_image} "
                f"image feature(s) left for it ({left} of the {num_images} image(s) in pixel_values, "
                f"{tokens_per_image} features each): expected one placeholder per image feature, as the processor "
                f"expands each image marker, and one image per marker")
        left -= images


def splice_images(embeddings: torch.Tensor, input_ids: torch.Tensor, image_token_id: int,
                  image_features: torch.Tensor | None) -> torch.Tensor:
    """embeddings (B, T, D), input_ids (B, T), image_features (M, N, D) or None -> (B, T, D) with the
    features of the images, in order, at the placeholder positions. Without image features, placeholders
    are an error (images were expected); with them, every sample must match its images (check_placeholders).
    Traced (torch.export, torch.compile) the checks, which read the ids, are skipped: the splice alone is traced."""
    if not tracing():
        check_splice(embeddings, input_ids, image_token_id, image_features)
    if image_features is None:
        return embeddings
    slots = (input_ids == image_token_id).unsqueeze(-1)  # (B, T, 1)
    return embeddings.masked_scatter(slots, image_features.to(embeddings.dtype).reshape(-1, embeddings.shape[-1]))


def check_splice(embeddings: torch.Tensor, input_ids: torch.Tensor, image_token_id: int,
                 image_features: torch.Tensor | None) -> None:
    counts = placeholder_counts(input_ids, image_token_id)
    if image_features is None:
        if any(counts):
            sample = next(i for i, c in enumerate(counts) if c)
            raise ValueError(f"sample {sample}: {counts[sample]} image placeholder(s) (id {image_token_id}) but no "
                             "pixel_values were given: pass the images, or remove their placeholders")
        return
    if image_features.dim() != 3 or image_features.shape[-1] != embeddings.shape[-1]:
        raise ValueError(f"image_features must be (images, features per image, {embeddings.shape[-1]}), "
                         f"got shape {tuple(image_features.shape)}")
    check_placeholders(counts, image_features.shape[0], image_features.shape[1], image_token_id)


def repeat_images(counts: list[int], copies: int, tokens_per_image: int) -> torch.Tensor:
    """Samples with counts[i] placeholders each, laid out as `copies` adjacent rows per sample (beams, samples
    per prompt: `repeat_interleave(copies)`) -> the index into the M images that those rows' placeholders read,
    in order: each copy reads its sample's images again (indexed, not re-encoded). counts must fit the images
    (check_placeholders)."""
    index, start = [], 0
    for count in counts:
        images = count // tokens_per_image
        index += list(range(start, start + images)) * copies
        start += images
    return torch.tensor(index, dtype=torch.long)
