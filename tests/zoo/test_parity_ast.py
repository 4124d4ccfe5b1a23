"""AST parity with transformers on random weights (fp32, max abs logit diff <= 1e-4), presets and errors."""
import os

import pytest
import torch
import transformers

import zoo
from tests.helpers import randomize
from zoo.convert.common import UnsupportedConfigError

os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers.logging.set_verbosity_error()
ATOL = 1e-4
FRAMES, BINS = 66, 40  # a 3 x 6 grid; 40 bins leave a 4-bin remainder that the strided conv drops


def hf_config(**kwargs):
    args = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64, max_length=FRAMES,
                num_mel_bins=BINS, num_labels=5)
    return transformers.ASTConfig(**{**args, **kwargs})


def spectrogram(frames=FRAMES, bins=BINS, b=2):
    return torch.randn(b, frames, bins, generator=torch.Generator().manual_seed(1))


def max_diff(a, b):
    return (a - b).abs().max().item()


@pytest.mark.parametrize("kwargs", [dict(), dict(qkv_bias=False, frequency_stride=16, time_stride=8)])
def test_audio_classification(kwargs):
    ref = randomize(transformers.ASTForAudioClassification(hf_config(**kwargs)))
    ours = zoo.from_hf(ref)
    c = ours.config
    assert (c.num_classes, c.norm_eps, c.head_norm, c.num_mel_bins, c.max_length) == (5, 1e-12, True, BINS, FRAMES)
    x = spectrogram()
    with torch.no_grad():
        assert max_diff(ours(x), ref(x).logits) <= ATOL
        assert ours.forward_features(x).shape == (2, 2 + ours.config.grid_size[0] * ours.config.grid_size[1], 32)


def test_ast_model_features_and_pooler():
    ref = randomize(transformers.ASTModel(hf_config()))
    ours = zoo.from_hf(ref)
    assert ours.config.num_classes == 0 and not ours.config.head_norm
    x = spectrogram()
    with torch.no_grad():
        out = ref(x)
        assert ours.forward_features(x).shape == (2, 2 + 3 * 6, 32)
        assert max_diff(ours.forward_features(x), out.last_hidden_state) <= ATOL
        assert max_diff(ours(x), out.pooler_output) <= ATOL  # (class + distillation) / 2


def test_directory_with_checkpoint_names_and_round_trip(tmp_path):
    """save_pretrained writes the classic names (encoder.layer.N.attention.attention.query, ...)."""
    ref = randomize(transformers.ASTForAudioClassification(hf_config()))
    ref.save_pretrained(tmp_path / "hf")
    ours = zoo.from_hf(tmp_path / "hf")
    x = spectrogram()
    with torch.no_grad():
        want = ref(x).logits
        assert max_diff(ours(x), want) <= ATOL
        ours.save_pretrained(tmp_path / "zoo")
        assert max_diff(zoo.load_pretrained(tmp_path / "zoo")(x), want) <= ATOL


def test_presets_have_the_reference_shapes():
    """ast_base_audioset has every tensor of MIT/ast-finetuned-audioset-10-10-0.4593 (meta device: no memory)."""
    from zoo.convert.hf_ast import convert_state_dict

    with torch.device("meta"):
        ref = transformers.ASTForAudioClassification(transformers.ASTConfig(num_labels=527))
        ours = zoo.create_model("ast_base_audioset")
    want = {k: v.shape for k, v in convert_state_dict(ref.state_dict(), ours.config, "ref").items()}
    assert {k: v.shape for k, v in ours.state_dict().items()} == want
    assert ours.patch_embed.grid_size == (12, 101) and ours.patch_embed.pos_embed.shape == (1, 1214, 768)
    tiny = zoo.create_model("ast_tiny").eval()
    x = tiny.example_inputs()["spectrogram"]
    assert x.shape == (2, 128, 128) and tiny(x).shape == (2, tiny.config.num_classes)


def test_other_lengths_resample_positions_and_transposed_input_is_refused():
    model = zoo.create_model("ast_tiny").eval()
    with torch.no_grad():
        assert model.forward_features(spectrogram(frames=56, bins=128)).shape == (2, 2 + 12 * 5, 64)
    with pytest.raises(ValueError, match=r"looks like \(B, mel bins, frames\).*transpose\(1, 2\)"):
        model(spectrogram(frames=128, bins=300))
    with pytest.raises(ValueError, match=r"spectrogram \(mel bins x frames\) 128x12 \(shape \(2, 12, 128\)\) is "
                                         "smaller than the patch size 16"):
        model(spectrogram(frames=12, bins=128))
    with pytest.raises(ValueError, match=r"spectrogram must be \(B, frames, mel bins\); got shape \(128, 128\)"):
        model(torch.zeros(128, 128))


def test_reset_head_keeps_the_norm():
    model = zoo.create_model("ast_tiny")
    model.reset_head(3)
    assert model.config.num_classes == 3 and model(**model.example_inputs()).shape == (2, 3)
    model.reset_head(0)
    assert model(**model.example_inputs(batch_size=1)).shape == (1, 64)


def test_unsupported_configs_are_named():
    with pytest.raises(UnsupportedConfigError, match="hidden_act='mish'"):
        zoo.from_hf(transformers.ASTModel(hf_config(hidden_act="mish")))
    rectangular = transformers.ASTModel(hf_config())
    rectangular.config.patch_size = [16, 8]  # transformers' own AST cannot build this one either
    with pytest.raises(UnsupportedConfigError, match="non-square patch_size 16x8"):
        zoo.from_hf(rectangular)
    with pytest.raises(UnsupportedConfigError, match="head_dim=4; supported: .* = 8"):
        zoo.from_hf(transformers.ASTModel(hf_config(head_dim=4)))
