"""ShapeScenes: the shape-scene set (data/scenes.py) as a torch Dataset of `Sample`s, for question answering
(stage 2) or captions (stage 1).

    train = ShapeScenes("train", num_scenes=4000, image_size=48)            # question answering (stage 2)
    captions = ShapeScenes("train", num_scenes=4000, mode="caption")      # image-caption pairs (stage 1)
    test = ShapeScenes("test", num_scenes=500)                            # held-out phrasings and pairs
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable

import numpy as np
import torch

from data.scene_questions import make_caption, make_questions
from data.scenes import (
    DEFAULT_KINDS,
    IMAGE_MARKER,
    PROMPT_FORMAT,
    QA,
    SPLITS,
    Sample,
    Scene,
    check_kinds,
    draw_scene,
    make_scene,
)


class ShapeScenes(torch.utils.data.Dataset):
    """Question-answer (mode="qa": questions_per_scene per scene) or caption (mode="caption": one per
    scene) items over num_scenes scenes of `split`, as `Sample`s. transform: applied to each PIL image
    (e.g. a processor's pixel transform); cache_images: keep each scene's (transformed) image once made, for
    the epochs to come (a scene's questions share it; 28 KB a 48-pixel float image); `qa(i)` and
    `scene_of(i)` give an item's metadata."""

    def __init__(self, split: str = "train", num_scenes: int = 1000, *, seed: int = 0, image_size: int = 48,
                 mode: str = "qa", questions_per_scene: int = 4, kinds: tuple[str, ...] = DEFAULT_KINDS,
                 max_objects: int = 4, texture: float = 0.0, transform: Callable | None = None,
                 prompt_format: str = PROMPT_FORMAT, cache_images: bool = False):
        if mode not in ("qa", "caption"):
            raise ValueError(f"mode must be 'qa' or 'caption', got {mode!r}")
        check_kinds(kinds)
        if num_scenes < 0 or questions_per_scene < 1:
            raise ValueError(f"num_scenes must be >= 0 and questions_per_scene >= 1, got {num_scenes} and "
                             f"{questions_per_scene}")
        draw_scene(Scene(()), image_size, texture)  # checks image_size and texture now, not at the first item
        self.split, self.mode, self.image_size, self.texture = split, mode, image_size, texture
        self.transform, self.prompt_format = transform, prompt_format
        self._images: dict[int, Any] | None = {} if cache_images else None
        self.scenes = [make_scene(seed, split, i, max_objects) for i in range(num_scenes)]
        self.items: list[tuple[int, QA]] = []
        asked: Counter = Counter()
        for i, scene in enumerate(self.scenes):
            rng = np.random.default_rng(np.random.SeedSequence((seed, SPLITS.index(split), i, 1)))
            found = [make_caption(scene, rng, split)] if mode == "caption" else \
                make_questions(scene, rng, split, questions_per_scene, asked, kinds)
            self.items += [(i, qa) for qa in found]

    def __len__(self) -> int:
        return len(self.items)

    def image(self, scene_index: int):
        return draw_scene(self.scenes[scene_index], self.image_size, self.texture)

    def scene_of(self, i: int) -> Scene:
        return self.scenes[self.items[i][0]]

    def qa(self, i: int) -> QA:
        return self.items[i][1]

    def __getitem__(self, i: int) -> Sample:
        scene_index, qa = self.items[i]
        image = None if self._images is None else self._images.get(scene_index)
        if image is None:
            image = self.image(scene_index)
            if self.transform is not None:
                image = self.transform(image)
            if self._images is not None:
                self._images[scene_index] = image
        prompt = self.prompt_format.format(image=IMAGE_MARKER, question=qa.question)
        return Sample(image, prompt, qa.answer, qa.kind)
