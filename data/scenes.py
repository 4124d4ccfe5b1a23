"""Shape scenes: a synthetic vision-language set whose every answer can be checked against the picture.

    from data.scene_dataset import ShapeScenes                              # the torch Dataset over them
    train = ShapeScenes("train", num_scenes=4000, image_size=48)            # question answering (stage 2)
    train[0]  # Sample(image=<PIL 48x48 RGB>, prompt="what colour is the circle?\\n<image>\\nanswer:",
              #        answer="red", kind="colour")
    captions = ShapeScenes("train", num_scenes=4000, mode="caption")      # image-caption pairs (stage 1)
    test = ShapeScenes("test", num_scenes=500)                            # held-out phrasings and pairs

A scene is 1..max_objects shapes (SHAPES) of known colours (COLOURS) and sizes, one per cell of a 3 x 3
grid (so "left of" and "above" are never ambiguous), on a plain light-grey background (or a lightly
noisy one: `texture`). Shapes are drawn without anti-aliasing, so each object's pixels are exactly its
colour. Questions come in KINDS:
- colour, shape, count, exist (yes / no) and position (the cell: "top left", "center", "bottom");
- positions: two objects' cells in the order asked ("where are the red circle and the blue square?" ->
  "top left and bottom");
- relation (yes / no: "is the red circle left of the blue square?"), and which, the same relation answered
  by naming the object ("which is further left, the red circle or the blue square?" -> "red circle"); both
  answer worked: the two objects at their cells, then the verdict ("red circle at the top left, blue square
  at the bottom: yes"), because a model that reads one object's cell well does not learn to compare two
  cells in one step (docs/training-recipes.md);
- beside: what is in the next cell ("what is directly above the red circle?" -> "blue square" or "nothing").
Answers are one or two words (positions: two cells; relation and which: worked), compared whole after
`normalize_answer`. A set asks DEFAULT_KINDS (the six kinds of the measured runs) unless told. Every question also
carries its `query` (what it asks, as data), so tests re-derive answers from the pixels without parsing text.

The held-out rule, fixed (it depends on nothing but the constants below):
- HELD_OUT_PAIRS: four colour-shape pairs (each shape once) that no "train", "val" or "phrasing" scene
  contains and no text of theirs mentions; every "test" scene contains at least one of them, and test
  questions are about those objects where the template allows.
- Phrasings: each question is a lead-in (LEAD_INS: "", "look at the picture. ", ...) and a frame of its kind
  (FRAMES: "what colour is the {ref}?", "the {ref} has which colour?", ...); per kind, the combinations
  (lead-in i, frame j) with i + j = 3 mod 4 are "test"'s and "phrasing"'s alone, the other twelve "train"
  and "val"'s (captions likewise: "an image showing" with the objects' cells is held out). Each lead-in and
  each frame is seen in training with other partners, so every word of a test question occurs in training
  questions of its kind, only never in that combination. Why: the language model is trained from scratch on
  these texts alone, so a held-out phrasing with a word it never saw ("what is the number of ...", when
  "number" was in no training question) measures nothing but that the word is unknown; a new combination of
  known parts measures whether it reads the question's parts (systematic generalisation), which is the
  question worth asking.
- "val" scenes are the layouts whose hash (`layout_bucket`, over colour, shape, size and cell of each
  object: jitter ignored) is 0 mod VAL_BUCKETS; "train" scenes never are. So no val layout is a train
  layout, whatever the sizes and seeds of the two sets.
- "phrasing" scenes are drawn as "val"'s are (unseen layouts, no held-out pair) and asked with the held-out
  phrasings, as "test"'s are: held-out templates and scene combinations, one factor fewer than "test", whose
  held-out colour-shape pairs are a systematic-generalisation probe of their own (CLEVR's CoGenT split asks
  the same of colour-shape pairs, and models trained on one condition lose much of their accuracy on the other).

Scene i of a split depends only on (seed, split, i): a set of n scenes is a prefix of a larger one.
data/scene_questions.py asks and answers the questions; data/scene_dataset.py is the Dataset over both.
Fashion-MNIST and digits questions live in data/image_qa.py and share `Sample` and `normalize_answer`.
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

IMAGE_MARKER = "<image>"
# The question comes before the image, so the image tokens can read it: each can tell whether it is the object
# asked about (with the image first, only the tokens after it can, all at once). LLaVA-1.5's instruction data
# puts "<image>" before or after the question. The answer follows after one space (see LlavaProcessor).
PROMPT_FORMAT = "{question}\n{image}\nanswer:"
CAPTION_QUESTION = "describe the image."

COLOURS = {"red": (220, 30, 30), "green": (30, 160, 50), "blue": (40, 70, 220),
           "yellow": (230, 200, 0), "purple": (140, 50, 180), "orange": (245, 130, 20)}
SHAPES = ("circle", "square", "triangle", "diamond")
SIZES = {"small": 0.28, "large": 0.38}           # half-width of a shape, in cells
JITTER = 0.08                                    # centre offset, in cells: 0.38 + 0.08 < 0.5, no overlaps
BACKGROUND = (225, 225, 225)
GRID = 3
ROWS, COLUMNS = ("top", "middle", "bottom"), ("left", "center", "right")
KINDS = ("colour", "shape", "count", "position", "positions", "relation", "which", "beside", "exist")
DEFAULT_KINDS = ("colour", "shape", "count", "position", "relation", "exist")  # unless told: the measured runs' mix
HELD_OUT_PAIRS = frozenset({("red", "triangle"), ("green", "circle"), ("blue", "diamond"), ("yellow", "square")})
VAL_BUCKETS = 8
NEIGHBOURS = {"left of": (0, -1), "right of": (0, 1), "above": (-1, 0), "below": (1, 0)}  # (rows, columns) away
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
SPLITS = ("train", "val", "test", "phrasing")
HELD_OUT_PHRASING = ("test", "phrasing")       # the splits asked with the held-out phrasings alone
UNSEEN_LAYOUTS = ("val", "phrasing")            # the splits of layouts (or images) that "train" never shows

# A phrasing is a lead-in and a frame. Every lead-in goes with every frame of every kind; per kind, the
# combinations (lead-in i, frame j) with (i + j) % len(LEAD_INS) == len(LEAD_INS) - 1 are held out for "test"
# and "phrasing" (one per lead-in and one per frame), the others are "train" and "val"'s. So a test phrasing is a new
# combination of a lead-in and a frame that training shows, each with other partners.
LEAD_INS = ("", "look at the picture. ", "please answer: ", "question: ")
FRAMES: dict[str, tuple[str, ...]] = {
    "colour": ("what colour is the {ref}?", "what is the colour of the {ref}?", "the {ref} has which colour?",
               "which colour does the {ref} have?"),
    "shape": ("what shape is the {ref}?", "what is the shape of the {ref}?", "the {ref} has which shape?",
              "which shape does the {ref} have?"),
    "count": ("how many {what} are there?", "count the {what}.", "what is the number of {what}?",
              "how many {what} can you see?"),
    "position": ("where is the {ref}?", "in which part of the image is the {ref}?", "where can you find the {ref}?",
                 "the {ref} is in which part of the image?"),
    "positions": ("where are the {a} and the {b}?", "in which parts of the image are the {a} and the {b}?",
                  "where can you find the {a} and the {b}?", "the {a} and the {b} are in which parts of the image?"),
    "relation": ("is the {a} {rel} the {b}?", "is the {a} located {rel} the {b}?",
                 "would you say the {a} is {rel} the {b}?", "is it true that the {a} is {rel} the {b}?"),
    "which": ("which is further {way}, the {a} or the {b}?", "of the {a} and the {b}, which is further {way}?",
              "which one lies further {way}: the {a} or the {b}?", "the {a} or the {b}: which is further {way}?"),
    "beside": ("what is directly {rel} the {ref}?", "what lies directly {rel} the {ref}?",
               "what do you see directly {rel} the {ref}?", "what can be found directly {rel} the {ref}?"),
    "exist": ("is there {pair}?", "does the image contain {pair}?", "can you see {pair}?",
              "is there {pair} anywhere?"),
}
# Captions (the answer to CAPTION_QUESTION): a lead-in and the objects with or without their cells; the
# pairing of the last lead-in with the cells is held out.
CAPTION_LEAD_INS = ("", "a picture with ", "an image showing ")
CAPTION_BODIES = ("{objects}.", "{objects_at}.")


def _compose(leads: tuple[str, ...], frames: tuple[str, ...], held) -> tuple[tuple[str, ...], frozenset[int]]:
    phrasings, held_out = [], set()
    for i, lead in enumerate(leads):
        for j, frame in enumerate(frames):
            if held(i, j):
                held_out.add(len(phrasings))
            phrasings.append(lead + frame)
    return tuple(phrasings), frozenset(held_out)


_COMPOSED = {kind: _compose(LEAD_INS, frames, lambda i, j: (i + j) % len(LEAD_INS) == len(LEAD_INS) - 1)
             for kind, frames in FRAMES.items()}
_COMPOSED["caption"] = _compose(CAPTION_LEAD_INS, CAPTION_BODIES,
                                lambda i, j: (i, j) == (len(CAPTION_LEAD_INS) - 1, len(CAPTION_BODIES) - 1))
TEMPLATES: dict[str, tuple[str, ...]] = {kind: phrasings for kind, (phrasings, _) in _COMPOSED.items()}
HELD_OUT_TEMPLATES = frozenset(f"{kind}/{t}" for kind, (_, held) in _COMPOSED.items() for t in held)


def check_kinds(kinds) -> tuple[str, ...]:
    """kinds as a tuple, or ValueError naming the unknown ones."""
    kinds = tuple(kinds)
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        raise ValueError(f"kinds {','.join(kinds)}: unknown {unknown or 'none given'}; expected a non-empty subset "
                         f"of {','.join(KINDS)}")
    return kinds


def phrasings(kind: str, split: str) -> tuple[int, ...]:
    """Indices into TEMPLATES[kind] that `split` asks with: the held-out ones for "test" and "phrasing", the others
    else."""
    held = split in HELD_OUT_PHRASING
    return tuple(t for t in range(len(TEMPLATES[kind])) if (f"{kind}/{t}" in HELD_OUT_TEMPLATES) == held)


class Sample(NamedTuple):
    """One item: the image (PIL, or whatever the dataset's transform makes of it), the prompt with an
    IMAGE_MARKER, the short answer (or the caption), the question kind ("caption" for captions)."""
    image: Any
    prompt: str
    answer: str
    kind: str


@dataclass(frozen=True)
class QA:
    question: str
    answer: str
    kind: str
    template: str                              # "<kind>/<index into TEMPLATES[kind]>"
    query: dict = field(default_factory=dict)  # what is asked, as data (tests re-derive the answer from it)


@dataclass(frozen=True)
class Shape:
    colour: str
    shape: str
    size: str
    row: int
    col: int
    dx: float = 0.0  # jitter of the centre, in cells
    dy: float = 0.0

    @property
    def pair(self) -> tuple[str, str]:
        return self.colour, self.shape

    @property
    def name(self) -> str:
        return f"{self.colour} {self.shape}"


@dataclass(frozen=True)
class Scene:
    objects: tuple[Shape, ...]
    texture_seed: int = 0

    def layout(self) -> tuple:
        """What the picture shows up to jitter: the identity of a scene for the split rule."""
        return tuple(sorted((o.row, o.col, o.colour, o.shape, o.size) for o in self.objects))


# ----------------------------------------------------------------------------- words


def normalize_answer(text: str) -> str:
    """"The Red-ish CIRCLE." -> "red-ish circle"; "2" -> "two"; color -> colour, centre -> center."""
    text = re.sub(r"[^a-z0-9\- ]+", " ", text.lower().replace("/", " "))
    words = [w.strip("-") for w in text.split()]
    words = [NUMBER_WORDS[int(w)] if w.isdigit() and int(w) < len(NUMBER_WORDS) else w for w in words if w]
    words = [{"color": "colour", "centre": "center", "grey": "gray"}.get(w, w) for w in words]
    while words and words[0] in ("a", "an", "the"):
        words = words[1:]
    return " ".join(words)


def cell_name(row: int, col: int) -> str:
    if row == 1:
        return "center" if col == 1 else COLUMNS[col]
    return ROWS[row] if col == 1 else f"{ROWS[row]} {COLUMNS[col]}"


def with_article(words: str) -> str:
    return ("an " if words[0] in "aeiou" else "a ") + words


def describe(objects: tuple[Shape, ...] | list[Shape], positions: bool = False) -> str:
    """"two red circles and a blue square"; with positions, each object and its cell."""
    if positions:
        parts = [f"{with_article(o.name)} at the {cell_name(o.row, o.col)}"
                 for o in sorted(objects, key=lambda o: (o.row, o.col))]
    else:
        counts = Counter(o.pair for o in objects)
        parts = [f"{NUMBER_WORDS[n]} {c} {s}s" if n > 1 else with_article(f"{c} {s}")
                 for (c, s), n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


# ----------------------------------------------------------------------------- scenes


def allowed_pairs(split: str) -> list[tuple[str, str]]:
    """The colour-shape pairs a split's scenes and texts may use (all of them for "test")."""
    pairs = [(c, s) for c in COLOURS for s in SHAPES]
    return pairs if split == "test" else [p for p in pairs if p not in HELD_OUT_PAIRS]


def layout_bucket(scene: Scene) -> int:
    digest = hashlib.sha256(repr(scene.layout()).encode()).digest()
    return int.from_bytes(digest[:8], "little") % VAL_BUCKETS


def _belongs(scene: Scene, split: str) -> bool:
    held = any(o.pair in HELD_OUT_PAIRS for o in scene.objects)
    if split == "test":
        return held
    return not held and (layout_bucket(scene) == 0) == (split in UNSEEN_LAYOUTS)


def _random_scene(rng: np.random.Generator, split: str, max_objects: int) -> Scene:
    pairs = allowed_pairs(split)
    n = int(rng.integers(1, max_objects + 1))
    cells = rng.choice(GRID * GRID, size=n, replace=False)
    chosen: list[tuple[str, str]] = []
    for k in range(n):
        if k and rng.random() < 0.3:        # repeats make counts above one and plural captions common
            chosen.append(chosen[int(rng.integers(len(chosen)))])
        elif k == 0 and split == "test":
            held = sorted(HELD_OUT_PAIRS)
            chosen.append(held[int(rng.integers(len(held)))])
        else:
            chosen.append(pairs[int(rng.integers(len(pairs)))])
    objects = tuple(Shape(c, s, ("small", "large")[int(rng.integers(2))], int(cell) // GRID, int(cell) % GRID,
                          float(rng.uniform(-JITTER, JITTER)), float(rng.uniform(-JITTER, JITTER)))
                    for (c, s), cell in zip(chosen, cells))
    return Scene(objects, int(rng.integers(2 ** 31)))


def make_scene(seed: int, split: str, index: int, max_objects: int = 4) -> Scene:
    """Scene `index` of `split`: the first random draw of its own generator that the split rule accepts."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    if not 1 <= max_objects <= GRID * GRID:
        raise ValueError(f"max_objects must be in 1..{GRID * GRID} (one shape per grid cell), got {max_objects}")
    rng = np.random.default_rng(np.random.SeedSequence((seed, SPLITS.index(split), index)))
    while True:
        scene = _random_scene(rng, split, max_objects)
        if _belongs(scene, split):
            return scene


def draw_scene(scene: Scene, image_size: int = 48, texture: float = 0.0):
    """The scene as a PIL RGB image (image_size x image_size); texture: background noise amplitude in [0, 0.1]."""
    from PIL import Image, ImageDraw

    if not 16 <= image_size <= 1024:
        raise ValueError(f"image_size must be in 16..1024 pixels, got {image_size}")
    if not 0.0 <= texture <= 0.1:
        raise ValueError(f"texture must be in [0, 0.1] (a light noise that never reaches a shape colour), "
                         f"got {texture}")
    background = np.empty((image_size, image_size, 3), np.uint8)
    background[:] = BACKGROUND
    if texture:
        noise = np.random.default_rng(scene.texture_seed).uniform(-texture, texture, (image_size, image_size, 1))
        background = np.clip(background + noise * 255.0, 0, 255).round().astype(np.uint8)
    image = Image.fromarray(background, "RGB")
    pen = ImageDraw.Draw(image)
    cell = image_size / GRID
    for o in scene.objects:
        x, y, r = (o.col + 0.5 + o.dx) * cell, (o.row + 0.5 + o.dy) * cell, SIZES[o.size] * cell
        colour = COLOURS[o.colour]
        if o.shape == "circle":
            pen.ellipse((x - r, y - r, x + r, y + r), fill=colour)
        elif o.shape == "square":
            pen.rectangle((x - r, y - r, x + r, y + r), fill=colour)
        elif o.shape == "triangle":
            pen.polygon([(x, y - r), (x + r, y + r), (x - r, y + r)], fill=colour)
        else:  # diamond
            pen.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=colour)
    return image
