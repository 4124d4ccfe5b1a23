"""LLaVA parity with transformers' LlavaForConditionalGeneration on random weights (fp32, max abs logit diff
<= 1e-4): one sample, left-padded batches, several images per sample, none; checkpoints in both key layouts and
saved directories; generation with images (greedy, beams, sampling, fixed-shape steps) against transformers'
generate, against one prompt at a time and against recompute; and the errors bad inputs get."""
import dataclasses
import json
import os

import pytest
import torch
import transformers
from safetensors import safe_open
from safetensors.torch import save_file

import zoo
from heads.fusion import Projector, check_placeholders, repeat_images, splice_images
from tests.helpers import eager_compiled_steps
from tests.llava_cases import IMAGE_ID, PAD, PROMPTS, TOKENS, VOCAB, batch, hf_llava_model
from zoo.convert import hf_llava
from zoo.convert.common import UnsupportedConfigError
from zoo.llava import Llava, LlavaConfig

os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers.logging.set_verbosity_error()
ATOL = 1e-4


@pytest.fixture(scope="module")
def pair():
    ref = hf_llava_model()
    return ref, zoo.from_hf(ref)


def max_diff(a, b):
    return (a - b).abs().max().item()


def hf_logits(ref, inputs, **kwargs):
    with torch.no_grad():
        return ref(input_ids=inputs["input_ids"], pixel_values=inputs["pixel_values"],
                   attention_mask=inputs["attention_mask"], **kwargs).logits


def our_logits(ours, inputs):
    with torch.no_grad():
        return ours(inputs["input_ids"], inputs["pixel_values"], attention_mask=inputs["attention_mask"])


# ----------------------------------------------------------------------------- forward parity


@pytest.mark.parametrize("name", ["one", "two", "none"])
def test_one_sample(pair, name):
    ref, ours = pair
    inputs = batch(name)
    assert int((inputs["input_ids"] == IMAGE_ID).sum()) == TOKENS * len(PROMPTS[name][1])
    assert max_diff(our_logits(ours, inputs), hf_logits(ref, inputs)) <= ATOL


def test_converted_config_and_tower(pair):
    ref, ours = pair
    c = ours.config
    assert isinstance(ours, Llava) and c.image_token_id == IMAGE_ID and c.projector == "mlp" and c.projector_bias
    assert c.vision.depth == 3 and c.vision.vision_feature_layer == -2 and c.text.vocab_size == VOCAB
    assert len(ours.vision_tower.transformer.blocks) == 2  # layer -2 of 3: the last block is not built
    assert ours.num_image_tokens == TOKENS


@pytest.mark.parametrize("names", [("one", "short"), ("short", "two"), ("none", "two", "one")])
def test_left_padded_batch(pair, names):
    """Each sample of a left-padded batch (different lengths and image counts, none included) against
    transformers on that sample alone, unpadded; and against transformers batched, given the positions its
    generate() derives from the mask (its forward counts padding as positions)."""
    ref, ours = pair
    inputs = batch(*names)
    mask = inputs["attention_mask"]
    got = our_logits(ours, inputs)
    assert (mask == 0).any()
    for i, name in enumerate(names):
        alone = batch(name)
        real = mask[i].bool()
        assert max_diff(got[i, real], hf_logits(ref, alone)[0]) <= ATOL, name
    positions = (mask.cumsum(-1) - 1).masked_fill(mask == 0, 0)
    want = hf_logits(ref, inputs, position_ids=positions)
    assert max_diff(got[mask.bool()], want[mask.bool()]) <= ATOL


@pytest.mark.parametrize("layer,strategy", [(-1, "full"), (1, "default"), (-3, "full")])
def test_other_feature_layers_and_strategies(layer, strategy):
    ref = hf_llava_model(layer=layer, strategy=strategy)
    ours = zoo.from_hf(ref)
    tokens = TOKENS + (strategy == "full")
    assert ours.num_image_tokens == tokens
    assert len(ours.vision_tower.transformer.blocks) == layer % 4
    inputs = batch("two", "one", tokens=tokens)
    got, want = our_logits(ours, inputs), hf_logits(ref, inputs, position_ids=(
        inputs["attention_mask"].cumsum(-1) - 1).clamp(min=0))
    real = inputs["attention_mask"].bool()
    assert max_diff(got[real], want[real]) <= ATOL


def test_tied_embeddings_and_another_projector_activation():
    ref = hf_llava_model(tied=True, act="gelu_pytorch_tanh", bias=False)
    ours = zoo.from_hf(ref)
    assert ours.config.text.tie_embeddings and ours.tied_parameters()
    assert ours.config.projector_act == "gelu_tanh" and ours.projector.fc1.bias is None
    inputs = batch("one")
    assert max_diff(our_logits(ours, inputs), hf_logits(ref, inputs)) <= ATOL


