"""The LLaVA processor: prompts with `<image>` markers -> input ids with one placeholder per image feature,
left-padded batches with their attention mask, and pixel values made with torchvision transforms.

    processor = LlavaProcessor(tokenizer, image_token_id=model.config.image_token_id, num_image_tokens=36,
                               image_transform=clip_transform(48))
    batch = processor(["<image>\\nwhat colour is the circle?\\nanswer:", "hello"], [[scene], []])
    batch["input_ids"]       # (B, T) left-padded; each <image> became 36 image_token_id
    batch["attention_mask"]  # (B, T) 1 = token, 0 = padding
    batch["pixel_values"]    # (M, 3, 48, 48): the batch's M images in prompt order (None when M = 0)
    train = processor.training_batch(prompts, answers, images)   # + labels: next tokens of the answers only

The expansion matches transformers' LlavaProcessor: it repeats the image token in the text, and the
tokenizer splits text around added tokens before pre-tokenizing, which is what encoding each text segment
between markers on its own does here. Any tokenizer with `encode(text)` works (data.tokenization's, or
transformers'); segments are encoded without special tokens, and a BOS (the tokenizer's `bos_id`, if any)
starts each prompt.

Pixels: `clip_transform` is CLIPImageProcessor's recipe (convert to RGB, resize the shortest side with
bicubic antialiased resampling, centre crop, scale to [0, 1], normalise with OpenAI CLIP's mean and std);
on uint8 images it equals transformers' torchvision-backend CLIPImageProcessor to float rounding (~1e-6),
and transformers' PIL backend to within PIL_PARITY_TOLERANCE (PIL's bicubic filter rounds differently, see
tests/data/test_llava_processor.py). `pad_to_square_transform` is the original LLaVA's: pad the shorter
side, centred, with the mean colour (as int(255 * mean)), then the CLIP steps.
"""
from __future__ import annotations

import inspect
import json
import string
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torchvision.transforms import v2
from torchvision.transforms.v2 import InterpolationMode

from data.collate import IGNORE_INDEX
from data.scenes import IMAGE_MARKER

CLIP_MEAN = (0.48145466, 0.4578275, 0.40821073)   # transformers.utils.constants.OPENAI_CLIP_MEAN
CLIP_STD = (0.26862954, 0.26130258, 0.27577711)    # OPENAI_CLIP_STD
PIL_PARITY_TOLERANCE = 0.05  # vs CLIPImageProcessorPil: 3 uint8 levels over the smallest std (measured 2)
_INTERPOLATIONS = {"nearest": InterpolationMode.NEAREST, "bilinear": InterpolationMode.BILINEAR,
                   "bicubic": InterpolationMode.BICUBIC}


# ----------------------------------------------------------------------------- pixels


class ToRGB:
    """PIL image (any mode), (H, W) / (C, H, W) tensor or (H, W) / (H, W, C) array -> (3, H, W) tensor
    (uint8 stays uint8, float stays float). Grey is repeated; other channel counts are an error."""

    def __call__(self, image: Any) -> torch.Tensor:
        if hasattr(image, "convert") and hasattr(image, "mode"):        # PIL, as CLIP's do_convert_rgb
            image = torch.from_numpy(np.array(image.convert("RGB"))).permute(2, 0, 1)  # (3, H, W)
        elif isinstance(image, np.ndarray):
            image = torch.from_numpy(image.copy())
            image = image.permute(2, 0, 1) if image.ndim == 3 else image   # (H, W, C) -> (C, H, W)
        if not isinstance(image, torch.Tensor):
            raise TypeError(f"image of type {type(image).__name__}: expected a PIL image, a tensor or an array")
        image = image.unsqueeze(0) if image.ndim == 2 else image
        if image.ndim != 3 or image.shape[0] not in (1, 3):
            raise ValueError(f"image of shape {tuple(image.shape)}: expected (H, W), (1, H, W) or (3, H, W) "
                             "(grey or RGB, channels first)")
        return image.expand(3, -1, -1) if image.shape[0] == 1 else image

    def __repr__(self) -> str:
        return "ToRGB()"


