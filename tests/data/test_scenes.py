"""data.scenes / data.image_qa: determinism, the held-out rule (templates, colour-shape pairs, layouts) without
leakage, answers and captions re-derived from the pixels, labelled-photo questions, clear errors."""
from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest
import torch

from data.image_qa import CLASS_NAMES, LabelledImageQA, held_out_templates
from data.scene_dataset import ShapeScenes
from data.scene_questions import WORKED_KINDS, read_worked, worked_parts
from data.scenes import (
    BACKGROUND,
    COLOURS,
    GRID,
    HELD_OUT_PAIRS,
    HELD_OUT_TEMPLATES,
    IMAGE_MARKER,
    KINDS,
    NUMBER_WORDS,
    SHAPES,
    TEMPLATES,
    Sample,
    layout_bucket,
    make_scene,
    normalize_answer,
    phrasings,
)
from data.vision import write_idx


@pytest.fixture(scope="module")
def train():
    return ShapeScenes("train", 600, seed=3, kinds=KINDS)  # every kind (a set asks DEFAULT_KINDS unless told)


@pytest.fixture(scope="module")
def val():
    return ShapeScenes("val", 150, seed=3, kinds=KINDS)


@pytest.fixture(scope="module")
def test_set():
    return ShapeScenes("test", 150, seed=3, kinds=KINDS)


# ----------------------------------------------------------------------------- reading a scene from its pixels


def read_scene(image) -> dict[tuple[int, int], tuple[str, str, str]]:
    """{(row, col): (colour, shape, size)} from the pixels alone: the palette colour found in each cell, its
    shape from how much of its bounding box it fills and where its widest row is, its size from its width."""
    pixels = np.asarray(image).astype(int)
    size = pixels.shape[0]
    cell = size / GRID
    found = {}
    for name, rgb in COLOURS.items():
        mask = (pixels == rgb).all(-1)
        for row in range(GRID):
            for col in range(GRID):
                part = mask[round(row * cell):round((row + 1) * cell), round(col * cell):round((col + 1) * cell)]
                if part.sum() < 4:
                    continue
                assert (row, col) not in found, f"two colours in cell {(row, col)}"
                ys, xs = np.nonzero(part)
                height, width = ys.max() - ys.min() + 1, xs.max() - xs.min() + 1
                fill = part.sum() / (height * width)
                widths = part[ys.min():ys.max() + 1].sum(1)
                widest = np.flatnonzero(widths == widths.max()).mean() / (height - 1)
                shape = ("square" if fill > 0.9 else "circle" if fill > 0.65 else
                         "triangle" if widest > 0.75 else "diamond")
                found[(row, col)] = (name, shape, "large" if width / cell > 0.66 else "small")
    return found


def cell_words(row: int, col: int) -> str:
    vertical, horizontal = ("top", "", "bottom")[row], ("left", "", "right")[col]
    return " ".join(w for w in (vertical, horizontal) if w) or "center"


def expected_answer(cells: dict, query: dict) -> str:
    """The answer to a query, from the cells read off the pixels (independent of data.scenes' logic)."""
    kind = query["kind"]
    if kind == "count":
        n = sum(1 for colour, shape, _ in cells.values()
                if query["colour"] in (None, colour) and query["shape"] in (None, shape))
        return NUMBER_WORDS[n]
    if kind == "exist":
        return "yes" if tuple(query["pair"]) in {(c, s) for c, s, _ in cells.values()} else "no"
    if kind == "beside":
        (ra, ca), = [rc for rc, (c, s, _) in cells.items() if (c, s) == tuple(query["a"])]
        step = {"left of": (0, -1), "right of": (0, 1), "above": (-1, 0), "below": (1, 0)}[query["rel"]]
        found = cells.get((ra + step[0], ca + step[1]))
        return f"{found[0]} {found[1]}" if found else "nothing"
    if kind in ("positions", "relation", "which"):
        (ra, ca), = [rc for rc, (c, s, _) in cells.items() if (c, s) == tuple(query["a"])]
        (rb, cb), = [rc for rc, (c, s, _) in cells.items() if (c, s) == tuple(query["b"])]
        if kind == "positions":
            return f"{cell_words(ra, ca)} and {cell_words(rb, cb)}"
        if kind == "which":
            first = {"left": ca < cb, "right": ca > cb, "up": ra < rb, "down": ra > rb}[query["way"]]
            verdict = " ".join(query["a"] if first else query["b"])
        else:
            holds = {"left of": ca < cb, "right of": ca > cb, "above": ra < rb, "below": ra > rb}[query["rel"]]
            verdict = "yes" if holds else "no"
        return (f"{' '.join(query['a'])} at the {cell_words(ra, ca)}, "
                f"{' '.join(query['b'])} at the {cell_words(rb, cb)}: {verdict}")
    colour, shape, _ = cells[tuple(query["cell"])]
    return {"colour": colour, "shape": shape, "position": cell_words(*query["cell"])}[kind]