# ----------------------------------------------------------------------------- checkpoints


def hub_layout(state):
    """transformers 5's instance keys -> the older checkpoint layout (transformers 4.x, the Hub's llava-hf files):
    vision_tower.vision_model.*, multi_modal_projector.*, language_model.model.*, language_model.lm_head.*."""
    renames = (("model.vision_tower.", "vision_tower.vision_model."),
               ("model.multi_modal_projector.", "multi_modal_projector."),
               ("model.language_model.", "language_model.model."), ("lm_head.", "language_model.lm_head."))
    out = {}
    for key, value in state.items():
        for old, new in renames:
            if key.startswith(old):
                out[new + key.removeprefix(old)] = value.clone().contiguous()
                break
        else:
            raise AssertionError(key)
    return out


@pytest.mark.parametrize("layout", ["saved", "hub", "new_keys"])
def test_checkpoint_directories(pair, layout, tmp_path):
    """save_pretrained's directory (transformers 5 writes the older key names back), the Hub's layout (with
    CLIPVisionModel's vision_model. prefix) and transformers 5's instance keys in a directory."""
    ref, _ = pair
    if layout == "saved":
        ref.save_pretrained(tmp_path)
        with safe_open(str(tmp_path / "model.safetensors"), framework="pt") as f:
            assert any(k.startswith("language_model.model.") for k in f.keys())
    else:
        state = {k: v.clone().contiguous() for k, v in ref.state_dict().items()}
        save_file(hub_layout(state) if layout == "hub" else state, str(tmp_path / "model.safetensors"))
        (tmp_path / "config.json").write_text(json.dumps(ref.config.to_dict()))
    ours = zoo.from_hf(tmp_path)
    inputs = batch("two", "none")
    real = inputs["attention_mask"].bool()
    positions = (inputs["attention_mask"].cumsum(-1) - 1).clamp(min=0)
    assert max_diff(our_logits(ours, inputs)[real], hf_logits(ref, inputs, position_ids=positions)[real]) <= ATOL
    assert zoo.load_directory(tmp_path).config == ours.config


def test_save_pretrained_round_trip(pair, tmp_path):
    _, ours = pair
    ours.save_pretrained(tmp_path)
    loaded = zoo.load_pretrained(tmp_path).eval()
    assert loaded.config == ours.config and isinstance(loaded.config.vision, type(ours.config.vision))
    inputs = batch("two", "one")
    assert torch.equal(our_logits(loaded, inputs), our_logits(ours, inputs))


def test_unsupported_and_unknown_checkpoints(pair):
    ref, _ = pair
    cfg = ref.config.to_dict()
    with pytest.raises(UnsupportedConfigError, match="vision_feature_layer"):
        hf_llava.config_from_hf({**cfg, "vision_feature_layer": [-2, -1]}, {})
    with pytest.raises(UnsupportedConfigError, match="'mistral'"):
        hf_llava.config_from_hf({**cfg, "text_config": {**cfg["text_config"], "model_type": "mistral"}}, {})
    assert hf_llava.config_from_hf({**cfg, "image_token_id": 95}, {}).image_token_id == 95
    state = dict(ref.state_dict())
    state["model.something_else.weight"] = torch.zeros(1)
    config = hf_llava.config_from_hf(cfg, state)
    with pytest.raises(ValueError, match="model.something_else.weight"):
        hf_llava.convert_state_dict(state, config, "test")


def test_realistic_preset_has_llava_1_5_7b_shapes():
    """llava_v1_5_7b on the meta device (nothing allocated) holds every tensor of transformers' llava-1.5-7b
    shape, less the tower's last block and post_layernorm, which LLaVA never runs."""
    text = transformers.LlamaConfig(vocab_size=32064, max_position_embeddings=4096, rms_norm_eps=1e-5)
    with torch.device("meta"):
        ours = zoo.create_model("llava_v1_5_7b")
        ref = transformers.LlavaForConditionalGeneration(transformers.LlavaConfig(text_config=text))
    config = hf_llava.config_from_hf(ref.config.to_dict(), {})
    assert config == dataclasses.replace(ours.config, text=dataclasses.replace(ours.config.text, head_dim=128))
    want = {k: v.shape for k, v in hf_llava.convert_state_dict(ref.state_dict(), config, "ref").items()}
    assert want == {k: v.shape for k, v in ours.state_dict().items()}
    count = lambda m: sum(p.numel() for p in m.parameters())  # noqa: E731
    assert count(ours) == 7_050_828_800 and count(ref) - count(ours) == 12_596_224 + 2048
    assert ours.num_image_tokens == 576 and zoo.model_info("llava_v1_5_7b")["family"] == "llava"


