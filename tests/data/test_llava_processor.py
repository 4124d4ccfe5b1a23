"""data.llava_processor: <image> expansion (as transformers' tokenizer does it with an added token), several
images and none, left padding with its mask, training labels on answers only, pixel values equal to
transformers' CLIPImageProcessor, LLaVA's pad-to-square, clear errors."""
from __future__ import annotations

import numpy as np
import pytest
import torch
from PIL import Image

from data.collate import IGNORE_INDEX
from data.llava_processor import (
    CLIP_MEAN,
    CLIP_STD,
    PIL_PARITY_TOLERANCE,
    LlavaProcessor,
    ToRGB,
    clip_transform,
    num_image_tokens,
    pad_to_square_transform,
)
from data.scene_dataset import ShapeScenes
from data.tokenization import train_bpe

N = 4  # image features per image in these tests


@pytest.fixture(scope="module")
def tokenizer():
    texts = [ShapeScenes("train", 60).qa(i).question for i in range(200)] + ["hello there, user and assistant"] * 5
    tok = train_bpe(texts, vocab_size=320)
    tok.backend.add_special_tokens(["<image>", "<pad>"])   # what a LLaVA tokenizer has
    return tok


@pytest.fixture(scope="module")
def processor(tokenizer):
    return LlavaProcessor(tokenizer, tokenizer.token_to_id("<image>"), N, clip_transform(32),
                          pad_id=tokenizer.token_to_id("<pad>"))


def random_image(h: int, w: int, seed: int = 0, mode: str = "RGB"):
    rng = np.random.default_rng(seed)
    return Image.fromarray(rng.integers(0, 256, (h, w, 3), dtype=np.uint8)).convert(mode)


# ----------------------------------------------------------------------------- expansion


@pytest.mark.parametrize("prompt,markers", [("no image here", 0), ("<image>\nwhat is this?", 1),
                                            ("USER: <image> and <image><image>\nsame?", 3), ("ends with <image>", 1)])
def test_expansion_matches_an_added_token_tokenizer(processor, tokenizer, prompt, markers):
    image_id = tokenizer.token_to_id("<image>")
    ids = processor.encode_prompt(prompt, markers)
    assert ids.count(image_id) == N * markers
    # transformers' LlavaProcessor repeats the token in the text and lets the tokenizer split around it
    expected = tokenizer.encode(prompt.replace("<image>", "<image>" * N), add_special_tokens=False)
    assert ids == expected
    first = ids.index(image_id) if markers else None
    if markers:
        assert ids[first:first + N] == [image_id] * N


def test_bos_and_tokenizers_without_keywords(tokenizer):
    class Plain:                       # encode(text) only, no add_special_tokens keyword
        def encode(self, text):
            return [ord(c) for c in text]
    processor = LlavaProcessor(Plain(), 999, 3, bos_id=1, pad_id=0)
    assert processor.encode_prompt("a<image>b") == [1, 97, 999, 999, 999, 98]
    assert LlavaProcessor(Plain(), 999, 3, bos_id=1, add_bos=False, pad_id=0).encode_prompt("a") == [97]


def test_batch_left_padding_images_and_none(processor, tokenizer):
    prompts = ["<image>\nwhat colour is the circle?", "hi", "<image><image> same shape?"]
    images = [random_image(40, 60, 1), None, [random_image(50, 30, 2), random_image(32, 32, 3)]]
    batch = processor(prompts, images)
    ids, mask = batch["input_ids"], batch["attention_mask"]
    rows = [processor.encode_prompt(p, n, i) for i, (p, n) in enumerate(zip(prompts, (1, 0, 2)))]
    assert ids.shape == mask.shape == (3, max(len(r) for r in rows)) and ids.dtype == mask.dtype == torch.long
    pad = tokenizer.token_to_id("<pad>")
    for row, r in enumerate(rows):
        width = ids.shape[1] - len(r)
        assert ids[row, width:].tolist() == r and mask[row, width:].eq(1).all()
        assert ids[row, :width].eq(pad).all() and mask[row, :width].eq(0).all()
    assert batch["image_counts"] == [1, 0, 2] and batch["pixel_values"].shape == (3, 3, 32, 32)
    order = [images[0], *images[2]]
    for k, image in enumerate(order):   # images in sample, then marker, order
        assert torch.equal(batch["pixel_values"][k], clip_transform(32)(image))
    right = processor(prompts, images, padding_side="right")
    assert right["input_ids"][1, :len(rows[1])].tolist() == rows[1] and right["attention_mask"][1, -1] == 0
    single = processor("hi")
    assert single["pixel_values"] is None and single["input_ids"].tolist() == [rows[1]]
    one = processor("<image> hi", random_image(20, 20))
    assert one["image_counts"] == [1] and one["input_ids"].shape[1] == N + len(processor.encode_prompt(" hi"))


