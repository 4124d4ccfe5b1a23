"""Images into model inputs: the preprocessing config, torchvision transforms v2 pipelines, ImageDataset.

    cfg = preprocess_config(model.config)        # size, mean, std, interpolation, in_chans, crop_pct
    train_set = ImageDataset(images, labels, train_transform(cfg, Augment(crop_padding=2, hflip=True)))
    train_set[0]  # {"pixels": float32 (C, H, W) normalised, "labels": int}: a batch for BatchStream

Evaluation follows timm's `transforms_factory` eval path: resize the shorter
side to size / crop_pct, centre-crop size, scale to [0, 1], normalise. Training
adds augmentation (`Augment`): either timm's RandomResizedCrop or the
MNIST/CIFAR-style random crop of a zero-padded image, a small rotation,
horizontal flips where they keep the label (clothes yes, digits no), and random
erasing (Zhong et al. 2020) after normalisation. Inputs may be uint8 tensors
(C, H, W) or (H, W) (grey), float tensors in [0, 1], or PIL images.

`image_split(name)` puts the readers of data/vision.py behind one name for
scripts: "digits", "fashion-mnist" or a class-folder path.
"""
from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from torchvision.transforms import v2
from torchvision.transforms.v2 import InterpolationMode

from data.vision import (
    FASHION_MNIST_CLASSES,
    FolderImages,
    fashion_mnist,
    image_folder,
    sklearn_digits,
    stratified_split,
)

PathLike = str | os.PathLike

IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)
PREPROCESS_NAME = "preprocess_config.json"   # written beside config.json by scripts/train_vision.py
_INTERPOLATIONS = {"nearest": InterpolationMode.NEAREST, "bilinear": InterpolationMode.BILINEAR,
                   "bicubic": InterpolationMode.BICUBIC}
_PIL_RESAMPLE = {0: "nearest", 2: "bilinear", 3: "bicubic"}  # HF preprocessor_config.json "resample"


# ----------------------------------------------------------------------------- preprocessing config


def preprocess_config(model_config: Any, **overrides: Any) -> dict[str, Any]:
    """{size, mean, std, interpolation, in_chans, crop_pct} for a ViT config (or a model, or a config dict).

    Defaults: 3 channels get ImageNet's mean/std, bicubic resizing and timm's crop_pct 0.9 for
    224-pixel models; other channel counts (the grey 1-channel presets) mean = std = 0.5 per
    channel (pixels in [-1, 1]), bilinear, no crop.
    """
    config = getattr(model_config, "config", model_config)
    values = config if isinstance(config, dict) else dataclasses.asdict(config)
    size, in_chans = int(values["image_size"]), int(values["in_chans"])
    if in_chans == 3:
        cfg = {"size": size, "mean": IMAGENET_MEAN, "std": IMAGENET_STD, "interpolation": "bicubic",
               "in_chans": 3, "crop_pct": 0.9 if size >= 96 else 1.0}
    else:
        cfg = {"size": size, "mean": (0.5,) * in_chans, "std": (0.5,) * in_chans, "interpolation": "bilinear",
               "in_chans": in_chans, "crop_pct": 1.0}
    unknown = sorted(set(overrides) - set(cfg))
    if unknown:
        raise ValueError(f"preprocess_config: unknown key(s) {unknown}; expected some of {sorted(cfg)}")
    cfg.update(overrides)
    return _checked(cfg)


def _checked(cfg: dict[str, Any]) -> dict[str, Any]:
    cfg = dict(cfg, mean=tuple(float(m) for m in cfg["mean"]), std=tuple(float(s) for s in cfg["std"]))
    if len(cfg["mean"]) != cfg["in_chans"] or len(cfg["std"]) != cfg["in_chans"]:
        raise ValueError(f"preprocess config: mean {cfg['mean']} and std {cfg['std']} need one value per channel "
                         f"(in_chans={cfg['in_chans']})")
    if cfg["interpolation"] not in _INTERPOLATIONS:
        raise ValueError(f"preprocess config: interpolation must be one of {list(_INTERPOLATIONS)}, "
                         f"got {cfg['interpolation']!r}")
    if not 0.0 < cfg["crop_pct"] <= 1.0:
        raise ValueError(f"preprocess config: crop_pct must be in (0, 1], got {cfg['crop_pct']}")
    return cfg


def save_preprocess_config(cfg: dict[str, Any], directory: PathLike) -> Path:
    path = Path(directory) / PREPROCESS_NAME
    path.write_text(json.dumps(cfg, indent=2) + "\n")
    return path


