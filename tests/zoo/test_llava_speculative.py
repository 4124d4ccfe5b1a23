"""Speculative decoding with images: a LLaVA target with a smaller LLaVA draft (bound to the same images by
zoo.generate) or a text-only draft of the same vocabulary gives the target's greedy tokens; the image is
encoded once per model and never again after a rejected draft."""
import copy

import pytest
import torch

import zoo
from tests.llava_cases import batch, hf_llava_model
from zoo.generation import GenerationConfig, speculative_generate
from zoo.llava import Llava


@pytest.fixture(scope="module")
def models():
    torch.manual_seed(0)
    target = zoo.from_hf(hf_llava_model()).eval()
    draft = copy.deepcopy(target)
    draft.language_model.transformer.blocks = draft.language_model.transformer.blocks[:1]  # a 1-layer draft
    return target, draft


def test_llava_draft_gives_the_targets_greedy_tokens(models, monkeypatch):
    target, draft = models
    inputs = batch("one")
    want = zoo.generate(target, inputs["input_ids"], 16, pixel_values=inputs["pixel_values"])
    assert len(set(want[0, -16:].tolist())) > 1  # a sequence that changes, so a wrong acceptance would show
    encoded = []
    original = Llava.encode_images
    monkeypatch.setattr(Llava, "encode_images", lambda self, pixels: encoded.append(self) or original(self, pixels))
    got = zoo.generate(target, inputs["input_ids"], 16, pixel_values=inputs["pixel_values"], draft_model=draft,
                       num_draft_tokens=3)
    assert torch.equal(got, want)
    assert sorted(map(id, encoded)) == sorted([id(target), id(draft)])  # once each, rejections included
    tokens, stats = speculative_generate(target.bind_images(inputs["pixel_values"]),
                                         draft.bind_images(inputs["pixel_values"]), inputs["input_ids"],
                                         GenerationConfig(max_new_tokens=16), num_draft_tokens=3)
    assert torch.equal(tokens, want)
    assert 0 < stats.accepted < stats.proposed and stats.target_forwards < 16


def test_a_text_only_draft_of_the_same_vocabulary(models):
    """The draft sees the placeholders as tokens and no image: it drafts worse, the output is the target's."""
    # (a LLaVA draft must make as many image tokens per image as the target: both read the same prompt)
    target, draft = models
    inputs = batch("short")
    want = zoo.generate(target, inputs["input_ids"], 10, pixel_values=inputs["pixel_values"])
    got = zoo.generate(target, inputs["input_ids"], 10, pixel_values=inputs["pixel_values"],
                       draft_model=draft.language_model, num_draft_tokens=2)
    assert torch.equal(got, want)


def test_the_target_or_its_own_language_model_is_no_draft(models):
    """Either would share the target's KV cache."""
    target, _ = models
    inputs = batch("one")
    for draft in (target, target.language_model):
        with pytest.raises(ValueError, match="draft_model must be a different module from the target, sharing none"):
            zoo.generate(target, inputs["input_ids"], 4, pixel_values=inputs["pixel_values"], draft_model=draft)