@pytest.mark.parametrize("image_size,texture", [(96, 0.0), (64, 0.05)])
def test_answers_agree_with_the_pixels(image_size, texture):
    for split in ("train", "test"):
        ds = ShapeScenes(split, 60, seed=1, image_size=image_size, texture=texture, kinds=KINDS)
        for scene_index, scene in enumerate(ds.scenes):
            cells = read_scene(ds.image(scene_index))
            assert cells == {(o.row, o.col): (o.colour, o.shape, o.size) for o in scene.objects}
        for i in range(len(ds)):
            qa = ds.qa(i)
            cells = read_scene(ds.image(ds.items[i][0]))
            assert qa.answer == expected_answer(cells, qa.query), (qa.question, qa.answer)
            if qa.kind == "position":
                assert qa.query["cell"] in cells


def test_default_size_keeps_exact_colours_in_the_right_cells(train):
    image = train[0].image
    assert image.size == (48, 48) and image.mode == "RGB"
    for scene_index in range(40):
        pixels = np.asarray(train.image(scene_index)).reshape(-1, 3)
        colours = {tuple(p) for p in pixels}
        palette = {tuple(c) for c in COLOURS.values()}
        assert colours <= palette | {BACKGROUND}   # no anti-aliasing: every pixel is a shape's or the background
        assert {c for c, _, _ in read_scene(train.image(scene_index)).values()} == \
            {o.colour for o in train.scenes[scene_index].objects}


def test_captions_count_what_is_drawn():
    ds = ShapeScenes("train", 80, seed=2, image_size=96, mode="caption")
    numbers = {"a": 1, "an": 1, **{w: i for i, w in enumerate(NUMBER_WORDS)}}
    pattern = re.compile(rf"\b(a|an|{'|'.join(NUMBER_WORDS)}) ({'|'.join(COLOURS)}) "
                         r"(circle|square|triangle|diamond)s?")
    for i in range(len(ds)):
        sample = ds[i]
        assert sample.kind == "caption" and sample.prompt.count(IMAGE_MARKER) == 1
        drawn = Counter((c, s) for c, s, _ in read_scene(sample.image).values())
        said = Counter()
        for word, colour, shape in pattern.findall(sample.answer):
            said[(colour, shape)] += numbers[word]
        assert said == drawn, sample.answer
        for (row, col), (colour, shape, _) in read_scene(sample.image).items():
            if " at the " in sample.answer:
                assert f"{colour} {shape} at the {cell_words(row, col)}" in sample.answer


# ----------------------------------------------------------------------------- determinism and the split rule


def test_deterministic_per_seed_and_prefix_stable():
    a, b = ShapeScenes("train", 30, seed=7), ShapeScenes("train", 30, seed=7)
    assert [a.qa(i) for i in range(len(a))] == [b.qa(i) for i in range(len(b))]
    assert all(np.array_equal(np.asarray(a.image(i)), np.asarray(b.image(i))) for i in range(30))
    longer = ShapeScenes("train", 60, seed=7)
    assert longer.scenes[:30] == a.scenes and longer.items[:len(a)] == a.items
    other = ShapeScenes("train", 30, seed=8)
    assert other.scenes != a.scenes
    textured = [np.asarray(ShapeScenes("val", 3, seed=7, texture=0.05).image(0)) for _ in range(2)]
    assert np.array_equal(*textured) and len({tuple(p) for p in textured[0].reshape(-1, 3)}) > 5
    assert make_scene(7, "test", 4) == make_scene(7, "test", 4)


SLOT_WORDS = {*COLOURS, *SHAPES, *(f"{s}s" for s in SHAPES), "shape", "shapes", "object", "at", "the", "a", "an",
              "top", "middle", "bottom", "left", "center", "right"}
SLOTS = {"rel": "left of|right of|above|below", "way": "left|right|up|down", "objects_at": ".* at the .*",
         "objects": "(?!.* at the ).+"}


def _template_regex(template: str) -> re.Pattern:
    """A phrasing as a pattern; a slot matches only what it can hold (scene words), so "is the {a} {rel} the {b}?"
    does not match "is the red circle located above the blue square?" by taking "red circle located" as {a}."""
    words = "|".join(sorted(SLOT_WORDS))
    parts = re.split(r"(\{\w+\})", template)
    return re.compile("^" + "".join(f"(?:{SLOTS.get(part[1:-1], f'(?:{words})(?: (?:{words}))*')})"
                                    if part.startswith("{") else re.escape(part) for part in parts) + "$")


