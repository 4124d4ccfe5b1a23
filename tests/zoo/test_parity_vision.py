"""ViT parity with timm and transformers on random weights (fp32, max abs logit diff <= 1e-4)."""
import os

import pytest
import torch
import transformers
from timm.layers import QuickGELU
from timm.models.vision_transformer import VisionTransformer as TimmViT

import zoo
from tests.helpers import randomize
from zoo.convert import hf_vit
from zoo.convert.common import UnsupportedConfigError
from zoo.registry import config_from_dict

os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers.logging.set_verbosity_error()
ATOL = 1e-4


def pixels(size, chans=3, b=2):
    h, w = (size, size) if isinstance(size, int) else size
    return torch.randn(b, chans, h, w, generator=torch.Generator().manual_seed(1))


def timm_vit(**kwargs):
    args = dict(img_size=32, patch_size=16, embed_dim=48, depth=2, num_heads=4, num_classes=7)
    return randomize(TimmViT(**{**args, **kwargs}))


def assert_parity(ours, ref, x, features=True):
    with torch.no_grad():
        assert (ours(x) - ref(x)).abs().max().item() <= ATOL
        if features:  # every token, prefix included, after the final norm
            assert (ours.forward_features(x) - ref.forward_features(x)).abs().max().item() <= ATOL