class PadToSquare:
    """(C, H, W) -> (C, S, S), S = max(H, W): the image centred (extra pixel after), the rest `fill`
    (0..255 colour; scaled to [0, 1] for float images), as LLaVA's expand2square."""

    def __init__(self, fill: Sequence[int]):
        self.fill = tuple(int(f) for f in fill)

    def __call__(self, image: torch.Tensor) -> torch.Tensor:
        c, h, w = image.shape
        s = max(h, w)
        fill = torch.tensor(self.fill, dtype=torch.float32)
        fill = (fill if image.dtype == torch.uint8 else fill / 255.0).to(image.dtype)
        square = fill.view(c, 1, 1).expand(c, s, s).clone()     # (C, S, S)
        top, left = (s - h) // 2, (s - w) // 2
        square[:, top:top + h, left:left + w] = image
        return square

    def __repr__(self) -> str:
        return f"PadToSquare(fill={self.fill})"


class CenterCrop:
    """(C, H, W) -> (C, size, size) at offsets floor((H - size) / 2), floor((W - size) / 2), as transformers'
    CLIPImageProcessor; torchvision's CenterCrop rounds the offset instead (one pixel off when H - size is odd)."""

    def __init__(self, size: int):
        self.size = size

    def __call__(self, image: torch.Tensor) -> torch.Tensor:
        h, w = image.shape[-2:]
        if h < self.size or w < self.size:
            raise ValueError(f"image of size {h} x {w} is smaller than the crop {self.size}; resize it first")
        top, left = (h - self.size) // 2, (w - self.size) // 2
        return image[..., top:top + self.size, left:left + self.size]

    def __repr__(self) -> str:
        return f"CenterCrop(size={self.size})"


def _clip_steps(size: int, crop_size: int | None, mean, std, interpolation: str) -> list:
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"interpolation must be one of {list(_INTERPOLATIONS)}, got {interpolation!r}")
    if size < 1 or (crop_size is not None and crop_size < 1):
        raise ValueError(f"size and crop_size must be positive, got {size} and {crop_size}")
    return [v2.Resize(size, interpolation=_INTERPOLATIONS[interpolation], antialias=True),
            CenterCrop(crop_size or size), v2.ToDtype(torch.float32, scale=True),
            v2.Normalize(mean=list(mean), std=list(std))]


def clip_transform(size: int = 224, crop_size: int | None = None, mean: Sequence[float] = CLIP_MEAN,
                   std: Sequence[float] = CLIP_STD, interpolation: str = "bicubic") -> v2.Compose:
    """image -> float32 (3, crop, crop): CLIPImageProcessor (shortest_edge=size, crop_size=crop_size or size)."""
    return v2.Compose([ToRGB(), *_clip_steps(size, crop_size, mean, std, interpolation)])


def pad_to_square_transform(size: int = 336, mean: Sequence[float] = CLIP_MEAN, std: Sequence[float] = CLIP_STD,
                            interpolation: str = "bicubic") -> v2.Compose:
    """image -> float32 (3, size, size): the original LLaVA's pad to a square with the mean colour, then CLIP's."""
    fill = [int(255 * m) for m in mean]
    return v2.Compose([ToRGB(), PadToSquare(fill), *_clip_steps(size, None, mean, std, interpolation)])


PROMPT_FILE = "prompt_format.json"


def check_prompt_format(prompt_format: str) -> str:
    """A prompt format has one {image} slot (the image marker goes there), one or more {question} slots (the
    same question each time) and no other fields."""
    try:
        named = [f for _, f, _, _ in string.Formatter().parse(prompt_format) if f is not None]
    except (TypeError, ValueError):  # not a string, or an unmatched brace
        named = []
    if not named or named.count("image") != 1 or "question" not in named or set(named) - {"image", "question"}:
        raise ValueError(f"prompt format {prompt_format!r}: expected one {{image}} slot, one or more {{question}} "
                         "slots and no other fields, e.g. '{question}\\n{image}\\nanswer:'")
    return prompt_format


def save_prompt_format(prompt_format: str, directory) -> None:
    """Store the format a model was trained to answer in (scripts/chat.py reads it back)."""
    check_prompt_format(prompt_format)
    (Path(directory) / PROMPT_FILE).write_text(json.dumps({"prompt_format": prompt_format}) + "\n")