def _held_and_seen(kind: str) -> tuple[list[str], list[str]]:
    return [TEMPLATES[kind][t] for t in phrasings(kind, "test")], [TEMPLATES[kind][t] for t in phrasings(kind, "train")]


def test_held_out_templates_never_in_training(train, val, test_set):
    held = [TEMPLATES[t.split("/")[0]][int(t.split("/")[1])] for t in HELD_OUT_TEMPLATES]
    for ds in (train, val, ShapeScenes("train", 100, seed=3, mode="caption")):
        texts = [ds.qa(i).answer if ds.qa(i).kind == "caption" else ds.qa(i).question for i in range(len(ds))]
        assert not {ds.qa(i).template for i in range(len(ds))} & HELD_OUT_TEMPLATES
        assert not any(_template_regex(t).match(text) for t in held if "{" in t for text in texts)
    assert {test_set.qa(i).template for i in range(len(test_set))} <= HELD_OUT_TEMPLATES
    questions = [test_set.qa(i).question for i in range(len(test_set))]
    asked = [t for kind in KINDS for t in _held_and_seen(kind)[1]]  # captions are no questions
    assert not any(_template_regex(t).match(q) for t in asked for q in questions)
    assert {test_set.qa(i).kind for i in range(len(test_set))} == set(KINDS)
    # every phrasing of every kind is asked somewhere: twelve per kind in training, four in test
    assert {train.qa(i).template for i in range(len(train))} | {test_set.qa(i).template for i in range(len(test_set))} \
        >= {f"{kind}/{t}" for kind in KINDS for t in range(len(TEMPLATES[kind]))}


@pytest.mark.parametrize("kind", [*KINDS, "caption"])
def test_held_out_phrasings_are_new_combinations_of_seen_words(kind):
    """A test phrasing is no training phrasing, and each of its words occurs in a training phrasing of the same
    kind: a model that learnt the training questions knows every word it is asked in test."""
    held, seen = _held_and_seen(kind)
    assert held and len(seen) >= 2 * len(held)
    assert not set(held) & set(seen)
    def words(text):  # slots count as words: {ref} is a reference
        return re.findall(r"[a-z]+|\{\w+\}", text)

    seen_words = {w for t in seen for w in words(t)}
    for phrasing in held:
        assert set(words(phrasing)) <= seen_words, (phrasing, set(words(phrasing)) - seen_words)


def test_held_out_pairs_never_in_training(train, val, test_set):
    for ds in (train, val, ShapeScenes("val", 100, seed=3, mode="caption")):
        assert not any(o.pair in HELD_OUT_PAIRS for scene in ds.scenes for o in scene.objects)
        for i in range(len(ds)):
            text = ds.qa(i).question + " " + ds.qa(i).answer
            assert not any(f"{c} {s}" in text for c, s in HELD_OUT_PAIRS), text
    assert all(any(o.pair in HELD_OUT_PAIRS for o in scene.objects) for scene in test_set.scenes)
    mentions = sum(any(f"{c} {s}" in test_set.qa(i).question for c, s in HELD_OUT_PAIRS)
                   for i in range(len(test_set)))
    assert mentions > len(test_set) // 5   # test questions go for the held-out objects


def test_val_layouts_are_never_train_layouts(train, val):
    assert all(layout_bucket(s) == 0 for s in val.scenes) and all(layout_bucket(s) != 0 for s in train.scenes)
    assert not {s.layout() for s in train.scenes} & {s.layout() for s in val.scenes}


def test_phrasing_split_holds_out_phrasings_and_layouts_but_no_pair(train):
    """"phrasing": unseen layouts as val's, asked only with test's phrasings, without a held-out pair."""
    phrasing = ShapeScenes("phrasing", 150, seed=3, kinds=KINDS)
    assert all(layout_bucket(s) == 0 for s in phrasing.scenes)
    assert not {s.layout() for s in train.scenes} & {s.layout() for s in phrasing.scenes}
    assert not any(o.pair in HELD_OUT_PAIRS for scene in phrasing.scenes for o in scene.objects)
    texts = [f"{phrasing.qa(i).question} {phrasing.qa(i).answer}" for i in range(len(phrasing))]
    assert not [t for t in texts for c, s in HELD_OUT_PAIRS if f"{c} {s}" in t]   # nor does any text name one
    templates = {phrasing.qa(i).template for i in range(len(phrasing))}
    assert templates <= HELD_OUT_TEMPLATES and {t.split("/")[0] for t in templates} == set(KINDS)
    assert phrasing.scenes != ShapeScenes("val", 150, seed=3).scenes   # its own draw, not val's scenes again
    photos = LabelledImageQA("digits", "phrasing", limit=40)
    assert {q.template for q in photos.items} <= held_out_templates("digits")
    assert torch.equal(photos.images, LabelledImageQA("digits", "val", limit=40).images)