def load_preprocess_config(directory: PathLike, model_config: Any) -> dict[str, Any]:
    """Ours (preprocess_config.json), else HF's preprocessor_config.json, else the defaults for model_config."""
    directory = Path(directory)
    cfg = preprocess_config(model_config)
    if (directory / PREPROCESS_NAME).is_file():
        return _checked({**cfg, **json.loads((directory / PREPROCESS_NAME).read_text())})
    if (directory / "preprocessor_config.json").is_file():
        hf = json.loads((directory / "preprocessor_config.json").read_text())
        size = hf.get("size", cfg["size"])
        cfg.update(mean=hf.get("image_mean", cfg["mean"]), std=hf.get("image_std", cfg["std"]),
                   interpolation=_PIL_RESAMPLE.get(hf.get("resample"), cfg["interpolation"]), crop_pct=1.0,
                   size=size.get("height", size.get("shortest_edge", cfg["size"])) if isinstance(size, dict) else size)
    return _checked(cfg)


# ----------------------------------------------------------------------------- transforms


@dataclass(frozen=True)
class Augment:
    """Training-time augmentation; Augment() adds nothing random (train = eval pipeline)."""
    scale: tuple[float, float] | None = None  # RandomResizedCrop area range (timm: (0.08, 1)); None: no RRC
    crop_padding: int = 0         # random crop of the zero-padded image (MNIST/CIFAR style), pixels at model size
    degrees: float = 0.0          # random rotation in [-degrees, degrees]
    hflip: bool = False           # only where a mirrored image keeps its label
    erase: float = 0.0            # random-erasing probability (after normalisation: erased = mean colour)


class ExpectChannels:
    """Reject images whose channel count is not the model's; the message shows the shape."""

    def __init__(self, in_chans: int):
        self.in_chans = in_chans

    def __call__(self, image: torch.Tensor) -> torch.Tensor:
        shape = tuple(image.shape)
        if image.ndim != 3:
            raise ValueError(f"image of shape {shape} is not one (C, H, W) or (H, W) image")
        if shape[0] != self.in_chans:
            raise ValueError(f"image of shape {shape} has {shape[0]} channel(s) (C, H, W), but the model "
                             f"expects in_chans={self.in_chans}")
        return image

    def __repr__(self) -> str:
        return f"ExpectChannels(in_chans={self.in_chans})"


def _finish(cfg: dict[str, Any]) -> list:
    return [v2.ToDtype(torch.float32, scale=True), v2.Normalize(mean=list(cfg["mean"]), std=list(cfg["std"]))]


def _resize_crop(cfg: dict[str, Any]) -> list:
    size, interpolation = cfg["size"], _INTERPOLATIONS[cfg["interpolation"]]
    resize = int(size / cfg["crop_pct"]) if cfg["crop_pct"] < 1 else size
    return [v2.Resize(resize, interpolation=interpolation, antialias=True), v2.CenterCrop(size)]


def eval_transform(cfg: dict[str, Any]) -> v2.Compose:
    """image -> float32 (in_chans, size, size), normalised; resize shorter side to size / crop_pct, centre crop."""
    return v2.Compose([v2.ToImage(), ExpectChannels(cfg["in_chans"]), *_resize_crop(cfg), *_finish(cfg)])


def train_transform(cfg: dict[str, Any], augment: Augment = Augment()) -> v2.Compose:
    """eval_transform's output shape and normalisation, with `augment`'s random changes."""
    size, interpolation = cfg["size"], _INTERPOLATIONS[cfg["interpolation"]]
    steps = [v2.ToImage(), ExpectChannels(cfg["in_chans"])]
    if augment.scale is not None:
        steps.append(v2.RandomResizedCrop(size, scale=augment.scale, interpolation=interpolation, antialias=True))
    else:
        steps += _resize_crop(cfg)
    if augment.crop_padding:
        steps.append(v2.RandomCrop(size, padding=augment.crop_padding, fill=0))
    if augment.degrees:
        steps.append(v2.RandomRotation(augment.degrees, interpolation=InterpolationMode.BILINEAR))
    if augment.hflip:
        steps.append(v2.RandomHorizontalFlip())
    steps += _finish(cfg)
    if augment.erase:
        steps.append(v2.RandomErasing(p=augment.erase, value=0))
    return v2.Compose(steps)


def denormalize(pixels: torch.Tensor, cfg: dict[str, Any]) -> torch.Tensor:
    """Undo Normalize: (..., C, H, W) -> values in [0, 1] for display."""
    mean = torch.tensor(cfg["mean"]).view(-1, 1, 1)
    std = torch.tensor(cfg["std"]).view(-1, 1, 1)
    return (pixels.float() * std + mean).clamp(0, 1)


# ----------------------------------------------------------------------------- dataset


