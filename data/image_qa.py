"""Captions and questions over labelled photos: Fashion-MNIST clothes and scikit-learn's handwritten digits.

    train = LabelledImageQA("digits", "train", image_size=48)
    train[0]  # Sample(image=<PIL 48x48 RGB>, prompt="what digit is this?\\n<image>\\nanswer:", answer="seven",
              #        kind="class")
    LabelledImageQA("fashion-mnist", "train", mode="caption")[0].answer   # "a photo of a sneaker"

Question kinds: "class" (what is it: "sneaker", "seven") and "exist" (yes / no: "is this a bag?", asked
about the true class or another one, half and half). Images are the readers' of data/vision.py, grey,
resized (bilinear) to image_size and repeated to RGB.

Held-out rule, fixed: "test" is the reader's test images (Fashion-MNIST's t10k files; the digits' stratified
20 % test split) asked with the LAST phrasing of each kind (TEMPLATES), which "train" and "val" never use;
"val" is a stratified VAL_FRACTION of the reader's training images (seen phrasings), "train" the rest;
"phrasing" asks val's images with test's phrasings.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np
import torch

from data.scenes import (
    CAPTION_QUESTION,
    HELD_OUT_PHRASING,
    IMAGE_MARKER,
    NUMBER_WORDS,
    PROMPT_FORMAT,
    QA,
    SPLITS,
    UNSEEN_LAYOUTS,
    Sample,
    with_article,
)
from data.vision import FASHION_MNIST_CLASSES, fashion_mnist, sklearn_digits, stratified_split

VAL_FRACTION = 0.1
SOURCES = ("digits", "fashion-mnist")
CLASS_NAMES = {"digits": NUMBER_WORDS[:10],
               "fashion-mnist": tuple(c.lower().replace("t-shirt/top", "t-shirt") for c in FASHION_MNIST_CLASSES)}

# Per source and kind, the phrasings; the last one of each list is held out for "test" and "phrasing".
TEMPLATES: dict[str, dict[str, tuple[str, ...]]] = {
    "digits": {
        "class": ("what digit is this?", "which number is written here?", "what number does this image show?"),
        "exist": ("is this the digit {label}?", "is the number {label} written here?",
                  "does this image show the digit {label}?"),
        "caption": ("a handwritten {label}.", "the digit {label}, written by hand.",
                    "a picture of the number {label}."),
    },
    "fashion-mnist": {
        "class": ("what is this?", "what kind of clothing is this?", "which item of clothing is shown?"),
        "exist": ("is this {a_label}?", "is {a_label} shown here?", "does this image show {a_label}?"),
        "caption": ("a photo of {a_label}.", "{a_label}, photographed on black.", "a picture of {a_label}."),
    },
}


def held_out_templates(source: str) -> frozenset[str]:
    return frozenset(f"{kind}/{len(t) - 1}" for kind, t in TEMPLATES[source].items())


def _reader_split(source: str, split: str, root: str | Path | None, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    if source == "digits":
        images, labels = sklearn_digits("test" if split == "test" else "train", seed=seed)
    elif source == "fashion-mnist":
        images, labels = fashion_mnist(root, "test" if split == "test" else "train")
    else:
        raise ValueError(f"source must be one of {SOURCES}, got {source!r}")
    if split == "test":
        return images, labels
    train_idx, val_idx = stratified_split(labels, VAL_FRACTION, seed)
    idx = torch.from_numpy(val_idx if split in UNSEEN_LAYOUTS else train_idx)
    return images[idx], labels[idx]


class LabelledImageQA(torch.utils.data.Dataset):
    """Sample(image, prompt, answer, kind) items over a labelled grey image set (see the module docstring).

    mode="qa": one question per image, kinds alternating "class" / "exist"; mode="caption": one caption.
    limit: keep the first `limit` images of the split (after the fixed split, so it never leaks).
    root: Fashion-MNIST's folder (None: data/vision.py's default places)."""

    def __init__(self, source: str = "digits", split: str = "train", *, seed: int = 0, image_size: int = 48,
                 mode: str = "qa", limit: int | None = None, root: str | Path | None = None,
                 transform: Callable | None = None, prompt_format: str = PROMPT_FORMAT):
        if split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
        if mode not in ("qa", "caption"):
            raise ValueError(f"mode must be 'qa' or 'caption', got {mode!r}")
        if not 8 <= image_size <= 1024:
            raise ValueError(f"image_size must be in 8..1024 pixels, got {image_size}")
        images, labels = _reader_split(source, split, root, seed)
        if limit is not None:
            images, labels = images[:limit], labels[:limit]
        self.source, self.split, self.mode, self.image_size = source, split, mode, image_size
        self.images, self.labels = images, labels   # uint8 (N, H, W), int64 (N,)
        self.transform, self.prompt_format = transform, prompt_format
        names = CLASS_NAMES[source]
        self.items: list[QA] = []
        for i, label in enumerate(labels.tolist()):
            rng = np.random.default_rng(np.random.SeedSequence((seed, SPLITS.index(split), i, 2)))
            kind = "caption" if mode == "caption" else ("class", "exist")[i % 2]
            asked = label
            if kind == "exist" and rng.random() < 0.5:
                asked = int(rng.choice([c for c in range(len(names)) if c != label]))
            phrasings = TEMPLATES[source][kind]
            t = len(phrasings) - 1 if split in HELD_OUT_PHRASING else int(rng.integers(len(phrasings) - 1))
            text = phrasings[t].format(label=names[asked], a_label=with_article(names[asked]))
            query = {"kind": kind, "label": label, "asked": asked}
            if kind == "caption":
                self.items.append(QA(CAPTION_QUESTION, text, kind, f"{kind}/{t}", query))
            else:
                answer = names[label] if kind == "class" else ("yes" if asked == label else "no")
                self.items.append(QA(text, answer, kind, f"{kind}/{t}", query))

    def __len__(self) -> int:
        return len(self.items)

    def image(self, i: int):
        from PIL import Image

        grey = Image.fromarray(self.images[i].numpy(), "L")
        return grey.resize((self.image_size, self.image_size), Image.BILINEAR).convert("RGB")

    def qa(self, i: int) -> QA:
        return self.items[i]

    def __getitem__(self, i: int) -> Sample:
        qa = self.items[i]
        image = self.image(i)
        if self.transform is not None:
            image = self.transform(image)
        return Sample(image, self.prompt_format.format(image=IMAGE_MARKER, question=qa.question), qa.answer, qa.kind)