VARIANTS = {
    "patch16_token": dict(),
    "patch8_avg_fc_norm": dict(patch_size=8, global_pool="avg"),
    "patch14_layerscale_no_qkv_bias": dict(img_size=28, patch_size=14, init_values=1e-5, qkv_bias=False),
    "registers_no_embed_class": dict(patch_size=8, reg_tokens=4, no_embed_class=True, init_values=1e-6),
    "registers_no_class_token": dict(patch_size=8, reg_tokens=2, class_token=False, global_pool="avg"),
    "avg_without_fc_norm": dict(patch_size=8, global_pool="avg", fc_norm=False),
    "clip_pre_norm_quick_gelu": dict(patch_size=8, pre_norm=True, act_layer=QuickGELU, mlp_ratio=2.5),
    "headless_one_channel": dict(in_chans=1, num_classes=0),
    "no_positions": dict(patch_size=8, pos_embed="none"),
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_timm(name):
    kwargs = VARIANTS[name]
    ref = timm_vit(**kwargs)
    ours = zoo.from_timm(ref)
    assert ours.num_prefix_tokens == ref.num_prefix_tokens
    assert_parity(ours, ref, pixels(ref.patch_embed.img_size, ref.patch_embed.proj.in_channels))


@pytest.mark.parametrize("kwargs", [dict(), dict(reg_tokens=3, no_embed_class=True), dict(global_pool="avg")])
@pytest.mark.parametrize("size", [(48, 40), (16, 24), (32, 32)])
def test_timm_dynamic_image_size(kwargs, size):
    """Another input size resamples the learned positions as timm's dynamic_img_size=True does."""
    ref = timm_vit(patch_size=8, dynamic_img_size=True, **kwargs)
    ours = zoo.from_timm(ref)
    assert ours.config.image_size == 32
    x = pixels(size)
    assert ours.forward_features(x).shape == (2, ref.num_prefix_tokens + size[0] * size[1] // 64, 48)
    assert_parity(ours, ref, x)


@pytest.mark.parametrize("name,kwargs", [
    ("vit_tiny_patch16_224", dict(embed_dim=192, depth=12, num_heads=3)),
    ("vit_small_patch16_224", dict(embed_dim=384, depth=12, num_heads=6)),
    ("vit_base_patch16_224", dict(embed_dim=768, depth=12, num_heads=12)),
    ("vit_small_patch16_224_ls", dict(embed_dim=384, depth=12, num_heads=6, no_embed_class=True, init_values=1e-6)),
])
def test_presets_have_timm_shapes(name, kwargs):
    """Every tensor of the preset has the shape of timm's model (built on the meta device: no memory)."""
    from zoo.convert.timm_vit import convert_state_dict

    with torch.device("meta"):
        ours = zoo.create_model(name)
    want = {k: v.shape for k, v in convert_state_dict(TimmViT(device="meta", **kwargs).state_dict()).items()}
    assert {k: v.shape for k, v in ours.state_dict().items()} == want


def test_timm_converted_model_round_trips(tmp_path):
    ref = timm_vit(patch_size=8, reg_tokens=2, init_values=1e-5)
    ours = zoo.from_timm(ref)
    ours.save_pretrained(tmp_path)
    loaded = zoo.load_pretrained(tmp_path).eval()
    assert loaded.config == ours.config and loaded.config.layer_scale == 1e-5
    assert_parity(loaded, ref, pixels(32), features=False)


@pytest.mark.parametrize("kwargs,match", [
    (dict(qk_norm=True), "qk_norm"),
    (dict(class_token=False, global_pool="map"), "global_pool='map'"),
    (dict(global_pool="max"), "global_pool='max'"),
    (dict(act_layer=torch.nn.SiLU), "activation SiLU"),
    (dict(final_norm=False), "final_norm=False"),
    (dict(img_size=(32, 48)), "non-square img_size 32x48"),
])
def test_timm_unsupported_features_are_named(kwargs, match):
    with pytest.raises(UnsupportedConfigError, match=match):
        args = dict(img_size=32, patch_size=16, embed_dim=16, depth=1, num_heads=2)
        zoo.from_timm(TimmViT(**{**args, **kwargs}))


def test_from_timm_rejects_other_objects():
    with pytest.raises(TypeError, match="timm VisionTransformer"):
        zoo.from_timm(torch.nn.Linear(2, 2))


def hf_config(**kwargs):
    args = dict(hidden_size=48, num_hidden_layers=2, num_attention_heads=4, intermediate_size=96, image_size=32,
                patch_size=8, num_labels=5)
    return transformers.ViTConfig(**{**args, **kwargs})


@pytest.mark.parametrize("qkv_bias", [True, False])
def test_hf_image_classification(qkv_bias):
    ref = randomize(transformers.ViTForImageClassification(hf_config(qkv_bias=qkv_bias)))
    ours = zoo.from_hf(ref)
    assert ours.config.norm_eps == 1e-12 and ours.config.num_classes == 5
    x = pixels(32)
    with torch.no_grad():
        assert (ours(x) - ref(x).logits).abs().max().item() <= ATOL


@pytest.mark.parametrize("pooler", [True, False])
def test_hf_vit_model(pooler):
    ref = randomize(transformers.ViTModel(hf_config(patch_size=16), add_pooling_layer=pooler))
    ours = zoo.from_hf(ref)
    x = pixels(32)
    with torch.no_grad():
        out = ref(x)
        assert (ours.forward_features(x) - out.last_hidden_state).abs().max().item() <= ATOL
        want = out.pooler_output if pooler else out.last_hidden_state[:, 0]
        assert (ours(x) - want).abs().max().item() <= ATOL


def test_hf_directory_with_checkpoint_names(tmp_path):
    """save_pretrained writes the classic names (encoder.layer.N.attention.attention.query, ...)."""
    ref = randomize(transformers.ViTForImageClassification(hf_config(num_channels=1, image_size=24, patch_size=4)))
    ref.save_pretrained(tmp_path)
    ours = zoo.from_hf(tmp_path)
    x = pixels(24, chans=1)
    with torch.no_grad():
        assert (ours(x) - ref(x).logits).abs().max().item() <= ATOL


def test_hf_unsupported_features_are_named():
    with pytest.raises(UnsupportedConfigError, match="ViTForMaskedImageModeling"):
        zoo.from_hf(transformers.ViTForMaskedImageModeling(hf_config(encoder_stride=8)))
    with pytest.raises(UnsupportedConfigError, match="non-square image_size"):
        zoo.from_hf(transformers.ViTForImageClassification(hf_config(image_size=(32, 48))))
    with pytest.raises(UnsupportedConfigError, match="hidden_act='mish'"):
        zoo.from_hf(transformers.ViTForImageClassification(hf_config(hidden_act="mish")))


@pytest.mark.parametrize("name", ["vit_tiny_patch16_224", "vit_base_patch16_224"])
def test_hf_config_kwargs_inverts_config_from_hf(name):
    """hf_vit.hf_config_kwargs (our config -> transformers' ViTConfig) read back by from_hf gives the config again."""
    config = config_from_dict("vit", zoo.model_info(name)["config"])
    with torch.device("meta"):
        hf = transformers.ViTForImageClassification(transformers.ViTConfig(**hf_vit.hf_config_kwargs(config)))
    assert hf_vit.config_from_hf(hf.config.to_dict(), hf.state_dict()) == config
