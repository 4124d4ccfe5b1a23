"""CLIP vision tower parity with transformers (CLIPVisionModel, CLIPModel) and timm's CLIP ViTs on random weights
(fp32, max abs diff <= 1e-4), at the chosen feature layer with both select strategies, and its errors."""
import dataclasses
import json
import os

import pytest
import timm
import torch
import transformers
from safetensors.torch import save_file

import zoo
from tests.helpers import randomize
from zoo.clip import ClipVisionConfig, ClipVisionTower
from zoo.convert import hf_clip
from zoo.convert.common import UnsupportedConfigError

os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers.logging.set_verbosity_error()
ATOL = 1e-4
DEPTH = 3


def pixels(size=32, chans=3, b=2):
    return torch.randn(b, chans, size, size, generator=torch.Generator().manual_seed(1))


def vision_config(**kwargs):
    args = dict(hidden_size=48, intermediate_size=96, num_hidden_layers=DEPTH, num_attention_heads=4, image_size=32,
                patch_size=8)
    return transformers.CLIPVisionConfig(**{**args, **kwargs})


def hf_vision(**kwargs):
    return randomize(transformers.CLIPVisionModel(vision_config(**kwargs)))


def hf_clip_model():
    text = dict(hidden_size=32, intermediate_size=64, num_hidden_layers=1, num_attention_heads=4, vocab_size=50)
    config = transformers.CLIPConfig(vision_config=vision_config().to_dict(), text_config=text, projection_dim=16)
    return randomize(transformers.CLIPModel(config))


def tower_with(model, **features):
    """The same weights as `model`, another feature layer or strategy."""
    tower = ClipVisionTower(dataclasses.replace(model.config, **features))
    tower.load_state_dict(model.state_dict())
    return tower.eval()


def max_diff(a, b):
    return (a - b).abs().max().item()


def assert_hf_parity(ours, ref, x=None):
    """Every hidden state, last_hidden_state and pooler_output of a CLIPVisionModel-like `ref`."""
    x = pixels() if x is None else x
    with torch.no_grad():
        out = ref(x, output_hidden_states=True)
        assert len(out.hidden_states) == DEPTH + 1
        for layer in range(-(DEPTH + 1), DEPTH + 1):
            assert max_diff(ours.hidden_state(x, layer), out.hidden_states[layer]) <= ATOL, layer
        assert max_diff(ours.forward_features(x), out.last_hidden_state) <= ATOL
        assert max_diff(ours(x), out.pooler_output) <= ATOL


def test_hf_vision_model_hidden_states_and_pooler():
    ref = hf_vision()
    ours = zoo.from_hf(ref)
    assert isinstance(ours, ClipVisionTower) and ours.config.family == "clip"
    assert ours.config.act == "quick_gelu" and ours.config.norm_eps == 1e-5 and ours.config.pre_norm
    assert_hf_parity(ours, ref)


@pytest.mark.parametrize("strategy", ["default", "full"])
@pytest.mark.parametrize("layer", [-1, -2, 1, 0])
def test_hf_image_features_at_the_chosen_layer(layer, strategy):
    """transformers' Llava: hidden_states[vision_feature_layer], [:, 1:] for "default"; only the blocks up to that
    layer run."""
    ref = hf_vision()
    ours = tower_with(zoo.from_hf(ref), vision_feature_layer=layer, vision_feature_select_strategy=strategy)
    ran = []
    for i, block in enumerate(ours.transformer.blocks):
        block.register_forward_hook(lambda module, args, out, i=i: ran.append(i))
    x = pixels()
    with torch.no_grad():
        got = ours.image_features(x)
        want = ref(x, output_hidden_states=True).hidden_states[layer]
    want = want[:, 1:] if strategy == "default" else want
    assert got.shape == want.shape == (2, ours.num_image_tokens, 48)
    assert ours.num_image_tokens == 16 + (strategy == "full")
    assert max_diff(got, want) <= ATOL
    assert ran == list(range(layer % (DEPTH + 1)))


