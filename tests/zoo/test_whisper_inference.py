"""The Whisper decoder through the inference machinery the text decoders use: packing, and the fixed-shape
steps of generate(compile=True) (the cross-attention cache filled at the prefill, then read in place)."""
import copy

import pytest
import torch

import zoo
from tests.helpers import eager_compiled_steps
from zoo.generation import EncoderConditioned


@pytest.fixture(scope="module")
def whisper():
    torch.manual_seed(0)
    model = zoo.create_model("whisper_micro").eval()
    mel = torch.randn(2, 80, 2 * model.config.audio_ctx, generator=torch.Generator().manual_seed(1))
    with torch.inference_mode():
        features = model.encode(mel)
    prompt = torch.tensor([[1, 2, 3], [4, 5, 6]])
    return model, mel, features, prompt, zoo.generate(EncoderConditioned(model, features), prompt, 16)


def test_packed_whisper_encodes_and_decodes_the_same(whisper):
    model, mel, features, prompt, want = whisper
    packed = zoo.pack_for_inference(copy.deepcopy(model))
    with torch.inference_mode():
        torch.testing.assert_close(packed.encode(mel), features, rtol=1e-5, atol=1e-5)
    assert torch.equal(zoo.generate(EncoderConditioned(packed, features), prompt, 16), want)


def test_fixed_shape_steps_equal_the_usual_ones(whisper, monkeypatch):
    """compile=True's steps (cache slot and positions as tensors, the whole self-attention cache masked, the
    cross-attention cache as filled at the prefill), run eagerly: the same tokens."""
    model, _, features, prompt, want = whisper
    calls = eager_compiled_steps(monkeypatch)
    assert torch.equal(zoo.generate(EncoderConditioned(model, features), prompt, 16, compile=True), want)
    assert len(calls) == 15 and all(isinstance(p, torch.Tensor) for p in calls)  # every step after the prefill


@pytest.mark.slow
def test_compiled_whisper_decoding_equals_eager(whisper):
    model, _, features, prompt, want = whisper
    assert torch.equal(zoo.generate(EncoderConditioned(model, features), prompt, 16, compile=True), want)


@pytest.mark.filterwarnings("ignore:Warning. Profiler clears events")
def test_packed_bf16_whisper_decodes_batch_one_through_gemv():
    """bf16 batch-1 Whisper decoding, packed: every decoder projection and the tied output projection go
    through zoo::gemv (AVX512-BF16 machines; skipped with the reason elsewhere), with the tokens of the same
    bf16 weights unpacked, and a transcription window gives the same tokens too."""
    from backbones.inference import gemv
    from zoo.generation.whisper_decode import DecodingOptions, decode

    if gemv.unsupported_reason() is not None:
        pytest.skip(f"zoo::gemv not for this machine: {gemv.unsupported_reason()}")
    assert gemv.available(), gemv.reason()
    torch.manual_seed(0)
    model = zoo.create_model("whisper_micro", vocab_size=51864).to(torch.bfloat16).eval()
    mel = torch.randn(1, 80, 2 * model.config.audio_ctx, generator=torch.Generator().manual_seed(2))
    with torch.inference_mode():
        features = model.encode(mel.to(torch.bfloat16))
    prompt = torch.tensor([[50257, 50362]])
    want = zoo.generate(EncoderConditioned(model, features), prompt, 12)
    packed = zoo.pack_for_inference(copy.deepcopy(model))
    with torch.profiler.profile() as prof:
        got = zoo.generate(EncoderConditioned(packed, features), prompt, 12)
    assert torch.equal(got, want)
    calls = {e.key: e.count for e in prof.key_averages()}
    # each of the 11 one-token steps: 2 decoder blocks x (self q/k/v fused by packing, self o, cross q/o,
    # 2 MLP) + the head
    assert calls.get("zoo::gemv", 0) >= 11 * (2 * 6 + 1), calls.get("zoo::gemv")
    options = DecodingOptions(temperature=0.0, without_timestamps=True, sample_len=12)
    assert decode(packed, mel.to(torch.bfloat16), options)[0].tokens == decode(model, mel.to(torch.bfloat16),
                                                                                 options)[0].tokens