def load_prompt_format(directory, default: str) -> str:
    """The model directory's prompt format, or `default` where it stores none (models saved before it did)."""
    path = Path(directory) / PROMPT_FILE
    if not path.is_file():
        return default
    try:
        return check_prompt_format(json.loads(path.read_text())["prompt_format"])
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{path}: expected {{\"prompt_format\": \"...{{image}}...{{question}}...\"}}; {e}") from None


def num_image_tokens(image_size: int, patch_size: int, class_token: bool = False) -> int:
    """Features per image a ViT tower gives: (image_size / patch_size)^2 patches (+1 if the class token is kept)."""
    if image_size % patch_size:
        raise ValueError(f"image_size {image_size} is not a multiple of patch_size {patch_size}")
    return (image_size // patch_size) ** 2 + int(class_token)


# ----------------------------------------------------------------------------- tokens


def _encoder(tokenizer: Any) -> Callable[[str], list[int]]:
    encode = getattr(tokenizer, "encode", None)
    if not callable(encode):
        raise TypeError(f"tokenizer {type(tokenizer).__name__} has no encode(text) method")
    params = inspect.signature(encode).parameters
    if "add_special_tokens" in params or any(p.kind == p.VAR_KEYWORD for p in params.values()):
        return lambda text: list(encode(text, add_special_tokens=False))
    return lambda text: list(encode(text))


def _as_image_list(images: Any) -> list:
    if images is None:
        return []
    return list(images) if isinstance(images, (list, tuple)) else [images]


class LlavaProcessor:
    """Prompts and images -> model inputs (see the module docstring).

    tokenizer: anything with encode(text). image_token_id: the placeholder id (the model config's).
    num_image_tokens: features per image (see `num_image_tokens`). image_transform: PIL/tensor -> (3, H, W).
    pad_id / eos_id / bos_id: default to the tokenizer's pad_id (else eos_id) / eos_id / bos_id attributes.
    """

    def __init__(self, tokenizer: Any, image_token_id: int, num_image_tokens: int,
                 image_transform: Callable | None = None, *, pad_id: int | None = None, eos_id: int | None = None,
                 bos_id: int | None = None, add_bos: bool = True, marker: str = IMAGE_MARKER):
        if num_image_tokens < 1:
            raise ValueError(f"num_image_tokens must be >= 1, got {num_image_tokens}")
        if not marker:
            raise ValueError("marker must be a non-empty string")
        self.tokenizer, self._encode = tokenizer, _encoder(tokenizer)
        self.image_token_id, self.num_image_tokens = int(image_token_id), int(num_image_tokens)
        self.image_transform, self.marker = image_transform, marker
        self.eos_id = eos_id if eos_id is not None else getattr(tokenizer, "eos_id", None)
        self.pad_id = pad_id if pad_id is not None else getattr(tokenizer, "pad_id", None)
        self.pad_id = self.pad_id if self.pad_id is not None else self.eos_id
        self.bos_id = (bos_id if bos_id is not None else getattr(tokenizer, "bos_id", None)) if add_bos else None

    def encode_prompt(self, prompt: str, num_images: int | None = None, sample: int = 0) -> list[int]:
        """Token ids of one prompt, each marker replaced by num_image_tokens placeholders. num_images, when
        given, must equal the number of markers (the error names `sample` and both counts)."""
        if not isinstance(prompt, str):
            raise TypeError(f"sample {sample}: prompt of type {type(prompt).__name__}, expected a str")
        segments = prompt.split(self.marker)
        markers = len(segments) - 1
        if num_images is not None and num_images != markers:
            raise ValueError(f"sample {sample}: the prompt has {markers} {self.marker} marker(s) but {num_images} "
                             "image(s) were given; expected one image per marker")
        ids = [self.bos_id] if self.bos_id is not None else []
        for k, segment in enumerate(segments):
            text = self._encode(segment) if segment else []
            if self.image_token_id in text:
                raise ValueError(f"sample {sample}: the text {segment!r} encodes to the image placeholder id "
                                 f"{self.image_token_id}; only {self.marker} markers may produce it")
            ids += text
            if k < markers:
                ids += [self.image_token_id] * self.num_image_tokens
        if not ids:
            raise ValueError(f"sample {sample}: the prompt encodes to no tokens; expected at least one")
        return ids

    def pixel_values(self, images: Sequence) -> torch.Tensor | None:
        """(M, 3, H, W) float32 from M images through image_transform; None for M = 0."""
        if not images:
            return None
        if self.image_transform is None:
            raise ValueError(f"{len(images)} image(s) given but the processor has no image_transform")
        pixels = [self.image_transform(image) for image in images]
        shapes = sorted({tuple(p.shape) for p in pixels})
        if len(shapes) > 1:
            raise ValueError(f"image_transform made images of different shapes {shapes}; expected one size")
        return torch.stack(pixels)

    def _samples(self, prompts, images) -> tuple[list[str], list[list]]:
        single = isinstance(prompts, str)
        prompts = [prompts] if single else list(prompts)
        if images is None:
            per_sample = [[] for _ in prompts]
        elif single:
            per_sample = [_as_image_list(images)]
        else:
            if not isinstance(images, (list, tuple)) or len(images) != len(prompts):
                got = len(images) if isinstance(images, (list, tuple)) else type(images).__name__
                raise ValueError(f"images: {got} entries for {len(prompts)} prompts; expected one entry per "
                                 "prompt (an image, a list of images, or None)")
            per_sample = [_as_image_list(entry) for entry in images]
        if not prompts:
            raise ValueError("no prompts given; expected at least one")
        return prompts, per_sample

    def _pad(self, rows: list[list[int]], side: str, value: int) -> torch.Tensor:
        if side not in ("left", "right"):
            raise ValueError(f"padding_side must be 'left' or 'right', got {side!r}")
        width = max(len(r) for r in rows)
        out = torch.full((len(rows), width), value, dtype=torch.long)   # (B, T)
        for i, r in enumerate(rows):
            start = width - len(r) if side == "left" else 0
            out[i, start:start + len(r)] = torch.tensor(r, dtype=torch.long)
        return out

    def _batch(self, rows: list[list[int]], images: list[list], side: str) -> dict[str, Any]:
        if self.pad_id is None:
            raise ValueError("the tokenizer has no pad or eos id: pass pad_id= to LlavaProcessor")
        ids = self._pad(rows, side, self.pad_id)                          # (B, T)
        mask = self._pad([[1] * len(r) for r in rows], side, 0)            # (B, T)
        return {"input_ids": ids, "attention_mask": mask,
                "pixel_values": self.pixel_values([im for sample in images for im in sample]),
                "image_counts": [len(sample) for sample in images]}

    def __call__(self, prompts: str | Sequence[str], images: Any = None, padding_side: str = "left") -> dict:
        """Inputs for generation: input_ids / attention_mask (B, T), left-padded by default; pixel_values
        (M, 3, H, W) of all images in sample then marker order, or None; image_counts per sample.
        images: for one prompt, an image or a list; for a list of prompts, one entry per prompt."""
        prompts, images = self._samples(prompts, images)
        rows = [self.encode_prompt(p, len(im), i) for i, (p, im) in enumerate(zip(prompts, images))]
        return self._batch(rows, images, padding_side)

    def training_batch(self, prompts: Sequence[str], answers: Sequence[str], images: Any = None,
                       separator: str = " ", padding_side: str = "right") -> dict:
        """__call__'s batch for prompt + separator + answer + eos, plus labels (B, T): labels[t] is the
        token at t + 1 where that token belongs to the answer or its eos, IGNORE_INDEX elsewhere (the
        repo's next-token convention; the loss sees the answers only)."""
        prompts, images = self._samples(list(prompts), images)
        if len(answers) != len(prompts):
            raise ValueError(f"{len(answers)} answers for {len(prompts)} prompts; expected one per prompt")
        if self.eos_id is None:
            raise ValueError("the tokenizer has no eos id: pass eos_id= to LlavaProcessor")
        rows, targets = [], []
        for i, (prompt, answer, im) in enumerate(zip(prompts, answers, images)):
            head = self.encode_prompt(prompt, len(im), i)
            tail = self._encode(separator + answer) + [self.eos_id]
            rows.append(head + tail)
            targets.append([IGNORE_INDEX] * (len(head) - 1) + tail + [IGNORE_INDEX])
        batch = self._batch(rows, images, padding_side)
        batch["labels"] = self._pad(targets, padding_side, IGNORE_INDEX)
        return batch