def test_hf_gelu_tower():
    ref = hf_vision(hidden_act="gelu", layer_norm_eps=1e-6)
    ours = zoo.from_hf(ref)
    assert ours.config.act == "gelu" and ours.config.norm_eps == 1e-6
    assert_hf_parity(ours, ref)


def test_hf_clip_model_vision_half():
    ref = hf_clip_model()
    ours = zoo.from_hf(ref)
    assert isinstance(ours, ClipVisionTower)
    assert_hf_parity(ours, ref.vision_model)


@pytest.mark.parametrize("kind", ["vision", "clip"])
def test_hf_saved_directory(kind, tmp_path):
    ref = hf_vision() if kind == "vision" else hf_clip_model()
    ref.save_pretrained(tmp_path)
    ours = zoo.from_hf(tmp_path)
    assert_hf_parity(ours, ref if kind == "vision" else ref.vision_model)
    assert zoo.load_directory(tmp_path).config == ours.config


def test_hf_directory_with_vision_model_prefix(tmp_path):
    """Hub checkpoints of CLIPVisionModel (transformers 4.x) name `vision_model.*` and keep position_ids."""
    ref = hf_vision()
    state = {f"vision_model.{k}": v.contiguous() for k, v in ref.state_dict().items()}
    state["vision_model.embeddings.position_ids"] = torch.arange(17)[None]
    save_file(state, str(tmp_path / "model.safetensors"))
    (tmp_path / "config.json").write_text(json.dumps(ref.config.to_dict()))
    assert_hf_parity(zoo.from_hf(tmp_path), ref)


def test_hf_unsupported_are_named():
    config = transformers.CLIPConfig(vision_config=vision_config().to_dict(), text_config=dict(
        hidden_size=32, intermediate_size=64, num_hidden_layers=1, num_attention_heads=4, vocab_size=50))
    with pytest.raises(UnsupportedConfigError, match="CLIPForImageClassification"):
        zoo.from_hf(transformers.CLIPForImageClassification(config))
    with pytest.raises(UnsupportedConfigError, match="hidden_act='mish'"):
        zoo.from_hf(transformers.CLIPVisionModel(vision_config(hidden_act="mish")))
    with pytest.raises(UnsupportedConfigError, match="non-square image_size 32x48"):  # transformers builds none
        hf_clip.config_from_hf({**vision_config().to_dict(), "image_size": [32, 48]}, {})
    with pytest.raises(UnsupportedConfigError, match="model_type 'siglip_vision_model'"):
        hf_clip.config_from_hf({**vision_config().to_dict(), "model_type": "siglip_vision_model"}, {})


TIMM_CLIPS = ["vit_base_patch16_clip_224", "vit_base_patch16_clip_quickgelu_224"]


def timm_clip(name, **kwargs):
    args = dict(pretrained=False, img_size=32, patch_size=8, embed_dim=48, depth=DEPTH, num_heads=4)
    return randomize(timm.create_model(name, **{**args, **kwargs}))


@pytest.mark.parametrize("name", TIMM_CLIPS)
def test_timm_clip(name):
    ref = timm_clip(name)
    ours = zoo.from_timm(ref)
    assert isinstance(ours, ClipVisionTower) and ours.config.pre_norm and ours.config.norm_eps == 1e-5
    assert ours.config.act == ("quick_gelu" if "quickgelu" in name else "gelu")
    x = pixels()
    with torch.no_grad():
        assert max_diff(ours(x), ref(x)) <= ATOL
        assert max_diff(ours.forward_features(x), ref.forward_features(x)) <= ATOL  # timm's final norm on every token
        blocks = ref.forward_intermediates(x, indices=list(range(DEPTH)), output_fmt="NLC", intermediates_only=True,
                                           return_prefix_tokens=True)  # block outputs, no final norm
        for layer, (patches, prefix) in enumerate(blocks, start=1):
            assert max_diff(ours.hidden_state(x, layer), torch.cat([prefix, patches], dim=1)) <= ATOL
        assert max_diff(ours.image_features(x), blocks[-2][0]) <= ATOL  # layer -2, class token dropped