# ----------------------------------------------------------------------------- generation


def hf_generate(ref, inputs, n, **kwargs):
    with torch.no_grad():
        return ref.generate(input_ids=inputs["input_ids"], pixel_values=inputs["pixel_values"],
                            attention_mask=inputs["attention_mask"], max_new_tokens=n, do_sample=False,
                            eos_token_id=None, pad_token_id=PAD, **kwargs)


def our_generate(ours, inputs, n, **kwargs):
    return zoo.generate(ours, inputs["input_ids"], n, pixel_values=inputs["pixel_values"],
                        attention_mask=inputs["attention_mask"], **kwargs)


@pytest.mark.parametrize("name", ["one", "two"])
def test_greedy_with_images_equals_transformers(pair, name):
    ref, ours = pair
    inputs = batch(name)
    assert torch.equal(our_generate(ours, inputs, 10), hf_generate(ref, inputs, 10))


def test_batched_greedy_equals_one_by_one_and_transformers(pair):
    ref, ours = pair
    names = ("two", "none", "short")
    inputs = batch(*names)
    got = our_generate(ours, inputs, 8)
    width = inputs["input_ids"].shape[1]
    for i, name in enumerate(names):
        alone = batch(name)
        assert torch.equal(got[i, width:], our_generate(ours, alone, 8)[0, alone["input_ids"].shape[1]:]), name
    assert torch.equal(got, hf_generate(ref, inputs, 8))  # transformers' generate takes positions from the mask


def test_beams_with_images_equal_transformers_and_one_by_one(pair):
    ref, ours = pair
    inputs = batch("two", "short")  # 2 images, then 1: each beam row reads its own sample's images
    got = our_generate(ours, inputs, 6, num_beams=3)
    assert torch.equal(got, hf_generate(ref, inputs, 6, num_beams=3))
    for i, name in enumerate(("two", "short")):
        alone = batch(name)
        mine = got[i, inputs["input_ids"].shape[1]:]
        assert torch.equal(mine, our_generate(ours, alone, 6, num_beams=3)[0, alone["input_ids"].shape[1]:])


def test_sampling_with_images_is_reproducible(pair):
    _, ours = pair
    inputs = batch("one")
    draw = lambda seed: our_generate(ours, inputs, 6, do_sample=True, top_k=20,  # noqa: E731
                                     generator=torch.Generator().manual_seed(seed))
    assert torch.equal(draw(0), draw(0)) and draw(0).shape == (1, inputs["input_ids"].shape[1] + 6)


def test_fixed_shape_steps_with_images(pair, monkeypatch):
    """generate(compile=True)'s one-token steps (cache slot and positions as tensors), run eagerly."""
    _, ours = pair
    inputs = batch("short", "two")
    want = our_generate(ours, inputs, 6)
    calls = eager_compiled_steps(monkeypatch)
    assert torch.equal(our_generate(ours, inputs, 6, compile=True), want) and len(calls) == 5


def test_cached_decoding_with_an_image_equals_recompute(pair):
    """Prefill with the images at input_pos 0, then chunks and single tokens without them (and one more image in
    a later chunk, a conversation's next turn): the logits of one full forward over the whole sequence."""
    _, ours = pair
    first, later = batch("two"), batch("short")
    ids = torch.cat([first["input_ids"], later["input_ids"][:, 1:], torch.tensor([[5, 7, 9]])], dim=1)
    pixels = torch.cat([first["pixel_values"], later["pixel_values"]])
    t = first["input_ids"].shape[1]
    with torch.no_grad():
        full = ours(ids, pixels)
        ours.setup_cache(1, ids.shape[1])
        try:
            parts = [ours(ids[:, :t], first["pixel_values"], input_pos=0),
                     ours(ids[:, t:-3], later["pixel_values"], input_pos=t)]
            parts += [ours(ids[:, i:i + 1], input_pos=i) for i in range(ids.shape[1] - 3, ids.shape[1])]
        finally:
            ours.clear_cache()
    assert max_diff(torch.cat(parts, dim=1), full) <= ATOL


def test_session_prefill_encodes_the_images_once(pair):
    _, ours = pair
    inputs = batch("two", "one")
    calls = []
    handle = ours.vision_tower.patch_embed.register_forward_hook(lambda m, a, out: calls.append(out.shape[0]))
    try:
        our_generate(ours, inputs, 5, num_beams=2)
    finally:
        handle.remove()
    assert calls == [3]  # the three images through the tower once, for 2 prompts x 2 beams


# ----------------------------------------------------------------------------- errors