def test_training_batch_labels_are_the_answers(processor, tokenizer):
    ds = ShapeScenes("train", 4, image_size=32)
    samples = [ds[i] for i in range(3)]
    batch = processor.training_batch([s.prompt for s in samples], [s.answer for s in samples],
                                     [[s.image] for s in samples])
    ids, labels, mask = batch["input_ids"], batch["labels"], batch["attention_mask"]
    assert labels.shape == ids.shape and batch["pixel_values"].shape == (3, 3, 32, 32)
    for row, sample in enumerate(samples):
        kept = labels[row][labels[row] != IGNORE_INDEX].tolist()
        assert kept[-1] == tokenizer.eos_id and tokenizer.decode(kept[:-1]) == " " + sample.answer
        n = int(mask[row].sum())
        t = torch.nonzero(labels[row] != IGNORE_INDEX).flatten()
        assert torch.equal(labels[row, t], ids[row, t + 1]) and t.max() == n - 2   # next-token labels


# ----------------------------------------------------------------------------- pixels


def test_clip_transform_equals_transformers_clip_image_processor():
    transformers = pytest.importorskip("transformers")
    from transformers.models.clip.image_processing_pil_clip import CLIPImageProcessorPil

    assert tuple(transformers.utils.constants.OPENAI_CLIP_MEAN) == CLIP_MEAN
    assert tuple(transformers.utils.constants.OPENAI_CLIP_STD) == CLIP_STD
    worst_tv = worst_pil = 0.0
    for k, (size, h, w) in enumerate([(224, 343, 262), (224, 250, 383), (48, 155, 270), (48, 30, 17),
                                      (336, 213, 157), (32, 32, 32), (32, 700, 45)]):
        hw = {"shortest_edge": size}, {"height": size, "width": size}
        reference_tv = transformers.CLIPImageProcessor(size=hw[0], crop_size=hw[1])
        reference_pil = CLIPImageProcessorPil(size=hw[0], crop_size=hw[1])
        image = random_image(h, w, k, "RGB" if k % 3 else "L")
        ours = clip_transform(size)(image)
        tv = reference_tv(images=image, return_tensors="pt")["pixel_values"][0]
        pil = reference_pil(images=image, return_tensors="pt")["pixel_values"][0]
        assert ours.shape == tv.shape == (3, size, size)
        worst_tv = max(worst_tv, (ours - tv).abs().max().item())
        worst_pil = max(worst_pil, (ours - pil).abs().max().item())
    # torchvision backend: the same resize kernel on uint8, the same floor crop: float rounding only.
    assert worst_tv < 1e-5
    # PIL backend: PIL's bicubic rounds to uint8 differently, up to 2 levels (0.03 in normalised units).
    assert worst_pil < PIL_PARITY_TOLERANCE