def test_timm_clip_round_trips(tmp_path):
    ours = zoo.from_timm(timm_clip(TIMM_CLIPS[1], num_classes=0))
    ours.save_pretrained(tmp_path)
    loaded = zoo.load_pretrained(tmp_path).eval()
    assert type(loaded) is ClipVisionTower and loaded.config == ours.config
    x = pixels()
    with torch.no_grad():
        assert torch.equal(loaded.image_features(x), ours.image_features(x))


def test_tower_from_a_trained_vit():
    """A ViT of ours (e.g. from scripts/train_vision.py) becomes a tower with the same weights."""
    vit = zoo.create_model("vit_tiny_patch4_28").eval()
    tower = ClipVisionTower(ClipVisionConfig.from_vit(vit.config, vision_feature_layer=-1)).eval()
    tower.load_state_dict(vit.state_dict())
    x = pixels(28, chans=1)
    with torch.no_grad():
        assert torch.equal(tower(x), vit(x))
        assert tower.image_features(x).shape == (2, 49, 128)


def test_large_336_preset_on_meta_has_clip_l14_336_shapes():
    """openai/clip-vit-large-patch14-336's vision tower, counted without allocating: every tensor of
    transformers' CLIPVisionModel, converted, has our shape."""
    config = vision_config(hidden_size=1024, intermediate_size=4096, num_hidden_layers=24, num_attention_heads=16,
                           image_size=336, patch_size=14)
    with torch.device("meta"):
        ours = zoo.create_model("clip_vit_large_patch14_336")
        ref = transformers.CLIPVisionModel(config)
    count = sum(p.numel() for p in ours.parameters())
    assert count == sum(p.numel() for p in ref.parameters()) == 303_507_456
    assert ours.config == hf_clip.config_from_hf(config.to_dict(), {})
    converted = hf_clip.convert_state_dict(dict(ref.state_dict()), ours.config, "CLIPVisionModel")
    assert {k: v.shape for k, v in converted.items()} == {k: v.shape for k, v in ours.state_dict().items()}
    assert ours.num_image_tokens == 576 and ours.config.vision_feature_layer == -2


def test_tiny_preset():
    tower = zoo.create_model("clip_vit_tiny_patch8_32").eval()
    x = pixels(32)
    assert tower.image_features(x).shape == (2, tower.num_image_tokens, 64) == (2, 16, 64)
    assert tower(x).shape == (2, 64)


@pytest.mark.parametrize("x,match", [
    (pixels(48), r"pixels are 48x48 images \(shape \(2, 3, 48, 48\)\) but the vision tower takes 32x32"),
    (pixels(32, chans=1), r"pixels have 1 channel\(s\) \(shape \(2, 1, 32, 32\)\) but the model expects in_chans=3"),
    (pixels(30), "image size 30x30 .* not divisible by the patch size 8"),
    (torch.zeros(3, 32, 32), r"pixels must be \(B, C, H, W\); got shape \(3, 32, 32\)"),
])
def test_bad_pixels_are_named(x, match):
    tower = zoo.create_model("clip_vit_tiny_patch8_32")
    with pytest.raises(ValueError, match=match):
        tower.image_features(x)


@pytest.mark.parametrize("layer", [4, -5, 10])
def test_feature_layer_out_of_range(layer):
    with pytest.raises(ValueError, match=rf"vision_feature_layer={layer} is out of range for a tower of depth 3: "
                                         r"expected -4\.\.3"):
        zoo.create_model("clip_vit_tiny_patch8_32", vision_feature_layer=layer)
    tower = zoo.create_model("clip_vit_tiny_patch8_32")
    with pytest.raises(ValueError, match=rf"layer={layer} is out of range .* expected -4\.\.3"):
        tower.hidden_state(pixels(32), layer)


def test_bad_feature_config_is_named():
    with pytest.raises(ValueError, match=r"vision_feature_select_strategy must be one of \('default', 'full'\), "
                                         "got 'cls'"):
        zoo.create_model("clip_vit_tiny_patch8_32", vision_feature_select_strategy="cls")
    with pytest.raises(ValueError, match=r"vision_feature_layer=\[-2, -1\] \(list\): expected int"):
        zoo.create_model("clip_vit_tiny_patch8_32", vision_feature_layer=[-2, -1])