def test_placeholders_that_do_not_match_the_images(pair):
    _, ours = pair
    inputs = batch("one", "two")
    with pytest.raises(ValueError, match=r"sample 1: 32 image placeholder\(s\) .* but 16 image feature\(s\) left"):
        ours(inputs["input_ids"], inputs["pixel_values"][:2], attention_mask=inputs["attention_mask"])
    with pytest.raises(ValueError, match=r"sample 1: 32 .* but 48 image feature\(s\) left"):
        ours(inputs["input_ids"], torch.cat([inputs["pixel_values"]] * 2)[:4],
             attention_mask=inputs["attention_mask"])
    ids = inputs["input_ids"].clone()
    ids[0, ids[0].tolist().index(IMAGE_ID)] = 5  # 15 placeholders: not a whole image
    with pytest.raises(ValueError, match=r"sample 0: 15 image placeholder\(s\) .* but 48 image feature\(s\)"):
        ours(ids, inputs["pixel_values"], attention_mask=inputs["attention_mask"])
    with pytest.raises(ValueError, match=r"sample 0: 16 image placeholder\(s\) .* no pixel_values"):
        ours(inputs["input_ids"], attention_mask=inputs["attention_mask"])
    with pytest.raises(ValueError, match="no pixel_values"):
        zoo.generate(ours, inputs["input_ids"], 3, attention_mask=inputs["attention_mask"])
    two = batch("two", "two")  # 2 x 2 placeholders, 2 images: not one prompt's images per beam
    for beams in (1, 2):
        with pytest.raises(ValueError, match=r"sample 1: 32 image placeholder\(s\) .* but 0 image feature"):
            zoo.generate(ours, two["input_ids"], 3, pixel_values=two["pixel_values"][:2], num_beams=beams)


def test_bad_pixels(pair):
    _, ours = pair
    inputs = batch("one")
    ids = inputs["input_ids"]
    with pytest.raises(ValueError, match=r"pixel_values: .*48x48 .* takes 32x32"):
        ours(ids, torch.randn(1, 3, 48, 48))
    with pytest.raises(ValueError, match=r"pixel_values: .*1 channel\(s\).*in_chans=3"):
        ours(ids, torch.randn(1, 1, 32, 32))
    with pytest.raises(ValueError, match=r"pixel_values: .*\(B, C, H, W\)"):
        ours(ids, torch.randn(3, 32, 32))
    with pytest.raises(ValueError, match="48x48"):
        zoo.generate(ours, ids, 3, pixel_values=torch.randn(1, 3, 48, 48))


def test_pixels_for_a_model_without_a_tower():
    text_only = Llava(LlavaConfig(text=zoo.registry._preset("llama_tiny"), vision=None, image_token_id=4095)).eval()
    ids = torch.randint(0, 4000, (1, 6))
    assert text_only(ids).shape == (1, 6, 4096) and text_only.num_image_tokens == 0
    with pytest.raises(ValueError, match="no vision tower"):
        text_only(ids, torch.randn(1, 3, 32, 32))
    with pytest.raises(ValueError, match="no vision tower"):
        zoo.generate(text_only, ids, 2, pixel_values=torch.randn(1, 3, 32, 32))
    with pytest.raises(ValueError, match="Llama takes no images"):
        zoo.generate(zoo.create_model("llama_tiny"), ids, 2, pixel_values=torch.randn(1, 3, 32, 32))
    with pytest.raises(ValueError, match="outside the language model's vocabulary"):
        LlavaConfig(text=zoo.registry._preset("llama_tiny"), image_token_id=4096)


# ----------------------------------------------------------------------------- fusion pieces and the preset


def test_splice_writes_each_image_at_its_samples_placeholders():
    emb = torch.zeros(3, 6, 2)
    ids = torch.tensor([[9, 9, 1, 9, 9, 1], [1, 1, 1, 1, 1, 1], [1, 9, 9, 1, 1, 1]])
    features = torch.arange(12.0).view(3, 2, 2)  # 3 images of 2 features
    out = splice_images(emb, ids, 9, features)
    assert torch.equal(out[0, [0, 1, 3, 4]], features[:2].reshape(4, 2))
    assert torch.equal(out[2, [1, 2]], features[2]) and not out[1].any()
    check_placeholders([4, 0, 2], 3, 2, 9)
    assert repeat_images([4, 0, 2], 2, 2).tolist() == [0, 1, 0, 1, 2, 2]  # 2 copies of each sample's rows


def test_linear_projector_and_tiny_preset():
    assert isinstance(Projector(8, 4, "linear").fc2, torch.nn.Identity)
    model = zoo.create_model("llava_tiny", projector="linear").eval()
    inputs = model.example_inputs()
    assert model(**inputs).shape == (2, 24, 4096) and model.num_image_tokens == 16
    assert model.config.image_token_id == 4095 and model.config.vision.image_size == 32
    with pytest.raises(ValueError, match="projector must be one of"):
        zoo.create_model("llava_tiny", projector="resampler")