_OBJECT_AT = r"[a-z]+ [a-z]+ at the (top|bottom|left|right|center|top left|top right|bottom left|bottom right)"
WORKED = re.compile(rf"{_OBJECT_AT}, {_OBJECT_AT}: (yes|no|[a-z]+ [a-z]+)")


def test_answers_are_short_normalised_and_balanced(train):
    answers = Counter()
    for i in range(len(train)):
        sample = train[i]
        assert isinstance(sample, Sample) and sample.prompt.count(IMAGE_MARKER) == 1
        answer = sample.answer
        if sample.kind in WORKED_KINDS:   # worked: "red circle at the top, blue square at the left: yes"
            assert WORKED.fullmatch(answer), answer
            answer = answer.split(": ")[1]
        if sample.kind == "positions":
            assert 3 <= len(answer.split()) <= 5 and " and " in answer
        else:
            assert 1 <= len(answer.split()) <= 2
        assert normalize_answer(answer) == answer
        answers[(sample.kind, answer)] += 1
    kinds = Counter(kind for kind, _ in answers.elements())
    assert set(kinds) == set(KINDS) and min(kinds.values()) > len(train) / 12
    for kind in ("exist", "relation"):
        yes = answers[(kind, "yes")] / (answers[(kind, "yes")] + answers[(kind, "no")])
        assert 0.35 < yes < 0.65, kind
    assert len({a for k, a in answers if k == "count"}) >= 4


def test_normalize_answer():
    assert normalize_answer("The Red CIRCLE.") == "red circle"
    assert normalize_answer(" 2 ") == "two" and normalize_answer("Centre") == "center"
    assert normalize_answer("an ankle-boot!") == "ankle-boot" and normalize_answer("T-shirt/top") == "t-shirt top"


def test_transform_and_dataloader():
    ds = ShapeScenes("val", 8, image_size=32, transform=lambda im: torch.from_numpy(np.asarray(im).copy()))
    sample = ds[0]
    assert isinstance(sample.image, torch.Tensor) and sample.image.shape == (32, 32, 3)
    batch = next(iter(torch.utils.data.DataLoader(ds, batch_size=4, collate_fn=list)))
    assert len(batch) == 4 and all(isinstance(s, Sample) for s in batch)


def test_cached_images_are_the_drawn_ones():
    def transform(im):
        return torch.from_numpy(np.asarray(im).copy())

    plain, cached = (ShapeScenes("train", 6, seed=4, transform=transform, cache_images=c) for c in (False, True))
    for _ in range(2):  # the second pass reads the cache
        for i in range(len(plain)):
            assert torch.equal(plain[i].image, cached[i].image) and plain[i].prompt == cached[i].prompt
    assert len(cached._images) == 6


def test_scene_errors():
    with pytest.raises(ValueError, match="split must be one of"):
        ShapeScenes("dev", 3)
    with pytest.raises(ValueError, match="mode must be"):
        ShapeScenes("train", 3, mode="chat")
    with pytest.raises(ValueError, match="kinds"):
        ShapeScenes("train", 3, kinds=("colour", "size"))
    with pytest.raises(ValueError, match="image_size must be in 16..1024 pixels, got 8"):
        ShapeScenes("train", 3, image_size=8)
    with pytest.raises(ValueError, match="texture"):
        ShapeScenes("train", 3, texture=0.5)
    with pytest.raises(ValueError, match="max_objects must be in 1..9"):
        ShapeScenes("train", 3, max_objects=10)


# ----------------------------------------------------------------------------- Fashion-MNIST and digits