class ImageDataset:
    """{"pixels": transform(image i), "labels": label i} items, for BatchStream / iterate_once.

    images: a uint8 or [0, 1] float tensor (N, H, W) / (N, C, H, W), or a sequence of PIL images
    (e.g. FolderImages, whose file names appear in errors). labels: N class ids.
    """

    def __init__(self, images: torch.Tensor | Sequence, labels: torch.Tensor | Sequence[int], transform):
        labels = torch.as_tensor(labels, dtype=torch.int64)
        if labels.ndim != 1 or len(labels) != len(images):
            raise ValueError(f"ImageDataset: {len(images)} images but labels of shape {tuple(labels.shape)}; "
                             "expected one label per image")
        if isinstance(images, torch.Tensor) and images.ndim not in (3, 4):
            raise ValueError(f"ImageDataset: images tensor of shape {tuple(images.shape)}; "
                             "expected (N, H, W) or (N, C, H, W)")
        if len(labels) and labels.min() < 0:
            raise ValueError(f"ImageDataset: labels must be class ids >= 0, got {labels.min().item()}")
        self.images, self.labels, self.transform = images, labels, transform

    def __len__(self) -> int:
        return len(self.labels)

    def describe(self, i: int) -> str:
        paths = getattr(self.images, "paths", None)
        return f"image file {str(paths[i])!r}" if paths is not None else f"image {i}"

    def __getitem__(self, i: int) -> dict[str, Any]:
        image = self.images[i]  # a file that cannot be read raises UnreadableImageError naming it
        try:
            pixels = self.transform(image)
        except ValueError as error:
            raise ValueError(f"{self.describe(i)}: {error}") from error
        return {"pixels": pixels, "labels": int(self.labels[i])}


# ----------------------------------------------------------------------------- named datasets


@dataclass(frozen=True)
class ImageSplit:
    train_images: torch.Tensor | Sequence
    train_labels: torch.Tensor
    test_images: torch.Tensor | Sequence
    test_labels: torch.Tensor
    classes: list[str]
    augment: Augment = field(default_factory=Augment)  # what trains well on this set (see scripts/train_vision.py)


# Recommended augmentation per set, measured with scripts/train_vision.py. On 8x8 digits a 1-pixel random
# crop costs accuracy (94.7 % vs 97.2 % without augmentation, lr 2e-3); a small rotation helps a little.
DIGITS_AUGMENT = Augment(degrees=10)
# Flips only: in 30-minute CPU runs the ViT underfits, and random crops (padding 2) cost ~0.5% test accuracy.
FASHION_MNIST_AUGMENT = Augment(hflip=True)
FOLDER_AUGMENT = Augment(scale=(0.35, 1.0))  # no flip: user classes may be chiral (letters, arrows)


def _grey_to(images: torch.Tensor, in_chans: int, name: str) -> torch.Tensor:
    if in_chans == 1:
        return images
    if in_chans == 3:
        return images[:, None].expand(-1, 3, -1, -1)  # (N, 3, H, W): grey repeated, as PIL's convert("RGB")
    raise ValueError(f"{name} images are grey; a model with in_chans={in_chans} cannot take them (expected 1 or 3)")


def image_split(name: str | PathLike, in_chans: int = 1, seed: int = 0, test_fraction: float = 0.2) -> ImageSplit:
    """"digits" | "fashion-mnist" | a folder: root/<class>/<images>, or root/train/<class>/... + root/test|val/...

    Grey sets are repeated to 3 channels for in_chans=3 models; folder images are converted to
    "L" or "RGB". A folder without train/test subfolders is split by `stratified_split(seed)`.
    """
    if name == "digits":
        (xtr, ytr), (xte, yte) = (sklearn_digits(s, seed, test_fraction) for s in ("train", "test"))
        return ImageSplit(_grey_to(xtr, in_chans, "digits"), ytr, _grey_to(xte, in_chans, "digits"), yte,
                          [str(d) for d in range(10)], DIGITS_AUGMENT)
    if name == "fashion-mnist":
        (xtr, ytr), (xte, yte) = (fashion_mnist(split=s) for s in ("train", "test"))
        return ImageSplit(_grey_to(xtr, in_chans, name), ytr, _grey_to(xte, in_chans, name), yte,
                          list(FASHION_MNIST_CLASSES), FASHION_MNIST_AUGMENT)
    root = Path(name)
    if not root.is_dir():
        raise FileNotFoundError(f"image data {str(name)!r} not found: expected 'digits', 'fashion-mnist' "
                                "or an image folder")
    if in_chans not in (1, 3):
        raise ValueError(f"image files load as grey or RGB; a model with in_chans={in_chans} cannot take them")
    mode = "L" if in_chans == 1 else "RGB"
    test_dir = next((root / d for d in ("test", "val") if (root / d).is_dir()), None)
    if (root / "train").is_dir() and test_dir is not None:
        train_images, train_labels, classes = image_folder(root / "train", mode)
        test_images, test_labels, test_classes = image_folder(test_dir, mode)
        if test_classes != classes:
            raise ValueError(f"{str(test_dir)!r} has classes {test_classes}, {str(root / 'train')!r} has {classes}")
        return ImageSplit(train_images, train_labels, test_images, test_labels, classes, FOLDER_AUGMENT)
    images, labels, classes = image_folder(root, mode)
    train_idx, test_idx = stratified_split(labels, test_fraction, seed)
    assert isinstance(images, FolderImages)
    return ImageSplit(images.subset(train_idx), labels[train_idx], images.subset(test_idx), labels[test_idx],
                      classes, FOLDER_AUGMENT)