def test_pad_to_square_is_llavas_expand2square():
    transformers = pytest.importorskip("transformers")
    reference = transformers.CLIPImageProcessor(size={"shortest_edge": 48}, crop_size={"height": 48, "width": 48})
    fill = tuple(int(255 * m) for m in CLIP_MEAN)
    for k, (h, w) in enumerate([(30, 60), (61, 20), (40, 40)]):
        image = random_image(h, w, k)
        side = max(h, w)
        square = Image.new("RGB", (side, side), fill)
        square.paste(image, ((side - w) // 2, (side - h) // 2))   # LLaVA's expand2square
        expected = reference(images=square, return_tensors="pt")["pixel_values"][0]
        assert (pad_to_square_transform(48)(image) - expected).abs().max() < 1e-5


def test_to_rgb_inputs_and_errors():
    grey = torch.randint(0, 256, (10, 12), dtype=torch.uint8)
    assert ToRGB()(grey).shape == (3, 10, 12) and torch.equal(ToRGB()(grey)[2], grey)
    assert ToRGB()(np.zeros((5, 6, 3), np.uint8)).shape == (3, 5, 6)
    assert clip_transform(8)(torch.rand(3, 16, 20)).shape == (3, 8, 8)   # floats in [0, 1] work too
    with pytest.raises(ValueError, match=r"image of shape \(4, 10, 10\)"):
        clip_transform(8)(torch.zeros(4, 10, 10, dtype=torch.uint8))
    with pytest.raises(TypeError, match="expected a PIL image"):
        ToRGB()("picture.png")
    assert num_image_tokens(336, 14) == 576 and num_image_tokens(32, 8, class_token=True) == 17
    with pytest.raises(ValueError, match="not a multiple"):
        num_image_tokens(30, 8)


# ----------------------------------------------------------------------------- errors


def test_marker_image_mismatch_names_sample_and_counts(processor):
    with pytest.raises(ValueError, match=r"sample 1: the prompt has 2 <image> marker\(s\) but 1 image\(s\)"):
        processor(["<image> a", "<image><image> b"], [random_image(8, 8), [random_image(8, 8)]])
    with pytest.raises(ValueError, match=r"sample 0: the prompt has 0 <image> marker\(s\) but 1 image\(s\)"):
        processor("no marker", random_image(8, 8))
    with pytest.raises(ValueError, match="images: 1 entries for 2 prompts"):
        processor(["a", "b"], [None])


def test_other_errors(tokenizer):
    image_id = tokenizer.token_to_id("<image>")
    no_pixels = LlavaProcessor(tokenizer, image_id, N, pad_id=0)
    with pytest.raises(ValueError, match="no image_transform"):
        no_pixels("<image>", random_image(8, 8))
    clash = LlavaProcessor(tokenizer, tokenizer.encode("hi", add_special_tokens=False)[0], N, pad_id=0)
    with pytest.raises(ValueError, match="encodes to the image placeholder id"):
        clash("hi")

    class NoSpecials:
        def encode(self, text):
            return [1]
    with pytest.raises(ValueError, match="pass pad_id="):
        LlavaProcessor(NoSpecials(), 9, N)("a")
    with pytest.raises(ValueError, match="pass eos_id="):
        LlavaProcessor(NoSpecials(), 9, N, pad_id=0).training_batch(["a"], ["b"])
    with pytest.raises(ValueError, match="num_image_tokens must be >= 1"):
        LlavaProcessor(tokenizer, image_id, 0)
    with pytest.raises(ValueError, match="padding_side"):
        no_pixels("a", padding_side="middle")
    with pytest.raises(ValueError, match="2 answers for 1 prompts"):
        no_pixels.training_batch(["a"], ["b", "c"])


def test_prompt_format_round_trips_and_bad_ones_are_named(tmp_path):
    from data.llava_processor import PROMPT_FILE, check_prompt_format, load_prompt_format, save_prompt_format

    assert load_prompt_format(tmp_path, "{question} {image}") == "{question} {image}"  # none saved: the default
    save_prompt_format("{image}\n{question}\nanswer:", tmp_path)
    assert load_prompt_format(tmp_path, "{question} {image}") == "{image}\n{question}\nanswer:"
    assert check_prompt_format("{question}\n{image}\n{question}") == "{question}\n{image}\n{question}"
    for bad in ("{question} only", "{image} {image} {question}", "{image} {question} {answer}", "{image {question}",
                3):
        with pytest.raises(ValueError, match="expected one {image} slot, one or more {question} slots"):
            check_prompt_format(bad)
    with pytest.raises(ValueError, match="expected one {image} slot"):
        save_prompt_format("no image: {question}", tmp_path)
    assert load_prompt_format(tmp_path, "") == "{image}\n{question}\nanswer:"  # the saved one was not replaced
    for stored in ('{"prompt_format": "{question}"}', '{"format": "{image}{question}"}', "not json"):
        (tmp_path / PROMPT_FILE).write_text(stored)
        with pytest.raises(ValueError, match=f"{PROMPT_FILE}: expected"):
            load_prompt_format(tmp_path, "")