def test_digit_questions():
    sets = {split: LabelledImageQA("digits", split, image_size=32) for split in ("train", "val", "test")}
    assert sum(len(s) for s in sets.values()) == 1797
    for split, ds in sets.items():
        templates = {ds.qa(i).template for i in range(len(ds))}
        held = held_out_templates("digits")
        assert (templates <= held) if split == "test" else not templates & held
        for i in range(0, len(ds), 37):
            sample, qa = ds[i], ds.qa(i)
            assert sample.image.size == (32, 32) and sample.image.mode == "RGB"
            label = int(ds.labels[i])
            expected = CLASS_NAMES["digits"][label] if qa.kind == "class" else \
                "yes" if qa.query["asked"] == label else "no"
            assert sample.answer == expected and qa.query["label"] == label
    assert sets["test"][0].prompt == f"what number does this image show?\n{IMAGE_MARKER}\nanswer:"
    caption = LabelledImageQA("digits", "train", mode="caption", limit=5)
    assert len(caption) == 5 and all(caption[i].answer.split()[-1].rstrip(".") in CLASS_NAMES["digits"]
                                     or "written by hand" in caption[i].answer for i in range(5))


def test_fashion_questions_from_idx_files(tmp_path):
    rng = np.random.default_rng(0)
    for prefix, n in (("train", 40), ("t10k", 20)):
        write_idx(tmp_path / f"{prefix}-images-idx3-ubyte.gz", rng.integers(0, 256, (n, 28, 28), dtype=np.uint8))
        write_idx(tmp_path / f"{prefix}-labels-idx1-ubyte.gz", np.arange(n, dtype=np.uint8) % 10)
    train = LabelledImageQA("fashion-mnist", "train", root=tmp_path, image_size=28)
    val = LabelledImageQA("fashion-mnist", "val", root=tmp_path, image_size=28)
    test = LabelledImageQA("fashion-mnist", "test", root=tmp_path, mode="caption")
    assert len(train) + len(val) == 40 and len(val) == 10 and len(test) == 20
    train_images = {bytes(im.numpy()) for im in train.images}
    assert not train_images & {bytes(im.numpy()) for im in val.images}
    class_answers = {train.qa(i).answer for i in range(len(train)) if train.qa(i).kind == "class"}
    assert class_answers <= set(CLASS_NAMES["fashion-mnist"]) and "t-shirt" in CLASS_NAMES["fashion-mnist"]
    assert test[7].answer == "a picture of a sneaker." and test.qa(0).template == "caption/2"


def test_labelled_errors(tmp_path):
    with pytest.raises(ValueError, match="source must be one of"):
        LabelledImageQA("cifar")
    with pytest.raises(ValueError, match="split must be one of"):
        LabelledImageQA("digits", "dev")
    with pytest.raises(FileNotFoundError, match="Fashion-MNIST"):
        LabelledImageQA("fashion-mnist", root=tmp_path)


def test_beside_is_mostly_about_a_neighbour_that_is_there(train):
    """A constant "nothing" must not score well: scenes with no neighbours ask no `beside` question."""
    answers = [train.qa(i).answer for i in range(len(train)) if train.qa(i).kind == "beside"]
    nothing = answers.count("nothing") / len(answers)
    assert len(answers) > 100 and 0.05 < nothing < 0.3, (len(answers), nothing)


def test_worked_parts_score_each_part_of_a_worked_answer():
    """worked_parts reads back what answer_query writes: every worked answer of a split scores right in every
    part against itself; a wrong verdict, a wrong cell and text not in the worked form each score as they are."""
    data = ShapeScenes("val", 120, kinds=("relation", "which"))
    assert len(data) > 100
    for i in range(len(data)):
        qa = data.qa(i)
        assert all(worked_parts(qa.question, qa.answer, qa.answer).values()), qa

    question = "is the red circle left of the blue square?"
    answer = "red circle at the top left, blue square at the bottom: yes"
    assert read_worked(answer) == (("red circle", (0, 0)), ("blue square", (2, 1)), "yes")
    assert worked_parts(question, answer, "red circle at the top left, blue square at the bottom: no") == \
        {"first cell": True, "second cell": True, "verdict": False, "verdict follows": False}
    # a wrong cell, and the verdict that follows from it: wrong, but consistent
    assert worked_parts(question, answer, "Red circle at the right, blue square at the bottom: No.") == \
        {"first cell": False, "second cell": True, "verdict": False, "verdict follows": True}
    assert not any(worked_parts(question, answer, "yes").values())
    assert not worked_parts(question, answer, "red circle at the moon, blue square at the top: yes")["verdict follows"]
    which = "which is further up, the red circle or the blue square?"
    assert worked_parts(which, "red circle at the top left, blue square at the bottom: red circle",
                        "red circle at the bottom, blue square at the top: blue square") == \
        {"first cell": False, "second cell": False, "verdict": False, "verdict follows": True}
    assert not worked_parts(which, "red circle at the top left, blue square at the bottom: red circle",
                            "red circle at the top, blue square at the top: red circle")["verdict follows"]  # a tie
